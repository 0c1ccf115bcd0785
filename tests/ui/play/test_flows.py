"""The turn's flows (no Kivy): driven like a player at concrete moments of real games, each
produces a command the engine accepts and that changes the state as previewed; a flow offers
only what `options` offers; a refusal leads to an override, a missing value to a question."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[2] / "rules"))
sys.path.insert(0, str(Path(__file__).parents[1]))  # the drivers' rule: tests/ui/dice_taps.py
from dice_taps import keep_taps
from tables import Table

from companion.catalogue_files import load_catalogue
from companion.files import read_script
from companion.rules.commands import CommandError, adjust, attempt, end_turn, undo
from companion.rules.game import Game
from companion.rules.options import options
from companion.rules.script import parse
from companion.ui.play.action_model import ActionModel
from companion.ui.play.flows.abilities import Abilities
from companion.ui.play.flows.choices import FlowError
from companion.ui.play.flows.dice import Dice, TappedDice
from companion.ui.play.flows.income import income_flow
from companion.ui.play.flows.prompts import bonus_prompts, hub_power_flows
from companion.ui.play.flows.ships import ship_flow

EXAMPLES = Path(__file__).parents[3] / "examples"


def flow_for(table, ship_id):
    return ship_flow(table.state, table.catalogue, ship_id)


def accepted(table, command):
    outcome = attempt(table.game, command)
    assert outcome.step is not None, outcome.refused or outcome.question
    return outcome


def test_construction_sector_tiles_preview_and_command(table):
    table.set("Ann", metal=4, gems=20)
    flow = flow_for(table, "Ann:L1-construction")
    tiles = {c.value: c for c in flow.sectors}
    assert set(tiles) == set(table.state["display"])
    assert tiles[101].allowed and tiles[101].label == "Sector 101 · teal · Level 1 · 3 metal"
    assert "needs its Level-1 Sector" in tiles[201].reason
    with pytest.raises(FlowError, match="needs its Level-1 Sector"):
        flow.choose(201)
    assert flow.questions() == ["which Sector"]
    flow.choose(101)
    assert flow.questions() == []
    assert flow.preview()[:2] == ["Ann puts 2 GEMs on Construction L1",
                                  "builds Sector 101 (teal wing, Level 1) for 3 metal"]
    accepted(table, flow.command())
    ann = table.player("Ann")
    assert [s["number"] for s in ann["sectors"]] == [101]
    assert (ann["metal"], ann["gems"]) == (1, 18)


def test_construction_with_another_players_ship_shows_the_fee(table):
    table.set("Ann", metal=9, gems=20)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-farm"})
    table.end_turn()
    flow = flow_for(table, "Ann:L2-farm")
    assert not flow.usable and "already used" in flow.reason
    table.set("Bob", gems=20, metal=9)
    flow = flow_for(table, "Ann:L1-construction")
    assert flow.usable
    flow.choose(102)
    assert flow.preview()[:3] == ["Bob puts 2 GEMs on Ann's Construction L1",
                                  "Bob pays Ann the owner's fee: 1 GEM",
                                  "builds Sector 102 (teal wing, Level 1) for 3 metal"]
    ann_gems = table.player("Ann")["gems"]
    accepted(table, flow.command())
    assert (table.player("Bob")["gems"], table.player("Ann")["gems"]) == (17, ann_gems + 1)


def test_transport_transactions_up_to_the_limit(table):
    table.set("Ann", gems=20, food=2, water=2, metal=0)
    flow = flow_for(table, "Ann:L1-transport")
    assert flow.limit == 3
    flow.add_buy("water")
    flow.add_trade(["water", "food"], "metal")
    with pytest.raises(FlowError, match="not on offer"):
        flow.add_trade(["metal", "metal"], "food")
    flow.add_buy("metal")
    with pytest.raises(FlowError, match="at most 3 transactions"):
        flow.add_buy("food")
    # Ann's Hub B-3 fires ("gain 1 free Alien of any color"); with no free quarter, no choice
    (b3,) = flow.abilities.needs.values()
    assert b3["choice"] == [] and flow.questions() == []
    assert flow.preview()[1:] == ["pays 3 GEMs for 1 water",
                                  "trades food and water for 1 metal",
                                  "pays 3 GEMs for 1 metal", f"Hub B-3: {b3['text']}"]
    accepted(table, flow.command())
    ann = table.player("Ann")
    assert (ann["gems"], ann["food"], ann["water"], ann["metal"]) == (20 - 2 - 6, 1, 2, 2)


def test_transport_alien_goes_where_the_player_says(table):
    table.put_sector("Ann", 101)
    table.set("Ann", gems=20, food=3, water=3)
    flow = flow_for(table, "Ann:L1-transport")
    teal = next(c for c in flow.aliens if c.value == "teal")
    assert teal.allowed and "1 food and 1 water" in teal.label
    places = flow.residents["teal"]["where"]
    if len(places) > 1:
        with pytest.raises(FlowError, match="where does the teal Alien go"):
            flow.add_resident("teal")
    flow.add_resident("teal", 101)
    assert flow.questions() == ["B-3: choice"]  # B-3: "gain 1 free Alien of any color"
    with pytest.raises(FlowError, match="not one of"):
        flow.abilities.choose("B-3", "pink")  # no free quarter takes a pink one
    flow.abilities.choose("B-3", "gold")
    assert flow.questions() == []
    accepted(table, flow.command())
    assert table.player("Ann")["sectors"][0]["residents"] == ["teal", "gold"]


def test_expedition_dice_tapped_kept_and_a_human_observed(table):
    flow = flow_for(table, "Ann:L1-expedition")
    assert (flow.dice, flow.capacity, flow.rerolls_allowed) == (6, 4, 0)
    flow.count("food", 2)
    flow.count("water", 1)
    with pytest.raises(FlowError, match="6 dice rolled: 3 already show other faces"):
        flow.count("metal", 4)
    assert flow.reading is None
    flow.count("metal", 1)  # every face but one tapped: the Humans are the rest, 6 in all
    assert sorted(flow.reading.faces) == ["food", "food", "human", "human", "metal", "water"]
    assert flow.rest == "human"
    assert flow.unsure == []
    # every die rolled is kept at first, 6 of a capacity of 4: not yet the dice kept
    assert flow.kept == Counter(food=2, water=1, metal=1, human=2)
    assert flow.humans == [None, None] and not flow.kept_chosen
    assert "the dice kept" in flow.questions()
    assert flow.detail()["keep"] == []  # never more than the capacity in a command
    with pytest.raises(FlowError, match=r"^put back 2 dice: keep at most 4 \(the capacity\)$"):
        flow.choose_kept()
    with pytest.raises(FlowError, match="2 dice show food"):
        flow.keep("food", 3)
    flow.keep("water", 0)  # 5 kept: still over the capacity
    with pytest.raises(FlowError, match=r"^put back 1 die: keep at most 4"):
        flow.choose_kept()
    flow.keep("human", 0)  # 3: under it, passed over - Keep these is the player's
    assert not flow.kept_chosen and flow.humans == []
    flow.keep("human", 2)  # 5 again: a count may go back up, over the capacity meanwhile
    assert not flow.kept_chosen and flow.humans == [None, None]
    flow.keep("human", 1)
    # put back to 4, the capacity: they are the dice kept; Recruit is refused (no quarter
    # free), so the Human is observed without asking
    assert flow.kept_chosen and flow.humans == ["observe"] and flow.questions() == []
    assert sorted(flow.detail()["keep"]) == ["food", "food", "human", "metal"]
    with pytest.raises(FlowError, match="may reroll 0 time"):
        flow.reroll()
    assert "Human 1: Observe: 1 point" in flow.preview()
    before = dict(table.player("Ann"))
    accepted(table, flow.command())
    ann = table.player("Ann")
    assert (ann["food"], ann["metal"], ann["points"]) == (
        before["food"] + 2, before["metal"] + 1, before["points"] + 1)


FACES = ["food", "water", "metal", "human"]


def bare_dice(dice: int, capacity: int) -> Dice:
    """A roll of `dice` keeping up to `capacity`, the Humans kept observed (Recruit refused)."""
    return Dice({"dice": dice, "keep": capacity, "rerolls": 0, "faces": FACES,
                 "humans": {"observe": {"points": 1}, "recruit": None,
                            "recruit_reason": "no room", "where": []}})


def test_many_humans_kept_with_places_to_choose_are_one_row_of_counts() -> None:
    """Six Humans kept and three places: 1 + 3 + 5 answers would be more than 8, so how many
    are recruited is one row of counts, and where each goes is asked next, one at a time."""
    dice = Dice({"dice": 8, "keep": 6, "rerolls": 0, "faces": FACES,
                 "humans": {"observe": {"points": 1}, "recruit": {"food": 1, "water": 1},
                            "recruit_reason": None, "where": [221, 222, 223]}})
    dice.count("human", 6)
    dice.count("food", 2)
    dice.keep("food", 0)  # put back: the six Humans kept, the capacity reached
    panel = dice.panel("Ann", ("done",))
    assert [b.tag for b in panel.buttons] == [f"humans:{n}" for n in range(7)]
    assert {b.row for b in panel.buttons} == {"Recruit"}
    assert panel.lines == ["Observe all 6: 6 points", "Recruit: 1 food and 1 water"]
    dice.press("humans", 2)
    assert dice.humans == ["recruit", "recruit", "observe", "observe", "observe", "observe"]
    panel = dice.panel("Ann", ("done",))
    assert [b.tag for b in panel.buttons] == ["human-to:221", "human-to:222", "human-to:223"]
    dice.press("human-to", 222)
    dice.press("human-to", 221)
    assert dice.panel("Ann", ("done",)) is None and dice.human_places == [222, 221]


@st.composite
def rolls_kept(draw) -> tuple[Counter, int, Counter]:
    """Dice rolled (0 to 5 of each face, at least one die), a capacity (1 to one more than
    the dice rolled) and dice kept of them (1 to the capacity)."""
    rolled = Counter({f: n for f in FACES if (n := draw(st.integers(0, 5)))})
    if not rolled:
        rolled["food"] = 1
    capacity = draw(st.integers(1, rolled.total() + 1))
    kept = Counter({f: draw(st.integers(0, rolled[f])) for f in rolled})
    if not 1 <= kept.total() <= capacity:
        kept = Counter({f: 0 for f in rolled})
        for face in rolled.elements():  # the first dice rolled, up to the capacity
            if kept.total() < capacity:
                kept[face] += 1
    return rolled, capacity, kept


@given(rolls_kept())
def test_the_kept_dice_start_all_kept_and_the_drivers_taps_keep_what_they_mean(drawn):
    """Any roll, any capacity: the kept-dice panel opens with every die rolled kept (each
    row 0 to the dice of that face rolled, the count rolled lit; Keep these only at or under
    the capacity), and the taps the drivers work out (tests/ui/dice_taps.py) keep exactly the
    dice meant: none is chosen before the last tap, the capacity reached from above by it
    chooses them, else Keep these does; one tap per face kept otherwise than rolled, Keep these
    only under the capacity or with every die rolled kept, where an order allows it."""
    rolled, capacity, wanted = drawn
    dice = bare_dice(rolled.total(), capacity)
    dice.read(TappedDice({f: rolled[f] for f in FACES}))
    assert +dice.kept == rolled and not dice.kept_chosen
    assert dice.humans == [None] * rolled["human"]
    panel = dice.panel("T", ("done",))
    assert [b.tag for b in panel.buttons if b.row] == [
        f"keep:{f}:{n}" for f in FACES if rolled[f] for n in range(rolled[f] + 1)]
    assert [b.tag for b in panel.buttons if b.on] == [
        f"keep:{f}:{rolled[f]}" for f in FACES if rolled[f]]
    keep_these = next(b for b in panel.buttons if b.tag == "action:kept")
    assert keep_these.allowed == (rolled.total() <= capacity)
    total, changes = wanted.total(), sum(1 for f in rolled if wanted[f] != rolled[f])
    if all(n == 1 for n in rolled.values()) and total < capacity < rolled.total():
        with pytest.raises(ValueError, match="any die put back first makes the capacity"):
            keep_taps(rolled, wanted, capacity)
        return  # each tap moves the total by one: under it only through the capacity
    taps, tap_keep_these = keep_taps(rolled, wanted, capacity)
    for i, (face, count) in enumerate(taps):
        assert not dice.kept_chosen, (taps, i)
        dice.keep(face, count)
    assert dice.kept_chosen != tap_keep_these
    if tap_keep_these:
        dice.choose_kept()
    assert +dice.kept == +wanted and dice.kept_chosen
    assert Counter(dice.detail()["keep"]) == +wanted
    assert dice.humans == ["observe"] * wanted["human"]  # Recruit refused: observed
    assert changes <= len(taps) <= changes + 2
    if total == capacity or rolled.total() <= capacity:  # no order lands on it early
        assert len(taps) == changes
        assert tap_keep_these == (total < capacity or total == rolled.total())


def test_dice_rolled_within_the_capacity_are_all_kept_with_one_tap():
    """No more dice rolled than the capacity: they open all kept, Keep these allowed (one
    tap), not chosen by themselves; a die put back is kept no more, and no count lands on
    the capacity from above."""
    dice = bare_dice(3, 3)
    dice.read(TappedDice({"food": 2, "human": 1}))
    panel = dice.panel("T", ("done",))
    assert [b.tag for b in panel.buttons if b.on] == ["keep:food:2", "keep:human:1"]
    assert next(b for b in panel.buttons if b.tag == "action:kept").allowed
    assert not dice.kept_chosen
    assert dice.dice_questions() == ["the dice kept", "the Humans kept: observe or recruit"]
    dice.choose_kept()  # Keep these: the one tap
    assert dice.kept_chosen and dice.detail() == {
        "rolled": ["food", "food", "human"], "keep": ["food", "food", "human"],
        "humans": ["observe"]}
    dice.read(TappedDice({"food": 2, "human": 1}))  # read again: all kept again, to choose
    assert not dice.kept_chosen and +dice.kept == Counter(food=2, human=1)
    dice.keep("human", 0)
    dice.keep("food", 0)  # none kept: Keep these dim, it says why
    keep_these = next(b for b in dice.panel("T", ("done",)).buttons if b.tag == "action:kept")
    assert (keep_these.allowed, keep_these.reason) == (False, "keep at least one die")
    with pytest.raises(FlowError, match="keep at least one die"):
        dice.choose_kept()
    dice.keep("food", 1)
    assert not dice.kept_chosen  # 1 of 3: Keep these is the player's
    dice.choose_kept()
    assert dice.detail()["keep"] == ["food"] and dice.humans == []


def test_expedition_a_human_recruited_at_its_price(table):
    table.put_sector("Ann", 101)
    flow = flow_for(table, "Ann:L1-expedition")
    recruit = next(c for c in flow.human_choices if c.value == "recruit")
    assert recruit.allowed and recruit.label == "Recruit: 1 metal, 1 food and 1 water"
    dice = TappedDice({"human": 6})
    flow.read(dice)
    flow.keep("human", 1)
    flow.choose_kept()
    flow.recruit(1)
    humans = table.state["supply"]["human"]
    accepted(table, flow.command())
    assert table.state["supply"]["human"] == humans - 1


def test_the_preview_says_where_each_resident_goes(table):
    """A Human recruited, or an Alien bought, to a Sector chosen among several is previewed
    with its place; the command places them there."""
    table.put_sector("Ann", 101)
    table.put_sector("Ann", 102)
    table.set("Ann", food=5, water=5, metal=5)
    flow = flow_for(table, "Ann:L1-expedition")
    assert flow.action["humans"]["where"] == [101, 102]
    flow.read(TappedDice({"human": 6}))
    flow.keep("human", 3)
    flow.choose_kept()
    flow.recruit(2)  # the first two recruited, the third observed; each placed in turn
    assert flow.questions() == ["Human 1: where it goes"]
    flow.place_human(102)
    assert flow.questions() == ["Human 2: where it goes"]
    flow.place_human(101)
    with pytest.raises(FlowError, match="not on offer"):
        flow.place_human(101)  # both recruited are placed: no third place
    assert flow.preview()[1:4] == [
        "Human 1: Recruit: 1 metal, 1 food and 1 water to Sector 102",
        "Human 2: Recruit: 1 metal, 1 food and 1 water to Sector 101",
        "Human 3: Observe: 1 point"]
    assert flow.command()["where"] == {"human": [102, 101]}
    transport = flow_for(table, "Ann:L1-transport")  # instead: an Alien to Sector 102
    transport.add_resident("teal", 102)
    assert "pays 1 food and 1 water for a teal Alien to Sector 102" in transport.preview()
    accepted(table, flow.command())
    assert [s["residents"] for s in table.player("Ann")["sectors"]] == [["human"], ["human"]]
    # an ability's resident, where there is a choice of quarters
    abilities = Abilities([{"source": "217", "text": "Gain 1 teal Alien.", "optional": False,
                            "where": {"teal": [101, 102]}}])
    assert abilities.questions() == [("217", "where")]
    abilities.place("217", 102)
    assert abilities.lines() == ["Sector 217: Gain 1 teal Alien. (to Sector 102)"]


@dataclass
class CameraReading:
    """A reading as the camera will give it: each die's face and how sure the reader is."""

    faces: list[str]
    certainty: list[float]


def test_expedition_reroll_with_b4_and_a_camera_reading(table_catalogue):
    """Hub B-4: "you may reroll any number of dice once": the dice are entered again as they lie."""
    table = Table(table_catalogue, hubs=("B-4", "B-5"))
    table.setup_bonuses()
    flow = flow_for(table, "Ann:L1-expedition")
    assert flow.rerolls_allowed == 1
    flow.read(CameraReading(["water"] * 6, [1.0, 1.0, 0.5, 1.0, 1.0, 0.95]))
    assert flow.unsure == [2]  # marked for the player to check
    flow.keep("water", 4)  # put back to the capacity: kept
    assert flow.kept_chosen
    flow.reroll()
    assert flow.questions()[:2] == ["the 6 dice rolled (0 entered)", "the dice kept"]
    with pytest.raises(FlowError, match="may reroll 1 time"):
        flow.reroll()
    flow.read(CameraReading(["metal"] * 6, [1.0] * 6))
    # read again: every die rolled kept again, to be put back again
    assert flow.kept == Counter(metal=6) and not flow.kept_chosen
    flow.keep("metal", 4)
    assert flow.kept_chosen
    assert flow.command()["rerolls"] == 1
    metal = table.player("Ann")["metal"]
    accepted(table, flow.command())
    assert table.player("Ann")["metal"] == metal + 4


def test_dismantle_diplomacy_and_farm(table):
    table.set("Ann", gems=30)
    flow = flow_for(table, "Ann:L3-dismantle")
    assert "Ann:L3-dismantle" not in [c.value for c in flow.targets]
    flow.choose("Ann:L1-transport")
    (gain,) = [t["metal"] for t in flow.action["dismantle"] if t["ship"] == "Ann:L1-transport"]
    assert flow.preview()[1] == f"dismantles Transport L1: {gain} metal"
    metal = table.player("Ann")["metal"]
    accepted(table, flow.command())
    assert table.player("Ann")["metal"] == metal + gain
    accepted(table, end_turn())
    accepted(table, {"cmd": "income", "player": "Bob", "override": "test"})
    accepted(table, end_turn())

    flow = flow_for(table, "Ann:L1-diplomacy")
    flow.choose("construction")
    assert flow.preview()[1] == "lobbies: Construct: level 0 -> 1, 1 GEM"
    accepted(table, flow.command())
    assert table.player("Ann")["diplomacy"]["construction"] == 1
    accepted(table, end_turn())
    accepted(table, {"cmd": "income", "player": "Bob", "override": "test"})
    accepted(table, end_turn())

    flow = flow_for(table, "Ann:L2-farm")
    assert flow.questions() == []
    food = table.player("Ann")["food"]
    accepted(table, flow.command())
    assert table.player("Ann")["food"] > food


def test_flows_offer_only_what_options_offers(table):
    table.put_sector("Ann", 101)
    table.set("Ann", gems=20, metal=5, food=2, water=2)
    for ship_id in table.state["ships"]:
        action = options(table.state, table.catalogue, ship=ship_id)["ship"]["action"]
        flow = flow_for(table, ship_id)
        kind = flow.ship["type"]
        if kind == "construction":
            assert [(c.value, c.allowed) for c in flow.sectors] == [
                (s["number"], s["allowed"]) for s in action["sectors"]]
        elif kind == "dismantle":
            assert [c.value for c in flow.targets] == [t["ship"] for t in action["dismantle"]]
        elif kind == "transport":
            assert [(c.value, c.allowed) for c in flow.aliens] == [
                (a.get("color", "gold"), a["allowed"]) for a in [*action["aliens"],
                                                                 action["gold"]]]
            assert [c.value for c in flow.trades] == action["trade"]["pay"]
        elif kind == "diplomacy":
            assert [(c.value, c.allowed) for c in flow.tracks] == [
                (t["track"], t["allowed"]) for t in action["tracks"]]


def test_diplomacy_bonus_prompts_in_turn_order(table):
    table.set("Ann", gems=30)
    table.set("Bob", gems=30)
    for _ in range(2):
        accepted(table, {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
                         "tracks": ["dismantle"]})
        accepted(table, end_turn())
        for name in ("Bob", "Ann", "Bob"):
            accepted(table, {"cmd": "income", "player": name, "override": "test"})
            accepted(table, end_turn())
    flow = flow_for(table, "Ann:L1-dismantle")
    (line,) = [line for line in flow.preview() if line.startswith("Diplomacy bonus for Ann")]
    assert line.endswith("(their choice)") and line.count(" or ") == 2
    flow.choose("Ann:L1-transport")
    accepted(table, flow.command())
    (prompt,) = bonus_prompts(table.state, table.catalogue)
    assert (prompt.player, prompt.track) == ("Ann", "dismantle")
    assert [c.value for c in prompt.choices] == [[0], [1], [2]]
    assert all(c.label and c.label != "?" for c in prompt.choices)
    gems = table.player("Ann")["gems"]
    accepted(table, prompt.command([1]))
    assert table.state["pending"] == [] and table.player("Ann")["gems"] >= gems
    with pytest.raises(FlowError, match="not on offer"):
        prompt.command([4])


def test_bonus_prompts_start_with_the_active_player(table):
    """Tied leaders each choose from the levels below: Bob, who acts, is asked first."""
    table.set("Ann", gems=30)
    table.set("Bob", gems=30)
    for _ in range(2):
        for name in ("Ann", "Bob"):
            accepted(table, {"cmd": "use_ship", "player": name, "ship": f"{name}:L1-diplomacy",
                             "tracks": ["dismantle"]})
            accepted(table, end_turn())
        for name in ("Ann", "Bob"):
            accepted(table, {"cmd": "income", "player": name, "override": "test"})
            accepted(table, end_turn())
    accepted(table, {"cmd": "income", "player": "Ann", "override": "test"})
    accepted(table, end_turn())
    flow = flow_for(table, "Bob:L1-dismantle")
    flow.choose("Bob:L1-transport")
    accepted(table, flow.command())
    prompts = bonus_prompts(table.state, table.catalogue)
    assert [(p.player, [c.value for c in p.choices]) for p in prompts] == [
        ("Bob", [[0], [1]]), ("Ann", [[0], [1]])]
    for prompt in prompts:
        accepted(table, prompt.command([0]))
    assert table.state["pending"] == []


def test_income_receipt_relocation_and_power(table):
    table.put_sector("Bob", 221, ["gold", "pink"])
    table.put_sector("Bob", 121)
    accepted(table, {"cmd": "income", "player": "Ann", "override": "test"})
    accepted(table, end_turn())
    table.set("Bob", gems=3)
    flow = income_flow(table.state, table.catalogue)
    assert flow.allowed and flow.reason is None
    ships = sum(1 for s in table.state["ships"].values() if s["owner"] == 1)
    assert flow.receipt() == [f"Hub B-5: 1 GEM x {ships} ships = {ships} GEMs",
                              "Sector 221 quarter 1 = 1 metal", "Sector 221 quarter 2 = 1 food",
                              f"Total: {ships} GEMs, 1 metal and 1 food"]
    (power,) = [n for n in flow.abilities.needs.values() if n["source"] == "B-5"]
    assert power["optional"] and "(not used)" in flow.abilities.lines()[0]
    with pytest.raises(FlowError, match="can go to"):
        flow.relocate(221, 0, 999)
    flow.relocate(221, 0, 121)
    assert flow.preview()[-1] == "moves the resident of 221 quarter 1 to 121: 1 GEM"
    flow.abilities.use("B-5")  # "During income, you may perform 1 transport transaction"
    assert flow.abilities.questions() == [("B-5", "bonus")]
    flow.abilities.give_bonus("B-5", [{"type": "trade", "pay": ["food", "water"],
                                       "gain": "metal"}])
    assert flow.abilities.questions() == []
    before = dict(table.player("Bob"))
    accepted(table, flow.command())
    bob = table.player("Bob")
    assert {s["number"]: s["residents"] for s in bob["sectors"]} == {221: ["pink"],
                                                                     121: ["gold"]}
    assert bob["gems"] == 3 + ships - 1
    assert (bob["metal"], bob["food"]) == (before["metal"] + 2, before["food"])


def test_a8_gains_a_human_then_takes_income(table_catalogue):
    """Hub A-8: "In lieu of a normal turn, you may pay 1 food, 1 water, and 1 metal to gain a Human,
    place it in living quarters on your station, and then take income"."""
    table = Table(table_catalogue, hubs=("A-8", "B-5"))
    table.setup_bonuses(Ann={"keep": ["L2-farm"]})
    table.put_sector("Ann", 101)
    table.set("Ann", gems=3, food=1, water=1, metal=1)
    flow = income_flow(table.state, table.catalogue)
    flow.gain_human_first()
    assert flow.command() == {"cmd": "human_then_income", "player": "Ann"}
    assert flow.preview()[0].startswith("Hub A-8: In lieu of a normal turn")
    humans = table.state["supply"]["human"]
    accepted(table, flow.command())
    assert table.state["supply"]["human"] == humans - 1
    assert (table.player("Ann")["food"], table.player("Ann")["metal"]) == (0, 0)


def test_refused_income_shows_the_rule_and_can_be_overridden(table):
    table.set("Ann", gems=9)
    flow = income_flow(table.state, table.catalogue)
    assert not flow.allowed and "7 GEMs or fewer" in flow.reason
    outcome = attempt(table.game, flow.command())
    assert outcome.step is None and outcome.refused.startswith("Income needs 7 GEMs or fewer")
    with pytest.raises(CommandError, match="needs a reason"):
        outcome.override("  ")
    accepted(table, outcome.override("Ann is stuck, the table agrees"))
    assert table.state["notes"][-1]["override"] == "Ann is stuck, the table agrees"
    accepted(table, undo())
    assert table.player("Ann")["gems"] == 9


def test_a_missing_value_becomes_a_question_from_an_example_game():
    """The documented route: an example replayed from an empty overlay up to Ann's first
    Expedition; the values the line would give are asked one by one and answered."""
    catalogue = load_catalogue()
    game = Game(catalogue)
    lines = list(parse(read_script(EXAMPLES / "two-players-first-game.jsonl")))
    line = next(i for i, line in enumerate(lines) if line.command["cmd"] == "use_ship")
    for earlier in lines[:line]:
        game.execute(earlier.command)
    flow = ship_flow(game.state, catalogue, "Ann:L3-expedition")
    assert flow.dice is None and flow.ship["cost"] is None
    # asked before the preview: the ship's cost first, then the other values printed on it
    key, question = flow.unknown()
    assert question == "What is the cost to use (GEMs) of the Terran Expedition L3 ship?"
    values = {}
    while (unknown := flow.unknown()) is not None:
        values[unknown[0]] = lines[line].command["catalogue"][unknown[0]]
        flow = ship_flow(game.state, catalogue, "Ann:L3-expedition", values)
    assert flow.dice == 7
    assert flow.preview()[0] == f"Ann puts {values[key]} GEMs on Terran Expedition L3"
    # on the action screen: the value's panel (its card opens at once), then the dice
    model = ActionModel(partial(ship_flow, game.state, catalogue, "Ann:L3-expedition"))
    assert model.panel().asks == (key, question)
    for given_key, value in values.items():
        model.give(given_key, value)
    assert model.panel().title == "Ann uses Terran Expedition L3: Roll 7 · keep 5"
    flow.read(TappedDice({"human": 7}))
    flow.keep("human", 1)
    flow.choose_kept()
    flow.recruit(0)
    given = lines[line].command["catalogue"]
    command, asked = flow.command(), []
    while (outcome := attempt(game, command)).step is None:
        assert outcome.refused is None, outcome.refused
        asked.append(outcome.key)
        command = outcome.answer(given[outcome.key])
    assert sorted(outcome.command["catalogue"]) == sorted(given)
    assert set(values) <= set(given) and not set(values) & set(asked)
    assert game.state["players"][0]["points"] == 1


def test_the_neutral_diplomacy_ships_tracks_are_asked_before_the_tracks_are_chosen():
    """The neutral Diplomacy ship's card prints how many tracks it advances on: from an empty
    overlay, its cost and then that number are asked before any track, and the tracks' panel
    then says how many may be chosen."""
    catalogue = load_catalogue()
    game = Game(catalogue)
    lines = list(parse(read_script(EXAMPLES / "two-players-first-game.jsonl")))
    for line in lines[:next(i for i, line in enumerate(lines)
                            if line.command["cmd"] == "use_ship")]:
        game.execute(line.command)
    model = ActionModel(partial(ship_flow, game.state, catalogue, "neutral:diplomacy"))
    asked = []
    while (panel := model.panel()).asks is not None:
        key, _question = panel.asks
        asked.append(key)
        model.give(key, 1)
    assert asked == ["ships/neutral-diplomacy/cost", "ships/neutral-diplomacy/tracks"]
    assert panel.title == "Ann uses the neutral Diplomacy: lobby on which track (up to 1)?"


def test_a_bonus_level_the_catalogue_lacks_is_offered_and_asked_when_chosen():
    """The 3-player draft example to Cat's Expedition on turn 30: Bob, on the Expedition
    track, may take level 3, which no line of the example gives; its button says it is
    unknown, and choosing it asks the engine's question, answered like a ship's value."""
    catalogue = load_catalogue()
    game = Game(catalogue)
    for line in list(parse(read_script(EXAMPLES / "three-players-draft.jsonl")))[:95]:
        game.execute(line.command)
    expedition = {"cmd": "use_ship", "player": "Cat", "ship": "Cat:L1-expedition",
                        "rolled": ["food", "water", "metal", "human", "human", "food"],
                        "keep": ["food", "metal", "human", "human"],
                        "humans": ["observe", "observe"]}
    assert attempt(game, expedition).step is not None
    (prompt,) = bonus_prompts(game.state, catalogue)
    assert [c.label for c in prompt.choices] == ["1 GEM", "2 GEMs", "1 point",
                                                  "level 3 (asked when chosen)"]
    points = game.state["players"][1]["points"]
    outcome = attempt(game, prompt.command([3]))
    assert outcome.step is None and outcome.refused is None
    assert outcome.question == "What does level 3 of the Expedition Diplomacy track give?"
    assert attempt(game, outcome.answer({"points": 2})).step is not None
    assert game.state["players"][1]["points"] == points + 2
    assert game.state["pending"] == []


def test_adjust_any_counter_with_a_note(table):
    with pytest.raises(CommandError, match="note"):
        adjust("Ann", "gems", " ", delta=1)
    with pytest.raises(CommandError, match="counts"):
        adjust("supply", "gems", "why", delta=1)
    gems = table.player("Ann")["gems"]
    accepted(table, adjust("Ann", "gems", "a GEM under the board", delta=1))
    accepted(table, adjust("supply", "teal", "one fell on the floor", value=0))
    assert (table.player("Ann")["gems"], table.state["supply"]["teal"]) == (gems + 1, 0)


def test_hub_power_b6(table_catalogue):
    """Hub B-6: "At any time, you may spend 1 point to gain 4 GEMs.\""""
    table = Table(table_catalogue, hubs=("B-6", "B-5"))
    table.setup_bonuses(Ann={"sectors": [113]})
    table.set("Ann", points=2, gems=0)
    (power,) = [f for f in hub_power_flows(table.state, table.catalogue) if f.player == "Ann"]
    assert power.power.allowed, power.power.reason
    assert power.power.label.startswith("Hub B-6: At any time, you may spend 1 point")
    accepted(table, power.command())
    assert (table.player("Ann")["points"], table.player("Ann")["gems"]) == (1, 4)
