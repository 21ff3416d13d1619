"""The server's log: tokens in a request's address are never written to it.

A referee link used to carry the token as ``/referee?token=...``; an access log line keeps
the whole address, so the token landed in the log (and in whatever collects it). The pages
now pass it after ``#``, which browsers never send; this filter redacts what old links and
hand-typed addresses still send: the value of any ``token``, ``pin`` or ``key`` query field.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

SECRET = re.compile(r"(?i)([?&](?:[a-z_]*token|pin|key)=)[^&\s\"]*")


def redact(text: str) -> str:
    return SECRET.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """For uvicorn's access log: its record's args hold the request's path and query."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactTokens` on the access log (a
    dictionary, so every worker process of ``--workers N`` configures it too)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": "service.logs.RedactTokens"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config
