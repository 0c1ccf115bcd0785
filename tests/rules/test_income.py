"""Turn option B: income. (Test values: Hubs pay 1 GEM per ship.)"""

from __future__ import annotations

import json

import pytest
from tables import Table, table_values

from companion.catalogue_files import load_catalogue
from companion.rules.move import Missing, Refused
from companion.rules.options import options


def income(table, name="Ann", **details):
    return table.run({"cmd": "income", "player": name, **details})


def test_income_needs_one_of_three_conditions(table):
    """"A player can only take income if at least one of the following is true: The player has 7
    GEMs or fewer remaining. At least 1 of the player's ships is used ... There are no ship
    actions the player can take\""""
    table.set("Ann", gems=9)
    with pytest.raises(Refused) as refused:
        income(table)
    assert refused.value.reason == ("Income needs 7 GEMs or fewer, a used ship of yours, or no "
                                    "possible action - Ann has 9 GEMs and no used ship, and can "
                                    "still use Ann's Dismantle L1 ship")
    table.set("Ann", gems=7)
    income(table)


def test_income_with_a_used_ship_of_ones_own(table):
    table.set("Ann", gems=30)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-farm"})
    table.end_turn()
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L2-farm"})
    table.end_turn()
    income(table)  # 27 GEMs, but the Farm is used


def test_income_when_no_ship_can_be_used(table):
    """"There are no ship actions the player can take, neither with the player's own ships, other
    players' ships, nor neutral ships." (Test values: no ship costs more than 8 GEMs with fee.)"""
    for ship in table.state["ships"].values():
        if ship["owner"] != 0:
            ship["used_by"] = 1
    for sid in [s for s, ship in table.state["ships"].items() if ship["owner"] == 0]:
        del table.state["ships"][sid]
    table.set("Ann", gems=9)
    income(table)
    assert table.state["turn"]["acted"]


def only_bobs_farm_left(table, tmp_path, cost_known: bool):
    """Ann (9 GEMs, no used ship) could use no ship but Bob's Farm; its cost known or not."""
    values = table_values(load_catalogue())
    if not cost_known:
        del values["ships"]["L2-farm"]["cost"]
    overlay = tmp_path / "overlay.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay",
                                   "version": 1, "values": values}))
    table.catalogue = table.game.catalogue = load_catalogue(overlay=overlay)
    for sid, ship in table.state["ships"].items():
        if ship["owner"] != 0 and sid != "Bob:L2-farm":
            ship["used_by"] = 1
    for sid in [s for s, ship in table.state["ships"].items() if ship["owner"] == 0]:
        del table.state["ships"][sid]
    table.set("Ann", gems=9)


def test_income_asks_the_value_a_no_possible_action_claim_would_hang_on(table, tmp_path):
    """"There are no ship actions the player can take, neither with the player's own ships, other
    players' ships, nor neutral ships." Whether Ann can still pay for Bob's Farm hangs on its
    cost, which the catalogue lacks: income asks it (docs/engine.md: a missing value is never
    guessed) instead of refusing on a guess."""
    only_bobs_farm_left(table, tmp_path, cost_known=False)
    with pytest.raises(Missing) as asked:
        income(table)
    assert asked.value.key == "ships/L2-farm/cost"
    assert options(table.state, table.catalogue)["income"]["missing"] == ["ships/L2-farm/cost"]
    with pytest.raises(Refused, match="can still use Bob's Farm L2 ship"):
        income(table, catalogue={"ships/L2-farm/cost": 3})  # 3 + Bob's fee 1: within 9 GEMs
    income(table, catalogue={"ships/L2-farm/cost": 9})  # 9 + 1 GEMs: Ann cannot pay for it
    assert table.state["turn"]["acted"]


def test_a_ship_surely_usable_refuses_income_without_asking(table, tmp_path):
    only_bobs_farm_left(table, tmp_path, cost_known=True)
    with pytest.raises(Refused, match="can still use Bob's Farm L2 ship"):
        income(table)


def test_the_table_can_override_eligibility(table):
    """The physical table is the truth: a refused income can be applied as a recorded override."""
    table.set("Ann", gems=9)
    with pytest.raises(Refused, match="can still use"):
        income(table)
    income(table, override="we agreed Ann is stuck")
    assert table.state["notes"][-1]["override"] == "we agreed Ann is stuck"


def test_income_resets_own_ships_and_pays_per_ship(table):
    """"If there are GEMs on any of their own ships, they return all GEMs to the supply" and
    "Her Station Hub provides 1 GEM for each ship she still has\""""
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L2-farm"})
    table.end_turn()
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Ann:L1-transport",
               "transactions": [{"type": "buy", "gain": "food"}]})
    table.end_turn()
    gems = table.player("Ann")["gems"]
    income(table)
    ships = [s for s in table.state["ships"].values() if s["owner"] == 0]
    assert all(s["used_by"] is None and s["gems"] == 0 for s in ships)
    assert table.player("Ann")["gems"] == gems + len(ships)


def test_income_example_sector_icons(table):
    """"Sector 121 provides 1 food because there is a resident above the food icon. It does not
    provide 1 water because there is not a resident above the water icon." "Sector 221 provides
    1 metal and 1 food because there are residents above those icons.\""""
    table.put_sector("Ann", 121, ["pink"])
    table.put_sector("Ann", 221, ["pink", "gold"])
    table.set("Ann", gems=0, food=0, water=0, metal=0)
    income(table)
    ann = table.player("Ann")
    assert (ann["food"], ann["water"], ann["metal"]) == (2, 0, 1)


def test_income_lines_explain_what_income_pays(table):
    """Each line of income (the Hub per ship, each active quarter's icon) is listed before it is
    taken, and income pays exactly their sum."""
    table.put_sector("Ann", 121, ["pink"])
    table.put_sector("Ann", 221, ["pink", "gold"])
    table.set("Ann", gems=0, food=0, water=0, metal=0)
    lines = options(table.state, table.catalogue)["income"]["lines"]
    ships = sum(1 for s in table.state["ships"].values() if s["owner"] == 0)
    assert [(line["source"], line["quarter"], line["gains"]) for line in lines] == [
        ("Hub B-3", None, {"gems": ships}),
        ("Sector 121", 0, {"food": 1}),
        ("Sector 221", 0, {"metal": 1}), ("Sector 221", 1, {"food": 1})]
    assert (lines[0]["ships"], lines[0]["per_ship"]) == (ships, 1)
    income(table)
    ann = table.player("Ann")
    assert (ann["gems"], ann["food"], ann["water"], ann["metal"]) == (ships, 2, 0, 1)


def test_residents_placed_this_turn_do_not_pay_income(table):
    """"Any living quarters where residents were placed on this turn are not eligible for special
    powers or bonuses.\""""
    turn = table.state["turn"]["number"]
    table.put_sector("Ann", 121, ["pink"], placed_turn=turn)
    table.set("Ann", gems=0, food=0)
    income(table)
    assert table.player("Ann")["food"] == 0


def test_relocation_costs_one_gem_and_closes_the_gap(table):
    """"For each resident the player wishes to relocate, the player must pay 1 GEM" and "shift
    the remaining residents to the left to close the gap.\""""
    table.put_sector("Ann", 221, ["gold", "pink"])
    table.put_sector("Ann", 121)
    table.set("Ann", gems=0)
    income(table, relocate=[{"from": 221, "slot": 0, "to": 121}])
    sectors = {s["number"]: s["residents"] for s in table.player("Ann")["sectors"]}
    assert sectors == {221: ["pink"], 121: ["gold"]}
    assert table.player("Ann")["gems"] == 9 - 1  # 9 ships' income, 1 GEM paid


def test_relocation_respects_colours(table):
    table.put_sector("Ann", 221, ["pink"])
    table.put_sector("Ann", 101)
    table.set("Ann", gems=0)
    with pytest.raises(Refused, match="cannot go to 101"):
        income(table, relocate=[{"from": 221, "slot": 0, "to": 101}])


def test_a1_fixed_income(table_catalogue):
    """A-1: "Note that income is 10 regardless of the number of ships you have.\""""
    table = Table(table_catalogue, hubs=("A-1", "B-5"))
    table.setup_bonuses(Ann={"keep": ["L2-transport"]})
    table.set("Ann", gems=0)
    income(table)
    assert table.player("Ann")["gems"] == 10


@pytest.mark.parametrize(("hub", "setup"), [("A-4", {"discard": ["Ann:L1-diplomacy"]}),
                                            ("A-5", {"diplomacy": {"transport": 2},
                                                    "discard": ["Ann:L2-farm"]})])
def test_two_gems_per_ship(table_catalogue, hub, setup):
    """A-4 / A-5: "During income, gain 2 GEMs per ship.\""""
    table = Table(table_catalogue, hubs=(hub, "B-5"))
    table.setup_bonuses(Ann=setup)
    table.set("Ann", gems=0)
    income(table)
    ships = sum(1 for s in table.state["ships"].values() if s["owner"] == 0)
    assert table.player("Ann")["gems"] == 2 * ships


def test_neutral_token_comes_back_at_income(table):
    """"If the player's Neutral Ship token is on a neutral ship, they return the token to their
    Player board. Return the GEMs to the supply.\""""
    table.set("Ann", gems=7)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "neutral:transport",
               "transactions": [{"type": "buy", "gain": "food"}]})
    table.end_turn()
    table.run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L2-farm"})
    table.end_turn()
    income(table)
    assert table.state["ships"]["neutral:transport"] == {
        "design": "neutral-transport", "type": "transport", "owner": None, "gems": 0,
        "used_by": None}
