"""The "Done when" proof: a whole 3-player first game kept by touch alone in the real app under
Xvfb (tests/ui/drive_game.py), from home through the setup wizard, turns with different ships,
income, Diplomacy prompts for two players, a correction by long press, to the score sheet, whose
totals are the engine's; and kills on the end screen and mid-setup, each relaunched onto the same
screen and state."""

from __future__ import annotations

import os
from pathlib import Path

from companion.rules.report import final_score
from companion.store import Store
from companion.ui.play.action import primary
from companion.ui.play.flows.choices import Button, Panel

SCRIPT = "drive_game.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[2] / "build" / "screenshots")


def test_a_whole_three_player_game_by_touch_to_the_score_sheet(run_ui_driver,
                                                               tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    env = {"PHOENIX_COMPANION_HOME": str(tmp_path / "data")}
    game = run_ui_driver(SCRIPT, "whole-game", shots=SHOTS, args=("--db", str(db)),
                         extra_env=env)
    assert game["start"][-1] == "Ann begins."
    assert game["after_farm"]["players"]["Ann"]["counters"] == "6 GEMs  6 food  2 water  3 metal"
    assert game["after_farm"]["players"]["Björn"]["counters"].startswith("10 GEMs")  # his fee
    assert "What is the owner's fee (GEMs) of the Farm L2 ship?" in game["asked"]
    assert game["income"] == "Hub B-1: 1 GEM x 8 ships = 8 GEMs"
    assert game["prompts"] == ["Björn (red): Dismantle Diplomacy bonus - choose one",
                               "Cäcilie (yellow): Dismantle Diplomacy bonus - choose one"]
    players = game["after_bonuses"]["players"]
    assert players["Björn"]["diplomacy"] == players["Cäcilie"]["diplomacy"] == \
        "Dis 2  Con 0  Tra 0  Exp 0"
    assert players["Ann"]["counters"] == "14 GEMs  6 food  2 water  9 metal"
    assert game["lit"] == ["gems"]  # Björn's bonus, lit for a moment
    assert game["station"] == "Ann's station (blue) · Hub B-1"
    assert game["note_title"] == "Why Ann's points: 0 -> 40?"
    assert game["final_round"] == ("Ann has 40 points (40 or more): final round, "
                                   "1 more turn after this one")
    sheet = game["sheet"]
    assert game["screen"] == "end" and sheet["winner"] == "Ann wins with 43 points"
    with Store.open(db, overlay=tmp_path / "data" / "catalogue-overlay.json") as store:
        played = store.open_game(store.games()[0].id)
        engine = final_score(played.state, played.catalogue)
    assert played.state == game["state"]
    assert sheet["totals"] == {p.name: str(p.total) for p in engine.players}
    assert engine.winners == ("Ann",)
    again = run_ui_driver(SCRIPT, "relaunched", args=("--db", str(db)), extra_env=env)
    assert again["screen"] == "end"
    assert again["sheet"] == sheet and again["state"] == game["state"]
    assert (SHOTS / "game-end-800x480.png").stat().st_size > 10_000


def test_a_kill_mid_setup_comes_back_at_the_same_step(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    env = {"PHOENIX_COMPANION_HOME": str(tmp_path / "data")}
    killed = run_ui_driver(SCRIPT, "setup-then-kill", args=("--db", str(db)), extra_env=env)
    again = run_ui_driver(SCRIPT, "relaunched", args=("--db", str(db)), extra_env=env)
    assert killed["title"] == "First game: which set does Ann take?"
    assert (again["screen"], again["title"]) == ("setup", killed["title"])
    assert again["state"] == killed["state"]


def test_the_panels_confirm_presses_the_primary_button() -> None:
    back = Button("action:back", "Back", ("back",))
    assert primary(Panel("?", [Button("action:confirm", "Confirm", ("confirm",)), back])).tag \
        == "action:confirm"
    only = Button("bonus:1", "2 GEMs", ("bonus", [1]))
    assert primary(Panel("?", [Button("bonus:0", "1 GEM", ("bonus", [0]), False), only])) \
        is only
    assert primary(Panel("?", [only, Button("bonus:0", "1 GEM", ("bonus", [0]))])) is None
    assert primary(Panel("?", [Button("action:override", "Override…", ("override",)),
                               back])) is None
