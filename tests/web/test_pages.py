"""The page router on its own: shells, language choice, static files, dictionaries."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from server.api import pages, replay
from tests.support.rules_pages import client

__all__ = ["client"]  # a fixture, used by name below


def strings_of(page: str) -> str:
    """The URL of the dictionary script a page loads (one per page, before its modules)."""
    (url,) = re.findall(r'<script defer src="(/strings/[^"]+)"></script>', page)
    assert page.index(url) < page.index('type="module"')  # it runs before the modules
    return str(url)


async def test_lobby_page_loads_the_english_strings_by_default(client: httpx.AsyncClient) -> None:
    res = await client.get("/")
    assert res.status_code == 200
    assert '<html lang="en">' in res.text
    url = strings_of(res.text)
    assert url == f"/strings/{pages.STRINGS_VERSION}/en/site.js"
    script = await client.get(url)
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert script.text.startswith("globalThis.ghStrings={")
    assert json.loads(script.text[len("globalThis.ghStrings=") : -2])["lobby.create_button"] == (
        "Create table"
    )
    # The page itself no longer carries the dictionary.
    assert '"lobby.create_button":' not in res.text and len(res.content) < 8000


async def test_the_strings_of_an_unknown_language_or_game_are_not_found(
    client: httpx.AsyncClient,
) -> None:
    v = pages.STRINGS_VERSION
    for path in (f"/strings/{v}/xx/site.js", f"/strings/{v}/en/chess.js", f"/strings/{v}/en/..js"):
        assert (await client.get(path)).status_code == 404, path
    old = await client.get("/strings/0123456789ab/hu/norenberc.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    again = await client.get(old.url, headers={"If-None-Match": old.headers["etag"]})
    assert again.status_code == 304


async def test_the_notices_strings_come_later_and_alone(client: httpx.AsyncClient) -> None:
    """The notifications card's strings are a script of their own, added to the page's
    dictionary when the card is opened: only its keys, in the page's language."""
    later = await client.get(f"/strings/{pages.STRINGS_VERSION}/de/notices.js")
    assert later.status_code == 200 and later.headers["cache-control"] == pages.IMMUTABLE
    prefix, text = "Object.assign(globalThis.ghStrings,", later.text.strip()
    assert text.startswith(prefix) and text.endswith(");")
    found = json.loads(text[len(prefix) : -2])
    assert set(found) == set(pages._game_keys()["notices"]) and "push.enable" in found
    assert found["push.enable"] == pages.languages()["de"]["push.enable"]


async def test_table_page_carries_its_table_id_and_no_token(client: httpx.AsyncClient) -> None:
    res = await client.get("/t/abc123")
    assert res.status_code == 200
    assert 'data-table-id="abc123"' in res.text
    assert "seat=" not in res.text.split("<script")[0]


async def test_language_comes_from_query_then_cookie_then_accept_language(
    client: httpx.AsyncClient,
) -> None:
    assert (
        '<html lang="hu">'
        in (await client.get("/", headers={"Accept-Language": "hu-HU,hu;q=0.9"})).text
    )
    res = await client.get("/?lang=hu")
    assert '<html lang="hu">' in res.text
    assert res.cookies.get("gh_lang") == "hu"
    # the cookie now remembers the choice; an unknown ?lang= does not override it
    assert '<html lang="hu">' in (await client.get("/?lang=xx")).text
    client.cookies.clear()
    assert (
        '<html lang="en">'
        in (await client.get("/?lang=xx", headers={"Accept-Language": "fr"})).text
    )


async def test_static_files_are_served_with_their_type(client: httpx.AsyncClient) -> None:
    res = await client.get("/static/js/patch.js")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith(("application/javascript", "text/javascript"))
    assert (
        (await client.get("/static/css/guildhall.css"))
        .headers["content-type"]
        .startswith("text/css")
    )


@pytest.mark.parametrize(
    "path",
    ["/static/../../pyproject.toml", "/static/%2e%2e/templates/base.html", "/static/nope.js"],
)
async def test_static_never_serves_outside_web_static(client: httpx.AsyncClient, path: str) -> None:
    assert (await client.get(path)).status_code == 404


def test_every_language_has_every_english_key() -> None:
    shipped = pages.languages()
    assert {"en", "hu", "nl", "de"} <= set(shipped)
    for code, strings in shipped.items():
        assert set(strings) == set(shipped["en"]), code


def test_every_string_key_used_by_the_client_exists_in_english() -> None:
    english = pages.languages()["en"]
    used: set[str] = set()
    for path in (pages.STATIC_DIR / "js").glob("*.js"):
        used |= set(re.findall(r'\bt\("([a-z_][a-z_.0-9]*[a-z_0-9])"', path.read_text()))
    for path in (pages.WEB_DIR / "templates").glob("*.html"):
        used |= set(re.findall(r'data-i18n="([^"]+)"', path.read_text()))
        used |= set(re.findall(r"strings\['([^']+)'\]", path.read_text()))
    assert sorted(used - set(english)) == []


def _keys_named(module: str) -> set[str]:
    """Every dictionary key a module names as a literal (``t("x")`` or ``"prefix.key"`` among
    the prefixes the dictionaries use)."""
    text = (pages.STATIC_DIR / "js" / module).read_text()
    prefixes = {key.split(".")[0] for key in pages.languages()["en"]}
    named = set(re.findall(r'"([a-z_][a-z_0-9]*\.[a-z_.0-9]*[a-z_0-9])"', text))
    return {key for key in named if key.split(".")[0] in prefixes}


def game_modules(game: str) -> tuple[str, ...]:
    """Every module of a game's page (web/static/js/games/<game>/), its renderer first: the
    rest it imports at once or when needed (a summary)."""
    folder = pages.STATIC_DIR / "js" / "games" / game
    rest = sorted(p.name for p in folder.glob("*.js") if p.stem != game)
    return tuple(f"games/{game}/{name}" for name in [f"{game}.js", *rest])


# What a table page imports only when it is needed (``import(...)``): its keys are the page's too.
LAZY = (
    "notify.js",
    "push.js",
    "summary.js",
    "clock_chips.js",
    "pause_bar.js",
    "patch.js",
    "table_waiting.js",
    "table_scores.js",
    "table_replay.js",
)


@pytest.mark.parametrize(
    ("game", "entries"),
    [
        (None, ("lobby.js",)),
        ("norenberc", ("table.js", *game_modules("norenberc"), *LAZY)),
        ("strasbourg", ("table.js", *game_modules("strasbourg"), *LAZY)),
    ],
)
def test_each_page_carries_the_keys_its_modules_name(
    game: str | None, entries: tuple[str, ...]
) -> None:
    """A game's strings reach only its own tables, the lobby's only the lobby (each page
    loads less), and each page's dictionary still holds every key its modules name."""
    english = pages.languages()["en"]
    served = set(pages.page_strings("en", game))
    later = {key for name in pages.LATER_STRINGS for key in pages._game_keys()[name]}
    carried = served | later if game else served  # a table adds its notifications card's
    for module in pages.module_closure(*entries):
        missing = sorted(key for key in _keys_named(module) - carried if key in english)
        assert missing == [], (game, module)
    others = {"norenberc", "strasbourg", pages.LOBBY_STRINGS} - {game or pages.LOBBY_STRINGS}
    for other in others | pages.LATER_STRINGS:
        assert not served & set(pages._game_keys()[other]), (game, other)


PLACEHOLDER = r"\{(\w+(?::\w+)?)\}"  # {name} or, in log templates, {name:format}


def test_placeholders_match_between_languages() -> None:
    shipped = pages.languages()
    for key, text in shipped["en"].items():
        wanted = set(re.findall(PLACEHOLDER, text))
        for code, strings in shipped.items():
            assert set(re.findall(PLACEHOLDER, strings[key])) == wanted, (code, key)


def test_dictionaries_are_valid_json_objects() -> None:
    for path in pages.I18N_DIR.glob("**/*.json"):
        assert isinstance(json.loads(path.read_text()), dict)


def test_a_game_brings_its_strings_in_its_own_folder(tmp_path: Path, monkeypatch: Any) -> None:
    (tmp_path / "chess").mkdir()
    (tmp_path / "en.json").write_text('{"a": "A"}')
    (tmp_path / "hu.json").write_text('{"a": "Á"}')
    (tmp_path / "chess" / "en.json").write_text('{"chess.k": "king"}')
    monkeypatch.setattr(pages, "I18N_DIR", tmp_path)
    pages.languages.cache_clear()
    try:
        with pytest.raises(ValueError, match=re.escape("language 'hu' lacks keys ['chess.k']")):
            pages.languages()
        (tmp_path / "chess" / "hu.json").write_text('{"chess.k": "király"}')
        pages.languages.cache_clear()
        assert pages.languages()["hu"] == {"a": "Á", "chess.k": "király"}
        (tmp_path / "chess" / "en.json").write_text('{"chess.k": "king", "a": "again"}')
        pages.languages.cache_clear()
        with pytest.raises(ValueError, match="repeats keys"):
            pages.languages()
    finally:
        pages.languages.cache_clear()


def finished_record(seed: str = "replay") -> tuple[dict[str, object], dict[str, object]]:
    """A random finished 3-seat game as the service's record, and its final state."""
    import random

    from server.engine import get_game

    game = get_game("norenberc")
    options = game.default_options()
    state = game.new(3, seed, options)
    rng = random.Random(seed)
    commands = []
    while game.result(state) is None:
        seat = min(game.to_act(state))
        cmd = rng.choice(game.legal(state, seat))
        commands.append({"seat": seat, "cmd": cmd})
        state, _ = game.apply(state, seat, cmd)
    record = {"game": "norenberc", "seats": 3, "seed": seed, "options": options}
    record["commands"] = commands
    return record, state


class StubService:
    """Just enough of TableService for the replay route."""

    def __init__(self, record: dict[str, object] | None) -> None:
        self._record = record

    async def record(self, table_id: str) -> dict[str, object]:
        from server.tables import ServiceError

        if self._record is None:
            raise ServiceError("not_finished", "the record is published once the game ends")
        return self._record


async def replay_client(record: dict[str, object] | None) -> httpx.AsyncClient:
    from server.app import _add_error_handlers

    app = FastAPI()
    app.include_router(replay.router)
    _add_error_handlers(app)
    app.state.service = StubService(record)
    replay._replays.clear()
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_replay_steps_end_at_the_final_spectator_view() -> None:
    from server.engine import get_game

    record, final = finished_record()
    steps = len(record["commands"])  # type: ignore[arg-type]
    async with await replay_client(record) as client:
        first = (await client.get("/api/tables/t1/replay/0")).json()
        last = (await client.get(f"/api/tables/t1/replay/{steps}")).json()
        beyond = await client.get(f"/api/tables/t1/replay/{steps + 1}")
    game = get_game("norenberc")
    assert first["steps"] == steps and first["command"] is None
    assert first["view"] == game.view(game.new(3, "replay", game.default_options()), None)
    assert last["view"] == game.view(final, None)
    assert last["command"] == record["commands"][-1]  # type: ignore[index]
    assert last["view"]["legal"] == [] and last["view"]["seat"] is None
    assert beyond.status_code == 404 and beyond.json()["code"] == "bad_step"
    types = {e["type"] for e in last["log"]}
    assert "GameEnded" in types and "PlanSealed" not in types  # a spectator's log only


async def test_a_finished_games_replay_shows_every_seat_and_where_each_round_began() -> None:
    record, _ = finished_record()
    async with await replay_client(record) as client:
        first = (await client.get("/api/tables/t1/replay/1")).json()
    spectator = first["view"]["players"]
    assert [p["talers"] for p in spectator] == [None, None, None]  # hidden from a spectator
    for seat, own in enumerate(first["seat_views"]):
        assert own["seat"] == seat and isinstance(own["players"][seat]["talers"], int)
    rounds = first["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3, 4]
    starts = [r["step"] for r in rounds]
    assert starts[0] == 0 and starts == sorted(starts)
    async with await replay_client(record) as client:
        begun = (await client.get(f"/api/tables/t1/replay/{rounds[2]['step']}")).json()
    assert begun["view"]["round"] == 3 and begun["log"][-1]["type"] == "RoundStarted"


async def test_replay_of_an_unfinished_game_is_refused() -> None:
    async with await replay_client(None) as client:
        res = await client.get("/api/tables/t2/replay/0")
    assert res.status_code == 409 and res.json()["code"] == "not_finished"


def test_every_name_the_client_builds_from_view_data_has_a_string() -> None:
    from server.engine import get_game

    english = pages.languages()["en"]
    citizens = {
        "councillor", "thief", "bailiff", "musician", "peddler", "chief_judge",
        "nobleman", "tax_collector", "engraver", "apprentice", "foreman",
    }  # fmt: skip
    goods = ["beer", "pastry", "shoes", "paper", "cloth", "hats"]
    wanted = {f"{prefix}.{c}" for c in citizens for prefix in ("citizen", "citizen_short", "power")}
    wanted |= {f"guild.{g}" for g in range(1, 7)} | {f"window.cost.{w}" for w in range(1, 5)}
    wanted |= {f"good.{g}" for g in goods} | {f"goods.{g}" for g in goods}
    wanted |= {f"symbol.{s}" for s in ("star", "moon", "sun")} | {"disc.agent", "disc.moon"}
    wanted |= {f"plan.status.{s}" for s in ("planning", "waiting", "committed", "out")}
    wanted |= {f"conn.{s}" for s in ("connecting", "online", "offline", "unknown")}
    wanted |= {f"bot.{k}" for k in ("human", "random", "greedy", "mcts")}
    game = get_game("norenberc")
    state = game.new(3, "names", game.default_options())
    while game.result(state) is None:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.legal(state, seat)[0])
    result = game.result(state)
    assert result is not None
    wanted |= {f"score.{category}" for category in result["breakdown"][0]}
    assert sorted(wanted - set(english)) == []


def test_the_page_offers_exactly_the_quick_phrases_the_server_takes_in_every_language() -> None:
    """The chat's quick phrases travel as ids (server.chat.rules.PHRASES): the form's list
    names the same ids, and each language shows each of them; no string for one the server
    would refuse."""
    from server.chat.rules import PHRASES

    form = (pages.STATIC_DIR / "js" / "chat_form.js").read_text()
    listed = re.search(r"const PHRASES = \[(.*?)\];", form, re.S)
    assert listed is not None
    assert re.findall(r'"([a-z_]+)"', listed.group(1)) == list(PHRASES)
    for code, strings in pages.languages().items():
        phrases = {k.removeprefix("chat.phrase.") for k in strings if k.startswith("chat.phrase.")}
        assert phrases == set(PHRASES), code
        assert all(strings[f"chat.phrase.{p}"].strip() for p in PHRASES), code


def test_strasbourg_task_templates_say_what_the_data_file_says() -> None:
    """The page shows a task card from ``sb.task.<kind>``; in English that must read as the
    card's text in seeds/strasbourg.json, and every language has every kind."""
    seeds = json.loads((Path(__file__).parents[2] / "seeds" / "strasbourg.json").read_text())
    english = pages.languages()["en"]
    for task in seeds["tasks"]:
        named = task["param"] or ""
        text = english[f"sb.task.{task['kind']}"].format(
            edifice=english.get(f"sb.edifice.{named}", ""),
            guild=english.get(f"sb.guild.{named}", ""),
        )
        assert text == task["text"], task["id"]
    for strings in pages.languages().values():
        assert {f"sb.task.{task['kind']}" for task in seeds["tasks"]} <= set(strings)


async def test_a_table_page_loads_only_its_own_games_module_style_and_strings() -> None:
    from .fake_table import PAGE_GAMES, pages_app

    PAGE_GAMES.games.update(tn="norenberc", ts="strasbourg")
    transport = httpx.ASGITransport(app=pages_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        noren, stras, unknown = [(await client.get(f"/t/{i}")).text for i in ("tn", "ts", "tx")]
        lobby = (await client.get("/")).text
    js = f"/static/{pages.ASSET_VERSION}/js"
    assert (
        f'href="{js}/games/norenberc/norenberc.js"' in noren and "strasbourg" not in noren.lower()
    )
    scripts = {}
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for name, page in (("noren", noren), ("stras", stras), ("lobby", lobby)):
            scripts[name] = (await client.get(strings_of(page))).text
    assert '"sb.' not in scripts["noren"] and '"sb.' not in scripts["lobby"]
    assert f'href="/static/{pages.ASSET_VERSION}/css/strasbourg.css"' in stras
    # every module the page imports is preloaded at once, and no module of the other game
    preloaded = set(re.findall(r'rel="modulepreload" href="([^"]+)"', stras))
    wanted = {
        "chat",
        "clocks",
        "conn",
        "follow",
        "i18n",
        "page",
        "pieces",
        "sheet",
        "games/strasbourg/strasbourg",
        "games/strasbourg/strasbourg_board",
        "games/strasbourg/strasbourg_data",
        "games/strasbourg/strasbourg_players",
        "table_acts",
        "table_banner",
        "table_conn",
        "table_draw",
        "table_log",
        "table_state",
    }
    assert preloaded == {f"{js}/{name}.js" for name in wanted}
    assert '"sb.log.' in scripts["stras"]
    assert 'data-game=""' in unknown and ".css" not in unknown.replace("guildhall.css", "")
    for page in (noren, stras, unknown, lobby):
        assert "<script>" not in page  # no inline script: files of ours only


async def test_versioned_static_urls_are_kept_a_year_and_bare_ones_revalidated(
    client: httpx.AsyncClient,
) -> None:
    page = (await client.get("/")).text
    urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert urls and all(u.startswith(f"/static/{pages.ASSET_VERSION}/") for u in urls)
    for url in urls:
        res = await client.get(url)
        assert res.status_code == 200, url
        assert res.headers["cache-control"] == "public, max-age=31536000, immutable"
        if url.endswith((".js", ".css")):  # never revalidated: no ETag to weigh it down
            assert "etag" not in res.headers, url
    bare = await client.get("/static/js/table.js")
    assert (
        bare.headers["cache-control"] == "no-cache"
        and bare.text == (await client.get(f"/static/{pages.ASSET_VERSION}/js/table.js")).text
    )
    # a page from before a deploy asks for an older version: today's file, revalidated
    old = await client.get("/static/0123456789ab/js/table.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    again = await client.get(bare.url, headers={"If-None-Match": bare.headers["etag"]})
    assert again.status_code == 304
    assert (await client.get(f"/static/{pages.ASSET_VERSION}/../pyproject.toml")).status_code == 404


def test_the_static_version_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("1")
    before = pages._tree_version(tmp_path)
    (tmp_path / "js" / "a.js").write_text("2")
    assert pages._tree_version(tmp_path) != before
    assert re.fullmatch(r"[0-9a-f]{12}", before)


async def test_pages_and_static_files_are_gzipped_but_private_api_answers_are_not() -> None:
    from server.api.compression import Compression

    app = FastAPI()
    app.include_router(pages.router)

    @app.get("/api/tables/{table_id}")
    async def private(table_id: str) -> dict[str, str]:
        return {"token": "s" * 40, "name": "x" * 1000}

    transport = httpx.ASGITransport(app=Compression(app))
    gzip = {"Accept-Encoding": "gzip"}
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        for url in ("/", f"/static/{pages.ASSET_VERSION}/js/table.js"):
            res = await c.get(url, headers=gzip)
            assert res.headers.get("content-encoding") == "gzip", url
        assert "content-encoding" not in (await c.get("/api/tables/x", headers=gzip)).headers
        plain = await c.get("/", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers  # only when asked for


async def test_scripts_and_styles_are_served_minified_with_every_import_and_export(
    client: httpx.AsyncClient,
) -> None:
    files = sorted(pages.STATIC_DIR.glob("js/*.js")) + sorted(pages.STATIC_DIR.glob("css/*.css"))
    assert len(files) > 10
    for file in files:
        path = file.relative_to(pages.STATIC_DIR).as_posix()
        source = file.read_text(encoding="utf-8")
        served = await client.get(f"/static/{pages.ASSET_VERSION}/{path}")
        assert served.status_code == 200, path
        assert len(served.content) < 0.9 * len(source.encode()), path
        assert "\n//" not in served.text, path  # no comment lines left
        if file.suffix == ".js":
            assert served.headers["content-type"].startswith("text/javascript")
            names = re.findall(r"^export (?:function|const|let|var) ([\w$]+)", source, re.M)
            imports = re.findall(r'from "(\./[a-z0-9_]+\.js)"', source)
            for name in names:
                wanted = rf"export (function|const|let|var) {re.escape(name)}(?![\w$])"
                assert re.search(wanted, served.text), (path, name)
            for module in imports:
                assert f'"{module}"' in served.text, (path, module)
        else:
            assert served.headers["content-type"].startswith("text/css")
    # NUL bytes and paths out of the folder are still refused.
    assert (await client.get(f"/static/{pages.ASSET_VERSION}/js/%00.js")).status_code == 404
    assert (await client.get(f"/static/{pages.ASSET_VERSION}/../server/app.py")).status_code == 404


def test_each_language_marks_every_guild_with_its_own_letters() -> None:
    """Guild marks are read, not decoded: distinct in each language, and in English not the
    data file's M/K for Smiths/Bakers."""
    guilds = ["smiths", "vintners", "shoemakers", "butchers", "bakers"]
    for code, strings in pages.languages().items():
        marks = [strings[f"sb.guild_letter.{g}"] for g in guilds]
        assert len(set(marks)) == len(marks), (code, marks)
        for g, mark in zip(guilds, marks, strict=True):
            assert strings[f"sb.guild.{g}"].lower().startswith(mark.lower()[0]), (code, g, mark)
    english = pages.languages()["en"]
    assert english["sb.guild_letter.smiths"] != "M" and english["sb.guild_letter.bakers"] != "K"


def test_the_cancel_button_says_cancel_in_every_language() -> None:
    words = {"en": "Cancel", "hu": "Mégse", "nl": "Annuleren", "de": "Abbrechen"}
    for code, word in words.items():
        assert pages.languages()[code]["prompt.cancel"] == word
