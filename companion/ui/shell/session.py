"""The table app's connection to the game store (plain Python, no Kivy): the open game, the one
door for commands (`send`: every command any screen or model runs on the open game, committed
through `StoredGame.execute`, its outcome in words), the steps Undo and Redo would take (told to
whoever `watch`es after every command and every game opened), and the screen to come back to
after a restart.

The screen is kept in `screen.json` in the data folder beside the database, written atomically
when it changes: `{"game": ID or null, "screen": NAME}`. A relaunch opens the screen that
`routes.relaunch_screen` names: never one whose state is gone (a ship tapped but not confirmed
is not committed, so the table, the truth, comes back instead). A store or overlay problem becomes a
message, never a crash.
"""

from __future__ import annotations

import json
import logging
import tempfile
from collections.abc import Callable
from pathlib import Path

from companion import i18n
from companion.files import read_script, write_text_atomically
from companion.i18n import _
from companion.rules.commands import CommandDict, Outcome, attempt
from companion.rules.game import Step
from companion.rules.option_types import TableOptions
from companion.rules.options import options
from companion.rules.script import parse
from companion.rules.state import State
from companion.store import Store, StoredGame, StoreError
from companion.store.db import default_db_path
from companion.ui.shell.routes import OUTSIDE_GAMES

log = logging.getLogger(__name__)

# companion/examples is the project's examples/ (a link there), in every installed copy too
DEMO_SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "three-players-draft.jsonl"
DEMO_STEPS = 43  # turn 9: Cat has used her Transport ship, Bob's Diplomacy bonus waits
DEMO_NAME = "Demo (example values)"


class GameSession:
    """The open store and game; `problem` says in words what went wrong, if anything."""

    def __init__(self, db: Path | None = None, overlay: Path | None = None) -> None:
        self.db = db
        self.overlay = overlay
        self.store: Store | None = None
        self.game: StoredGame | None = None
        self.problem = ""
        self._options: tuple[tuple, TableOptions] | None = None  # (the position, its options)
        self._demo_folder: tempfile.TemporaryDirectory | None = None
        self._screen: dict | None = None  # what screen.json holds
        self._watchers: list[Callable[[], None]] = []

    def open(self) -> None:
        """Open the store and resume the unfinished game, if there is one; else the finished
        game whose end screen was on when the app stopped."""
        try:
            self.store = Store.open(self.db, overlay=self.overlay)
            self.game = self.store.resume()
            saved = self._saved()
            if self.game is None and saved.get("screen") == "end" \
                    and isinstance(saved.get("game"), int):
                self.game = self.store.open_game(saved["game"])
        except Exception as error:  # a locked, damaged or unwritable database: say so, go on
            self.problem = _("The game store could not be opened: {error}").format(error=error)
        self._options = None
        self._moved()

    def open_demo(self, steps: int = DEMO_STEPS) -> None:
        """Replay the example game part-way into the database given with --db, else into a
        temporary one; its values are the example's ("example": true keeps them there)."""
        if self.db is None:
            self._demo_folder = tempfile.TemporaryDirectory(prefix="phoenix-demo-")
            self.db = Path(self._demo_folder.name) / "games.sqlite"
        self.open()
        if self.store is None:
            return
        try:
            self.game = self.store.new_game(DEMO_NAME)
            for line in list(parse(read_script(DEMO_SCRIPT)))[:steps]:
                self.game.execute(line.command)
        except Exception as error:
            self.problem = _("The demo game could not be set up: {error}").format(error=error)
        self._moved()

    def close(self) -> None:
        """Close the store (and remove a temporary demo database)."""
        if self.store is not None:
            self.store.close()
            self.store = None
        if self._demo_folder is not None:
            self._demo_folder.cleanup()
            self._demo_folder = None

    # --- the game -------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The open game's state (a game must be open)."""
        assert self.game is not None
        return self.game.state

    @property
    def is_demo(self) -> bool:
        """True when the open game is the demo (its values are example values)."""
        return self.game is not None and self.game.name == DEMO_NAME

    def options(self) -> TableOptions:
        """What may be done now (the engine's `options`); the whole table's options are
        computed once per position of the game (its steps, undone steps and catalogue) and
        language (their reasons are in words), however often a refresh asks. Treat the result
        as read-only."""
        assert self.game is not None
        played = self.game.game
        position = (id(played), len(played.steps), id(played.steps[-1]) if played.steps else 0,
                    len(played.undone), id(played.catalogue), i18n.language())
        if self._options is None or self._options[0] != position:
            self._options = (position, options(played.state, played.catalogue))
        return self._options[1]

    def catalogue_changed(self) -> None:
        """A value was corrected in the user's catalogue (the catalogue screen): the open game
        is opened again, so that it plays with the value where it had none (a game keeps the
        values it was played with), and its options are computed afresh."""
        if self.game is not None:
            problem = self.open_game(self.game.id)
            if problem:
                self.problem = _("The game could not take the corrected value: {problem}").format(
                    problem=problem)

    def waiting(self) -> bool:
        """True while a player has a Diplomacy bonus to choose."""
        return self.game is not None and bool(self.options()["pending"])

    def send(self, command: CommandDict) -> Outcome:
        """The one door: run `command` (made by a builder of companion.rules.commands) on the
        open game and commit it. Its outcome: applied (the step, stored), refused (a rule's
        words, `override(reason)` gives it again; or, not overridable, why nothing was done:
        no game is open, or the commit failed and the game is as it was), or missing (a value
        the catalogue lacks: `answer(value)` gives it again). `problem` is "" when applied."""
        if self.game is None:
            return Outcome(command, refused=_("No game is open."), overridable=False)
        try:
            outcome = attempt(self.game, command)
        except Exception as error:  # a failed commit (or a fault): the game is as it was
            log.warning("game %s: %.200r not saved: %s", self.game.id, command, error,
                        exc_info=not isinstance(error, StoreError))
            return Outcome(command, refused=_("not saved: {error}").format(error=error),
                           overridable=False)
        if outcome.applied:
            self._moved()
        return outcome

    def step_to_undo(self) -> Step | None:
        """The step Undo takes back: the open game's last (None: none, or no game open)."""
        steps = self.game.game.steps if self.game is not None else []
        return steps[-1] if steps else None

    def step_to_redo(self) -> Step | None:
        """The step Redo applies again: the last one undone, kept until a new step is taken
        (None: none, or no game open)."""
        undone = self.game.game.undone if self.game is not None else []
        return undone[-1] if undone else None

    def watch(self, watcher: Callable[[], None]) -> None:
        """Call `watcher` after every command applied and every game opened (Undo and Redo
        name the steps they would take)."""
        self._watchers.append(watcher)

    def _moved(self) -> None:
        for watcher in self._watchers:
            watcher()

    def new_game(self) -> str:
        """Start an empty game (its first command, `new_game`, comes from setup)."""
        if self.store is None:
            return self.problem or _("The game store is not open.")
        try:
            self.game = self.store.new_game()
        except Exception as error:
            return str(error)
        self._moved()
        return ""

    def open_game(self, game_id: int) -> str:
        """Open a stored game (a past one, to see its sheet); "" when done."""
        if self.store is None:
            return self.problem or _("The game store is not open.")
        try:
            self.game = self.store.open_game(game_id)
        except Exception as error:
            return str(error)
        self._options = None
        self._moved()
        return ""

    # --- the screen to come back to ------------------------------------------------------

    def _screen_file(self) -> Path:
        db = self.store.path if self.store is not None else (self.db or default_db_path())
        return Path(db).parent / "screen.json"

    def remember_screen(self, screen: str) -> None:
        """Keep the screen shown (and the open game's id), for a relaunch; written only when
        it changes."""
        if self.store is None:
            return
        saved = {"game": self.game.id if self.game is not None else None, "screen": screen}
        if saved == self._screen:
            return
        try:
            write_text_atomically(self._screen_file(), json.dumps(saved))
            self._screen = saved
        except OSError as error:
            self.problem = _("The current screen could not be saved: {error}").format(error=error)

    def _saved(self) -> dict:
        """What screen.json holds ({} when it is missing or unreadable)."""
        try:
            saved = json.loads(self._screen_file().read_text())
        except (OSError, ValueError):
            return {}
        return saved if isinstance(saved, dict) else {}

    def saved_screen(self) -> str | None:
        """The screen the app was on when it last ran: home or the calculator, or the open
        game's screen (None: not known, or another game's)."""
        saved = self._saved()
        screen = saved.get("screen")
        if not isinstance(screen, str):
            return None
        if screen in OUTSIDE_GAMES:
            return screen
        return screen if self.game is not None and saved.get("game") == self.game.id else None
