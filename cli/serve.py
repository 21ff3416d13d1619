"""``trickcam serve``: the scorekeeping service for a night of play (uvicorn).

``--db`` is an SQLite file (created, with its schema, on first start) or any SQLAlchemy URL;
the environment's ``TRICKCAM_DB``, ``TRICKCAM_HOST``, ``TRICKCAM_PORT`` are the defaults.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

# a tablet posts an event every few seconds: keep its connection open between them (and
# longer than a client's pool keeps idle connections, so a reused one is not closed under it)
KEEP_ALIVE_S = 65

HELP = """\
Run the scorekeeping service: tables fed by cameras (trickcam watch --post) or scorers'
tablets, live pages, the referee's view. The API's documentation is at /docs.

examples:
  trickcam serve --db club.db                     one SQLite file (WAL) in this folder
  trickcam serve --db postgresql://u:p@host/db --host 0.0.0.0 --port 8080
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
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="server log level (default info)",
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from service.app import create_app, tune_gc
    from service.db import make_engine, migrate
    from service.settings import Settings

    try:
        settings = Settings.from_env(db=args.db, host=args.host, port=args.port)
        # open and migrate once here: a bad --db is one clear line, not a startup traceback
        engine = make_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        migrate(engine)
        engine.dispose()
        app = create_app(settings)
    except (ValueError, ImportError, SQLAlchemyError) as exc:
        print(f"trickcam serve: {exc}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"trickcam serve: --workers {args.workers}: expected 1 or more", file=sys.stderr)
        return 2
    if args.workers > 1:
        # each worker builds its own app from the environment (uvicorn imports it by name)
        os.environ.update(
            TRICKCAM_DB=settings.db, TRICKCAM_HOST=settings.host, TRICKCAM_PORT=str(settings.port)
        )
        # streams must notice events other workers commit: poll unless told otherwise; on
        # PostgreSQL a NOTIFY tells them at once (service/pg_notify.py), polling is a fallback
        postgres = settings.database_url.startswith("postgresql")
        os.environ.setdefault("TRICKCAM_STREAM_POLL_S", "10.0" if postgres else "1.0")
        uvicorn.run(
            "service.app:create_app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=args.workers,
            log_level=args.log_level,
            timeout_graceful_shutdown=3,
            timeout_keep_alive=KEEP_ALIVE_S,
        )
        return 0
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=3,
        timeout_keep_alive=KEEP_ALIVE_S,
    )
    server = uvicorn.Server(config)
    tune_gc()  # the app and its modules are built: they live as long as the process
    server.run()
    return 0 if server.started else 2


def main(argv: Sequence[str] | None = None) -> int:
    """``python -c 'from cli.serve import main; main([...])'`` until the CLI has it."""
    parser = argparse.ArgumentParser(prog="trickcam serve", description=HELP)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
