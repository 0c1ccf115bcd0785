"""The end-of-game score calculator: the controller that ties its pages (pages.py) and pop-ups
(popups.py) to the form, and the app's screen that holds them.

Layout lives in calculator.kv beside this file; the state of what was entered lives in
`form.ScoreForm` beside it (plain Python, tested without a window). Every widget a test (or the
UI driver) needs to find carries a `tag` such as "field:points", "key:7" or "cell:3:teal".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    NumericProperty,
    ObjectProperty,
)
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import i18n, paths
from companion.i18n import N_, _
from companion.ui.calculator.form import (
    AUTOSAVE_NAME,
    FormError,
    Problem,
    ScoreForm,
    field_label,
    save_path,
)
from companion.ui.calculator.pages import (
    EXAMPLES_DIR,
    FilesScreen,
    PlayerScreen,
    ScoreScreen,
    SectorCell,
    StartScreen,
    and_names,
)
from companion.ui.calculator.popups import HubPopup, ResidentsPopup, level_colour, sentence
from companion.ui.kit.widgets import (
    ERROR,
    NOTICE,
    ConfirmPopup,
    KeypadPopup,
    NamePopup,
)

EXAMPLE_FILE = EXAMPLES_DIR / "rulebook-3p.json"

# (marked with N_: in the player's language where shown)
NUMBER_HINTS = {
    "points": N_("Where the marker is on the score track. Can be negative (Hub A-12)."),
    "ships_left": N_("Ships still in front of the player (not dismantled)."),
    "gems": N_("GEMs left at the end (1 point per 20)."),
    "food": N_("Food left (resources score 1 point per 5)."),
    "water": N_("Water left (resources score 1 point per 5)."),
    "metal": N_("Metal left (resources score 1 point per 5)."),
}




# --------------------------------------------------------------------------------------------
# Widgets and pop-ups


# --------------------------------------------------------------------------------------------
# Screens


# --------------------------------------------------------------------------------------------
# Controller


class CalculatorRoot(ScreenManager):
    """Holds the form, shows it on the screens, and turns taps into form changes."""

    current_player = NumericProperty(0)
    form = ObjectProperty(None, allownone=True)

    def __init__(self, catalogue: Any, catalogue_error: str = "", overlay: Path | None = None,
                 **kwargs: Any) -> None:
        super().__init__(transition=NoTransition(), **kwargs)
        self.catalogue, self.overlay = catalogue, overlay
        self.problem: Problem | None = None
        self.notice, self.notice_ok = "", True  # a message for the player page
        self.sheet: Any = None  # the score sheet shown (drawn again in another language)
        self.popup: ModalView | None = None
        self.start = StartScreen(name="start")
        self.player_screen = PlayerScreen(name="player")
        self.score_screen = ScoreScreen(name="score")
        self.files = FilesScreen(name="files")
        for screen in (self.start, self.player_screen, self.score_screen, self.files):
            self.add_widget(screen)
        self.form = ScoreForm(catalogue, 3, overlay) if catalogue is not None else None
        self.autosave = paths.data_folder() / AUTOSAVE_NAME
        if self.form is not None and self.form.restore(self.autosave):
            self.tell(_("The entries of last time are back."))
        if catalogue_error:
            self.tell(catalogue_error, ok=False)
        self.files.place = paths.data_folder() if paths.data_folder().is_dir() else Path.home()
        self.files.opened = lambda path: self.open_file(path, "files")
        self._return_to = "start"
        self.current = "start"

    # navigation ------------------------------------------------------------------------------
    def tell(self, text: str, ok: bool = True) -> None:
        """A message on the first screen, green when something went well."""
        self.start.message, self.start.tone = text, NOTICE if ok else ERROR

    def confirm(self, question: str, needed: bool, action: Callable[[], None]) -> None:
        """Do `action` at once, or only after Yes to `question` when it `needed` asking."""
        if needed:
            self._open(ConfirmPopup(question, action))
        else:
            action()

    def begin(self, players: int) -> None:
        """Start (or continue) entering a game with this many players; dropping players who
        have entries asks first."""
        if self.form is None:
            return
        dropped = self.form.dropped_by(players)
        self.confirm(_("{count} players: drop what was typed for {names}?").format(
            count=players, names=and_names(dropped)), bool(dropped), lambda: self._begin(players))

    def _begin(self, players: int) -> None:
        self.form.set_player_count(players)
        self.current_player = 0
        self.problem = None
        self.show_player(0)

    def show_player(self, index: int) -> None:
        """Switch to a player's page."""
        self.current_player = min(index, len(self.form.players) - 1)
        self.refresh()
        self.current = "player"

    def go_start(self) -> None:
        """Back to the first screen."""
        self.start.clear_armed = False
        self.current = "start"

    def clear_form(self) -> None:
        """Forget every entry (asks for a second tap first)."""
        if not self.start.clear_armed:
            self.start.clear_armed = True
            return
        self.start.clear_armed = False
        self.form = ScoreForm(self.catalogue, len(self.form.players), self.overlay)
        self.problem = None
        self.tell(_("The form is empty again."))
        self.keep_entries()

    def load_example(self) -> None:
        """Load the rulebook's 3-player scoring example and show its score sheet."""
        self.open_file(EXAMPLE_FILE, origin="start")

    # editing ---------------------------------------------------------------------------------
    def edit_field(self, key: str) -> None:
        """Open the right keypad or picker for one of the current player's entries."""
        i = self.current_player
        entry = self.form.players[i]
        label = field_label(key)
        if key == "name":
            self._open(NamePopup(title=_("Player {number} · Name").format(number=i + 1),
                                 value=entry.name,
                                 on_ok=lambda text: self._apply(
                                     lambda: self.form.set_name(i, text), i, key)))
        elif key == "hub":
            self._open(HubPopup(title=_("{name} · choose the Station Hub").format(
                                    name=entry.name),
                                form=self.form, current=entry.hub,
                                on_pick=lambda hub: self._apply(
                                    lambda: self.form.set_hub(i, hub), i, key)))
        else:
            self._open(KeypadPopup(
                title=f"{entry.name} · {label}", value=entry.numbers[key],
                allow_negative=key == "points", hint=i18n._(NUMBER_HINTS[key]),
                on_ok=lambda value: self._apply(
                    lambda: self.form.set_number(i, key, value), i, key)))

    def tap_cell(self, cell: SectorCell) -> None:
        """A station spot: open its Sector, or add one there if it is empty."""
        if cell.number:
            self.open_sector(int(cell.number))
        else:
            self.add_sector(cell.level, cell.wing)

    def add_sector(self, level: int | None = None, color: str | None = None) -> None:
        """Ask the Sector's number on the keypad, then its residents."""
        i = self.current_player
        entry = self.form.players[i]
        title = _("{name} · add a {place} Sector").format(
            name=entry.name, place=level_colour(level, color)) if level else \
            _("{name} · add a Sector").format(name=entry.name)
        hint = _("Type the number printed on the Sector tile (e.g. 101); its level and colour "
                 "come from the catalogue.")

        def accept(number: int) -> str | None:
            try:
                facts = self.form.sector_facts(number)
                if level and (facts[0] != level or (facts[1] and facts[1] != color)):
                    return _("Sector {number} is a {place} Sector, not {wanted}. Check the "
                             "number, or tap its own spot.").format(
                                 number=number, place=level_colour(facts[0], facts[1]),
                                 wanted=level_colour(level, color))
                self.form.add_sector(i, number, color)
            except FormError as error:
                return sentence(str(error))
            self.touched(i, "sectors", number)
            sector = self.form.players[i].sector(number)
            if sector.quarters is None:
                Clock.schedule_once(lambda _dt: self.ask_quarters(
                    i, number, then=lambda: self.open_sector(number)), 0)
            else:
                Clock.schedule_once(lambda _dt: self.open_sector(number), 0)
            return None

        self._open(KeypadPopup(title=title, value=None, hint=hint, on_ok=accept))

    def ask_quarters(self, player: int, number: int, then: Callable[[], None]) -> None:
        """Ask how many living quarters a Sector has when the catalogue does not know."""
        sector = self.form.players[player].sector(number)

        def accept(value: int) -> str | None:
            try:
                trouble = self.form.set_quarters(player, number, value)
            except FormError as error:
                return sentence(str(error))
            self.touched(player, "sectors", number)
            if trouble:
                self.notice, self.notice_ok = trouble, False
            Clock.schedule_once(lambda _dt: then(), 0)
            return None

        self._open(KeypadPopup(
            title=_("Sector {number}: how many living quarters?").format(number=number),
            value=sector.quarters,
            hint=_("The catalogue does not know this Sector's living quarters: count them on "
                   "the tile."),
            on_ok=accept), stack=True)

    def open_sector(self, number: int) -> None:
        """The residents editor of one Sector."""
        self._open(ResidentsPopup(self, self.current_player, number))

    def open_hub_residents(self) -> None:
        """The residents editor of the Hub (B-11 and A-11 have living quarters)."""
        self._open(ResidentsPopup(self, self.current_player, None))

    def save_as(self) -> None:
        """Ask a name, then write the entries to that file in the data folder."""
        def save(text: str) -> str | None:
            try:
                path = save_path(paths.data_folder(), text)
                self.form.save(path)
            except FormError as error:
                return sentence(str(error))
            except OSError as error:
                return _("The file could not be written: {error}").format(error=error)
            self.notice, self.notice_ok = _("Saved to {path}").format(path=path), True
            self.refresh()
            return None

        self._open(NamePopup(title=_("Save as (a name for the file)"), value="", on_ok=save))

    def _apply(self, change: Callable[[], None], player: int, key: str) -> str | None:
        try:
            change()
        except FormError as error:
            return sentence(str(error))
        self.touched(player, key)
        self.refresh()
        return None

    def _open(self, popup: ModalView, stack: bool = False) -> None:
        popup.bind(on_dismiss=lambda *_: self.refresh())
        self.popup = popup
        popup.open(animation=False)

    def touched(self, player: int, key: str, number: int | None = None) -> None:
        """An entry changed: drop the problem shown for it, if any."""
        self.notice = ""
        p = self.problem
        if p is None or p.player not in (None, player):
            return
        if p.field == key and (key != "sectors" or not p.sectors or number in p.sectors):
            self.problem = None

    # scoring ---------------------------------------------------------------------------------
    def score(self) -> None:
        """Check and score everything; show the sheet, or the first problem where it is."""
        outcome = self.form.evaluate()
        if outcome.problem is not None:
            self.problem = outcome.problem
            if outcome.problem.player is not None:
                self.current_player = outcome.problem.player
            self.refresh()
            self.current = "player"
            return
        self.problem = None
        self._show_sheet(outcome.sheet)

    def _show_sheet(self, sheet: Any) -> None:
        """Show a ScoreSheet on the score page."""
        self.sheet = sheet
        self.score_screen.show(sheet)
        self.current = "score"

    # files -----------------------------------------------------------------------------------
    def show_files(self, origin: str) -> None:
        """Open the file chooser (returns to `origin` on Back)."""
        self._return_to = origin
        self.files.message = ""
        self.files.list_folder(self.files.place)
        self.current = "files"

    def files_back(self) -> None:
        """Leave the file chooser."""
        self.current = self._return_to

    def open_file(self, path: Path, origin: str) -> None:
        """Load a position file into the form and score it (asking first when that replaces
        entries); problems stay on screen."""
        self.confirm(_("Replace what you typed with {file}?").format(file=Path(path).name),
                     self.form.has_entries(), lambda: self._open_file(path, origin))

    def _open_file(self, path: Path, origin: str) -> None:
        from companion.files import JsonFileError, read_json

        target = self.files if origin == "files" else self.start
        try:
            data = read_json(path)
            self.form.load_position(data)
        except (JsonFileError, FormError) as error:
            said = _("Cannot open {file}: {error}").format(file=Path(path).name, error=error)
            if target is self.start:
                self.tell(said, ok=False)
            else:
                target.message = said
            return
        self.start.message = ""
        self.files.message = ""
        self.current_player = 0
        self.keep_entries()
        self.score()

    def keep_entries(self) -> None:
        """Save the entries to the data folder, so that they survive a restart."""
        try:
            self.form.save(self.autosave)
        except OSError as error:
            self.tell(_("The entries could not be kept: {error}").format(error=error), ok=False)

    # drawing ---------------------------------------------------------------------------------
    def refresh(self, *_args: Any) -> None:
        """Keep the entries and redraw the player page from the form (after every change)."""
        if self.form is None:
            return
        self.keep_entries()
        self.player_screen.draw(self.form, self.current_player, self.problem, self.notice,
                                self.notice_ok, self.show_player)


class CalculatorScreen(Screen):
    """The score calculator as one screen of the app: its own screens inside (`controller`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        catalogue, error = None, ""
        try:
            from companion.catalogue_files import load_catalogue

            catalogue = load_catalogue(overlay=App.get_running_app().overlay)
        except Exception as exc:
            error = _("The catalogue could not be loaded, so nothing can be scored: "
                      "{error}").format(error=exc)
        self.controller = CalculatorRoot(catalogue, error, App.get_running_app().overlay)
        self.add_widget(self.controller)

    def refresh(self) -> None:
        """Lay the current page out again (the window size or the language may have changed);
        the score sheet shown is drawn again."""
        controller = self.controller
        controller.refresh()
        if controller.current == "score" and controller.sheet is not None:
            controller._show_sheet(controller.sheet)
