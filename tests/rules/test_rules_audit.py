"""The rule families audited for issue 9: gains from a finite supply, "to the greatest extent
possible", Human discounts, "when gaining", bonus actions, the end of the game. Each test quotes
the rulebook sentence it checks. Test values as in test_abilities.py (Level-1 ships cost 2, the
Expedition and Diplomacy ships 3; Sectors level+1 quarters; Hubs 1 GEM per ship; Sector 121 shows
1 food over its leftmost quarter)."""

from __future__ import annotations

import copy

import pytest
from test_abilities import (
    DIPLOMACY,
    EXPEDITION,
    INCOME,
    TRANSPORT,
    WINGS,
    build,
    change,
    scene,
    use,
)

from companion.rules.message import event_text
from companion.rules.move import Refused


def supply(table, **counts):
    for species, value in counts.items():
        table.run({"cmd": "adjust", "who": "supply", "counter": species, "value": value,
                   "note": "test scene"})


def refused_unchanged(table, command, match):
    """The command is refused and nothing changed: nothing paid, no bonus paid out."""
    before = copy.deepcopy(table.state)
    with pytest.raises(Refused, match=match):
        table.run(command)
    assert table.state == before


def notes(step):
    return [event_text(e) for e in step.events if e["type"] == "note"]


def residents(table, number, name="Ann"):
    return next(s["residents"] for s in table.player(name)["sectors"] if s["number"] == number)


# -- a resident bought needs one in the supply and a free quarter -------------------------------


@pytest.mark.parametrize(("transaction", "species"), [
    ({"type": "alien", "color": "teal", "where": 101}, "teal"),
    ({"type": "gold", "where": 101}, "gold")])
def test_transaction_for_an_alien_none_left_is_refused(table_catalogue, transaction, species):
    """"The player pays 1 food and 1 water to the supply to take 1 teal, pink, or brown Alien";
    with none left there is nothing to take: refused before anything is paid, and no Transport
    Diplomacy bonus is paid out."""
    table = scene(table_catalogue, "B-5", [(101, [])])
    table.player("Bob")["diplomacy"]["transport"] = 1
    supply(table, **{species: 0})
    refused_unchanged(table, use("Ann:L1-transport", transactions=[transaction]),
                      f"no {species} Alien is left in the supply")


def test_transaction_for_an_alien_without_quarters_is_refused(table_catalogue):
    """"The player can only gain an aerobic Alien if they have appropriate living quarters
    available!\""""
    table = scene(table_catalogue, "B-5", [(101, ["teal", "teal"])])
    refused_unchanged(table, use("Ann:L1-transport", transactions=[
        {"type": "alien", "color": "teal"}]), "no living quarters free for a teal Alien")


def test_recruiting_a_human_none_left_on_terra_is_refused(table_catalogue):
    """"Gain a Human Ally: The player pays 1 metal, 1 food, and 1 water to the supply, then takes
    a Human" - with no Human left on Terra the Human die can only be observed."""
    table = scene(table_catalogue, "B-5", [(101, [])])
    supply(table, human=0)
    command = use("Ann:L1-expedition", rolled=["human"] * 6, keep=["human"], where={"human": 101})
    refused_unchanged(table, {**command, "humans": ["recruit"]}, "no Human is left on Terra")
    assert change(table, {**command, "humans": ["observe"]}) == {"gems": -3, "points": 1}


@pytest.mark.parametrize(("source", "sectors", "command", "match"), [
    ("307", [(121, ["pink", "pink"]), (307, ["gold"])],
     {**INCOME, "use": ["307"], "choices": {"307:pay": ["food", "water"]}},
     "no Human is left on Terra"),
    ("222", [(121, ["pink", "pink"]), (222, ["gold", "gold", "gold"])],
     {**INCOME, "use": ["222"]}, "no living quarters free for a Human"),
    ("322", [(121, ["pink", "pink"]), (221, ["pink"] * 3), (322, ["gold"] * 4)],
     {**EXPEDITION, "use": ["322"]}, "no living quarters free for a Human"),
])
def test_human_bought_by_an_ability_that_cannot_be_had_is_refused(table_catalogue, source,
                                                                  sectors, command, match):
    """307: "During income, you may pay any 2 resources to gain 1 Human"; 222: "you may pay 6
    GEMs to gain 1 Human"; 322: "you may pay 4 GEMs to gain a Human" - and "Residents cannot be
    acquired if there are no available living quarters for them.\""""
    table = scene(table_catalogue, "B-5", sectors, gems=0 if "income" in command.values()
                  else 30)
    if source == "307":
        supply(table, human=0)
    refused_unchanged(table, command, match)


def test_a8_refused_when_no_human_is_left(table_catalogue):
    """A-8: "you may pay 1 food, 1 water, and 1 metal to gain a Human, place it in living
    quarters on your station" - none on Terra, nothing to pay for."""
    table = scene(table_catalogue, "A-8", [(101, [])], setup={"keep": ["L2-farm"]}, gems=0)
    supply(table, human=0)
    refused_unchanged(table, {"cmd": "human_then_income", "player": "Ann"},
                      "no Human is left on Terra")


# -- a free resident that cannot be had is skipped with a note ----------------------------------


@pytest.mark.parametrize(("source", "sectors", "command"), [
    ("B-12", [(101, [])], {**DIPLOMACY, "where": {"B-12": 101}}),
    ("303", [(103, []), (203, []), (303, ["gold"])], {**TRANSPORT, "where": {"303": 303}}),
])
def test_free_human_none_left_is_skipped_with_a_note(table_catalogue, source, sectors, command):
    """B-12: "When using a Diplomacy ship, gain 1 Human."; 303: "When using a Transport ship,
    gain 1 Human for free." With no Human on Terra the action still happens, without one."""
    table = scene(table_catalogue, source if "-" in source else "B-5", sectors)
    supply(table, human=0)
    step = table.run(command)
    assert table.player("Ann")["gems"] < 30  # the action happened
    assert any("no Human is left on Terra" in n for n in notes(step))
    assert all("human" not in s["residents"] for s in table.player("Ann")["sectors"])


def test_207_extra_alien_when_none_is_left(table_catalogue):
    """207: "gain an extra one of the same color without paying resources for it" - after the
    last teal Alien of the supply, there is none to gain."""
    table = scene(table_catalogue, "B-5", [(101, []), (207, ["gold"]), (301, [])], food=9,
                  water=9)
    supply(table, teal=3)
    aliens = [{"type": "alien", "color": "teal", "where": w} for w in (101, 101, 301)]
    step = table.run(use("Ann:L2-transport", transactions=aliens, where={"207": 301}))
    assert residents(table, 301) == ["teal"]
    assert any("no teal Alien is left in the supply" in n for n in notes(step))


def test_b3_free_alien_when_none_can_be_placed(table_catalogue):
    """B-3: "When using a Transport ship, gain 1 free Alien of any color." With no free quarter
    for any Alien, none is gained and the Transport still happens."""
    table = scene(table_catalogue, "B-3")
    step = table.run(TRANSPORT)
    assert any("no Alien can be placed" in n for n in notes(step))


# -- "to the greatest extent possible" ----------------------------------------------------------


@pytest.mark.parametrize(("number", "left", "gained"), [(311, 1, ["brown"]), (324, 0, [])])
def test_built_aliens_take_what_there_is(table_catalogue, number, left, gained):
    """"they must take the immediate bonus action right away, to the greatest extent possible";
    311: "immediately gain 2 brown Aliens. If there are no brown Aliens left, do not gain any."
    324: the same for pink."""
    color = table_catalogue.sectors[number].color
    table = scene(table_catalogue, "B-5", WINGS[color])
    supply(table, **{color: left})
    table.set("Ann", metal=9)
    table.state["display"].append(number)
    step = table.run(use("Ann:L1-construction", sector=number, where={str(number): number}))
    assert residents(table, number) == gained
    assert any(f"{2 - left} of 2 not gained" in n for n in notes(step))


def test_307_built_with_no_human_left(table_catalogue):
    """307: "When built, immediately gain 1 Human." - none on Terra: the Sector is built all the
    same."""
    table = scene(table_catalogue, "B-5", [(101, []), (201, [])])
    supply(table, human=0)
    assert build(table, 307) == {"gems": -2, "metal": -9}
    assert residents(table, 307) == []


def test_328_with_a_token_at_the_top(table_catalogue):
    """328: "When built, immediately advance all four of your Diplomacy markers one space for
    free." "Once a token reaches the top space, it cannot advance further." - the other three
    advance."""
    table = scene(table_catalogue, "B-5", WINGS["pink"])
    table.player("Ann")["diplomacy"]["dismantle"] = 5
    build(table, 328)
    assert table.player("Ann")["diplomacy"] == {"dismantle": 5, "construction": 1,
                                               "transport": 1, "expedition": 1}


def test_326_with_no_level1_sector_of_a_missing_colour(table_catalogue):
    """326: "When built, immediately gain a free Level-1 Sector of any color." - with no Level-1
    Sector of a colour the station lacks on display, the Sector is built without one."""
    table = scene(table_catalogue, "B-5", WINGS["pink"])
    table.state["display"] = [n for n in table.state["display"] if n >= 200]
    assert build(table, 326) == {"gems": -2, "metal": -9}
    assert [s["number"] for s in table.player("Ann")["sectors"]] == [121, 221, 326]


# -- Human discounts on every Human with a resource cost ----------------------------------------


@pytest.mark.parametrize(("source", "sectors"), [("215", [(111, []), (215, ["gold"])]),
                                                 ("A-10", [])])
def test_human_discount_applies_to_307(table_catalogue, source, sectors):
    """215: "When gaining Humans, pay 1 fewer resource ... This does apply when gaining a Human
    using Sector 307." A-10: "Whenever gaining a Human, pay 1 less resource\""""
    hub = source if "-" in source else "B-5"
    table = scene(table_catalogue, hub, [*sectors, (307, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["307"], "choices": {"307:pay": ["food"]},
                           "where": {"307": 307}})
    assert delta == {"gems": 9, "food": -1}
    assert residents(table, 307) == ["gold", "human"]


def test_human_discount_applies_to_a8(table_catalogue):
    """A-8: "Discounts for gaining Humans (e.g., from Sector 215) do apply to this special
    action.\""""
    table = scene(table_catalogue, "A-8", [(111, []), (215, ["gold"]), (101, [])],
                  setup={"keep": ["L2-farm"]}, gems=0)
    delta = change(table, {"cmd": "human_then_income", "player": "Ann", "where": {"human": 101},
                           "human_cost_skip": ["metal"]})
    assert delta == {"food": -1, "water": -1, "gems": 10}


@pytest.mark.parametrize(("source", "sectors", "command", "gems"), [
    ("222", [(222, ["gold"])], {**INCOME, "use": ["222"], "where": {"222": 222}}, 9 - 6),
    ("322", [(322, ["gold"])], {**EXPEDITION, "use": ["322"], "where": {"322": 322}}, -3 - 4)])
def test_human_discount_is_not_on_gems(table_catalogue, source, sectors, command, gems):
    """215: "pay 1 fewer resource (if there is a resource cost—GEMs are not a resource)".
    222's 6 GEMs and 322's 4 GEMs stay."""
    table = scene(table_catalogue, "B-5", [(111, []), (215, ["gold"]), *sectors],
                  gems=0 if source == "222" else 30)
    assert change(table, command)["gems"] == gems


# -- the new Human affects income ----------------------------------------------------------


def test_a8_new_human_pays_its_income_icon(table_catalogue):
    """A-8: "pay 1 food, 1 water, and 1 metal to gain a Human, place it in living quarters on
    your station, and then take income (so the new Human affects income)" - Sector 121's food
    icon over the Human's quarter pays."""
    table = scene(table_catalogue, "A-8", [(121, [])], setup={"keep": ["L2-farm"]}, gems=0)
    delta = change(table, {"cmd": "human_then_income", "player": "Ann"})
    assert delta == {"water": -1, "metal": -1, "gems": 10}  # food: -1 paid, +1 income


# -- Humans kept and their use ------------------------------------------------------------------


@pytest.mark.parametrize(("keep", "humans"), [(["food"], ["observe"]),
                                              (["human"], ["observe", "observe"]),
                                              (["human", "human"], ["observe"]),
                                              (["human"], [])])
def test_one_choice_per_human_die_kept(table, keep, humans):
    """"For each die depicting a Human selected, there are two options, but either option takes
    capacity" - a choice for a Human die not kept is refused."""
    rolled = ["human", "human", "food", "food", "water", "water"]
    refused_unchanged(table, use("Ann:L1-expedition", rolled=rolled, keep=keep, humans=humans),
                      "Human dice kept")


# -- A-11 --------------------------------------------------------------------------------------


def test_a11_returns_one_only_without_a_legal_place(table_catalogue):
    """A-11: "you must move one of these five residents from your Hub onto a legal Sector for no
    cost. If there is no legal place to move one of them, then one must be returned to the
    supply.\""""
    table = scene(table_catalogue, "A-11", [(111, ["brown"])], gems=0)
    refused_unchanged(table, {**INCOME, "bonus": {"A-11": {"slot": 1}}},
                      "can move onto a legal Sector")
    refused_unchanged(table, {**INCOME, "bonus": {"A-11": {"slot": 1, "to": "hub"}}},
                      "onto a legal Sector")
    table.player("Ann")["sectors"].clear()  # no Sector at all: no legal place
    pink = table.state["supply"]["pink"]
    table.run({**INCOME, "bonus": {"A-11": {"slot": 1}}})
    assert table.state["supply"]["pink"] == pink + 1
    assert table.player("Ann")["hub_slots"][1] is None


# -- "when gaining": by any means, and never by moving ------------------------------------------


@pytest.mark.parametrize(("source", "extra", "expected"), [
    ("115", {}, {"points": 1}), ("126", {}, {"gems": 2}),
    ("217", {"217": "metal"}, {"metal": 1})])
def test_when_gaining_a_human_through_307(table_catalogue, source, extra, expected):
    """115 / 126 / 217: "It does not matter how the Human is gained, so this bonus does apply to
    unusual means of gaining Humans, such as through the use of Sector 307.\""""
    table = scene(table_catalogue, "B-5", [(int(source), ["gold"]), (307, ["gold"])], gems=0)
    delta = change(table, {**INCOME, "use": ["307"], "where": {"307": 307},
                           "choices": {"307:pay": ["food", "water"], **extra}})
    paid = {"gems": 9, "food": -1, "water": -1}
    assert delta == {k: v for k in {*paid, *expected}
                     if (v := paid.get(k, 0) + expected.get(k, 0))}


def test_106_when_gaining_an_alien_through_227(table_catalogue):
    """106: "It does not matter how the Alien is gained, so this bonus does apply to unusual
    means of gaining Aliens, such as through the use of Sector 227.\""""
    table = scene(table_catalogue, "B-5", [(106, ["gold"]), (111, []), (227, ["gold"])])
    table.run(use("Ann:L1-construction", sector=211, where={"227": 211}))
    assert residents(table, 211) == ["brown"]
    assert table.player("Ann")["gems"] == 30 - 2 + 1


def test_a_relocated_resident_is_not_gained(table_catalogue):
    """106: "When gaining an Alien, gain 1 GEM." Relocating one at income ("the player must pay
    1 GEM") moves a resident; it gains none."""
    table = scene(table_catalogue, "B-5", [(106, ["gold"]), (102, ["teal"]), (202, [])], gems=0)
    assert change(table, {**INCOME, "relocate": [{"from": 102, "slot": 0, "to": 202}]}) == {
        "gems": 9 - 1}


# -- bonus actions never trigger ship bonuses or Diplomacy tracks -------------------------------


def test_alaynas_bonus_transport_does_not_trigger_b3(table_catalogue):
    """"If Alayna has Hub B-3 and Sector 206 and takes a diplomacy action, she then gets a bonus
    transport action. This bonus transport action does not then trigger the bonus depicted on Hub
    B-3." "Bonus actions that a player receives from their Station Sectors will not trigger
    Diplomacy bonuses.\""""
    table = scene(table_catalogue, "B-3", [(106, []), (206, ["gold"]), (101, [])])
    table.player("Bob")["diplomacy"]["transport"] = 1
    bob = table.player("Bob")["gems"]
    table.run({**DIPLOMACY, "use": ["206"],
               "bonus": {"206": [{"type": "alien", "color": "teal", "where": 101}]}})
    assert residents(table, 101) == ["teal"]  # no free Alien from B-3
    assert table.player("Bob")["gems"] == bob and table.state["pending"] == []


@pytest.mark.parametrize(("source", "sectors", "track", "bonus"), [
    ("225", [(105, ["gold"]), (225, ["gold"])], "expedition",
     {"225": {"rolled": ["metal", "food"], "keep": ["metal"]}}),
    ("B-5", [(107, ["gold"])], "transport", {"B-5": [{"type": "buy", "gain": "metal"}]})])
def test_income_bonus_actions_trigger_nothing(table_catalogue, source, sectors, track, bonus):
    """225: "During income, do an Expedition action"; B-5: "During income, you may perform 1
    transport transaction." - "Only ship actions trigger Sector bonuses marked with a ship
    outline! Bonus actions do not." (105 and 107 stay silent, no Diplomacy bonus.)"""
    table = scene(table_catalogue, "B-5", sectors, gems=3)
    table.player("Bob")["diplomacy"][track] = 1
    bob = table.player("Bob")["gems"]
    delta = change(table, {**INCOME, "use": [source], "bonus": bonus})
    assert delta == {"gems": 9 - (3 if source == "B-5" else 0), "metal": 1}
    assert table.player("Bob")["gems"] == bob and table.state["pending"] == []


def test_117_additional_diplomacy_action_is_not_a_ship(table_catalogue):
    """117: "This additional action is not a ship, so does not trigger additional bonuses."
    A-7's "Each time you use a Diplomacy ship, you gain 1 point" pays once."""
    table = scene(table_catalogue, "A-7", [(117, ["gold"])],
                  setup={"diplomacy": {"dismantle": 1, "construction": 1}})
    delta = change(table, {**DIPLOMACY, "use": ["117"], "bonus": {"117": ["expedition"]}})
    assert delta["points"] == 1


# -- the end of the game ------------------------------------------------------------------------


def test_the_end_is_checked_before_an_additional_turn(table_catalogue):
    """"At the end of the player's turn, they must check to see if at least one of these
    conditions is true: The active player has 40 or more points" - an additional turn (323)
    comes after that turn's check."""
    table = scene(table_catalogue, "B-6", [(123, []), (223, [])], setup={"sectors": [113]},
                  points=40)
    build(table, 323)
    table.end_turn()
    assert table.state["end"]["triggered_by"] == 0
    assert table.state["turn"]["active"] == 0  # the additional turn still comes
    table.run({"cmd": "hub_power", "player": "Ann", "source": "B-6"})  # 39 points now
    table.run(use("Ann:L2-transport", transactions=[{"type": "buy", "gain": "food"}]))
    table.end_turn()
    assert table.state["turn"]["active"] == 1  # Bob's last turn
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L2-dismantle",
               "dismantle": "Bob:L1-transport"})
    table.end_turn()
    assert table.state["phase"] == "over"


def test_humans_do_not_count_for_the_aliens_left(table):
    """"There are 4 or fewer total Aliens remaining in the supply. Humans do not count for this
    condition.\""""
    supply(table, teal=2, pink=1, brown=1, gold=1, human=0)
    table.run(use("Ann:L2-farm"))
    table.end_turn()
    assert table.state["end"]["triggered_by"] is None
    supply(table, gold=0)
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L2-farm"})
    table.end_turn()
    assert table.state["end"]["triggered_by"] == 1


# -- "no possible action" for income ------------------------------------------------------------


def test_income_when_no_ship_has_a_possible_part(table):
    """"A player can only use a ship action if they can complete at least one part of its
    action." Income: "There are no ship actions the player can take" - a Construction ship with
    no Sector the player's metal can build, a Diplomacy ship with every track at the top."""
    for sid in [s for s, ship in table.state["ships"].items() if ship["owner"] == 0
                and ship["type"] not in ("construction", "diplomacy")]:
        del table.state["ships"][sid]
    for ship in table.state["ships"].values():
        if ship["owner"] != 0:
            ship["used_by"] = 1
    table.set("Ann", gems=9, metal=0)
    with pytest.raises(Refused, match="can still use Ann's Diplomacy L1 ship"):
        table.run(INCOME)
    table.player("Ann")["diplomacy"].update(dict.fromkeys(table.player("Ann")["diplomacy"], 5))
    table.run(INCOME)
    assert table.state["turn"]["acted"]
