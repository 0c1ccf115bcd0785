"""Exports saved from the screen: a stored game's record, CSV score sheet or BG Stats play file
(companion.store.export) written to a USB stick when one is mounted, else to the data folder's
`exports` folder, and the same play as a BG Stats createPlay link for a phone. A failed export
changes no game and says why."""

from __future__ import annotations

import getpass
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion import i18n
from companion.files import JsonFileError, write_text_atomically
from companion.i18n import N_, _
from companion.store import Store, StoreError, bgstats_play, export_text

SUFFIXES = {"record": ".json", "csv": ".csv", "bgstats": ".bgsplay"}
KINDS = {"record": N_("game record"), "csv": N_("CSV score sheet"),
         "bgstats": N_("BG Stats play file")}  # shown as i18n._(KINDS[kind])
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' link that opens a new play filled in from its URL-encoded JSON `data`
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/)."""
SOURCE_NAME = "Phoenix Companion"


def media_roots() -> list[Path]:
    """Where a desktop mounts removable drives: /media/$USER, /media, /run/media/$USER."""
    user = getpass.getuser()
    return [Path("/media") / user, Path("/media"), Path("/run/media") / user]


def usb_mounts(roots: Iterable[Path] | None = None) -> list[Path]:
    """The writable mount points found directly under `roots` (default media_roots())."""
    found = []
    for root in media_roots() if roots is None else roots:
        try:
            children = sorted(root.iterdir())
        except OSError:
            continue
        found += [c for c in children if c.is_dir() and os.path.ismount(c)
                  and os.access(c, os.W_OK) and c not in found]
    return found


def target_folder(data_folder: Path, mounts: list[Path]) -> Path:
    """The first USB stick, else the data folder's `exports` folder."""
    return mounts[0] if mounts else data_folder / "exports"


def file_name(name: str, updated: str, kind: str) -> str:
    """`phoenix-<date>-<game name>.<suffix>`, the name reduced to safe characters."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:40] or "game"
    return f"phoenix-{updated[:10]}-{slug}{SUFFIXES[kind]}"


def create_play(play_file: dict[str, Any]) -> dict[str, Any]:
    """The createPlay data of a BG Stats play file (bgstats_play): the same play, its uuids as
    the stable source ids."""
    [game], [location], [play] = play_file["games"], play_file["locations"], play_file["plays"]
    players = {p["id"]: p for p in play_file["players"]}
    return {
        "board": play["board"],
        "durationMin": play["durationMin"],
        "comments": play["comments"],
        "game": {"bggId": game["bggId"], "highestWins": game["highestWins"],
                 "name": game["name"], "noPoints": game["noPoints"],
                 "sourceGameId": game["uuid"]},
        "location": location["name"],
        "playDate": play["playDate"],
        "players": [{"startPlayer": s["startPlayer"], "name": players[s["playerRefId"]]["name"],
                     "rank": s["rank"], "role": s["role"], "score": int(s["score"]),
                     "sourcePlayerId": players[s["playerRefId"]]["uuid"], "winner": s["winner"]}
                    for s in play["playerScores"]],
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play["uuid"],
    }


def create_play_link(store: Store, game_id: int, bgg_id: int) -> str:
    """A finished game as BG Stats' createPlay link (compact JSON, URL-encoded); StoreError for
    a game not over yet."""
    data = create_play(bgstats_play(store, game_id, bgg_id))
    return CREATE_PLAY + quote(json.dumps(data, separators=(",", ":"), ensure_ascii=False),
                               safe="")


def save_export(store: Store, game_id: int, kind: str, folder: Path, bgg_id: int) -> Path:
    """Write the export of `kind` into `folder` (atomically); its path. Raises StoreError with
    the reason in words when it cannot; the game is never changed."""
    info = store.game_info(game_id)
    text = export_text(store, game_id, kind, bgg_id)
    path = folder / file_name(info.name, info.updated, kind)
    try:
        write_text_atomically(path, text)
    except OSError as error:
        raise StoreError(_("the {kind} could not be written to {folder}: {error}; the game is "
                           "unchanged").format(kind=i18n._(KINDS[kind]), folder=folder,
                                               error=error.strerror or error)) from None
    except JsonFileError as error:  # something that is not a file stands in the way
        raise StoreError(_("the {kind} could not be written to {folder}: {error}; the game is "
                           "unchanged").format(kind=i18n._(KINDS[kind]), folder=folder,
                                               error=error)) from None
    return path
