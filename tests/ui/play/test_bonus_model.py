"""Bonus actions entered by touch (no Kivy): the Sectors' and Hubs' transactions, dice, tracks
and free Sector on the action screen's panels, and income's on the power cards' entries; each
ends in a command the engine accepts, with the bonus done on the table."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "rules"))

from tables import Table

from companion.rules.commands import attempt
from companion.ui.play.action_model import ActionModel, BonusModel, given_panel
from companion.ui.play.flows.choices import Panel
from companion.ui.play.flows.income import income_flow
from companion.ui.play.flows.ships import ship_flow
from companion.ui.play.income_model import power_cards

SHIPS = {3: ["L3-construction", "L3-expedition"], 2: ["L2-transport", "L2-dismantle"]}
RICH = {"gems": 30, "food": 6, "water": 6, "metal": 20, "points": 0}


def scene(catalogue, hub: str, sectors=(), **setup) -> Table:
    """Ann (with `hub`) to play, rich, with `sectors` [(number, residents)] settled."""
    table = Table(catalogue, hubs=(hub, "B-5" if hub != "B-5" else "B-3"), ships=SHIPS)
    table.setup_bonuses(**({"Ann": setup} if setup else {}))
    for number, residents in sectors:
        table.put_sector("Ann", number, residents)
    table.set("Ann", **RICH)
    return table


def press(model: ActionModel, *tags: str) -> Panel:
    """Press the buttons tagged `tags` in turn, each on the panel shown; the next panel."""
    for tag in tags:
        (button,) = [b for b in model.panel().buttons if b.tag == tag]
        assert model.press(button.act) == "", tag
    return model.panel()


def confirm(table: Table, model: ActionModel) -> list[str]:
    """Confirm the preview; the engine accepts it. The preview's lines."""
    panel = model.panel()
    assert panel.title.endswith("confirm?"), panel
    outcome = attempt(table.game, model.flow.command())
    assert outcome.step is not None, outcome.refused or outcome.question
    return panel.lines


def test_a3_rolls_three_dice_keeps_two_after_a_transport(table_catalogue):
    table = scene(table_catalogue, "A-3", [(101, [])])
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L1-transport"))
    panel = press(model, "group:buy", "buy:water", "action:done")
    assert panel.title == "Ann uses Transport L1: use Hub A-3?"
    panel = press(model, "ability:yes")
    assert panel.title == "Ann uses Transport L1: Hub A-3: Roll 3 · keep 2"
    assert "roll 3 Expedition dice and keep 2" in panel.lines[0]
    # a count per face; the one that makes up the 3 dice reads them at once, all 3 kept
    panel = press(model, "die:food:1", "die:human:1", "die:metal:1")
    assert [b.tag for b in panel.buttons if b.on] == [
        "keep:food:1", "keep:metal:1", "keep:human:1"]
    assert not next(b for b in panel.buttons if b.tag == "action:kept").allowed
    # the metal put back: 2 kept, the capacity reached from above: "Keep these" implied
    panel = press(model, "keep:metal:0")
    assert panel.title == ("Ann uses Transport L1: Hub A-3: the Humans kept (1) - observe or "
                           "recruit?")
    press(model, "humans:0")
    lines = confirm(table, model)
    assert "Hub A-3: gains 1 food" in lines and "Hub A-3: Human 1: Observe: 1 point" in lines
    ann = table.player("Ann")
    assert (ann["food"], ann["water"], ann["points"]) == (7, 7, 1)


def test_a3_makes_one_transaction_after_an_expedition(table_catalogue):
    table = scene(table_catalogue, "A-3")
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L1-expedition"))
    press(model, "die:water:6", "keep:water:1", "action:kept")
    panel = press(model, "ability:yes")
    assert panel.title == "Ann uses Terran Expedition L1: Hub A-3: transactions (0 of 1)"
    done = next(b for b in panel.buttons if b.tag == "action:done")
    assert not done.allowed and done.reason == "add a transaction"
    panel = press(model, "group:buy", "buy:metal")  # its one transaction: Done is implied
    assert panel.title.endswith("confirm?")
    model.back()  # Back takes it back: the buying again
    assert [b.tag for b in model.panel().buttons][:3] == ["buy:food", "buy:water", "buy:metal"]
    press(model, "buy:metal")
    lines = confirm(table, model)
    assert "Hub A-3: pays 3 GEMs for 1 metal" in lines
    assert table.player("Ann")["metal"] == RICH["metal"] + 1


def test_321s_dice_see_sector_321_built_its_human_goes_there(table_catalogue):
    """The bonus roll is offered as the engine judges it, once Sector 321 is built: with the
    rest of the station full, the recruited Human may still go into 321 itself."""
    table = scene(table_catalogue, "B-5", [(121, ["pink", "pink"]),
                                           (221, ["pink", "pink", "pink"])])
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L3-construction"))
    panel = press(model, "sector:321")
    assert panel.title == "Ann uses Construction L3: Sector 321: Roll 7 · keep 5"
    # 4 metal put back: 3 kept (the capacity, 5, passed over), Keep these
    panel = press(model, "die:human:2", "die:metal:5", "keep:metal:1", "action:kept")
    assert panel.title == ("Ann uses Construction L3: Sector 321: the Humans kept (2) - observe or "
                           "recruit?")
    # one recruited, one observed: one tap (321 is the only place: no place asked)
    recruit = next(b for b in panel.buttons if b.tag == "humans:1")
    assert recruit.allowed, recruit.reason  # only 321's quarters are free
    assert recruit.label == "Recruit 1, observe 1"
    press(model, "humans:1")
    confirm(table, model)
    (built,) = [s for s in table.player("Ann")["sectors"] if s["number"] == 321]
    assert built["residents"] == ["human"]


def test_301s_transaction_pays_with_the_food_and_water_just_kept(table_catalogue):
    """301's transaction comes "after the Expedition action": what it kept pays the Alien."""
    table = scene(table_catalogue, "B-5", [(301, ["teal", "teal", "teal", "teal"]), (101, [])])
    table.set("Ann", food=0, water=0)
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L1-expedition"))
    press(model, "die:food:1", "die:water:1", "die:metal:4", "keep:metal:0", "action:kept")
    panel = press(model, "ability:yes")
    assert panel.title == "Ann uses Terran Expedition L1: Sector 301: transactions (0 of 1)"
    teal = next(b for b in panel.buttons if b.tag == "alien:teal:101")
    assert teal.allowed, teal.reason
    press(model, "alien:teal:101")  # its one transaction made: Done is implied
    confirm(table, model)
    ann = table.player("Ann")
    assert (ann["food"], ann["water"]) == (0, 0)
    assert [s["residents"] for s in ann["sectors"]] == [["teal"] * 4, ["teal"]]


def test_306_advances_a_track_for_free_and_117_pays_its_lobbying(table_catalogue):
    table = scene(table_catalogue, "B-5", [(306, ["teal", "teal", "teal", "teal"])])
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L1-transport"))
    panel = press(model, "group:buy", "buy:water", "action:done", "ability:yes")
    assert panel.title == "Ann uses Transport L1: Sector 306: lobby on which track (up to 1)?"
    free = next(b for b in panel.buttons if b.tag == "track:construction")
    assert free.label == "Construct: level 0 -> 1, free"
    press(model, "track:construction")  # up to 1 track: Done is implied
    gems = table.player("Ann")["gems"]
    confirm(table, model)
    assert table.player("Ann")["diplomacy"]["construction"] == 1
    assert table.player("Ann")["gems"] == gems - 2 - 3  # the ship and the water: no lobbying

    table = scene(table_catalogue, "B-5", [(117, ["brown", "brown"])])
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L1-diplomacy"))
    panel = press(model, "track:transport", "ability:yes")
    assert next(b for b in panel.buttons if b.tag == "track:expedition").label == (
        "Expedition: level 0 -> 1, 1 GEM")
    press(model, "track:expedition")
    confirm(table, model)
    ann = table.player("Ann")
    assert (ann["diplomacy"]["transport"], ann["diplomacy"]["expedition"]) == (1, 1)


def test_326_takes_a_free_level1_sector_from_the_display(table_catalogue):
    table = scene(table_catalogue, "B-5", [(121, []), (221, [])])
    table.state["display"].append(326)
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L3-construction"))
    panel = press(model, "sector:326")
    assert panel.title == "Ann uses Construction L3: Sector 326: which free Sector?"
    pink = next(b for b in panel.buttons if b.tag == "pick:122")
    assert not pink.allowed and "pink wing already has a Level-1 Sector" in pink.reason
    assert next(b for b in panel.buttons if b.tag == "pick:111").label == (
        "Sector 111 (brown wing)")
    press(model, "pick:111")
    lines = confirm(table, model)
    assert "Sector 326: Sector 111 (brown wing)" in lines
    assert [s["number"] for s in table.player("Ann")["sectors"]] == [121, 221, 326, 111]


def income_bonus(table: Table, source: str) -> tuple:
    """Income's flow with `source`'s power taken, and its bonus entry's model."""
    flow = income_flow(table.state, table.catalogue)
    if flow.abilities.needs[source]["optional"]:
        flow.abilities.use(source)
    return flow, BonusModel(flow.abilities, source)


def test_b5_transaction_at_income_is_judged_after_the_income(table_catalogue):
    table = scene(table_catalogue, "B-5")
    table.set("Ann", gems=0)
    flow, bonus = income_bonus(table, "B-5")
    [card] = [c for c in power_cards(flow) if c.source == "B-5"]
    assert card.kind == "entry"
    panel = bonus.panel("Income")
    assert panel.title == "Income: Hub B-5: transactions (0 of 1)"
    assert bonus.press(next(b for b in panel.buttons if b.tag == "group:buy").act) == ""
    buy = next(b for b in bonus.panel("Income").buttons if b.tag == "buy:metal")
    assert buy.allowed  # 0 GEMs now, but the income pays before the transaction
    assert bonus.press(buy.act) == "" and bonus.press(("finish",)) == ""
    assert bonus.panel("Income") is None and flow.abilities.questions() == []
    outcome = attempt(table.game, {**flow.command(), "override": "test: no used ship"})
    assert outcome.step is not None, outcome.refused
    assert table.player("Ann")["metal"] == RICH["metal"] + 1


def test_225_rolls_two_dice_at_income(table_catalogue):
    table = scene(table_catalogue, "B-5", [(225, ["pink", "pink", "pink"])])
    flow, bonus = income_bonus(table, "225")
    # both dice kept at first, one over the capacity (1): the food put back keeps the metal
    for act in (("die", "metal", 1), ("die", "food", 1), ("keep", "food", 0)):
        assert bonus.press(act) == ""
    assert bonus.panel("Income") is None
    # the dice rolled face by face, in the order of the faces
    assert flow.command()["bonus"] == {"225": {"rolled": ["food", "metal"], "keep": ["metal"],
                                               "humans": []}}


def test_a11_and_a12_are_one_tap_picks_on_their_cards(table_catalogue):
    table = scene(table_catalogue, "A-11", [(101, [])])
    flow, bonus = income_bonus(table, "A-11")
    [card] = power_cards(flow)
    assert card.kind == "pick"
    assert [c.label for c in card.choices if c.allowed] == [
        "teal from Hub quarter 3 to Sector 101", "gold from Hub quarter 4 to Sector 101",
        "human from Hub quarter 5 to Sector 101"]
    assert bonus.answer({"slot": 2, "to": 101}) == ""
    outcome = attempt(table.game, {**flow.command(), "override": "test: no used ship"})
    assert outcome.step is not None, outcome.refused
    assert table.player("Ann")["sectors"][0]["residents"] == ["teal"]

    table = scene(table_catalogue, "A-12", [(102, ["teal"])], diplomacy={"transport": 2})
    flow, bonus = income_bonus(table, "A-12")
    [card] = power_cards(flow)
    assert [(c.label, c.allowed) for c in card.choices] == [
        ("the teal in Sector 102 quarter 1", True),
        ("Sector 102 and its residents (teal)", True), ("nothing: lose 5 points", False)]
    assert bonus.answer({"sector": 102}) == ""
    outcome = attempt(table.game, {**flow.command(), "override": "test: no used ship"})
    assert outcome.step is not None, outcome.refused
    assert table.player("Ann")["sectors"] == []


def test_automatic_diplomacy_bonuses_are_listed_for_the_table(table):
    """Tied on a track, Ann and Bob each have one possible bonus: the engine gives it, and the
    table is shown who got what (in their colours) with an OK."""
    table.set("Ann", gems=30)
    table.set("Bob", gems=30)
    for name in ("Ann", "Bob"):
        table.run({"cmd": "use_ship", "player": name, "ship": f"{name}:L1-diplomacy",
                   "tracks": ["dismantle"]})
        table.end_turn()
    model = ActionModel(partial(ship_flow, table.state, table.catalogue, "Ann:L3-dismantle"))
    press(model, "target:Ann:L1-transport")
    assert model.flow.automatic_bonuses() == [("Ann", "1 GEM"), ("Bob", "1 GEM")]
    confirm(table, model)
    panel = given_panel(model.flow.automatic_bonuses(), {"Ann": "red", "Bob": "blue"})
    assert [(b.label, b.color) for b in panel.buttons] == [
        ("Ann: 1 GEM", "red"), ("Bob: 1 GEM", "blue"), ("OK", "")]
    assert {b.act for b in panel.buttons} == {("ok",)}  # any tap goes on
