"""``trickcam serve --workers N --proxy nginx``: N single-process servers behind Debian's nginx,
every request about one table sent to the same one.

Why: a table's camera is a watcher in one process's memory (service/camera.py): every frame
of the table must reach it, and so should the table's live stream (the camera's plays are
published there first) and a person's answers about its plays. uvicorn's own ``--workers``
share one listening socket, so the kernel hands each connection to any worker. Here each
worker listens on its own port on 127.0.0.1 and nginx, a real reverse proxy, listens on
``--host:--port``: a request under ``/api/tables/{id}`` (``/api/referee/tables/{id}`` too) goes
to the worker that the table's id hashes to (``hash ... consistent``), any other to any worker.

The configuration (:data:`CONFIG`, written into the run folder and shown in docs/camera.md)
is the tested one: tests/service/test_nginx_camera.py starts it. The workers and nginx end
with this process (Linux's parent-death signal), whatever ends it.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ctypes.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from string import Template

CONFIG = Template("""\
# trickcam behind nginx: one table, one worker (its camera's watcher lives there).
# Written by `trickcam serve --workers N --proxy nginx`; docs/camera.md explains it.
daemon off;
worker_processes 1;
pid $run/nginx.pid;
error_log $run/error.log warn;
$user
events { worker_connections 4096; }

http {
    access_log off;  # the workers log each request (tokens are never in an address)
    client_body_temp_path $run/body;
    proxy_temp_path $run/proxy;
    fastcgi_temp_path $run/fastcgi;
    uwsgi_temp_path $run/uwsgi;
    scgi_temp_path $run/scgi;
    client_max_body_size $max_body;      # a camera frame at most (413 beyond)
    client_body_buffer_size 1m;          # a frame stays in memory

    # the table a request is about: /api/tables/ID[/...], /api/referee/tables/ID/...
    map $$uri $$trickcam_table {
        ~^/api/(referee/)?tables/(?<id>[^/]+)(/|$$)  $$id;
        default                                      "";
    }
    map $$trickcam_table $$trickcam_upstream {
        ""       trickcam_any;
        default  trickcam_table;
    }
    upstream trickcam_table {
        hash $$trickcam_table consistent;  # the same table, the same worker
$table_servers
        keepalive 64;
    }
    upstream trickcam_any {
$any_servers
        keepalive 64;
    }

    server {
        listen $listen;
$tls
        location / {
            proxy_pass http://$$trickcam_upstream;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $$http_host;
            proxy_set_header X-Forwarded-For $$remote_addr;  # uvicorn trusts 127.0.0.1
            proxy_set_header X-Forwarded-Proto $$scheme;
            proxy_buffering off;           # live streams (server-sent events) flow as sent
            proxy_read_timeout 1h;         # an idle live stream sends a comment every 15 s
            proxy_next_upstream off;       # a frame or an event is never sent twice
        }
    }
}
""")


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def render(
    run: Path,
    listen: str,
    ports: list[int],
    max_body: int,
    root: bool,
    tls: tuple[str, str] | None = None,
) -> str:
    """The configuration: nginx's files in ``run``, listening on ``listen`` (https with the
    ``tls`` certificate and key files), the workers on 127.0.0.1 ``ports``."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in ports)
    secure = ""
    if tls is not None:
        listen += " ssl"
        secure = (
            f"        ssl_certificate {tls[0]};\n        ssl_certificate_key {tls[1]};\n"
            "        ssl_protocols TLSv1.2 TLSv1.3;"
        )
    return CONFIG.substitute(
        run=run,
        tls=secure,
        user="user nobody nogroup;" if root else "",
        max_body=max_body,
        table_servers=servers,
        any_servers=servers,
        listen=listen,
    )


def free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def _end_with_parent(parent: int) -> None:
    """In a child, before it runs its program: SIGTERM when ``parent`` ends (Linux)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def run(args: argparse.Namespace, db: str, host: str, port: int, max_body: int) -> int:
    nginx = nginx_binary()
    if nginx is None:
        print("trickcam serve: --proxy nginx needs nginx (apt-get install nginx)", file=sys.stderr)
        return 2
    me = os.getpid()
    postgres = db.startswith("postgresql")
    env = {
        **os.environ,
        # streams notice events committed by the other workers (PostgreSQL tells them at once)
        "TRICKCAM_STREAM_POLL_S": os.environ.get(
            "TRICKCAM_STREAM_POLL_S", "10.0" if postgres else "1.0"
        ),
    }
    ports = free_ports(args.workers)
    children: list[subprocess.Popen[bytes]] = []
    root = os.geteuid() == 0
    with tempfile.TemporaryDirectory(prefix="trickcam-nginx-") as tmp:
        rundir = Path(tmp)
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (rundir / sub).mkdir()
            if root:
                with contextlib.suppress(KeyError, OSError):
                    import pwd

                    os.chown(rundir / sub, pwd.getpwnam("nobody").pw_uid, -1)
        listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        conf = rundir / "nginx.conf"
        tls = None
        if args.tls_cert:
            tls = (str(Path(args.tls_cert).resolve()), str(Path(args.tls_key).resolve()))
        conf.write_text(render(rundir, listen, ports, max_body, root, tls), encoding="utf-8")
        try:
            for p in ports:
                cmd = [sys.executable, "-m", "cli.main", "serve", "--db", db, "--host",
                       "127.0.0.1", "--port", str(p), "--log-level", args.log_level,
                       "--limit-concurrency", str(args.limit_concurrency)]  # fmt: skip
                children.append(
                    subprocess.Popen(cmd, env=env, preexec_fn=lambda: _end_with_parent(me))  # noqa: PLW1509
                )
            wait_listening(ports, children)
            children.append(
                subprocess.Popen(
                    [nginx, "-p", str(rundir), "-c", str(conf)],
                    preexec_fn=lambda: _end_with_parent(me),  # noqa: PLW1509
                )
            )
            scheme = "https" if tls else "http"
            print(
                f"trickcam serve: nginx on {scheme}://{listen} in front of {args.workers} workers "
                f"(127.0.0.1:{', '.join(map(str, ports))}); a table's requests reach one worker",
                flush=True,
            )
            while all(c.poll() is None for c in children):
                time.sleep(0.5)
            gone = next(c for c in children if c.poll() is not None)
            print(
                f"trickcam serve: {gone.args[0]} exited ({gone.returncode}); stopping",
                file=sys.stderr,
            )
            return 2
        except KeyboardInterrupt:
            return 0
        finally:
            for c in reversed(children):
                if c.poll() is None:
                    c.terminate()
            for c in children:
                try:
                    c.wait(10)
                except subprocess.TimeoutExpired:
                    c.kill()


def wait_listening(ports: list[int], children: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + 120
    for p in ports:
        while True:
            with socket.socket() as s:
                s.settimeout(1)
                if s.connect_ex(("127.0.0.1", p)) == 0:
                    break
            if any(c.poll() is not None for c in children):
                raise SystemExit("trickcam serve: a worker exited while starting")
            if time.monotonic() > deadline:
                raise SystemExit(f"trickcam serve: the worker on port {p} did not start")
            time.sleep(0.2)
