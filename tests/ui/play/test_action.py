"""The action screen in the real app under Xvfb, driven by simulated touches on the demo game:
Construction with another player's ship (fee, values asked on the keypad), Transport with a
running list, an Expedition's dice, a neutral ship and the Diplomacy bonus prompts; the table
read afterwards. Screenshots go to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SCRIPT = "drive_action.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


def test_construction_dismantle_and_transport_with_other_players_ships(run_ui_driver):
    """Sector tiles (a dim one says why), the preview with Ann's fee, Back; Ann's Dismantle ship
    (its fee asked on the keypad); Cat's Transport with Bob's ship: a running list with remove,
    refused for want of GEMs, overridden with a reason; Bob's Diplomacy bonus."""
    result = run_ui_driver(SCRIPT, "construction-dismantle-transport", shots=SHOTS,
                           args=("--demo",))
    assert "needs its Level-1 Sector" in result["refused_tile"]
    assert result["sectors"]["question"] == "Bob uses Ann's Construction L2: which Sector?"
    assert result["sectors"]["buttons"]["sector:101"].startswith("Sector 101 · teal · Level 1")
    assert "Bob pays Ann the owner's fee" in result["construction"]["lines"]
    assert result["dismantle"]["lines"].endswith("dismantles Transport L1: 7 metal")
    assert result["asked"] == ["What is the owner's fee (GEMs) of the Dismantle L2 ship?",
                               "What is the owner's fee (GEMs) of the Transport L2 ship?"]
    after = result["after_dismantle"]
    assert after["undo"] == "Undo: Bob uses Ann's Dismantle L2 ship and puts 3 GEMs on it"
    assert after["players"]["Bob"]["counters"] == "3 GEMs  6 food  2 water  10 metal"
    assert after["players"]["Ann"]["counters"].startswith("15 GEMs")  # 13 + the fee typed: 2
    transport = result["transport"]
    assert transport["question"] == "Cat uses Bob's Transport L2: transactions (1 of 5)"
    assert transport["lines"] == "trades metal and metal for 1 water"
    assert "Cat pays Bob the owner's fee" in result["transport_preview"]["lines"]
    [refused] = result["refused"]
    assert refused["lines"] == "“using Bob's Transport L2 ship costs 3 GEMs; Cat has 1 GEM”"
    assert result["prompts"][0]["question"] == \
        "Bob (blue): Transport Diplomacy bonus - choose one"
    table = result["table"]
    assert table["players"]["Cat"]["counters"] == "-4 GEMs  0 food  1 water  6 metal"
    for kind in ("construction", "dismantle", "transport", "refused", "preview"):
        assert (SHOTS / f"action-{kind}-800x480.png").stat().st_size > 10_000


def test_expedition_then_a_neutral_ship_and_the_bonus_prompts(run_ui_driver):
    """Seven dice tapped in, four kept, Recruit dim with the engine's reason, a Human observed,
    Bob's Expedition bonus; Cat dismantles with the neutral ship (values on the keypad)."""
    result = run_ui_driver(SCRIPT, "expedition-and-neutral", shots=SHOTS, args=("--demo",))
    assert result["dice"]["question"] == "Bob uses Terran Expedition L3: Roll 7 · keep 5"
    assert result["dice"]["buttons"]["die:human"] == "human: 3"
    assert result["kept"]["buttons"]["keep:food"] == "keep food: 2 of 2"
    assert result["kept_panel_at_top"]  # "These 7 dice" was scrolled to; the next panel is not
    assert "no living quarters free for a Human" in result["recruit"]
    assert result["expedition"]["lines"].splitlines()[1:3] == [
        "gains 2 food and 1 metal", "Human 1: Observe: 1 point"]
    assert result["prompts"][0]["question"] == \
        "Bob (blue): Expedition Diplomacy bonus - choose one"
    bob = result["after_expedition"]["players"]["Bob"]
    assert (bob["counters"], bob["points"]) == ("5 GEMs  8 food  2 water  4 metal", "5 points")
    assert result["neutral_targets"]["question"] == \
        "Cat uses the neutral Dismantle: which ship is dismantled?"
    assert result["asked"][0] == "What is the cost to use (GEMs) of the neutral Dismantle ship?"
    table = result["table"]
    assert table["undo"] == ("Undo: Cat uses the neutral Dismantle ship and puts 2 GEMs on "
                             "it")
    assert table["players"]["Cat"]["counters"] == "-1 GEMs  0 food  0 water  12 metal"
    for kind in ("expedition", "expedition-human", "neutral"):
        assert (SHOTS / f"action-{kind}-800x480.png").stat().st_size > 10_000
