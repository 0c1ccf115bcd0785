"""The players' phones, as the table app runs them (companion.web): the server started once a
network is up (looked for every NETWORK_CHECK seconds), the game published to the phones after
every step and every game opened (copied here, on the table's thread), a phone's Diplomacy
bonus answer run on the table's thread through the session's one door and shown on the table,
and the links each player scans (the table's Phones button)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from kivy.clock import Clock

from companion import paths
from companion.config import PhonesConfig
from companion.i18n import _
from companion.rules import commands
from companion.web.hub import Answer, PhoneHub
from companion.web.links import Links
from companion.web.network import local_address, page_link

log = logging.getLogger(__name__)

NETWORK_CHECK = 10.0  # seconds between looks for a network while none is up
PORTS_TRIED = 10  # the port set, else the next ones: another program may hold it
ANSWER_WAIT = 5.0  # seconds a phone's answer waits for the table's thread


class PhonesBridge:
    """The phone server of the running app (`app`: its session, screens and status strip)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.config = PhonesConfig(on=False)
        self.hub: PhoneHub | None = None
        self.server: Any = None  # companion.web.server.PhoneServer while serving
        self.address = ""  # what the links name ("" while not serving)
        self.problem = ""  # what went wrong, for the status strip ("" when nothing did)
        self.note = ""  # why the phones cannot join now, for Settings ("" while serving)
        self._looking: Any = None  # the Clock event looking for a network
        app.session.watch(self.publish)

    # --- on and off --------------------------------------------------------------------------

    def apply(self, config: PhonesConfig) -> None:
        """Serve the phones as `config` says, at once (a changed port or address restarts)."""
        if config == self.config and (self.server is not None or not config.on):
            return
        self.close()
        self.config, self.problem = config, ""
        self.note = "" if config.on else _("Phones cannot join: they are off.")
        if config.on:
            self._start()

    def _start(self, *_args: Any) -> None:
        from companion.web.server import PhoneServer  # (its threads start only when serving)

        address = self.config.address if self.config.address != "auto" else local_address()
        if address is None:  # not a problem: the table plays on, the phones join later
            self.note = _("Phones: no network yet; they can join once there is one.")
            self._look_again()
            return
        try:
            self.server = self._serve(PhoneServer)
        except OSError as error:
            self.problem = self.note = _("Phones cannot join: {error}").format(error=error)
            log.warning("phone server not started: %s", error)
            self._look_again()
            return
        self.address, self.problem, self.note = address, "", ""
        self._stop_looking()
        self.publish()
        log.info("phone pages served at %s", self.base_link())
        self.app.show_problems()

    def _serve(self, server: Any) -> Any:
        """The server started on the port set, else on the first of the next ones free; the
        last port's OSError when none is (or when the links' secret cannot be kept)."""
        first = self.config.port
        for port in range(first, min(first + PORTS_TRIED, 65536)):
            try:
                return server(self._hub(), port=port).start()
            except OSError as error:
                failure = error
        raise failure

    def _look_again(self) -> None:
        if self._looking is None:
            self._looking = Clock.schedule_interval(self._retry, NETWORK_CHECK)
        self.app.show_problems()

    def _retry(self, *_args: Any) -> None:
        if self.server is None and self.config.on:
            self._start()

    def _stop_looking(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            self._looking = None

    def close(self) -> None:
        """Stop serving: every phone's page says the connection is lost."""
        self._stop_looking()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.address = ""

    def _hub(self) -> PhoneHub:
        """The hub, made once: the links' secret kept beside the game store."""
        if self.hub is None:
            store = self.app.session.store
            folder = store.path.parent if store is not None else paths.data_folder()
            self.hub = PhoneHub(Links.open(folder), self.run_answer)
        return self.hub

    # --- what the phones show --------------------------------------------------------------

    @property
    def serving(self) -> bool:
        return self.server is not None

    def base_link(self) -> str:
        """The server's address for a person to type ("http://192.168.1.20:8080")."""
        return f"http://{self.address}:{self.server.port}" if self.server is not None else ""

    def links(self) -> list[tuple[str, str, str]]:
        """Each player of the open game: (name, colour, link of their page)."""
        if self.hub is None or self.server is None:
            return []
        shown = self.hub.snapshot
        return [(p["name"], p["color"], page_link(self.address, self.server.port, token))
                for p, token in zip(shown.players, self.hub.tokens())]

    def renew_links(self) -> str:
        """New links for every player: the pages open now are told theirs has ended; "" when
        done, else why not (the data folder cannot keep the new secret)."""
        try:
            self._hub().renew_links()
        except OSError as error:
            return _("No new links: {error}").format(error=error)
        return ""

    def publish(self) -> None:
        """The game as it is now, to every phone (on the table's thread, after every step)."""
        if self.hub is None or self.server is None:
            return
        session = self.app.session
        game = session.game
        playing = game is not None and game.state["phase"] in ("play", "over")
        self.hub.follow(game, session.options() if playing else None)

    # --- what the phones answer ------------------------------------------------------------

    def run_answer(self, answer: Answer) -> tuple[bool, str]:
        """A phone's answer (a server thread): run on the table's thread, its outcome in words
        once done (or that the table did not get to it in time)."""
        done = threading.Event()
        taken = threading.Lock()  # held by whichever comes first: the table, or the time-out
        outcome: list[tuple[bool, str]] = []

        def on_the_table(_dt: float) -> None:
            if not taken.acquire(blocking=False):
                return  # too late: the phone was told to try again, nothing is done
            try:
                outcome.append(self.answer_here(answer))
            finally:
                done.set()

        Clock.schedule_once(on_the_table, 0)
        if not done.wait(ANSWER_WAIT) and taken.acquire(blocking=False):
            return False, _("The table did not take the answer in time: try again.")
        done.wait()  # begun on the table just in time: its outcome is the phone's
        return outcome[0]

    def answer_here(self, answer: Answer) -> tuple[bool, str]:
        """A phone's Diplomacy bonus choice, on the table's thread: refused in words when it is
        stale (answered already, taken back, not on offer now, not this player's), else sent
        through the session's door and shown on the table."""
        from companion.web.page import choice_label, offered

        session, hub = self.app.session, self.hub
        assert hub is not None
        if session.game is None or session.game.id != hub.snapshot.game \
                or session.state["phase"] != "play":
            return False, _("That game is not being played on the table now.")
        if hub.rewound_since(answer.version):
            return False, _("The table took steps back since this question was shown: look "
                            "at the question as it is now.")
        player = session.state["players"][answer.seat]["name"]
        pick, refusal = offered(session.options(), player, answer.track, answer.levels)
        if pick is None:
            return False, refusal
        outcome = session.send(commands.diplomacy_bonus(player, answer.levels))
        if not outcome.applied:
            return False, outcome.problem
        chosen = choice_label(pick)
        self.app.answered_elsewhere(_("{player} chose on their phone: {choice}").format(
            player=player, choice=chosen))
        return True, _("Done: {choice}.").format(choice=chosen)
