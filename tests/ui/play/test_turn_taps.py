"""The 3-player draft example from Home's New game to the score sheet, by touch alone, in the
real app under Xvfb (tests/ui/drive_turns.py, scenario "three-players-draft-from-new-game"):
the app's data folder knows every value the tiles print (drive_setup.known_values, through the
catalogue's import), the setup is tapped as a table would (drive_setup.set_up_by_touch), then
every turn - ships, Income, each panel's answers, the Diplomacy bonuses, Next - to the end of
the game, where the state must be the engine's replay of the example. In English and in German.
A couple of minutes each (a failure leaves a screenshot in build/screenshots/ or
$PHOENIX_SCREENSHOTS).

The issue's budgets: setup at most 90 taps; a turn's median at most 5 taps, none over 12 (an
Expedition: how many dice show each face, the dice put back of all those rolled kept, the
Humans kept on one panel). Cat building Sector 321 (turn 27), whose bonus roll adds an
Expedition's dice to a Construction, was 13 taps while each face kept was tapped; with the
dice put back, 11. `make bench` (tools/bench_turn_taps.py, tools/bench_taps.py) prints the
taps of all three examples."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest
from ui_fixtures import EXAMPLES, SHOTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from drive_setup import TAP_SCENARIOS, known_values


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_three_player_draft_played_by_touch_ends_where_the_engine_does(
        run_ui_driver, tmp_path: Path, language: str) -> None:
    """The same game in English and in German (the config file's language): the same taps."""
    example, budget, _words = TAP_SCENARIOS["three-player-draft-taps"]
    data = tmp_path / "data"  # the app's data folder: the overlay knows the tiles' values
    assert known_values(example, data / "catalogue-overlay.json") > 0
    config = tmp_path / "config.toml"
    config.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    result = run_ui_driver("drive_turns.py", "three-players-draft-from-new-game", shots=SHOTS,
                           args=("--db", str(tmp_path / "games.sqlite"), "--config", str(config)),
                           extra_env={"PHOENIX_COMPANION_HOME": str(data)})
    assert result["setup_taps"] <= budget
    assert result["differences"] == []
    assert result["screen"] == "end"  # the example's last Next ends the game
    turns = result["turns"]
    script = (EXAMPLES / "three-players-draft.jsonl").read_text(encoding="utf-8")
    assert len(turns) == script.count('"cmd": "end_turn"') == 33
    # every tap belongs to a turn: from the ship or Income on the table to Next
    assert sum(turn["taps"] for turn in turns) == result["taps"] - result["setup_taps"]
    for turn in turns:
        assert sum(taps for _panel, taps in turn["panels"]) == turn["taps"]
        assert turn["panels"][0] == ["table", 1] and turn["panels"][-1] == ["table", 1]
    # issue 27's budget
    taps = [turn["taps"] for turn in turns]
    assert statistics.median(taps) <= 5
    assert max(t["taps"] for t in turns if t["kind"] == "expedition") <= 12
    # none over 12, Sector 321 built with its bonus roll's dice included
    assert [(t["turn"], t["what"], t["taps"]) for t in turns if t["taps"] > 12] == []
