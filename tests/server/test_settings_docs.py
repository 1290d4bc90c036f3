"""The settings tables of the docs say what ``server.settings.Settings`` defines.

``docs/self-hosting.md`` lists every setting exactly once, with the definition's default;
``README.md`` lists a selection, with the same defaults. Rows whose meaning starts with
"Compose only" are read by ``docker-compose.yml``, not by the server. A new field without
its row (or a row left behind by a removed field, or a changed default) fails here; the
message gives the row ``python -m server.settings`` would print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.settings import Settings, load_settings, markdown_rows, shown_default

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_ONLY = "Compose only"


def settings_table(doc: Path) -> dict[str, tuple[str, str]]:
    """``variable -> (default cell, meaning cell)`` from the table under ``## Configuration``."""
    text = doc.read_text()
    section = text.split("\n## Configuration", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([A-Z0-9_]+)`", cells[0])
        defaults = cells[1].split(" / ") if len(names) > 1 else [cells[1]]
        assert len(defaults) == len(names), f"{doc.name}: one default per name in {line!r}"
        for name, default in zip(names, defaults, strict=True):
            assert name not in rows, f"{doc.name}: {name} is listed twice"
            rows[name] = (default.strip(), cells[2])
    assert rows, f"no settings table under '## Configuration' in {doc.name}"
    return rows


def _server_rows(doc: Path) -> dict[str, str]:
    return {
        name: default
        for name, (default, meaning) in settings_table(doc).items()
        if not meaning.startswith(COMPOSE_ONLY)
    }


def _expected(name: str) -> str:
    rows = {row.split("`", 2)[1]: row for row in markdown_rows()}
    return rows[name]


def test_self_hosting_lists_every_setting_with_its_default() -> None:
    documented = _server_rows(ROOT / "docs" / "self-hosting.md")
    defined = Settings.variables()
    missing = [_expected(name) for name in defined if name not in documented]
    assert not missing, "docs/self-hosting.md lacks the rows:\n" + "\n".join(missing)
    unknown = sorted(set(documented) - set(defined))
    assert not unknown, f"docs/self-hosting.md documents settings nothing reads: {unknown}"
    for name, info in defined.items():
        assert documented[name] == shown_default(info), (
            f"docs/self-hosting.md gives {name} the default {documented[name]}; "
            f"the definition says {shown_default(info)}"
        )


def test_readme_rows_agree_with_the_definition() -> None:
    documented = _server_rows(ROOT / "README.md")
    defined = Settings.variables()
    for name, default in documented.items():
        assert name in defined, f"README.md documents {name}, which no setting reads"
        assert default == shown_default(defined[name]), f"README.md: default of {name}"


def test_compose_only_rows_are_used_by_the_compose_file() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    table = settings_table(ROOT / "docs" / "self-hosting.md")
    compose_only = [n for n, (_, meaning) in table.items() if meaning.startswith(COMPOSE_ONLY)]
    for name in compose_only:
        assert "${" + name in compose, f"{name} is documented as a Compose setting but unused"


def test_every_setting_is_read_from_its_variable(tmp_path: Path) -> None:
    """Each documented variable really reaches its field (not only the ones tests set)."""
    for name, info in Settings.variables().items():
        field = next(f for f, i in Settings.model_fields.items() if i is info)
        sample = {
            "DATABASE_URL": "postgresql+asyncpg://u@h/db",
            "HOST": "0.0.0.0",
            "PUBLIC_URL": "https://games.example.org",
            "SECRET_KEY": "from-the-environment",
            "GUILDHALL_FANOUT": "postgres",
            "GUILDHALL_LOG_FORMAT": "json",
            "GUILDHALL_TRUSTED_PROXIES": "10.0.0.0/8",
        }.get(name)
        if sample is None and isinstance(info.default, (int, float)):
            sample = str(info.default + 1)
        if sample is None:
            continue  # a text setting this test has no sample for: the docs test still covers it
        settings = load_settings({"SECRET_KEY": "k", name: sample})
        value = getattr(settings, field)
        assert str(value) == sample or value == type(info.default)(sample), name


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\nGUILDHALL_BOT_DELAY=0.25\nPORT=9100\n"
        "SECRET_KEY='from file'\nPOSTGRES_PASSWORD=x\n"
    )
    settings = load_settings({"PORT": "9200"}, env_file=env_file)
    assert (settings.bot_delay, settings.port, settings.secret_key) == (0.25, 9200, "from file")
    # Without a file (and for a variable nobody sets) the default stays.
    assert load_settings({"SECRET_KEY": "k"}).bot_delay == 0.6


def test_direct_construction_reads_no_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("GUILDHALL_RATE_LIMIT=3\n")
    monkeypatch.setenv("GUILDHALL_BOT_DELAY", "9")
    monkeypatch.setenv("PUBLIC_URL", "https://elsewhere.example")
    monkeypatch.setenv("SECRET_KEY", "k")
    settings = Settings(secret_key="k")
    assert (settings.bot_delay, settings.rate_limit) == (0.6, 20.0)
    assert settings.public_url == "http://127.0.0.1:8000"
    loaded = load_settings()  # the process environment over ./.env
    assert (loaded.bot_delay, loaded.rate_limit) == (9.0, 3.0)
    assert loaded.public_url == "https://elsewhere.example"
