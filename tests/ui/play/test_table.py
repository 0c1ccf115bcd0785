"""The table app in the real app under Xvfb, driven by simulated touches: the demo game, home,
ships, the Diplomacy bonus prompts, income, Next, undo, a kill and a relaunch.

Each test runs one scenario of tests/ui/drive_table.py in its own process. Screenshots go to
build/screenshots/ (or $PHOENIX_SCREENSHOTS).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_fixtures import CAT_TURN, SHOTS, replayed

SCRIPT = "drive_table.py"


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1280x800"])
def test_demo_game_bonus_prompt_then_the_table(run_ui_driver, size: str) -> None:
    """`--demo`: Bob's Diplomacy bonus waits on big buttons; then the table shows whose turn it
    is, every player's numbers and ships, the supply, and an example-values notice."""
    result = run_ui_driver(SCRIPT, "demo-table", size=size, shots=SHOTS, args=("--demo",))
    assert result["window"] == [int(n) for n in size.split("x")]
    prompt = result["prompt"]
    assert prompt["screen"] == "action"
    assert prompt["question"] == "Bob (blue): Transport Diplomacy bonus - choose one"
    assert sorted(prompt["choices"]) == ["1 GEM", "2 GEMs"]
    table = result["table"]
    assert table["active"] == "Cat"
    assert table["heading"] == "Turn 9 · Next ends the turn"
    assert table["undo"] == "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert table["players"]["Bob"] == {"counters": "9 GEMs  6 food  2 water  3 metal",
                                       "points": "4 points",
                                       "diplomacy": "Dis 0  Con 0  Tra 1  Exp 3"}
    assert table["players"]["Ann"]["points"] == "14 points"
    lines = result["counter_lines"]  # every counter on one line in its slot
    assert len(lines) == 12
    assert {tag: (n, words) for tag, (n, words, _shown) in lines.items()} == \
        {tag: (1, " ".join(shown.split())) for tag, (_n, _words, shown) in lines.items()}
    assert "ship:Cat:L2-farm" in table["ships"] and "ship:neutral:diplomacy" in table["ships"]
    assert table["supply"] == "Supply · H 20\nT18 P15 B18 G17"
    assert "EXAMPLE values" in table["demo"]
    assert (SHOTS / f"table-{size}.png").stat().st_size > 10_000


def test_a_ship_that_cannot_be_used_says_why(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "unusable-ship", shots=SHOTS, args=("--demo",))
    assert result["message"] == "using Ann's Diplomacy L1 ship costs 2 GEMs; Ann has 1 GEM"
    assert result["screen"] == "table"


def test_income_diplomacy_ship_next_and_undo_three_steps(run_ui_driver) -> None:
    """Ann takes income, Bob lobbies on the Dismantle track; undo takes back three steps."""
    result = run_ui_driver(SCRIPT, "diplomacy-ship-and-undo", shots=SHOTS, args=("--demo",))
    before, after, undone = result["before"], result["after"], result["after_undo"]
    assert before["active"] == "Bob" and before["players"]["Ann"]["counters"].startswith("13 GEMs")
    assert result["question"] == "Bob uses Diplomacy L3: lobby on which track (up to 2)?"
    assert "Dismantle: level 0 -> 1, 1 GEM" in result["tracks"]
    assert after["players"]["Bob"]["diplomacy"] == "Dis 1  Con 0  Tra 1  Exp 3"
    assert after["players"]["Bob"]["counters"].startswith("3 GEMs")
    assert after["heading"] == "Turn 11 · Next ends the turn"
    assert result["undone"][0] == ("Undo: Bob uses Bob's Diplomacy L3 ship and puts 4 GEMs "
                                  "on it")
    assert result["undone"][1] == "Undo: Bob takes the turn"
    assert result["undone"][2] == "Undo: Ann takes income"
    assert undone["active"] == "Ann" and undone["heading"] == "Turn 10 · choose a ship or Income"
    assert undone["players"]["Ann"]["counters"].startswith("1 GEM ")


def test_home_resumes_the_unfinished_game(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "home-resume", shots=SHOTS, args=("--demo",))
    assert result["resume"].startswith("Resume: ") and "Ann, Bob, Cat · playing" in result["resume"]
    assert any("Demo (example values)" in text for text in result["games"])
    assert result["table"]["active"] == "Cat" and result["table"]["screen"] == "table"


def test_another_game_opens_with_no_message_from_the_last(run_ui_driver, tmp_path: Path) -> None:
    """A refusal shown on one game's table is not shown on the next game's (issue 27)."""
    db = tmp_path / "games.sqlite"
    for _game in range(2):
        replayed(db, "three-players-draft.jsonl", CAT_TURN)
    result = run_ui_driver(SCRIPT, "no-stale-message", args=("--db", str(db)))
    assert result["refused"].startswith("Cat has not taken an action or income yet")
    assert result["second_game"] != result["first_game"]
    assert result["table"]["screen"] == "table" and result["message"] == ""


def test_a_kill_mid_game_and_a_relaunch_come_back_to_the_same_screen_and_state(
        run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    env = {"PHOENIX_COMPANION_HOME": str(tmp_path / "data")}
    killed = run_ui_driver(SCRIPT, "play-then-kill", args=("--demo", "--db", str(db)),
                           extra_env=env)
    again = run_ui_driver(SCRIPT, "relaunched", args=("--db", str(db)), extra_env=env)
    assert again["table"]["screen"] == killed["table"]["screen"] == "table"
    assert again["table"]["active"] == "Bob"
    assert again["table"] == killed["table"]
    assert again["state"] == killed["state"]


def test_fullscreen_fills_the_display_without_a_window_manager(run_ui_driver) -> None:
    result = run_ui_driver(SCRIPT, "fullscreen", args=("--fullscreen",))
    assert result["window"] == [1920, 1200]  # tools/xvfb_display.py's SCREEN
