"""What a player's phone page shows (plain Python, no Kivy, tested without a browser): built
from a `snapshot.Snapshot` for one seat, worded in the language spoken in this thread
(`i18n.speaking`), as plain JSON data that the page's script puts on screen as text. It reads
the table's own plain-Python models (the station, the ships, the Diplomacy bonus choices), so a
phone says what the table says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion import i18n
from companion.i18n import N_, _
from companion.rules.option_types import BonusPick, PendingChoice, TableOptions
from companion.rules.state import Player, State, count
from companion.rules.words import RESOURCES, TRACKS, amount, track_name
from companion.ui.kit.undo_redo_model import step_name
from companion.ui.kit.wording import track_short, word
from companion.ui.play.flows.abilities import bonus_label
from companion.ui.play.flows.prompts import in_turn_order
from companion.ui.play.station_model import Dot, StationView, station_view
from companion.ui.play.table_model import ship_button
from companion.web.snapshot import Snapshot

# a level whose bonus the catalogue lacks: its value is asked where it is chosen, on the table
ASKED_ON_THE_TABLE = N_("What this gives is asked on the table: choose it there.")


def page_words() -> dict[str, str]:
    """The page's own headings and lines, in the language spoken now."""
    return {"title": _("Phoenix Companion"), "question": _("Your Diplomacy bonus"),
            "station": _("Your station"), "ships": _("Your ships"),
            "diplomacy": _("Diplomacy"), "others": _("The other players"),
            "log": _("Last steps"), "offline": _("Connection lost - trying again…"),
            "sending": _("Sending…")}


def player_page(shown: Snapshot, seat: int) -> dict[str, Any]:
    """The page of the player in `seat` of the snapshot's game."""
    page: dict[str, Any] = {
        "version": shown.version, "lang": i18n.language(),
        "languages": [list(pair) for pair in i18n.LANGUAGES.items()], "words": page_words(),
        "game": shown.name, "over": False, "turn": "", "my_turn": False, "me": {},
        "question": None, "waiting": "", "others": [], "log": log_lines(shown.steps)}
    state, opts = shown.state, shown.options
    if state is None:
        page["turn"] = _("No game is open on the table.")
        return page
    if state["phase"] not in ("play", "over") or opts is None \
            or not 0 <= seat < len(state["players"]):
        page["turn"] = _("The game is being set up on the table.")
        return page
    me = state["players"][seat]
    page.update(over=state["phase"] == "over", turn=turn_line(state, opts, seat),
                my_turn=opts["turn"]["player"] == me["name"] and state["phase"] == "play",
                others=[other_line(p) for p in state["players"] if p is not me])
    page["me"] = my_part(shown, seat)
    mine = [p for p in opts["pending"] if p["player"] == me["name"]]
    if mine:
        page["question"] = question(mine[0])
    elif opts["pending"]:
        first = in_turn_order(state, opts["pending"])[0]
        page["waiting"] = _("{player} chooses a {track} Diplomacy bonus").format(
            player=first["player"], track=track_name(first["track"]))
    return page


def turn_line(state: State, opts: TableOptions, seat: int) -> str:
    """Whose turn it is, from this player's side ("Turn 9 · your turn")."""
    if state["phase"] == "over":
        return _("The game is over.")
    turn = opts["turn"]
    if turn["player"] == state["players"][seat]["name"]:
        return _("Turn {number} · your turn").format(number=turn["number"])
    return _("Turn {number} · {player}'s turn").format(number=turn["number"],
                                                         player=turn["player"])


def my_part(shown: Snapshot, seat: int) -> dict[str, Any]:
    """The player's own counters, score, Diplomacy, ships and station."""
    state, opts, catalogue = shown.state, shown.options, shown.catalogue
    assert state is not None and opts is not None and catalogue is not None
    me = state["players"][seat]
    ships = [ship_button(entry, state) for entry in opts.get("ships", [])  # (none at the end)
             if entry["owner"] == me["name"]]
    station = station_view(state, catalogue, me["name"])
    top = catalogue.field("diplomacy", "board", "top_level").value
    return {
        "name": me["name"], "color": me["color"], "hub": station.hub,
        "counters": [amount(c, count(me, c)) for c in ("gems", *RESOURCES)],
        "points": amount("points", count(me, "points")),
        "projected": projected(shown, seat),
        "diplomacy": [{"track": track_name(t), "level": me["diplomacy"][t], "top": top}
                      for t in TRACKS],
        "ships": [{"name": ship.label, "used": bool(ship.marker),
                   "note": "" if not ship.marker else
                   _("your marker") if ship.marker == me["name"] else
                   _("{player}'s marker").format(player=ship.marker)}
                  for ship in ships],
        "station": station_part(station)}


def projected(shown: Snapshot, seat: int) -> str:
    """The final score "if the game ended now" (the engine's scoring); at the end, the final
    score; "" when it cannot be worked out (a value the catalogue lacks)."""
    assert shown.state is not None
    sheet = shown.score_sheet
    if sheet is None:
        return ""
    total = sheet.players[seat].total
    if shown.state["phase"] == "over":
        return _("Final score: {points}").format(points=amount("points", total))
    return _("{points} if the game ended now").format(points=amount("points", total))


def station_part(station: StationView) -> dict[str, Any]:
    """The station as the page draws it: the Hub's quarters, then each wing's Sectors."""
    return {"hub": {"title": station.hub, "quarters": quarters(station.hub_quarters)},
            "wings": [{"color": wing, "title": _("{color} wing").format(color=word(wing)),
                       "sectors": [{"title": _("Sector {number} · Level {level}").format(
                                        number=card.number, level=card.level),
                                    "quarters": quarters(card.quarters),
                                    "abilities": list(card.abilities)} for card in cards]}
                      for wing, cards in station.wings.items()]}


def quarters(dots: Sequence[Dot]) -> list[dict[str, Any]]:
    return [{"species": d.species, "letter": d.letter, "active": d.active} for d in dots]


def question(pending: PendingChoice) -> dict[str, Any]:
    """A Diplomacy bonus waiting on this player, its choices as the table offers them; a level
    whose bonus the catalogue lacks is chosen on the table, where its value is asked."""
    choices = []
    for pick in pending["options"]:
        known = pick["gives"] is not None
        choices.append({"levels": list(pick["levels"]),
                        "label": choice_label(pick), "allowed": known,
                        "reason": "" if known else _(ASKED_ON_THE_TABLE)})
    return {"title": _("Your {track} Diplomacy bonus - choose one").format(
                track=track_name(pending["track"])),
            "track": pending["track"], "choices": choices,
            "note": _("Or choose on the table.")}


def offered(opts: TableOptions, player: str, track: str,
            levels: list[int]) -> tuple[BonusPick | None, str]:
    """The choice a phone answered, if the table offers it now to `player` (else None and why
    not, in words): the page it was chosen on may be stale."""
    waiting = [p for p in opts["pending"] if p["player"] == player and p["track"] == track]
    if not waiting:
        return None, _("That Diplomacy bonus is not waiting on you any more: it has been "
                       "chosen already.")
    pick = next((o for o in waiting[0]["options"] if o["levels"] == levels), None)
    if pick is None:
        return None, _("That choice is not on offer now.")
    if pick["gives"] is None:
        return None, _(ASKED_ON_THE_TABLE)
    return pick, ""


def choice_label(pick: BonusPick) -> str:
    """What a Diplomacy bonus choice gives, in words ("2 GEMs")."""
    return bonus_label(pick["levels"], pick["gives"])


def other_line(player: Player) -> dict[str, str]:
    """Another player in brief: counters and points, Diplomacy levels."""
    return {"name": player["name"], "color": player["color"],
            "line": " · ".join(amount(c, count(player, c)) for c in ("gems", *RESOURCES, "points")),
            "diplomacy": "  ".join(f"{track_short(t)} {player['diplomacy'][t]}"
                                   for t in TRACKS)}


def log_lines(steps: Sequence[Sequence[Mapping[str, Any]]]) -> list[str]:
    """The last steps in words, newest first."""
    return [name for name in (step_name(events) for events in reversed(steps)) if name]
