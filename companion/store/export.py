"""Exports of a stored game (game record, CSV score sheet, BG Stats play) and record import.

The game record is the game itself: every command as confirmed (undo and redo included) with
its time, and the catalogue overlay it was played with; importing it replays the commands into
an identical game. The score sheet is carried along and checked on import. See docs/store.md.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from companion import __version__
from companion.rules.catalogue import OVERLAY_FORMAT, CatalogueError
from companion.rules.catalogue import VERSION as OVERLAY_VERSION
from companion.rules.game import Game, Missing, Refused
from companion.rules.report import final_score
from companion.rules.scoring import ScoreSheet, sheet_as_json
from companion.rules.state import new_state
from companion.store import schema
from companion.store.db import Store, StoredGame, dumps, timestamp
from companion.store.errors import RecordError, StoreError

RECORD_FORMAT = "phoenix-companion-game-record"
RECORD_VERSION = 1
GAME_NAME = "Space Station Phoenix"
BGG_ID: int | None = None
"""BoardGameGeek id of the game for BG Stats; left out until confirmed (BG Stats then asks the
user to match the game by name on import)."""


def _journal(store: Store, game_id: int) -> list[tuple[str, str]]:
    return store.conn.execute("SELECT at, command FROM journal WHERE game_id = ? ORDER BY n",
                              (game_id,)).fetchall()


def _sheet(played: StoredGame) -> ScoreSheet | None:
    """The score sheet as the game stands (None while players have no Hub yet)."""
    if not played.state["players"] or any(p["hub"] is None for p in played.state["players"]):
        return None
    try:
        return final_score(played.state, played.catalogue)
    except (ValueError, KeyError, TypeError):
        return None


def game_record(store: Store, game_id: int) -> dict:
    """The game record: commands with their times, the overlay used, the score sheet."""
    info = store.game_info(game_id)
    played = store.open_game(game_id)
    stored = store.conn.execute("SELECT overlay FROM games WHERE id = ?", (game_id,)).fetchone()
    sheet = _sheet(played)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "app": f"phoenix-companion {__version__}",
        "exported": timestamp(),
        "game": {"name": info.name, "created": info.created, "updated": info.updated,
                 "phase": info.phase, "players": info.players},
        "overlay": {"format": OVERLAY_FORMAT, "version": OVERLAY_VERSION,
                    "values": store._game_values(json.loads(stored[0]))},
        "commands": [{"at": at, "command": json.loads(command)}
                     for at, command in _journal(store, game_id)],
        "score_sheet": sheet_as_json(sheet) if sheet else None,
    }


def _invalid(source: str, problem: str) -> RecordError:
    return RecordError(f"{source}: not a game record Phoenix Companion can import ({problem})")


def import_record(store: Store, record: Any, *, source: str = "record",
                  name: str | None = None) -> int:
    """Replay a game record into a new game (one transaction: all of it or nothing); its id."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise _invalid(source, f"expected \"format\": \"{RECORD_FORMAT}\"")
    if record.get("version") != RECORD_VERSION:
        raise _invalid(source, f"unsupported version {record.get('version')!r}")
    commands = record.get("commands")
    if not isinstance(commands, list) or not all(
            isinstance(e, Mapping) and isinstance(e.get("at"), str)
            and isinstance(e.get("command"), Mapping) and isinstance(e["command"].get("cmd"), str)
            for e in commands):
        raise _invalid(source, "\"commands\" must be a list of {\"at\": time, \"command\": {...}}")
    overlay = record.get("overlay") or {}
    values = overlay.get("values", {}) if isinstance(overlay, Mapping) else None
    if not isinstance(values, Mapping):
        raise _invalid(source, "\"overlay\" must hold the catalogue values as \"values\"")
    game = record.get("game") if isinstance(record.get("game"), Mapping) else {}
    try:
        catalogue = store.catalogue_for(json.loads(json.dumps(values)))
    except CatalogueError as error:
        raise _invalid(source, f"its catalogue overlay: {error}") from None
    name = name or str(game.get("name") or "Imported game")
    created = str(game.get("created") or timestamp())
    phase, players, scores = schema.listing(new_state())
    with store._transaction() as conn:
        game_id = conn.execute(
            "INSERT INTO games (name, created, updated, head, overlay, phase, players, scores) "
            "VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
            (name, created, created, dumps(values), phase, players, scores)).lastrowid
        assert game_id is not None
        played = StoredGame(store, game_id, name, Game(catalogue), 0, [])
        for number, entry in enumerate(commands, start=1):
            command = dict(entry["command"])
            try:
                step = played.game.execute(command)
            except Refused as refused:
                raise RecordError(f"{source}: command {number} ({command['cmd']}) is refused: "
                                  f"{refused.reason}") from None
            except Missing as missing:
                raise RecordError(f"{source}: command {number} ({command['cmd']}) needs "
                                  f"{missing.key}, which the record's overlay lacks") from None
            assert step is not None
            kind = command["cmd"] if command["cmd"] in ("undo", "redo") else "new"
            store._write(conn, played, kind, step, entry["at"])
        expected = record.get("score_sheet")
        sheet = _sheet(played)
        if expected is not None and (sheet is None or sheet_as_json(sheet) != expected):
            raise RecordError(f"{source}: the replayed game does not score as the record says; "
                              "nothing was imported")
    return game_id


def score_csv(store: Store, game_id: int) -> str:
    """The score sheet as CSV: a header of player names, one row per category, then ranks."""
    played = store.open_game(game_id)
    sheet = _sheet(played)
    if sheet is None:
        raise StoreError(f"game {game_id} has no score sheet yet (its players have no Hub)")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Category", *[p.name for p in sheet.players]])
    for label, values in sheet.rows():
        writer.writerow([label, *values])
    writer.writerow(["Rank", *[p.rank for p in sheet.players]])
    writer.writerow(["Winner", *["yes" if p.name in sheet.winners else "" for p in sheet.players]])
    return out.getvalue()


def _local(at: str) -> datetime:
    return datetime.fromisoformat(at).astimezone()


def bgstats_play(store: Store, game_id: int) -> dict:
    """A finished game as a BG Stats play file (.bgsplay JSON); fields in docs/store.md."""
    info = store.game_info(game_id)
    if not info.finished:
        raise StoreError(f"game {game_id} is not over yet: BG Stats records finished plays")
    played = store.open_game(game_id)
    sheet = _sheet(played)
    assert sheet is not None
    journal = _journal(store, game_id)
    start, end = _local(journal[0][0]), _local(journal[-1][0])
    hubs = {p["name"]: p["hub"] for p in played.state["players"]}
    names = [p.name for p in sheet.players]
    created = info.created
    stable = uuid.uuid5(uuid.NAMESPACE_URL, f"phoenix-companion:{created}:{','.join(names)}")
    game: dict[str, Any] = {"id": 1, "name": GAME_NAME, "cooperative": False,
                            "highestWins": True, "noPoints": False, "usesTeams": False,
                            "minPlayerCount": 2, "maxPlayerCount": 4}
    if BGG_ID is not None:
        game["bggId"] = BGG_ID
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")
    return {
        "about": "A Board Game Stats play file written by Phoenix Companion: open it with "
                 "Board Game Stats (share or open-in).",
        "games": [game],
        "players": [{"id": i + 1, "name": name, "isAnonymous": False}
                    for i, name in enumerate(names)],
        "locations": [],
        "plays": [{
            "uuid": str(stable).upper(),
            "gameRefId": 1,
            "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
            "playDateYmd": int(start.strftime("%Y%m%d")),
            "entryDate": stamp,
            "modificationDate": stamp,
            "durationMin": max(1, round((end - start).total_seconds() / 60)),
            "ignored": False,
            "manualWinner": False,
            "usesTeams": False,
            "board": "",
            "comments": f"{info.name} - recorded by Phoenix Companion. Hubs: "
                        + ", ".join(f"{n} {hubs[n]}" for n in names),
            "playerScores": [{
                "playerRefId": i + 1,
                "score": str(p.total),
                "winner": p.name in sheet.winners,
                "rank": p.rank,
                "seatOrder": i + 1,
                "startPlayer": i == 0,
                "newPlayer": False,
                "role": f"Hub {hubs[p.name]}",
            } for i, p in enumerate(sheet.players)],
        }],
    }


def export_text(store: Store, game_id: int, kind: str) -> str:
    """The export of `kind` (record, csv, bgstats) as text."""
    if kind == "record":
        return json.dumps(game_record(store, game_id), indent=1, ensure_ascii=False) + "\n"
    if kind == "csv":
        return score_csv(store, game_id)
    if kind == "bgstats":
        return json.dumps(bgstats_play(store, game_id), indent=1, ensure_ascii=False) + "\n"
    raise StoreError(f"unknown export format {kind!r} (record, csv, bgstats)")
