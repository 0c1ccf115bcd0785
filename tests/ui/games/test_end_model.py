"""The end screen's model (companion/ui/end_model.py) without a window: the 2-player example
replayed through GameSession (Ann 42, Bob 62, worked by hand in the example)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from companion import i18n
from companion.files import read_script
from companion.rules.script import parse
from companion.ui.games.end_model import end_sheet
from companion.ui.play.table_model import trigger_condition
from companion.ui.shell.session import GameSession

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "two-players-first-game.jsonl"


def test_the_condition_then_the_sheet_with_the_winner(tmp_path: Path) -> None:
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open()
    assert session.new_game() == ""
    lines = list(parse(read_script(EXAMPLE)))
    for line in lines[:-1]:
        assert session.send(line.command).problem == ""
    steps = session.game.game.steps
    assert trigger_condition(steps) == "Ann has 41 points (40 or more)"
    assert trigger_condition(steps[:10]) == ""
    assert session.send(lines[-1].command).problem == ""
    sheet = end_sheet(session.state, session.game.catalogue)
    assert (sheet.names, sheet.colors, sheet.totals) == (["Ann", "Bob"], ["red", "blue"],
                                                         [42, 62])
    assert sheet.rows[0] == ("Total In-Game Points", [41, 8])
    assert sheet.rows[-1] == ("TOTAL", [42, 62])
    assert sheet.winner == "Bob wins with 62 points" and sheet.tiebreak == ""
    session.close()


def test_the_condition_is_read_from_the_events_data_in_the_language_spoken_now(
        tmp_path: Path, english_after) -> None:
    """The end_triggered event carries its conditions as data: worded now, never taken apart
    from a sentence; an event stored before events carried messages gives none (the table
    names the player instead)."""
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open()
    assert session.new_game() == ""
    for line in list(parse(read_script(EXAMPLE)))[:-1]:
        assert session.send(line.command).problem == ""
    steps = session.game.game.steps
    i18n.set_language("de")
    assert trigger_condition(steps) == "Ann hat 41 Punkte (40 oder mehr)"
    old = SimpleNamespace(events=[{"type": "end_triggered", "ops": [],
                                   "text": "The end of the game is triggered: Ann has 41 points "
                                           "(40 or more). Everyone else gets one more turn."}])
    assert trigger_condition([*steps[:10], old]) == ""
    session.close()
