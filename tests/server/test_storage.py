"""One storage suite, run on SQLite and on Postgres: versions, the command log, concurrency,
restarts, re-deriving a table from its log, and the migrations matching the models."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine import RuleError
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings
from server.store import queries
from server.store.db import make_engine, make_sessionmaker
from server.store.migrate import downgrade, upgrade
from server.store.models import Base, CommandRow, SeatRow, TableRow
from server.tables import ServiceError, TableService
from server.tables.play import SNAPSHOT_EVERY
from server.tables.seats import BOT
from tests.support.toy import TOY

ROOT = Path(__file__).resolve().parents[2]


class Instance:
    """One server process's service on the shared database."""

    def __init__(self, settings: Settings) -> None:
        self.engine = make_engine(settings.database_url)
        self.service = TableService(settings, make_sessionmaker(self.engine), MemoryFanOut())

    async def close(self) -> None:
        await self.service.close()
        await self.engine.dispose()


@pytest.fixture
async def instance(settings: Settings) -> AsyncIterator[Instance]:
    one = Instance(settings)
    yield one
    await one.close()


async def _started_table(service: TableService, seats: int = 3) -> tuple[str, list[str]]:
    data, token = await service.create_table("toy", seats, {}, [], "P0", seed="storage")
    tokens = [token]
    for seat in range(1, seats):
        tokens.append(
            (await service.join(data.id, f"P{seat}", invite=service.invite_code(data.id)))[1]
        )
    await service.start(data.id, token)
    return data.id, tokens


async def _rows(instance: Instance, table_id: str) -> list[CommandRow]:
    async with make_sessionmaker(instance.engine)() as session:
        query = sa.select(CommandRow).where(CommandRow.table_id == table_id)
        return list((await session.execute(query.order_by(CommandRow.seq))).scalars())


async def test_every_change_bumps_the_version_by_one(instance: Instance) -> None:
    service = instance.service
    data, token = await service.create_table("toy", 2, {}, [], "Ada")
    assert (data.version, data.status, data.state) == (1, "open", None)
    seat, _ = await service.join(data.id, "Bea", invite=service.invite_code(data.id))
    assert seat == 1 and (await service.get(data.id)).version == 2
    started = await service.start(data.id, token)
    assert (started.version, started.status) == (3, "playing")
    assert await service.submit(data.id, 0, {"type": "plan", "value": 1}) == 4
    assert (await service.get(data.id)).seq == 1


async def test_refused_commands_store_nothing(instance: Instance) -> None:
    table_id, _ = await _started_table(instance.service)
    with pytest.raises(RuleError):
        await instance.service.submit(table_id, 0, {"type": "plan", "value": 9})
    with pytest.raises(RuleError):
        await instance.service.submit(table_id, 0, {"type": "collect"})
    assert await _rows(instance, table_id) == []
    assert (await instance.service.get(table_id)).version == 4
    unstarted, _ = await instance.service.create_table("toy", 2, {}, [], "Ada")
    with pytest.raises(ServiceError) as err:
        await instance.service.submit(unstarted.id, 0, {"type": "plan", "value": 1})
    assert err.value.code == "not_started"


async def test_a_client_id_is_applied_once(instance: Instance) -> None:
    table_id, _ = await _started_table(instance.service)
    first = await instance.service.submit(table_id, 1, {"type": "plan", "value": 2}, "id-1")
    again = await instance.service.submit(table_id, 1, {"type": "plan", "value": 3}, "id-1")
    assert first == again
    assert [r.command for r in await _rows(instance, table_id)] == [{"type": "plan", "value": 2}]


async def test_a_client_id_repeated_while_the_command_is_still_legal_is_applied_once(
    instance: Instance,
) -> None:
    """The repeat is refused by the unique key (not looked up first) and answered the same."""
    table_id, _ = await _started_table(instance.service)
    plan = {"type": "plan", "value": 2}
    first = await instance.service.submit(table_id, 1, plan, "plan-1")
    await instance.service.submit(table_id, 1, {"type": "retract"}, "retract-1")
    # The same plan is legal again now; sent with its old id, it must not be stored twice.
    again = await instance.service.submit(table_id, 1, plan, "plan-1")
    assert again == first
    commands = [(r.command, r.client_id) for r in await _rows(instance, table_id)]
    assert commands == [(plan, "plan-1"), ({"type": "retract"}, "retract-1")]
    assert (await instance.service.get_stored(table_id)).version == first + 1


async def test_two_processes_writing_at_once_never_fork_the_log(settings: Settings) -> None:
    one, two = Instance(settings), Instance(settings)
    try:
        table_id, _ = await _started_table(one.service, seats=5)
        start = (await one.service.get(table_id)).version
        plans = [
            (one if seat % 2 else two).service.submit(table_id, seat, {"type": "plan", "value": 2})
            for seat in range(5)
        ]
        versions = await asyncio.gather(*plans)
        assert sorted(versions) == list(range(start + 1, start + 6))
        rows = await _rows(one, table_id)
        assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
        assert sorted(r.version for r in rows) == sorted(versions)
        final = await two.service.get(table_id, start + 5)
        assert final.state is not None and final.state["phase"] == "action"
    finally:
        await one.close()
        await two.close()


async def test_a_new_process_sees_everything_acknowledged(settings: Settings) -> None:
    before = Instance(settings)
    table_id, _ = await _started_table(before.service)
    for seat in range(3):
        await before.service.submit(table_id, seat, {"type": "plan", "value": seat + 1})
    held = await before.service.get(table_id)
    await before.close()
    after = Instance(settings)
    try:
        loaded = await after.service.get(table_id)
        assert (loaded.version, loaded.state, loaded.log, loaded.seats) == (
            held.version,
            held.state,
            held.log,
            held.seats,
        )
    finally:
        await after.close()


async def _stored_snapshot(instance: Instance, table_id: str) -> tuple[int, dict[str, Any] | None]:
    async with make_sessionmaker(instance.engine)() as session:
        row = (
            await session.execute(sa.select(TableRow).where(TableRow.id == table_id))
        ).scalar_one()
        return row.state_seq, row.state


async def test_the_state_is_stored_every_few_steps_and_rebuilt_from_the_log(
    settings: Settings,
) -> None:
    """Between two snapshots only the commands are written; a process that starts afresh
    (as after a SIGKILL: nothing in memory survives) rebuilds every step from the stored
    snapshot and the log, and a process holding an older copy catches up the same way."""
    writer, reader = Instance(settings), Instance(settings)
    try:
        table_id, _ = await _started_table(writer.service, seats=5)
        await reader.service.get(table_id)  # holds the table at its start
        snapshots = set()
        while (data := await writer.service.get(table_id)).status == "playing":
            assert data.state is not None
            seat = min(TOY.to_act(data.state))
            await writer.service.submit(table_id, seat, TOY.legal(data.state, seat)[0])
            data = await writer.service.get(table_id)
            state_seq, stored = await _stored_snapshot(writer, table_id)
            snapshots.add(state_seq)
            assert state_seq <= data.seq and (state_seq == data.seq) == (stored == data.state)
            fresh = Instance(settings)
            try:
                assert (await fresh.service.get(table_id)).state == data.state
            finally:
                await fresh.close()
            caught_up = await reader.service.get(table_id, data.version)
            assert (caught_up.state, caught_up.log) == (data.state, data.log)
        assert data.seq > SNAPSHOT_EVERY and data.seq % SNAPSHOT_EVERY
        assert snapshots == {0, *range(SNAPSHOT_EVERY, data.seq, SNAPSHOT_EVERY), data.seq}
    finally:
        await writer.close()
        await reader.close()


async def test_a_table_is_rederived_from_its_command_log(instance: Instance) -> None:
    service = instance.service
    table_id, _ = await _started_table(service, seats=2)
    while (data := await service.get(table_id)).status == "playing":
        assert data.state is not None
        seat = min(TOY.to_act(data.state))
        await service.submit(table_id, seat, TOY.legal(data.state, seat)[-1])
    record = await service.record(table_id)
    state = TOY.new(record["seats"], record["seed"], record["options"])
    log = []
    for entry in record["commands"]:
        state, events = TOY.apply(state, entry["seat"], entry["cmd"])
        log.extend(events)
    final = await service.get(table_id)
    assert state == final.state and tuple(log) == final.log
    assert record["result"] == TOY.result(state)


async def test_the_record_is_refused_before_the_end(instance: Instance) -> None:
    table_id, _ = await _started_table(instance.service)
    with pytest.raises(ServiceError) as err:
        await instance.service.record(table_id)
    assert err.value.code == "not_finished"


def _sync_url(url: str) -> str:
    return url.replace("sqlite+aiosqlite", "sqlite").replace(
        "postgresql://", "postgresql+psycopg://"
    )


def _schema_diff(url: str) -> list[object]:
    engine = sa.create_engine(_sync_url(url))
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def _table_names(url: str) -> set[str]:
    engine = sa.create_engine(_sync_url(url))
    try:
        with engine.connect() as conn:
            return set(sa.inspect(conn).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_migrations_match_the_models_and_go_down_and_up(empty_database_url: str) -> None:
    upgrade(empty_database_url)
    assert _schema_diff(empty_database_url) == []
    assert _table_names(empty_database_url) == {
        "tables",
        "seats",
        "commands",
        "clock_beat",
        "push_subscriptions",
        "vapid_keys",
        "notices",
        "mail_budget",
        "table_acts",
        "chat",
        "chat_notices",
        "analyses",
        "analysis_positions",
    }
    downgrade(empty_database_url, "base")
    assert _table_names(empty_database_url) == set()
    upgrade(empty_database_url)
    assert _schema_diff(empty_database_url) == []


def _made_by(url: str) -> list[str | None]:
    engine = sa.create_engine(_sync_url(url))
    try:
        with engine.connect() as conn:
            query = sa.text('SELECT "by" FROM commands ORDER BY seq')
            return [row[0] for row in conn.execute(query)]
    finally:
        engine.dispose()


def _command_columns(url: str) -> set[str]:
    engine = sa.create_engine(_sync_url(url))
    try:
        with engine.connect() as conn:
            return {c["name"] for c in sa.inspect(conn).get_columns("commands")}
    finally:
        engine.dispose()


async def _a_person_and_a_bot_move(url: str) -> None:
    settings = Settings(database_url=url, secret_key="k", bot_delay=0)
    one = Instance(settings)
    try:
        data, token = await one.service.create_table("toy", 2, {}, [None, "random"], "Ada")
        await one.service.start(data.id, token)
        await one.service.submit(data.id, 0, {"type": "plan", "value": 1})
        await one.service.submit(data.id, 1, {"type": "plan", "value": 2}, by=BOT)
    finally:
        await one.close()


def test_who_made_a_command_is_a_column_added_and_dropped_by_0016(empty_database_url: str) -> None:
    """``0016_command_by``: the column the command write fills, dropped again (the commands
    kept) and added back empty, as every command stored before it reads: the person's."""
    upgrade(empty_database_url)
    asyncio.run(_a_person_and_a_bot_move(empty_database_url))
    assert _made_by(empty_database_url) == [None, "bot"]
    downgrade(empty_database_url, "0015")
    assert "by" not in _command_columns(empty_database_url)
    assert _versions(empty_database_url) == ["0015"]
    upgrade(empty_database_url)
    assert _made_by(empty_database_url) == [None, None]
    assert _schema_diff(empty_database_url) == []


def test_the_app_never_creates_the_schema_itself(empty_database_url: str) -> None:
    from server.app import create_app
    from tests.support.testclient import TestClient

    settings = Settings(database_url=empty_database_url, secret_key="k", bot_delay=0)
    with pytest.raises(sa.exc.DBAPIError), TestClient(create_app(settings)):
        pass  # starting up reads the tables, which only migrations create
    assert _table_names(empty_database_url) == set()
    sources = [p.read_text() for p in (ROOT / "server").rglob("*.py")]
    assert not any("create_all(" in text for text in sources)


async def test_a_process_reads_what_another_process_wrote(settings: Settings) -> None:
    one, two = Instance(settings), Instance(settings)
    try:
        data, _ = await one.service.create_table("toy", 2, {}, [], "Ada")
        assert (await one.service.get(data.id)).seats[1].name is None
        await two.service.join(data.id, "Bea", invite=two.service.invite_code(data.id))
        stored = await one.service.get_stored(data.id)
        assert stored.version == 2 and stored.seats[1].name == "Bea"
        with pytest.raises(ServiceError) as err:
            await one.service.get_stored("missing")
        assert err.value.code == "unknown_table"
    finally:
        await one.close()
        await two.close()


async def test_one_command_id_sent_to_two_processes_at_once_applies_once(
    settings: Settings,
) -> None:
    one, two = Instance(settings), Instance(settings)
    try:
        table_id, _ = await _started_table(one.service, seats=2)
        plan = {"type": "plan", "value": 3}
        versions = await asyncio.gather(
            one.service.submit(table_id, 0, plan, "twice"),
            two.service.submit(table_id, 0, plan, "twice"),
        )
        assert versions[0] == versions[1]
        assert len(await _rows(one, table_id)) == 1
    finally:
        await one.close()
        await two.close()


async def test_a_command_survives_connections_the_database_dropped(
    instance: Instance, settings: Settings
) -> None:
    """No ping before each use: a pooled connection that died is found out by its error, and
    the command is retried on a fresh one instead of failing."""
    if not settings.is_postgres:
        pytest.skip("SQLite has no server to drop connections")
    import asyncpg

    from server.realtime.pg_fanout import asyncpg_dsn

    service = instance.service
    table_id, _ = await _started_table(service)
    assert await service.submit(table_id, 0, {"type": "plan", "value": 1}) == 5
    admin = await asyncpg.connect(asyncpg_dsn(settings.database_url))
    try:
        killed = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    assert killed >= 1  # at least the command path's own connection
    assert await service.submit(table_id, 1, {"type": "plan", "value": 2}) == 6
    assert (await service.get_stored(table_id)).version == 6  # reads recover the same way
    assert [row.seq for row in await _rows(instance, table_id)] == [1, 2]


async def test_a_reload_racing_another_process_holds_each_version_with_its_own_state(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process reading another's change must not file a newer command's state under the
    older version: a client reconnecting with ``since`` at that version gets its patch from
    what is filed there, and a wrong base leaves its document wrong for good."""
    one, two = Instance(settings), Instance(settings)
    try:
        table_id, _ = await _started_table(one.service, seats=2)
        await two.service.get(table_id)  # the second process holds the table
        first = await one.service.submit(table_id, 0, {"type": "plan", "value": 1})
        real_seat_rows = queries.seat_rows
        raced = False

        async def seat_rows_with_a_commit_in_between(
            session: AsyncSession, wanted: str
        ) -> list[SeatRow]:
            # The reload has read the table row; the other process commits before the
            # reload reads the commands.
            nonlocal raced
            if not raced:
                raced = True
                await one.service.submit(table_id, 1, {"type": "plan", "value": 2})
            return await real_seat_rows(session, wanted)

        monkeypatch.setattr(queries, "seat_rows", seat_rows_with_a_commit_in_between)
        seen = await two.service.get(table_id, first)
        monkeypatch.setattr(queries, "seat_rows", real_seat_rows)
        assert raced
        truth = {}
        for version in (first, first + 1):
            written = one.service.cache.at_version(table_id, version)
            assert written is not None
            truth[version] = written.state
        newest = await two.service.get_stored(table_id)
        assert newest.version == first + 1 and newest.state == truth[first + 1]
        for version in (seen.version, first):
            held = two.service.cache.at_version(table_id, version)
            assert held is None or held.state == truth[version], version
    finally:
        await one.close()
        await two.close()


async def test_seats_seen_are_written_together_and_never_moved_back(instance: Instance) -> None:
    """``mark_seen_many`` moves each seat's ``seen_at`` forward in one statement for all the
    seats of several tables, and leaves a later moment another process wrote in place."""
    first, _ = await _started_table(instance.service)
    second, _ = await _started_table(instance.service, seats=2)
    sessions = make_sessionmaker(instance.engine)
    async with sessions() as session:
        joined = await queries.seen_at(session, first)  # each player was seen joining
    at = max(v for v in joined.values() if v is not None) + 1000  # later than the lobby wrote
    async with sessions() as session:
        await queries.mark_seen(session, first, 1, at + 5)  # another process saw seat 1 later
        await queries.mark_seen_many(
            session, {(first, 0): at + 1, (first, 1): at + 2, (second, 1): at + 3}
        )
        await queries.mark_seen_many(session, {})
        await session.commit()
    async with sessions() as session:
        seen = await queries.seen_at(session, first)
        assert (seen[0], seen[1], seen[2]) == (at + 1, at + 5, joined[2])
        assert (await queries.seen_at(session, second))[1] == at + 3
        await queries.mark_seen_many(session, {(first, 0): at, (first, 1): at + 6})
        await session.commit()
        seen = await queries.seen_at(session, first)
        assert (seen[0], seen[1]) == (at + 1, at + 6)  # seat 0 not moved back


def _versions(url: str) -> list[str]:
    engine = sa.create_engine(_sync_url(url))
    try:
        with engine.connect() as conn:
            return [
                row[0] for row in conn.execute(sa.text("SELECT version_num FROM alembic_version"))
            ]
    finally:
        engine.dispose()


def test_a_migrated_copy_is_at_the_newest_schema_and_a_database_of_its_own(
    database_url: str, database_kind: str, tmp_path: Path
) -> None:
    # ``database_url`` is a copy of one database migrated once per test process.
    from alembic.script import ScriptDirectory

    from server.store.migrate import alembic_config
    from tests.support.databases import migrated_database

    head = ScriptDirectory.from_config(alembic_config(database_url)).get_current_head()
    assert _schema_diff(database_url) == []
    assert _versions(database_url) == [head]
    engine = sa.create_engine(_sync_url(database_url))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM alembic_version"))
    finally:
        engine.dispose()
    assert _versions(database_url) == []
    # What one test does to its copy, the next copy does not see.
    (tmp_path / "next").mkdir()
    with migrated_database(database_kind, tmp_path / "next") as another:
        assert _schema_diff(another) == []
        assert _versions(another) == [head]
