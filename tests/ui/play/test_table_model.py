"""The table screen's model (companion/ui/table_model.py) without a window, on the
demo game (the example replayed part-way) through the documented route: GameSession."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.words import amount
from companion.ui.kit.undo_redo_model import redo_text, undo_text
from companion.ui.play.table_model import (
    TILE_HEIGHT,
    TILE_WIDTH,
    changed_numbers,
    end_text,
    ship_grid,
    supply_text,
    table_view,
)
from companion.ui.shell.session import GameSession


@pytest.fixture
def demo(tmp_path: Path) -> GameSession:
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    assert session.problem == ""
    yield session
    session.close()


def view(session: GameSession):
    return table_view(session.state, session.options())


def undo_named(session: GameSession) -> str:
    """What the Undo button says: the step the session would take back, named."""
    return undo_text(session.step_to_undo().events)


def test_the_table_shows_whose_turn_numbers_ships_and_supply(demo: GameSession) -> None:
    assert demo.is_demo
    assert demo.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}).problem == ""
    table = view(demo)
    assert (table.active, table.active_color) == ("Cat", "yellow")
    assert table.heading == "Turn 9 · Next ends the turn"
    assert undo_named(demo) == "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert table.next_allowed and not table.income_allowed
    bob = next(p for p in table.players if p.name == "Bob")
    assert bob.counters == {"gems": 9, "food": 6, "water": 2, "metal": 3, "points": 4}
    assert bob.diplomacy == "Dis 0  Con 0  Tra 1  Exp 3"
    farm = next(s for s in bob.ships if s.ship_id == "Bob:L2-farm")
    assert (farm.label, farm.usable, farm.marker) == ("Farm L2", False, "Bob")
    assert farm.reason == "Cat has already taken an action this turn: end the turn first"
    expedition = next(s for s in table.neutral if s.ship_id == "neutral:expedition")
    assert expedition.label == "Neutral Expedition" and expedition.token == "Ann"
    assert table.supply == "Supply · H 20\nT18 P15 B18 G17"
    assert table.end == ""


def test_words() -> None:
    assert [amount("gems", 1), amount("gems", 2), amount("points", 1), amount("food", 1)] == \
        ["1 GEM", "2 GEMs", "1 point", "1 food"]
    events = [{"type": "pay", "text": "Bob pays 3 GEMs"}, {"type": "ship_used", "text": "Bob uses"}]
    assert undo_text(events) == "Undo: Bob uses"
    assert redo_text(events) == "Redo: Bob uses"
    assert undo_text([]) == "" and redo_text(None) == ""
    assert end_text({"over": False, "triggered_by": "Cat", "final_turns": ["Dan", "Ann"]}) == \
        "End triggered by Cat: final round, 2 more turns after this one"
    assert end_text({"over": False, "triggered_by": "Cat", "final_turns": []},
                    "Cat has 40 points (40 or more)") == \
        "Cat has 40 points (40 or more): final round, this is the last turn"
    assert end_text({"over": True, "triggered_by": "Cat", "final_turns": []}) == \
        "The game is over."
    assert supply_text({"human": 1, "teal": 2, "pink": 3, "brown": 4, "gold": 5}) == \
        "Supply · H 1\nT2 P3 B4 G5"


def test_the_ships_grid_gives_more_columns_not_bigger_tiles() -> None:
    """At 800x480 four players' 10 or 11 ships fit two rows of at least 48 px in the 98 px each
    row has (narrower tiles where needed); a bigger screen gets more columns of the same size."""
    ten, eleven = ship_grid(10, 490, 98), ship_grid(11, 490, 98)
    assert (ten.cols, ten.height) == (5, TILE_HEIGHT) and ten.width >= TILE_WIDTH
    assert eleven.cols == 6 and eleven.width * 6 + 2 * 5 <= 490 and eleven.height == TILE_HEIGHT
    wide = ship_grid(11, 966, 170)
    assert wide.cols == 10 and TILE_WIDTH <= wide.width < 2 * TILE_WIDTH
    assert wide.height <= 56  # taller only up to the target size, never scaled up
    assert ship_grid(5, 490, 98, least_cols=6).cols == 6  # every row as many columns


def test_the_numbers_that_changed_are_named(demo: GameSession) -> None:
    """Bob's bonus (2 GEMs) changes his GEMs; nothing is lit the first time."""
    before = view(demo)
    assert changed_numbers(None, before) == set()
    assert demo.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}).problem == ""
    assert changed_numbers(before, view(demo)) == {("Bob", "gems")}


def test_undo_is_named_by_what_the_player_did(demo: GameSession) -> None:
    """Income is named by the income taken (not its first event, the used ships' GEMs going
    back); the other steps by their first event that is not bookkeeping."""
    def named(command: dict) -> str:
        assert demo.send(command).problem == ""
        return undo_named(demo)

    assert named({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}) == \
        "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert named({"cmd": "end_turn"}) == "Undo: Ann takes the turn"
    assert named({"cmd": "income", "player": "Ann"}) == "Undo: Ann takes income"
    types = [e["type"] for e in demo.game.game.steps[-1].events]
    assert types[0] == "ships_reset" and types[-1] == "income_taken"
    assert named({"cmd": "end_turn"}) == "Undo: Bob takes the turn"
    assert named({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L1-diplomacy",
                  "tracks": ["construction"]}) == \
        "Undo: Bob uses Bob's Diplomacy L1 ship and puts 3 GEMs on it"  # not the GEMs paid
    assert named({"cmd": "adjust", "who": "Cat", "counter": "gems", "delta": 4,
                  "note": "Gem under board"}) == "Undo: Adjusted Cat's gems by +4: Gem under board"


def test_setup_steps_are_named_by_what_was_set_up(tmp_path: Path) -> None:
    from companion.files import read_script
    from companion.rules.script import parse

    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open()
    assert session.new_game() == ""
    names = {}
    script = Path(__file__).resolve().parents[3] / "examples" / "two-players-first-game.jsonl"
    for line in parse(read_script(script)):
        assert session.send(line.command).problem == ""
        names.setdefault(line.command["cmd"], undo_named(session))
        if line.command["cmd"] == "income":
            break
    session.close()
    assert names["new_game"].startswith("Undo: New game for Ann, Bob (first game)")
    assert names["first_game_sets"] == "Undo: Ann takes Station Hub B-1"
    assert names["starting_bonus"] == (
        "Undo: Ann gains 8 GEMs, 2 food, 2 water and 3 metal: starting bonus of Hub B-1")
    assert names["use_ship"].startswith("Undo: Ann uses Ann's ")
    assert names["end_turn"] == "Undo: Bob takes the turn"
    assert names["income"].endswith(" takes income")
