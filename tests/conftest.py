"""The ``needs`` mark of tests/ci.py: skip, or fail under ``CI=true``, before the test runs."""

from __future__ import annotations

import pytest

from tests.ci import need


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(ok, what): skip when not ok, fail instead under CI=true (tests/ci.py)"
    )


@pytest.hookimpl(tryfirst=True)  # before the fixtures are set up
def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        need(*mark.args)
