"""Every Station Hub and Sector ability of the reference guide, at its trigger, one test each.

Each case: a scene (Ann's Hub, her Sectors with settled residents, her counters), a command, and
the change it must make. The rule text is the reference guide's, checked against the catalogue.
Test values for unprinted numbers are in conftest.py (Level-1 ships cost 2, Level-2 ships 3, the
owner's fee 1, Sectors 3/6/9 metal with level+1 quarters, Hubs pay 1 GEM per ship).
"""

from __future__ import annotations

import pytest
from tables import Table

from companion.rules import abilities
from companion.rules.effects import KINDS
from companion.rules.move import Refused

RICH = {"gems": 30, "food": 6, "water": 6, "metal": 6, "points": 0}
SHIPS = {3: ["L3-construction", "L3-expedition"], 2: ["L2-transport", "L2-dismantle"]}


def scene(catalogue, hub="B-3", sectors=(), setup=None, **counters):
    """Ann (with `hub`) to play, with `sectors` [(number, residents)] settled."""
    table = Table(catalogue, hubs=(hub, "B-5" if hub != "B-5" else "B-3"), ships=SHIPS)
    table.setup_bonuses(**({"Ann": setup} if setup else {}))
    for number, residents in sectors:
        table.put_sector("Ann", number, residents)
    table.set("Ann", **{**RICH, **counters})
    return table


def change(table, command, name="Ann"):
    """Run a command; return how Ann's counters changed."""
    before = {k: table.player(name)[k] for k in RICH}
    table.run(command)
    return {k: table.player(name)[k] - before[k] for k in RICH
            if table.player(name)[k] != before[k]}


def ability_text(catalogue, source):
    component = catalogue.hubs[source] if "-" in source else catalogue.sectors[int(source)]
    return " ".join(a.text for a in component.abilities)


def use(ship, **details):
    return {"cmd": "use_ship", "player": "Ann", "ship": ship, **details}


DISMANTLE = use("Ann:L1-dismantle", dismantle="Ann:L1-transport")  # 6 metal, ship cost 2
TRANSPORT = use("Ann:L1-transport", transactions=[{"type": "buy", "gain": "food"}])
EXPEDITION = use("Ann:L1-expedition", rolled=["food"] * 6, keep=["food"])
DIPLOMACY = use("Ann:L1-diplomacy", tracks=["transport"])  # 3 GEMs + 1 lobbying
INCOME = {"cmd": "income", "player": "Ann"}


# -- simple gains on a ship action ----------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "sectors", "command", "expected", "words"),
    [
        ("B-2", [], DISMANTLE, {"gems": -2, "metal": 7, "food": 1, "water": 1},
         "When using a Dismantle ship, gain 1 extra metal, food, and water."),
        ("104", [(104, ["gold"])], DISMANTLE, {"gems": -2, "metal": 9},
         "When using a Dismantle ship, gain 3 metal."),
        ("212", [(111, []), (212, ["gold"])], DISMANTLE, {"gems": -2, "metal": 8},
         "When using a Dismantle ship, gain 2 extra metal."),
        ("304", [(104, []), (204, []), (304, ["gold"])], DISMANTLE, {"gems": -2, "metal": 9},
         "When using a Dismantle ship, gain 3 extra metal."),
        ("312", [(112, []), (212, []), (312, ["gold"])], DISMANTLE,
         {"gems": -2, "metal": 6, "food": 1, "water": 1},
         "When using a Dismantle ship, gain 1 food and 1 water."),
        ("105", [(105, ["gold"])], EXPEDITION, {"gems": -1, "food": 1},
         "When using an Expedition ship, gain 2 GEMs."),
        ("321", [(121, []), (221, []), (321, ["gold"])], EXPEDITION,
         {"gems": -3, "food": 2, "water": 1},
         "When using an Expedition ship, gain 1 food and 1 water."),
        ("107", [(107, ["gold"])], TRANSPORT, {"gems": -3, "food": 1},
         "When using a Transport ship, gain 2 GEMs."),
        ("116", [(116, ["gold"])], TRANSPORT, {"gems": -5, "food": 1, "points": 1},
         "When using a Transport ship, gain 1 point."),
        ("324", [(124, []), (224, []), (324, ["gold"])], TRANSPORT,
         {"gems": -5, "food": 2, "water": 1},
         "When using a Transport ship, you get one food and one water."),
        ("328", [(128, []), (228, []), (328, ["gold"])], TRANSPORT,
         {"gems": -5, "food": 1, "metal": 1},
         "When using a Transport ship, gain 1 metal."),
        ("A-7", [], DIPLOMACY, {"gems": -4, "points": 1},
         "Each time you use a Diplomacy ship, you gain 1 point"),
    ],
)
def test_gain_on_ship_action(table_catalogue, source, sectors, command, expected, words):
    hub = source if "-" in source else "B-5"
    setup = {"A-7": {"diplomacy": {"transport": 2}},
             "B-2": {"keep": ["L2-farm", "L2-transport"]}}.get(hub)
    table = scene(table_catalogue, hub=hub, sectors=sectors, setup=setup)
    assert words in ability_text(table_catalogue, source)
    if hub == "A-7":
        table.player("Ann")["diplomacy"]["transport"] = 0
    assert change(table, command) == expected


def test_125_food_or_water_on_dismantle(table_catalogue):
    """125: "When using a Dismantle ship, gain 1 food or 1 water.\""""
    table = scene(table_catalogue, "B-5", [(125, ["gold"])])
    with pytest.raises(Refused, match="which one"):
        table.run(DISMANTLE)
    assert change(table, {**DISMANTLE, "choices": {"125": "water"}}) == {
        "gems": -2, "metal": 6, "water": 1}


def test_122_points_on_construction(table_catalogue):
    """122: "When using a Construction ship, gain 2 points.\""""
    table = scene(table_catalogue, "B-5", [(122, ["gold"])])
    assert change(table, use("Ann:L1-construction", sector=101)) == {
        "gems": -2, "metal": -3, "points": 2}


def test_112_any_resource_on_diplomacy(table_catalogue):
    """112: "When using a Diplomacy ship, gain one of any resource.\""""
    table = scene(table_catalogue, "B-5", [(112, ["gold"])])
    assert change(table, {**DIPLOMACY, "choices": {"112": "metal"}}) == {"gems": -4, "metal": 1}


# -- changes to an action -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "sectors", "price"),
    [("211", [(111, []), (211, ["gold"])], 6 - 1),
     ("326", [(121, []), (221, []), (326, ["gold"])], 6 - 2),
     ("A-6", [], 6 - 1), ("A-12", [], 6 - 1)],
)
def test_build_discounts(table_catalogue, source, sectors, price):
    """211: "pay 1 fewer metal"; 326: "your cost is reduced by 2 metal"; A-6: "All construction
    actions may be completed at a discount of 1 metal"; A-12: "pay 1 less metal"."""
    hub = source if "-" in source else "B-5"
    setup = {"A-6": {"private_sectors": [105, 106, 107, 115, 116, 117, 205, 206, 207]},
             "A-12": {"diplomacy": {"transport": 2}}}.get(hub)
    table = scene(table_catalogue, hub, [*sectors, (102, [])], setup=setup)
    assert change(table, use("Ann:L1-construction", sector=202))["metal"] == -price


def test_a6_private_sectors(table_catalogue):
    """A-6: "When performing a construction action, you can build from these, but other players
    cannot.\""""
    private = [105, 106, 107, 115, 116, 117, 205, 206, 207]
    table = scene(table_catalogue, "A-6", setup={"private_sectors": private})
    table.run(use("Ann:L1-construction", sector=105))
    assert table.player("Ann")["private_sectors"] == private[1:]
    table.end_turn()
    table.set("Bob", metal=10)
    with pytest.raises(Refused, match="not on display"):
        table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L1-construction",
                   "sector": 106})


@pytest.mark.parametrize(
    ("source", "sectors", "limit"),
    [("214", [(111, []), (214, ["gold"])], 4), ("A-4", [], 4), ("A-12", [], 4),
     ("B-3", [], 3)],
)
def test_extra_transactions(table_catalogue, source, sectors, limit):
    """214: "get +1 transaction"; A-4: "you get +1 to the normal number of transactions";
    A-12: "get +1 transaction". (Test value: a Level-1 Transport ship makes 3.)"""
    hub = source if "-" in source else "B-5"
    setup = {"A-4": {"discard": ["Ann:L1-diplomacy"]},
             "A-12": {"diplomacy": {"transport": 2}}}.get(hub)
    table = scene(table_catalogue, hub, sectors, setup=setup)
    buys = [{"type": "buy", "gain": "food"}]
    with pytest.raises(Refused, match=f"1 to {limit}"):
        table.run(use("Ann:L1-transport", transactions=buys * (limit + 1)))
    assert change(table, use("Ann:L1-transport", transactions=buys * limit))["food"] == limit


@pytest.mark.parametrize(
    ("source", "sectors", "dice", "keep"),
    [("124", [(124, ["gold"])], 7, 4), ("327", [(121, []), (221, []), (327, ["gold"])], 8, 4),
     ("204", [(104, []), (204, ["gold"])], 6, 5), ("314", [(114, []), (214, []),
                                                            (314, ["gold"])], 6, 5),
     ("A-8", [], 7, 5), ("A-10", [], 7, 5), ("A-12", [], 6, 5)],
)
def test_expedition_dice_and_capacity(table_catalogue, source, sectors, dice, keep):
    """124: "roll 1 extra die"; 327: "roll 2 extra dice"; 204 and 314: "increase capacity by
    1"; A-8 and A-10: "roll 1 extra die and select one additional die to keep"; A-12: "increase
    capacity by 1". (The Level-1 ship: duration 6, capacity 4.)"""
    hub = source if "-" in source else "B-5"
    setup = {"A-8": {"keep": ["L2-farm"]}, "A-12": {"diplomacy": {"transport": 2}}}.get(hub)
    table = scene(table_catalogue, hub, sectors, setup=setup)
    with pytest.raises(Refused, match=f"roll {dice} dice"):
        table.run(use("Ann:L1-expedition", rolled=["food"] * (dice - 1), keep=["food"]))
    with pytest.raises(Refused, match=f"keep 1 to {keep}"):
        table.run(use("Ann:L1-expedition", rolled=["food"] * dice, keep=["food"] * (keep + 1)))
    assert change(table, use("Ann:L1-expedition", rolled=["water"] * dice,
                             keep=["water"] * keep))["water"] == keep


@pytest.mark.parametrize(("source", "sectors", "rerolls"),
                         [("B-4", [], 1), ("315", [(115, []), (215, []), (315, ["gold"])], 1),
                          ("B-3", [], 0)])
def test_rerolls(table_catalogue, source, sectors, rerolls):
    """B-4: "you may reroll any number of dice once"; 315: "See Hub B-4. If you have both, you
    can reroll twice.\""""
    hub = source if "-" in source else "B-5"
    table = scene(table_catalogue, hub, sectors)
    with pytest.raises(Refused, match=f"reroll {rerolls} time"):
        table.run({**EXPEDITION, "rerolls": rerolls + 1})
    table.run({**EXPEDITION, "rerolls": rerolls})


@pytest.mark.parametrize(("source", "sectors"), [("215", [(111, []), (215, ["gold"])]),
                                                 ("A-10", [])])
def test_human_discount(table_catalogue, source, sectors):
    """215: "When gaining Humans, pay 1 fewer resource"; A-10: "Whenever gaining a Human, pay 1
    less resource (not GEMs—GEMs are not a resource) than the normal cost.\""""
    hub = source if "-" in source else "B-5"
    table = scene(table_catalogue, hub, [*sectors, (101, [])])
    dice = 7 if hub == "A-10" else 6
    delta = change(table, use("Ann:L1-expedition", rolled=["human"] * dice, keep=["human"],
                              humans=["recruit"], human_cost_skip=["food"],
                              where={"human": 101}))
    assert delta == {"gems": -3 + (1 if hub == "A-10" else 0), "metal": -1, "water": -1}


# -- gaining residents ----------------------------------------------------------------------


def test_b1_and_227_alien_of_the_built_colour(table_catalogue):
    """B-1: "When constructing, gain an Alien of the same color"; 227: "When constructing, gain
    an Alien of the same color as the Sector you build.\""""
    table = scene(table_catalogue, "B-1", [(111, []), (227, ["gold"])])
    table.run(use("Ann:L1-construction", sector=211, where={"B-1": 211, "227": 211}))
    sector = next(s for s in table.player("Ann")["sectors"] if s["number"] == 211)
    assert sector["residents"] == ["brown", "brown"]


def test_b1_no_alien_of_that_colour_left(table_catalogue):
    """B-1: "If there are no Aliens of the appropriate color, do not gain any.\""""
    table = scene(table_catalogue, "B-1")
    table.run({"cmd": "adjust", "who": "supply", "counter": "teal", "value": 0, "note": "scene"})
    table.run(use("Ann:L1-construction", sector=101))
    assert table.player("Ann")["sectors"][0]["residents"] == []


@pytest.mark.parametrize(("source", "sectors", "species"), [
    ("B-3", [], "pink"), ("325", [(125, []), (225, []), (325, ["gold"])], "gold")])
def test_free_alien_on_transport(table_catalogue, source, sectors, species):
    """B-3: "When using a Transport ship, gain 1 free Alien of any color. This does not count as
    one of your transactions." 325: "gain an Alien without paying any cost. This may be any
    color, including gold.\""""
    hub = source if "-" in source else "B-5"
    table = scene(table_catalogue, hub, [*sectors, (121, [])])
    table.run({**TRANSPORT, "choices": {source: species}, "where": {source: 121}})
    placed = [r for s in table.player("Ann")["sectors"] for r in s["residents"]]
    assert placed.count(species) == 1 + (species == "gold")


def test_303_free_human_on_transport(table_catalogue):
    """303: "When using a Transport ship, gain 1 Human for free.\""""
    table = scene(table_catalogue, "B-5", [(103, []), (203, []), (303, ["gold"])])
    delta = change(table, {**TRANSPORT, "where": {"303": 303}})
    assert delta == {"gems": -5, "food": 1}
    assert table.player("Ann")["sectors"][2]["residents"] == ["gold", "human"]


def test_207_extra_alien_after_three_of_one_colour(table_catalogue):
    """207: "When using a Transport ship to gain at least 3 Aliens of a single color, gain an
    extra one of the same color without paying resources for it.\""""
    table = scene(table_catalogue, "B-5", [(101, []), (207, ["gold"]), (301, [])], food=9,
                  water=9)
    aliens = [{"type": "alien", "color": "teal", "where": w} for w in (101, 101, 301)]
    table.run(use("Ann:L2-transport", transactions=aliens, where={"207": 301}))
    assert sum(s["residents"].count("teal") for s in table.player("Ann")["sectors"]) == 4


@pytest.mark.parametrize(("source", "sectors"), [("B-12", []),
                                                 ("318", [(118, []), (218, []),
                                                          (318, ["gold"])])])
def test_human_on_diplomacy(table_catalogue, source, sectors):
    """B-12: "When using a Diplomacy ship, gain 1 Human." 318: the same."""
    hub = source if "-" in source else "B-5"
    table = scene(table_catalogue, hub, [*sectors, (101, [])])
    table.run({**DIPLOMACY, "where": {source: 101}})
    assert table.player("Ann")["sectors"][-1]["residents"] == ["human"]


@pytest.mark.parametrize(("source", "species", "words"), [
    ("106", "teal", "When gaining an Alien, gain 1 GEM."),
    ("115", "human", "When gaining a Human, gain 1 point."),
    ("126", "human", "When gaining a Human, gain 2 GEMs."),
])
def test_when_gaining_a_resident(table_catalogue, source, species, words):
    """106 / 115 / 126: "It does not matter how the ... is gained\""""
    table = scene(table_catalogue, "B-5", [(int(source), ["gold"]), (101, [])])
    assert words in ability_text(table_catalogue, source)
    if species == "human":
        command = use("Ann:L1-expedition", rolled=["human"] * 6, keep=["human"],
                      humans=["recruit"], where={"human": 101})
        base = {"gems": -3, "food": -1, "water": -1, "metal": -1}
    else:
        command = use("Ann:L1-transport", transactions=[{"type": "alien", "color": "teal",
                                                         "where": 101}])
        base = {"gems": -2, "food": -1, "water": -1}
    reward = {"106": {"gems": 1}, "115": {"points": 1}, "126": {"gems": 2}}[source]
    expected = {k: base.get(k, 0) + reward.get(k, 0) for k in {*base, *reward}}
    assert change(table, command) == {k: v for k, v in expected.items() if v}


def test_217_resource_when_gaining_a_human(table_catalogue):
    """217: "Whenever you gain a Human, gain 1 resource of your choice (after paying the cost to
    gain the Human).\""""
    table = scene(table_catalogue, "B-5", [(117, []), (217, ["gold"]), (101, [])])
    delta = change(table, use("Ann:L1-expedition", rolled=["human"] * 6, keep=["human"],
                              humans=["recruit"], where={"human": 101},
                              choices={"217": "metal"}))
    assert delta == {"gems": -3, "food": -1, "water": -1}


def test_108_teal_sectors_take_any_alien(table_catalogue):
    """108: "Once the living quarters here are occupied, your teal Sectors can hold Aliens of any
    color (they can intermingle).\""""
    table = scene(table_catalogue, "B-5", [(108, ["gold"]), (201, [])])
    table.run(use("Ann:L1-transport", transactions=[{"type": "alien", "color": "brown",
                                                     "where": 201}]))
    assert table.player("Ann")["sectors"][1]["residents"] == ["brown"]


# -- bonus actions --------------------------------------------------------------------------


def test_117_extra_diplomacy_action(table_catalogue):
    """117: "If using a Diplomacy ship, you may pay 3 GEMs to the supply to take one additional
    Diplomacy action. You must pay the additional lobbying cost for the second action\""""
    table = scene(table_catalogue, "B-5", [(117, ["gold"])])
    delta = change(table, {**DIPLOMACY, "use": ["117"], "bonus": {"117": ["dismantle"]}})
    assert delta == {"gems": -3 - 1 - 3 - 1}
    assert table.player("Ann")["diplomacy"]["dismantle"] == 1


def test_306_free_advance_on_transport(table_catalogue):
    """306: "Whenever you use a Transport ship, you may advance a Diplomacy marker one space
    without paying any cost.\""""
    table = scene(table_catalogue, "B-5", [(106, []), (206, []), (306, ["gold"])])
    assert change(table, {**TRANSPORT, "use": ["306"], "bonus": {"306": ["expedition"]}}) == {
        "gems": -5, "food": 1}
    assert table.player("Ann")["diplomacy"]["expedition"] == 1


def test_118_buy_metal_for_two_gems(table_catalogue):
    """118: "When using a Transport ship, you may pay 2 GEMs to gain 1 metal.\""""
    table = scene(table_catalogue, "B-5", [(118, ["gold"])])
    assert change(table, {**TRANSPORT, "use": ["118"]}) == {"gems": -7, "food": 1, "metal": 1}


def test_206_transaction_after_diplomacy(table_catalogue):
    """206: "When using a Diplomacy ship, you may perform one transport transaction.\""""
    table = scene(table_catalogue, "B-5", [(106, []), (206, ["gold"])])
    delta = change(table, {**DIPLOMACY, "use": ["206"],
                           "bonus": {"206": [{"type": "buy", "gain": "water"}]}})
    assert delta == {"gems": -7, "water": 1}


def test_322_human_for_four_gems(table_catalogue):
    """322: "When using an Expedition ship, you may pay 4 GEMs to gain a Human.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (221, []), (322, ["gold"])])
    table.run({**EXPEDITION, "use": ["322"], "where": {"322": 322}})
    assert table.player("Ann")["gems"] == 30 - 3 - 4
    assert table.player("Ann")["sectors"][2]["residents"] == ["gold", "human"]


def test_bonus_actions_do_not_trigger_ship_bonuses(table_catalogue):
    """"if Dan has Station Hub A-3, after using an Expedition ship, he gets a free transport
    action. Even if he also has Sector 324, he does not then get a free food + water. Similarly,
    all players who have advanced on the Expedition Diplomacy track would gain from the
    Expedition track, but not the Transport track.\""""
    table = scene(table_catalogue, "A-3", [(124, []), (224, []), (324, ["gold"])])
    for p in table.state["players"]:
        p["diplomacy"]["transport"] = 1
    delta = change(table, {**EXPEDITION, "use": ["A-3"],
                           "bonus": {"A-3": [{"type": "buy", "gain": "metal"}]}})
    assert delta == {"gems": -6, "food": 1, "metal": 1}
    assert table.state["pending"] == []
    assert table.player("Bob")["gems"] == 9  # no Transport bonus for Bob either


def test_a3_roll_after_transport(table_catalogue):
    """A-3: "When using a Transport ship, after completing the action, you may roll 3 Expedition
    dice and keep 2.\""""
    table = scene(table_catalogue, "A-3")
    delta = change(table, {**TRANSPORT, "use": ["A-3"], "bonus": {"A-3": {
        "rolled": ["metal", "metal", "food"], "keep": ["metal", "metal"]}}})
    assert delta == {"gems": -5, "food": 1, "metal": 2}


# -- Level-3 "when built" -------------------------------------------------------------------


def build(table, number, **details):
    table.state["display"].append(number)
    table.set("Ann", metal=9)
    return change(table, use("Ann:L1-construction", sector=number, **details))


WINGS = {"teal": [(101, []), (201, [])], "brown": [(111, []), (211, [])],
         "pink": [(121, []), (221, [])]}


@pytest.mark.parametrize(("number", "points"), [(302, 5), (313, 5), (317, 10)])
def test_built_points(table_catalogue, number, points):
    """302 / 313: "When built, immediately gain 5 points." 317: "... gain 10 points.\""""
    color = table_catalogue.sectors[number].color
    table = scene(table_catalogue, "B-5", WINGS[color])
    assert build(table, number) == {"gems": -2, "metal": -9, "points": points}


@pytest.mark.parametrize(("number", "species", "count"),
                         [(311, "brown", 2), (324, "pink", 2), (307, "human", 1),
                          (318, "human", 1)])
def test_built_residents(table_catalogue, number, species, count):
    """311: "immediately gain 2 brown Aliens"; 324: "immediately gain 2 pink Aliens"; 307 / 318:
    "immediately gain 1 Human". "No residents are required to activate immediate bonus
    actions!\""""
    color = table_catalogue.sectors[number].color
    table = scene(table_catalogue, "B-5", WINGS[color])
    build(table, number, where={str(number): number})
    assert table.player("Ann")["sectors"][-1]["residents"] == [species] * count


def test_328_advances_all_four_tracks_free(table_catalogue):
    """328: "When built, immediately advance all four of your Diplomacy markers one space for
    free.\""""
    table = scene(table_catalogue, "B-5", WINGS["pink"])
    delta = build(table, 328)
    assert delta == {"gems": -2, "metal": -9}
    assert set(table.player("Ann")["diplomacy"].values()) == {1}


def test_321_rolls_seven_keeps_five(table_catalogue):
    """321: "When built, immediately roll 7 dice and select 5 to keep. Do not apply any bonuses
    for Expeditions and do not trigger Diplomacy bonuses.\""""
    table = scene(table_catalogue, "B-5", WINGS["pink"])
    for p in table.state["players"]:
        p["diplomacy"]["expedition"] = 2
    delta = build(table, 321, bonus={"321": {"rolled": ["water"] * 7, "keep": ["water"] * 5}})
    assert delta == {"gems": -2, "metal": -9, "water": 5}
    assert [p["track"] for p in table.state["pending"]] == []


def test_326_free_level1_sector(table_catalogue):
    """326: "When built, immediately gain a free Level-1 Sector of any color.\""""
    table = scene(table_catalogue, "B-5", WINGS["pink"])
    build(table, 326, bonus={"326": 102})
    assert [s["number"] for s in table.player("Ann")["sectors"]][-1] == 102


def test_301_extra_turn_and_transaction_after_expedition(table_catalogue):
    """301: "When built, immediately take an additional turn before the next player's turn. When
    using an Expedition ship, after the Expedition action, you may do 1 transport transaction.\""""
    table = scene(table_catalogue, "B-5", WINGS["teal"])
    build(table, 301)
    assert table.state["turn"]["extra_turns"] == 1


# -- income powers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "sectors", "command", "expected"),
    [
        ("B-4", [(102, ["human", "human"]), (202, ["human", "human", "human"])], INCOME,
         {"gems": 9 + 2}),
        ("B-6", [], INCOME, {"gems": 8, "points": 1}),
        ("B-7", [(111, ["brown", "brown"]), (211, ["brown", "brown", "brown"])], INCOME,
         {"gems": 9, "water": 1}),
        ("B-9", [(102, ["teal", "teal"]), (202, ["teal", "teal", "teal"])], INCOME,
         {"gems": 9, "food": 1}),
        ("B-10", [(123, ["pink", "pink"]), (223, ["pink", "pink", "pink"])], INCOME,
         {"gems": 9 + 2}),
        ("A-2", [], INCOME, {"gems": 9 + 3}),
        ("308", [(102, []), (202, []), (308, ["human", "human", "human"])], INCOME,
         {"gems": 9 + 1}),
    ],
)
def test_income_powers(table_catalogue, source, sectors, command, expected):
    """B-4: "gain an extra GEM for every 2 Humans"; B-6: "During income, gain 1 point."; B-7:
    "1 water for every 4 brown Aliens"; B-9: "1 food for every 4 teal Aliens"; B-10: "1 GEM for
    every 2 pink Aliens"; A-2: "gain an extra 3 GEMs"; 308: "1 GEM for every 2 Humans"."""
    hub = source if "-" in source else "B-5"
    setup = {"B-6": {"discard": [], "sectors": [113]},
             "B-7": {"sectors": [113]}, "B-9": {"sectors": [103]},
             "B-10": {"sectors": [123]}}.get(hub)
    table = scene(table_catalogue, hub, sectors, setup=setup, gems=0)
    assert change(table, command) == expected


@pytest.mark.parametrize(("source", "sector"), [("B-8", None), ("101", 101)])
def test_income_food_or_water(table_catalogue, source, sector):
    """B-8 / 101: "During income, gain 1 food or 1 water.\""""
    hub = source if "-" in source else "B-5"
    setup = {"sectors": [102]} if hub == "B-8" else None
    table = scene(table_catalogue, hub, [(sector, ["gold"])] if sector else [], setup=setup,
                  gems=0)
    with pytest.raises(Refused, match="which one"):
        table.run(INCOME)
    assert change(table, {**INCOME, "choices": {source: "water"}})["water"] == 1


def test_226_points_for_high_diplomacy(table_catalogue):
    """226: "count the number of your tokens in the level-3 row or higher on the Diplomacy
    tracks. Subtract 1 from that number. Gain this number of points. For example, if you have 3
    markers at the "Any 2 Unique" level, you gain 2 points.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (226, ["gold"])], gems=0)
    table.player("Ann")["diplomacy"].update(dismantle=4, construction=4, transport=4)
    assert change(table, INCOME)["points"] == 2


def test_218_and_b5_transaction_at_income(table_catalogue):
    """218 and B-5: "During income, you may perform 1 transport transaction.\""""
    table = scene(table_catalogue, "B-5", [(111, []), (218, ["gold"])], gems=5)
    delta = change(table, {**INCOME, "use": ["B-5", "218"],
                           "bonus": {"B-5": [{"type": "buy", "gain": "metal"}],
                                     "218": [{"type": "trade", "pay": ["food", "water"],
                                              "gain": "metal"}]}})
    assert delta == {"gems": 9 - 3, "metal": 2, "food": -1, "water": -1}


def test_222_human_for_six_gems_at_income(table_catalogue):
    """222: "During income, you may pay 6 GEMs to gain 1 Human. You can only do this once per
    action.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (222, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["222"], "where": {"222": 222}})
    assert delta == {"gems": 9 - 6}
    assert table.player("Ann")["sectors"][1]["residents"] == ["gold", "human"]


def test_228_two_resources_for_four_gems_at_income(table_catalogue):
    """228: "During income, you may spend 4 GEMs to gain 2 resources of your choice.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (228, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["228"], "choices": {"228": ["food", "metal"]}})
    assert delta == {"gems": 9 - 4, "food": 1, "metal": 1}


def test_225_expedition_at_income(table_catalogue):
    """225: "During income, do an Expedition action, rolling 2 dice and keeping 1.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (225, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "bonus": {"225": {"rolled": ["metal", "food"],
                                                       "keep": ["metal"]}}})
    assert delta == {"gems": 9, "metal": 1}


def test_128_exchange_at_income(table_catalogue):
    """128: "When gaining income, you may exchange 1 resource for another resource (once per
    Income action).\""""
    table = scene(table_catalogue, "B-5", [(128, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["128"],
                           "choices": {"128:pay": "food", "128": "metal"}})
    assert delta == {"gems": 9, "food": -1, "metal": 1}


def test_307_human_for_two_resources_at_income(table_catalogue):
    """307: "During income, you may pay any 2 resources to gain 1 Human.\""""
    table = scene(table_catalogue, "B-5", [(121, []), (221, []), (307, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["307"], "choices": {"307:pay": ["food", "water"]},
                           "where": {"307": 307}})
    assert delta == {"gems": 9, "food": -1, "water": -1}


def test_a7_diplomacy_at_income(table_catalogue):
    """A-7: "During income, you may perform a Diplomacy action (move up on a Diplomacy track by
    paying the lobbying cost).\""""
    table = scene(table_catalogue, "A-7", setup={"diplomacy": {"dismantle": 1, "transport": 1}},
                  gems=0)
    delta = change(table, {**INCOME, "use": ["A-7"], "bonus": {"A-7": ["transport"]}})
    assert delta == {"gems": 9 - 2}
    assert table.player("Ann")["diplomacy"]["transport"] == 2


def test_a12_returns_something_or_loses_five(table_catalogue):
    """A-12: "At the end of each income phase, return one Alien, one Human, or one Sector to the
    supply. If you are unable to do so, lose 5 points immediately, going negative if
    necessary.\""""
    table = scene(table_catalogue, "A-12", setup={"diplomacy": {"transport": 2}}, gems=0)
    assert change(table, {**INCOME, "bonus": {"A-12": {"none": True}}})["points"] == -5
    table.run({"cmd": "undo"})
    table.put_sector("Ann", 102, ["teal"])
    with pytest.raises(Refused, match="has something to return"):
        table.run({**INCOME, "bonus": {"A-12": {"none": True}}})
    teal = table.state["supply"]["teal"]
    table.run({**INCOME, "bonus": {"A-12": {"resident": {"from": 102, "slot": 0}}}})
    assert table.state["supply"]["teal"] == teal + 1


def test_a11_hub_residents_move_out(table_catalogue):
    """A-11: "The first five times you take an income action, after you complete your income, you
    must move one of these five residents from your Hub onto a legal Sector for no cost.\""""
    table = scene(table_catalogue, "A-11", [(101, [])], gems=0)
    assert table.player("Ann")["hub_slots"] == ["brown", "pink", "teal", "gold", "human"]
    table.run({**INCOME, "bonus": {"A-11": {"slot": 2, "to": 101}}})
    assert table.player("Ann")["hub_slots"] == ["brown", "pink", None, "gold", "human"]
    assert table.player("Ann")["sectors"][0]["residents"] == ["teal"]


# -- outside the main action ----------------------------------------------------------------


def test_b6_sells_points(table_catalogue):
    """B-6: "At any time, you may spend 1 point to gain 4 GEMs. You can do this multiple times
    per turn.\""""
    table = scene(table_catalogue, "B-6", setup={"sectors": [113]}, points=2)
    for _ in range(2):
        assert change(table, {"cmd": "hub_power", "player": "Ann", "source": "B-6"}) == {
            "points": -1, "gems": 4}
    with pytest.raises(Refused, match="has none"):
        table.run({"cmd": "hub_power", "player": "Ann", "source": "B-6"})


def test_a1_converts_metal_once_per_turn(table_catalogue):
    """A-1: "On each turn (before or after your main action), you may convert 1 metal into 1
    food or 1 water.\""""
    table = scene(table_catalogue, "A-1", setup={"keep": ["L2-farm"]})
    command = {"cmd": "hub_power", "player": "Ann", "source": "A-1", "choices": {"A-1": "water"}}
    assert change(table, command) == {"metal": -1, "water": 1}
    with pytest.raises(Refused, match="once per turn"):
        table.run(command)


def test_a8_human_then_income(table_catalogue):
    """A-8: "In lieu of a normal turn, you may pay 1 food, 1 water, and 1 metal to gain a Human,
    place it in living quarters on your station, and then take income\""""
    table = scene(table_catalogue, "A-8", [(101, [])], setup={"keep": ["L2-farm"]}, gems=0)
    delta = change(table, {"cmd": "human_then_income", "player": "Ann"})
    assert delta == {"food": -1, "water": -1, "metal": -1, "gems": 10}
    assert table.player("Ann")["sectors"][0]["residents"] == ["human"]


def test_gained_resident_without_quarters_is_not_gained(table_catalogue):
    """"Residents cannot be acquired if there are no available living quarters for them." - a
    Hub's free Human (B-12) is simply not gained; the action still happens."""
    table = scene(table_catalogue, "B-12")
    humans = table.state["supply"]["human"]
    table.run(DIPLOMACY)
    assert table.state["supply"]["human"] == humans
    assert table.player("Ann")["diplomacy"]["transport"] == 1


def test_every_kind_run_at_its_trigger_has_its_effect():
    """One record per kind in effects.KINDS; abilities.EFFECTS carries out exactly the kinds
    that are neither modifiers nor left to final scoring or a turn option of their own."""
    run = {name for name, kind in KINDS.items() if not kind.modifier
           and (kind.triggers is None or set(kind.triggers) - set(abilities.ELSEWHERE))}
    assert set(abilities.EFFECTS) == run
