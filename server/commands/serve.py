"""``guildhall serve``: run the web server with uvicorn on the configured host and port."""

from __future__ import annotations

import argparse
import logging

from server.logs import configure_process_logging
from server.settings import load_settings

HELP = "run the web server (run `guildhall migrate` first)"
log = logging.getLogger("guildhall.serve")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (default: HOST or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default: PORT or 8000)")
    parser.add_argument("--migrate", action="store_true", help="run the migrations before serving")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns the exit status."""
    import uvicorn

    from server.app import create_app
    from server.serving import tune_garbage_collector, uvicorn_config

    settings = load_settings()
    settings = settings.with_(host=args.host or settings.host, port=args.port or settings.port)
    configure_process_logging(settings.log_format)
    if args.migrate:
        from server.store.migrate import upgrade

        upgrade(settings.database_url, configure_logger=False)
    log.info(
        "Guildhall on http://%s:%s (links: %s)", settings.host, settings.port, settings.public_url
    )
    app = create_app(settings)
    # After the lifespan's start-up, not before it: the database engine, its pool, the bots'
    # and clocks' state and what the first queries cached (SQLAlchemy's compiled statements) are
    # then made, and frozen with the rest.
    app.state.on_started.append(tune_garbage_collector)
    server = uvicorn.Server(uvicorn_config(app, settings))
    server.run()
    return 0 if server.started else 3  # 3: could not start (uvicorn's own status for it)
