"""The import-layers check (run by ``make lint``): arrows between the server's layers point one
way only, engine ← games ← bots ← tables ← realtime ← api ← app.

A module may import from its own layer and from layers below it, never from one above, and that
holds for imports inside functions too (a function-level import must not hide a cycle). Modules
outside these layers (store, settings, resources, metrics, logs, commands, load, cli) are not
ranked. ``python -m tests.import_layers`` prints every arrow that points back and exits 1.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

LAYERS = ("engine", "games", "bots", "tables", "realtime", "api", "app")
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


def module_name(path: Path) -> str:
    parts = ("server", *path.relative_to(SERVER).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def violations() -> list[str]:
    """Every back-pointing import in the server package."""
    found: list[str] = []
    for path in sorted(SERVER.rglob("*.py")):
        found += back_arrows(module_name(path), path.read_text(encoding="utf-8"))
    return found


def main() -> int:
    found = violations()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} import(s) point back across the layers {' <- '.join(LAYERS)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
