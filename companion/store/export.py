"""Exports of a stored game (game record, CSV score sheet, BG Stats play) and record import.

The game record is the game itself: every command as confirmed (undo and redo included) with
its time, and the catalogue overlay it was played with; importing it replays the commands into
an identical game. The score sheet is carried along and checked on import, and a digest over
the whole record shows whether it was changed after export. See docs/store.md.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from companion import __version__
from companion.catalogue_files import OVERLAY_FORMAT
from companion.catalogue_files import VERSION as OVERLAY_VERSION
from companion.files import is_version
from companion.i18n import _
from companion.rules.catalogue import CatalogueError
from companion.rules.game import Game, Missing, Refused
from companion.rules.move import overlay_refusal
from companion.rules.report import final_score
from companion.rules.scoring import ScoreSheet, category_name, sheet_as_json
from companion.rules.state import new_state
from companion.store import schema
from companion.store.db import (
    Store,
    StoredGame,
    command_text,
    dumps,
    is_time,
    plausible_time,
    timestamp,
)
from companion.store.errors import RecordError, StoreError
from companion.text import name_problem

RECORD_FORMAT = "phoenix-companion-game-record"
RECORD_VERSION = 1
GAME_NAME = "Space Station Phoenix"
BGG_ID = 356414
"""Space Station Phoenix's BoardGameGeek id as a public list gives it
(https://boardgamegeek.com/boardgame/356414); BG Stats matches the game by it."""
LOCATION = "Phoenix Companion table"


def stable_uuid(*parts: str) -> str:
    """A uuid5 that is the same for the same parts, in BG Stats' upper-case form."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "phoenix-companion:" + ":".join(parts))).upper()


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


def record_digest(record: Mapping[str, Any]) -> str:
    """The record's digest: SHA-256 of its content without "digest" (canonical JSON)."""
    content = {key: value for key, value in record.items() if key != "digest"}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def game_record(store: Store, game_id: int) -> dict:
    """The game record: commands with their times, the overlay used, the score sheet, and the
    digest over all of it."""
    info = store.game_info(game_id)
    played = store.open_game(game_id)
    stored = store.conn.execute("SELECT overlay FROM games WHERE id = ?", (game_id,)).fetchone()
    sheet = _sheet(played)
    record = {
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
    record["digest"] = record_digest(record)
    return record


def _invalid(source: str, problem: str) -> RecordError:
    return RecordError(_("{source}: not a game record Phoenix Companion can import "
                         "({problem})").format(source=source, problem=problem))


def check_record(record: Any, source: str, *, require_digest: bool = True) -> None:
    """Refuse (RecordError naming the field) a record that is not one `game_record` writes,
    or that was changed after export (its digest); without a digest only when not required."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise _invalid(source, _("expected \"format\": \"{format}\"").format(
            format=RECORD_FORMAT))
    if not is_version(record.get("version"), RECORD_VERSION):
        raise _invalid(source, _("unsupported version {version}").format(
            version=repr(record.get("version"))))
    digest = record.get("digest")
    if digest is None:
        if require_digest:
            raise RecordError(_("{source}: this record has no digest, so it cannot be checked "
                                "for changes made after export; nothing was imported (import it "
                                "anyway with --no-digest if you trust where it came "
                                "from)").format(source=source))
    elif not isinstance(digest, str) or digest != record_digest(record):
        raise RecordError(_("{source}: the record was changed after it was exported (its "
                            "digest does not match its content); nothing was imported").format(
                                source=source))
    unknown = set(record) - {"format", "version", "app", "exported", "game", "overlay",
                             "commands", "score_sheet", "digest"}
    if unknown:
        raise _invalid(source, _("unknown field {field}").format(field=repr(sorted(unknown)[0])))
    if not isinstance(record.get("app"), str) or not is_time(record.get("exported")):
        raise _invalid(source, _("\"app\" must be text and \"exported\" a time"))
    _plausible(record["exported"], "exported", source)
    game = record.get("game")
    if not isinstance(game, Mapping):
        raise _invalid(source, _("\"game\" must be an object"))
    problem = name_problem(game.get("name"), "game.name")
    if problem:
        raise _invalid(source, problem)
    for field in ("created", "updated"):
        if not is_time(game.get(field)):
            raise _invalid(source, _("game.{field} must be a time like {time}").format(
                field=field, time=timestamp()))
        _plausible(game[field], f"game.{field}", source)
    players = game.get("players")
    if not isinstance(game.get("phase"), str) or not isinstance(players, list) or not all(
            isinstance(p, str) for p in players):
        raise _invalid(source, _("game.phase must be text and game.players a list of names"))
    overlay = record.get("overlay")
    if not isinstance(overlay, Mapping) or not isinstance(overlay.get("values"), Mapping):
        raise _invalid(source, _("\"overlay\" must hold the catalogue values as \"values\""))
    commands = record.get("commands")
    if not isinstance(commands, list) or not commands:
        raise _invalid(source, _("\"commands\" must be a list of {\"at\": time, \"command\": "
                                 "{...}}, starting with new_game"))
    previous = ""
    for number, entry in enumerate(commands, start=1):
        if not (isinstance(entry, Mapping) and set(entry) == {"at", "command"}
                and isinstance(entry["command"], Mapping)
                and isinstance(entry["command"].get("cmd"), str)):
            raise _invalid(source, _("command {number} must be {{\"at\": time, \"command\": "
                                     "{{\"cmd\": ...}}}}").format(number=number))
        at = entry["at"]
        if not is_time(at) or not _ISO.fullmatch(at) or at < previous:
            raise _invalid(source, _("command {number}: \"at\" must be a time like {time}, not "
                                     "earlier than the command before").format(
                                         number=number, time=timestamp()))
        _plausible(at, _("command {number}'s \"at\"").format(number=number), source)
        previous = at
    sheet = record.get("score_sheet")
    if sheet is not None and not isinstance(sheet, Mapping):
        raise _invalid(source, _("\"score_sheet\" must be an object or null"))


def _plausible(at: str, field: str, source: str) -> None:
    """Refuse a time before 2020 or more than a day after now (a crafted far-future game would
    be listed first and resumed instead of the one being played)."""
    if not plausible_time(at):
        raise _invalid(source, _("{field} is {time}, before 2020 or more than a day after now; "
                                 "if the clock of the device that exported it was wrong, "
                                 "correct it and export again").format(field=field, time=at))


_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00")
"""A command's time as `timestamp()` writes it (UTC, milliseconds): comparable as text."""


def import_record(store: Store, record: Any, *, source: str = "record",
                  name: str | None = None, require_digest: bool = True) -> int:
    """Replay a checked game record (check_record) into a new game, in one transaction: all of
    it or nothing; its id. The replayed game must match the record's phase, players and score
    sheet."""
    check_record(record, source, require_digest=require_digest)
    commands = record["commands"]
    values = record["overlay"]["values"]
    game = record["game"]
    try:
        catalogue = store.catalogue_for(json.loads(json.dumps(values)))
    except CatalogueError as error:
        raise _invalid(source, _("its catalogue overlay: {error}").format(error=error)) from None
    printed = overlay_refusal(values, catalogue)  # the game's own values: never a printed one
    if printed:
        raise _invalid(source, _("its catalogue overlay: {error}").format(error=printed))
    name = name or game["name"].strip()
    created = game["created"]
    phase, players, scores = schema.listing(new_state())
    with store._transaction() as conn:
        game_id = conn.execute(
            "INSERT INTO games (name, created, updated, head, overlay, phase, players, scores) "
            "VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
            (name, created, created, dumps(values), phase, players, scores)).lastrowid
        assert game_id is not None
        played = StoredGame(store, game_id, name, Game(catalogue), 0, [])
        text = 0
        for number, entry in enumerate(commands, start=1):
            command = dict(entry["command"])
            try:
                text += command_text(command, text)
            except StoreError as error:
                raise RecordError(_("{source}: command {number}: {error}").format(
                    source=source, number=number, error=error)) from None
            try:
                change, step = played.game.perform(command)
            except Refused as refused:
                raise RecordError(_("{source}: command {number} ({command}) is refused: "
                                    "{reason}; nothing was imported").format(
                                        source=source, number=number, command=command["cmd"],
                                        reason=refused.reason)) from None
            except Missing as missing:
                raise RecordError(_("{source}: command {number} ({command}) needs {key}, which "
                                    "the record's overlay lacks; nothing was imported").format(
                                        source=source, number=number, command=command["cmd"],
                                        key=missing.key)) from None
            store._write(conn, played, change, step, entry["at"])
        expected = record.get("score_sheet")
        sheet = _sheet(played)
        state = played.game.state
        if (game["phase"], game["players"]) != (state["phase"],
                                                [p["name"] for p in state["players"]]) or (
                (sheet_as_json(sheet) if sheet else None) != expected):
            raise RecordError(_("{source}: the replayed game does not end as the record says "
                                "(phase, players or score sheet); nothing was imported").format(
                                    source=source))
    return game_id


def score_csv(store: Store, game_id: int) -> str:
    """The score sheet as CSV: a header of player names, one row per category, then ranks."""
    played = store.open_game(game_id)
    sheet = _sheet(played)
    if sheet is None:
        raise StoreError(_("game {id} has no score sheet yet (its players have no Hub)").format(
            id=game_id))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_("Category"), *[p.name for p in sheet.players]])
    for label, values in sheet.rows():
        writer.writerow([category_name(label), *values])
    writer.writerow([_("Rank"), *[p.rank for p in sheet.players]])
    writer.writerow([_("Winner"), *[_("yes") if p.name in sheet.winners else ""
                                    for p in sheet.players]])
    return out.getvalue()


def _local(at: str) -> datetime:
    if not is_time(at):
        raise StoreError(_("a stored time {time} is not a time; the game cannot be "
                           "exported").format(time=repr(at)))
    return datetime.fromisoformat(at).astimezone()


def bgstats_play(store: Store, game_id: int, bgg_id: int | None = BGG_ID) -> dict:
    """A finished game as a BG Stats play file (.bgsplay JSON); fields in docs/store.md. Every
    game, player, location and play carries a stable uuid and a modificationDate (the last
    command's time), so the same game exported twice is the same play."""
    info = store.game_info(game_id)
    if not info.finished:
        raise StoreError(_("game {id} is not over yet: BG Stats records finished plays").format(
            id=game_id))
    played = store.open_game(game_id)
    sheet = _sheet(played)
    assert sheet is not None
    journal = _journal(store, game_id)
    start, end = _local(journal[0][0]), _local(journal[-1][0])
    hubs = {p["name"]: p["hub"] for p in played.state["players"]}
    names = [p.name for p in sheet.players]
    created = info.created
    stamp = end.strftime("%Y-%m-%d %H:%M:%S")
    game: dict[str, Any] = {"uuid": stable_uuid("game", GAME_NAME), "id": 1, "name": GAME_NAME,
                            "modificationDate": stamp, "cooperative": False,
                            "highestWins": True, "noPoints": False, "usesTeams": False,
                            "minPlayerCount": 2, "maxPlayerCount": 4}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    return {
        "about": "A Board Game Stats play file written by Phoenix Companion: open it with "
                 "Board Game Stats (share or open-in).",
        "games": [game],
        "players": [{"uuid": stable_uuid("player", name), "id": i + 1, "name": name,
                     "isAnonymous": False, "modificationDate": stamp}
                    for i, name in enumerate(names)],
        "locations": [{"uuid": stable_uuid("location", LOCATION), "id": 1, "name": LOCATION,
                       "modificationDate": stamp}],
        "plays": [{
            "uuid": stable_uuid(created, ",".join(names)),
            "gameRefId": 1,
            "locationRefId": 1,
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


def export_text(store: Store, game_id: int, kind: str, bgg_id: int | None = BGG_ID) -> str:
    """The export of `kind` (record, csv, bgstats) as text; a BG Stats play names the game by
    `bgg_id` (the config's `[bgstats] bgg_id`, by default 356414)."""
    if kind == "record":
        return json.dumps(game_record(store, game_id), indent=1, ensure_ascii=False) + "\n"
    if kind == "csv":
        return score_csv(store, game_id)
    if kind == "bgstats":
        return json.dumps(bgstats_play(store, game_id, bgg_id), indent=1,
                          ensure_ascii=False) + "\n"
    raise StoreError(_("unknown export format {kind} (record, csv, bgstats)").format(
        kind=repr(kind)))
