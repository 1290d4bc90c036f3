"""Read a table and its command log straight from the database, and replay it.

The checks the scale tests share: the log of a table is one linear history (steps 1..N, no
gap, no fork), every acknowledged command id is in it once, and replaying it through the
engine from (game, seats, seed, options) gives exactly the stored state and result.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from server.engine import get_game
from server.settings import sqlite_path


@dataclass(frozen=True)
class StoredTable:
    """One table row and its commands in ``seq`` order."""

    id: str
    game: str
    seats: int
    seed: str
    options: dict[str, Any]
    status: str
    version: int
    state: dict[str, Any] | None
    state_seq: int  # the step ``state`` was stored at
    result: dict[str, Any] | None
    commands: list[dict[str, Any]]  # seq, version, seat, client_id, command


TABLE_SQL = (
    "SELECT id, game, seats, seed, options, status, version, state, state_seq, result"
    " FROM tables WHERE id = {p}"
)
COMMANDS_SQL = (
    "SELECT seq, version, seat, client_id, command FROM commands WHERE table_id = {p} ORDER BY seq"
)
JSON_COLUMNS = ("options", "state", "result", "command")


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """SQLite returns JSON columns as text; Postgres (psycopg) already decodes them."""
    return {
        k: json.loads(v) if k in JSON_COLUMNS and isinstance(v, str) else v for k, v in row.items()
    }


def load_table(database_url: str, table_id: str) -> StoredTable:
    """The stored table ``table_id`` with its log; KeyError if there is no such table."""
    db_file = sqlite_path(database_url)
    if db_file is not None:
        with sqlite3.connect(db_file) as conn:
            conn.row_factory = sqlite3.Row
            table = conn.execute(TABLE_SQL.format(p="?"), (table_id,)).fetchone()
            commands = conn.execute(COMMANDS_SQL.format(p="?"), (table_id,)).fetchall()
        rows = [dict(r) for r in commands]
        found = dict(table) if table else None
    else:
        libpq = database_url.replace("+asyncpg", "").replace("+psycopg", "")
        with psycopg.connect(libpq, row_factory=dict_row) as conn:
            found = conn.execute(TABLE_SQL.format(p="%s"), (table_id,)).fetchone()
            rows = conn.execute(COMMANDS_SQL.format(p="%s"), (table_id,)).fetchall()
    if found is None:
        raise KeyError(table_id)
    return StoredTable(**_decoded(found), commands=[_decoded(r) for r in rows])


def replay(
    table: StoredTable, steps: int | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The state and result the engine derives from the stored log (its first ``steps``)."""
    game = get_game(table.game)
    state = game.new(table.seats, table.seed, table.options)
    for step in table.commands[:steps]:
        state, _ = game.apply(state, step["seat"], step["command"])
    result = game.result(state)
    return state, None if result is None else dict(result)


def assert_linear_and_replays(table: StoredTable) -> None:
    """Steps are exactly 1..N with rising versions, and the replay equals what is stored."""
    seqs = [c["seq"] for c in table.commands]
    assert seqs == list(range(1, len(seqs) + 1)), f"{table.id}: log is not linear: {seqs}"
    versions = [c["version"] for c in table.commands]
    assert versions == sorted(set(versions)), f"{table.id}: versions repeat: {versions}"
    assert not versions or versions[-1] <= table.version
    state, result = replay(table)
    assert result == table.result, f"{table.id}: replay result differs from the stored one"
    # The state is stored every few steps (and at the end): it is the log's up to its step.
    assert table.state_seq <= len(table.commands)
    if table.state_seq == len(table.commands):
        assert state == table.state, f"{table.id}: replay differs from the stored state"
    else:
        snapshot, _ = replay(table, table.state_seq)
        assert snapshot == table.state, f"{table.id}: stored state is not its step's"


def assert_acked_in_log(table: StoredTable, seat: int, acked: dict[str, int]) -> None:
    """Every command id acknowledged to ``seat`` is in the log once, at or before its ack."""
    logged = {c["client_id"]: c["version"] for c in table.commands if c["seat"] == seat}
    ids = [c["client_id"] for c in table.commands if c["seat"] == seat and c["client_id"]]
    assert len(ids) == len(set(ids)), f"{table.id}: a command id was stored twice"
    missing = sorted(set(acked) - set(logged))
    assert not missing, f"{table.id} seat {seat}: acknowledged but not in the log: {missing}"
    for client_id, version in acked.items():
        # An ack names the table version after the command "or later" (docs/protocol.md).
        assert logged[client_id] <= version, (table.id, seat, client_id, version)
