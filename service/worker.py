"""A worker process of ``trickcam serve --workers N`` ends with its parent.

Why: uvicorn's workers are the parent's children; when the parent is killed outright
(SIGKILL, the OOM killer) nothing tells them, so they kept serving and kept the port, and the
next ``trickcam serve`` failed with "Address already in use". On Linux the kernel can send a
child a signal when its parent dies (``PR_SET_PDEATHSIG``): SIGTERM, so a worker shuts down
as it would on Ctrl-C (uvicorn's graceful shutdown, 3 s). ``TRICKCAM_SERVE_PID`` (set by
``trickcam serve``) closes the race of a parent that died before the worker asked.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def end_with_parent() -> None:
    """In a worker process: SIGTERM when the parent dies (Linux; elsewhere a no-op)."""
    expected = os.environ.get("TRICKCAM_SERVE_PID")
    if not sys.platform.startswith("linux") or not expected:
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if str(os.getppid()) != expected:  # the parent is already gone
        os.kill(os.getpid(), signal.SIGTERM)
