"""An Expedition with a Human recruited, by touch, in the real app under Xvfb
(tests/ui/drive_recruit_expedition.py): the 3-player draft example replayed into a game database
as `phoenix-companion replay ... --db` does, up to Cat's turn 30; the dice entered by count, the
kept dice by count, one Human recruited (to one of two Sectors with room), one observed, the
Diplomacy bonus prompts answered; the table and Cat's station read afterwards. Screenshots go to
build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import CAT_TURN, SHOTS, replayed


def test_an_expedition_recruits_a_human_to_the_sector_chosen(run_ui_driver,
                                                             tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", CAT_TURN)
    result = run_ui_driver("drive_recruit_expedition.py", "recruit", shots=SHOTS,
                           args=("--db", str(db)))
    before = result["before"]
    assert before["active"] == "Cat"
    cat = before["players"]["Cat"]
    assert (cat["counters"], cat["points"]) == ("10 GEMs  6 food  2 water  2 metal", "0 points")
    # the rulebook's Level-1 Expedition ship: "costs 3 GEMs, rolls 6 and keeps 4"
    assert result["dice"]["question"] == "Cat uses Terran Expedition L1: Roll 6 · keep 4"
    # read before the metal's count is tapped: then the Humans are the rest, nothing more to tap
    assert result["dice"]["lines"] == ("Tap how many dice show each face (the last face left "
                                       "is the rest): 3 of 6 entered.")
    assert result["kept"]["lines"] == ("Rolled: food ×2, water ×1, metal ×1, human ×2 (the "
                                       "rest) · tap what is put back")
    # read as it opens: all 6 kept (over the capacity, 4: Keep these dim); a food and the
    # water put back make 4 from above: they are kept, nothing more to tap
    assert [t for t in result["kept"]["buttons"] if t.startswith("keep:")] == [
        "keep:food:0", "keep:food:1", "keep:food:2", "keep:water:0", "keep:water:1",
        "keep:metal:0", "keep:metal:1", "keep:human:0", "keep:human:1", "keep:human:2"]
    assert result["kept_lit"] == ["keep:food:2", "keep:water:1", "keep:metal:1",
                                  "keep:human:2"]
    assert result["keep_these_dim"] is True
    # both Humans on one panel, one tap: how many are recruited, the rest observed; one
    # recruited goes to either Sector with a free living quarter (its button says which)
    humans = result["humans"]
    assert humans["question"] == ("Cat uses Terran Expedition L1: the Humans kept (2) - "
                                  "observe or recruit?")
    assert humans["buttons"] == {
        "humans:0": "Observe all 2: 2 points",
        "humans:1:221": "Recruit 1 to Sector 221, observe 1",
        "humans:1:321": "Recruit 1 to Sector 321, observe 1",
        "humans:2": "Recruit all 2: 1 metal, 1 food and 1 water each"}
    # each die kept is one item ("faces: 2 food, 2 water, 1 metal, 1 Human"); Sector 321's
    # ability (an example value of that game) adds 1 food and 1 water to an Expedition
    assert result["preview"]["lines"].splitlines() == [
        "Cat puts 3 GEMs on Terran Expedition L1",
        "gains 1 food and 1 metal",
        "Human 1: Recruit: 1 metal, 1 food and 1 water to Sector 221",
        "Human 2: Observe: 1 point",
        "Sector 321: When using an Expedition ship, gain 1 food and 1 water.",
        "Diplomacy bonus for Bob: 1 GEM or 2 GEMs or 1 point or level 3 (asked when chosen) "
        "(their choice)"]
    assert result["asked"] == []  # every value was known (the example's)
    [prompt] = result["prompts"]
    assert prompt["question"] == "Bob (blue): Expedition Diplomacy bonus - choose one"
    assert prompt["choices"] == ["1 GEM", "1 point", "2 GEMs", "level 3 (asked when chosen)"]
    # the table: 10 - 3 GEMs; food 6 + 1 (die) + 1 (321) - 1 (recruit); water 2 + 1 - 1;
    # metal 2 + 1 - 1; the observed Human's point; one Human fewer on Terra
    after = result["after"]
    assert after["active"] == "Cat" and after["heading"] == "Turn 30 · Next ends the turn"
    cat = after["players"]["Cat"]
    assert (cat["counters"], cat["points"]) == ("7 GEMs  7 food  2 water  2 metal", "1 point")
    assert before["supply"].startswith("Supply · H 18\n")
    assert after["supply"].startswith("Supply · H 17\n")
    bob, bob_before = after["players"]["Bob"], before["players"]["Bob"]
    assert bob_before["counters"] == "12 GEMs  7 food  2 water  4 metal"
    assert (bob["counters"], bob["points"]) == (bob_before["counters"], "13 points")
    engine = result["engine"]
    assert engine["counters"] == {"gems": 7, "food": 7, "water": 2, "metal": 2, "points": 1}
    assert engine["sectors"] == {"121": ["pink", "pink"], "221": ["human"], "321": ["human"]}
    # Cat's station: the new Human lives in Sector 221's first quarter
    station = result["station"]
    assert station["title"] == "Cat's station (yellow) · Hub A-4"
    dots = {tag: letter for tag, letter, _ in station["residents"]}
    assert (dots["resident:221:0"], dots["resident:221:1"], dots["resident:221:2"]) == \
        ("H", "", "")  # the leftmost free quarter
    assert dots["resident:321:0"] == "H" and dots["resident:321:1"] == ""
    placed = {tag: counts for tag, _, counts in station["residents"]}
    assert placed["resident:221:0"] is False  # placed this turn: it counts from the next
    for kind in ("action-recruit", "action-recruit-preview", "station-recruit"):
        assert (SHOTS / f"{kind}-800x480.png").stat().st_size > 10_000


def test_a_bonus_level_the_catalogue_lacks_is_asked_when_chosen(run_ui_driver,
                                                                 tmp_path: Path) -> None:
    """Bob's Expedition bonus may be level 3, whose bonus no line of the example gives: the
    button says so, and tapping it opens the value pop-up with the engine's question (not a
    red message); the value entered is Bob's gain, kept in this game."""
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", CAT_TURN)
    result = run_ui_driver("drive_recruit_expedition.py", "bonus-value", shots=SHOTS,
                           args=("--db", str(db)))
    # the prompt's answers start right under its question, not where the longer preview
    # panel before it was scrolled to (Kivy's overscroll left an 80 px gap)
    assert 0 <= result["gap_above_answers"] <= 20
    assert result["preview"]["lines"].splitlines()[-1] == (
        "Diplomacy bonus for Bob: 1 GEM or 2 GEMs or 1 point or level 3 (asked when chosen) "
        "(their choice)")
    prompt = result["prompt"]
    assert prompt["question"] == "Bob (blue): Expedition Diplomacy bonus - choose one"
    assert prompt["buttons"]["bonus:3"] == "level 3 (asked when chosen)"
    # the Undo box shows the whole step's name, not "... and puts 3"
    assert prompt["undo"] == (
        "Undo: Cat uses Cat's Terran Expedition L1 ship and puts 3 GEMs on it")
    assert result["undo_whole"]
    assert result["asked"] == "What does level 3 of the Expedition Diplomacy track give?"
    assert result["message"] == ""  # asked in the pop-up, not as a red message
    assert result["so_far"] == "So far: points 2"
    bob_before, bob = result["before"]["players"]["Bob"], result["after"]["players"]["Bob"]
    assert (bob_before["points"], bob["points"]) == ("12 points", "14 points")
    assert bob["counters"] == bob_before["counters"]
    assert result["after"]["undo"] == "Undo: Bob takes 2 points (Expedition Diplomacy, level 3)"
    assert result["learned"]["diplomacy/level-3/bonus_expedition"] == {"points": 2}
    for kind in ("action-bonus-unknown-level", "action-bonus-level-value"):
        assert (SHOTS / f"{kind}-800x480.png").stat().st_size > 10_000
