"""The 3-player draft example's turns played by touch in the real app under Xvfb
(tests/ui/drive_turns.py): its setup stored into a new game database as `phoenix-companion
replay ... --db` does, with the values the tiles print known from the first line, then every
turn tapped - ships, Income, each panel's answers, the Diplomacy bonuses, Next - to the end of
the game, where the state must be the engine's replay of the example. About a minute (a
failure leaves a screenshot in build/screenshots/ or $PHOENIX_SCREENSHOTS).

The issue's budgets: a turn's median at most 5 taps, none over 12 - an Expedition in 6 to 12
(how many dice show each face, the dice put back of all those rolled kept, the Humans kept on
one panel). Cat building Sector 321 (turn 27), whose bonus roll adds an Expedition's dice to a
Construction, was 13 taps while each face kept was tapped; with the dice put back, 11.
`make bench` (tools/bench_turn_taps.py) prints the taps per turn of all three examples."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from ui_fixtures import EXAMPLES, SHOTS


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_three_player_draft_played_by_touch_ends_where_the_engine_does(
        run_ui_driver, tmp_path: Path, language: str) -> None:
    """The same game in English and in German (the config file's language): the same taps."""
    config = tmp_path / "config.toml"
    config.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    result = run_ui_driver("drive_turns.py", "three-players-draft", shots=SHOTS,
                           args=("--db", str(tmp_path / "games.sqlite"), "--config", str(config)))
    assert result["differences"] == []
    assert result["screen"] == "end"  # the example's last Next ends the game
    turns = result["turns"]
    script = (EXAMPLES / "three-players-draft.jsonl").read_text(encoding="utf-8")
    assert len(turns) == script.count('"cmd": "end_turn"') == 33
    # every tap belongs to a turn: from the ship or Income on the table to Next
    assert sum(turn["taps"] for turn in turns) == result["taps"]
    for turn in turns:
        assert sum(taps for _panel, taps in turn["panels"]) == turn["taps"]
        assert turn["panels"][0] == ["table", 1] and turn["panels"][-1] == ["table", 1]
    # issue 27's budget
    taps = [turn["taps"] for turn in turns]
    assert statistics.median(taps) <= 5
    assert max(t["taps"] for t in turns if t["what"].endswith("expedition")) <= 12
    # none over 12, Sector 321 built with its bonus roll's dice included
    assert [(t["turn"], t["what"], t["taps"]) for t in turns if t["taps"] > 12] == []
