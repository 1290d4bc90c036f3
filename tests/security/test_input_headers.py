"""Browser security headers on every HTTP answer: a strict Content-Security-Policy (the pages
carry no inline script), no framing, no sniffing, no Referer, and no caching of API answers
(some carry a seat token)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.api.headers import CONTENT_SECURITY_POLICY
from tests.support.testclient import TestClient

TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


@pytest.fixture
def database_kind() -> str:
    """Headers do not depend on the database: SQLite only."""
    return "sqlite"


def policy(header: str) -> dict[str, list[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {d[0]: d[1:] for d in directives}


def assert_browser_headers(res: object) -> None:
    headers = res.headers  # type: ignore[attr-defined]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    csp = policy(headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["default-src"] == ["'none'"]


def test_the_policy_allows_only_the_apps_own_scripts_and_styles() -> None:
    csp = policy(CONTENT_SECURITY_POLICY)
    for directive in ("script-src", "style-src", "connect-src", "img-src"):
        assert csp[directive] == ["'self'"], directive
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert "'unsafe-eval'" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("path", ["/", "/t/abc123", "/static/img/crest.svg", "/nowhere"])
def test_pages_images_and_errors_carry_the_headers(client: TestClient, path: str) -> None:
    """Anything a browser may show as a document (a page, an SVG opened on its own, an
    error) carries the whole policy."""
    res = client.get(path)
    assert_browser_headers(res)
    assert policy(res.headers["content-security-policy"])["script-src"] == ["'self'"]


@pytest.mark.parametrize(
    "path", ["/static/js/i18n.js", "/static/css/guildhall.css", "/strings/0123456789ab/en/site.js"]
)
def test_scripts_and_styles_carry_only_what_a_subresource_needs(
    client: TestClient, path: str
) -> None:
    """A script or style sheet is never a document (nosniff keeps it from being taken for
    one), so the document-only headers are left off the dozen files of every page."""
    res = client.get(path)
    assert res.status_code == 200
    assert res.headers["x-content-type-options"] == "nosniff"
    assert res.headers["referrer-policy"] == "no-referrer"
    assert "content-security-policy" not in res.headers and "x-frame-options" not in res.headers


def test_api_answers_are_never_cached_above_all_those_with_a_token(client: TestClient) -> None:
    body = {"game": "toy", "seats": 2, "name": "Ada"}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201 and "token" in created.json()
    join = {"name": "Bo", "invite": created.json()["invite"]}
    joined = client.post(f"/api/tables/{created.json()['table_id']}/join", json=join)
    assert "token" in joined.json()
    refused = client.post("/api/tables", json={"game": "toy"})
    for res in (created, joined, refused, client.get("/api/tables"), client.get("/api/games")):
        assert_browser_headers(res)
        assert res.headers["cache-control"] == "no-store"
    # The pages themselves hold no token (it stays in the URL fragment).
    assert client.get("/").headers.get("cache-control") != "no-store"


def test_the_api_docs_page_works_and_still_cannot_be_framed(client: TestClient) -> None:
    res = client.get("/docs")
    assert res.status_code == 200
    assert_browser_headers(res)


def test_templates_hold_no_inline_script_style_or_handler() -> None:
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            # A script either loads a file of ours or is a JSON data block (never executed).
            ours = re.search(r'src="(/static/|\{\{ static\(|\{\{ strings_url \}\})', tag)
            assert ours or 'type="application/json"' in tag, (template, tag)
        assert "<style" not in text, template
        assert not re.search(r"\sstyle=", text), template
        assert not re.search(r"\son[a-z]+=", text), template
