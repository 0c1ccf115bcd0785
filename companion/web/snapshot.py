"""The open game as the table last saw it, for the phones: copied on the table's thread and never
changed, so that the server's threads read it while the table plays on."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.rules.catalogue import Catalogue
from companion.rules.option_types import TableOptions
from companion.rules.report import final_score
from companion.rules.scoring import ScoreSheet
from companion.rules.state import State

LOG_STEPS = 8  # the last steps a page lists


@dataclass(frozen=True)
class Snapshot:
    """The open game as the table last saw it: copied on the table's thread, never changed."""

    version: int = 0  # counts every publish
    game: int | None = None  # the game's id (None: no game open)
    name: str = ""
    state: State | None = None
    options: TableOptions | None = None  # the engine's options for this state (read-only)
    catalogue: Catalogue | None = None
    steps: tuple[tuple[Mapping[str, Any], ...], ...] = ()  # the last steps' events, oldest first
    rewinds: int = 0  # how often the table took steps back (undo) before this version

    @property
    def players(self) -> list[Mapping[str, Any]]:
        return list(self.state["players"]) if self.state is not None else []

    @cached_property
    def score_sheet(self) -> ScoreSheet | None:
        """The engine's score sheet of the position ("if the game ended now"; final at the
        end), the same for every page: None when there is no game, or the scoring cannot take
        the position yet (a value the catalogue lacks)."""
        if self.state is None or self.catalogue is None:
            return None
        try:
            return final_score(self.state, self.catalogue)
        except (ValueError, TypeError):
            return None

    @classmethod
    def of(cls, version: int, game: Any, options: TableOptions | None,
           rewinds: int = 0) -> Snapshot:
        """The snapshot of a stored game (companion.store.StoredGame, None: no game open) and
        its options (None before play), copied so that it never changes; its last LOG_STEPS
        steps' events (as the store made them: never changed after)."""
        if game is None:
            return cls(version=version, rewinds=rewinds)
        return cls(version=version, game=game.id, name=game.name,
                   state=copy.deepcopy(game.state), options=options,
                   catalogue=game.game.catalogue,
                   steps=tuple(tuple(step.events) for step in game.game.steps[-LOG_STEPS:]),
                   rewinds=rewinds)
