"""The one door for commands (GameSession.send) on a real store in a temporary folder: an applied
step is stored; a refusal quotes the rule and stores nothing, and its override is applied; a value
the catalogue lacks gives its key and the question, stores nothing, and its answer is applied; a
failed commit is refused in words, not overridable, the game as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_fixtures import CAT_TURN, replayed

from companion.rules import commands
from companion.rules.commands import CommandError, Outcome
from companion.store import StoreError
from companion.ui.shell.session import GameSession

# Cat's Expedition on turn 30 of the 3-player draft example (as test_flows.py plays it)
EXPEDITION = commands.use_ship("Cat", "Cat:L1-expedition",
                               rolled=["food", "water", "metal", "human", "human", "food"],
                               keep=["food", "metal", "human", "human"],
                               humans=["observe", "observe"])


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The example stored up to Cat's turn 30, as a table would have it."""
    path = tmp_path / "games.sqlite"
    replayed(path, "three-players-draft.jsonl", CAT_TURN)
    return path


def opened(db: Path) -> GameSession:
    session = GameSession(db, db.parent / "overlay.json")
    session.open()
    assert session.problem == "" and session.game is not None
    return session


def stored(session: GameSession) -> tuple[int, dict]:
    """What the store holds (the session closed, the game reopened from the database): its
    number of steps and its state."""
    session.close()
    again = opened(session.db)
    try:
        return len(again.game.game.steps), again.state
    finally:
        again.close()


def test_an_applied_step_is_stored(db: Path) -> None:
    session = opened(db)
    outcome = session.send(EXPEDITION)
    assert outcome.applied and not outcome.missing and outcome.refused is None
    assert outcome.problem == "" and outcome.step is session.game.game.steps[-1]
    state = session.state
    assert stored(session) == (CAT_TURN + 1, state)


def test_a_refusal_quotes_the_rule_stores_nothing_and_its_override_is_applied(db: Path) -> None:
    session = opened(db)
    before = session.state
    outcome = session.send(commands.income("Bob"))
    assert not outcome.applied and not outcome.missing and outcome.overridable
    assert outcome.refused == outcome.problem == "it is Cat's turn, not Bob's"
    assert session.state == before and stored(session) == (CAT_TURN, before)

    session = opened(db)
    assert session.send(EXPEDITION).applied
    refused = session.send(commands.income("Cat"))
    assert refused.problem == "Cat has already taken an action this turn: end the turn first"
    with pytest.raises(CommandError, match="needs a reason"):
        refused.override(" ")
    again = session.send(refused.override("the table agrees: Cat takes income too"))
    assert again.applied and again.command == {**commands.income("Cat"),
                                               "override": "the table agrees: Cat takes income too"}
    steps, state = stored(session)
    assert steps == CAT_TURN + 2
    assert state["notes"][-1]["override"] == "the table agrees: Cat takes income too"


def test_a_missing_value_gives_its_key_and_question_stores_nothing_and_is_answered(
        db: Path) -> None:
    """Bob's Diplomacy bonus at level 3 of the Expedition track, which no line of the example
    gives: the engine asks what it gives; answered, the choice is applied and stored."""
    session = opened(db)
    assert session.send(EXPEDITION).applied
    points = session.state["players"][1]["points"]
    choice = commands.diplomacy_bonus("Bob", [3])
    outcome = session.send(choice)
    assert not outcome.applied and outcome.missing and outcome.refused is None
    assert outcome.key == "diplomacy/level-3/bonus_expedition"
    assert outcome.question == outcome.problem == (
        "What does level 3 of the Expedition Diplomacy track give?")
    with pytest.raises(CommandError):
        outcome.override("not a refusal")
    waiting = session.state
    assert stored(session) == (CAT_TURN + 1, waiting)

    session = opened(db)
    answered = session.send(outcome.answer({"points": 2}))
    assert answered.applied and answered.command["catalogue"] == {
        "diplomacy/level-3/bonus_expedition": {"points": 2}}
    steps, state = stored(session)
    assert steps == CAT_TURN + 2
    assert state["players"][1]["points"] == points + 2 and state["pending"] == []


def test_a_failed_commit_is_said_in_words_and_the_game_is_as_it_was(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = opened(db)
    before = session.state

    def full(*_args: object) -> None:
        raise StoreError("the disk is full")

    monkeypatch.setattr(type(session.store), "_commit", full)
    outcome = session.send(EXPEDITION)
    assert not outcome.applied and not outcome.overridable
    assert outcome.problem == "not saved: the disk is full"
    with pytest.raises(CommandError, match="only a rule's refusal"):
        outcome.override("try again")
    assert session.state == before
    monkeypatch.undo()
    assert session.send(EXPEDITION).applied  # the game goes on from where it was
    assert stored(session)[0] == CAT_TURN + 1


def test_no_game_open_is_a_refusal_that_cannot_be_overridden(tmp_path: Path) -> None:
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    outcome = session.send(commands.end_turn())
    assert outcome.problem == "No game is open." and not outcome.overridable
    session.close()


def test_an_outcome_is_exactly_one_of_the_three_cases() -> None:
    command = commands.end_turn()
    for wrong in ({}, {"step": object(), "refused": "why"}, {"refused": "why", "key": "k",
                                                               "question": "q?"},
                  {"key": "sectors/214/cost"}):
        with pytest.raises(TypeError):
            Outcome(command, **wrong)
    assert Outcome(command, refused="").problem == ""  # refused all the same
    assert not Outcome(command, refused="").applied
