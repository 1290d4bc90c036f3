"""``guildhall serve`` with the counter game registered: the app processes of a load run.

``python -m server.devtools.load.serve serve --host H --port P`` takes the arguments of
``guildhall``; the benchmark-only counter game is registered in that process only, so it
never reaches a real server or its lobby.
"""

from __future__ import annotations

import sys

from server.cli import main
from server.devtools.load import counter

__all__ = ["counter"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
