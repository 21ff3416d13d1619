"""Secrets the service issues (scorer, referee tokens) can be typed on a command line:
``trickcam watch --post URL --token T`` reads a token that started with ``-`` as an option and
stops (``secrets.token_urlsafe`` gives one in 64 so; a CI run of ``trickcam demo --serve`` met
one)."""

from __future__ import annotations

import re
import secrets

import pytest

from service.store import new_token


def test_tokens_never_start_with_a_dash_and_stay_url_safe() -> None:
    tokens = [new_token() for _ in range(3000)]  # ~47 would start with '-' otherwise
    assert not [t for t in tokens if t.startswith("-")]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)
    assert len(set(tokens)) == len(tokens)


def test_a_draw_starting_with_a_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter(["-starts-with-a-dash", "-again", "fine-token"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: next(draws))
    assert new_token() == "fine-token"
