"""Where the table and the phones meet: the game as the table last saw it (a `Snapshot`,
published on the table's thread after every step, copied so that no other thread reads the
live state), each player's page made from it in the reader's language (`page`, kept per
version), the waiting of the live channel for the next step (`wait`), and a phone's answer
checked for shape, then handed to the table (`answer`: the app runs it through its one door,
on its own thread)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import i18n
from companion.i18n import _
from companion.rules.option_types import TableOptions
from companion.web.links import Links
from companion.web.snapshot import Snapshot

PAGES_KEPT = 64  # pages kept for the version shown (players x languages)
VERSIONS_KEPT = 64  # versions whose answers can still be told stale (rewinds kept)
MAX_LEVELS = 2  # a Diplomacy bonus takes one level, or two from a top one


@dataclass(frozen=True)
class Answer:
    """A phone's choice of a Diplomacy bonus, as sent: for the page of `version`."""

    seat: int
    version: int
    track: str
    levels: list[int] = field(default_factory=list)


class AnswerError(ValueError):
    """A phone's answer that is not one (its words say what is wrong)."""


def parse_answer(seat: int, body: Any) -> Answer:
    """A phone's answer from its JSON body; AnswerError when it is not one."""
    if not isinstance(body, Mapping):
        raise AnswerError(_("The answer is not one the page sends."))
    version, track, levels = body.get("version"), body.get("track"), body.get("levels")
    if type(version) is not int or not isinstance(track, str) or not isinstance(levels, list) \
            or not 1 <= len(levels) <= MAX_LEVELS or any(type(n) is not int for n in levels):
        raise AnswerError(_("The answer is not one the page sends."))
    return Answer(seat, version, track, list(levels))


class PhoneHub:
    """The latest snapshot, the players' links, pages and answers. `run_answer(answer)` is the
    table's: it runs the answer on the table's thread and gives (applied, words)."""

    def __init__(self, links: Links,
                 run_answer: Callable[[Answer], tuple[bool, str]] | None = None) -> None:
        self.links = links
        self.run_answer = run_answer
        self._snapshot = Snapshot()
        self._line: tuple[int | None, int, Any] = (None, 0, None)  # game, steps, its last step
        self._rewinds: dict[int, int] = {0: 0}  # version -> rewinds, the last VERSIONS_KEPT
        self._pages: dict[tuple[int, int, str], dict[str, Any]] = {}
        self._changed = threading.Condition()

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    def follow(self, game: Any, options: TableOptions | None) -> None:
        """The stored game as it is now and its options (the table's thread, after every step
        and every game opened): a new snapshot, which counts a step taken back (undo), so
        that an answer shown before it is known to be stale."""
        steps = game.game.steps if game is not None else []
        shown, count, last = self._line
        rewinds = self._snapshot.rewinds
        # steps are only added and taken back at the end: the line shown before is gone when
        # there are fewer steps now, or another step stands where its last one stood
        if game is not None and game.id == shown and (
                len(steps) < count or (count and steps[count - 1] is not last)):
            rewinds += 1
        self._line = (game.id if game is not None else None, len(steps),
                      steps[-1] if steps else None)
        self.publish(Snapshot.of(self._snapshot.version + 1, game, options, rewinds))

    def publish(self, snapshot: Snapshot) -> None:
        """The game as it is now (the table's thread): every live page is told."""
        with self._changed:
            self._snapshot = snapshot
            self._rewinds[snapshot.version] = snapshot.rewinds
            for old in [v for v in self._rewinds if v <= snapshot.version - VERSIONS_KEPT]:
                del self._rewinds[old]
            self._pages = {}  # (each for the version shown before)
            self._changed.notify_all()

    def renew_links(self) -> None:
        """New links for every player (Settings): the old ones are refused from now on."""
        with self._changed:
            self.links = self.links.renew()
            self._changed.notify_all()  # pages open with an old link learn it at once

    def seat(self, token: str) -> int | None:
        """The seat of the open game whose link carries `token` (None: no such player)."""
        shown = self._snapshot
        if shown.game is None:
            return None
        return self.links.seat(token, shown.game, len(shown.players))

    def tokens(self) -> list[str]:
        """The players' tokens of the open game, in seat order."""
        shown = self._snapshot
        if shown.game is None:
            return []
        return [self.links.token(shown.game, seat) for seat in range(len(shown.players))]

    def page(self, seat: int, language: str) -> dict[str, Any]:
        """The page of the player in `seat`, in `language`, for the snapshot shown now."""
        from companion.web.page import player_page  # (the rules' wording, loaded when asked)

        shown = self._snapshot
        key = (shown.version, seat, language)
        found = self._pages.get(key)
        if found is None:
            with i18n.speaking(language):
                found = player_page(shown, seat)
            with self._changed:
                if len(self._pages) < PAGES_KEPT and self._snapshot.version == shown.version:
                    self._pages[key] = found
        return found

    def wait(self, version: int, timeout: float) -> int:
        """The version shown once it is not `version` any more, or after `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version != version, timeout)
            return self._snapshot.version

    def rewound_since(self, version: int) -> bool:
        """True when the table took steps back after `version` was shown (or it is too old to
        tell)."""
        then = self._rewinds.get(version)
        return then is None or then != self._snapshot.rewinds

    def answer(self, seat: int, body: Any) -> tuple[bool, str]:
        """A phone's answer (its JSON body) for the player in `seat`: (applied, words)."""
        try:
            answer = parse_answer(seat, body)
        except AnswerError as error:
            return False, str(error)
        if self.run_answer is None:
            return False, _("The table is not taking answers from phones now.")
        return self.run_answer(answer)
