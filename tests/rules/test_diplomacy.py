"""Diplomacy: lobbying, and the bonuses every Dismantle, Construct, Transport or Expedition ship
action pays out to every player who has advanced."""

from __future__ import annotations

import pytest
from tables import Table

from companion.rules.diplomacy import allowed_levels, options
from companion.rules.move import Refused


@pytest.fixture
def four(table_catalogue):
    """Blue, Red, Green and Yellow as in the rulebook's examples (Ann, Bob, Cat, Dan here)."""
    table = Table(table_catalogue, hubs=("B-3", "B-5", "A-2", "A-3"))
    table.setup_bonuses()
    return table


def set_track(table, track, levels):
    for player, level in zip(table.state["players"], levels):
        player["diplomacy"][track] = level


def test_sole_leader_example(four):
    """"Red may gain 1 point because they are alone in the lead on this track and that is the
    bonus of the level their marker is on. As an alternative, they may gain 2 GEMs (the level
    below them) or 1 GEM (bottom level). Green may only gain a bonus from below their current
    level and therefore may only gain the 1 GEM bonus." Blue and Yellow get nothing."""
    # Blue (Ann) 0, Red (Bob) 2, Green (Cat) 1, Yellow (Dan) 0
    set_track(four, "dismantle", [0, 2, 1, 0])
    assert allowed_levels(four.state, 1, "dismantle") == [0, 1, 2]
    assert allowed_levels(four.state, 2, "dismantle") == [0]
    assert allowed_levels(four.state, 0, "dismantle") == []
    gems = [p["gems"] for p in four.state["players"]]
    four.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
              "dismantle": "Ann:L1-transport"})
    # Green's only option is taken at once; Red is asked.
    assert four.player("Cat")["gems"] == gems[2] + 1
    assert [(p["player"], p["options"]) for p in four.state["pending"]] == [
        (1, [[0], [1], [2]])]
    four.run({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [2]})
    assert four.player("Bob")["points"] == 1
    assert four.state["pending"] == []


def test_tied_leaders_example(four):
    """"Red and Blue are tied for the lead and therefore may only gain a bonus from below their
    current level. That means they may gain 2 GEMs or 1 GEM. Likewise, Green may only gain a bonus
    from below their current level and therefore may only gain the 1 GEM bonus.\""""
    set_track(four, "expedition", [2, 2, 1, 0])
    assert allowed_levels(four.state, 0, "expedition") == [0, 1]
    assert allowed_levels(four.state, 1, "expedition") == [0, 1]
    assert allowed_levels(four.state, 2, "expedition") == [0]
    assert allowed_levels(four.state, 3, "expedition") == []


def test_top_levels_give_two_different_bonuses():
    """"players tied on level 4 will only gain a single lower-level bonus, but players tied on
    level 5 will gain any two bonuses (because level 4, below them, gives two bonuses).\""""
    tied_on_4 = options([0, 1, 2, 3])
    assert tied_on_4 == [[0], [1], [2], [3]]
    tied_on_5 = options([0, 1, 2, 3, 4])
    assert [0, 1] in tied_on_5 and [2, 3] in tied_on_5
    assert all(len(set(pick)) == len(pick) for pick in tied_on_5)  # never the same bonus twice
    assert [3, 3] not in tied_on_5


def test_bonus_is_refused_outside_the_options(four):
    set_track(four, "dismantle", [0, 2, 0, 0])
    four.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
              "dismantle": "Ann:L1-transport"})
    with pytest.raises(Refused, match="may take one of"):
        four.run({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [3]})
    with pytest.raises(Refused, match="no Diplomacy bonus"):
        four.run({"cmd": "diplomacy_bonus", "player": "Cat", "levels": [0]})


def test_turn_waits_for_bonus_choices(four):
    """"Bonuses are gained after the entire action is completed" - and before the next turn."""
    set_track(four, "dismantle", [0, 2, 0, 0])
    four.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
              "dismantle": "Ann:L1-transport"})
    with pytest.raises(Refused, match="waiting for Bob"):
        four.end_turn()
    four.run({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]})
    four.end_turn()
    assert four.state["turn"]["active"] == 1


def test_level_three_resource_depends_on_the_track(four):
    """"The third level bonus is 1 resource. The resource available depends on the Diplomacy
    track." - "A player can also gain metal from the Diplomacy tracks for Construction and
    Dismantling.\""""
    set_track(four, "dismantle", [0, 3, 0, 0])
    metal = four.player("Bob")["metal"]
    four.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
              "dismantle": "Ann:L1-transport"})
    four.run({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [3]})
    assert four.player("Bob")["metal"] == metal + 1


def test_diplomacy_ship_pays_lobbying_of_the_next_level(table):
    """"pay the lobbying cost in GEMs shown on the step above the current level of their token on
    that track, and advance their token 1 space to that new level." (Test values: level n costs n
    GEMs; the L1 Diplomacy ship costs 3 GEMs, "He uses his own Level-1 Diplomacy ship, so he
    places 3 GEMs".)"""
    table.player("Ann")["diplomacy"]["construction"] = 1
    gems = table.player("Ann")["gems"]
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
               "tracks": ["construction"]})
    assert table.player("Ann")["diplomacy"]["construction"] == 2
    assert table.player("Ann")["gems"] == gems - 3 - 2


def test_level1_diplomacy_ship_advances_one_track(table):
    """Only "Level-3 Diplomacy ships let players do the above action on 2 different Diplomacy
    tracks at once"."""
    with pytest.raises(Refused, match="at most 1 track"):
        table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
                   "tracks": ["construction", "transport"]})


def test_top_of_the_track(table):
    """"Once a token reaches the top space, it cannot advance further.\""""
    table.player("Ann")["diplomacy"]["transport"] = 5
    with pytest.raises(Refused, match="top"):
        table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
                   "tracks": ["transport"]})


def test_diplomacy_ship_triggers_no_diplomacy_bonus(table):
    """Only "a Dismantle, Construct, Transport, or Terran Expedition ship" triggers bonuses."""
    for p in table.state["players"]:
        p["diplomacy"]["transport"] = 2
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
               "tracks": ["transport"]})
    assert table.state["pending"] == []
