"""Turn option A: using ships and their actions.

Numbers the rulebook does not print come from the table overlay in conftest.py (TEST VALUES):
Level-1 ships cost 2 GEMs (the Expedition and Diplomacy ships 3, as the rulebook's examples say),
the owner's fee is 1, Sectors cost 3/6/9 metal by level and have level+1 living quarters.
"""

from __future__ import annotations

import pytest
from tables import Table

from companion.rules.message import event_text
from companion.rules.move import Missing, Refused


def use(table, name, ship, **details):
    return table.run({"cmd": "use_ship", "player": name, "ship": ship, **details})


# -- using a ship ----------------------------------------------------------------------------


def test_own_ship_cost_goes_on_the_ship(table):
    """"The player moves their Action marker to the ship, and then places the required cost in
    GEMs on the ship.\""""
    gems = table.player("Ann")["gems"]
    use(table, "Ann", "Ann:L2-farm")
    assert table.state["ships"]["Ann:L2-farm"]["gems"] == 3
    assert table.player("Ann")["gems"] == gems - 3


def test_other_players_ship_pays_the_owner_a_fee(table):
    """"If they use a ship belonging to another player, they must also pay the ship's owner an
    owner's fee.\""""
    ann, bob = table.player("Ann")["gems"], table.player("Bob")["gems"]
    use(table, "Ann", "Bob:L2-farm")
    assert table.player("Ann")["gems"] == ann - 3 - 1
    assert table.player("Bob")["gems"] == bob + 1


def test_a_used_ship_cannot_be_used_again(table):
    """"An unused ship has no GEMs on it.\""""
    use(table, "Ann", "Ann:L2-farm")
    table.end_turn()
    with pytest.raises(Refused, match="already used"):
        use(table, "Bob", "Ann:L2-farm")


def test_only_the_active_player_acts_once(table):
    with pytest.raises(Refused, match="Ann's turn"):
        use(table, "Bob", "Bob:L2-farm")
    use(table, "Ann", "Ann:L2-farm")
    with pytest.raises(Refused, match="already taken an action"):
        use(table, "Ann", "Ann:L1-transport", transactions=[{"type": "buy", "gain": "food"}])


def test_neutral_ship_token_rules(table):
    """"That player cannot use another neutral ship until they retrieve their Neutral Ship token
    in an Income action." "Nobody else can use a particular neutral ship while another token is
    there.\""""
    table.set("Ann", gems=10)
    use(table, "Ann", "neutral:transport", transactions=[{"type": "buy", "gain": "food"}])
    assert table.player("Ann")["neutral_token"] == "neutral:transport"
    table.end_turn()
    with pytest.raises(Refused, match="already used"):
        use(table, "Bob", "neutral:transport", transactions=[{"type": "buy", "gain": "food"}])
    use(table, "Bob", "Bob:L2-farm")
    table.end_turn()
    with pytest.raises(Refused, match="Neutral Ship token"):
        use(table, "Ann", "neutral:dismantle", dismantle="Ann:L1-transport")
    table.run({"cmd": "income", "player": "Ann"})
    assert table.player("Ann")["neutral_token"] is None
    assert table.state["ships"]["neutral:transport"]["used_by"] is None


def test_neutral_ship_has_no_owner_fee(table):
    gems = table.player("Ann")["gems"]
    use(table, "Ann", "neutral:transport", transactions=[{"type": "buy", "gain": "food"}])
    assert table.player("Ann")["gems"] == gems - 4 - 3  # test cost 4, then 3 GEMs for food


@pytest.mark.parametrize(
    ("hub", "ship", "expected_cost", "rule"),
    [
        ("A-2", "Bob:L2-farm", 1, "When you use an opponent's ship or a neutral ship, you pay 2 "
                                  "GEMs fewer than the listed cost (to a minimum of 1)."),
        ("A-2", "Ann:L2-farm", 2, "When you use one of your own ships, pay 1 GEM fewer than the "
                                  "listed cost (to a minimum of 1)."),
        ("A-5", "Bob:L2-farm", 2, "When using an opponent's ship or a neutral ship, pay 1 GEM "
                                  "fewer than the listed cost (to a minimum of 1)."),
        ("A-5", "Ann:L2-farm", 3, "(no discount on one's own ships)"),
        ("A-10", "Ann:L1-expedition", 2, "When using any Expedition ship, pay 1 GEM fewer than "
                                         "the listed cost (to a minimum of 1)."),
        ("A-7", "neutral:diplomacy", 2, "When using a Diplomacy ship belonging to another player "
                                        "or the neutral one, pay 2 GEMs fewer than the listed "
                                        "cost (to a minimum of 1)."),
    ],
)
def test_hub_ship_cost_discounts(table_catalogue, hub, ship, expected_cost, rule):
    """Hub discounts apply "only to the basic cost of GEMs put on the ship, not to the fee"."""
    table = Table(table_catalogue, hubs=(hub, "B-5"))
    setup = {"A-5": {"diplomacy": {"transport": 2}, "discard": ["Ann:L2-transport"]},
             "A-7": {"diplomacy": {"transport": 2}}}
    table.setup_bonuses(**({"Ann": setup[hub]} if hub in setup else {}))
    table.set("Ann", gems=30, food=5, water=5, metal=5)
    details = {"Ann:L1-expedition": {"rolled": ["food"] * 7, "keep": ["food"]},  # +1 die
               "neutral:diplomacy": {"tracks": ["dismantle"]}}.get(ship, {})
    use(table, "Ann", ship, **details)
    assert table.state["ships"][ship]["gems"] == expected_cost


def test_unknown_ship_number_is_asked_for(tmp_path):
    """A number only the physical card prints is asked for, not guessed."""
    fresh = Table(load_catalogue_with_hub_values(tmp_path), hubs=("B-3", "B-5"))
    fresh.setup_bonuses()
    with pytest.raises(Missing) as missing:
        use(fresh, "Ann", "Ann:L2-farm")
    assert missing.value.key == "ships/L2-farm/cost"
    assert "cost" in missing.value.question


def load_catalogue_with_hub_values(tmp_path):
    """The shipped catalogue plus only the Hub values setup needs."""
    import json

    from companion.catalogue_files import load_catalogue

    values = {"hubs": {h: {"starting_gems": 8, "starting_food": 2, "starting_water": 2,
                           "starting_metal": 3, "starting_diplomacy": {"fixed": {},
                                                                       "choice": 0}}
                       for h in ("B-3", "B-5")}}
    overlay = tmp_path / "overlay.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay",
                                   "version": 1, "values": values}))
    return load_catalogue(overlay=overlay)


def test_a_value_given_with_the_command_is_learned(tmp_path):
    """Given once (`catalogue` on the command), a value is remembered for the rest of the game."""
    table = Table(load_catalogue_with_hub_values(tmp_path), hubs=("B-3", "B-5"))
    table.setup_bonuses()
    step = use(table, "Ann", "Ann:L2-farm", catalogue={"ships/L2-farm/cost": 2})
    assert step.learned == {"ships/L2-farm/cost": 2}
    assert table.state["ships"]["Ann:L2-farm"]["gems"] == 2
    table.end_turn()
    with pytest.raises(Missing, match="owner's fee"):
        use(table, "Bob", "Ann:L2-transport")


def test_a_malformed_catalogue_value_is_refused(tmp_path):
    table = Table(load_catalogue_with_hub_values(tmp_path), hubs=("B-3", "B-5"))
    table.setup_bonuses()
    with pytest.raises(Refused, match="whole number"):
        use(table, "Ann", "Ann:L2-farm", catalogue={"ships/L2-farm/cost": "two"})


# -- Dismantle -------------------------------------------------------------------------------


def test_dismantle_example(table):
    """"The Level-1 Transport ship is worth 6 metal when dismantled. Because Paul is using a
    Level-2 Dismantle ship, he gets one extra metal because of its ability. Therefore, he receives
    7 metal as a result of this action." (Here with the Level-3 Dismantle ship: test value +2.)"""
    metal = table.player("Ann")["metal"]
    step = use(table, "Ann", "Ann:L3-dismantle", dismantle="Ann:L1-transport")
    assert table.player("Ann")["metal"] == metal + 6 + 2
    assert "Ann:L1-transport" not in table.state["ships"]
    # the log names the ship as the players do, never by its id (issue 27)
    assert [event_text(e) for e in step.events if e["type"] == "ship_dismantled"] == [
        "Ann dismantles Ann's Transport L1 ship"]


def test_dismantle_ship_cannot_dismantle_itself(table):
    """"The Dismantle ship cannot dismantle itself: it is not an unused ship!\""""
    with pytest.raises(Refused, match="only an unused ship"):
        use(table, "Ann", "Ann:L1-dismantle", dismantle="Ann:L1-dismantle")


def test_dismantle_only_own_ships(table):
    """"select an unused ship (i.e., one with no GEMs on it) from their own fleet\""""
    with pytest.raises(Refused, match="own fleet"):
        use(table, "Ann", "Ann:L1-dismantle", dismantle="Bob:L2-farm")


# -- Construction ----------------------------------------------------------------------------


def test_construction_example(table):
    """"Sector 218 costs 9 metal to build. Since Anna is using a Level-3 Construction ship, which
    provides a 2 metal discount, she pays 7 metal to the supply.\""""
    ann = table.player("Ann")
    table.put_sector("Ann", 111)
    table.state["display"].append(218)
    table.state["ships"]["Ann:L3-construction"] = {"design": "L3-construction",
                                                   "type": "construction", "owner": 0,
                                                   "gems": 0, "used_by": None}
    table.set("Ann", metal=10, gems=10)
    use(table, "Ann", "Ann:L3-construction", sector=218)
    assert ann["metal"] == 3
    assert ann["gems"] == 2  # "She pays 8 GEMs"
    assert [s["number"] for s in ann["sectors"]] == [111, 218]


def test_wing_is_built_smallest_first(table):
    """"A wing must have a Level-1 Sector before it can have a Level-2 Sector\""""
    table.set("Ann", metal=20)
    with pytest.raises(Refused, match="needs its Level-1 Sector"):
        use(table, "Ann", "Ann:L1-construction", sector=201)


def test_one_sector_of_each_level_per_wing(table):
    """"Each wing can have only one Sector of each level.\""""
    table.put_sector("Ann", 102)
    table.set("Ann", metal=20)
    with pytest.raises(Refused, match="already has a Level-1"):
        use(table, "Ann", "Ann:L1-construction", sector=101)


def test_a9_builds_in_any_order(table_catalogue):
    """A-9: "You can build Sectors in any order. You can start with Level 1, 2, or 3 in any
    color.\""""
    table = Table(table_catalogue, hubs=("A-9", "B-5"))
    table.setup_bonuses(Ann={"discard": ["Ann:L2-farm"]})
    table.set("Ann", metal=20)
    use(table, "Ann", "Ann:L1-construction", sector=301)
    assert table.player("Ann")["sectors"][0]["number"] == 301


def test_only_sectors_on_display(table):
    table.set("Ann", metal=20)
    with pytest.raises(Refused, match="not on display"):
        use(table, "Ann", "Ann:L1-construction", sector=108)


# -- Terran Expedition -----------------------------------------------------------------------


def test_expedition_example(table):
    """"The ship has a duration of 6, so he rolls six dice. ... The ship has a capacity of 4, so he
    selects 4 of those dice to keep. Matthew selects 2 food, 1 metal, and 1 Human.\""""
    table.put_sector("Ann", 101)
    table.set("Ann", food=0, water=1, metal=0, gems=10, points=0)
    use(table, "Ann", "Ann:L1-expedition",
        rolled=["food", "food", "food", "food", "metal", "human"],
        keep=["food", "food", "metal", "human"], humans=["recruit"])
    ann = table.player("Ann")
    # 2 food + 1 metal gained, then 1 metal, 1 food, 1 water paid for the Human ally.
    assert (ann["food"], ann["water"], ann["metal"]) == (1, 0, 0)
    assert ann["sectors"][0]["residents"] == ["human"]


def test_observing_humanity_scores_a_point(table):
    """"Observe Humanity: The player gains 1 point.\""""
    use(table, "Ann", "Ann:L1-expedition", rolled=["human"] * 6, keep=["human"] * 4,
        humans=["observe"] * 4)
    assert table.player("Ann")["points"] == 4


def test_expedition_capacity_and_dice(table):
    with pytest.raises(Refused, match="keep 1 to 4"):
        use(table, "Ann", "Ann:L1-expedition", rolled=["food"] * 6, keep=["food"] * 5)
    with pytest.raises(Refused, match="roll 6 dice"):
        use(table, "Ann", "Ann:L1-expedition", rolled=["food"] * 5, keep=["food"])
    with pytest.raises(Refused, match="not all rolled"):
        use(table, "Ann", "Ann:L1-expedition", rolled=["food"] * 6, keep=["water"])


def test_human_ally_needs_quarters(table):
    """"The player can only gain a Human if they have living quarters available!\""""
    table.set("Ann", food=5, water=5, metal=5)
    with pytest.raises(Refused, match="no living quarters"):
        use(table, "Ann", "Ann:L1-expedition", rolled=["human"] * 6, keep=["human"],
            humans=["recruit"])


# -- Transport -------------------------------------------------------------------------------


def test_transport_example(table):
    """Sofia: a pink Alien (1 food, 1 water), a gold Alien (1 food, 1 water, 1 metal), two food
    for a water, 3 GEMs for a food - four transactions with a Level-2 Transport ship."""
    table.put_sector("Ann", 121)
    table.put_sector("Ann", 101)
    table.set("Ann", food=5, water=2, metal=1, gems=10)
    use(table, "Ann", "Ann:L2-transport", transactions=[
        {"type": "alien", "color": "pink"},
        {"type": "gold", "where": 101},
        {"type": "trade", "pay": ["food", "food"], "gain": "water"},
        {"type": "buy", "gain": "food"},
    ], choices={"B-3": "pink"})
    ann = table.player("Ann")
    assert (ann["food"], ann["water"], ann["metal"], ann["gems"]) == (2, 1, 0, 4)
    residents = {s["number"]: s["residents"] for s in ann["sectors"]}
    # B-3's free Alien of any colour: pink.
    assert residents == {121: ["pink", "pink"], 101: ["gold"]}


def test_transport_needs_at_least_one_and_at_most_n(table):
    """"they must make at least one in order to use the ship at all\""""
    with pytest.raises(Refused, match="1 to 3"):
        use(table, "Ann", "Ann:L1-transport", transactions=[])
    table.set("Ann", gems=30)
    with pytest.raises(Refused, match="1 to 3"):
        use(table, "Ann", "Ann:L1-transport", transactions=[{"type": "buy", "gain": "food"}] * 4)


def test_aerobic_alien_needs_matching_sector(table):
    """"Aerobic Aliens (teal, pink, brown) must go to Sectors of a matching color\""""
    table.put_sector("Ann", 101)
    with pytest.raises(Refused, match="no living quarters free"):
        use(table, "Ann", "Ann:L1-transport", transactions=[{"type": "alien", "color": "pink"}])


def test_residents_fill_leftmost_quarter(table):
    """"Residents must always go to the leftmost available living quarters\""""
    table.put_sector("Ann", 221, ["gold"])
    table.set("Ann", food=3, water=3)
    use(table, "Ann", "Ann:L1-transport", transactions=[{"type": "alien", "color": "pink"}],
        choices={"B-3": "gold"})
    assert table.player("Ann")["sectors"][0]["residents"] == ["gold", "pink", "gold"]


# -- Farm and Ice Collector ------------------------------------------------------------------


def test_farm(table):
    """"Farm ships provide 4 food or 5 food." (Set 2's "Farm (+4 food)".)"""
    food = table.player("Ann")["food"]
    use(table, "Ann", "Ann:L2-farm")
    assert table.player("Ann")["food"] == food + 4
