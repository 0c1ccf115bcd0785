"""A user's files: reading JSON with every failure turned into a message naming the file, and
writing so that a crash never leaves half a file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class JsonFileError(ValueError):
    """A JSON file that cannot be used; the message names the file and what is wrong."""


def read_json(path: Path, *, show: str | None = None) -> Any:
    """The parsed content of `path`, or JsonFileError (missing, unreadable, not JSON); messages
    name the file as `show` (default: the path)."""
    show = show or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise JsonFileError(f"{show}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise JsonFileError(f"{show}: cannot read it ({error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonFileError(
            f"{show}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None


def write_text_atomically(path: Path, text: str) -> None:
    """Write a file so that a crash leaves either the old or the new content, never a mix:
    a temporary file beside it, flushed to disk, then renamed over it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
