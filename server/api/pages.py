"""Browser pages: the lobby (``/``), the table page (``/t/{id}``) and the static files.

The pages are thin Jinja2 shells; everything a player sees is drawn by the plain
JavaScript under ``web/static`` from the websocket document. The UI strings live in
one JSON dictionary per language under ``web/i18n``; the page inlines the dictionary
the player asked for (``?lang=``, then the ``gh_lang`` cookie, then Accept-Language).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from server.engine import get_game
from server.engine.registry import game_names
from server.resources import ROOT
from server.tables import ServiceError

from .errors import status_of
from .howto import how_to_play, pieces, rules_games, rules_pictures, words

WEB_DIR = ROOT / "web"
STATIC_DIR = WEB_DIR / "static"
I18N_DIR = WEB_DIR / "i18n"
DEFAULT_LANG = "en"

templates = Jinja2Templates(directory=str(WEB_DIR / "templates"))
router = APIRouter()

# A year: a versioned static URL names one content for ever.
IMMUTABLE = "public, max-age=31536000, immutable"
VERSION_SEGMENT = re.compile(r"[0-9a-f]{12}")


def _tree_version(root: Path) -> str:
    """12 hex digits of a hash over every file's path and bytes under ``root``.

    The pages link static files as ``/static/<version>/<path>``: the modules import each other
    by relative paths, so one version for the whole tree keeps every import on the same
    version, and any change to any file gives every URL a new name.
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


ASSET_VERSION = _tree_version(STATIC_DIR)
STATIC_FILES = StaticFiles(directory=STATIC_DIR)


def static_url(path: str) -> str:
    """The versioned URL of ``web/static/<path>`` (cached by browsers for a year)."""
    return f"/static/{ASSET_VERSION}/{path}"


# A static import of another module of ours (``import … from "./x.js"``, ``"../../x.js"``).
IMPORT = re.compile(r'^import [^"]*"(\.\.?/[a-z0-9_/.]+\.js)";', re.MULTILINE)


@lru_cache(maxsize=16)
def module_closure(*entries: str) -> tuple[str, ...]:
    """Every module under ``web/static/js`` the ``entries`` import, directly or not, entries
    first: the page preloads them all at once instead of finding them one level at a time."""
    found: list[str] = []
    todo = list(entries)
    while todo:
        name = todo.pop(0)
        if name in found:
            continue
        found.append(name)
        source = (STATIC_DIR / "js" / name).read_text(encoding="utf-8")
        here = posixpath.dirname(name)
        todo += [posixpath.normpath(posixpath.join(here, path)) for path in IMPORT.findall(source)]
    return tuple(found)


templates.env.globals["static"] = static_url


@lru_cache(maxsize=1)
def languages() -> dict[str, dict[str, str]]:
    """Every shipped dictionary by language code, read once.

    ``web/i18n/<lang>.json`` is the shared dictionary; each game may bring its own strings in
    ``web/i18n/<game>/<lang>.json``, merged into that language. Raises ValueError when a file
    is not a flat JSON object of strings, when two files define the same key, or when a
    language lacks a key that English has (a missing translation is a bug, not a fallback).
    """
    found = {p.stem: _read_strings(p) for p in sorted(I18N_DIR.glob("*.json"))}
    for extra in sorted(I18N_DIR.glob("*/*.json")):
        if extra.stem not in found:
            raise ValueError(f"{extra}: no shared dictionary web/i18n/{extra.stem}.json")
        clash = sorted(set(found[extra.stem]) & set(strings := _read_strings(extra)))
        if clash:
            raise ValueError(f"{extra} repeats keys of another dictionary: {clash[:5]}")
        found[extra.stem] = {**found[extra.stem], **strings}
    english = found[DEFAULT_LANG]
    for code, strings in found.items():
        missing = sorted(set(english) - set(strings))
        if missing:
            raise ValueError(f"language {code!r} lacks keys {missing[:5]}")
    return found


def _read_strings(path: Path) -> dict[str, str]:
    strings = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(strings, dict) or not all(isinstance(v, str) for v in strings.values()):
        raise ValueError(f"{path}: must be a JSON object whose values are all strings")
    return strings


# The lobby's own strings (creating a table, the open tables, "your tables") live in a folder
# of their own, as a game's do, so that no table page carries them.
LOBBY_STRINGS = "lobby"
# Folders of strings a table page loads later, with the part that shows them (the seat's
# notifications card: push notices, e-mail, webhook; a learning table's badge and the bot's
# suggestions; a finished game's analysis), on top of the dictionary it has.
LATER_STRINGS = frozenset({"notices", "learning", "analysis"})


@lru_cache(maxsize=1)
def _game_keys() -> dict[str, frozenset[str]]:
    """Each folder's keys (``web/i18n/<game>/en.json``, ``web/i18n/lobby/en.json``): a page of
    another game, and the lobby, leave a game's out; a table leaves the lobby's out."""
    return {
        path.parent.name: frozenset(_read_strings(path))
        for path in sorted(I18N_DIR.glob(f"*/{DEFAULT_LANG}.json"))
    }


@lru_cache(maxsize=1)
def _game_modules() -> frozenset[str]:
    """The games with a page module: ``web/static/js/games/<game>/<game>.js``."""
    return frozenset(
        p.parent.name
        for p in (STATIC_DIR / "js" / "games").glob("*/*.js")
        if p.stem == p.parent.name
    )


def game_module(game: str) -> str:
    """A game's page module (its renderer), under ``web/static/js``."""
    return f"games/{game}/{game}.js"


def page_strings(lang: str, game: str | None = None) -> dict[str, str]:
    """The dictionary one page needs: the shared strings and, on a table, its own game's (on
    the lobby, the lobby's own: ``web/i18n/lobby/``)."""
    own = {name: keys for name, keys in _game_keys().items() if name != (game or LOBBY_STRINGS)}
    others = frozenset().union(*own.values())
    return {key: text for key, text in languages()[lang].items() if key not in others}


# No charset on scripts: modules and workers are read as UTF-8 whatever it says, and the
# one classic script (the strings) by its page's charset, which every page sets to UTF-8;
# the parameter was 15 bytes of each of a table page's twenty-odd files.
JAVASCRIPT = "text/javascript"
CSS = "text/css; charset=utf-8"


@dataclass(frozen=True)
class Asset:
    """A script or style sheet made in memory once per process, with its ETag."""

    body: bytes
    media_type: str
    etag: str

    @classmethod
    def of(cls, body: bytes, media_type: str) -> Asset:
        return cls(body, media_type, '"' + hashlib.sha256(body).hexdigest()[:16] + '"')

    def response(self, request: Request, current: bool) -> Response:
        """The asset, or 304 when the browser holds it; kept a year under the current version
        of its URL, revalidated under any other (a page from before a deploy).

        Under the current version no ETag is sent: that URL's bytes never change, so a browser
        never revalidates it, and the header was some 30 bytes of each of a table page's
        twenty-odd files on its first load."""
        headers = {"Cache-Control": IMMUTABLE} if current else {"Cache-Control": "no-cache"}
        if not current:
            headers["ETag"] = self.etag
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type=self.media_type, headers=headers)


# The dictionaries get their own version (the strings change apart from the scripts) and
# their own URL per language and scope: the page loads ``/strings/<version>/<lang>/<scope>.js``
# (``scope`` is the table's game, or ``site`` for the lobby), kept a year like a static
# file, instead of carrying some 20 KB of strings in every page it serves.
STRINGS_VERSION = _tree_version(I18N_DIR)
SITE_SCOPE = "site"


def strings_url(lang: str, game: str | None) -> str:
    return f"/strings/{STRINGS_VERSION}/{lang}/{game or SITE_SCOPE}.js"


@lru_cache(maxsize=64)
def strings_script(lang: str, scope: str) -> Asset:
    """A classic script that leaves the dictionary on ``globalThis.ghStrings`` for i18n.js
    (a data block would need the page itself; the policy allows no inline script); for a
    folder loaded later, one that adds that folder's strings to it."""
    if scope in LATER_STRINGS:
        later = {key: languages()[lang][key] for key in _game_keys()[scope]}
        text = json.dumps(later, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return Asset.of(f"Object.assign(globalThis.ghStrings,{text});\n".encode(), JAVASCRIPT)
    strings = page_strings(lang, None if scope == SITE_SCOPE else scope)
    text = json.dumps(strings, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return Asset.of(f"globalThis.ghStrings={text};\n".encode(), JAVASCRIPT)


# Read and check the dictionaries at import: a broken one stops the server at start-up
# with the file and keys named, rather than on some player's first page. The same for the
# how-to-play pages of every game in every language.
for _lang in languages():
    for _game in rules_games():
        how_to_play(_game, _lang)
    words(_lang)


def pick_language(request: Request) -> str:
    """The request's language: ``?lang=``, the ``gh_lang`` cookie, Accept-Language, else English."""
    shipped = languages()
    wanted = [request.query_params.get("lang", ""), request.cookies.get("gh_lang", "")]
    for part in request.headers.get("accept-language", "").split(","):
        wanted.append(part.split(";")[0].strip().split("-")[0])
    return next((code for code in wanted if code in shipped), DEFAULT_LANG)


def _context(request: Request, game: str | None = None, **extra: Any) -> dict[str, Any]:
    lang = pick_language(request)
    return {
        "lang": lang,
        "game": game,
        "game_style": game is not None and (STATIC_DIR / "css" / f"{game}.css").is_file(),
        # table.js itself is the page's script; the rest is preloaded
        "page_modules": module_closure(
            "table.js", *([game_module(game)] if game in _game_modules() else [])
        )[1:],
        "strings": page_strings(lang, game),
        "strings_url": strings_url(lang, game),
        "rules_words": words(lang),
        "languages": sorted(languages()),
        **extra,
    }


def _page(request: Request, name: str, **extra: Any) -> HTMLResponse:
    response = templates.TemplateResponse(request, name, _context(request, **extra))
    if "lang" in request.query_params and request.query_params["lang"] in languages():
        response.set_cookie("gh_lang", request.query_params["lang"], samesite="lax")
    return response


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby_page(request: Request) -> HTMLResponse:
    """The lobby: create a table, invite, start; recent tables from localStorage. Each game
    is described in two lines (the first of its how-to-play page), with its seats and length."""
    lang = pick_language(request)
    about = [(how_to_play(name, lang), get_game(name)) for name in rules_games()]
    return _page(request, "lobby.html", games_about=about)


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(request: Request, game: str) -> HTMLResponse:
    """How to play ``game`` in the page's language, every clause of docs/rules/ anchored by
    its id (``/rules/norenberc#N-4.6``); a 404 page listing the games for any other name."""
    lang = pick_language(request)
    if game not in rules_games():
        found = [(how_to_play(name, lang), get_game(name)) for name in rules_games()]
        response = _page(request, "rules.html", howto=None, games_about=found)
        response.status_code = 404
        return response
    # The board's own pictures where the table draws them from the view alone.
    return _page(
        request,
        "rules.html",
        howto=how_to_play(game, lang),
        rules_game=get_game(game),
        **rules_pictures(game, languages()[lang]),
        game_strings=languages()[lang],
        rules_style=(STATIC_DIR / "css" / f"{game}.css").is_file(),
    )


@router.get("/api/rules/{game}", tags=["games"])
async def rules_data(request: Request, game: str) -> dict[str, Any]:
    """How to play ``game`` as data (``?lang=``, else the page's language): what the table's
    rules panel shows. 404 ``not_found`` for a game without rules pages."""
    if game not in rules_games():
        raise HTTPException(status_code=404, detail=f"no rules for a game called {game!r}")
    return how_to_play(game, pick_language(request)).as_json()


@router.get("/api/rules/{game}/pieces", tags=["games"])
async def rules_pieces(request: Request, game: str) -> dict[str, Any]:
    """What each component of ``game``'s board is and does (``?lang=``, else the page's
    language), with the clause it follows: what the table shows on a piece's hover, focus or
    long press. 404 ``not_found`` for a game without rules pages."""
    if game not in rules_games():
        raise HTTPException(status_code=404, detail=f"no rules for a game called {game!r}")
    lang = pick_language(request)
    return {"game": game, "lang": lang, "pieces": pieces(game, lang)}


@router.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_page(request: Request, table_id: str) -> HTMLResponse:
    """The table page; the seat token stays in the URL fragment, so it never reaches us here.

    The page loads only its own game's module, style and strings; for a table this process
    cannot find (the page then says so once its websocket is refused) it names no game.
    """
    return _page(request, "table.html", table_id=table_id, game=await _game_of(request, table_id))


async def _game_of(request: Request, table_id: str) -> str | None:
    service = getattr(request.app.state, "service", None)
    if service is None:
        return None
    try:
        data = await service.get(table_id)
    except ServiceError:
        return None
    return str(data.game)


# The page a confirmation link opens (docs/notifications.md). Opening it only asks: mail
# scanners open the links in a mail, and must not confirm an address for its owner.
@router.get("/email/confirm/{token}", response_class=HTMLResponse, include_in_schema=False)
async def confirm_email_page(request: Request, token: str) -> HTMLResponse:
    """What confirming means for whom, and the button that confirms."""
    return await _confirmation(request, token, confirm=False)


@router.post("/email/confirm/{token}", response_class=HTMLResponse, include_in_schema=False)
async def confirm_email(request: Request, token: str) -> HTMLResponse:
    """Confirm the address: "your move" e-mails go to it from now on; the link is used up."""
    return await _confirmation(request, token, confirm=True)


async def _confirmation(request: Request, token: str, confirm: bool) -> HTMLResponse:
    contacts = request.app.state.contacts
    try:
        found = await (contacts.confirm if confirm else contacts.pending)(token)
    except ServiceError as refused:
        response = _page(request, "confirm_email.html", state=refused.code)
        response.status_code = status_of(refused.code)
    else:
        response = _page(
            request, "confirm_email.html", state="confirmed" if confirm else "ask",
            table=found.table_name, email=found.email, table_url=f"/t/{found.table_id}",
        )  # fmt: skip
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/static/{path:path}", include_in_schema=False)
async def static_file(path: str, request: Request) -> Response:
    """A file under ``web/static`` through Starlette's StaticFiles (ETag, Last-Modified, 304,
    nothing outside the folder); 404 for anything outside it or missing.

    ``/static/<version>/<path>`` with the current version may be kept a year (``immutable``);
    the bare path, or another version (a page from before a deploy), must be revalidated.
    """
    version, _, rest = path.partition("/")
    if VERSION_SEGMENT.fullmatch(version) and rest:
        path = rest
    asset = minified().get(path)
    if asset is not None:
        return asset.response(request, current=version == ASSET_VERSION)
    response = await STATIC_FILES.get_response(path, request.scope)
    response.headers["Cache-Control"] = IMMUTABLE if version == ASSET_VERSION else "no-cache"
    return response


@lru_cache(maxsize=1)
def minified() -> dict[str, Asset]:
    """Every script and style sheet under ``web/static`` by its path there, with comments and
    layout taken out (rjsmin, rcssmin): a quarter less on the wire after gzip. Made at the
    first request, once per process; any other path goes to StaticFiles as it is.

    The files on disk stay as written; only what is served is minified (names are kept, so
    a browser's debugger still reads it).
    """
    assets = {}
    for file in sorted(STATIC_DIR.rglob("*.js")):
        text = file.read_text(encoding="utf-8")
        assets[file.relative_to(STATIC_DIR).as_posix()] = Asset.of(
            rjsmin.jsmin(text).encode(), JAVASCRIPT
        )
    for file in sorted(STATIC_DIR.rglob("*.css")):
        text = file.read_text(encoding="utf-8")
        assets[file.relative_to(STATIC_DIR).as_posix()] = Asset.of(
            rcssmin.cssmin(text).encode(), CSS
        )
    return assets


@router.get("/strings/{version}/{lang}/{scope}.js", include_in_schema=False)
async def strings_file(version: str, lang: str, scope: str, request: Request) -> Response:
    """One language's dictionary for the lobby (``site``) or one game's tables, or the
    strings a table loads later (``notices``); 404 for a language or scope that is not
    shipped. Versioned like ``/static``: the current version is kept a year, any other is
    served fresh and revalidated."""
    known = scope == SITE_SCOPE or scope in game_names() or scope in LATER_STRINGS
    if lang not in languages() or not known:
        raise HTTPException(status_code=404, detail="Not Found")
    return strings_script(lang, scope).response(request, current=version == STRINGS_VERSION)
