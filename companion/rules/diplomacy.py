"""The Diplomacy board: advancing on its four tracks, and the bonuses every ship action pays out.

"When any player uses a Dismantle, Construct, Transport, or Terran Expedition ship, the
corresponding Diplomacy track will produce bonuses." Each player above the starting space gets a
choice: the sole leader the bonus of their level or any one below; tied leaders and everyone
behind one from below; the top two levels give "2 different bonuses from the first four spaces".
"""

from __future__ import annotations

from itertools import combinations

from companion.i18n import N_, _
from companion.rules import ledger
from companion.rules.message import Message, message
from companion.rules.move import Move
from companion.rules.state import Event, State
from companion.rules.words import TRACKS, joined_message, track_message, track_name

TOP = 5
SINGLE_LEVELS = (0, 1, 2, 3)  # levels whose bonus is one thing; 4 and 5 give two of these


def lobbying_cost(move: Move, level: int) -> int:
    """GEMs to move up to `level` ("the lobbying cost in GEMs shown on the step above")."""
    return move.value("diplomacy", f"level-{level}", "lobbying_cost",
                      _("What is the lobbying cost (GEMs) of Diplomacy level {level}?").format(
                          level=level))


def advance(move: Move, player: int, track: str, *, pay: bool, why: Message) -> None:
    """Move the player's token one space up `track`, paying the lobbying cost if `pay`."""
    if track not in TRACKS:
        move.fail(_("no Diplomacy track {track} (tracks: {tracks})").format(
            track=repr(track), tracks=", ".join(TRACKS)))
    level = move.state["players"][player]["diplomacy"][track]
    move.check(level < TOP, message(N_("{player} is at the top of the {track} track: \"Once a "
                                       "token reaches the top space, it cannot advance "
                                       "further.\""),
                                    player=move.name(player), track=track_message(track)))
    if level >= TOP:
        return
    if pay:
        ledger.pay(move, player, {"gems": lobbying_cost(move, level + 1)},
                   message(N_("lobbying for {track} level {level}"),
                           track=track_message(track), level=level + 1))
    move.emit(Event.DIPLOMACY_ADVANCED,
              message(N_("{player} advances to level {level} on the {track} track: {why}"),
                      player=move.name(player), level=level + 1, track=track_message(track),
                      why=why),
              ["add", ["players", player, "diplomacy", track], 1])


def bonus_of_level(move: Move, track: str, level: int) -> dict[str, int]:
    """What one single-bonus level (0-3) of `track` gives."""
    return move.value("diplomacy", f"level-{level}", f"bonus_{track}",
                      _("What does level {level} of the {track} Diplomacy track give?").format(
                          level=level, track=track_name(track)))


def allowed_levels(state: State, player: int, track: str) -> list[int]:
    """The levels whose bonus the player may take when `track` pays out ([] for none).

    "A player who is the sole leader on the track may choose the bonus in their current space or
    any single bonus below it"; "tied for the lead ... may choose the bonus from any single space
    below"; "not in the lead ... any single space below"; "If a player has not advanced beyond the
    starting space, they get no bonus."
    """
    levels = [p["diplomacy"][track] for p in state["players"]]
    mine = levels[player]
    if mine == 0:
        return []
    sole_leader = all(mine > other for i, other in enumerate(levels) if i != player)
    return list(range(0, mine + 1 if sole_leader else mine))


def options(allowed: list[int]) -> list[list[int]]:
    """Every legal pick: one single-bonus level, or two different ones when level 4/5 is allowed.

    "The top two spaces of each track allow a choice of 2 different bonuses from the first four
    spaces of that track (they cannot be the same bonus)."
    """
    picks = [[level] for level in allowed if level in SINGLE_LEVELS]
    if any(level > 3 for level in allowed):
        picks += [list(pair) for pair in combinations(SINGLE_LEVELS, 2)]
    return picks


def pay_out(move: Move, track: str) -> None:
    """After a ship action of `track`: queue each player's bonus choice, taking lone options."""
    for player in range(len(move.state["players"])):
        picks = options(allowed_levels(move.state, player, track))
        if not picks:
            continue
        if len(picks) == 1:
            grant(move, player, track, bonus_amounts(move, track, picks[0]))
            continue
        move.emit(Event.BONUS_OFFERED,
                  message(N_("{player} chooses a {track} Diplomacy bonus"),
                          player=move.name(player), track=track_message(track)),
                  ["append", ["pending"], {"kind": "diplomacy_bonus", "player": player,
                                           "track": track, "options": picks}])


def bonus_amounts(move: Move, track: str, levels: list[int]) -> dict[str, int]:
    """What the bonuses of `levels` on `track` give together."""
    amounts: dict[str, int] = {}
    for level in levels:
        for key, n in bonus_of_level(move, track, level).items():
            amounts[key] = amounts.get(key, 0) + n
    return amounts


def grant(move: Move, player: int, track: str, amounts: dict[str, int]) -> None:
    """Give a Diplomacy bonus on `track` to the player."""
    ledger.gain(move, player, amounts,
                message(N_("{track} Diplomacy bonus"), track=track_message(track)))


def choose_bonus(move: Move) -> None:
    """Command `diplomacy_bonus`: {"player", "levels": [n] or [a, b]} for a pending choice."""
    player = move.player()
    pending = move.state["pending"]
    index = next((i for i, p in enumerate(pending)
                  if p["kind"] == "diplomacy_bonus" and p["player"] == player), None)
    if index is None:
        move.fail(_("{player} has no Diplomacy bonus to choose now").format(
            player=move.name(player)))
    entry = pending[index]
    levels = move.command.get("levels")
    if not isinstance(levels, list):
        move.fail(_("give the chosen level(s) as \"levels\": [n] or [a, b]"))
    picked = sorted(levels)
    if not picked or any(level not in SINGLE_LEVELS for level in picked):
        move.fail(_("a Diplomacy bonus is the bonus of one or two of the levels {levels}, "
                    "not {given}").format(levels=", ".join(map(str, SINGLE_LEVELS)),
                                          given=levels))
    move.check(picked in entry["options"],
               message(N_("{player} may take one of {options} on the {track} track, not "
                          "{given}"),
                       player=move.name(player), options=_show(entry["options"]),
                       track=track_message(entry["track"]), given=str(levels)))
    amounts = bonus_amounts(move, entry["track"], picked)
    level = joined_message(map(str, picked))
    move.emit(Event.BONUS_CHOSEN, message(N_("{player} takes {amounts} ({track} Diplomacy, "
                                             "level {level})"),
                                          player=move.name(player),
                                          amounts=ledger.describe_message(amounts),
                                          track=track_message(entry["track"]), level=level),
              ["remove_at", ["pending"], index])
    grant(move, player, entry["track"], amounts)


def _show(picks: list[list[int]]) -> str:
    return ", ".join("+".join(map(str, p)) for p in picks)
