"""The catalogue's files: the shipped data (companion/data/{hubs,sectors,ships,diplomacy,setup,
die}.json, see docs/catalogue.md) and the user's overlay of values entered from a physical copy.

Reading validates through companion.rules.catalogue (which sees only plain data); writing the
overlay is atomic (companion.files.write_text_atomically).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.files import JsonFileError, is_version, read_json, write_text_atomically
from companion.i18n import _
from companion.rules.catalogue import (
    KINDS,
    Catalogue,
    CatalogueError,
    Entry,
    Overlay,
    Shipped,
    build_catalogue,
    check_values,
    parse_records,
    schema,
)
from companion.rules.move import overlay_refusal

DATA_FORMAT = "phoenix-companion-catalogue"
OVERLAY_FORMAT = "phoenix-companion-catalogue-overlay"
RECORD_FORMAT = "phoenix-companion-game-record"  # a game record (companion/store/export.py)
VERSION = 1
DEFAULT_DATA_DIR = Path(__file__).resolve().parent / "data"
_REPO_ROOT = Path(__file__).resolve().parents[1]


def _show(path: Path) -> str:
    """A path as messages show it: relative to the project for shipped files."""
    try:
        return str(Path(path).resolve().relative_to(_REPO_ROOT))
    except ValueError:
        return str(path)


def _read_json(path: Path) -> Any:
    try:
        return read_json(path, show=_show(path))
    except JsonFileError as error:
        raise CatalogueError(str(error)) from None


# --- the shipped data --------------------------------------------------------------------------

_CACHE: dict[Path, tuple[tuple[int, int], dict[str, Entry]]] = {}


def _load_kind(kind: str, data_dir: Path) -> dict[str, Entry]:
    path = (data_dir / f"{kind}.json").resolve()
    try:
        stat = path.stat()
    except OSError:
        raise CatalogueError(_("{file}: no such file").format(file=_show(path))) from None
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(path)
    if cached and cached[0] == stamp:
        return cached[1]
    show = _show(path)
    data = _read_json(path)
    if not isinstance(data, dict):
        raise CatalogueError(_("{file}: expected a JSON object").format(file=show))
    if data.get("format") != DATA_FORMAT or data.get("kind") != kind:
        raise CatalogueError(_("{file}: expected \"format\": \"{format}\" and \"kind\": "
                               "\"{kind}\"").format(file=show, format=DATA_FORMAT, kind=kind))
    if not is_version(data.get("version"), VERSION):
        raise CatalogueError(_("{file}: unsupported version {version}").format(
            file=show, version=repr(data.get("version"))))
    parsed = parse_records(kind, data.get("records"), show)
    _CACHE[path] = (stamp, parsed)
    return parsed


def shipped_data(data_dir: Path | None = None) -> Shipped:
    """The validated data files of `data_dir` (default: companion/data), parsed once per process
    and again when a file changes (keyed by path, modification time and size)."""
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    return {kind: _load_kind(kind, directory) for kind in KINDS}


def load_catalogue(data_dir: Path | None = None, overlay: Path | None = None) -> Catalogue:
    """The catalogue from `data_dir` (default: the shipped companion/data) with the user's
    overlay applied (None: no overlay; a missing overlay file is an empty overlay)."""
    shipped = shipped_data(data_dir)
    if overlay is None:
        return build_catalogue(shipped)
    return build_catalogue(shipped, _overlay_values(overlay), show=_show(overlay))


def check_entry(key: Any, value: Any, data_dir: Path | None = None) -> str:
    """companion.rules.catalogue.check_entry against the data files of `data_dir`."""
    return schema.check_entry(key, value, shipped_data(data_dir))


# --- the overlay -------------------------------------------------------------------------------

def _overlay_values(path: Path, *, missing_ok: bool = True) -> Any:
    """The "values" of an overlay file, not yet checked ({} when it does not exist and
    missing_ok)."""
    path = Path(path)
    show = _show(path)
    if not path.exists():
        if missing_ok:
            return {}
        raise CatalogueError(_("{file}: no such file").format(file=show))
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("format") != OVERLAY_FORMAT:
        raise CatalogueError(_("{file}: not a catalogue overlay (expected \"format\": "
                               "\"{format}\")").format(file=show, format=OVERLAY_FORMAT))
    if not is_version(data.get("version"), VERSION):
        raise CatalogueError(_("{file}: unsupported overlay version {version}").format(
            file=show, version=repr(data.get("version"))))
    return data.get("values", {})


def _read_overlay(path: Path, shipped: Shipped, *, missing_ok: bool = True) -> Overlay:
    """The validated values of an overlay file ({} when it does not exist and missing_ok)."""
    return check_values(shipped, _overlay_values(path, missing_ok=missing_ok), _show(path))


def _record_values(record: dict, shipped: Shipped, show: str) -> Overlay:
    """A game record's catalogue values, checked: its overlay's, then those its lines give."""
    overlay = record.get("overlay")
    if not isinstance(overlay, dict) or overlay.get("format") != OVERLAY_FORMAT:
        raise CatalogueError(_("{file}: not a catalogue overlay (expected \"format\": "
                               "\"{format}\")").format(file=show, format=OVERLAY_FORMAT))
    values = check_values(shipped, overlay.get("values", {}), show)
    commands = record.get("commands")
    commands = [c.get("command") for c in commands if isinstance(c, dict)] if isinstance(
        commands, list) else []
    example = bool(commands) and isinstance(commands[0], dict) and commands[0].get("example")
    for command in [] if example else commands:
        given = command.get("catalogue") if isinstance(command, dict) else None
        for key, value in (given.items() if isinstance(given, dict) else ()):
            kind, record_id, field = schema.check_entry(key, value, shipped).split("/", 2)
            values.setdefault(kind, {}).setdefault(record_id, {})[field] = value
    refusal = overlay_refusal(values, build_catalogue(shipped))
    if refusal:
        raise CatalogueError(f"{show}: {refusal}")
    return values


def _count(overlay: Overlay) -> int:
    return sum(len(fields) for records in overlay.values() for fields in records.values())


def _write_overlay(path: Path, overlay: Overlay) -> None:
    """Write atomically: a temporary file beside it, flushed, then os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": OVERLAY_FORMAT, "version": VERSION, "values": {
        kind: {record: dict(sorted(fields.items()))
               for record, fields in sorted(records.items()) if fields}
        for kind, records in sorted(overlay.items()) if any(records.values())
    }}
    write_text_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def set_user_value(overlay: Path, kind: str, record: str, field: str, value: Any) -> None:
    """Store a value entered from a physical copy (None removes the entry again)."""
    shipped = shipped_data()
    current = _read_overlay(overlay, shipped)
    record = schema.normal_record(kind, record)
    show = _("{file} (new value)").format(file=_show(overlay))
    if value is None:
        schema.check_value(shipped, show, kind, record, field, None, address_only=True)
        current.get(kind, {}).get(record, {}).pop(field, None)
    else:
        schema.check_value(shipped, show, kind, record, field, value)
        current.setdefault(kind, {}).setdefault(record, {})[field] = value
    _write_overlay(overlay, current)


def read_overlay(overlay: Path) -> Overlay:
    """The validated values of an overlay file (empty when it does not exist)."""
    return _read_overlay(overlay, shipped_data())


def export_overlay(overlay: Path, destination: Path) -> int:
    """Write the overlay's values to `destination`; the number of values exported."""
    values = _read_overlay(overlay, shipped_data())
    _write_overlay(destination, values)
    return _count(values)


def import_overlay(overlay: Path, source: Path) -> int:
    """Merge the values of `source` into the overlay (source wins); the number imported.

    `source` is an overlay file, or a game record (`phoenix-companion export --format record`):
    importing a record into a game keeps its values in that game only, and this is how a player
    agrees to keep them for later games (its overlay's values and those its lines give, not an
    example game's; never one that changes a value the rulebook prints). `source` is validated
    completely first; a malformed one raises CatalogueError naming the file, record and field,
    and the overlay is left untouched.
    """
    shipped = shipped_data()
    data = _read_json(Path(source)) if Path(source).is_file() else None
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        incoming = _record_values(data, shipped, _show(Path(source)))
    else:
        incoming = _read_overlay(source, shipped, missing_ok=False)
    current = _read_overlay(overlay, shipped)
    for kind, records in incoming.items():
        for record, fields in records.items():
            current.setdefault(kind, {}).setdefault(record, {}).update(fields)
    _write_overlay(overlay, current)
    return _count(incoming)
