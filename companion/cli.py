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

from companion import __version__, i18n, paths
from companion import config as app_config
from companion.catalogue_files import (
    export_overlay,
    import_overlay,
    load_catalogue,
    set_user_value,
)
from companion.files import JsonFileError, load_json, read_json, read_script
from companion.i18n import _
from companion.rules.catalogue import CatalogueError, format_summary
from companion.rules.catalogue import summary as catalogue_summary
from companion.rules.game import Game, Step, remembered
from companion.rules.position import PositionError
from companion.rules.report import final_score, format_report, score_position, summary
from companion.rules.scoring import format_sheet, sheet_as_json
from companion.rules.script import ScriptError, ScriptLine, replay
from companion.store.cli import add_commands as add_store_commands
from companion.store.cli import database_argument, replay_into_db
from companion.text import os_error, safe_output

USAGE_ERROR = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `phoenix-companion`."""
    i18n.from_environment()  # the app itself speaks the language of its config file
    with safe_output():
        args = _parser().parse_args(argv)
        try:
            code = args.run(args)
            sys.stdout.flush()
        except (JsonFileError, CatalogueError, PositionError) as error:
            print(f"phoenix-companion: {error}", file=sys.stderr)
            return USAGE_ERROR
        except OSError as error:
            return os_error("phoenix-companion", error)
        return code


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phoenix-companion",
        description=_("Keeps the books of a physical game of Space Station Phoenix. Without a "
                      "command, starts the touchscreen app."),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--overlay", type=Path, default=None,
                        help=_("the catalogue overlay file of values entered from a physical "
                               "copy (default: {path})").format(path=paths.overlay_path()))
    parser.add_argument("--fullscreen", action="store_true", help=_("fill the screen"))
    parser.add_argument("--kiosk", action="store_true",
                        help=_("the Raspberry Pi kiosk without a desktop (as the systemd unit "
                               "starts it): full screen, no cursor, touches read from the "
                               "touchscreen itself ([display] touch and rotation in the config "
                               "file)"))
    parser.add_argument("--size", type=_window_size, default=None, metavar="WxH",
                        help=_("the window's size, e.g. 1024x600 (for testing; default "
                               "800x480)"))
    parser.add_argument("--db", dest="app_db", type=database_argument, default=None,
                        metavar="PATH", help=_("the game database (default: the one in the "
                                               "user's data folder)"))
    parser.add_argument("--demo", action="store_true",
                        help=_("open an example game part-way through (example values; in a "
                               "temporary database unless --db is given)"))
    parser.add_argument("--calculator", action="store_true",
                        help=_("open the final-score calculator"))
    parser.add_argument("--config", type=Path, default=None, metavar="PATH",
                        help=_("the app's config file (default: {path})").format(
                            path=paths.config_file()))
    parser.set_defaults(run=_run_app)
    commands = parser.add_subparsers(title=_("commands"), metavar="COMMAND")

    score = commands.add_parser("score",
                                help=_("final scoring of an end-of-game position (JSON)"))
    score.add_argument("file", type=Path, metavar="FILE.json")
    score.add_argument("--json", action="store_true", help=_("print the sheet as JSON"))
    score.set_defaults(run=_run_score)

    replay = commands.add_parser("replay", help=_("apply a game script (one command per line) "
                                                  "and print the final state"))
    replay.add_argument("file", type=Path, metavar="FILE.jsonl")
    replay.add_argument("--json", action="store_true", help=_("print the state as JSON"))
    replay.add_argument("--db", type=database_argument, default=None, metavar="PATH",
                        help=_("commit each command durably into this game database"))
    replay.set_defaults(run=_run_replay)

    panel_test = commands.add_parser(
        "panel-test", help=_("print button-panel events as they arrive and cycle its LEDs "
                             "(to check the wiring)"))
    panel_test.add_argument("--config", type=Path, default=argparse.SUPPRESS, metavar="PATH",
                            help=_("the app's config file"))
    panel_test.add_argument("--seconds", type=float, default=None, metavar="N",
                            help=_("stop after N seconds (default: until Ctrl+C)"))
    panel_test.set_defaults(run=_run_panel_test)

    catalogue = commands.add_parser("catalogue",
                                    help=_("the component catalogue and your overlay"))
    action = catalogue.add_mutually_exclusive_group(required=True)
    action.add_argument("--summary", action="store_true",
                        help=_("count fields known from the rulebook, inferred, entered, "
                               "unknown"))
    action.add_argument("--export", type=Path, metavar="FILE",
                        help=_("write your entered values to FILE (to share with another "
                               "table)"))
    action.add_argument("--import", dest="import_", type=Path, metavar="FILE",
                        help=_("merge values from FILE into your overlay"))
    action.add_argument("--set", metavar="KIND/RECORD/FIELD=VALUE",
                        help=_("enter one value read off your copy, e.g. "
                               "sectors/214/color=pink or sectors/214/cost=8 (VALUE is JSON or "
                               "a plain word)"))
    action.add_argument("--unset", metavar="KIND/RECORD/FIELD",
                        help=_("remove an entered value again (the shipped one applies)"))
    catalogue.set_defaults(run=_run_catalogue)
    add_store_commands(commands)
    return parser


def _run_app(args: argparse.Namespace) -> int:
    from companion.ui.shell.start import run_app  # Kivy is imported only when the app starts.

    run_app(fullscreen=args.fullscreen, size=args.size, kiosk=args.kiosk, demo=args.demo,
            start="calculator" if args.calculator else None, db=args.app_db,
            overlay=paths.overlay_path(args.overlay), config=args.config)
    return 0


def _window_size(text: str) -> tuple[int, int]:
    """The --size argument: WIDTHxHEIGHT in pixels (the config file's rule)."""
    try:
        return app_config.parse_window_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _run_score(args: argparse.Namespace) -> int:
    catalogue = load_catalogue(overlay=paths.overlay_path(args.overlay))
    sheet = score_position(read_json(args.file), catalogue)
    if args.json:
        print(json.dumps(sheet_as_json(sheet), indent=2))
    else:
        print(format_sheet(sheet))
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    overlay = paths.overlay_path(args.overlay)
    if args.db is not None:
        return replay_into_db(args.file, args.db, overlay)
    catalogue = load_catalogue(overlay=overlay)
    lines = read_script(args.file)

    game = Game(catalogue)

    def remember(line: ScriptLine, step: Step | None) -> None:
        for key, value in remembered(game.state, step.learned if step else {}).items():
            kind, record, field = key.split("/", 2)
            set_user_value(overlay, kind, record, field, value)

    try:
        replay(lines, catalogue, game, on_step=remember)
    except ScriptError as error:
        if args.json:  # where the script stands: the state just before the refused line
            print(json.dumps(summary(game.state, catalogue), indent=2))
        raise JsonFileError(f"{args.file}: {error}") from None
    report = summary(game.state, catalogue)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    if not args.json and "score" in report:
        print()
        print(format_sheet(final_score(game.state, catalogue)))
    return 0


def _run_panel_test(args: argparse.Namespace) -> int:
    from hardware import panel_test  # gpiozero / pyserial only for this command

    loaded = app_config.load_config(args.config)  # problems are logged; defaults are used
    return panel_test.run(loaded.panel, duration=args.seconds)


def _run_catalogue(args: argparse.Namespace) -> int:
    overlay = paths.overlay_path(args.overlay)
    if args.summary:
        print(format_summary(catalogue_summary(load_catalogue(overlay=overlay))))
    elif args.set is not None or args.unset is not None:
        key, value = _catalogue_entry(args.set) if args.set is not None else (args.unset, None)
        kind, record, field = _catalogue_key(key)
        set_user_value(overlay, kind, record, field, value)
        print(_("{key} = {value} entered in {file}").format(key=key, value=json.dumps(value),
                                                            file=overlay)
              if value is not None else
              _("{key} removed from {file}").format(key=key, file=overlay))
    elif args.export:
        count = export_overlay(overlay, args.export)
        print(_("exported {count} entered value(s) to {file}").format(count=count,
                                                                      file=args.export))
    else:
        count = import_overlay(overlay, args.import_)
        print(_("imported {count} value(s) from {source} into {file}").format(
            count=count, source=args.import_, file=overlay))
    return 0


def _catalogue_entry(text: str) -> tuple[str, object]:
    """"sectors/214/color=pink" -> ("sectors/214/color", "pink"); VALUE as JSON when it is."""
    key, equals, raw = text.partition("=")
    if not equals or not raw.strip():
        raise CatalogueError(_("--set {text}: expected KIND/RECORD/FIELD=VALUE (e.g. "
                               "sectors/214/color=pink)").format(text=repr(text)))
    raw = raw.strip()
    value: object = raw  # a plain word
    if raw[:1] in '[{"-0123456789' or raw in ("true", "false", "null"):
        try:
            value = load_json(raw)
        except JsonFileError as error:
            raise CatalogueError(f"--set {key.strip()}: {error}") from None
    if value is None:
        raise CatalogueError(_("--set {text}: give a value (--unset {key} removes an "
                               "entry)").format(text=repr(text), key=key))
    return key.strip(), value


def _catalogue_key(key: str) -> tuple[str, str, str]:
    parts = key.split("/")
    if len(parts) != 3 or not all(p.strip() for p in parts):
        raise CatalogueError(_("{key}: expected KIND/RECORD/FIELD (e.g. "
                               "sectors/214/color)").format(key=repr(key)))
    kind, record, field = (p.strip() for p in parts)
    return kind, record, field


if __name__ == "__main__":
    sys.exit(main())
