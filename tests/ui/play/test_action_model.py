"""The action screen's panels (no Kivy): each ship's flow pressed button by button, like a
player, ends in a preview whose command the engine accepts."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "rules"))

from tables import Table

from companion.rules import diplomacy
from companion.rules.commands import attempt
from companion.ui.play.action_model import ActionModel, prompt_panel
from companion.ui.play.flows.choices import Choice, Panel
from companion.ui.play.flows.prompts import BonusPrompt, bonus_prompts
from companion.ui.play.flows.ships import ship_flow
from companion.ui.shell.session import GameSession


def model_for(table, ship_id: str) -> ActionModel:
    return ActionModel(partial(ship_flow, table.state, table.catalogue, ship_id))


def press(model: ActionModel, tag: str) -> Panel:
    """Press the button tagged `tag` on the panel shown; the next panel."""
    (button,) = [b for b in model.panel().buttons if b.tag == tag]
    assert model.press(button.act) == ""
    return model.panel()


def confirm(table, model: ActionModel) -> None:
    panel = model.panel()
    assert panel.title.endswith("confirm?"), panel
    outcome = attempt(table.game, model.flow.command())
    assert outcome.step is not None, outcome.refused or outcome.question


def test_construction_sectors_then_preview(table):
    table.set("Ann", metal=4, gems=20)
    model = model_for(table, "Ann:L1-construction")
    panel = model.panel()
    assert panel.title == "Ann uses Construction L1: which Sector?"
    tile = next(b for b in panel.buttons if b.tag == "sector:201")
    assert not tile.allowed and "needs its Level-1 Sector" in tile.reason
    assert "needs its Level-1 Sector" in model.press(tile.act)
    panel = press(model, "sector:101")
    assert panel.lines[:2] == ["Ann puts 2 GEMs on Construction L1",
                               "builds Sector 101 (teal wing, Level 1) for 3 metal"]
    confirm(table, model)


def test_construction_more_than_eight_sectors_grouped_by_stack(table_catalogue):
    """More than 8 Sectors that can be built (4 players: 4 of each stack on display): a row
    per stack, each Sector one tap on it; the ones that cannot be built behind one button,
    paged, with their reasons, and back."""
    table = Table(table_catalogue, hubs=("B-3", "B-5", "B-1", "B-4"))
    table.setup_bonuses()
    table.set("Ann", metal=20, gems=20)
    model = model_for(table, "Ann:L1-construction")
    panel = model.panel()
    rows = [b for b in panel.buttons if b.row]
    assert len(rows) > 8 and all(b.allowed for b in rows)
    assert sorted({b.row for b in rows}) == ["1 · brown", "1 · pink", "1 · teal"]
    assert {b.label for b in rows if b.tag == "sector:101"} == {"101 · 3 metal"}
    (more,) = [b for b in panel.buttons if not b.row]
    cannot = len(table.state["display"]) - len(rows)
    assert more.label == f"Cannot be built now ({cannot})…"
    seen = []
    model.press(more.act)
    while (more := next(b for b in model.panel().buttons if b.tag == "action:more")).act[1]:
        seen += [b for b in model.panel().buttons if b.tag != "action:more"]
        assert len(model.panel().buttons) <= 8
        model.press(more.act)
    seen += [b for b in model.panel().buttons if b.tag != "action:more"]
    assert len(seen) == cannot and not any(b.allowed for b in seen)
    assert "needs its Level-1 Sector" in next(b for b in seen if b.tag == "sector:201").reason
    assert more.label == "Back to the Sectors that can be built"
    model.press(more.act)
    panel = press(model, "sector:111")
    assert panel.title.endswith("confirm?")
    confirm(table, model)


def test_transport_running_list_with_remove_then_an_ability_choice(table):
    table.put_sector("Ann", 101)
    table.set("Ann", gems=20, food=3, water=3)
    model = model_for(table, "Ann:L1-transport")
    assert not next(b for b in model.panel().buttons if b.tag == "action:done").allowed
    kinds = model.panel().buttons  # what kind first: 5 Aliens, Trade…, Buy…, Done
    assert [b.tag.split(":")[:2] for b in kinds] == [
        ["alien", "teal"], ["alien", "pink"], ["alien", "brown"], ["alien", "gold"],
        ["group", "trade"], ["group", "buy"], ["action", "done"]]
    panel = press(model, "group:buy")
    assert [b.tag for b in panel.buttons] == ["buy:food", "buy:water", "buy:metal",
                                              "action:done"]
    panel = press(model, "buy:water")
    assert panel.title.endswith("transactions (1 of 3)")
    assert panel.lines == ["pays 3 GEMs for 1 water"]
    panel = press(model, "remove:0")
    assert panel.lines == ["No transaction yet."]
    teal = next(b for b in panel.buttons if b.tag.startswith("alien:teal:"))
    assert teal.label.startswith("(T) teal Alien")
    press(model, teal.tag)
    panel = press(model, "action:done")
    assert panel.title == "Ann uses Transport L1: Hub B-3 - choice?"
    gold = next(b for b in panel.buttons if b.label == "gold")
    assert model.press(gold.act) == ""
    confirm(table, model)
    assert table.player("Ann")["sectors"][0]["residents"] == ["teal", "gold"]


def test_expedition_dice_by_count_kept_by_count_and_a_human_recruited(table):
    table.put_sector("Ann", 101)
    model = model_for(table, "Ann:L1-expedition")
    panel = model.panel()
    assert panel.title.endswith("Roll 6 · keep 4")
    assert not next(b for b in panel.buttons if b.tag == "action:dice").allowed
    # a row per face, its counts 0 to the 6 dice rolled, one choice each
    food = [b for b in panel.buttons if b.row == "food"]
    assert [b.tag for b in food] == [f"die:food:{n}" for n in range(7)]
    assert not any(b.on for b in food)  # none tapped yet: none lit (it may be the rest)
    press(model, "die:food:2")
    panel = press(model, "die:human:2")
    assert panel.lines == [
        "Tap how many dice show each face (the last face left is the rest): 4 of 6 entered."]
    too_many = next(b for b in panel.buttons if b.tag == "die:metal:3")
    assert not too_many.allowed
    assert too_many.reason == "6 dice rolled: 4 already show other faces"
    assert next(b for b in panel.buttons if b.tag == "die:food:2").on
    # every face but one tapped: metal is the rest, shown as such; 6 in all: they are read
    panel = press(model, "die:water:1")
    assert panel.lines == ["Rolled: food ×2, water ×1, metal ×1 (the rest), human ×2 · tap "
                           "what is put back"]
    model.back()  # the last count taken back: 4 dice entered
    press(model, "die:food:3")  # tapped again: food's count replaced
    panel = press(model, "die:metal:0")  # water is the rest: 1
    assert panel.lines == ["Rolled: food ×3, water ×1 (the rest), human ×2 · tap what is put "
                           "back"]
    assert "action:reroll" not in [b.tag for b in panel.buttons]
    # kept by count: 0 to the dice of that face rolled, every die rolled kept at first
    assert [b.tag for b in panel.buttons if b.row == "human"] == [
        "keep:human:0", "keep:human:1", "keep:human:2"]
    assert [b.tag for b in panel.buttons if b.on] == [
        "keep:food:3", "keep:water:1", "keep:human:2"]
    assert all(b.allowed for b in panel.buttons if b.row)
    # 6 kept of a capacity of 4: Keep these is dim and says why (pressed: the same words)
    kept = next(b for b in panel.buttons if b.tag == "action:kept")
    assert (kept.allowed, kept.reason) == (False, "put back 2 dice: keep at most 4 (the "
                                                  "capacity)")
    assert model.press(kept.act) == "put back 2 dice: keep at most 4 (the capacity)"
    panel = press(model, "keep:human:1")  # 5 kept: one more to put back
    kept = next(b for b in panel.buttons if b.tag == "action:kept")
    assert (kept.allowed, kept.reason) == (False, "put back 1 die: keep at most 4 (the "
                                                  "capacity)")
    panel = press(model, "keep:food:1")  # 3 kept: the capacity passed over, not landed on
    assert panel.title.endswith("which dice are kept?")
    assert [b.tag for b in panel.buttons if b.on] == [
        "keep:food:1", "keep:water:1", "keep:human:1"]
    assert next(b for b in panel.buttons if b.tag == "action:kept").allowed
    panel = press(model, "action:kept")
    assert panel.title == ("Ann uses Terran Expedition L1: the Humans kept (1) - observe or "
                           "recruit?")
    assert [b.label for b in panel.buttons] == [
        "Observe: 1 point", "Recruit: 1 metal, 1 food and 1 water"]
    humans = table.state["supply"]["human"]
    press(model, "humans:1")
    assert "Human 1: Recruit" in " ".join(model.panel().lines)
    confirm(table, model)
    assert table.state["supply"]["human"] == humans - 1


def test_dismantle_diplomacy_and_farm(table):
    table.set("Ann", gems=30)
    model = model_for(table, "Ann:L3-dismantle")
    press(model, "target:Ann:L1-transport")
    confirm(table, model)
    table.end_turn()
    table.run({"cmd": "income", "player": "Bob", "override": "test"})
    table.end_turn()
    model = model_for(table, "Ann:L1-diplomacy")
    panel = press(model, "track:construction")  # its one track: Done is implied
    assert panel.title == "Ann uses Diplomacy L1: confirm?"
    model.back()  # taken back: the tracks again, none chosen
    assert not next(b for b in model.panel().buttons if b.tag == "track:construction").on
    press(model, "track:construction")
    confirm(table, model)
    table.end_turn()
    table.run({"cmd": "income", "player": "Bob", "override": "test"})
    table.end_turn()
    model = model_for(table, "Ann:L2-farm")
    assert model.panel().title == "Ann uses Farm L2: confirm?"
    confirm(table, model)


def test_the_demo_waits_on_bobs_diplomacy_bonus(tmp_path: Path) -> None:
    demo = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    demo.open_demo()
    try:
        [prompt] = bonus_prompts(demo.state, demo.game.catalogue)
        panel = prompt_panel(prompt, "blue")
        assert panel.title == "Bob (blue): Transport Diplomacy bonus - choose one"
        assert [b.label for b in panel.buttons] == ["1 GEM", "2 GEMs"]
        assert prompt.command(panel.buttons[1].act[1]) == {
            "cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}
    finally:
        demo.close()


def test_a_top_level_bonus_shows_the_pairs_first_the_single_bonuses_behind_one_button():
    """"The top two spaces of each track allow a choice of 2 different bonuses from the first
    four spaces of that track (they cannot be the same bonus)." Ten choices: the six pairs
    first with "One bonus only…" (at most 8 answers on a panel), which opens the four single
    ones; each answer keeps its index in the engine's list (its tag)."""
    picks = diplomacy.options([0, 1, 2, 3, 4])
    prompt = BonusPrompt("Ann", "dismantle", [Choice(levels, "+".join(map(str, levels)))
                                              for levels in picks])
    panel = prompt_panel(prompt, "red")
    assert [b.label for b in panel.buttons] == ["0+1", "0+2", "0+3", "1+2", "1+3", "2+3",
                                                "One bonus only…"]
    assert panel.buttons[0].tag == f"bonus:{picks.index([0, 1])}"
    singles = prompt_panel(prompt, "red", "one")
    assert [b.label for b in singles.buttons] == ["0", "1", "2", "3"]
    assert [b.act for b in singles.buttons] == [("bonus", [level]) for level in range(4)]
