"""Browser pages: the lobby (``/``), the table page (``/t/{id}``) and the static files.

The pages are thin Jinja2 shells; everything a player sees is drawn by the plain
JavaScript under ``web/static`` from the websocket document. The UI strings live in
one JSON dictionary per language under ``web/i18n``; the page inlines the dictionary
the player asked for (``?lang=``, then the ``gh_lang`` cookie, then Accept-Language).
"""

from __future__ import annotations

import json
import mimetypes
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.templating import Jinja2Templates

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
STATIC_DIR = WEB_DIR / "static"
I18N_DIR = WEB_DIR / "i18n"
DEFAULT_LANG = "en"

templates = Jinja2Templates(directory=str(WEB_DIR / "templates"))
router = APIRouter()


@lru_cache(maxsize=1)
def languages() -> dict[str, dict[str, str]]:
    """Every shipped dictionary by language code, read once.

    Raises ValueError when a dictionary is not a flat JSON object of strings or lacks a
    key that English has (a missing translation is a bug, not a fallback).
    """
    found = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in I18N_DIR.glob("*.json")}
    english = found[DEFAULT_LANG]
    for code, strings in found.items():
        if not all(isinstance(v, str) for v in strings.values()):
            raise ValueError(f"web/i18n/{code}.json: every value must be a string")
        missing = sorted(set(english) - set(strings))
        if missing:
            raise ValueError(f"web/i18n/{code}.json lacks keys {missing[:5]}")
    return found


def pick_language(request: Request) -> str:
    """The request's language: ``?lang=``, the ``gh_lang`` cookie, Accept-Language, else English."""
    shipped = languages()
    wanted = [request.query_params.get("lang", ""), request.cookies.get("gh_lang", "")]
    for part in request.headers.get("accept-language", "").split(","):
        wanted.append(part.split(";")[0].strip().split("-")[0])
    return next((code for code in wanted if code in shipped), DEFAULT_LANG)


def _context(request: Request, **extra: Any) -> dict[str, Any]:
    lang = pick_language(request)
    return {
        "lang": lang,
        "strings": languages()[lang],
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
    """The lobby: create a table, invite, start; recent tables from localStorage."""
    return _page(request, "lobby.html")


@router.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_page(request: Request, table_id: str) -> HTMLResponse:
    """The table page; the seat token stays in the URL fragment, so it never reaches us here."""
    return _page(request, "table.html", table_id=table_id)


@router.get("/static/{path:path}", include_in_schema=False)
async def static_file(path: str) -> Response:
    """A file under ``web/static``; 404 for anything outside it or missing."""
    target = (STATIC_DIR / path).resolve()
    if not target.is_relative_to(STATIC_DIR) or not target.is_file():
        raise HTTPException(status_code=404, detail={"code": "not_found", "message": path})
    media_type = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    return FileResponse(target, media_type=media_type, headers={"Cache-Control": "no-cache"})
