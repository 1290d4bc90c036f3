"""The import-layers check (run by ``make lint``): every top-level package and module of
``server/`` has a layer, and arrows between layers point one way only, down.

From the bottom up (``LAYERS``; names on one line share a layer):

    resources, jsontext, metrics, settings   the foundation: nothing of the server
    engine, logs, serving
    games, store
    bots
    analysis, clocks                         clocks: the pure clock model
    tables
    chat
    realtime, notify, timekeeping            timekeeping: the keeper acting on due clocks
    api
    app
    commands
    cli
    devtools                                 benchmarks, tournaments, the load test

A module may import from its own package and from packages in lower layers, never from one in
its own layer or above, and that holds for imports inside functions (and under
``TYPE_CHECKING``) too. So no two packages import each other. A top-level package or module
that has no layer fails the check: a new one is placed on purpose, not left outside.

``devtools`` is on top so that nothing of the server imports it: it is left out of the wheel
and the image, and a runtime module importing it would fail there. ``cli`` hands a developer
tool's command line over to it by module name, only when one is asked for.

No import inside a function may hide a cycle, in any server module: if the module a function
imports already imports, at module level and through any chain of modules, the module the
function is in, the two import each other, and the function-level import only hides that.
``python -m tests.import_layers`` prints every arrow that points back or sideways, every
unranked name and every hidden cycle, and exits 1 if there is any.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

LAYERS: tuple[tuple[str, ...], ...] = (
    ("resources", "jsontext", "metrics", "settings"),
    ("engine", "logs", "serving"),
    ("games", "store"),
    ("bots",),
    ("analysis", "clocks"),
    ("tables",),
    ("chat",),
    ("realtime", "notify", "timekeeping"),
    ("api",),
    ("app",),
    ("commands",),
    ("cli",),
    ("devtools",),
)
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}
SERVER = Path(__file__).resolve().parents[1] / "server"


def layer_of(module: str) -> str | None:
    """The top-level package of a dotted module name (``server.tables.service`` → ``tables``),
    if it is ranked."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in RANK else None


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The dotted name ``node`` imports from, its dots resolved against ``module``."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    # In a package's ``__init__``, ``.`` is the package itself; elsewhere its parent.
    if not is_package:
        package = package[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def back_arrows(module: str, source: str, is_package: bool = False) -> list[str]:
    """Imports in ``source`` (the text of ``module``) that point to another package of the
    same layer or to a higher layer."""
    mine = layer_of(module)
    if mine is None:
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node, is_package)
            # ``from server import metrics`` imports ``server.metrics``.
            targets = [f"{base}.{a.name}" for a in node.names] if base == "server" else [base]
        else:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is None or theirs == mine:
                continue
            if RANK[theirs] > RANK[mine]:
                found.append(f"{module}:{node.lineno}: {mine} imports {target} ({theirs}, above)")
            elif RANK[theirs] == RANK[mine]:
                found.append(
                    f"{module}:{node.lineno}: {mine} imports {target} ({theirs}, its own layer)"
                )
    return found


def unranked(names: set[str]) -> list[str]:
    """The top-level packages and modules of ``server/`` among ``names`` that have no layer."""
    return [
        f"server/{name} has no layer: add it to LAYERS in tests/import_layers.py, above every"
        " package it imports and below every one that imports it"
        for name in sorted(names - set(RANK))
    ]


def top_level_names(server: Path = SERVER) -> set[str]:
    """The packages (folders with an ``__init__.py``) and modules directly in ``server``."""
    packages = {p.parent.name for p in server.glob("*/__init__.py")}
    modules = {p.stem for p in server.glob("*.py") if p.name != "__init__.py"}
    return packages | modules


def _imported(
    module: str, node: ast.Import | ast.ImportFrom, known: set[str], packages: set[str]
) -> list[str]:
    """The server modules ``node`` (in ``module``) imports; ``from p import m`` names ``p.m``
    when that is a module, else ``p``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    base = _absolute(module, node, module in packages)
    found = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
    if len(found) < len(node.names) and base in known:
        found.append(base)
    return found


def _import_nodes(
    tree: ast.AST,
) -> tuple[list[ast.Import | ast.ImportFrom], list[ast.Import | ast.ImportFrom]]:
    """The imports at module level (incl. inside ``if``/``try``) and those inside functions."""
    top: list[ast.Import | ast.ImportFrom] = []
    inner: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                (inner if in_function else top).append(child)
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or function)

    visit(tree, False)
    return top, inner


def hidden_cycles(sources: dict[str, str], packages: set[str] | None = None) -> list[str]:
    """Function-level imports in ``sources`` (module name → text; ``packages``: the names
    that are packages) whose target imports the importing module back, at module level,
    directly or through other modules."""
    known, packages = set(sources), packages or set()
    trees = {name: ast.parse(text) for name, text in sources.items()}
    graph: dict[str, set[str]] = {}
    inner: dict[str, list[tuple[int, str]]] = {}
    for name, tree in trees.items():
        top, local = _import_nodes(tree)
        graph[name] = {t for node in top for t in _imported(name, node, known, packages)} - {name}
        inner[name] = [
            (node.lineno, t) for node in local for t in _imported(name, node, known, packages)
        ]
    found = []
    for name, imports in inner.items():
        for lineno, target in imports:
            if target != name and name in _reachable(graph, target):
                found.append(
                    f"{name}:{lineno}: the function-level import of {target} hides a cycle"
                )
    return found


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def module_name(path: Path) -> str:
    parts = ("server", *path.relative_to(SERVER).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def violations() -> list[str]:
    """Every unranked top-level name, every import pointing up or sideways, and every
    function-level import hiding a cycle, in the server package."""
    paths = sorted(SERVER.rglob("*.py"))
    sources = {module_name(path): path.read_text(encoding="utf-8") for path in paths}
    packages = {module_name(path) for path in paths if path.name == "__init__.py"}
    found = unranked(top_level_names())
    for module, source in sources.items():
        found += back_arrows(module, source, module in packages)
    return found + hidden_cycles(sources, packages)


def main() -> int:
    found = violations()
    for line in found:
        print(line)
    if found:
        print(
            f"{len(found)} problem(s): a name with no layer, an import pointing up or sideways"
            f" across the layers {' < '.join('/'.join(names) for names in LAYERS)},"
            " or a cycle hidden inside a function"
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
