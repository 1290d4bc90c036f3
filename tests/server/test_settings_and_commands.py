"""Settings from the environment, and the migrate / verify / serve subcommands."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.cli import build_parser
from server.commands import migrate, verify
from server.settings import load_settings, normalize_database_url
from tests.support.toy import TOY


def test_plain_postgres_urls_get_the_async_driver() -> None:
    assert normalize_database_url("postgresql://u@h:5432/db") == "postgresql+asyncpg://u@h:5432/db"
    assert normalize_database_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert normalize_database_url("postgresql+asyncpg://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert normalize_database_url("sqlite:///./x.db") == "sqlite+aiosqlite:///./x.db"


def test_settings_come_from_the_environment(tmp_path: Path) -> None:
    env = {
        "DATABASE_URL": "postgresql://postgres@127.0.0.1/x",
        "HOST": "0.0.0.0",
        "PORT": "9000",
        "PUBLIC_URL": "https://games.example.org/",
        "SECRET_KEY": "s3cret",
        "GUILDHALL_BOT_DELAY": "0",
        "GUILDHALL_MAX_MESSAGE_BYTES": "1000",
        "GUILDHALL_RATE_LIMIT": "5",
        "GUILDHALL_FANOUT": "postgres",
    }
    settings = load_settings(env)
    assert settings.database_url == "postgresql+asyncpg://postgres@127.0.0.1/x"
    assert (settings.host, settings.port, settings.public_url) == (
        "0.0.0.0",
        9000,
        "https://games.example.org",
    )
    assert (settings.secret_key, settings.bot_delay, settings.fanout) == ("s3cret", 0.0, "postgres")
    assert (settings.max_message_bytes, settings.rate_limit) == (1000, 5.0)
    with pytest.raises(ValueError, match="GUILDHALL_FANOUT"):
        load_settings({**env, "GUILDHALL_FANOUT": "carrier-pigeon"})


def test_links_follow_the_serve_address_unless_public_url_is_set() -> None:
    derived = load_settings({"SECRET_KEY": "k"}).with_(port=8123)
    assert derived.public_url == "http://127.0.0.1:8123"
    chosen = load_settings({"SECRET_KEY": "k", "PUBLIC_URL": "https://games.example.org"})
    assert chosen.with_(host="0.0.0.0", port=8123).public_url == "https://games.example.org"


def test_without_secret_key_one_is_made_once_beside_the_database(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/data/g.db"}
    first, second = load_settings(env), load_settings(env)
    assert first.secret_key == second.secret_key and len(first.secret_key) >= 32
    assert (tmp_path / "data" / "secret_key").exists()
    assert first.secret_key not in repr(first)


def test_migrate_creates_the_schema_for_database_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "new" / "g.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db}")
    assert migrate.run(argparse.Namespace(revision="head")) == 0
    engine = sa.create_engine(f"sqlite:///{db}")
    tables = sa.inspect(engine).get_table_names()
    engine.dispose()
    assert {"tables", "seats", "commands", "alembic_version"} <= set(tables)


def _finished_toy_record() -> dict[str, object]:
    seed = "verify-me"
    state = TOY.new(2, seed, {"planning": "simultaneous"})
    commands = []
    while TOY.result(state) is None:
        seat = min(TOY.to_act(state))
        cmd = TOY.legal(state, seat)[0]
        commands.append({"seat": seat, "cmd": cmd})
        state, _ = TOY.apply(state, seat, cmd)
    return {
        "game": "toy",
        "seats": 2,
        "names": ["Ada", None],
        "bots": [None, "random"],
        "options": {"planning": "simultaneous"},
        "seed": seed,
        "seed_sha256": hashlib.sha256(seed.encode()).hexdigest(),
        "commands": commands,
        "result": json.loads(json.dumps(TOY.result(state))),
    }


def test_verify_accepts_a_true_record_and_rejects_tampered_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _finished_toy_record()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert verify.run(argparse.Namespace(record=path)) == 0
    out = capsys.readouterr().out
    # Seats as the page names them: counted from 1, a bot by its level ("Bot (easy) 2").
    assert "Ada:" in out and "Bot (easy) 2:" in out
    tampered = [
        {**record, "seed": "another"},
        {**record, "result": {**record["result"], "scores": [99, 0]}},  # type: ignore[dict-item]
        {**record, "commands": record["commands"][:-1]},  # type: ignore[index]
    ]
    for bad in tampered:
        path.write_text(json.dumps(bad))
        assert verify.run(argparse.Namespace(record=path)) == 1
        assert "FAILED" in capsys.readouterr().err


def test_the_cli_offers_serve_migrate_and_verify() -> None:
    parser = build_parser()
    args = parser.parse_args(["serve", "--port", "8123", "--host", "0.0.0.0"])
    assert (args.port, args.host) == (8123, "0.0.0.0")
    assert parser.parse_args(["migrate"]).revision == "head"
    assert parser.parse_args(["verify", "r.json"]).record == Path("r.json")
