"""Invariants of the rules engine over random legal games (hypothesis).

A random player at the table proposes commands; the engine refuses the illegal ones (which must
change nothing) and applies the rest. After every applied command: no counter below zero, Humans
and Aliens conserved, undo restores the exact previous state; at any point the exported final
position scores the same through the scoring module as in the engine.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import Table

from companion.rules.move import Missing, Refused
from companion.rules.position import parse_position
from companion.rules.report import final_position, final_score
from companion.rules.scoring import score_game, sheet_as_json

SPECIES = ("human", "teal", "pink", "brown", "gold")
FACES = ("food", "water", "metal", "human")
COUNTERS = ("gems", "points", "food", "water", "metal")


def proposals(state) -> list:
    """Commands a player might make now, each as a function of `draw` (many will be refused)."""
    names = [p["name"] for p in state["players"]]
    active = state["turn"]["active"]
    me = names[active]
    out: list = [lambda draw: {"cmd": "end_turn"},
                 lambda draw: {"cmd": "income", "player": me}]
    for pending in state["pending"]:
        out.append(lambda draw, p=pending: {"cmd": "diplomacy_bonus",
                                            "player": names[p["player"]],
                                            "levels": draw(st.sampled_from(p["options"]))})
    for sid, ship in state["ships"].items():
        if ship["used_by"] is None:
            out.append(lambda draw, sid=sid, kind=ship["type"]: use_ship(state, draw, me, active,
                                                                         sid, kind))
    return out


def use_ship(state, draw, me, active, sid, kind) -> dict:
    """A use_ship command with random details for its action."""
    colors = ("teal", "pink", "brown", "gold")
    command = {"cmd": "use_ship", "player": me, "ship": sid,
               "choices": {"B-3": draw(st.sampled_from(colors))}}
    if kind == "dismantle":
        own = [s for s, x in state["ships"].items()
               if x["owner"] == active and x["used_by"] is None and s != sid]
        if own:
            command["dismantle"] = draw(st.sampled_from(own))
    elif kind == "construction" and state["display"]:
        command["sector"] = draw(st.sampled_from(state["display"]))
    elif kind == "expedition":
        rolled = draw(st.lists(st.sampled_from(FACES), min_size=6, max_size=6))
        kept = rolled[: draw(st.integers(1, 4))]
        command.update(rolled=rolled, keep=kept,
                       humans=[draw(st.sampled_from(["observe", "recruit"]))
                               for f in kept if f == "human"])
    elif kind == "transport":
        resource = st.sampled_from(("food", "water", "metal"))
        command["transactions"] = draw(st.lists(st.one_of(
            st.builds(lambda c: {"type": "alien", "color": c},
                      st.sampled_from(("teal", "pink", "brown"))),
            st.just({"type": "gold"}),
            st.builds(lambda a, b, g: {"type": "trade", "pay": [a, b], "gain": g},
                      resource, resource, resource),
            st.builds(lambda g: {"type": "buy", "gain": g}, resource),
        ), min_size=1, max_size=3))
    elif kind == "diplomacy":
        command["tracks"] = [draw(st.sampled_from(("dismantle", "construction", "transport",
                                                   "expedition")))]
    return command


def playing_table(catalogue) -> Table:
    """Two players in play (Hubs B-3 and B-5) with plenty to spend, for random games."""
    table = Table(catalogue, hubs=("B-3", "B-5"))
    table.setup_bonuses()
    for name in ("Ann", "Bob"):
        table.set(name, gems=20, food=6, water=6, metal=12)
    return table


def residents_everywhere(state) -> dict[str, int]:
    counts = dict(state["supply"])
    for player in state["players"]:
        for sector in player["sectors"]:
            for species in sector["residents"]:
                counts[species] += 1
        for species in player["hub_slots"]:
            if species:
                counts[species] += 1
    return counts


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_games_keep_the_invariants(table_catalogue, data):
    table = playing_table(table_catalogue)
    initial = residents_everywhere(table.state)
    applied = attempts = 0
    while applied < 40 and attempts < 400 and table.state["phase"] == "play":
        attempts += 1
        command = data.draw(st.sampled_from(proposals(table.state)))(data.draw)
        before = copy.deepcopy(table.state)
        try:
            table.run(command)
        except (Refused, Missing):
            assert table.state == before, f"a refused {command['cmd']} changed the state"
            continue
        applied += 1
        for player in table.state["players"]:
            for counter in COUNTERS:
                assert player[counter] >= 0, f"{player['name']}'s {counter} went negative"
        assert residents_everywhere(table.state) == initial, "Humans or Aliens not conserved"
        after = copy.deepcopy(table.state)
        table.run({"cmd": "undo"})
        assert table.state == before, f"undo of {command['cmd']} did not restore the state"
        table.run({"cmd": "redo"})
        assert table.state == after
    exported = json.loads(json.dumps(final_position(table.state, table.catalogue)))
    again = score_game(parse_position(exported, table.catalogue), table.catalogue)
    assert sheet_as_json(again) == sheet_as_json(final_score(table.state, table.catalogue))
