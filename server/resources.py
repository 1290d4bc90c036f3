"""Where the files beside the code live: ``web/``, ``seeds/``, ``migrations/``, ``alembic.ini``.

In a checkout (``make serve``, an editable install, the Docker image) they sit next to the
``server`` package. A plain ``pip install .`` copies them into ``<prefix>/share/guildhall``
(the ``data-files`` of ``pyproject.toml``), because a wheel can only carry packages and data
files; the installed code then finds them there. Standard library only, so every layer,
the engines included, may import it.
"""

from __future__ import annotations

import sys
from pathlib import Path

MARKER = "alembic.ini"


def _find_root() -> Path:
    checkout = Path(__file__).resolve().parents[1]
    installed = Path(sys.prefix) / "share" / "guildhall"
    for candidate in (checkout, installed):
        if (candidate / MARKER).is_file():
            return candidate
    raise RuntimeError(
        f"Guildhall's data files ({MARKER}, migrations/, seeds/, web/) are neither in "
        f"{checkout} nor in {installed}: reinstall the package"
    )


ROOT = _find_root()
