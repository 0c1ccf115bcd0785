"""`phoenix-companion`: start the touchscreen app, or one of its command-line tools.

Every error a user can cause (a missing file, malformed JSON, a position that breaks a rule)
ends with a one-paragraph message on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from companion import __version__, paths
from companion.jsonfile import JsonFileError, read_json
from companion.rules.catalogue import (
    CatalogueError,
    export_overlay,
    format_summary,
    import_overlay,
    load_catalogue,
    summary,
)
from companion.rules.position import PositionError, parse_position
from companion.rules.scoring import format_sheet, score_game, sheet_as_json

USAGE_ERROR = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `phoenix-companion`."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (JsonFileError, CatalogueError, PositionError) as error:
        print(f"phoenix-companion: {error}", file=sys.stderr)
        return USAGE_ERROR


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phoenix-companion",
        description="Keeps the books of a physical game of Space Station Phoenix. "
        "Without a command, starts the touchscreen app.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--overlay", type=Path, default=None,
                        help="the catalogue overlay file of values entered from a physical copy "
                        f"(default: {paths.overlay_path()})")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (kiosk)")
    parser.add_argument("--demo", action="store_true",
                        help="open with the rulebook's scoring example loaded")
    parser.set_defaults(run=_run_app)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    score = commands.add_parser("score", help="final scoring of an end-of-game position (JSON)")
    score.add_argument("file", type=Path, metavar="FILE.json")
    score.add_argument("--json", action="store_true", help="print the sheet as JSON")
    score.set_defaults(run=_run_score)

    catalogue = commands.add_parser("catalogue", help="the component catalogue and your overlay")
    action = catalogue.add_mutually_exclusive_group(required=True)
    action.add_argument("--summary", action="store_true",
                        help="count fields known from the rulebook, inferred, entered, unknown")
    action.add_argument("--export", type=Path, metavar="FILE",
                        help="write your entered values to FILE (to share with another table)")
    action.add_argument("--import", dest="import_", type=Path, metavar="FILE",
                        help="merge values from FILE into your overlay")
    catalogue.set_defaults(run=_run_catalogue)
    return parser


def _overlay(args: argparse.Namespace) -> Path:
    return args.overlay or paths.overlay_path()


def _run_app(args: argparse.Namespace) -> int:
    from companion.ui.app import run_app  # Kivy is imported only when the app starts.

    run_app(fullscreen=args.fullscreen, demo=args.demo, overlay=_overlay(args))
    return 0


def _run_score(args: argparse.Namespace) -> int:
    catalogue = load_catalogue(overlay=_overlay(args))
    players = parse_position(read_json(args.file), catalogue)
    sheet = score_game(players, catalogue)
    if args.json:
        print(json.dumps(sheet_as_json(sheet), indent=2))
    else:
        print(format_sheet(sheet))
    return 0


def _run_catalogue(args: argparse.Namespace) -> int:
    overlay = _overlay(args)
    if args.summary:
        print(format_summary(summary(load_catalogue(overlay=overlay))))
    elif args.export:
        count = export_overlay(overlay, args.export)
        print(f"exported {count} entered value(s) to {args.export}")
    else:
        count = import_overlay(overlay, args.import_)
        print(f"imported {count} value(s) from {args.import_} into {overlay}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
