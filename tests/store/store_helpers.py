"""Helpers for the store's tests: the long game script, its catalogue, reference states.

(Named uniquely rather than conftest.py, so the store tests import it by name.)
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

from companion.catalogue_files import load_catalogue
from companion.cli import main
from companion.rules.catalogue import Catalogue
from companion.rules.game import Game
from companion.rules.script import parse

HERE = Path(__file__).resolve().parent
LONG_GAME = HERE / "long_game.jsonl"
LONG_GAME_OVERLAY = HERE / "long_game_overlay.json"


@functools.cache
def long_commands() -> tuple[dict, ...]:
    """The commands of the long game script (a legal 4-player game to its end)."""
    lines = LONG_GAME.read_text(encoding="utf-8").splitlines()
    return tuple(line.command for line in parse(lines))


def commands() -> list[dict]:
    """A fresh copy of the long game's commands."""
    return copy.deepcopy(list(long_commands()))


@functools.cache
def table_catalogue() -> Catalogue:
    """The catalogue with every unknown value filled with the rules tests' table values."""
    return load_catalogue(overlay=LONG_GAME_OVERLAY)


def overlay_copy(folder: Path) -> Path:
    """A writable copy of the long game's overlay (the store writes learned values there)."""
    target = Path(folder) / "overlay.json"
    shutil.copyfile(LONG_GAME_OVERLAY, target)
    return target


@functools.cache
def reference() -> tuple[tuple[str, int, int], ...]:
    """After each prefix of the long game (index = commands applied): the state as JSON, the
    number of live steps and of undone steps, from an in-memory Game."""
    game = Game(table_catalogue())
    out = [(json.dumps(game.state, sort_keys=True), 0, 0)]
    for command in long_commands():
        game.execute(copy.deepcopy(command))
        out.append((json.dumps(game.state, sort_keys=True), len(game.steps), len(game.undone)))
    return tuple(out)


def reference_game(count: int) -> Game:
    """An in-memory game after the first `count` commands of the long game."""
    game = Game(table_catalogue())
    for command in commands()[:count]:
        game.execute(command)
    return game


def rules_fixtures():
    """tests/rules/tables.py loaded as a module of its own (Table, table_values)."""
    spec = importlib.util.spec_from_file_location(
        "store_tests_rules_fixtures", HERE.parent / "rules" / "tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def digest(path: Path) -> str:
    """A file's SHA-256, to show it untouched."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """phoenix-companion ARGV in this process: its exit code, stdout and stderr (never a
    traceback)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def one_game_db(folder: Path, count: int, **options: object) -> Path:
    """games.sqlite in `folder` holding one game ("Friday") of the first `count` commands."""
    from companion.store import Store

    path = folder / "games.sqlite"
    with Store.open(path, overlay=overlay_copy(folder), **options) as store:
        played = store.new_game("Friday")
        for command in commands()[:count]:
            played.execute(command)
    return path


def script_file(folder: Path, count: int) -> Path:
    """more.jsonl in `folder`: a game script of the first `count` commands."""
    path = folder / "more.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in commands()[:count]) + "\n")
    return path
