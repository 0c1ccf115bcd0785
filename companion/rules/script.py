"""Game scripts: one command per line (JSON lines), applied in order.

A line is a JSON object with a `cmd` (see docs/game-scripts.md); blank lines and lines starting
with `#` are ignored. A refused line stops the replay with its line number and reason, unless the
line carries `"override": "why"`.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.rules.catalogue import Catalogue
from companion.rules.game import Game, Missing, Refused, Step


class ScriptError(ValueError):
    """A script line that is malformed or refused; says which line and why."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}")


@dataclass(frozen=True)
class ScriptLine:
    number: int
    command: dict


def read_script(path: Path) -> list[str]:
    """The lines of a script file: UTF-8 text (an initial byte-order mark is skipped), or a
    ScriptError naming the line of the first byte that is not. OSError when it cannot be read."""
    data = Path(path).read_bytes().removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        raise ScriptError(data.count(b"\n", 0, error.start) + 1,
                          f"not UTF-8 text (byte 0x{data[error.start]:02x} at column "
                          f"{error.start - line_start + 1}); save the script as UTF-8") from None
    return text.split("\n")


MOST_DIGITS = 100  # no number of the game comes near it


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MOST_DIGITS:
        raise ValueError(f"a number with {len(digits.lstrip('-'))} digits is far too large")
    return int(digits)


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse(lines: Iterable[str]) -> Iterator[ScriptLine]:
    """The commands of a script, with their line numbers (ScriptError on bad JSON)."""
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            command = json.loads(text, parse_int=_whole, parse_constant=_not_a_number)
        except json.JSONDecodeError as error:
            raise ScriptError(number, f"not valid JSON ({error.msg}, column {error.colno})") \
                from None
        except RecursionError:
            raise ScriptError(number, "nested too deep to be a command") from None
        except ValueError as error:
            raise ScriptError(number, f"not a command: {error}") from None
        if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
            raise ScriptError(number, "expected an object with a \"cmd\"")
        yield ScriptLine(number, command)


def replay(lines: Iterable[str], catalogue: Catalogue, game: Game | None = None,
           on_step: Callable[[ScriptLine, Step | None], None] | None = None) -> Game:
    """Apply every command of a script to `game` (a new one by default)."""
    game = game or Game(catalogue)
    for line in parse(lines):
        try:
            step = game.execute(line.command)
        except Missing as missing:
            raise ScriptError(line.number, f"{missing.question} - add \"catalogue\": "
                                           f"{{\"{missing.key}\": ...}} to this line") from None
        except Refused as refused:
            raise ScriptError(line.number, refused.reason) from None
        if on_step:
            on_step(line, step)
    return game
