"""The station view's model (companion/ui/station_model.py) without a window, on the demo game
through GameSession: residents, which count now, and letters readable on every species."""

from __future__ import annotations

from pathlib import Path

from companion.ui.kit.colors import contrast, letter_color
from companion.ui.kit.widgets import PANEL, SPECIES_RGBA
from companion.ui.play.station_model import station_view, supply_counters
from companion.ui.shell.session import GameSession


def test_residents_placed_this_turn_count_from_the_next(tmp_path: Path) -> None:
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    cat = station_view(session.state, session.game.catalogue, "Cat")
    assert (cat.hub, cat.color) == ("Hub A-4", "yellow")
    [sector] = cat.wings["pink"]
    assert (sector.number, sector.level) == (121, 1)
    assert [(d.letter, d.active) for d in sector.quarters] == [("P", False), ("P", False)]
    assert ("gems", 1, "1 GEM") in cat.counters
    for command in ({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]},
                    {"cmd": "end_turn"}):
        assert session.send(command).problem == ""
    cat = station_view(session.state, session.game.catalogue, "Cat")
    assert [d.active for d in cat.wings["pink"][0].quarters] == [True, True]
    assert supply_counters(session.state)[0] == ("human", 20, "Humans 20")
    session.close()


def test_every_letter_reads_on_its_dot_and_brown_on_brown() -> None:
    for fill in (*SPECIES_RGBA.values(), PANEL):
        assert contrast(letter_color(fill), fill) >= 4.5, fill
    brown = SPECIES_RGBA["brown"]
    assert contrast((1, 1, 1), (0, 0, 0)) == 21
    assert letter_color(brown) == (1.0, 1.0, 1.0)
