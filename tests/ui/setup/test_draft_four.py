"""A 4-player draft with advanced Hubs, set up by touch in the real app under Xvfb
(tests/ui/drive_draft_four.py): from home's New game on an empty data folder, through every step
of the setup wizard, to the table. Screenshots go to build/screenshots/ (or
$PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
NAMES = ["Ann", "Jörg Süßbär", "Cäcilie", "Dan"]
L1 = ["L1-construction", "L1-diplomacy", "L1-dismantle", "L1-expedition", "L1-transport"]
# the Hub's card the engine's first question opens: its starting values, by field (A-12's
# Diplomacy spaces are printed in the rulebook: not asked)
ASKED = ["starting_food", "starting_gems", "starting_metal", "starting_water"]


def test_a_four_player_draft_with_advanced_hubs_by_touch(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    result = run_ui_driver("drive_draft_four.py", "four-player-draft", shots=SHOTS,
                           args=("--db", str(db)),
                           extra_env={"PHOENIX_COMPANION_HOME": str(tmp_path / "data")})
    # names: typed on a USB keyboard, and Jörg Süßbär on the setup's on-screen keyboard
    assert result["keyboard_title"] == "Player 2's name"
    assert result["keyboard_display"] == "Jörg Süßbär_"
    assert result["names"] == NAMES
    # what the table lays out for 4 players: "4p: 24" Humans, "4p: 90" Aliens, 4 per stack
    assert result["lay_out"] == ["Put 24 Humans on Terra.",
                                 "Draw 90 Aliens from the bag; count them by colour.",
                                 "Shuffle the nine Sector stacks: 4 of each go on display."]
    assert result["counted"] == "Aliens counted: 90 of 90"
    assert result["display_title"] == "Level-1 brown stack: tap the 4 Sectors on display"
    assert result["deal_titles"] == [f"Deal 2 Hubs to each player: {name} gets?"
                                     for name in NAMES for _ in (1, 2)]
    # the rulebook's draft: Level 3 in turn order then reverse; Level 2 reverse then in order
    snake = NAMES + NAMES[::-1]
    assert result["draft_3"] == snake
    assert result["draft_2"] == NAMES[::-1] + NAMES
    assert result["order_3"] == "Snake order: " + ", ".join(snake)
    # the ships revealed as cards, in a player's words, in the order revealed
    assert result["offered_3"] == ["Terran Expedition L3"] * 2 + ["Dismantle L3"] * 2 + [
        "Construction L3"] * 2 + ["Diplomacy L3", "Ice Collector L3", "Terran Expedition L3"]
    assert result["offered_2"] == ["Transport L2"] * 2 + ["Farm L2"] * 2 + [
        "Dismantle L2"] * 2 + ["Construction L2"] * 2 + ["Terran Expedition L2"]
    assert result["hub_titles"] == [["Ann keeps which Hub?", "A-12", "B-1"],
                                    ["Jörg Süßbär keeps which Hub?", "A-5", "B-3"],
                                    ["Cäcilie keeps which Hub?", "A-6", "B-5"],
                                    ["Dan keeps which Hub?", "A-8", "B-7"]]
    assert result["values_title"] == "Hub A-12"  # the first card
    # the starting bonuses: every kind of question, then the values the tiles print
    bonuses = result["bonuses"]
    two_spaces = "2 Diplomacy spaces - two on one track or one on each of two"
    tracks = ["Construct", "Dismantle", "Expedition", "Transport"]
    ann = bonuses["Ann"]
    assert ann["questions"] == [f"Hub A-12: {two_spaces} (1 of 2)",
                                f"Hub A-12: {two_spaces} (2 of 2)"]
    assert ann["choices"] == [tracks, tracks]
    assert ann["confirm"] == "Ann takes the starting bonuses of Hub A-12"
    assert ann["lines"] == ["Diplomacy: Construct, Expedition"]  # P1: no turn-order GEMs
    assert ann["asked"] == [["Hub A-12", *ASKED]]  # one card, not a question per value
    jorg = bonuses["Jörg Süßbär"]
    assert jorg["questions"][2] == "Hub A-5: discard which Level-2 ship?"
    assert jorg["choices"][2] == ["Construction L2", "Dismantle L2"]
    assert jorg["lines"] == ["Diplomacy: Dismantle, Dismantle", "Discarded: Dismantle L2",
                             "Turn order: Jörg Süßbär takes 1 GEM(s)"]
    cacilie = bonuses["Cäcilie"]
    # A-6's nine, "one of each color at each level": a tap per stack, from those not on display
    assert len(cacilie["questions"]) == 9
    assert cacilie["questions"][0] == \
        "Hub A-6: the Sectors set aside - which Level-1 teal one? (1 of 9)"
    assert cacilie["questions"][8] == \
        "Hub A-6: the Sectors set aside - which Level-3 pink one? (9 of 9)"
    assert cacilie["choices"][0] == ["105", "106", "107", "108"]  # 101-104 on display
    assert cacilie["lines"] == ["Sectors set aside: 105, 115, 125, 205, 215, 225, 305, 315, "
                                "325", "Turn order: Cäcilie takes 2 GEM(s)"]
    assert cacilie["asked"] == [["Hub A-6", "starting_diplomacy", *ASKED]]
    dan = bonuses["Dan"]
    assert dan["questions"] == ["Hub A-8: draw 2 Level-2 ships; which 1 are kept?"]
    assert dan["lines"] == ["Ships kept: Farm L2", "Turn order: Dan takes 3 GEM(s)"]
    # the last step, then the table
    assert result["start"] == [
        "Ann (red): Hub A-12, 8 GEMs, 2 food, 2 water, 3 metal",
        "Jörg Süßbär (blue): Hub A-5, 9 GEMs, 2 food, 2 water, 3 metal",
        "Cäcilie (yellow): Hub A-6, 10 GEMs, 2 food, 2 water, 3 metal",
        "Dan (green): Hub A-8, 11 GEMs, 2 food, 2 water, 3 metal",
        "Ann begins."]
    table = result["table"]
    assert table["screen"] == "table" and table["active"] == "Ann"
    assert table["heading"] == "Turn 1 · choose a ship or Income"
    assert sorted(table["players"]) == sorted(NAMES)
    players = table["players"]
    for name, gems in zip(NAMES, (8, 9, 10, 11)):  # "P2: 1 / P3: 2 / P4: 3"
        assert players[name]["counters"] == f"{gems} GEMs  2 food  2 water  3 metal"
        assert players[name]["points"] == "0 points"
    assert players["Ann"]["diplomacy"] == "Dis 0  Con 1  Tra 0  Exp 1"
    assert players["Jörg Süßbär"]["diplomacy"] == "Dis 2  Con 0  Tra 0  Exp 0"
    assert players["Dan"]["diplomacy"] == players["Cäcilie"]["diplomacy"] == \
        "Dis 0  Con 0  Tra 0  Exp 0"
    assert table["supply"] == "Supply · H 24\nT23 P22 B23 G22"
    ships = result["ships"]
    assert ships["Ann"] == sorted([*L1, "L2-construction", "L2-expedition", "L3-expedition",
                                        "L3-ice_collector"])
    # A-5 discards the Level-1 Diplomacy ship (the only one) and the Level-2 chosen
    assert ships["Jörg Süßbär"] == sorted([s for s in L1 if s != "L1-diplomacy"]
                                          + ["L2-construction", "L3-construction",
                                             "L3-dismantle"])
    assert ships["Cäcilie"] == sorted([*L1, "L2-dismantle", "L2-farm", "L3-construction",
                                            "L3-dismantle"])
    assert ships["Dan"] == sorted([*L1, "L2-farm", "L2-farm#2", "L2-transport",
                                        "L3-diplomacy", "L3-expedition"])  # one kept
    state = result["state"]
    assert state["phase"] == "play"
    assert {name: p["hub"] for name, p in state["players"].items()} == {
        "Ann": "A-12", "Jörg Süßbär": "A-5", "Cäcilie": "A-6", "Dan": "A-8"}
    assert state["players"]["Cäcilie"]["private_sectors"] == [105, 115, 125, 205, 215, 225,
                                                              305, 315, 325]
    for kind in ("setup-draft-players", "setup-name-keyboard", "setup-draft-four",
                 "setup-bonuses-four", "table-draft"):
        assert (SHOTS / f"{kind}-800x480.png").stat().st_size > 10_000
