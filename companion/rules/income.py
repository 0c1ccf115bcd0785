"""Turn option B: take income - eligibility, resetting ships, income, income powers, relocation.

"A player can only take income if at least one of the following is true: The player has 7 GEMs or
fewer remaining. At least 1 of the player's ships is used (i.e., has GEMs on it). There are no
ship actions the player can take".
"""

from __future__ import annotations

from companion.i18n import N_, _
from companion.rules import abilities, gains, ledger
from companion.rules.actions import ship_label, why_unusable
from companion.rules.message import message
from companion.rules.move import Missing, Move
from companion.rules.option_types import IncomeLine
from companion.rules.setup import hub_value
from companion.rules.state import Event, fleet, hub_of
from companion.rules.station import place_resident, quarter_active, remove_resident, sector_of
from companion.rules.turns import require_main_action

INCOME_GEMS_LIMIT = 7
RELOCATION_GEMS = 1


def income(move: Move) -> None:
    """`income`: {"player", "use": [...], "choices": {...}, "bonus": {...},
    "relocate": [{"from": Sector|"hub", "slot": n, "to": Sector|"hub"}]}."""
    player = move.player()
    require_main_action(move, player)
    check_eligible(move, player)
    take_income(move, player)


def check_eligible(move: Move, player: int) -> None:
    """Refuse income unless one of the three conditions holds (the reason names them)."""
    me = move.state["players"][player]
    used = [sid for sid in fleet(move.state, player)
            if move.state["ships"][sid]["used_by"] is not None]
    if me["gems"] <= INCOME_GEMS_LIMIT or used:
        return
    sure, unsure, asked = usable_ships(move, player)
    if not sure and asked is not None and not move.override:
        raise asked  # income is never refused on a guess: the value it hangs on is asked
    usable = sure or unsure  # (overridden: the ships counted usable with the values unknown)
    move.check(not usable, message(N_("Income needs {limit} GEMs or fewer, a used ship of yours, "
                                      "or no possible action - {player} has {gems} GEMs and no "
                                      "used ship, and can still use {ship}"),
                                   limit=INCOME_GEMS_LIMIT, player=me["name"], gems=me["gems"],
                                   ship=ship_label(move.state, usable[0]) if usable else ""))


def usable_ships(move: Move, player: int) -> tuple[list[str], list[str], Missing | None]:
    """Ships the player could still use this turn: unused, allowed, affordable, and with an
    action that can do something ("A player can only use a ship action if they can complete at
    least one part of its action"): those usable whatever the values, those whose answer hangs
    on a value the catalogue lacks, and the question for the first such value."""
    sure: list[str] = []
    unsure: list[str] = []
    asked: Missing | None = None
    for ship_id in move.state["ships"]:
        try:
            if why_unusable(move, player, ship_id, ask=True) is None:
                sure.append(ship_id)
        except Missing as missing:
            if why_unusable(move, player, ship_id) is None:  # usable if the value allows
                unsure.append(ship_id)
                asked = asked or missing
    return sure, unsure, asked


def take_income(move: Move, player: int, *, new_human_counts: bool = False) -> None:
    """The three steps of the Income action, then the end-of-income obligations.
    `new_human_counts`: A-8's "then take income (so the new Human affects income)"."""
    reset_ships(move, player)
    base_income(move, player, placed_now_pay=new_human_counts)
    abilities.run(move, player, "income")
    relocate(move, player)
    abilities.run(move, player, "income_end")
    hub = move.state["players"][player]["hub"]
    taken = (N_("{player} gains a Human, then takes income (Hub {hub})") if new_human_counts
             else N_("{player} takes income"))
    move.emit(Event.INCOME_TAKEN, message(taken, player=move.name(player), hub=hub),
              ["add", ["players", player, "incomes"], 1],
              ["set", ["turn", "acted"], True],
              ["set", ["turn", "action"], {"income": True}])


def reset_ships(move: Move, player: int) -> None:
    """"The player retrieves their Action marker and resets any of their ships" and their
    Neutral Ship token."""
    ops: list[list] = []
    me = move.state["players"][player]
    for sid, ship in move.state["ships"].items():
        if ship["used_by"] is not None and (ship["owner"] == player
                                            or sid == me["neutral_token"]):
            ops += [["set", ["ships", sid, "gems"], 0], ["set", ["ships", sid, "used_by"], None]]
    if me["neutral_token"]:
        ops.append(["set", ["players", player, "neutral_token"], None])
    if ops:
        move.emit(Event.SHIPS_RESET, message(N_("{player} returns the GEMs on their used ships "
                                                "(and their Neutral Ship token) to the supply"),
                                             player=move.name(player)), *ops)


def base_income(move: Move, player: int, *, placed_now_pay: bool = False) -> None:
    """Hub income per ship (or A-1's fixed 10) and the income icons of active quarters (with
    `placed_now_pay`, of every occupied quarter, the ones filled this turn too)."""
    for line in income_lines(move, player, placed_now_pay=placed_now_pay):
        ledger.gain(move, player, line["gains"], line["why"])


def income_lines(move: Move, player: int, *, placed_now_pay: bool = False) -> list[IncomeLine]:
    """What income pays, line by line: `{"source", "quarter", "gains", "why"}` for the Hub
    (per ship, `"ships"` counted), each active Sector quarter's icons and each occupied Hub
    quarter."""
    me = move.state["players"][player]
    hub = hub_of(me)
    ships = len(fleet(move.state, player))
    per_ship = hub_value(move, hub, "income_gems_per_ship")
    # A Hub's income is per ship ("most Hubs generate 1 GEM per ship"); only a Hub that pays
    # nothing per ship (A-1: "income is 10 regardless of the number of ships") has a fixed one.
    fixed = 0 if per_ship else hub_value(move, hub, "income_fixed_gems")
    lines: list[IncomeLine] = [
        {"source": _("Hub {hub}").format(hub=hub), "quarter": None, "ships": ships,
         "per_ship": per_ship, "gains": {"gems": per_ship * ships + fixed},
         "why": message(N_("Hub {hub} income ({ships} ships)"), hub=hub, ships=ships)}]
    for sector in me["sectors"]:
        for quarter, amounts in sector["income"]:
            placed_now = placed_now_pay and quarter < len(sector["residents"])
            if placed_now or quarter_active(move.state, sector, quarter):
                lines.append({"source": _("Sector {number}").format(number=sector["number"]),
                              "quarter": quarter, "gains": amounts,
                              "why": message(N_("income of Sector {number}"),
                                             number=sector["number"])})
    if any(me["hub_slots"]):
        slot_income = hub_value(move, hub, "quarter_income")
        for slot, (resident, amounts) in enumerate(zip(me["hub_slots"], slot_income)):
            if resident is not None:
                lines.append({"source": _("Hub {hub}").format(hub=hub), "quarter": slot,
                              "gains": amounts,
                              "why": message(N_("income of Hub {hub}'s quarters"), hub=hub)})
    return lines


def relocate(move: Move, player: int) -> None:
    """"For each resident the player wishes to relocate, the player must pay 1 GEM and must
    respect the General Placement Rules for Residents.\""""
    for item in move.command.get("relocate") or []:
        source, slot, target = item.get("from"), item.get("slot", 0), item.get("to")
        if source != "hub" and sector_of(move.state, player, source) is None:
            move.fail(_("{player} has no Sector {number}").format(player=move.name(player),
                                                                  number=source))
        ledger.pay(move, player, {"gems": RELOCATION_GEMS}, message(N_("relocating a resident")))
        species = remove_resident(move, player, source, slot, to="hand",
                                  why=message(N_("relocation")))
        place_resident(move, player, species, target, why=message(N_("relocation")),
                       from_supply=False)


def human_then_income(move: Move) -> None:
    """Hub A-8: "In lieu of a normal turn, you may pay 1 food, 1 water, and 1 metal to gain a
    Human, place it in living quarters on your station, and then take income"."""
    player = move.player()
    require_main_action(move, player)
    hub = hub_of(move.state["players"][player])
    power = next((a for a in move.catalogue.hubs[hub].abilities
                  if a.kind == "gain_human_then_income"), None)
    if power is None:
        move.fail(_("only Hub A-8 may gain a Human and then take income (not {hub})").format(
            hub=hub))
    gains.buy_resident(move, player, "human", power.params["cost"],
                       where=gains.choice_of_place(move, "human"), source=hub,
                       why=message(N_("Hub {hub}"), hub=hub),
                       when_gaining=abilities.after_gaining_resident)
    take_income(move, player, new_human_counts=True)

