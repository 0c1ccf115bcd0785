"""Where the table and the phones meet (companion/web/hub.py): every step the table takes is a
new snapshot that live pages wake for, copied so that the table's next step does not change what
a phone reads; a step taken back marks the pages shown before it stale; a phone's answer is
checked for shape before the table sees it; pages are worded per language."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.commands import undo
from companion.ui.shell.session import GameSession
from companion.web.hub import Answer, PhoneHub
from companion.web.links import KEY_BYTES, Links

BOB = 1
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["version", "track", "levels", "x"]), inner,
                                      max_size=4), max_leaves=12)


@pytest.fixture
def demo(tmp_path: Path):
    session = GameSession(tmp_path / "games.sqlite", tmp_path / "overlay.json")
    session.open_demo()
    yield session
    session.close()


def following(session: GameSession, answers: list[Answer] | None = None) -> PhoneHub:
    def run(answer: Answer) -> tuple[bool, str]:
        answers.append(answer)
        return True, "taken"

    hub = PhoneHub(Links(b"x" * KEY_BYTES), run if answers is not None else None)
    hub.follow(session.game, session.options())
    return hub


def test_each_step_is_a_new_version_and_wakes_a_waiting_page(demo):
    hub = following(demo)
    first = hub.snapshot.version
    assert hub.wait(first, timeout=0.01) == first  # nothing new: the wait times out
    woke: list[int] = []
    waiter = threading.Thread(target=lambda: woke.append(hub.wait(first, timeout=30)))
    waiter.start()
    assert demo.send(demo_bonus()).applied
    hub.follow(demo.game, demo.options())
    waiter.join(timeout=30)
    assert woke == [first + 1]


def demo_bonus():
    from companion.rules.commands import diplomacy_bonus

    return diplomacy_bonus("Bob", [1])


def test_a_snapshot_is_a_copy_the_next_step_does_not_change(demo):
    hub = following(demo)
    shown = hub.snapshot
    gems = shown.state["players"][BOB]["gems"]
    assert demo.send(demo_bonus()).applied
    assert demo.state["players"][BOB]["gems"] == gems + 2
    assert shown.state["players"][BOB]["gems"] == gems
    assert hub.page(BOB, "en")["question"] is not None  # the page of the version shown


def test_a_step_taken_back_makes_the_pages_shown_before_it_stale(demo):
    hub = following(demo)
    before = hub.snapshot.version
    assert demo.send(demo_bonus()).applied
    hub.follow(demo.game, demo.options())
    assert not hub.rewound_since(before)  # a step forward: still the same line of play
    assert demo.send(undo()).applied
    hub.follow(demo.game, demo.options())
    assert hub.rewound_since(before)
    assert not hub.rewound_since(hub.snapshot.version)
    assert hub.rewound_since(10_000)  # a version never shown: cannot be trusted


def test_the_tokens_are_the_open_games_and_new_links_refuse_the_old(demo):
    hub = following(demo)
    tokens = hub.tokens()
    assert len(tokens) == 3
    assert [hub.seat(t) for t in tokens] == [0, 1, 2]
    hub.renew_links()
    assert [hub.seat(t) for t in tokens] == [None, None, None]
    assert hub.seat(hub.tokens()[2]) == 2


def test_pages_are_kept_per_version_and_language(demo):
    hub = following(demo)
    english, german = hub.page(BOB, "en"), hub.page(BOB, "de")
    assert hub.page(BOB, "en") is english
    assert german["words"]["station"] == "Deine Station"
    assert english["words"]["station"] == "Your station"


def test_an_answer_of_the_pages_shape_reaches_the_table(demo):
    answers: list[Answer] = []
    hub = following(demo, answers)
    assert hub.answer(BOB, {"version": 1, "track": "transport", "levels": [1]}) == (True, "taken")
    assert answers == [Answer(BOB, 1, "transport", [1])]


def test_without_the_table_an_answer_is_refused_in_words(demo):
    hub = following(demo)
    applied, words = hub.answer(BOB, {"version": 1, "track": "transport", "levels": [1]})
    assert not applied and "not taking answers" in words


@given(JSON)
def test_anything_else_sent_as_an_answer_is_refused_before_the_table_sees_it(body):
    answers: list[Answer] = []
    hub = PhoneHub(Links(b"y" * KEY_BYTES), lambda a: (answers.append(a), (True, ""))[1])
    applied, words = hub.answer(0, body)
    well_formed = (isinstance(body, dict) and type(body.get("version")) is int
                   and isinstance(body.get("track"), str) and isinstance(body.get("levels"), list)
                   and 1 <= len(body["levels"]) <= 2
                   and all(type(n) is int for n in body["levels"]))
    assert applied == well_formed
    assert bool(answers) == well_formed
    if not well_formed:
        assert words == "The answer is not one the page sends."
