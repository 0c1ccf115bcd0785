"""Setup, in the rulebook's order: supply, Sector display, first-game sets or the hub/ship draft,
Hub starting bonuses and the turn-order GEM compensation.

What is random at the table (Aliens drawn from the bag, Sectors and ships drawn, Hubs dealt) comes
in with the commands; the engine checks it against the setup tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion import i18n
from companion.i18n import N_, _
from companion.rules import ledger
from companion.rules.abilities import after_gaining_resident
from companion.rules.catalogue import Catalogue
from companion.rules.diplomacy import advance
from companion.rules.gains import gain_resident
from companion.rules.message import Message, join, message
from companion.rules.move import Move
from companion.rules.names import normal_name, player_name_problem, twins, twins_refusal
from companion.rules.state import Event, State, hub_of, new_player, new_ship
from companion.rules.station import add_sector, sector_color, sector_label
from companion.rules.turns import start_turn
from companion.rules.words import (
    ALIEN_COLORS,
    PLAYER_COLORS,
    RESOURCES,
    SHIP_TYPES,
    color_message,
    design_message,
    joined,
    joined_message,
)

HUB_QUESTIONS = {  # the starting resources in the order ("gems", *RESOURCES)
    "starting_gems": N_("How many gems does the back of Hub {hub} give at the start?"),
    "starting_food": N_("How many food does the back of Hub {hub} give at the start?"),
    "starting_water": N_("How many water does the back of Hub {hub} give at the start?"),
    "starting_metal": N_("How many metal does the back of Hub {hub} give at the start?"),
    "starting_diplomacy": N_("Which Diplomacy advances does the back of Hub {hub} give?"),
    "income_gems_per_ship": N_("How many GEMs per ship does Hub {hub} give at income?"),
    "income_fixed_gems": N_("What fixed GEM income does Hub {hub} give?"),
    "quarter_income": N_("What income does each living quarter of Hub {hub} show?"),
}


def hub_value(move: Move, hub: str, field: str) -> Any:
    """A value printed on Hub `hub` (asked once when the catalogue lacks it)."""
    return move.value("hubs", hub, field, i18n._(HUB_QUESTIONS[field]).format(hub=hub))


def _table(move: Move, record: str, field: str) -> Any:
    return move.catalogue.field("setup", record, field).value


def lay_out(catalogue: Catalogue, players: int, friendly: bool) -> dict[str, int]:
    """What the table puts out for `players` players: Humans on Terra, Aliens drawn from the bag
    (at most `aliens_per_color` of a colour) and Sectors per stack on display (friendly: +1)."""
    table = catalogue.setup
    return {"humans": table["humans_on_terra"].value(f"players_{players}"),
            "aliens": table["aliens_drawn"].value(f"players_{players}"),
            "aliens_per_color": table["components"].value("aliens_per_color"),
            "per_stack": players + (1 if friendly else 0)}


def new_game(move: Move) -> None:
    """`new_game`: players in turn order (the first is the start player), options, Aliens drawn.

    {"players": [{"name", "color"}], "first_game": bool, "advanced": bool, "friendly": bool,
     "aliens": {"teal": n, "pink": n, "brown": n, "gold": n}}
    """
    move.check(move.state["phase"] == "new", message(N_("a game has already been set up")))
    players = move.command.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        move.fail(_("a game is for 2 to 4 players: give \"players\": [{\"name\", \"color\"}, "
                    "...]"))
    names = []  # normalised, then checked: every door (screen, script, record) gets the same
    for number, player in enumerate(players, start=1):
        what = _("player {number}'s name").format(number=number)
        name: Any = player.get("name") if isinstance(player, dict) else None
        problem = player_name_problem(name, what)
        if problem:
            move.fail(problem)
        names.append(normal_name(name))
    pair = twins(names)
    if pair:
        move.fail(twins_refusal(*(names[i] for i in pair)))
    colors = [p.get("color") for p in players]
    if any(c not in PLAYER_COLORS for c in colors) or len(set(colors)) != len(colors):
        move.fail(_("each player needs a different colour of {colors}").format(
            colors=", ".join(PLAYER_COLORS)))
    count = len(players)
    first_game = bool(move.command.get("first_game"))
    options = {"first_game": first_game, "advanced": bool(move.command.get("advanced")),
               "friendly": bool(move.command.get("friendly")),
               "example": bool(move.command.get("example"))}
    table = lay_out(move.catalogue, count, options["friendly"])
    humans, drawn, per_color = table["humans"], table["aliens"], table["aliens_per_color"]
    aliens = move.command.get("aliens") or {}
    if set(aliens) != set(ALIEN_COLORS) or not all(
        isinstance(n, int) and 0 <= n <= per_color for n in aliens.values()
    ):
        move.fail(_("give the Aliens drawn by colour: \"aliens\": {{\"teal\", \"pink\", \"brown\", "
                    "\"gold\"}} ({drawn} in all for {count} players, at most {per_color} "
                    "each)").format(drawn=drawn, count=count, per_color=per_color))
    move.check(sum(aliens.values()) == drawn,
               message(N_("Draw {drawn} Aliens for {count} players (\"2p: 50 / 3p: 70 / 4p: "
                          "90\"); these add up to {total}"),
                       drawn=drawn, count=count, total=sum(aliens.values())))
    state_players = [new_player(name, p["color"]) for name, p in zip(names, players)]
    ships = {}
    for index, player in enumerate(state_players):
        for kind in SHIP_TYPES:
            ships[f"{player['name']}:L1-{kind}"] = new_ship(f"L1-{kind}", kind, index)
    for kind in SHIP_TYPES:
        ships[f"neutral:{kind}"] = new_ship(f"neutral-{kind}", kind, None)
    if options["example"]:
        started = (N_("New game for {players} (first game) with example values (not stored for "
                      "later games)") if first_game else
                   N_("New game for {players} (standard) with example values (not stored for "
                      "later games)"))
    else:
        started = (N_("New game for {players} (first game)") if first_game
                   else N_("New game for {players} (standard)"))
    move.emit(Event.GAME_STARTED, message(started, players=", ".join(names)),
              ["set", ["phase"], "setup"],
              ["set", ["options"], options],
              ["set", ["players"], state_players],
              ["set", ["ships"], ships],
              ["set", ["supply"], {"human": humans, **aliens}],
              ["set", ["setup"], {"step": "display"}])


def _step(move: Move, *steps: str) -> None:
    step = move.state["setup"].get("step")
    if move.state["phase"] != "setup" or step not in steps:  # the steps build on each other
        move.fail(_("this setup step comes later (now: {step})").format(
            step=step or move.state["phase"]))


def sector_display(move: Move) -> None:
    """`sector_display`: {"sectors": [numbers]} - one per player from each of the nine stacks.

    "From each stack, randomly select 1 sector per player." First game: "Use only the Sectors
    whose Sector Numbers end with 1, 2, 3, or 4". Friendly variant: "add 1 more of each color".
    """
    _step(move, "display")
    numbers = move.command.get("sectors")
    if not isinstance(numbers, list) or not all(n in move.catalogue.sectors for n in numbers):
        move.fail(_("give the Sector numbers on display: \"sectors\": [101, 112, ...]"))
    move.check(len(set(numbers)) == len(numbers), message(N_("a Sector is listed twice")))
    options = move.state["options"]
    per_stack = lay_out(move.catalogue, len(move.state["players"]),
                        options["friendly"])["per_stack"]
    stacks = Counter((move.catalogue.sectors[n].level, sector_color(move, n)) for n in numbers)
    for stack, count in sorted(stacks.items()):
        move.check(count == per_stack, message(N_("{count} Level-{level} {color} Sectors on "
                                                  "display; the display has {per_stack} of "
                                                  "each"),
                                               count=count, level=stack[0],
                                               color=color_message(stack[1]),
                                               per_stack=per_stack))
    move.check(len(stacks) == 9, message(N_("the display has Sectors of {count} stacks; it needs "
                                            "all nine (three levels of three colours)"),
                                         count=len(stacks)))
    if options["first_game"]:
        endings = _table(move, "sector_display", "first_game_number_endings")
        odd = [n for n in numbers if n % 10 not in endings]
        move.check(not odd, message(N_("first game: use only Sectors ending in 1-4, not {odd}"),
                                    odd=join(", ", odd)))
    next_step = "sets" if options["first_game"] else "hubs"
    labels = join(", ", [sector_label(move, n) for n in sorted(numbers)])
    move.emit(Event.DISPLAY_SET, message(N_("Sector display: {sectors}"), sectors=labels),
              ["set", ["display"], sorted(numbers)], ["set", ["setup", "step"], next_step])


def first_game_sets(move: Move) -> None:
    """`first_game_sets`: {"sets": {player: 1-4}} - the predefined Hub and ship sets."""
    _step(move, "sets")
    sets = _per_player(move, "sets", _("each player's set: \"sets\": {name: 1-4}"))
    move.check(len(set(sets.values())) == len(sets) and all(v in (1, 2, 3, 4)
                                                             for v in sets.values()),
               message(N_("each player gets a different set, 1 to 4")))
    for name, number in sets.items():
        player = move.player(name)
        record = f"first_game_set_{number}"
        hub = _table(move, record, "hub")
        _take_hub(move, player, hub)
        kinds = [(3, k) for k in _table(move, record, "level3_ships")]
        kinds += [(2, k) for k in _table(move, record, "level2_ships")]
        if hub == "B-2":
            # "the player with B-2 ... takes the following Level-2 ships in addition to the ones
            # already taken: Transport, Dismantle."
            kinds += [(2, k) for k in _table(move, "first_game_b2", "level2_ships_instead")]
        for level, kind in kinds:
            _give_ship(move, player, f"L{level}-{kind}", kind)
    _start_bonuses(move)


def deal_hubs(move: Move) -> None:
    """`deal_hubs`: {"hubs": {player: [hub, hub]}} - "Deal each player 2 random Station Hubs"."""
    _step(move, "hubs")
    dealt = _per_player(move, "hubs", _("the two Hubs dealt to each player: "
                                        "\"hubs\": {name: [hub, hub]}"))
    every = [h for pair in dealt.values() for h in pair]
    unknown = [h for h in every if h not in move.catalogue.hubs]
    if unknown:
        move.fail(_("no Station Hub {hub}").format(hub=repr(unknown[0])))
    move.check(len(set(every)) == len(every), message(N_("a Hub is dealt twice")))
    move.check(all(len(pair) == 2 for pair in dealt.values()),
               message(N_("each player is dealt 2 Hubs")))
    if not move.state["options"]["advanced"]:
        advanced = [h for h in every if not h.startswith("B-")]
        move.check(not advanced, message(N_("the basic game uses Hubs B-1 to B-12 only, not "
                                            "{hubs}"), hubs=join(", ", advanced)))
    for name, pair in dealt.items():
        move.emit(Event.HUBS_DEALT, message(N_("{player} is dealt {hubs}"),
                                            player=name, hubs=joined_message(pair)),
                  ["set", ["players", move.player(name), "hub_options"], list(pair)])
    move.emit(Event.SETUP_STEP, message(N_("Level-3 ship draft")),
              ["set", ["setup", "step"], "reveal"],
              ["set", ["setup", "draft_level"], 3])


def reveal_ships(move: Move) -> None:
    """`reveal_ships`: {"ships": [designs]} - the face-up ships for the current draft level.

    "2p: 5 / 3p: 7 / 4p: 9". Level 3: "In turn order, each player takes 1 of those ships. Then in
    reverse turn order, each player takes a second ship." Level 2: reverse order first.
    """
    _step(move, "reveal")
    level = move.state["setup"]["draft_level"]
    designs = move.command.get("ships")
    count = _table(move, "ships_revealed_per_draft", f"players_{len(move.state['players'])}")
    if not isinstance(designs, list):
        move.fail(_("give the {count} Level-{level} ships revealed: \"ships\": "
                    "[design, ...]").format(count=count, level=level))
    for design in designs:
        ship = move.catalogue.ships.get(design)
        if ship is None or ship.group != "deck_design" or ship.level not in (level, None):
            move.fail(_("{design} is not a Level-{level} ship design").format(
                design=repr(design), level=level))
    move.check(len(designs) == count, message(N_("reveal {count} ships for {players} players, "
                                                 "not {given}"),
                                              count=count, players=len(move.state["players"]),
                                              given=len(designs)))
    order = list(range(len(move.state["players"])))
    first, second = (order, order[::-1]) if level == 3 else (order[::-1], order)
    move.emit(Event.SHIPS_REVEALED, message(N_("Level-{level} ships revealed: {ships}"),
                                            level=level,
                                            ships=join(", ", map(design_message, designs))),
              ["set", ["setup", "revealed"], list(designs)],
              ["set", ["setup", "draft_order"], first + second],
              ["set", ["setup", "step"], "draft"])


def draft_ship(move: Move) -> None:
    """`draft_ship`: {"player", "ship": design} - the next pick of the draft."""
    _step(move, "draft")
    player = move.player()
    setup = move.state["setup"]
    move.check(setup["draft_order"][0] == player,
               message(N_("it is {player}'s pick"), player=move.name(setup["draft_order"][0])))
    design = move.command.get("ship")
    if design not in setup["revealed"]:
        move.fail(_("{design} is not among the ships on offer: {ships}").format(
            design=repr(design), ships=", ".join(setup["revealed"])))
    ship = move.catalogue.ships[design]
    _give_ship(move, player, design, ship.type or "unknown")
    move.emit(Event.SHIP_DRAFTED, message(N_("{player} drafts {design}"),
                                          player=move.name(player),
                                          design=design_message(design)),
              ["remove_at", ["setup", "revealed"], setup["revealed"].index(design)],
              ["remove_at", ["setup", "draft_order"], 0])
    if not setup["draft_order"]:
        if setup["draft_level"] == 3:
            move.emit(Event.SETUP_STEP, message(N_("Level-2 ship draft")),
                      ["set", ["setup", "draft_level"], 2],
                      ["set", ["setup", "step"], "reveal"])
        else:
            move.emit(Event.SETUP_STEP,
                      message(N_("Each player keeps one of their two Hubs, in turn order")),
                      ["set", ["setup", "step"], "choose_hub"],
                      ["set", ["setup", "hub_order"], list(range(len(move.state["players"])))])


def choose_hub(move: Move) -> None:
    """`choose_hub`: {"player", "hub"} - "in turn order, each player keeps 1 of their Station
    Hubs and returns the other to the box"."""
    _step(move, "choose_hub")
    player = move.player()
    order = move.state["setup"]["hub_order"]
    move.check(order[0] == player, message(N_("it is {player}'s turn to choose a Hub"),
                                           player=move.name(order[0])))
    hub = move.command.get("hub")
    offered = move.state["players"][player]["hub_options"]
    if hub not in offered:
        move.fail(_("{player} was dealt {hubs}, not {hub}").format(
            player=move.name(player), hubs=joined(offered), hub=hub))
    _take_hub(move, player, hub)
    move.emit(Event.HUB_CHOSEN, message(N_("{player} keeps Hub {hub}"), player=move.name(player),
                                        hub=hub),
              ["remove_at", ["setup", "hub_order"], 0])
    if not move.state["setup"]["hub_order"]:
        _start_bonuses(move)


def _take_hub(move: Move, player: int, hub: str) -> None:
    quarters = move.catalogue.hubs[hub].living_quarters
    move.emit(Event.HUB_TAKEN, message(N_("{player} takes Station Hub {hub}"),
                                       player=move.name(player), hub=hub),
              ["set", ["players", player, "hub"], hub],
              ["set", ["players", player, "hub_quarters"], quarters],
              ["set", ["players", player, "hub_slots"], [None] * len(quarters)])


def _give_ship(move: Move, player: int, design: str, kind: str) -> str:
    name = move.name(player)
    ship_id, n = f"{name}:{design}", 2
    while ship_id in move.state["ships"]:
        ship_id, n = f"{name}:{design}#{n}", n + 1
    move.emit(Event.SHIP_TAKEN, message(N_("{player} takes a {design} ship"), player=name,
                                        design=design_message(design)),
              ["set", ["ships", ship_id], new_ship(design, kind, player)])
    return ship_id


def _start_bonuses(move: Move) -> None:
    move.emit(Event.SETUP_STEP, message(N_("Each player takes the starting bonuses of their Hub")),
              ["set", ["setup", "step"], "bonuses"],
              ["set", ["setup", "bonus_order"], list(range(len(move.state["players"])))])


def starting_bonus(move: Move) -> None:
    """`starting_bonus`: {"player", "diplomacy": {track: n}, "sectors": [free Sector numbers],
    "private_sectors": [nine numbers], "keep": [designs drawn and kept], "discard": [ship ids]}.

    "Each player takes the starting bonuses on the back of their Hub" - resources, Diplomacy
    advances (without bonuses), free Sectors, ship changes, residents on the Hub - then the
    turn-order compensation: "P2: 1 / P3: 2 / P4: 3".
    """
    _step(move, "bonuses")
    player = move.player()
    order = move.state["setup"]["bonus_order"]
    move.check(order[0] == player, message(N_("{player} takes their bonuses first"),
                                           player=move.name(order[0])))
    me = move.state["players"][player]
    hub = hub_of(me)
    info = move.catalogue.hubs[hub]
    why = message(N_("starting bonus of Hub {hub}"), hub=hub)
    start = {k: hub_value(move, hub, f"starting_{k}") for k in ("gems", *RESOURCES)}
    ledger.gain(move, player, start, why)
    _starting_diplomacy(move, player, hub, why)
    for spec, number in zip(info.value("setup_free_sectors", []),
                            _list(move, "sectors", len(info.value("setup_free_sectors", [])),
                                  _("the free Sector(s) taken"))):
        sector = move.catalogue.sectors.get(number)
        move.check(sector is not None and (sector.level, sector_color(move, number)) ==
                   (spec["level"], spec["color"]),
                   message(N_("Hub {hub} gives a free Level-{level} {color} Sector, not "
                              "{number}"), hub=hub, level=spec["level"],
                           color=color_message(spec["color"]), number=str(number)))
        add_sector(move, player, number, why)
    private = info.value("setup_private_sectors", 0)
    if private:
        numbers = _list(move, "private_sectors", private, _("the private Sectors drawn"))
        move.emit(Event.PRIVATE_SECTORS, message(N_("{player} sets aside {sectors} (Hub {hub})"),
                                                 player=move.name(player),
                                                 sectors=join(", ", numbers), hub=hub),
                  ["set", ["players", player, "private_sectors"], numbers])
    for change in info.value("setup_ship_changes", []):
        _ship_change(move, player, change, hub)
    for species, count in info.value("setup_residents", {}).items():
        for _time in range(count):
            gain_resident(move, player, species, "hub", why=why,
                          when_gaining=after_gaining_resident)
    compensation = _table(move, "turn_order_gems", f"player_{player + 1}")
    ledger.gain(move, player, {"gems": compensation}, message(N_("compensation for turn order")))
    move.emit(Event.BONUSES_TAKEN, message(N_("{player} has set up"), player=move.name(player)),
              ["remove_at", ["setup", "bonus_order"], 0],
              ["set", ["players", player, "ready"], True])
    if not move.state["setup"]["bonus_order"]:
        move.emit(Event.PLAY_STARTED, message(N_("Setup complete: the game begins")),
                  ["set", ["phase"], "play"], ["set", ["setup", "step"], "done"])
        start_turn(move, 0)


def _starting_diplomacy(move: Move, player: int, hub: str, why: Message) -> None:
    plan = hub_value(move, hub, "starting_diplomacy")
    steps = Counter(plan.get("fixed", {}))
    chosen = move.command.get("diplomacy") or {}
    if plan.get("choice"):
        move.check(sum(chosen.values()) == plan["choice"] and (
            len(chosen) == 1 or all(n == 1 for n in chosen.values())),
            message(N_("Hub {hub}: move up two spaces on one Diplomacy track or one space each on "
                       "two different tracks; give them as \"diplomacy\": {{track: n}}"),
                    hub=hub))
        steps.update(chosen)
    for track, n in steps.items():
        for _time in range(n):
            advance(move, player, track, pay=False, why=why)


def ship_change_applies(state: State, hub: str, change: Mapping[str, Any]) -> bool:
    """Whether a Hub's setup ship change applies: not B-2's draw in the first game ("That
    player ignores this particular bonus")."""
    return not (change["op"] == "draw" and state["options"]["first_game"] and hub == "B-2")


def discard_choices(state: State, player: int, change: Mapping[str, Any]) -> list[str]:
    """The player's ships a Hub's "discard" change may take: of its level, and of its ship type
    unless "any"."""
    return [sid for sid, s in state["ships"].items()
            if s["owner"] == player and s["design"].startswith(f"L{change['level']}-")
            and (change["ship"] == "any" or s["type"] == change["ship"])]


def _ship_change(move: Move, player: int, change: dict, hub: str) -> None:
    name = move.name(player)
    if not ship_change_applies(move.state, hub, change):
        return
    if change["op"] == "draw":
        kept = _list(move, "keep", change["keep"],
                     _("the Level-{level} ships kept of the {drawn} drawn").format(
                         level=change["level"], drawn=change["draw"]))
        for design in kept:
            ship = move.catalogue.ships.get(design)
            move.check(ship is not None and ship.group == "deck_design"
                       and ship.level in (change["level"], None),
                       message(N_("{design} is not a Level-{level} ship design"),
                               design=repr(design), level=change["level"]))
            _give_ship(move, player, design, (ship.type if ship else None) or "unknown")
        return
    candidates = discard_choices(move.state, player, change)
    if len(candidates) == change["count"]:
        chosen = candidates
    else:
        chosen = _list(move, "discard", change["count"],
                       _("the Level-{level} ship(s) discarded").format(level=change["level"]))
        move.check(all(sid in candidates for sid in chosen),
                   message(N_("{player} can discard {ships}"), player=name,
                           ships=", ".join(candidates)))
    for sid in chosen:
        move.emit(Event.SHIP_DISCARDED, message(N_("{player} discards {ship} (Hub {hub})"),
                                                player=name, ship=sid, hub=hub),
                  ["delete", ["ships", sid], None])


def _per_player(move: Move, key: str, what: str) -> dict:
    """A command field with one entry per player, by name."""
    given = move.command.get(key)
    names = sorted(p["name"] for p in move.state["players"])
    if not isinstance(given, dict) or sorted(given) != names:
        move.fail(_("give {what}").format(what=what))
    return given


def _list(move: Move, key: str, count: int, what: str) -> list:
    if count == 0:
        return []
    given = move.command.get(key)
    if not isinstance(given, list) or len(given) != count:
        move.fail(_("give {what}: \"{key}\": [{count} item(s)]").format(what=what, key=key,
                                                                     count=count))
    return given
