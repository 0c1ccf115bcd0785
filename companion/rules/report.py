"""What a game looks like from outside: a summary of the state, and the final position to score.

Both are plain data (JSON-ready) built from the state alone (and the catalogue for scoring).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.message import say
from companion.rules.position import read_position
from companion.rules.scoring import ScoreSheet, score_game, sheet_as_json
from companion.rules.state import State, count, fleet
from companion.rules.words import RESOURCES, word

COUNTERS = ("points", "gems", *RESOURCES)  # a player's counters as reported: the score first


def final_position(state: State, catalogue: Catalogue) -> dict:
    """The end-of-game position of `phoenix-companion score` for this game's state."""
    players = []
    for index, me in enumerate(state["players"]):
        sectors = []
        for sector in me["sectors"]:
            entry: dict[str, Any] = {key: sector[key]
                                     for key in ("number", "level", "color", "quarters")}
            entry["residents"] = list(sector["residents"])
            links = [link for ability, link in zip(catalogue.sectors[sector["number"]].abilities,
                                                   sector["links"])
                     if ability.trigger == "game_end" and link is not None]  # built: None
            if links:
                # "each occupied endgame bonus in their Level-3 Sectors"
                entry["endgame_bonus_active"] = all(link < len(sector["residents"])
                                                    for link in links)
            sectors.append(entry)
        players.append({
            "name": me["name"], "hub": me["hub"],
            **{k: count(me, k) for k in COUNTERS},
            "ships_left": len(fleet(state, index)),
            "hub_residents": [s for s in me["hub_slots"] if s is not None],
            "sectors": sectors,
        })
    return {"players": players}


def final_score(state: State, catalogue: Catalogue) -> ScoreSheet:
    """The score sheet of the game as it stands (final once the game is over)."""
    return score_position(final_position(state, catalogue), catalogue)


def score_position(position: Mapping[str, Any], catalogue: Catalogue) -> ScoreSheet:
    """The score sheet of an end-of-game position, scored with the catalogue it is read with
    (its own values on top, an example's shipped data: `position.position_catalogue`)."""
    return score_game(*read_position(position, catalogue))


def summary(state: State, catalogue: Catalogue) -> dict:
    """Players' counters, stations, diplomacy, supply, whose turn, end status (and the score
    sheet when the game is over)."""
    players = state["players"]
    turn = state["turn"]
    active = turn["active"]
    report = {
        "phase": state["phase"],
        "setup_step": state["setup"].get("step"),
        "turn": turn["number"],
        "active": players[active]["name"] if active is not None else None,
        "acted": turn["acted"],
        "extra_turns": turn["extra_turns"],
        "waiting_for": [{"player": players[p["player"]]["name"], "track": p["track"],
                         "options": p["options"]} for p in state["pending"]],
        "end": {
            "triggered_by": (players[state["end"]["triggered_by"]]["name"]
                             if state["end"]["triggered_by"] is not None else None),
            "final_turns": [players[i]["name"] for i in state["end"]["final_turns"]],
        },
        "supply": dict(state["supply"]),
        "display": list(state["display"]),
        "players": [
            {
                "name": me["name"], "color": me["color"], "hub": me["hub"],
                **{k: count(me, k) for k in COUNTERS},
                "diplomacy": dict(me["diplomacy"]),
                "ships": sorted(fleet(state, index)),
                "used_ships": sorted(sid for sid in fleet(state, index)
                                     if state["ships"][sid]["used_by"] is not None),
                "neutral_token": me["neutral_token"],
                "hub_residents": [s for s in me["hub_slots"] if s is not None],
                "sectors": [{"number": s["number"], "residents": list(s["residents"]),
                             "quarters": s["quarters"]} for s in me["sectors"]],
            }
            for index, me in enumerate(players)
        ],
        "overrides": [{"override": note["override"], "rules": [say(r) for r in note["rules"]]}
                      for note in state["notes"]],  # the rules broken, worded now
    }
    if state["phase"] == "over":
        report["score"] = sheet_as_json(final_score(state, catalogue))
    return report


def format_report(report: dict) -> str:
    """The state summary as text for a terminal (in the language spoken now; the names of
    counters, colours, tracks and ships as the JSON report has them)."""
    phase = report["phase"]
    lines = [_("Phase: {phase} (setup step: {step})").format(phase=word(phase),
                                                             step=report["setup_step"])
             if phase == "setup" else _("Phase: {phase}").format(phase=word(phase))]
    if report["active"]:
        lines.append((_("Turn {turn}: {player} (has acted)") if report["acted"]
                      else _("Turn {turn}: {player}")).format(turn=report["turn"],
                                                              player=report["active"]))
    for waiting in report["waiting_for"]:
        lines.append(_("Waiting for {player} to choose a {track} Diplomacy bonus: "
                       "{options}").format(player=waiting["player"], track=word(waiting["track"]),
                                           options=waiting["options"]))
    if report["end"]["triggered_by"]:
        lines.append(_("End triggered by {player}; last turns for: {players}").format(
            player=report["end"]["triggered_by"],
            players=", ".join(report["end"]["final_turns"]) or _("nobody")))
    supply = report["supply"]
    lines.append(_("Supply: {counts}").format(
        counts=", ".join(f"{word(k)} {v}" for k, v in supply.items())))
    for p in report["players"]:
        counters = ", ".join(f"{word(k)} {p[k]}" for k in COUNTERS)
        lines.append(_("{player} ({color}, Hub {hub}): {counters}").format(
            player=p["name"], color=word(p["color"]), hub=p["hub"], counters=counters))
        lines.append(_("  diplomacy: {levels}").format(
            levels=", ".join(f"{word(k)} {v}" for k, v in p["diplomacy"].items())))
        lines.append(_("  ships: {ships}").format(ships=", ".join(p["ships"]) or _("none")))
        for s in p["sectors"]:
            lines.append(_("  Sector {number}: {residents} ({count}/{quarters})").format(
                number=s["number"], residents=", ".join(map(word, s["residents"])) or _("empty"),
                count=len(s["residents"]), quarters=s["quarters"]))
        if p["hub_residents"]:
            lines.append(_("  Hub residents: {residents}").format(
                residents=", ".join(map(word, p["hub_residents"]))))
    return "\n".join(lines)
