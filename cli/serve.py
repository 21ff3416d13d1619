"""``trickcam serve``: the scorekeeping service for a night of play (uvicorn).

``--db`` is an SQLite file (created, with its schema, on first start) or any SQLAlchemy URL;
the environment's ``TRICKCAM_DB``, ``TRICKCAM_HOST``, ``TRICKCAM_PORT`` are the defaults.
The club's organiser PIN (service/club.py) is set here, stored hashed in the database.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace

# a tablet posts an event every few seconds: keep its connection open between them (and
# longer than a client's pool keeps idle connections, so a reused one is not closed under it)
KEEP_ALIVE_S = 65

HELP = """\
Run the scorekeeping service: tables fed by cameras (trickcam watch --post) or scorers'
tablets, live pages, the referee's view. The API's documentation is at /docs.

Only the club's organiser creates, renames and deletes tables and tournaments, reissues a
lost scorer or referee token and chooses what the big screen shows, with the organiser PIN
(at least 6 characters) sent as "Authorization: Bearer <PIN>". Set it when you first start
the club's server: it is stored hashed in the database and kept across restarts; giving
another one later changes it. Until one is set the server creates nothing.

examples:
  trickcam serve --db club.db --organiser-pin     first start: asks for the organiser PIN
  trickcam serve --db club.db                     later starts: the PIN stays as it was
  TRICKCAM_ORGANISER_PIN=... trickcam serve --db club.db      the PIN from the environment
  trickcam serve --db club.db --organiser-pin-file pin.txt    ... or from a file's first line
  trickcam serve --db postgresql://u:p@host/db --host 0.0.0.0 --port 8080 --workers 4
  trickcam serve --db club.db --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem
      https: a phone opens its camera only on a secure page (/camera, docs/camera.md)
  trickcam serve --db club.db --host 0.0.0.0 --workers 4 --proxy nginx   phones filming tables:
      nginx (apt-get install nginx) sends every request about a table to one worker

back up the database while serving: trickcam backup --help
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="run the scorekeeping web service",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db", help="SQLite file or SQLAlchemy URL (default: $TRICKCAM_DB or trickcam.db)"
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port to listen on (default 8000)")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (default 1); with several, live streams also poll the database",
    )
    p.add_argument(
        "--tls-cert",
        metavar="PEM",
        help="serve https with this certificate (and --tls-key): a phone's browser opens its "
        "camera only on a secure page (https, or localhost). See docs/camera.md",
    )
    p.add_argument("--tls-key", metavar="PEM", help="the private key of --tls-cert")
    p.add_argument(
        "--proxy",
        choices=("none", "nginx"),
        default="none",
        help="'nginx' puts Debian's nginx in front of the --workers, so that every request "
        "about a table (its camera's frames above all) reaches the one worker holding its "
        "camera (default none: uvicorn's workers, any request to any worker)",
    )
    p.add_argument(
        "--organiser-pin",
        action="store_true",
        help="ask for the club's organiser PIN (not shown as you type) and store it, hashed",
    )
    p.add_argument(
        "--organiser-pin-file",
        metavar="FILE",
        help="read the organiser PIN from the first line of FILE ('-': standard input); "
        "or set TRICKCAM_ORGANISER_PIN. Never on the command line: ps shows it to everyone",
    )
    p.add_argument(
        "--limit-concurrency",
        type=int,
        default=2048,
        metavar="N",
        help="at most N connections and requests at once per worker; more are answered 503 "
        "(default 2048: a table's tablet and its live page are two). A client must send a "
        "request's headers within 20 s (TRICKCAM_HEADER_TIMEOUT_S)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="server log level (default info)",
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from service.app import create_app, tune_gc
    from service.club import Club
    from service.db import make_engine, migrate
    from service.logs import log_config
    from service.settings import Settings
    from service.slow_clients import HeaderTimeoutProtocol

    try:
        settings = Settings.from_env(db=args.db, host=args.host, port=args.port)
        pin = organiser_pin(args) or settings.organiser_pin
        # open and migrate once here: a bad --db is one clear line, not a startup traceback
        engine = make_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        migrate(engine)
        club = Club(engine)
        if pin:
            done = club.set_pin(pin)
            print(f"trickcam serve: organiser PIN {done} (stored hashed in the database)")
        elif not club.has_pin():
            print(
                "trickcam serve: no organiser PIN yet: nobody can create tables or tournaments "
                "until you restart with --organiser-pin (see trickcam serve --help)",
                file=sys.stderr,
            )
        engine.dispose()
        # stored: the app and its workers need not see it again
        settings = replace(settings, organiser_pin="")
        os.environ.pop("TRICKCAM_ORGANISER_PIN", None)
        app = create_app(settings)
    except (ValueError, ImportError, SQLAlchemyError, OSError, EOFError) as exc:
        print(f"trickcam serve: {exc}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"trickcam serve: --workers {args.workers}: expected 1 or more", file=sys.stderr)
        return 2
    if bool(args.tls_cert) != bool(args.tls_key):
        print("trickcam serve: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    tls = {"ssl_certfile": args.tls_cert, "ssl_keyfile": args.tls_key} if args.tls_cert else {}
    if args.proxy == "nginx":
        from cli import serve_nginx

        body = settings.max_frame_bytes + 64 * 1024  # a frame and its form
        return serve_nginx.run(args, settings.db, settings.host, settings.port, body)
    if args.workers > 1:
        # each worker builds its own app from the environment (uvicorn imports it by name)
        os.environ.update(
            TRICKCAM_DB=settings.db, TRICKCAM_HOST=settings.host, TRICKCAM_PORT=str(settings.port)
        )
        # streams must notice events other workers commit: poll unless told otherwise; on
        # PostgreSQL a NOTIFY tells them at once (service/pg_notify.py), polling is a fallback
        postgres = settings.database_url.startswith("postgresql")
        os.environ.setdefault("TRICKCAM_STREAM_POLL_S", "10.0" if postgres else "1.0")
        os.environ["TRICKCAM_SERVE_PID"] = str(os.getpid())  # workers end with this process
        # a table's frames must all reach the one worker that holds its watcher: only nginx
        # (--proxy nginx) routes them so; here filming is refused with the way out
        refusal = (
            f"this server runs {args.workers} workers without --proxy nginx: a table's frames "
            "would reach different workers, each with its own watcher. Restart it with "
            "--proxy nginx (or --workers 1) to film tables."
        )
        os.environ["TRICKCAM_CAMERA_REFUSED"] = refusal
        print(f"trickcam serve: note: {refusal}", file=sys.stderr)
        uvicorn.run(
            "service.app:create_app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=args.workers,
            log_level=args.log_level,
            timeout_graceful_shutdown=3,
            timeout_keep_alive=KEEP_ALIVE_S,
            log_config=log_config(),
            http=HeaderTimeoutProtocol,
            limit_concurrency=args.limit_concurrency,
            **tls,
        )
        return 0
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=3,
        timeout_keep_alive=KEEP_ALIVE_S,
        log_config=log_config(),
        http=HeaderTimeoutProtocol,
        limit_concurrency=args.limit_concurrency,
        **tls,
    )
    server = uvicorn.Server(config)
    tune_gc()  # the app and its modules are built: they live as long as the process
    server.run()
    return 0 if server.started else 2


def organiser_pin(args: argparse.Namespace) -> str:
    """The PIN from ``--organiser-pin-file`` or typed at ``--organiser-pin`` ("" for none)."""
    if args.organiser_pin_file:
        if args.organiser_pin_file == "-":
            line = sys.stdin.readline()
        else:
            with open(args.organiser_pin_file, encoding="utf-8") as f:
                line = f.readline()
        if not line.strip():
            raise ValueError(
                f"--organiser-pin-file {args.organiser_pin_file}: no PIN on its first line"
            )
        return line.strip()
    if args.organiser_pin:
        import getpass

        first = getpass.getpass("organiser PIN: ")
        if getpass.getpass("the same again: ") != first:
            raise ValueError("the two PINs differ: nothing was changed")
        return first
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -c 'from cli.serve import main; main([...])'`` until the CLI has it."""
    parser = argparse.ArgumentParser(prog="trickcam serve", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
