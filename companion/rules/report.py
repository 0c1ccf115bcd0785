"""What a game looks like from outside: a summary of the state, and the final position to score.

Both are plain data (JSON-ready) built from the state alone (and the catalogue for scoring).
"""

from __future__ import annotations

from companion.rules.catalogue import Catalogue
from companion.rules.position import parse_position
from companion.rules.scoring import ScoreSheet, score_game, sheet_as_json
from companion.rules.state import State, fleet
from companion.rules.words import RESOURCES

COUNTERS = ("points", "gems", *RESOURCES)  # a player's counters as reported: the score first


def final_position(state: State, catalogue: Catalogue) -> dict:
    """The end-of-game position of `phoenix-companion score` for this game's state."""
    players = []
    for index, me in enumerate(state["players"]):
        sectors = []
        for sector in me["sectors"]:
            entry = {key: sector[key] for key in ("number", "level", "color", "quarters")}
            entry["residents"] = list(sector["residents"])
            links = [link for ability, link in zip(catalogue.sectors[sector["number"]].abilities,
                                                   sector["links"])
                     if ability.trigger == "game_end"]
            if links:
                # "each occupied endgame bonus in their Level-3 Sectors"
                entry["endgame_bonus_active"] = all(link < len(sector["residents"])
                                                    for link in links)
            sectors.append(entry)
        players.append({
            "name": me["name"], "hub": me["hub"],
            **{k: me[k] for k in COUNTERS},
            "ships_left": len(fleet(state, index)),
            "hub_residents": [s for s in me["hub_slots"] if s is not None],
            "sectors": sectors,
        })
    return {"players": players}


def final_score(state: State, catalogue: Catalogue) -> ScoreSheet:
    """The score sheet of the game as it stands (final once the game is over)."""
    position = final_position(state, catalogue)
    return score_game(parse_position(position, catalogue), catalogue)


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
                **{k: me[k] for k in COUNTERS},
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
        "overrides": list(state["notes"]),
    }
    if state["phase"] == "over":
        report["score"] = sheet_as_json(final_score(state, catalogue))
    return report


def format_report(report: dict) -> str:
    """The state summary as text for a terminal."""
    lines = [f"Phase: {report['phase']}"
             + (f" (setup step: {report['setup_step']})" if report["phase"] == "setup" else "")]
    if report["active"]:
        lines.append(f"Turn {report['turn']}: {report['active']}"
                     + (" (has acted)" if report["acted"] else ""))
    for waiting in report["waiting_for"]:
        lines.append(f"Waiting for {waiting['player']} to choose a {waiting['track']} "
                     f"Diplomacy bonus: {waiting['options']}")
    if report["end"]["triggered_by"]:
        lines.append(f"End triggered by {report['end']['triggered_by']}; last turns for: "
                     + (", ".join(report["end"]["final_turns"]) or "nobody"))
    supply = report["supply"]
    lines.append("Supply: " + ", ".join(f"{k} {v}" for k, v in supply.items()))
    for p in report["players"]:
        counters = ", ".join(f"{k} {p[k]}" for k in COUNTERS)
        lines.append(f"{p['name']} ({p['color']}, Hub {p['hub']}): {counters}")
        lines.append("  diplomacy: " + ", ".join(f"{k} {v}" for k, v in p["diplomacy"].items()))
        lines.append(f"  ships: {', '.join(p['ships']) or 'none'}")
        for s in p["sectors"]:
            lines.append(f"  Sector {s['number']}: {', '.join(s['residents']) or 'empty'} "
                         f"({len(s['residents'])}/{s['quarters']})")
        if p["hub_residents"]:
            lines.append(f"  Hub residents: {', '.join(p['hub_residents'])}")
    return "\n".join(lines)
