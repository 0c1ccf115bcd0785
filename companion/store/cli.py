"""The store's sub-commands of `phoenix-companion`: show, games, export, import, replay --db.

companion/cli.py registers them with `add_commands(subparsers)` and sends `replay --db` to
`replay_into_db`. Every error a user can cause prints one message and returns exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from companion import paths
from companion.config import load_config
from companion.files import JsonFileError, read_json, read_script, write_text_atomically
from companion.i18n import _
from companion.rules.catalogue import CatalogueError
from companion.rules.game import Missing, Refused
from companion.rules.report import final_score, format_report, summary
from companion.rules.scoring import format_sheet
from companion.rules.script import ScriptError, missing_hint, parse
from companion.rules.words import word
from companion.store.db import (
    Store,
    default_db_path,
    refuse_link,
    set_aside,
    sidecar_warning,
)
from companion.store.errors import DamagedDatabase, StoreError, UnusableDatabase
from companion.store.export import export_text, import_record
from companion.text import MAX_NAME, printable

USAGE_ERROR = 2
USER_ERRORS = (StoreError, ScriptError, JsonFileError, CatalogueError)
DAMAGE = (sqlite3.DatabaseError, UnicodeDecodeError)
"""What SQLite raises reading a damaged page (its message may itself not be UTF-8)."""


def _fail(error: Exception) -> int:
    hint = (_(" (`phoenix-companion games --db PATH --start-fresh` does that)")
            if isinstance(error, UnusableDatabase) else "")
    print(f"phoenix-companion: {error}{hint}", file=sys.stderr)
    return USAGE_ERROR


def start_fresh(path: Path) -> None:
    """Keep an unusable database aside and create a fresh one; a usable one is left alone.
    A symbolic link is refused before anything is opened (nothing is renamed or locked in the
    folder it points into)."""
    refuse_link(path)
    try:
        Store.open(path).close()
    except UnusableDatabase as error:
        kept = set_aside(path)
        Store.open(path, create=True).close()
        print(_("{problem}: kept it as {kept} and started a fresh database at {path}").format(
            problem=error.problem, kept=kept, path=path))


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except USER_ERRORS as error:
            return _fail(error)
        except DAMAGE as error:  # damage the checks on opening cannot see
            return _fail(_damaged(args.db, error))
    return guarded


def _damaged(path: Path | None, error: Exception) -> DamagedDatabase:
    return DamagedDatabase(path or default_db_path(),
                           _("the database is damaged ({error})").format(error=error))


def database_argument(text: str) -> Path:
    """The --db argument: a path, not empty (argparse reports the error, exit code 2)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("give the path of a game database file (it is "
                                           "empty)"))
    return Path(text)


def _db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=database_argument, default=None, metavar="PATH",
                        help=_("the game database (default: {path})").format(
                            path=default_db_path()))


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `show`, `games`, `export` and `import` on phoenix-companion's sub-parsers."""
    show = subparsers.add_parser("show", help=_("the state of a stored game"))
    _db_argument(show)
    show.add_argument("--game", type=int, default=None, metavar="ID",
                      help=_("which game (default: the last unfinished one, else the last "
                             "played)"))
    show.add_argument("--json", action="store_true", help=_("print the state as JSON"))
    show.set_defaults(run=_guarded(run_show))

    games = subparsers.add_parser("games", help=_("the games in the database"))
    _db_argument(games)
    games.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    games.add_argument("--start-fresh", action="store_true",
                       help=_("if the database cannot be used, keep it aside (renamed with a "
                              "timestamp) and start a fresh one in its place"))
    games.set_defaults(run=_guarded(run_games))

    export = subparsers.add_parser("export", help=_("a game record, CSV score sheet or BG Stats "
                                                    "play file"))
    _db_argument(export)
    export.add_argument("--game", type=int, required=True, metavar="ID")
    export.add_argument("--format", choices=("record", "csv", "bgstats"), default="record")
    export.add_argument("--output", "-o", type=Path, default=None, metavar="FILE",
                        help=_("write to FILE (default: print)"))
    export.set_defaults(run=_guarded(run_export))

    imported = subparsers.add_parser("import", help=_("add a game from a game record file"))
    imported.add_argument("file", type=Path, metavar="FILE")
    _db_argument(imported)
    imported.add_argument("--no-digest", action="store_true",
                          help=_("import a record that has no digest (it cannot be checked "
                                 "for changes made after export)"))
    imported.set_defaults(run=_guarded(run_import))


def _reader(args: argparse.Namespace) -> Store:
    overlay = paths.overlay_path(getattr(args, "overlay", None))
    return Store.open(args.db, overlay=overlay, write=False)


def run_show(args: argparse.Namespace) -> int:
    """`show`: the summary of a stored game (as `replay` prints it)."""
    with _reader(args) as store:
        game_id = args.game
        if game_id is None:
            game_id = store.last_unfinished()
            if game_id is None:
                listed = store.games()
                if not listed:
                    raise StoreError(_("{path}: no games yet").format(path=store.path))
                game_id = listed[0].id
        played = store.open_game(game_id)
        report = summary(played.state, played.catalogue)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print(_("Game {id}: {name}").format(id=played.id, name=played.name))
            print(format_report(report))
            if "score" in report:
                print()
                print(format_sheet(final_score(played.state, played.catalogue)))
    return 0


def run_games(args: argparse.Namespace) -> int:
    """`games`: one line per game (id, name, players, date, status, scores)."""
    if args.start_fresh:
        start_fresh(args.db or default_db_path())
    with _reader(args) as store:
        listed = store.games()
        warning = sidecar_warning(store.path)
    if warning:
        print(_("phoenix-companion: warning: {warning}").format(warning=warning),
              file=sys.stderr)
    if args.json:
        print(json.dumps([g.as_json() for g in listed], indent=2))
        return 0
    if not listed:
        print(_("no games yet"))
    for info in listed:
        status = _("finished") if info.finished else word(info.phase)
        scores = ", ".join(f"{n} {s}" for n, s in info.scores.items()) or _("no players yet")
        print(f"{info.id:>4}  {info.updated[:16].replace('T', ' ')}  {status:<8}  {info.name}: "
              f"{scores}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """`export`: print or write a game record, CSV score sheet or BG Stats play."""
    settings = load_config(getattr(args, "config", None))
    for problem in settings.problems:
        print(_("phoenix-companion: warning: {warning}").format(warning=problem),
              file=sys.stderr)
    with _reader(args) as store:
        text = export_text(store, args.game, args.format, settings.bgstats.bgg_id)
    if args.output:
        try:
            write_text_atomically(args.output, text, linked_folder=False)
        except OSError as error:
            raise StoreError(_("{file}: cannot write it ({error})").format(
                file=args.output, error=error.strerror)) from None
        print(_("exported game {id} ({format}) to {file}").format(id=args.game,
                                                                  format=args.format,
                                                                  file=args.output))
    else:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace) -> int:
    """`import`: replay a game record into the database as a new game."""
    record = read_json(args.file)
    with Store.open(args.db, overlay=paths.overlay_path(getattr(args, "overlay", None))) as store:
        game_id = import_record(store, record, source=str(args.file),
                                require_digest=not args.no_digest)
        info = store.game_info(game_id)
    if args.no_digest and "digest" not in record:
        text = _("imported {file} as game {id} ({name}, {steps} steps, {phase}) without a digest "
                 "check (--no-digest: it may have been changed after export)")
    else:
        text = _("imported {file} as game {id} ({name}, {steps} steps, {phase})")
    print(text.format(file=args.file, id=game_id, name=info.name, steps=info.steps,
                      phase=word(info.phase)))
    return 0


def replay_into_db(path_to_script: Path, db_path: Path | None, overlay_path: Path | None) -> int:
    """`replay FILE.jsonl --db PATH`: apply a game script as a new stored game, committing each
    command durably and printing a line per committed command; the exit code."""
    try:
        try:
            script = list(parse(read_script(path_to_script)))
        except ScriptError as error:
            raise JsonFileError(f"{path_to_script}: {error}") from None
        with Store.open(db_path, overlay=overlay_path) as store:
            played = store.new_game(printable(Path(path_to_script).stem)[:MAX_NAME] or "Game")
            for count, line in enumerate(script, start=1):
                try:
                    played.execute(line.command)
                except Missing as missing:
                    raise ScriptError(line.number, missing_hint(missing)) from None
                except Refused as refused:
                    raise ScriptError(line.number, refused.reason) from None
                print(_("committed {count}: line {line} {command} (game {id})").format(
                    count=count, line=line.number, command=line.command["cmd"], id=played.id),
                    flush=True)
                for warning in played.warnings:
                    print(_("warning: {warning}").format(warning=warning), file=sys.stderr)
                played.warnings.clear()
            print(_("game {id} ({name}): {count} commands stored in {path}; phase {phase}").format(
                id=played.id, name=played.name, count=len(script), path=store.path,
                phase=word(played.state["phase"])))
    except ScriptError as error:
        return _fail(JsonFileError(_("{file}: {error} (the commands before it are "
                                     "stored)").format(file=path_to_script, error=error)))
    except USER_ERRORS as error:
        return _fail(error)
    except DAMAGE as error:
        return _fail(_damaged(db_path, error))
    return 0
