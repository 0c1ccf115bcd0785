"""Write the command tables of docs/game-scripts.md from companion/rules/commands.py.

    .venv/bin/python tools/command_docs.py           # rewrite the tables
    .venv/bin/python tools/command_docs.py --check   # exit 1 if they differ
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.rules.commands import update_doc

DOC = Path(__file__).resolve().parent.parent / "docs" / "game-scripts.md"


def main(argv: list[str]) -> int:
    """Rewrite (or with --check, compare) the generated tables; the exit code."""
    text = DOC.read_text(encoding="utf-8")
    updated = update_doc(text)
    if "--check" in argv:
        if updated != text:
            print(f"{DOC}: the command tables are out of date; run tools/command_docs.py")
            return 1
        return 0
    DOC.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
