"""``make bench``: every figure the project measures, printed (never asserted).

Each section lives beside the code it measures and exposes ``bench() -> None``.
"""

from __future__ import annotations

import importlib

SECTIONS = [
    ("engine", "server.commands.selfplay"),
    ("views and patches", "server.realtime.bench"),
    ("bots", "server.bots.bench"),
    ("post-game analysis", "server.analysis.bench"),
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
