"""The shared code names no game: the server outside ``server/games/<name>/`` (and a game's
own bot modules ``server/bots/<name>*.py``), the page core (``web/static/js`` but each game's
page modules), the templates and the cross-game tests (those reading ``tests.support.games``)
learn the games from the registry and their manifests. Adding a game then touches none of
them.

Only code counts: a name in a comment or a docstring (an example in prose) does not. The
few files that must name games are listed in ``ALLOWED``, each with its reason.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from tests.support import games

ROOT = games.ROOT
ALLOWED = {
    "server/engine/registry.py": "the lazy import map: the one place the server lists its games",
    "server/api/howto.py": "the rules pages' board pictures, drawn from one game's own view",
    "server/app.py": "the product's one-line description in the API docs",
    "server/devtools/bots/bench.py": "the bot benchmark times the decisions of one named game",
    "server/devtools/views_bench.py": "the view benchmark measures named games",
    "server/devtools/commands/loadtest.py": "the load test's default game",
    "server/devtools/analysis/bench.py": "the calibration's plan, sized to each game's play-outs",
}


def _word() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(n) for n in games.names()), re.IGNORECASE)


def python_names(source: str) -> list[str]:
    """Names and strings of Python code that name a game, docstrings and comments aside."""
    tree = ast.parse(source)
    docstrings = {
        node.body[0].value.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    kinds = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    word = _word()
    return [
        f"{tok.start[0]}: {tok.string[:60]}"
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type in kinds
        and not (tok.type == tokenize.STRING and tok.start[0] in docstrings)
        and word.search(tok.string)
    ]


def script_names(source: str) -> list[str]:
    """Lines of a script or template that name a game, its comments aside."""
    blank = lambda m: "\n" * m[0].count("\n")  # noqa: E731  (keeps the line numbers)
    source = re.sub(r"/\*.*?\*/|\{#.*?#\}|<!--.*?-->", blank, source, flags=re.S)
    source = re.sub(r"(?m)(^|[^:\\])//.*$", r"\1", source)
    word = _word()
    return [
        f"{n}: {line.strip()[:60]}"
        for n, line in enumerate(source.splitlines(), 1)
        if word.search(line)
    ]


def shared_files() -> list[Path]:
    own_scripts = {p for name in games.with_page() for p in games.game_modules(name)}
    found = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[1] == "games" and len(parts) > 3:
            continue  # a game's own package
        if parts[1] == "bots" and any(path.stem.startswith(n) for n in games.names()):
            continue  # a game's own bot knowledge
        found.append(path)
    found += [p for p in sorted((ROOT / "web/static/js").glob("*.js")) if p not in own_scripts]
    found += sorted((ROOT / "web/templates").glob("*.html"))
    found += [ROOT / "tests/support/games.py"]
    found += [
        p
        for p in sorted((ROOT / "tests").rglob("test_*.py"))
        if "from tests.support import games" in p.read_text("utf-8")
    ]
    return found


def test_the_shared_code_names_no_game() -> None:
    named = {}
    for path in shared_files():
        where = str(path.relative_to(ROOT))
        source = path.read_text("utf-8")
        hits = python_names(source) if path.suffix == ".py" else script_names(source)
        if hits and where not in ALLOWED:
            named[where] = hits
    assert named == {}, "shared code names a game; read it from the registry or a manifest"


def test_each_allowed_file_still_needs_it() -> None:
    needless = [where for where in ALLOWED if not python_names((ROOT / where).read_text("utf-8"))]
    assert needless == [], "an allowed file names no game any more: take it off ALLOWED"


def test_the_walk_sees_code_and_skips_prose() -> None:
    name = games.names()[0]
    code = f'"""About {name}."""\n# {name} here\nGAME = "{name}"\n{name}_x = 1\n'
    assert [hit.split(":")[0] for hit in python_names(code)] == ["3", "4"]
    script = f'// {name}\n/* {name} */\nvar g = "{name}"; // {name}\n<a href="http://x">\n'
    assert [hit.split(":")[0] for hit in script_names(script)] == ["3"]
    walked = {str(p.relative_to(ROOT)) for p in shared_files()}
    assert {"web/static/js/lobby.js", "web/static/js/table.js", "server/api/pages.py"} <= walked
    assert "tests/web/test_log_templates.py" in walked
