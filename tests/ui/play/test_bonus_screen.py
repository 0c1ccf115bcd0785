"""Bonus actions entered by touch in the real app under Xvfb (tests/ui/drive_bonus.py), on the
3-player draft example replayed into a game database from an empty overlay: Sector 321's dice
(the values the tile prints asked first, the Human recruited into 321 itself) on the action
screen, and Hub B-5's transaction at income in the pop-up. Screenshots go to build/screenshots/
(or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

from companion.files import read_script
from companion.rules.script import parse
from companion.ui.shell.session import GameSession

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "three-players-draft.jsonl"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
SCRIPT = "drive_bonus.py"


def stored(db: Path, commands: list[dict]) -> None:
    """Commit `commands` into `db` one by one, as `phoenix-companion replay --db` does."""
    session = GameSession(db, db.parent / "overlay.json")
    session.open()
    assert session.new_game() == ""
    for command in commands:
        assert session.send(command).problem == "", command
    session.close()


def example() -> list[dict]:
    return [line.command for line in parse(read_script(EXAMPLE))]


def test_sector_321s_dice_by_touch_the_human_recruited_into_321(run_ui_driver,
                                                                 tmp_path: Path) -> None:
    """"Sector 321: When built, immediately roll 7 dice and select 5 to keep." The engine needs what
    the tile prints before it gets to the dice: asked first; then the dice are offered where
    they are rolled, with Sector 321 built, so the Human may go into 321."""
    commands = example()
    built = next(i for i, c in enumerate(commands) if c.get("sector") == 321)
    db = tmp_path / "games.sqlite"
    stored(db, commands[:built])
    result = run_ui_driver(SCRIPT, "sector-321", shots=SHOTS, args=("--db", str(db)))
    before = result["before"]
    assert before["active"] == "Cat"
    assert before["players"]["Cat"]["counters"] == "18 GEMs  6 food  2 water  8 metal"
    first = result["value_first"]
    # asked at once on its card, right after the Sector is chosen: the panel behind says so
    assert first["question"] == "Cat uses Construction L3: a value from the tile"
    assert first["lines"] == "How much metal does Sector 321 cost?"
    assert result["asked"] == [
        "How much metal does Sector 321 cost?",
        "How many living quarters does Sector 321 have?",
        "Which living quarter of Sector 321 (0 = leftmost) activates: When using an "
        "Expedition ship, gain 1 food and 1 water.",
        "Which income icons does Sector 321 show, and above which living quarter (0 = "
        "leftmost)? (an empty list if none)"]  # all before the dice, none on Confirm
    assert result["dice"]["question"] == "Cat uses Construction L3: Sector 321: Roll 7 · keep 5"
    assert [t for t in result["kept"]["buttons"] if t.startswith("keep:metal:")] == [
        "keep:metal:0", "keep:metal:1", "keep:metal:2"]
    # all 7 kept at first (over the capacity, 5: Keep these dim); a food and a water put back
    # make 5, the capacity from above: kept without Keep these (the driver checks it)
    assert result["kept"]["lines"].splitlines()[-1] == (  # under the Sector's rule
        "Rolled: food ×2, water ×2, metal ×2, human ×1 (the rest) · tap what is put back")
    assert result["kept_lit"] == ["keep:food:2", "keep:water:2", "keep:metal:2",
                                  "keep:human:1"]
    assert result["keep_these_dim"] is True
    human = result["human"]
    assert human["question"] == ("Cat uses Construction L3: Sector 321: the Humans kept (1) - "
                                 "observe or recruit?")
    assert human["buttons"] == {
        "humans:0": "Observe: 1 point",
        "humans:1:221": "Recruit: 1 metal, 1 food and 1 water to Sector 221",
        "humans:1:321": "Recruit: 1 metal, 1 food and 1 water to Sector 321"}
    preview = result["preview"]["lines"].splitlines()
    # the dice kept in the faces' order (all were kept first, two put back)
    assert "Sector 321: gains 1 food, 1 water and 2 metal" in preview
    assert "Sector 321: Human 1: Recruit: 1 metal, 1 food and 1 water to Sector 321" in preview
    assert result["prompts"][0]["question"] == (
        "Bob (blue): Construct Diplomacy bonus - choose one")
    # as the example's own line: 18 GEMs - 8 (the rulebook's L3 Construction: "She pays 8
    # GEMs"); metal 8 - 7 (9, 2 off with the L3 ship) + 2 - 1; food 6 + 1 - 1; water 2 + 1 - 1
    after = result["after"]
    assert after["players"]["Cat"]["counters"] == "10 GEMs  6 food  2 water  2 metal"
    assert result["undo_at_prompt"].startswith(
        "Undo: Cat uses Cat's Construction L3 ship")
    assert after["undo"] == "Undo: Bob takes 1 GEM (Construct Diplomacy, level 0)"
    assert before["supply"].startswith("Supply · H 19\n")
    assert after["supply"].startswith("Supply · H 18\n")
    assert result["engine"]["sectors"]["321"] == ["human"]
    assert result["engine"]["sectors"]["221"] == []
    assert result["station"]["title"].startswith("Cat's station (yellow)")
    dots = dict(map(tuple, result["station"]["residents"]))
    assert dots["resident:321:0"] == "H" and dots["resident:321:1"] == ""
    for kind in ("action-bonus-value-first", "action-bonus-dice-human", "action-bonus-preview",
                 "station-bonus-321"):
        assert (SHOTS / f"{kind}-800x480.png").stat().st_size > 10_000


B5_VALUES = {"hubs/B-5/income_gems_per_ship": 1,
             "hubs/B-5/starting_diplomacy": {"fixed": {}, "choice": 0},
             "hubs/B-5/starting_food": 2, "hubs/B-5/starting_gems": 8,
             "hubs/B-5/starting_metal": 3, "hubs/B-5/starting_water": 2}  # example values


def test_b5s_transaction_at_income_in_the_pop_up(run_ui_driver, tmp_path: Path) -> None:
    """Hub B-5: "During income, you may perform 1 transport transaction." The 3-player draft
    example with Hub B-5 dealt to and kept by Cat (example values), to her second turn, her
    GEMs corrected to 1: buying 1 water for 3 GEMs is offered, since the income pays first;
    B-5's one transaction made, Done is implied."""
    commands = []
    for command in example():
        if command["cmd"] == "deal_hubs":
            command = {**command, "hubs": {**command["hubs"], "Cat": ["B-5", "A-4"]}}
        elif command["cmd"] == "choose_hub" and command["player"] == "Cat":
            command = {"cmd": "choose_hub", "player": "Cat", "hub": "B-5",
                       "catalogue": B5_VALUES}
        commands.append(command)
        if command == {"cmd": "income", "player": "Bob"}:  # round 2: Cat's turn next
            break
    commands += [{"cmd": "end_turn"}, {"cmd": "adjust", "who": "Cat", "counter": "gems",
                                       "value": 1, "note": "test: 1 GEM left"}]
    db = tmp_path / "games.sqlite"
    stored(db, commands)
    result = run_ui_driver(SCRIPT, "b5-income", shots=SHOTS, args=("--db", str(db)))
    cat = result["before"]["players"]["Cat"]
    assert result["before"]["active"] == "Cat"
    assert cat["counters"] == "1 GEM  2 food  2 water  11 metal"
    popup = result["popup"]
    assert popup["question"] == "Income: Cat: Hub B-5: transactions (0 of 1)"
    assert popup["lines"].startswith("During income, you may perform 1 transport transaction")
    # what kind first (the Aliens, Buy…), then what is bought; its one transaction made, the
    # pop-up closes by itself
    assert "group:buy" in popup["kinds"] and not any(t.startswith("buy:") for t in popup["kinds"])
    assert popup["buy"] == "buy 1 water for 3 GEMs"
    assert result["card"] == "pays 3 GEMs for 1 water"
    assert any("water" in line for line in result["preview"]), result["preview"]
    after = result["after"]
    # 1 GEM + 8 (B-5: 1 GEM x 8 ships) - 3
    assert after["players"]["Cat"]["counters"] == "6 GEMs  2 food  3 water  11 metal"
    assert after["undo"] == "Undo: Cat takes income"  # named by the income, not its first event
    for kind in ("income-bonus-popup", "income-bonus"):
        assert (SHOTS / f"{kind}-800x480.png").stat().st_size > 10_000
