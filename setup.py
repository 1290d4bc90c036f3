"""Only what ``pyproject.toml`` cannot say: the data files a plain ``pip install .`` must carry.

A wheel holds packages plus ``data-files``; the templates, static files, dictionaries, game
data and migrations are copied to ``<prefix>/share/guildhall/`` (``server/resources.py``
looks there when they are not beside the code). The directories are walked so that a file
added under them is installed without editing a list.
"""

from __future__ import annotations

import os

from setuptools import setup

SHARE = os.path.join("share", "guildhall")
TREES = ("web", "seeds", "migrations")
SKIPPED_DIRS = {"__pycache__"}


def data_files() -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = [(SHARE, ["alembic.ini"])]
    for tree in TREES:
        for directory, subdirs, files in os.walk(tree):
            subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_DIRS)
            kept = sorted(os.path.join(directory, f) for f in files if not f.endswith(".pyc"))
            if kept:
                found.append((os.path.join(SHARE, directory), kept))
    return found


setup(data_files=data_files())
