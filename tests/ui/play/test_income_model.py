"""The income screen's model (companion/ui/income_model.py) without a window, on the demo game
through the documented route: GameSession, then flows.income_flow."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.ui.play.action_model import BonusModel
from companion.ui.play.flows.income import income_flow
from companion.ui.play.income_model import dry_run, power_cards, relocations
from companion.ui.shell.session import GameSession


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[GameSession]:
    """The demo game at Bob's turn 11 (Ann has taken income)."""
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    for command in ({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]},
                    {"cmd": "end_turn"}, {"cmd": "income", "player": "Ann"}, {"cmd": "end_turn"}):
        assert session.send(command).problem == ""
    yield session
    session.close()


def test_an_optional_power_is_a_card_with_the_tracks(demo: GameSession) -> None:
    flow = income_flow(demo.state, demo.game.catalogue)
    [card] = power_cards(flow)
    assert (card.source, card.optional, card.kind) == ("A-7", True, "pick")
    assert "Construct: level 0 -> 1, 1 GEM" in [c.label for c in card.choices]
    flow.abilities.use("A-7")
    assert BonusModel(flow.abilities, "A-7").answer("construction") == ""
    preview = dry_run(demo.state, demo.game.catalogue, flow.command())
    assert "Bob pays 1 GEM: lobbying for Construct level 1" in preview
    assert demo.state["players"][1]["diplomacy"]["construction"] == 0  # only a dry run


def test_relocations_list_each_resident_and_show_its_place_before_and_after(
        demo: GameSession) -> None:
    assert demo.send({"cmd": "income", "player": "Bob"}).problem == ""
    assert demo.send({"cmd": "end_turn"}).problem == ""
    flow = income_flow(demo.state, demo.game.catalogue)
    moves = relocations(flow)
    assert moves[0].label == "pink (P) in Sector 121 quarter 1 -> Sector 121: 1 GEM"
    flow.relocate(moves[0].source, moves[0].slot, moves[0].to)
    preview = dry_run(demo.state, demo.game.catalogue, flow.command())
    assert "Cat pays 1 GEM: relocating a resident" in preview
    assert preview[-1] == "Sector 121: P P -> P P"


def test_a_refused_income_is_previewed_as_the_rule_it_breaks(demo: GameSession) -> None:
    assert demo.send({"cmd": "income", "player": "Bob"}).problem == ""
    assert dry_run(demo.state, demo.game.catalogue, {"cmd": "income", "player": "Bob"}) == [
        "Refused: Bob has already taken an action this turn: end the turn first"]
