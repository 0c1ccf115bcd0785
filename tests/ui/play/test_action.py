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
    """Each value a ship or a Sector prints is asked as soon as it is chosen, so the preview
    shows it (Ann's fee, Sector 101's price); the Sectors that can be built first, the rest
    behind More… (a dim one says why); Back one step from the preview; Bob's Transport: what
    kind first, then a trade's gain and payment, a running list with remove, Back closing a
    group; Ann's Dismantle ship; Cat cannot pay for Bob's Transport: the Aliens say why."""
    result = run_ui_driver(SCRIPT, "construction-dismantle-transport", shots=SHOTS,
                           args=("--demo",))
    assert "needs its Level-1 Sector" in result["refused_tile"]
    assert result["sectors"]["question"] == "Bob uses Ann's Construction L2: which Sector?"
    assert result["sectors"]["buttons"]["sector:101"] == "Sector 101 · teal · Level 1"
    assert len(result["sectors"]["buttons"]) <= 8 and result["sectors_in_view"]
    assert result["asked"][:3] == [
        "What is the cost to use (GEMs) of the Construction L2 ship?",
        "What is the owner's fee (GEMs) of the Construction L2 ship?",
        "How much metal does Sector 101 cost?"]  # before the preview, each when needed
    assert result["construction"]["lines"].splitlines() == [
        "Bob puts 2 GEMs on Ann's Construction L2", "Bob pays Ann the owner's fee: 2 GEMs",
        "builds Sector 101 (teal wing, Level 1) for 1 metal (2 - 1)"]
    assert result["dismantle"]["lines"].endswith("dismantles Transport L1: 7 metal")
    assert "What is the owner's fee (GEMs) of the Dismantle L2 ship?" in result["asked"]
    after = result["after_dismantle"]
    assert after["undo"] == "Undo: Bob uses Ann's Dismantle L2 ship and puts 3 GEMs on it"
    assert after["players"]["Ann"]["counters"].startswith("15 GEMs")  # 13 + the fee typed: 2
    kinds = result["transport_removed"]["buttons"]
    assert sorted(kinds) == ["action:done", "alien:brown:None", "alien:gold:None",
                             "alien:pink:None", "alien:teal:None", "group:buy", "group:trade"]
    assert result["transport_in_view"]
    assert len(result["transport_pay"]["buttons"]) == 7  # 6 pairs to pay with, Done
    assert result["transport_pay"]["buttons"]["trade:metal+metal:food"] == \
        "pay metal and metal for 1 food"
    assert sorted(result["transport_buy"]["buttons"]) == ["action:done", "buy:food",
                                                          "buy:metal", "buy:water"]
    transport = result["transport"]
    assert transport["question"] == "Bob uses Transport L1: transactions (1 of 2)"
    assert transport["lines"] == "trades metal and metal for 1 water"
    assert result["transport_preview"]["lines"].splitlines()[:2] == [
        "Bob puts 2 GEMs on Transport L1", "trades metal and metal for 1 water"]
    assert result["refused"] == "using Bob's Transport L2 ship costs 5 GEMs; Cat has 1 GEM"
    for kind in ("construction", "dismantle", "transport", "transport-pay",
                 "transport-refused", "preview"):
        assert (SHOTS / f"action-{kind}-800x480.png").stat().st_size > 10_000


def test_expedition_then_a_neutral_ship_and_the_bonus_prompts(run_ui_driver):
    """Seven dice entered by count, a row per face (every face but the last tapped, it is the
    rest and the seven are read: no "These 7 dice" to tap; a count that makes more says why),
    all seven kept at first (each face's count rolled lit; Keep these dim in the bar: it says
    how many to put back), four put back to keep three, Keep these, the Human observed
    without asking (Recruit is refused: no quarter free), Bob's Expedition bonus; Cat
    dismantles with the neutral ship, each value asked as soon as the ship or the target
    needing it is chosen; nothing the flow needs below the fold."""
    result = run_ui_driver(SCRIPT, "expedition-and-neutral", shots=SHOTS, args=("--demo",))
    assert result["dice"]["question"] == "Bob uses Terran Expedition L3: Roll 7 · keep 5"
    dice = result["dice"]
    assert dice["lines"] == ("Tap how many dice show each face (the last face left is the "
                             "rest): 3 of 7 entered.")
    # a row per face, 0 to the 7 dice rolled: one tap per face
    for face in ("food", "water", "metal", "human"):
        assert [dice["buttons"][f"die:{face}:{n}"] for n in range(8)] == [
            str(n) for n in range(8)]
    assert result["counts_high"] >= 48  # a finger's size at 800x480
    assert result["too_many"] == "7 dice rolled: 3 already show other faces"
    kept = result["kept"]
    # the Humans were not tapped: the rest; one line, what a tap does named
    assert kept["lines"] == ("Rolled: food ×2, water ×1, metal ×1, human ×3 (the rest) · tap "
                             "what is put back")
    assert result["kept_lines_laid"] == 1
    # a row per face rolled, 0 to what it rolled; every die kept at first
    assert [t for t in kept["buttons"] if t.startswith("keep:")] == [
        "keep:food:0", "keep:food:1", "keep:food:2", "keep:water:0", "keep:water:1",
        "keep:metal:0", "keep:metal:1", "keep:human:0", "keep:human:1", "keep:human:2",
        "keep:human:3"]
    assert result["kept_lit"] == ["keep:food:2", "keep:water:1", "keep:metal:1",
                                  "keep:human:3"]
    # 7 kept of a capacity of 5: Keep these dim, a tap on it says why
    assert kept["buttons"]["action:kept"] == "Keep these"
    assert result["keep_these_dim"] is True
    assert result["over_capacity"] == "put back 2 dice: keep at most 5 (the capacity)"
    # the water, two Humans and the metal put back (6, 4, 3 kept: past the capacity, not on
    # it): the three kept lit, Keep these to tap
    assert result["put_back"] == {
        "lit": ["keep:food:2", "keep:water:0", "keep:metal:0", "keep:human:1"],
        "keep_these_dim": False}
    assert result["kept_panel_at_top"] and result["needed_in_view"]
    assert result["expedition"]["lines"].splitlines()[1:3] == [
        "gains 2 food", "Human 1: Observe: 1 point"]
    assert "?" not in result["expedition"]["lines"]
    assert result["prompts"][0]["question"] == \
        "Bob (blue): Expedition Diplomacy bonus - choose one"
    bob = result["after_expedition"]["players"]["Bob"]
    assert (bob["counters"], bob["points"]) == ("5 GEMs  8 food  2 water  3 metal", "5 points")
    assert result["neutral_targets"]["question"] == \
        "Cat uses the neutral Dismantle: which ship is dismantled?"
    assert result["asked"][0] == "What is the cost to use (GEMs) of the neutral Dismantle ship?"
    assert result["neutral"]["lines"].splitlines() == [
        "Cat puts 2 GEMs on the neutral Dismantle", "dismantles Farm L2: 4 metal"]
    table = result["table"]
    assert table["undo"] == ("Undo: Cat uses the neutral Dismantle ship and puts 2 GEMs on "
                             "it")
    assert table["players"]["Cat"]["counters"] == "-1 GEMs  0 food  0 water  12 metal"
    for kind in ("expedition", "expedition-kept", "neutral", "refused"):
        assert (SHOTS / f"action-{kind}-800x480.png").stat().st_size > 10_000
