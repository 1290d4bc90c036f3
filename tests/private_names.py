"""The table service's privates stay inside ``server/tables/`` (part of ``make lint``).

Other packages use what ``TableService`` and its parts show: methods and public attributes.
A private name of the tables package (an attribute it sets as ``self._x``, a module-level
``_x``) read or set from a module outside it would tie that module to how the service is
built, and hide the call path. ``python -m tests.private_names`` prints each such use and
exits 1 if there is any.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "server"
TABLES = SERVER / "tables"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names(sources: list[str]) -> set[str]:
    """The private names the modules in ``sources`` define: attributes set on ``self`` or
    ``cls``, and module-level functions, classes and variables."""
    found: set[str] = set()
    for source in sources:
        tree = ast.parse(source)
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(statement.name)
            elif isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                found |= {t.id for t in targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found |= {
                    n.name
                    for n in node.body
                    if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                }
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
                and isinstance(node.ctx, ast.Store)
            ):
                found.add(node.attr)
    return {name for name in found if _private(name)}


def reaches_in(module: str, source: str, names: set[str]) -> list[str]:
    """Where ``source`` (the text of ``module``) uses one of ``names`` on an object other than
    its own ``self``/``cls``, or imports one from the tables package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{module}:{node.lineno}: uses {node.attr} of the tables package")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("server.tables"):
            found += [
                f"{module}:{node.lineno}: imports {alias.name} from {node.module}"
                for alias in node.names
                if _private(alias.name)
            ]
    return found


def violations() -> list[str]:
    """Every use of a private name of ``server/tables/`` from a server module outside it."""
    names = private_names([p.read_text(encoding="utf-8") for p in sorted(TABLES.rglob("*.py"))])
    found: list[str] = []
    for path in sorted(SERVER.rglob("*.py")):
        if TABLES in path.parents:
            continue
        module = ".".join(("server", *path.relative_to(SERVER).with_suffix("").parts))
        found += reaches_in(module, path.read_text(encoding="utf-8"), names)
    return found


def main() -> int:
    found = violations()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} use(s) of a private name of server/tables/ from outside it")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
