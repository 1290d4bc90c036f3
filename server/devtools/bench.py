"""``make bench``: every figure the project measures, printed (never asserted).

Each section is a module of the developer tools (``server.devtools``) that exposes
``bench() -> None``.
"""

from __future__ import annotations

import importlib

SECTIONS = [
    ("engine", "server.devtools.commands.selfplay"),
    ("views and patches", "server.devtools.views_bench"),
    ("bots", "server.devtools.bots.bench"),
    ("post-game analysis", "server.devtools.analysis.bench"),
]


def main() -> None:
    for title, module_name in SECTIONS:
        print(f"== {title} ==", flush=True)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            print(f"(no benchmark: {module_name} is missing)")
            continue
        module.bench()


if __name__ == "__main__":
    main()
