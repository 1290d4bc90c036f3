"""The seat model in front of every route (docs/seats.md, ``server.tables.seats.RIGHTS``).

``authorize`` is a dependency of every router the app includes: before a route's own code
runs, it finds the route's right in the seat model's table and refuses a token the right does
not let through, in one place for all of them. The service behind each route checks again on
the version it stores a change on (a seat may have changed hands meanwhile).
``check_every_route`` makes start-up fail for a route the table lacks, so no route is ever
served without a rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.requests import HTTPConnection

from server.tables import TableService
from server.tables import seats as seat_model

from .deps import bearer_token


def route_keys(app: FastAPI) -> Iterator[str]:
    """ "METHOD /path" of every route of ``app`` ("WS /path" for a websocket), as the seat
    model names them; HEAD goes with GET."""
    for route in iter_route_contexts(app.routes):
        methods = route.methods
        if methods is None:
            yield f"WS {route.path}"
            continue
        for method in sorted(methods - {"HEAD"}):
            yield f"{method} {route.path}"


def check_every_route(app: FastAPI) -> None:
    """Refuse to start an app with a route the seat model has no right for."""
    missing = [key for key in route_keys(app) if key not in seat_model.RIGHTS]
    if missing:
        raise RuntimeError(f"routes without a right in server.tables.seats.RIGHTS: {missing}")


def _key(connection: HTTPConnection) -> str:
    path = str(getattr(connection.scope.get("route"), "path", ""))
    if connection.scope["type"] == "websocket":
        return f"WS {path}"
    method = str(connection.scope.get("method", "GET"))
    return f"{'GET' if method == 'HEAD' else method} {path}"


def _seat(text: str | None, seats: int) -> int | None:
    """The route's ``{seat}``, if it names a seat of the table. None otherwise: the token's
    kind is still checked, and the route answers for the seat (422 for a seat that is not a
    number, 'bad_seat' for one the table lacks), as it always did."""
    try:
        seat = None if text is None else int(text)
    except ValueError:
        return None
    return seat if seat is not None and 0 <= seat < seats else None


async def authorize(connection: HTTPConnection) -> None:
    """Refuse the request unless its token may use this route (``seats.check_right``).

    Raises ServiceError: 'no_token' (401), 'bad_token', 'not_your_seat', 'not_creator',
    'seat_lost' (403), 'unknown_table' (404).
    """
    right = seat_model.right_of(_key(connection))
    if right in (seat_model.Right.ANYONE, seat_model.Right.WATCH):
        return
    token = bearer_token(connection.headers.get("authorization"))
    service: TableService = connection.app.state.service
    data = await service.get_stored(connection.path_params["table_id"])
    by = seat_model.known_access(data, service.settings.secret_key, token)
    seat = _seat(connection.path_params.get("seat"), len(data.seats))
    seat_model.check_right(right, data, by, seat)
