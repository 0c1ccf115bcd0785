"""Game scripts: one command per line (JSON lines), applied in order.

A line is a JSON object with a `cmd` (see docs/game-scripts.md); blank lines and lines starting
with `#` are ignored. A refused line stops the replay with its line number and reason, unless the
line carries `"override": "why"`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from companion.files import JsonFileError, load_json
from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.game import Game, Missing, Refused, Step


class ScriptError(ValueError):
    """A script line that is malformed or refused; says which line and why."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(_("line {line}: {reason}").format(line=line, reason=reason))


@dataclass(frozen=True)
class ScriptLine:
    number: int
    command: dict


def parse(lines: Iterable[str]) -> Iterator[ScriptLine]:
    """The commands of a script, with their line numbers (ScriptError on bad JSON)."""
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            command = load_json(text)
        except JsonFileError as error:
            raise ScriptError(number, str(error)) from None
        if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
            raise ScriptError(number, _("expected an object with a \"cmd\""))
        yield ScriptLine(number, command)


def missing_hint(missing: Missing) -> str:
    """A script line's message for a value the catalogue lacks: the question, and how to give
    the value on the line."""
    return _("{question} - add \"catalogue\": {{\"{key}\": ...}} to this line").format(
        question=missing.question, key=missing.key)


def replay(lines: Iterable[str], catalogue: Catalogue, game: Game | None = None,
           on_step: Callable[[ScriptLine, Step | None], None] | None = None) -> Game:
    """Apply every command of a script to `game` (a new one by default)."""
    game = game or Game(catalogue)
    for line in parse(lines):
        try:
            step = game.execute(line.command)
        except Missing as missing:
            raise ScriptError(line.number, missing_hint(missing)) from None
        except Refused as refused:
            raise ScriptError(line.number, refused.reason) from None
        if on_step:
            on_step(line, step)
    return game
