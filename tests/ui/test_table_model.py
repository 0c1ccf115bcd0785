"""The table screen's model (companion/ui/table_model.py) without a window, on the
demo game (the example replayed part-way) through the documented route: GameSession."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ui.session import GameSession
from companion.ui.table_model import (
    amount,
    changed_numbers,
    end_text,
    supply_text,
    table_view,
    undo_text,
)


@pytest.fixture
def demo(tmp_path: Path) -> GameSession:
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    assert session.problem == ""
    yield session
    session.close()


def view(session: GameSession):
    return table_view(session.state, session.options(), session.game.game.steps[-1].events)


def test_the_table_shows_whose_turn_numbers_ships_and_supply(demo: GameSession) -> None:
    assert demo.is_demo
    assert demo.execute({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}) == ""
    table = view(demo)
    assert (table.active, table.active_color) == ("Cat", "yellow")
    assert table.heading == "Turn 9 · Next ends the turn"
    assert table.undo == "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert table.next_allowed and not table.income_allowed
    bob = next(p for p in table.players if p.name == "Bob")
    assert bob.counters == {"gems": 9, "food": 6, "water": 2, "metal": 3, "points": 4}
    assert bob.diplomacy == "Dis 0  Con 0  Tra 1  Exp 3"
    farm = next(s for s in bob.ships if s.ship_id == "Bob:L2-farm")
    assert (farm.label, farm.usable, farm.marker) == ("Farm L2", False, "Bob")
    assert farm.reason == "Cat has already taken an action this turn: end the turn first"
    expedition = next(s for s in table.neutral if s.ship_id == "neutral:expedition")
    assert expedition.label == "Neutral Expedition" and expedition.token == "Ann"
    assert table.supply.startswith("Supply: Humans 20 · teal (T) 18 · pink (P) 15")
    assert table.end == ""


def test_words() -> None:
    assert [amount(1, "gems"), amount(2, "gems"), amount(1, "points"), amount(1, "food")] == \
        ["1 GEM", "2 GEMs", "1 point", "1 food"]
    events = [{"type": "pay", "text": "Bob pays 3 GEMs"}, {"type": "ship_used", "text": "Bob uses"}]
    assert undo_text(events) == "Undo: Bob uses"
    assert undo_text([]) == ""
    assert end_text({"over": False, "triggered_by": "Cat", "final_turns": ["Dan", "Ann"]}) == \
        "End triggered by Cat: final round, 2 more turns after this one"
    assert end_text({"over": False, "triggered_by": "Cat", "final_turns": []},
                    "Cat has 40 points (40 or more)") == \
        "Cat has 40 points (40 or more): final round, this is the last turn"
    assert end_text({"over": True, "triggered_by": "Cat", "final_turns": []}) == \
        "The game is over."
    assert supply_text({"human": 1, "teal": 2, "pink": 3, "brown": 4, "gold": 5}) == \
        "Supply: Humans 1 · teal (T) 2 · pink (P) 3 · brown (B) 4 · gold (G) 5"


def test_the_numbers_that_changed_are_named(demo: GameSession) -> None:
    """Bob's bonus (2 GEMs) changes his GEMs; nothing is lit the first time."""
    before = view(demo)
    assert changed_numbers(None, before) == set()
    assert demo.execute({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}) == ""
    assert changed_numbers(before, view(demo)) == {("Bob", "gems")}
