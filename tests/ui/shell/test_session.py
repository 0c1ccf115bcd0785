"""The app's connection to the game store (companion/ui/session.py) without a window."""

from __future__ import annotations

from pathlib import Path

from companion import i18n
from companion.rules.commands import redo, undo
from companion.rules.game import Game, Step
from companion.rules.message import event_text
from companion.ui.settings.catalogue_model import CatalogueBrowser
from companion.ui.shell.routes import relaunch_screen
from companion.ui.shell.session import GameSession


def test_commands_are_committed_and_the_screen_is_kept(tmp_path: Path) -> None:
    db, overlay = tmp_path / "games.sqlite", tmp_path / "overlay.json"
    session = GameSession(db, overlay)
    session.open_demo()
    assert session.waiting()
    assert session.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [0]}).problem == ""
    assert "has already" in session.send({"cmd": "income", "player": "Cat"}).problem
    session.remember_screen("table")
    state = session.state
    session.close()
    again = GameSession(db, overlay)
    again.open()
    assert again.state == state and again.saved_screen() == "table"
    assert not overlay.exists()  # example values never reach the user's overlay
    again.close()


def test_a_store_problem_is_a_message(tmp_path: Path) -> None:
    session = GameSession(tmp_path, tmp_path / "overlay.json")  # a folder, not a database
    session.open()
    assert session.problem.startswith("The game store could not be opened:")
    assert session.game is None and session.send({"cmd": "end_turn"}).problem == "No game is open."
    assert session.new_game() != ""


def test_the_demo_in_a_temporary_database_is_removed(tmp_path: Path) -> None:
    session = GameSession(None, tmp_path / "overlay.json")
    session.open_demo()
    db = session.db
    assert db.exists() and session.is_demo
    session.close()
    assert not db.exists()


def test_options_are_computed_once_per_position(tmp_path: Path) -> None:
    """The same dict while nothing happens; new ones after a step and after its undo."""
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    first = session.options()
    assert session.options() is first
    assert session.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [0]}).problem == ""
    after = session.options()
    assert after is not first and not after["pending"]
    assert session.send({"cmd": "undo"}).problem == ""
    assert session.options()["pending"] == first["pending"]
    session.close()


def test_a_relaunch_never_brings_back_a_screen_whose_state_is_gone() -> None:
    """Home and the calculator come back as they were; a game's screen follows its phase:
    what the action, income and station screens held unconfirmed is gone, the table stays."""
    assert relaunch_screen("home", "play") == "home"
    assert relaunch_screen("calculator", None) == "calculator"
    assert relaunch_screen(None, None) == relaunch_screen("table", None) == "home"
    for saved in ("table", "action", "income", "station", None):
        assert relaunch_screen(saved, "play") == "table"
    assert relaunch_screen("setup", "new") == relaunch_screen("setup", "setup") == "setup"
    assert relaunch_screen("end", "over") == "end"


def test_the_screen_is_kept_with_its_game_until_another_is_shown(tmp_path: Path) -> None:
    """screen.json keeps the screen and its game (a finished game is reopened from it: the
    end-screen kill in test_game.py); home shown later replaces it."""
    db, overlay = tmp_path / "games.sqlite", tmp_path / "overlay.json"
    session = GameSession(db, overlay)
    session.open_demo()
    game_id = session.game.id
    session.remember_screen("end")
    session.close()
    again = GameSession(db, overlay)
    again.open()  # the demo is unfinished: it is resumed either way
    assert again.game.id == game_id and again.saved_screen() == "end"
    again.remember_screen("home")
    again.remember_screen("home")  # unchanged: not written again
    again.close()
    third = GameSession(db, overlay)
    third.open()
    assert third.saved_screen() == "home"
    third.close()


def test_a_catalogue_correction_reaches_the_open_game_and_its_options(tmp_path: Path) -> None:
    """Sector 101's cost entered on the catalogue screen mid-game: the table's options no longer
    ask for it (the cached ones did), and the game plays with it."""
    overlay = tmp_path / "overlay.json"
    session = GameSession(tmp_path / "games.sqlite", overlay)
    session.open_demo()
    asked = [m["key"] for m in session.options()["missing"]]
    assert "sectors/101/cost" in asked
    assert CatalogueBrowser(overlay).correct("sectors/101/cost", 5)
    session.catalogue_changed()
    now = [m["key"] for m in session.options()["missing"]]
    assert now == [key for key in asked if key != "sectors/101/cost"]
    assert session.game.catalogue.field("sectors", 101, "cost").value == 5
    session.close()


def test_the_open_game_reads_in_the_language_spoken_now(tmp_path: Path, monkeypatch) -> None:
    """A game played in English reads German once German is chosen, with nothing replayed (its
    events carry messages, worded as they are shown), and when it is opened in German; its
    options are worded afresh; English again once English is chosen."""
    db, overlay = tmp_path / "games.sqlite", tmp_path / "overlay.json"
    session = GameSession(db, overlay)
    session.open_demo(steps=20)
    english = [event_text(e) for e in session.game.game.steps[-1].events]
    options = session.options()
    try:
        i18n.set_language("de")
        with monkeypatch.context() as patched:
            patched.setattr(Game, "perform", None)  # a change of language replays nothing
            german = [event_text(e) for e in session.game.game.steps[-1].events]
            assert german != english and session.options() is not options
        assert session.send(undo()).problem == "" and session.send(redo()).problem == ""
        assert [event_text(e) for e in session.game.game.steps[-1].events] == german
        session.close()
        again = GameSession(db, overlay)
        again.open()
        assert [event_text(e) for e in again.game.game.steps[-1].events] == german
        i18n.set_language("en")
        assert [event_text(e) for e in again.game.game.steps[-1].events] == english
        again.close()
    finally:
        i18n.set_language("en")


def test_undo_and_redo_steps_are_named_and_watchers_told(tmp_path: Path) -> None:
    """The session says which step Undo takes back and which Redo applies again (kept until a
    new step), and tells its watchers after every command applied and every game opened, not
    after a refusal."""
    from companion.ui.kit.undo_redo_model import redo_text, undo_text

    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    told: list[tuple[str, str]] = []

    def events(step: Step | None) -> list | None:
        return step.events if step is not None else None

    session.watch(lambda: told.append((undo_text(events(session.step_to_undo())),
                                       redo_text(events(session.step_to_redo())))))
    session.open_demo()
    assert session.step_to_redo() is None and len(told) == 2  # the store opened, the demo set up
    assert session.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [1]}).problem == ""
    bonus = told[-1][0]
    assert bonus == "Undo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert session.send(undo()).problem == ""
    assert told[-1][1] == "Redo: Bob takes 2 GEMs (Transport Diplomacy, level 1)"
    assert session.send({"cmd": "end_turn"}).problem != ""  # refused: nobody told
    assert len(told) == 4
    assert session.send(redo()).problem == ""
    assert told[-1] == (bonus, "") and session.step_to_redo() is None
    assert session.send(undo()).problem == ""
    assert session.send({"cmd": "diplomacy_bonus", "player": "Bob", "levels": [0]}).problem == ""
    assert session.step_to_redo() is None  # a new step: nothing to redo any more
    session.close()
