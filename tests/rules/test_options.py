"""`options`: what the table app may offer now, and what each choice needs - at concrete moments
of a game, and over random legal games (every option offered is accepted by the engine, and what
the engine accepts is offered)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import Table
from test_engine_properties import playing_table, proposals

from companion.catalogue_files import load_catalogue
from companion.rules.game import Game
from companion.rules.move import Missing, Refused
from companion.rules.options import bonus_offer, fill, options
from companion.rules.script import parse

GAMES = Path(__file__).parent / "games"
EXAMPLES = Path(__file__).parents[2] / "examples"


def by_ship(found: dict) -> dict:
    return {entry["ship"]: entry for entry in found["ships"]}


# -- setup ---------------------------------------------------------------------------------------


def test_setup_steps_in_order(table_catalogue):
    game = Game(table_catalogue)
    assert options(game.state, table_catalogue)["setup"]["command"] == "new_game"
    game.execute({"cmd": "new_game", "advanced": True, "players": [
        {"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
        "aliens": {"teal": 13, "pink": 12, "brown": 13, "gold": 12}})
    step = options(game.state, table_catalogue)["setup"]
    assert step == {"command": "sector_display", "per_stack": 2, "number_endings": None,
                    "stacks": step["stacks"]} and len(step["stacks"]) == 9
    game.execute({"cmd": "sector_display", "sectors": [level * 100 + tens * 10 + n
                                                       for level in (1, 2, 3)
                                                       for tens in (0, 1, 2) for n in (1, 2)]})
    assert options(game.state, table_catalogue)["setup"]["command"] == "deal_hubs"
    game.execute({"cmd": "deal_hubs", "hubs": {"Ann": ["B-3", "A-6"], "Bob": ["B-5", "A-1"]}})
    step = options(game.state, table_catalogue)["setup"]
    assert (step["command"], step["level"], step["count"]) == ("reveal_ships", 3, 5)
    game.execute({"cmd": "reveal_ships", "ships": ["L3-dismantle"] * 5})
    # "In turn order, each player takes 1 of those ships. Then in reverse turn order"
    step = options(game.state, table_catalogue)["setup"]
    assert step["command"] == "draft_ship"
    assert (step["player"], step["order"]) == ("Ann", ["Ann", "Bob", "Bob", "Ann"])
    assert step["offered"] == ["L3-dismantle"] * 5


def test_starting_bonus_says_what_the_hub_needs(table_catalogue):
    table = Table(table_catalogue, hubs=("A-12", "A-6"))
    step = options(table.state, table_catalogue)["setup"]
    assert (step["command"], step["player"], step["hub"]) == ("starting_bonus", "Ann", "A-12")
    table.run({"cmd": "starting_bonus", "player": "Ann",
               "diplomacy": {"dismantle": 1, "transport": 1}}
              if step["diplomacy_choice"] else {"cmd": "starting_bonus", "player": "Ann"})
    step = options(table.state, table_catalogue)["setup"]
    assert (step["player"], step["private_sectors"]) == ("Bob", 9)  # A-6's private selection


# -- the turn ------------------------------------------------------------------------------------


def test_every_ship_on_the_table_with_its_cost_and_fee(table):
    found = options(table.state, table.catalogue)
    assert (found["phase"], found["turn"]["player"]) == ("play", "Ann")
    ships = by_ship(found)
    assert set(ships) == set(table.state["ships"])
    assert ships["Ann:L1-dismantle"] | {} == {
        "ship": "Ann:L1-dismantle", "owner": "Ann", "design": "L1-dismantle",
        "type": "dismantle", "usable": True, "cost": 2, "fee": 0, "reason": None, "missing": []}
    assert (ships["Bob:L2-farm"]["cost"], ships["Bob:L2-farm"]["fee"]) == (3, 1)  # test values
    assert ships["neutral:transport"]["owner"] is None
    assert ships["neutral:transport"]["fee"] == 0
    # Ann has 8 GEMs and no used ship: "Income needs 7 GEMs or fewer, ..."
    assert not found["income"]["allowed"] and "7 GEMs or fewer" in found["income"]["reason"]
    assert found["end_turn"] == {"allowed": False,
                                 "reason": "Ann has not taken an action or income yet"}


def test_why_a_ship_cannot_be_used(table):
    table.set("Ann", gems=20)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "neutral:diplomacy",
               "tracks": ["dismantle"]})
    found = options(table.state, table.catalogue)
    assert found["end_turn"]["allowed"]
    assert all("already taken an action" in s["reason"] for s in found["ships"])
    table.end_turn()
    table.run({"cmd": "income", "player": "Bob", "override": "test"})
    table.end_turn()
    table.set("Ann", gems=3)
    ships = by_ship(options(table.state, table.catalogue))
    assert "already used" in ships["neutral:diplomacy"]["reason"]
    assert ("Neutral Ship token is on the neutral Diplomacy ship"
            in ships["neutral:transport"]["reason"])
    # L3 ships cost 4 (test values)
    assert ships["Ann:L3-dismantle"]["reason"] == ("using Ann's Dismantle L3 ship costs 4 GEMs; "
                                                   "Ann has 3 GEMs")
    assert ships["Ann:L1-transport"]["usable"]


def test_a_value_the_catalogue_lacks_is_reported_not_guessed():
    catalogue = load_catalogue()  # the shipped catalogue: ship costs unknown
    game = Game(catalogue)
    for line in parse((GAMES / "two-players-first-game.jsonl").read_text().splitlines()):
        game.execute({**line.command, "catalogue": {}})
        if game.state["setup"].get("step") == "bonuses":
            break
    found = options(game.state, catalogue)
    keys = {item["key"]: item for item in found["missing"]}
    assert keys["ships/L1-transport/cost"]["component"] == "ship Transport L1"
    assert keys["ships/L1-transport/cost"]["question"] == ("What is the cost to use (GEMs) of "
                                                          "the Transport L1 ship?")
    assert "ships/neutral-transport/fee" not in keys  # no fee is paid for a neutral ship
    assert any(k.startswith("sectors/") for k in keys)
    assert any(k.startswith("diplomacy/level-1/lobbying_cost") for k in keys)
    components = [item["component"] for item in found["missing"]]
    assert components == sorted(components, key=components.index)  # grouped by component


def test_an_option_that_needs_an_unknown_value_says_so(table):
    shipped = load_catalogue()
    assert not shipped.ships["L1-transport"]["cost"].known
    entry = by_ship(options(table.state, shipped))["Ann:L1-transport"]
    assert (entry["cost"], entry["missing"]) == (None, ["ships/L1-transport/cost"])


# -- a chosen ship ------------------------------------------------------------------------------


def test_construction_sectors_with_price_and_wing(table):
    table.set("Ann", metal=4, gems=20)
    ship = options(table.state, table.catalogue, ship="Ann:L1-construction")["ship"]
    sectors = {s["number"]: s for s in ship["action"]["sectors"]}
    assert set(sectors) == set(table.state["display"])
    # test values: Level-1 costs 3; the L1 Construction ship saves no metal
    assert (sectors[101]["cost"], sectors[101]["price"], sectors[101]["wing"]) == (3, 3, "teal")
    assert sectors[101]["allowed"]
    assert "needs its Level-1 Sector" in sectors[201]["reason"]
    assert sectors[301]["reason"].startswith("the teal wing needs")
    table.set("Ann", metal=1)
    ship = options(table.state, table.catalogue, ship="Ann:L1-construction")["ship"]
    sectors = {s["number"]: s for s in ship["action"]["sectors"]}
    assert sectors[101]["reason"] == "building Sector 101 costs 3 metal; Ann has 1 metal"
    assert ship["diplomacy_bonuses"] == []  # nobody above the starting space yet


def test_dismantle_expedition_transport_diplomacy_needs(table):
    table.set("Ann", gems=20, food=1, water=1)

    def action(ship):
        return options(table.state, table.catalogue, ship=ship)["ship"]["action"]

    targets = {t["ship"]: t["metal"] for t in action("Ann:L3-dismantle")["dismantle"]}
    assert "Ann:L3-dismantle" not in targets
    ships = table.catalogue.ships  # "the number shown on the ship (plus any bonuses)"
    assert targets["Ann:L1-transport"] == (ships["L1-transport"].value("metal_value")
                                           + ships["L3-dismantle"].value("extra_metal"))
    assert action("Ann:L1-expedition") | {"humans": None} == {
        "dice": 6, "keep": 4, "rerolls": 0, "faces": ["food", "water", "metal", "human"],
        "missing": [], "humans": None}
    transport = action("Ann:L1-transport")
    assert transport["transactions"] == ships["L1-transport"].value("transactions")
    aliens = {a["color"]: a for a in transport["aliens"]}
    # Ann has no Sector yet: "Residents cannot be acquired if there are no available living
    # quarters for them" (B-3's Hub quarters take what the Hub allows)
    assert aliens["pink"]["allowed"] == bool(aliens["pink"]["where"])
    assert transport["buy"]["allowed"]
    assert ["food", "water"] in transport["trade"]["pay"]
    assert ["food", "food"] not in transport["trade"]["pay"]
    tracks = {t["track"]: t for t in action("Ann:L1-diplomacy")["tracks"]}
    assert (tracks["dismantle"]["cost"], tracks["dismantle"]["allowed"]) == (1, True)


def test_diplomacy_bonuses_automatic_or_chosen(table):
    table.set("Ann", gems=30)
    table.set("Bob", gems=30)
    for track in ("dismantle", "dismantle"):
        table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-diplomacy",
                   "tracks": [track]})
        table.end_turn()
        for name in ("Bob", "Ann", "Bob"):
            table.run({"cmd": "income", "player": name, "override": "test"})
            table.end_turn()
    ship = options(table.state, table.catalogue, ship="Ann:L1-dismantle")["ship"]
    # Ann, sole leader at level 2, may take the bonus of level 0, 1 or 2
    (bonus,) = ship["diplomacy_bonuses"]
    assert bonus | {"gives": None} == {"player": "Ann", "options": [[0], [1], [2]],
                                       "automatic": False, "gives": None}
    assert bonus["gives"] == [[table.catalogue.diplomacy[f"level-{level}"].value(
        "bonus_dismantle")] for level in (0, 1, 2)]
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-dismantle",
               "dismantle": "Ann:L1-transport"})
    (pending,) = options(table.state, table.catalogue)["pending"]
    assert (pending["player"], pending["track"]) == ("Ann", "dismantle")
    assert [o["levels"] for o in pending["options"]] == [[0], [1], [2]]
    assert all(o["gives"] and not o["missing"] for o in pending["options"])
    assert not options(table.state, table.catalogue)["end_turn"]["allowed"]


# -- bonus actions, judged where they fire -------------------------------------------------------


def test_321s_recruited_human_may_go_into_sector_321_itself(table_catalogue):
    """"321: When built, immediately roll 7 dice and select 5 to keep." - the dice are rolled
    once Sector 321 is built, so a Human recruited with them may live in 321 ("Humans can live
    in any Sector"), even when the rest of the station is full."""
    table = Table(table_catalogue)
    table.setup_bonuses()
    table.put_sector("Ann", 121, ["pink", "pink"])
    table.put_sector("Ann", 221, ["pink", "pink", "pink"])
    table.set("Ann", gems=30, metal=20, food=5, water=5)
    text = table.catalogue.sectors[321].abilities[0].text
    assert text.startswith("When built, immediately roll 7 dice and select 5 to keep.")
    command = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-construction",
               "sector": 321}
    before = json.dumps(table.state, sort_keys=True)
    now = bonus_offer(table.state, table.catalogue, "321", "expedition_roll")
    assert now["humans"]["where"] == [] and now["humans"]["recruit_reason"]  # station full
    offer = bonus_offer(table.state, table.catalogue, "321", "expedition_roll", command)
    assert (offer["dice"], offer["keep"]) == (7, 5)
    assert offer["humans"]["where"] == [321] and offer["humans"]["recruit_reason"] is None
    assert json.dumps(table.state, sort_keys=True) == before  # the probe left no trace
    table.run({**command, "bonus": {"321": {
        "rolled": ["human", "food", "food", "water", "water", "metal", "metal"],
        "keep": ["human", "food", "water", "metal"], "humans": ["recruit"]}}})
    (built,) = [s for s in table.player("Ann")["sectors"] if s["number"] == 321]
    assert built["residents"] == ["human"]


def test_a_value_needed_before_the_bonus_action_is_asked_first(tmp_path):
    """The 3-player draft example, from an empty overlay, just before Cat builds Sector 321:
    the engine needs what only the tile prints (its cost, living quarters, ...) before it gets
    to the dice, so the offer is judged on the position now and `asks` for the value; with the
    values given, where the dice are rolled ("When built, immediately roll 7 dice")."""
    catalogue = load_catalogue(overlay=tmp_path / "none.json")
    game = Game(catalogue)
    lines = list(parse((EXAMPLES / "three-players-draft.jsonl").read_text().splitlines()))
    built = next(i for i, line in enumerate(lines) if line.command.get("sector") == 321)
    for line in lines[:built]:
        game.execute(line.command)
    command = {"cmd": "use_ship", "player": "Cat", "ship": "Cat:L3-construction", "sector": 321}
    offer = bonus_offer(game.state, catalogue, "321", "expedition_roll", command)
    assert offer["asks"] == {"key": "sectors/321/cost",
                             "question": "How much metal does Sector 321 cost?"}
    assert offer["humans"]["where"] == [221]  # before: Sector 121 is full, 321 not built
    values = lines[built].command["catalogue"]  # the example's values, given on its line
    offer = bonus_offer(game.state, catalogue, "321", "expedition_roll",
                        {**command, "catalogue": values})
    assert "asks" not in offer and offer["humans"]["where"] == [221, 321]


def test_a_bonus_transaction_pays_with_what_the_action_just_gained(table_catalogue):
    """A-3: "When using an Expedition ship, after completing the action, you may perform one
    transport transaction." - after it: the food and water just kept pay for the Alien or the
    trade, though the player had none before."""
    table = Table(table_catalogue, hubs=("A-3", "B-5"))
    table.setup_bonuses()
    table.put_sector("Ann", 101)
    table.set("Ann", gems=30, food=0, water=0, metal=0)
    (ability,) = [a for a in table.catalogue.hubs["A-3"].abilities
                  if a.kind == "transport_transaction"]
    assert ability.text.startswith("When using an Expedition ship, after completing the action, "
                                   "you may perform one transport transaction.")
    command = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-expedition",
               "rolled": ["food", "water", "food", "water", "metal", "human"],
               "keep": ["food", "water"], "humans": [], "use": ["A-3"]}
    now = bonus_offer(table.state, table.catalogue, "A-3", "transport_transaction")
    teal = next(a for a in now["aliens"] if a["color"] == "teal")
    assert not teal["allowed"] and now["trade"]["pay"] == []
    offer = bonus_offer(table.state, table.catalogue, "A-3", "transport_transaction", command)
    teal = next(a for a in offer["aliens"] if a["color"] == "teal")
    assert teal["allowed"] and teal["where"] == [101]
    assert offer["trade"]["pay"] == [["food", "water"]]
    table.run({**command, "bonus": {"A-3": [{"type": "alien", "color": "teal"}]}})
    ann = table.player("Ann")
    assert (ann["food"], ann["water"], ann["sectors"][0]["residents"]) == (0, 0, ["teal"])


def test_a_bonus_offer_falls_back_to_the_position_now(table_catalogue):
    """A command that stops before the bonus action (here a refusal: the ship is already used)
    is judged on the position now; a command that goes through without it is not asked."""
    table = Table(table_catalogue, hubs=("A-3", "B-5"))
    table.setup_bonuses()
    table.set("Ann", gems=30, food=0, water=0, metal=0)
    table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-transport",
               "transactions": [{"type": "buy", "gain": "food"}]})
    command = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-expedition",
               "rolled": ["food"] * 6, "keep": ["food", "food"], "humans": []}
    offer = bonus_offer(table.state, table.catalogue, "A-3", "transport_transaction", command)
    assert offer == bonus_offer(table.state, table.catalogue, "A-3", "transport_transaction")
    assert offer["trade"]["pay"] == []  # 1 food: judged without the 2 food kept

    # 326: "If the station already has one of each color, ignore this immediate effect."
    table = Table(table_catalogue)
    table.setup_bonuses()
    for number in (101, 111, 121, 221):
        table.put_sector("Ann", number)
    table.set("Ann", gems=30, metal=20)
    table.state["display"].append(326)
    command = {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-construction",
               "sector": 326}
    assert bonus_offer(table.state, table.catalogue, "326", "free_sector", command) is None


# -- income ----------------------------------------------------------------------------------------


def test_income_powers_and_relocations(table):
    table.put_sector("Bob", 101, ["teal"])
    table.run({"cmd": "income", "player": "Ann", "override": "test"})
    table.end_turn()
    table.set("Bob", gems=3)
    found = options(table.state, table.catalogue)
    assert found["income"]["allowed"] and found["income"]["reason"] is None
    (power,) = [p for p in found["income"]["powers"] if p["source"] == "B-5"]
    assert power["optional"] and power["bonus"] == "transactions"
    assert power["text"].startswith("During income, you may perform 1 transport transaction")
    (move,) = [r for r in found["income"]["relocations"] if r["from"] == 101]
    assert (move["species"], move["slot"]) == ("teal", 0) and 101 in move["to"]
    assert found["income"]["relocation_gems"] == 1


def test_end_of_game_state(table_catalogue):
    catalogue = table_catalogue
    game = Game(catalogue)
    lines = [t for t in (GAMES / "two-players-first-game.jsonl").read_text().splitlines()
             if not t.startswith('{"check"')]
    for line in parse(lines):
        game.execute(line.command)
    found = options(game.state, catalogue)
    assert found["phase"] == "over" and found["end"]["over"]
    assert found["end"]["triggered_by"] in ("Ann", "Bob") and found["end"]["final_turns"] == []
    assert "ships" not in found


def test_options_change_nothing(table):
    before = json.dumps(table.state, sort_keys=True)
    for sid in table.state["ships"]:
        options(table.state, table.catalogue, ship=sid)
    assert json.dumps(table.state, sort_keys=True) == before


# -- random legal games ----------------------------------------------------------------------------


def offered(state: dict, catalogue) -> list[dict]:
    """Commands built from the options offered now (each ability's first options taken)."""
    found = options(state, catalogue)
    me = found["turn"]["player"]
    commands = [{"cmd": "diplomacy_bonus", "player": p["player"], "levels": o["levels"]}
                for p in found["pending"] for o in p["options"]]
    if found["end_turn"]["allowed"]:
        commands.append({"cmd": "end_turn"})
    if found["income"]["allowed"] and not any("bonus" in p for p in found["income"]["powers"]):
        commands.append({"cmd": "income", "player": me, **fill(found["income"]["powers"])})
    for entry in found["ships"]:
        if entry["usable"]:
            commands += ship_commands(state, catalogue, me, entry["ship"])
    return commands


def ship_commands(state: dict, catalogue, me: str, ship_id: str) -> list[dict]:
    ship = options(state, catalogue, ship=ship_id)["ship"]
    if any("bonus" in need for need in ship["abilities"]):
        return []
    base = {"cmd": "use_ship", "player": me, "ship": ship_id, **fill(ship["abilities"])}
    action = ship["action"]
    kind = ship["type"]
    if kind == "dismantle":
        return [{**base, "dismantle": t["ship"]} for t in action["dismantle"]]
    if kind == "construction":
        return [{**base, "sector": s["number"], **fill(ship["abilities"] + s["abilities"])}
                for s in action["sectors"]
                if s["allowed"] and not any("bonus" in n for n in s["abilities"])]
    if kind == "expedition":
        return [{**base, "rolled": ["food"] * action["dice"], "keep": ["food"]}]
    if kind == "transport":
        items = [{"type": "alien", "color": a["color"], "where": a["where"][0]}
                 for a in action["aliens"] if a["allowed"]]
        items += [{"type": "trade", "pay": pair, "gain": "metal"}
                  for pair in action["trade"]["pay"]]
        if action["buy"]["allowed"]:
            items.append({"type": "buy", "gain": "water"})
        return [{**base, "transactions": [item]} for item in items]
    if kind == "diplomacy":
        return [{**base, "tracks": [t["track"]]} for t in action["tracks"] if t["allowed"]]
    return [base]


def accepted_is_offered(command: dict, state: dict, catalogue) -> None:
    """A command the engine accepted (`state`: just before it) is among the options."""
    found = options(state, catalogue)
    name = command["cmd"]
    if name == "end_turn":
        assert found["end_turn"]["allowed"]
    elif name == "income":
        assert found["income"]["allowed"]
    elif name == "diplomacy_bonus":
        assert any(p["player"] == command["player"]
                   and sorted(command["levels"]) in [o["levels"] for o in p["options"]]
                   for p in found["pending"])
    elif name == "use_ship":
        assert by_ship(found)[command["ship"]]["usable"]
        action = options(state, catalogue, ship=command["ship"])["ship"]["action"]
        if "sector" in command:
            assert command["sector"] in [s["number"] for s in action["sectors"] if s["allowed"]]
        if "dismantle" in command:
            assert command["dismantle"] in [t["ship"] for t in action["dismantle"]]
        if "tracks" in command:
            allowed = [t["track"] for t in action["tracks"] if t["allowed"]]
            assert all(track in allowed for track in command["tracks"])
        for item in command.get("transactions") or []:
            if item["type"] == "alien":
                assert any(a["color"] == item["color"] and a["allowed"]
                           for a in action["aliens"])


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_options_agree_with_the_engine(table_catalogue, data):
    table = playing_table(table_catalogue)
    applied = attempts = 0
    while applied < 25 and attempts < 200 and table.state["phase"] == "play":
        attempts += 1
        before = copy.deepcopy(table.state)
        for command in offered(table.state, table_catalogue):
            try:
                table.run(command)
            except (Refused, Missing) as error:
                raise AssertionError(f"offered but refused: {command}: {error}") from None
            table.run({"cmd": "undo"})
            assert table.state == before
        command = data.draw(st.sampled_from(proposals(table.state)))(data.draw)
        try:
            table.run(command)
        except (Refused, Missing):
            continue
        applied += 1
        accepted_is_offered(command, before, table_catalogue)
