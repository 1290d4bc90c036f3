"""The import-layers check (run by ``make lint``): arrows between the server's layers point one
way only, engine ← games ← bots ← tables ← chat ← realtime ← api ← app.

A module may import from its own layer and from layers below it, never from one above, and that
holds for imports inside functions too. Modules outside these layers (store, settings, resources,
metrics, logs, commands, load, cli) are not ranked.

No import inside a function may hide a cycle, in any server module, ranked or not: if the module a
function imports already imports, at module level and through any chain of modules, the module the
function is in, the two import each other, and the function-level import only hides that.
``python -m tests.import_layers`` prints every arrow that points back and every hidden cycle, and
exits 1 if there is any.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

LAYERS = ("engine", "games", "bots", "analysis", "tables", "chat", "realtime", "api", "app")
RANK = {name: i for i, name in enumerate(LAYERS)}
SERVER = Path(__file__).resolve().parents[1] / "server"


def layer_of(module: str) -> str | None:
    """The layer of a dotted module name (``server.tables.service`` → ``tables``), if any."""
    parts = module.split(".")
    if parts[0] != "server" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in RANK else None


def back_arrows(module: str, source: str) -> list[str]:
    """Imports in ``source`` (the text of ``module``) that point to a higher layer."""
    mine = layer_of(module)
    if mine is None:
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            targets = [node.module]
        else:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is not None and RANK[theirs] > RANK[mine]:
                found.append(f"{module}:{node.lineno}: {mine} imports {target} ({theirs})")
    return found


def _imported(
    module: str, node: ast.Import | ast.ImportFrom, known: set[str], packages: set[str]
) -> list[str]:
    """The server modules ``node`` (in ``module``) imports; ``from p import m`` names ``p.m``
    when that is a module, else ``p``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if node.level:
        package = module.split(".")
        # In a package's ``__init__``, ``.`` is the package itself; elsewhere its parent.
        if module not in packages:
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([node.module] if node.module else []))
    else:
        base = node.module or ""
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
    """Every back-pointing import, and every function-level import hiding a cycle, in the
    server package."""
    paths = sorted(SERVER.rglob("*.py"))
    sources = {module_name(path): path.read_text(encoding="utf-8") for path in paths}
    packages = {module_name(path) for path in paths if path.name == "__init__.py"}
    found: list[str] = []
    for module, source in sources.items():
        found += back_arrows(module, source)
    return found + hidden_cycles(sources, packages)


def main() -> int:
    found = violations()
    for line in found:
        print(line)
    if found:
        print(
            f"{len(found)} import(s) point back across the layers {' <- '.join(LAYERS)}"
            " or hide a cycle inside a function"
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
