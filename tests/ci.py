"""One rule for a test whose dependency or data is missing here: outside CI it skips, saying
what is missing; under ``CI=true`` it fails, saying the same, because CI installs everything
the suite needs (``./dev.sh test``) and a skip there would hide a test that never ran.

``need(ok, what)`` inside a test, a fixture or at module level; ``needs(ok, what)`` as a mark
(on a test, or ``pytestmark`` for a module; tests/conftest.py applies it before each test);
``need_module(name, what)`` in place of ``pytest.importorskip``.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

CI = os.environ.get("CI") == "true"
"""Under CI: exactly ``CI=true``, as CI runners set it and as every test here reads it."""


def missing(what: str) -> NoReturn:
    """Fail under ``CI=true``, else skip: ``what`` says what is missing and how to get it."""
    if CI:
        pytest.fail(f"CI=true and this test needs {what}: CI must run it, not skip it")
    # as ``skipif`` does: the summary names the test that skipped, not this line
    raise pytest.skip.Exception(f"needs {what}", allow_module_level=True, _use_item_location=True)


def need(ok: object, what: str) -> None:
    """Go on when ``ok`` is true; otherwise skip, or fail under ``CI=true`` (see :func:`missing`)."""
    if not ok:
        missing(what)


def needs(ok: object, what: str) -> pytest.MarkDecorator:
    """:func:`need` as a mark, checked before the test runs (``ok`` is read when the mark is
    made, at import, like ``skipif``)."""
    return pytest.mark.needs(bool(ok), what)


def need_module(name: str, what: str | None = None) -> ModuleType:
    """Import ``name``; where it cannot be imported, skip, or fail under ``CI=true``."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(f"{what or name} ({exc})")
