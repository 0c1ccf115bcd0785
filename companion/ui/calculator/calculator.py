"""The end-of-game score calculator: screens, pop-ups and the controller that ties them to the form.

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
    BooleanProperty,
    ColorProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.utils import escape_markup

from companion import i18n, paths
from companion.i18n import N_, _
from companion.rules.scoring import PLURALITY_ORDER, category_name, tiebreak_text
from companion.rules.words import SECTOR_COLORS, color_name, resource_name
from companion.ui.calculator.form import (
    AUTOSAVE_NAME,
    LEVELS,
    NUMBER_FIELDS,
    FormError,
    Problem,
    ScoreForm,
    field_label,
    save_path,
    species_label,
)
from companion.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    ERROR,
    NOTICE,
    PANEL,
    SPECIES_RGBA,
    SPECIES_TEXT,
    ConfirmPopup,
    KeypadPopup,
    NamePopup,
    TagButton,
    TagLabel,
    TagToggle,
    hex_color,
    resident_dot,
)

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "data" / "examples"
EXAMPLE_FILE = EXAMPLES_DIR / "rulebook-3p.json"

WING_TINT = {
    "teal": (0.05, 0.32, 0.33, 1),
    "pink": (0.42, 0.18, 0.30, 1),
    "brown": (0.33, 0.22, 0.13, 1),
}
WING_TEXT = {
    "teal": (0.25, 0.85, 0.85, 1),
    "pink": (1.0, 0.55, 0.75, 1),
    "brown": (0.85, 0.62, 0.42, 1),
}
# (marked with N_: in the player's language where shown)
NUMBER_HINTS = {
    "points": N_("Where the marker is on the score track. Can be negative (Hub A-12)."),
    "ships_left": N_("Ships still in front of the player (not dismantled)."),
    "gems": N_("GEMs left at the end (1 point per 20)."),
    "food": N_("Food left (resources score 1 point per 5)."),
    "water": N_("Water left (resources score 1 point per 5)."),
    "metal": N_("Metal left (resources score 1 point per 5)."),
}
WING_NAMES = {"teal": N_("Teal wing"), "pink": N_("Pink wing"), "brown": N_("Brown wing")}
# the file chooser's shortcuts (their tags are made from these English words) -> the words shown,
# translated where shown ("Home" is the folder's own name: as it is)
SHORTCUTS = {"Examples": N_("Examples"), "App data": N_("App data"), "Home": None,
             "USB drives": N_("USB drives"), "Mounted (/mnt)": N_("Mounted (/mnt)")}


def and_names(names: list[str]) -> str:
    """Names joined by "and" in the player's language: "Ann and Bob"."""
    return _(" and ").join(names)


def level_colour(level: int, colour: str | None) -> str:
    """A Sector's place in words: "Level-2 teal"."""
    return _("Level-{level} {colour}").format(level=level,
                                              colour=color_name(colour) if colour else "")


def fill_dots(box: Any, residents: list[str], quarters: int | None, tag: str) -> None:
    """Show residents as outlined dots with a letter, then a hollow dot per free quarter; more
    than four dots shrink to fit where four do."""
    box.clear_widgets()
    species = residents + [""] * max(0, (quarters or 0) - len(residents))
    side = App.get_running_app().unit * 28 * min(1, 4 / max(1, len(species)))
    for index, kind in enumerate(species):
        dot = resident_dot(kind, f"{tag}:{index}")
        dot.size = (side, side)
        box.add_widget(dot)


# --------------------------------------------------------------------------------------------
# Widgets and pop-ups


class FieldButton(TagButton):
    """One entry of a player (caption above, value below); tapping it opens its keypad/picker."""

    key = StringProperty("")
    caption = StringProperty("")
    value = StringProperty("")


class SectorCell(TagButton):
    """One spot of the station grid (a wing colour and a level)."""

    level = NumericProperty(1)
    wing = StringProperty("teal")
    number = NumericProperty(0)  # 0: nothing built here



class HubPopup(ModalView):
    """The 24 Station Hubs as a grid of big buttons, each with its theme or first ability."""

    title = StringProperty("")
    message = StringProperty("")

    def __init__(self, title: str, form: ScoreForm, current: str | None,
                 on_pick: Callable[[str], str | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title, self._on_pick = title, on_pick
        unit = App.get_running_app().unit
        for grid, prefix in ((self.ids.basic, "B"), (self.ids.advanced, "A")):
            for i in range(1, 13):
                hub = f"{prefix}-{i}"
                summary = escape_markup(form.hub_summary(hub, 30))
                button = TagButton(text=f"[b]{hub}[/b]\n[size={int(unit * 13)}]{summary}[/size]",
                                   tag=f"hub:{hub}", shorten=False,
                                   bg=ACCENT if hub == current else BUTTON)
                button.font_size = unit * 22  # after the TagButton rule's own size
                button.bind(on_release=lambda _b, hub=hub: self.pick(hub))
                grid.add_widget(button)

    def pick(self, hub: str) -> None:
        """Take this Hub, or stay open and say why it is refused."""
        self.message = self._on_pick(hub) or ""
        if not self.message:
            self.dismiss()


class ResidentsPopup(ModalView):
    """Residents of one Sector (or of the Hub), added left to right by species buttons."""

    title = StringProperty("")
    quarters_text = StringProperty("")
    quarters_editable = BooleanProperty(False)
    show_bonus = BooleanProperty(False)
    bonus_text = StringProperty("")
    message = StringProperty("")
    is_hub = BooleanProperty(False)

    def __init__(self, root: CalculatorRoot, player: int, number: int | None,
                 **kwargs: Any) -> None:
        self.root_ctl, self.player, self.number = root, player, number
        super().__init__(**kwargs)
        self.is_hub = number is None
        self.refresh()

    def _sector(self) -> Any:
        return self.root_ctl.form.players[self.player].sector(self.number)

    def refresh(self) -> None:
        """Redraw the quarters, the resident slots and the bonus answer from the form."""
        form = self.root_ctl.form
        entry = form.players[self.player]
        if self.is_hub:
            residents, quarters = entry.hub_residents, form.hub_quarters(self.player)
            allowed = form.hub_quarter_species(self.player)
            self.title = _("{name} · Hub {hub} residents").format(name=entry.name, hub=entry.hub)
            self.quarters_text = _("{count} living quarters").format(count=quarters)
            hint = "; ".join("/".join(color_name(s) if s != "human" else resource_name(s)
                                      for s in q) for q in allowed)
            self.bonus_text = _("Quarters allow: {species}").format(species=hint) if hint else ""
        else:
            sector = self._sector()
            residents, quarters = sector.residents, sector.quarters
            self.title = _("{name} · Sector {number} · {place}").format(
                name=entry.name, number=sector.number,
                place=level_colour(sector.level, sector.color))
            self.quarters_editable = not sector.quarters_known
            self.quarters_text = (
                _("{count} living quarters").format(count=quarters) if sector.quarters_known
                else _("Living quarters: {count}  (change)").format(
                    count="?" if quarters is None else quarters)
            )
            self.show_bonus = sector.needs_bonus_answer
            self.bonus_text = _("Endgame bonus quarters occupied?")
            self.ids.bonus_yes.state = "down" if sector.bonus_active is True else "normal"
            self.ids.bonus_no.state = "down" if sector.bonus_active is False else "normal"
        self._draw_slots(residents, quarters)
        problem = self.root_ctl.problem
        if (not self.message and problem is not None and problem.player == self.player
                and self.number is not None and self.number in problem.sectors):
            self.message = problem.message

    def _draw_slots(self, residents: list[str], quarters: int | None) -> None:
        slots = self.ids.slots
        slots.clear_widgets()
        count = max(quarters or 0, len(residents))
        for i in range(count):
            species = residents[i] if i < len(residents) else None
            slot = TagLabel(
                tag=f"slot:{i}",
                text=species_label(species) if species else _("{number}\nfree").format(
                    number=i + 1),
            )
            slot.bg = SPECIES_RGBA[species] if species else PANEL
            slot.color = SPECIES_TEXT[species] if species else (0.6, 0.63, 0.7, 1)
            slots.add_widget(slot)
        if count == 0:
            slots.add_widget(TagLabel(text=_("How many living quarters? Tap the button "
                                             "above.")))

    def add(self, species: str) -> None:
        """A species button: the resident goes into the next free quarter."""
        self._act(lambda f: f.add_hub_resident(self.player, species) if self.is_hub
                  else f.add_resident(self.player, self.number, species))

    def remove_last(self) -> None:
        """Take the rightmost resident out."""
        self._act(lambda f: f.remove_last_hub_resident(self.player) if self.is_hub
                  else f.remove_last_resident(self.player, self.number))

    def answer_bonus(self, active: bool) -> None:
        """Yes/No: are the endgame bonus's living quarters occupied?"""
        self._act(lambda f: f.set_bonus_active(self.player, self.number, active))

    def edit_quarters(self) -> None:
        """Ask the keypad how many living quarters this Sector has (catalogue does not know)."""
        if not self.quarters_editable:
            return
        self.root_ctl.ask_quarters(self.player, self.number, then=self.refresh)

    def delete(self) -> None:
        """Remove this Sector from the station, once the player said Yes."""
        name = self.root_ctl.form.players[self.player].name

        def remove() -> None:
            self.root_ctl.form.remove_sector(self.player, self.number)
            self.root_ctl.touched(self.player, "sectors", self.number)
            self.dismiss()

        ConfirmPopup(_("Remove Sector {number} from {name}?").format(number=self.number,
                                                                       name=name),
                     remove).open(animation=False)

    def _act(self, action: Callable[[ScoreForm], None]) -> None:
        self.message = ""
        try:
            action(self.root_ctl.form)
        except FormError as error:
            self.message = _sentence(str(error))
        self.root_ctl.touched(self.player, "hub_residents" if self.is_hub else "sectors",
                              self.number)
        self.refresh()

    def on_dismiss(self) -> None:
        """Show the changes on the player's page."""
        self.root_ctl.refresh()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


# --------------------------------------------------------------------------------------------
# Screens


class StartScreen(Screen):
    """Choose the number of players, open a file, or load the rulebook example."""

    message = StringProperty("")
    tone = ColorProperty(NOTICE)
    clear_armed = BooleanProperty(False)


class PlayerScreen(Screen):
    """One player's entries (left) and station grid (right), with tabs for every player."""

    banner = StringProperty("")
    tone = ColorProperty(ERROR)
    show_hub_residents = BooleanProperty(False)
    hub_residents_text = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Build the 3x3 station grid (wings across, levels down)."""
        grid = self.ids.station
        unit = App.get_running_app().unit
        grid.add_widget(TagLabel(text="", size_hint=(None, None), width=unit * 40,
                                 height=unit * 28))
        self.headings: list[tuple[TagLabel, Callable[[], str]]] = []
        for color in SECTOR_COLORS:
            label = TagLabel(tag=f"wing:{color}", color=WING_TEXT[color], bold=True,
                             size_hint_y=None, height=unit * 28)
            self.headings.append((label, lambda color=color: i18n._(WING_NAMES[color])))
            grid.add_widget(label)
        for level in LEVELS:
            label = TagLabel(tag=f"level:{level}", bold=True, size_hint_x=None,
                             width=unit * 40)
            self.headings.append((label, lambda level=level: _("L{level}").format(level=level)))
            grid.add_widget(label)
            for color in SECTOR_COLORS:
                grid.add_widget(SectorCell(level=level, wing=color, tag=f"cell:{level}:{color}"))
        self.name_headings()

    def name_headings(self) -> None:
        """The wings' and levels' names, in the player's language."""
        for label, words in self.headings:
            label.text = words()


class ScoreScreen(Screen):
    """The score sheet: the rulebook's table, the winner, the tie-break and the bonus lines."""

    winner = StringProperty("")
    notes = StringProperty("")


class Notes(Label):
    """The score sheet's notes: as high as their text, inside a ScrollView."""

    tag = StringProperty("")


class FilesScreen(Screen):
    """A finger-sized file chooser for position files (.json)."""

    folder = StringProperty("")
    message = StringProperty("")


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
        self._folder = paths.data_folder() if paths.data_folder().is_dir() else Path.home()
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
                return _sentence(str(error))
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
                return _sentence(str(error))
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
                return _sentence(str(error))
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
            return _sentence(str(error))
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
        """Fill the score screen from a ScoreSheet and switch to it."""
        self.sheet = sheet
        screen = self.score_screen
        table = screen.ids.table
        table.clear_widgets()
        table.cols = len(sheet.players) + 1
        winners = set(sheet.winners)
        unit = App.get_running_app().unit
        label_width = unit * 250
        table.add_widget(TagLabel(text=_("Category"), tag="score:head:0", bold=True,
                                  halign="left", size_hint_x=None, width=label_width))
        for c, p in enumerate(sheet.players, start=1):
            head = TagLabel(text=f"[b]{escape_markup(p.name)}[/b]", tag=f"score:head:{c}",
                            markup=True, color=ACCENT if p.name in winners else (1, 1, 1, 1))
            head.font_size = unit * 20  # after the TagLabel rule's own size
            table.add_widget(head)
        rows = sheet.rows()
        pluralities = range(4, 4 + len(PLURALITY_ORDER))  # the rows of ScoreSheet.rows()
        for r, (label, values) in enumerate(rows, start=1):
            total = r == len(rows)  # the last row: TOTAL
            shade = BUTTON if total else ((0, 0, 0, 0) if r % 2 else (1, 1, 1, 0.04))
            label = category_name(label)  # the sheet keeps its labels in English
            table.add_widget(TagLabel(text=f"[b]{label}[/b]" if total else label, markup=True,
                                      tag=f"score:{r}:0", halign="left", size_hint_x=None,
                                      width=label_width, bg=shade))
            for c, value in enumerate(values, start=1):
                blank = r in pluralities and value == 0
                text = "" if blank else str(value)
                winner = total and sheet.players[c - 1].name in winners
                cell = TagLabel(text=f"[b]{text}[/b]" if total else text, markup=True,
                                tag=f"score:{r}:{c}", bg=shade,
                                color=ACCENT if winner else (0.93, 0.94, 0.96, 1))
                cell.font_size = unit * (30 if total else 22)  # after the TagLabel rule's
                table.add_widget(cell)
        best = max(p.total for p in sheet.players)
        if len(sheet.winners) == 1:
            screen.winner = _("Winner: {name} with {points}").format(name=sheet.winners[0],
                                                                      points=best)
        else:
            screen.winner = _("Shared victory: {names} ({points})").format(
                names=and_names(list(sheet.winners)), points=best)
        notes = []
        if sheet.tiebreak:
            notes.append(f"[b][color={hex_color(ACCENT)}]{escape_markup(_('Tie-breaker'))}"
                         f"[/color][/b]\n{escape_markup(tiebreak_text(sheet) or '')}")
        ranking = sorted(sheet.players, key=lambda p: (p.rank, -p.total))
        notes.append(f"[b]{escape_markup(_('Ranking'))}[/b]\n" + "\n".join(
            f"{p.rank}. {escape_markup(p.name)}  {p.total}" for p in ranking))
        for p in sheet.players:
            lines = [f"{escape_markup(b.source)}: [b]+{b.points}[/b]  {escape_markup(b.text)}"
                     for b in p.bonus_lines]
            if lines:
                heading = _("{name}: station bonuses").format(name=p.name)
                notes.append(f"[b]{escape_markup(heading)}[/b]\n" + "\n".join(lines))
        screen.notes = "\n\n".join(notes)
        screen.ids.notes_scroller.scroll_y = 1
        self.current = "score"

    # files -----------------------------------------------------------------------------------
    def show_files(self, origin: str) -> None:
        """Open the file chooser (returns to `origin` on Back)."""
        self._return_to = origin
        self.files.message = ""
        self.list_folder(self._folder)
        self.current = "files"

    def files_back(self) -> None:
        """Leave the file chooser."""
        self.current = self._return_to

    def shortcuts(self) -> list[tuple[str, Path]]:
        """The chooser's folder shortcuts that exist on this machine (the English words: the
        words shown are SHORTCUTS')."""
        found = [("Examples", EXAMPLES_DIR), ("App data", paths.data_folder()),
                 ("Home", Path.home())]
        found += [("USB drives", Path("/media")), ("Mounted (/mnt)", Path("/mnt"))]
        seen, result = set(), []
        for label, path in found:
            if path.is_dir() and (label, path) not in seen:
                seen.add((label, path))
                result.append((label, path))
        return result

    def list_folder(self, folder: Path) -> None:
        """Show a folder's sub-folders and .json files as big buttons."""
        screen = self.files
        try:
            entries = sorted(Path(folder).iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
        except OSError as error:
            screen.message = _("Cannot open {folder}: {error}.").format(
                folder=folder, error=error.strerror or error)
            return
        self._folder = Path(folder)
        screen.folder = str(self._folder)
        side = screen.ids.shortcuts
        side.clear_widgets()
        for label, path in self.shortcuts():
            words = SHORTCUTS.get(label)
            button = TagButton(text=i18n._(words) if words else label,
                               tag=f"files:{label.lower().replace(' ', '-')}",
                               size_hint_y=None)
            button.bind(on_release=lambda _b, path=path: self.list_folder(path))
            side.add_widget(button)
        side.add_widget(filler())
        listing = screen.ids.listing
        listing.clear_widgets()
        if self._folder.parent != self._folder:
            up = TagButton(text=_("..  (up one folder)"), tag="files:up", size_hint_y=None)
            up.bind(on_release=lambda _b: self.list_folder(self._folder.parent))
            listing.add_widget(up)
        shown = 0
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.is_dir():
                button = TagButton(text=f"{path.name}/", tag=f"dir:{path.name}",
                                   size_hint_y=None, bg=PANEL)
                button.bind(on_release=lambda _b, path=path: self.list_folder(path))
            elif path.suffix.lower() == ".json":
                button = TagButton(text=path.name, tag=f"file:{path.name}", size_hint_y=None)
                button.bind(on_release=lambda _b, path=path: self.open_file(path, "files"))
            else:
                continue
            listing.add_widget(button)
            shown += 1
        if not shown:
            listing.add_widget(TagLabel(text=_("No folders or .json files here."),
                                        size_hint_y=None))
        screen.ids.scroller.scroll_y = 1

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
        """Redraw the player page from the form (after every change)."""
        if self.form is None:
            return
        self.keep_entries()
        screen = self.player_screen
        form, i, problem = self.form, self.current_player, self.problem
        entry = form.players[i]
        tabs = screen.ids.tabs
        tabs.clear_widgets()
        for index, p in enumerate(form.players):
            tab = TagToggle(text=escape_markup(p.name), tag=f"tab:{index}", group="players",
                            allow_no_selection=False, markup=True,
                            state="down" if index == i else "normal")
            tab.error = problem is not None and problem.player == index
            tab.bind(on_release=lambda _b, index=index: self.show_player(index))
            tabs.add_widget(tab)
        shown = problem is not None and problem.player in (None, i)
        screen.banner = problem.message if shown else self.notice
        screen.tone = NOTICE if not shown and self.notice_ok else ERROR
        mine = problem if problem is not None and problem.player == i else None
        screen.name_headings()
        values = {"name": escape_markup(entry.name), "hub": entry.hub or _("choose")}
        for key in NUMBER_FIELDS:
            value = entry.numbers[key]
            values[key] = "—" if value is None else str(value)
        for widget in screen.ids.fields.children:
            widget.value = values[widget.key]
            widget.error = mine is not None and mine.field == widget.key
        hub_quarters = form.hub_quarters(i)
        screen.show_hub_residents = hub_quarters > 0
        screen.hub_residents_text = (
            _("Hub residents {count}/{quarters}").format(count=len(entry.hub_residents),
                                                         quarters=hub_quarters)
            if hub_quarters else "")
        fill_dots(screen.ids.hub_dots, entry.hub_residents, hub_quarters, "hubres:dot")
        small = int(15 * App.get_running_app().unit)
        for cell in screen.ids.station.children:
            if not isinstance(cell, SectorCell):
                continue
            sector = entry.at(cell.level, cell.wing)
            cell.number = sector.number if sector else 0
            cell.error = bool(sector and mine and mine.field == "sectors"
                              and sector.number in mine.sectors)
            fill_dots(cell.ids.dots, sector.residents if sector else [],
                      sector.quarters if sector else None, f"{cell.tag}:dot")
            if sector is None:
                cell.text = f"[color=#8a93a6]{escape_markup(_('+ add'))}[/color]"
                cell.bg = PANEL
                continue
            text = f"[b]{sector.number}[/b]"  # at the top; the dots below it
            if sector.needs_bonus_answer:
                answer = {True: _("bonus: yes"), False: _("bonus: no"),
                          None: _("bonus: ?")}[sector.bonus_active]
                text += f"  [size={small}]{escape_markup(answer)}[/size]"
            if sector.quarters is None:
                text += f"\n[size={small}]{escape_markup(_('living quarters?'))}[/size]"
            cell.text = text
            cell.bg = WING_TINT[sector.color]


def filler() -> Label:
    """An empty stretchy widget that pushes buttons to the top of a column."""
    return Label(text="")


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
