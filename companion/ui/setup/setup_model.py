"""The setup wizard, one decision at a time from the players to the first turn: what each step
shows and the setup commands it gives the engine (plain Python, no Kivy; `setup.py` renders it).

What is offered comes from `rules.options` (and the setup tables it reads); every verdict is the
engine's: each command (made by `rules.commands`' builders) goes through the `send` the wizard is
given (the session's, the one door), a refused one shows its reason, a value the catalogue lacks
becomes a question.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from companion.i18n import _
from companion.rules import commands
from companion.rules import setup as rules
from companion.rules.catalogue import Catalogue
from companion.rules.commands import CommandDict, Outcome
from companion.rules.names import name_key, normal_name, player_name_problem, twins
from companion.rules.option_types import (
    ChooseHubStep,
    DealHubsStep,
    DraftShipStep,
    FirstGameSetsStep,
    MissingValue,
    RevealShipsStep,
    SetupStep,
    TableOptions,
)
from companion.rules.options import options
from companion.rules.words import (
    ALIEN_COLORS,
    PLAYER_COLORS,
    TRACKS,
    color_name,
    design_name,
    ship_name,
    track_name,
)
from companion.ui.kit.values_model import Card, card_title
from companion.ui.kit.values_model import problem as value_problem

# The steps by their (English) names, which the wizard goes by; `step_name` says them.
STEPS = ("Players", "Lay out", "Sector display", "Draft", "Hubs", "Values from the tiles",
         "Starting bonuses", "Start")
OPTION_KEYS = ("first_game", "advanced", "friendly")
MODES = ("first_game", "draft", "advanced")  # how the table plays: each a button that goes on


def step_name(step: str) -> str:
    """A step's name (one of STEPS) in the language spoken now, short enough for the
    progress bar's box at 800x480."""
    return {"Players": _("Players"), "Lay out": _("Lay out"), "Sector display": _("On display"),
            "Draft": _("Draft"), "Hubs": _("Hubs"), "Values from the tiles": _("Tile values"),
            "Starting bonuses": _("Bonuses"), "Start": _("Start")}[step]


def mode_names() -> dict[str, str]:
    """The ways to play (MODES) in the language spoken now."""
    return {"first_game": _("First game (fixed sets)"), "draft": _("Draft, basic Hubs"),
            "advanced": _("Draft, advanced Hubs")}


class Table(Protocol):
    """What the wizard reads: the engine's Game or the store's StoredGame."""

    state: Any
    catalogue: Catalogue


class SetupWizard:
    """A game's setup: the current step, Back, and the engine commands the steps give, each
    sent through `send` (the session's: GameSession.send) to the game it reads."""

    def __init__(self, game: Table, send: Callable[[CommandDict], Outcome],
                 played: Sequence[Sequence[str]] = ()) -> None:
        self.game = game
        self.send = send
        self.played = played  # the players of the games stored, the most recent game first
        self.players: list[dict] = [{"name": "", "color": c} for c in PLAYER_COLORS[:2]]
        self.choices = dict.fromkeys(OPTION_KEYS, False)
        self.aliens: dict[str, int | None] = dict.fromkeys(ALIEN_COLORS)
        self.rest: str | None = None  # the Alien colour counted as what the others leave
        self.revealed: list[str] = []  # the ships revealed for the draft's round, as sent
        self.stage = "Players"  # the steps before the game exists
        self.entries: list[Any] = []  # this step's picks so far (Back takes the last)
        self.values: dict[str, Any] = {}  # values from the tiles, sent with the next command
        self.skipped: set[str] = set()
        self.values_done = False
        self.asked: list[MissingValue] | None = None  # what the values step lists (as it opened)
        self.component = 0  # the values step's panel: one component each
        self.question: Outcome | None = None  # a value the engine asked for (missing)
        self.message = ""  # the engine's last refusal

    # -- where we are ---------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def catalogue(self) -> Catalogue:
        return self.game.catalogue

    @property
    def known(self) -> dict[str, Any]:
        """The values from the tiles this game knows beyond the catalogue: learned with the
        commands sent, and entered for the next."""
        return {**self.state["learned"], **self.values}

    def options(self) -> TableOptions:
        """`rules.options` for the state as it will be once the values entered are learned."""
        state = self.state
        if self.values:
            state = copy.deepcopy(state)
            state["learned"].update(self.values)
        return options(state, self.catalogue)

    @property
    def name(self) -> str:
        """The current step's name (one of STEPS)."""
        phase = self.state["phase"]
        if phase == "new":
            return self.stage
        if phase != "setup":
            return "Start"
        step = self.state["setup"]["step"]
        if step == "display":
            return "Sector display"
        if step in ("sets", "hubs", "reveal", "draft"):
            return "Draft"
        if step == "choose_hub":
            return "Hubs"
        started = any(p["ready"] for p in self.state["players"])  # also after a restart
        if self.values_done or started:
            return "Starting bonuses"
        if self.asked is None:
            self.asked = options(self.state, self.catalogue)["missing"]
        return "Values from the tiles" if self.asked else "Starting bonuses"

    def values_known(self) -> list[str]:
        """The line that says the values step was passed because the catalogue knew every
        value of the tiles on the table (none when it asked or was not reached)."""
        return [_("Values from the tiles: every value is known, nothing to ask.")] \
            if self.asked == [] else []

    def steps(self) -> list[str]:
        """The progress bar's steps (a first game deals no Hubs to choose from)."""
        return [s for s in STEPS if not (s == "Hubs" and self.choices["first_game"])]

    @property
    def step(self) -> Any:
        """The current step: an object saying what to show and taking the answers."""
        if self.question is not None:
            return Answer(self)
        name = self.name
        if name == "Draft":
            step = self.state["setup"]["step"]
            return {"sets": Sets, "hubs": DealHubs, "reveal": Reveal, "draft": Pick}[step](self)
        return {"Players": Players, "Lay out": LayOut,
                "Sector display": Display, "Hubs": ChooseHub, "Values from the tiles": Values,
                "Starting bonuses": Bonuses, "Start": Start}[name](self)

    @property
    def finished(self) -> bool:
        return self.state["phase"] == "play"

    # -- moving -----------------------------------------------------------------------------

    def submit(self, command: CommandDict) -> bool:
        """Send a setup command with the values entered, then the starting bonuses that ask
        nothing; refused (or not saved) or a question, say so (`message`, `question`:
        answered, the command is sent again) and keep everything."""
        return self._send(command) and self.take_plain_bonuses()

    def take_plain_bonuses(self) -> bool:
        """Take each starting bonus that asks the player no choice, in turn order, as Confirm
        would (the Start step lists what they gave); stops at one that asks a choice, or a
        value the catalogue lacks (the engine's question)."""
        while self.name == "Starting bonuses" and self.state["phase"] == "setup":
            bonus = Bonuses(self)
            if bonus.asks or not self._send(commands.starting_bonus(bonus.player)):
                return not self.message
        return True

    def _send(self, command: CommandDict) -> bool:
        if self.values:
            command = {**command, "catalogue": {**self.values, **command.get("catalogue", {})}}
        outcome = self.send(command)
        if outcome.missing:
            self.question, self.message = outcome, ""
            return False
        if not outcome.applied:
            self.message = outcome.problem
            return False
        self.values, self.entries, self.question, self.message = {}, [], None, ""
        return True

    def back(self) -> None:
        """One step back: the question, the last pick, the previous step, or undo."""
        self.message = ""
        if self.question is not None:
            self.question = None
        elif self.entries:
            self.entries.pop()
        elif self.state["phase"] == "new":
            self.stage = STEPS[max(STEPS.index(self.stage) - 1, 0)]
        elif self.name == "Values from the tiles" and self.component:
            self.component -= 1  # the previous component's panel
        elif (self.name == "Starting bonuses" and self.values_done
              and not any(p["ready"] for p in self.state["players"])):
            self.values_done = False
        else:
            if self.name in ("Values from the tiles", "Starting bonuses"):
                self.asked, self.component = None, 0
            self.message = self.send(commands.undo()).problem

    def still_asked(self, values: Mapping[str, Any]) -> list[str]:
        """The values the engine asks at setup once `values` are known (a Hub paying GEMs
        per ship is asked no fixed income)."""
        state = copy.deepcopy(self.state)
        state["learned"].update(values)
        return [item["key"] for item in options(state, self.catalogue)["missing"]]

    def check_value(self, key: str, value: Any) -> str | None:
        """Why `value` cannot be the catalogue's `key` (None: it can), in the words the value
        pop-up uses (values_model.problem)."""
        return value_problem(key, value, self.catalogue)


# -- the steps before the game exists ---------------------------------------------------------


class Players:
    """Who plays, in turn order (the first is the start player), each with a colour, and how
    (a first game or a draft, the friendly variant)."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        self.players = wizard.players
        step = options(wizard.state, wizard.catalogue)["setup"]
        assert step["command"] == "new_game"  # the players come before the game
        self.counts = step["players"]
        self.colors = PLAYER_COLORS
        self.modes = mode_names()
        self.choices = wizard.choices

    @property
    def title(self) -> str:
        return _("Who plays? (in turn order)")

    def set_name(self, index: int, name: str) -> None:
        self.players[index]["name"] = name

    def name_problem(self, index: int, name: str) -> str | None:
        """Why player `index` cannot be called `name` (None: they can)."""
        problem = player_name_problem(
            name, _("player {number}'s name").format(number=index + 1))
        others = [p["name"] for i, p in enumerate(self.players) if i != index]
        if problem is None and name_key(name) in {name_key(o) for o in others if o.strip()}:
            problem = _("another player is called {name}").format(name=normal_name(name))
        return problem

    def set_color(self, index: int, color: str) -> None:
        """Give player `index` a colour (a player who had it takes theirs in exchange)."""
        for other in self.players:
            if other["color"] == color:
                other["color"] = self.players[index]["color"]
        self.players[index]["color"] = color

    def add(self) -> None:
        if len(self.players) < max(self.counts):
            free = [c for c in self.colors if c not in {p["color"] for p in self.players}]
            self.players.append({"name": "", "color": free[0]})

    RECENT = 6  # the names of recent players offered on the name keyboard, at most

    def recent(self, index: int) -> list[str]:
        """The names of the players of the games stored, the most recent first, each once,
        but those the other players have: one tap each on player `index`'s keyboard."""
        taken = {name_key(p["name"]) for i, p in enumerate(self.players) if i != index}
        found: dict[str, str] = {}
        for players in self.wizard.played:
            for name in players:
                if name_key(name) not in taken:
                    found.setdefault(name_key(name), name)
        return list(found.values())[:self.RECENT]

    def unnamed(self, after: int = -1) -> int | None:
        """The first player after `after` still without a name (None: everyone has one): the
        name keyboard goes on to them."""
        return next((i for i, p in enumerate(self.players)
                     if i > after and not p["name"].strip()), None)

    def remove(self, index: int) -> None:
        if len(self.players) > min(self.counts):
            del self.players[index]

    def problem(self) -> str | None:
        """Why the table cannot start with these players (None: it can)."""
        for number, player in enumerate(self.players, start=1):
            problem = player_name_problem(player["name"],
                                          _("player {number}'s name").format(number=number))
            if problem:
                return problem
        if twins([p["name"] for p in self.players]):  # as the engine tells them apart
            return _("each player needs a name of their own")
        return None

    def toggle_friendly(self) -> None:
        self.choices["friendly"] = not self.choices["friendly"]

    def done(self, mode: str) -> bool:
        """These players play in `mode` (one of MODES): on to the lay-out, when every name
        is fine."""
        self.wizard.message = self.problem() or ""
        if self.wizard.message:
            return False
        self.choices["first_game"] = mode == "first_game"
        self.choices["advanced"] = mode == "advanced"
        self.wizard.stage = "Lay out"
        return True


class LayOut:
    """What to put on the table, and the Aliens drawn from the bag, counted by colour: each
    count a tap on its number (`numbers`: those near an even share; others on the keypad),
    the last colour what the others leave of the Aliens drawn."""

    SHOWN = 8  # the numbers offered for a colour
    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        self.table = rules.lay_out(wizard.catalogue, len(wizard.players),
                                   wizard.choices["friendly"])
        self.aliens = wizard.aliens
        self.lines = [
            _("Put {humans} Humans on Terra.").format(humans=self.table["humans"]),
            _("Draw {aliens} Aliens from the bag; count them by colour.").format(
                aliens=self.table["aliens"]),
            _("Shuffle the nine Sector stacks: {count} of each go on display.").format(
                count=self.table["per_stack"])]

    @property
    def title(self) -> str:
        return _("Put out the supply")

    @property
    def counted(self) -> int:
        return sum(n or 0 for n in self.aliens.values())

    @property
    def numbers(self) -> list[int]:
        """The counts offered as buttons: the SHOWN around an even share of the Aliens drawn."""
        share = self.table["aliens"] // len(self.aliens)
        first = max(share - self.SHOWN // 2, 0)
        return list(range(first, first + self.SHOWN))

    @property
    def rest(self) -> str | None:
        """The colour whose count is what the others leave (None: each was given)."""
        return self.wizard.rest

    def set_aliens(self, color: str, count: int) -> None:
        """`count` Aliens of `color` drawn; once a single colour is left, it is counted as what
        the others leave of the Aliens drawn."""
        self.aliens[color] = count
        if self.wizard.rest == color:
            self.wizard.rest = None
        open_ = [c for c, n in self.aliens.items() if n is None or c == self.wizard.rest]
        left = self.table["aliens"] - sum(n or 0 for c, n in self.aliens.items()
                                          if c not in open_)
        if len(open_) == 1:
            fits = left >= 0
            self.aliens[open_[0]] = left if fits else None
            self.wizard.rest = open_[0] if fits else None

    def done(self) -> bool:
        """Start the game (`new_game`) once every colour is counted."""
        uncounted = [c for c, n in self.aliens.items() if n is None]
        if uncounted:
            self.wizard.message = _("count the {color} Aliens drawn").format(
                color=color_name(uncounted[0]))
            return False
        choices = self.wizard.choices
        return self.wizard.submit(commands.new_game(
            [{"name": normal_name(p["name"]), "color": p["color"]} for p in self.wizard.players],
            {color: n for color, n in self.aliens.items() if n is not None},  # all counted
            first_game=choices["first_game"], advanced=choices["advanced"],
            friendly=choices["friendly"]))


# -- the engine's setup steps ------------------------------------------------------------------


def stack_color(color: str | None) -> str:
    """A stack's colour in words ("?" for a Sector whose colour the catalogue lacks)."""
    return "?" if color is None else color_name(color)


class Display:
    """The Sector display, stack by stack: the stack's numbers as buttons, the ones drawn
    tapped (tapped again: taken back, until the stack is complete)."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        found = wizard.options()["setup"]
        assert found["command"] == "sector_display"  # the wizard's step for it (step)
        self.per_stack, self.endings = found["per_stack"], found["number_endings"]
        self.stacks = [(level, color) for level, color in found["stacks"]]
        self.entries = wizard.entries

    @property
    def stack(self) -> tuple[int, str | None]:
        """The stack whose Sectors are being entered."""
        return self.stacks[min(len(self.entries) // self.per_stack, len(self.stacks) - 1)]

    @property
    def title(self) -> str:
        level, color = self.stack
        return _("Level-{level} {color} stack: tap the {count} Sectors on display").format(
            level=level, color=stack_color(color), count=self.per_stack)

    @property
    def numbers(self) -> list[int]:
        """The current stack's Sector numbers (a first game's: those with the endings it
        uses), as the catalogue lists them."""
        return [n for n, s in sorted(self.wizard.catalogue.sectors.items())
                if s.stack == self.stack and (not self.endings or n % 10 in self.endings)]

    @property
    def picked(self) -> list[int]:
        """The current stack's Sectors tapped so far."""
        return self.entries[len(self.entries) // self.per_stack * self.per_stack:]

    def laid(self) -> list[tuple[tuple[int, str | None], list[int]]]:
        """Each stack with its Sectors on display so far, stack by stack."""
        return [(stack, self.entries[i * self.per_stack:(i + 1) * self.per_stack])
                for i, stack in enumerate(self.stacks)]

    def tap(self, number: int) -> bool:
        """A number of the current stack tapped: on display, or taken back when it was."""
        if number in self.picked:
            self.entries.remove(number)
            self.wizard.message = ""
            return True
        return self.enter(number)

    def enter(self, number: int) -> bool:
        """Add a Sector of the current stack; the display is sent when complete."""
        sector = self.wizard.catalogue.sectors.get(number)
        level, color = self.stack
        problem = None
        if sector is None:
            problem = _("there is no Sector {number}").format(number=number)
        elif sector.stack != self.stack:
            problem = _("Sector {number} is from the Level-{level} {color} stack, not the "
                        "Level-{wanted_level} {wanted_color} one").format(
                number=number, level=sector.level, color=stack_color(sector.color),
                wanted_level=level, wanted_color=stack_color(color))
        elif self.endings and number % 10 not in self.endings:
            problem = _("first game: only Sectors ending in {endings}").format(
                endings=", ".join(map(str, self.endings)))
        elif number in self.entries:
            problem = _("Sector {number} is on display already").format(number=number)
        self.wizard.message = problem or ""
        if problem:
            return False
        self.entries.append(number)
        if len(self.entries) == self.per_stack * len(self.stacks):
            return self.wizard.submit(commands.sector_display(list(self.entries)))
        return True


S = TypeVar("S", bound=SetupStep)  # the engine's step a step class shows


@dataclass
class Choice:
    """A button of a picking step: what it picks, its words, and whether it can be picked
    now (one taken keeps its place, marked, so that the buttons never move)."""

    value: Any
    words: str
    free: bool = True


class _Picks(Generic[S]):
    """A step where picks are made one at a time (`player` picks from `offered`); `S` is the
    engine's step it shows (SetupWizard.step picks the class from the engine's step)."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        self.setup: S = cast(S, wizard.options()["setup"])  # the step picked this class
        self.entries = wizard.entries

    def describe(self, choice: Any) -> str:
        """A choice as the table calls it (a Hub or a set by its name or number)."""
        return str(choice)

    @property
    def offered(self) -> list[Any]:
        """What can be picked now."""
        return [c.value for c in self.choices if c.free]

    @property
    def choices(self) -> list[Choice]:
        """The step's buttons, in an order that stays while picks are made (each step's)."""
        raise NotImplementedError

    def _taken(self, everything: list[Any], owners: list[str]) -> list[Choice]:
        """`everything` as buttons, those in `entries` marked with whose they are (`owners`:
        the player of each entry)."""
        whose = dict(zip(self.entries, owners))
        return [Choice(c, self.describe(c) if c not in whose else
                       _("{choice}: {player}").format(choice=self.describe(c),
                                                      player=whose[c]), c not in whose)
                for c in everything]


class Sets(_Picks[FirstGameSetsStep]):
    """First game: each player takes one of the four fixed sets."""

    @property
    def player(self) -> str:
        return self.setup["players"][len(self.entries)]

    @property
    def title(self) -> str:
        return _("First game: which set does {player} take?").format(player=self.player)

    @property
    def choices(self) -> list[Choice]:
        return self._taken(self.setup["sets"], self.setup["players"])

    def describe(self, number: int) -> str:
        """The set as the rulebook lists it: its Hub and ships."""
        record = self.wizard.catalogue.setup[f"first_game_set_{number}"]
        ships = [_("Level-{level} {ship}").format(level=level, ship=ship_name(kind))
                 for level in (3, 2) for kind in record.value(f"level{level}_ships")]
        return _("Set {number}: Hub {hub}, {ships}").format(
            number=number, hub=record.value("hub"), ships=", ".join(ships))

    def choose(self, number: int) -> bool:
        self.entries.append(number)
        if len(self.entries) < len(self.setup["players"]):
            return True
        return self.wizard.submit(commands.first_game_sets(
            dict(zip(self.setup["players"], self.entries))))


class DealHubs(_Picks[DealHubsStep]):
    """The Hubs dealt at random, two to each player, tapped as they come."""

    @property
    def player(self) -> str:
        return self.setup["players"][len(self.entries) // self.setup["per_player"]]

    @property
    def title(self) -> str:
        return _("Deal {count} Hubs to each player: {player} gets?").format(
            count=self.setup["per_player"], player=self.player)

    @property
    def choices(self) -> list[Choice]:
        per = self.setup["per_player"]
        return self._taken(self.setup["hubs"], [name for name in self.setup["players"]
                                                for _ in range(per)])

    def choose(self, hub: str) -> bool:
        self.entries.append(hub)
        per = self.setup["per_player"]
        if len(self.entries) < per * len(self.setup["players"]):
            return True
        return self.wizard.submit(commands.deal_hubs({
            name: self.entries[i * per:(i + 1) * per]
            for i, name in enumerate(self.setup["players"])}))


class Reveal(_Picks[RevealShipsStep]):
    """The ships revealed for this round of the draft (a design may come up more than once)."""

    def describe(self, choice: Any) -> str:
        """A ship design as the table calls it ("Ice Collector L3")."""
        return design_name(choice)

    @property
    def title(self) -> str:
        return _("Reveal {count} Level-{level} ships ({number} of {count}): which?").format(
            count=self.setup["count"], level=self.setup["level"], number=len(self.entries) + 1)

    @property
    def choices(self) -> list[Choice]:
        """Each design, with how many are revealed so far (a design may come up again)."""
        return [Choice(d, self.describe(d) if d not in self.entries else
                       _("{ship} ×{count}").format(ship=self.describe(d),
                                                   count=self.entries.count(d)))
                for d in self.setup["designs"]]

    def choose(self, design: str) -> bool:
        self.entries.append(design)
        if len(self.entries) < self.setup["count"]:
            return True
        revealed = list(self.entries)
        if not self.wizard.submit(commands.reveal_ships(revealed)):
            return False
        self.wizard.revealed = revealed
        return True


class Pick(_Picks[DraftShipStep]):
    """The draft's next pick, in snake order."""

    def describe(self, choice: Any) -> str:
        """A ship design as the table calls it ("Ice Collector L3")."""
        return design_name(choice)

    @property
    def player(self) -> str:
        return self.setup["player"]

    @property
    def title(self) -> str:
        return _("{player} drafts a ship").format(player=self.player)

    @property
    def order(self) -> list[str]:
        return self.setup["order"]

    @property
    def choices(self) -> list[Choice]:
        """The ships revealed, as cards: those drafted already marked, in their places (the
        engine keeps only what is left; the wizard remembers the round's reveal, when it sent
        it - after a restart, only what is left shows)."""
        left = self.setup["offered"]
        revealed = self.wizard.revealed
        if any(revealed.count(d) < left.count(d) for d in left):
            revealed = left
        drafted = {d: revealed.count(d) - left.count(d) for d in revealed}
        cards = []
        for design in revealed:
            free = not drafted[design]
            drafted[design] -= not free
            cards.append(Choice(design, self.describe(design) if free else
                                _("{ship}: drafted").format(ship=self.describe(design)), free))
        return cards

    def choose(self, design: str) -> bool:
        return self.wizard.submit(commands.draft_ship(self.player, design))


class ChooseHub(_Picks[ChooseHubStep]):
    """Each player keeps one of their two Hubs, in turn order."""

    @property
    def player(self) -> str:
        return self.setup["player"]

    @property
    def title(self) -> str:
        return _("{player} keeps which Hub?").format(player=self.player)

    @property
    def choices(self) -> list[Choice]:
        return [Choice(h, self.describe(h)) for h in self.setup["hubs"]]

    def choose(self, hub: str) -> bool:
        return self.wizard.submit(commands.choose_hub(self.player, hub))


class Values:
    """Every value the catalogue lacks for the components on the table, one card per component
    (values_model.Card, like the tile); each value entered (checked as the catalogue does) or
    skipped (asked when play needs it)."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        self.groups: dict[str, list[MissingValue]] = {}
        for item in wizard.asked or []:
            self.groups.setdefault(item["component"], []).append(item)
        self.components = list(self.groups)

    @property
    def current(self) -> str | None:
        """The component on this panel (None: nothing to ask)."""
        index = self.wizard.component
        return self.components[index] if index < len(self.components) else None

    @property
    def title(self) -> str:
        return _("Values printed on the tiles")

    @property
    def progress(self) -> str:
        """How many cards are left, this one included ("12 to go")."""
        return _("{count} to go").format(count=len(self.components) - self.wizard.component)

    @property
    def part_done(self) -> float:
        """The share of the cards already behind (0..1), for the progress bar."""
        return self.wizard.component / max(len(self.components), 1)

    def card(self) -> Card:
        """The current component's card, with the values entered so far; it shows only what
        the engine still asks, given the values on the card (`still_asked`)."""
        items = self.groups[self.current or ""]
        return Card([(item["key"], item["question"]) for item in items],
                    self.wizard.catalogue, self.wizard.known, self.wizard.still_asked)

    @property
    def open(self) -> list[MissingValue]:
        """The values neither entered nor skipped, in order."""
        return [item for items in self.groups.values() for item in items
                if item["key"] not in self.wizard.values and item["key"] not in self.wizard.skipped]

    def enter(self, key: str, value: Any) -> bool:
        self.wizard.message = self.wizard.check_value(key, value) or ""
        if not self.wizard.message:
            self.wizard.values[key] = value
            self.wizard.skipped.discard(key)
        return not self.wizard.message

    def skip(self, key: str) -> None:
        self.wizard.values.pop(key, None)
        self.wizard.skipped.add(key)

    def take(self, values: Mapping[str, Any]) -> bool:
        """The card's values entered, then the next card (False, with the message, when one
        is refused)."""
        return all(self.enter(key, value) for key, value in values.items()) and self.next()

    def next(self) -> bool:
        """The next component's panel (after the last: the step is done)."""
        self.wizard.component += 1
        return self.current is not None or self.done()

    def skip_component(self, values: Mapping[str, Any] | None = None) -> bool:
        """Keep the values tapped on this card, skip the rest of it, then the next card."""
        for key, value in (values or {}).items():
            self.enter(key, value)
        for item in self.groups.get(self.current or "", []):
            if item["key"] not in self.wizard.values:
                self.skip(item["key"])
        return self.next()

    def done(self, values: Mapping[str, Any] | None = None) -> bool:
        """Enough: the values tapped on this card are kept; what is still open is asked when
        play needs it."""
        for key, value in (values or {}).items():
            self.enter(key, value)
        self.wizard.values_done = True
        return self.wizard.take_plain_bonuses()


@dataclass
class Ask:
    """One thing a Hub's starting bonus needs: `count` answers for `field`, from `offered`
    (Diplomacy tracks, ships, or a stack's Sector numbers)."""

    field: str
    title: str
    count: int
    offered: list[Any]


class Bonuses:
    """A player takes their Hub's starting bonuses: what the Hub needs, then the turn-order
    GEMs, then confirm."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        setup = wizard.options()["setup"]
        assert setup["command"] == "starting_bonus"  # the wizard's step for it (step)
        self.setup = setup
        self.entries = wizard.entries
        self.player, self.hub = self.setup["player"], self.setup["hub"]
        names = [p["name"] for p in wizard.state["players"]]
        self.turn_gems = wizard.catalogue.setup["turn_order_gems"].value(
            f"player_{names.index(self.player) + 1}")

    @property
    def asks(self) -> list[Ask]:
        """What the Hub's starting bonus needs, in order (the Sectors offered leave out those
        tapped already)."""
        hub, found = _("Hub {hub}").format(hub=self.hub), []
        choice = self.setup["diplomacy_choice"]
        if choice:
            found.append(Ask("diplomacy", _("{hub}: {count} Diplomacy spaces - two on one track "
                                            "or one on each of two").format(hub=hub, count=choice),
                             choice, list(TRACKS)))
        for spec in self.setup["free_sectors"]:
            found.append(Ask("sectors", _("{hub} gives a free Level-{level} {color} Sector: "
                                          "which one?").format(hub=hub, level=spec["level"],
                                                               color=color_name(spec["color"])),
                             1, self._free((spec["level"], spec["color"]))))
        found += self._set_aside(hub, self.setup["private_sectors"])
        for change in self.setup["ship_changes"]:
            if change["op"] == "draw":
                found.append(Ask("keep", _("{hub}: draw {draw} Level-{level} ships; which {keep} "
                                           "are kept?").format(
                    hub=hub, draw=change["draw"], level=change["level"], keep=change["keep"]),
                    change["keep"], change["choices"]))
            elif len(change["choices"]) > change["count"]:
                found.append(Ask("discard", _("{hub}: discard which Level-{level} ship?").format(
                    hub=hub, level=change["level"]), change["count"], change["choices"]))
        return found

    def _free(self, stack: tuple[int, str | None] | None = None,
              display: bool = True) -> list[int]:
        """The Sector numbers (of `stack`; all: None) no station holds and none is set aside
        (on display too, with `display`), the ones tapped already left out."""
        state = self.wizard.state
        taken = {*self.entries, *(number for p in state["players"]
                                  for number in [*(s["number"] for s in p["sectors"]),
                                                 *p["private_sectors"]])}
        if not display:
            taken.update(state["display"])
        return [n for n, s in sorted(self.wizard.catalogue.sectors.items())
                if (stack is None or s.stack == stack) and n not in taken]

    def _set_aside(self, hub: str, count: int) -> list[Ask]:
        """A-6's Sectors set aside, "one of each color at each level": one stack at a time,
        its numbers not on display; any other count, from every Sector not on display."""
        stacks = list(dict.fromkeys(s.stack for _n, s in  # as the tiles are numbered
                                    sorted(self.wizard.catalogue.sectors.items())))
        if not count:
            return []
        if count != len(stacks):
            return [Ask("private_sectors", _("{hub}: the {count} Sectors set aside: which?").format(
                hub=hub, count=count), count, self._free(display=False))]
        return [Ask("private_sectors", _("{hub}: the Sectors set aside - which Level-{level} "
                                         "{color} one? ({number} of {count})").format(
            hub=hub, level=level, color=stack_color(color), number=index + 1, count=count),
            1, self._free((level, color), display=False))
            for index, (level, color) in enumerate(stacks)]

    def _asking(self) -> tuple[Ask | None, int]:
        """What is asked now (None: everything is answered) and how many answers it has."""
        given = len(self.entries)
        for ask in self.asks:
            if given < ask.count:
                return ask, given
            given -= ask.count
        return None, 0

    @property
    def ask(self) -> Ask | None:
        """What is asked now (None: everything is answered; confirm)."""
        return self._asking()[0]

    @property
    def title(self) -> str:
        ask, given = self._asking()
        if ask is None:
            return _("{player} takes the starting bonuses of Hub {hub}").format(
                player=self.player, hub=self.hub)
        if ask.count > 1:
            return _("{question} ({number} of {count})").format(
                question=ask.title, number=given + 1, count=ask.count)
        return ask.title

    def describe(self, choice: str) -> str:
        """A choice as the table calls it: a Diplomacy track's name, a ship of the player's
        by its design ("Dismantle L2", not "Ann:L2-dismantle")."""
        if isinstance(choice, int):  # a Sector, by the number on its tile
            return str(choice)
        ship = self.wizard.state["ships"].get(choice)
        if ship:
            return design_name(ship["design"])
        if choice in self.wizard.catalogue.ships:  # a design drawn
            return design_name(choice)
        return track_name(str(choice))

    @property
    def lines(self) -> list[str]:
        """What confirming gives, beyond the Hub's resources."""
        answered: dict[str, list[str]] = {}  # A-6's nine asks: one line
        for ask, answers in self._answers():
            answered.setdefault(self.ask_title(ask), []).extend(map(self.describe, answers))
        found = self.wizard.values_known() + [
            f"{title}: {', '.join(answers)}" for title, answers in answered.items()]
        if self.turn_gems:
            found.append(_("Turn order: {player} takes {gems} GEM(s)").format(
                player=self.player, gems=self.turn_gems))
        return found

    def ask_title(self, ask: Ask) -> str:
        return {"diplomacy": _("Diplomacy"), "sectors": _("Free Sector"),
                "keep": _("Ships kept"), "private_sectors": _("Sectors set aside"),
                "discard": _("Discarded")}[ask.field]

    def _answers(self) -> list[tuple[Ask, list[Any]]]:
        found, rest = [], list(self.entries)
        for ask in self.asks:
            found.append((ask, rest[:ask.count]))
            rest = rest[ask.count:]
        return found

    def choose(self, answer: str | int) -> bool:
        self.entries.append(answer)
        return True

    def confirm(self) -> bool:
        fields: dict[str, Any] = {}
        given = list(self.entries)
        for ask in self.asks:
            answers, given = given[:ask.count], given[ask.count:]
            if ask.field == "diplomacy":
                fields["diplomacy"] = {t: answers.count(t) for t in dict.fromkeys(answers)}
            else:
                fields.setdefault(ask.field, []).extend(answers)
        return self.wizard.submit(commands.starting_bonus(self.player, **fields))


class Answer:
    """Values the engine needs now (a starting bonus asked one its Hub's tile prints): the
    component's card with every value of it still missing, so one card answers what the
    engine would ask one by one; answered, the command is sent again."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        question = wizard.question  # a missing value's outcome: its key and question
        self.key = (question.key or "") if question else ""
        self.question = (question.question or "") if question else ""

    @property
    def title(self) -> str:
        return _("What {component} prints").format(component=card_title(self.key))

    def card(self) -> Card:
        """The asked value's component on its card: the asked value first, then the others of
        its kind the engine still asks of that component (a Hub's starting GEMs brings its
        other starting values, not its income), with those entered so far."""
        kind, record, field = self.key.split("/")
        family = f"{kind}/{record}/{field.split('_')[0]}"
        same = [(item["key"], item["question"]) for item in
                options(self.wizard.state, self.wizard.catalogue)["missing"]
                if item["key"].startswith(family) and item["key"] != self.key]
        return Card([(self.key, self.question), *same], self.wizard.catalogue,
                    self.wizard.known, self.wizard.still_asked)

    def enter(self, values: Mapping[str, Any]) -> bool:
        """The card's values checked and kept, then the command sent again (False, with the
        message, when one is refused or the engine refuses the command)."""
        question = self.wizard.question
        for key, value in values.items():
            self.wizard.message = self.wizard.check_value(key, value) or ""
            if self.wizard.message:
                return False
            self.wizard.values[key] = value
        return question is not None and self.wizard.submit(question.command)


class Start:
    """Setup is done: the game begins with the start player."""

    def __init__(self, wizard: SetupWizard) -> None:
        self.wizard = wizard
        found = options(wizard.state, wizard.catalogue)
        self.lines = [_("{name} ({color}): Hub {hub}, {gems} GEMs, {food} food, {water} water, "
                        "{metal} metal").format(name=p["name"], color=color_name(p["color"]),
                                                hub=p["hub"], gems=p["gems"], food=p["food"],
                                                water=p["water"], metal=p["metal"])
                      for p in wizard.state["players"]]
        self.lines.append(_("{player} begins.").format(player=found["turn"]["player"]))
        self.lines += wizard.values_known()

    @property
    def title(self) -> str:
        return _("Setup complete")
