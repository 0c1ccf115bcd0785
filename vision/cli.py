"""`phoenix-dice`: the dice reader's command line.

Its commands (`read`, `watch`, `teach`, `bench`) arrive with the camera dice reader; until then
the command says so plainly instead of pretending.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion import __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `phoenix-dice`."""
    parser = argparse.ArgumentParser(
        prog="phoenix-dice",
        description="Reads Terran Expedition dice from camera frames or image files.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.parse_args(argv)
    print("phoenix-dice: no dice commands are available in this version yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
