"""Reading a user's JSON file, with every way it can fail turned into a message naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class JsonFileError(ValueError):
    """A JSON file that cannot be used; the message names the file and what is wrong."""


def read_json(path: Path) -> Any:
    """The parsed content of `path`, or JsonFileError (missing, unreadable, not JSON)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise JsonFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise JsonFileError(f"{path}: cannot read it ({error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonFileError(
            f"{path}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
