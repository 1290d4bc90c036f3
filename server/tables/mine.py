"""What a person's seat links show in the lobby's "your tables": for each table, what its
seat token may know and nothing more (docs/api.md, ``POST /api/tables/mine``).

Everything here is what every seat, and a spectator, already sees of the table (names, whose
turn, the round, the public clock, the result once the game is over), plus which seat the
token owns and whether it plays it now. No hidden card, money or plan, no token, no invite.
"""

from __future__ import annotations

from typing import Any

from server.engine import get_game

from . import clock as table_clock
from .data import TableData
from .seats import Access

MAX_ASKED = 50  # seat links one request may ask about (the lobby keeps 30)


def seat_status(data: TableData, access: Access) -> dict[str, Any]:
    """The table as the owner of ``access``'s seat sees it at a glance.

    ``to_act``: the seats the game waits for (public: every seat's view lists them);
    ``your_move``: the token's seat is among them and no bot stands in for it; ``deadline``:
    when its time runs out then (the server's seconds since the epoch), if the table has a
    clock; ``round`` / ``rounds``: as the game's spectator view names them (None if it does not).
    """
    game, state = get_game(data.game), data.state
    playing = data.status == "playing" and state is not None
    to_act = sorted(game.to_act(state)) if state is not None and playing else []
    view = game.view(state, None) if state is not None and playing else {}
    yours = access.plays and access.seat in to_act
    clock = table_clock.public(data)
    entry = clock["seats"][access.seat] if clock is not None else None
    result = data.result
    return {
        "table_id": data.id,
        "game": data.game,
        "title": data.title,
        "status": data.status,
        "seat": access.seat,
        "plays": access.plays,
        "creator": access.is_creator,
        "seats": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "stand_in": s.stand_in}
            for s in data.seats
        ],
        "round": view.get("round"),
        "rounds": view.get("rounds"),
        "to_act": to_act,
        "your_move": yours,
        "clock": None if clock is None else clock["mode"],
        "deadline": entry["deadline"] if yours and entry is not None else None,
        "result": None
        if result is None
        else {
            "scores": result.get("scores"),
            "winners": result.get("winners"),
        },
        "rematch": data.rematch,
        # Only a learning table says so (the lobby marks it), as the other facts it may lack.
        "learning": True if data.learning else None,
    }
