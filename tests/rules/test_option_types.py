"""The shapes option_types.py declares are the shapes `options` gives: every answer of
`options(...)`, `options(..., ship=ID)` and `bonus_offer` along the example games (played as a
user plays them: from an empty overlay, the values on their lines), and along a game whose
catalogue lacks values, matches its TypedDict - every key it declares as required is there, no
key it does not declare, every value of the declared type. (mypy checks the readers against the
declarations; this checks the declarations against the engine.)"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from companion.catalogue_files import load_catalogue
from companion.rules import option_types, state
from companion.rules.game import Game
from companion.rules.move import Missing, Refused
from companion.rules.option_types import BonusOffer, ShipOptions, TableOptions
from companion.rules.options import bonus_offer, options
from companion.rules.script import parse
from companion.rules.words import COUNTERS, SUPPLY_COUNTERS

EXAMPLES = Path(__file__).parents[2] / "examples"
GAMES = Path(__file__).parent / "games"


def mismatches(value: Any, hint: Any, path: str = "") -> list[str]:
    """Where `value` is not of type `hint` (a TypedDict, list, dict, tuple, union, literal or
    plain type), as "path: what"; [] when it is."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if origin in (Union, types.UnionType):
        found = [mismatches(value, arg, path) for arg in args]
        return [] if any(not f for f in found) else min(found, key=len)
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a {hint.__name__}"]
        fields = get_type_hints(hint, include_extras=True)
        wrong = [f"{path}.{key}: not a key of {hint.__name__}" for key in value
                 if key not in fields]
        for key, field in fields.items():
            optional = get_origin(field) is NotRequired
            if key not in value:
                wrong += [] if optional else [f"{path}.{key}: missing from {hint.__name__}"]
            else:
                wrong += mismatches(value[key], get_args(field)[0] if optional else field,
                                    f"{path}.{key}")
        return wrong
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        return [w for i, item in enumerate(value) for w in mismatches(item, args[0],
                                                                      f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict"]
        return [w for key, item in value.items()
                for w in mismatches(key, args[0], f"{path} key") + mismatches(
                    item, args[1], f"{path}[{key!r}]")]
    if origin is tuple:
        if not isinstance(value, tuple) or len(value) != len(args):
            return [f"{path}: {value!r} is not a {len(args)}-tuple"]
        return [w for i, (item, arg) in enumerate(zip(value, args))
                for w in mismatches(item, arg, f"{path}[{i}]")]
    if hint is int and isinstance(value, bool):
        return [f"{path}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, hint) else [f"{path}: {value!r} is not {hint.__name__}"]


def test_mismatches_are_found():
    entry = {"ship": "Ann:L1-farm", "owner": None, "design": "L1-farm", "type": "farm",
             "usable": True, "cost": 2, "fee": 0, "reason": None, "missing": []}
    assert mismatches(entry, option_types.ShipEntry) == []
    assert mismatches({**entry, "cots": 2}, option_types.ShipEntry) == [
        ".cots: not a key of ShipEntry"]
    del entry["fee"]
    assert mismatches({**entry, "cost": "2"}, option_types.ShipEntry) == [
        ".cost: '2' is not int", ".fee: missing from ShipEntry"]
    assert mismatches({"command": "new_game"}, option_types.SetupStep)  # the others missing
    assert mismatches({"phase": "play", "turn": {}, "pending": [], "end": {}, "missing": []},
                      TableOptions)  # the turn's keys missing; `ships` may be absent


class Checked:
    """The answers checked so far, by what answered."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.wrong: list[str] = []

    def check(self, what: str, value: Any, hint: Any) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1
        self.wrong += [f"{what}{w}" for w in mismatches(value, hint)][:5]


def play_checking(lines: list, catalogue: Any, checked: Checked) -> None:
    """Play `lines`, checking the answers before each: options(), and for a ship used its
    options(ship=ID) and the offer of each bonus action it fires (as the command stands)."""
    game = Game(catalogue)
    for line in lines:
        found = options(game.state, catalogue)
        checked.check("options", found, TableOptions)
        command = line.command
        if command["cmd"] == "use_ship" and game.state["phase"] == "play":
            ship = options(game.state, catalogue, ship=command["ship"])["ship"]
            checked.check("ship options", ship, ShipOptions)
            for need in ship["abilities"] + [n for s in ship["action"].get("sectors", [])
                                             if s["number"] == command.get("sector")
                                             for n in s["abilities"]]:
                if "bonus" in need:
                    offer = bonus_offer(game.state, catalogue, need["source"], need["kind"],
                                        command)
                    checked.check("bonus offer", offer, BonusOffer | None)
        if command["cmd"] == "income" and game.state["phase"] == "play":
            for need in found["income"]["powers"]:
                if "bonus" in need:
                    offer = bonus_offer(game.state, catalogue, need["source"], need["kind"])
                    checked.check("bonus offer", offer, BonusOffer | None)
        try:
            game.execute(command)
        except (Refused, Missing):
            break  # a game whose catalogue lacks values stops where one is needed
    checked.check("options", options(game.state, catalogue), TableOptions)


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_options_answers_have_the_declared_shapes(script, tmp_path):
    catalogue = load_catalogue(overlay=tmp_path / "none.json")  # the values on the lines
    checked = Checked()
    play_checking(list(parse((EXAMPLES / script).read_text().splitlines())), catalogue,
                  checked)
    assert not checked.wrong, "\n".join(checked.wrong)
    assert checked.counts["options"] > 40 and checked.counts["ship options"] > 10


@pytest.mark.parametrize("script", sorted(p.name for p in GAMES.glob("*.jsonl")))
def test_answers_in_the_test_games_have_the_declared_shapes(script, table_catalogue):
    """The hand-worked games (tests/rules/games), with the test table's values."""
    lines = [line for line in parse(text for text in (GAMES / script).read_text().splitlines()
                                    if '"cmd"' in text)]
    checked = Checked()
    play_checking(lines, table_catalogue, checked)
    assert not checked.wrong, "\n".join(checked.wrong)
    assert checked.counts["options"] > 40 and checked.counts["ship options"] > 10


def test_answers_with_values_the_catalogue_lacks_have_the_declared_shapes(tmp_path):
    """The shipped catalogue, the example's values left out: numbers are None, `missing` lists
    them, until the game stops at the first value it needs."""
    catalogue = load_catalogue(overlay=tmp_path / "none.json")
    lines = list(parse((EXAMPLES / "two-players-first-game.jsonl").read_text().splitlines()))
    for line in lines:
        line.command.pop("catalogue", None)
    checked = Checked()
    play_checking(lines, catalogue, checked)
    assert not checked.wrong, "\n".join(checked.wrong)
    assert checked.counts["options"] > 3


def test_the_state_declares_the_words_counters():
    """in_supply and count read the supply and a player by the words' names: the TypedDicts
    declare those keys."""
    assert list(get_type_hints(state.Supply)) == list(SUPPLY_COUNTERS)
    assert set(COUNTERS) <= set(get_type_hints(state.Player))
    assert state.new_state()["supply"] == dict.fromkeys(SUPPLY_COUNTERS, 0)
