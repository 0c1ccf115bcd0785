"""Driver: the action screen's scenarios (a ship's flow panel by panel, its preview, values
asked on the keypad, the table afterwards), run in the real app under Xvfb by
tests/ui/test_action.py.

    DISPLAY=:99 .venv/bin/python tests/ui/drive_action.py construction-dismantle-transport --demo

prints `DRIVER-RESULT {...}` (what was read on screen) as its last stdout line.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dice_taps import capacity_in, keep_taps
from drive_table import read_table, shot, texts, to_bobs_turn
from harness import DriverError, Robot, Steps, in_view, run


def read_panel(robot: Robot) -> dict:
    """The action screen's question, lines and button texts (the answers and the way on in
    the bar)."""
    screen = robot.app.screens.get_screen("action")
    return {"question": robot.text("action:question"), "lines": robot.text("action:lines"),
            "undo": robot.text("action:undo"),
            "buttons": {w.tag: robot.text(w.tag) for w in answer_widgets(screen)}}


def answer_widgets(screen: Any) -> list[Any]:
    """The action screen's answer buttons (those in a row of counts too) and its way on."""
    from kivy.uix.behaviors import ButtonBehavior

    return [w for w in [*screen.ids.choices.walk(restrict=True),
                        *screen.ids.forward.walk(restrict=True)]
            if getattr(w, "tag", "") and isinstance(w, ButtonBehavior)]


def lit(robot: Robot, prefix: str) -> list[str]:
    """The counts shown chosen (lit) among the action screen's buttons tagged `prefix`..."""
    from companion.ui.kit.widgets import SELECTED

    return [w.tag for w in answer_widgets(robot.app.screens.get_screen("action"))
            if w.tag.startswith(prefix) and tuple(w.bg) == tuple(SELECTED)]


def dim(robot: Robot, tag: str) -> bool:
    """Whether the tagged button is shown dim (not allowed now: a tap says why)."""
    widget = robot.find(tag)
    return widget is not None and widget.opacity < 1


def roll_and_keep(robot: Robot, rolled: Sequence[str], kept: Sequence[str]) -> Steps:
    """The dice panels of an Expedition or a bonus roll: how many dice show each face rolled
    until they are read (the counts make up the dice rolled, or every face but the last is
    tapped: it is the rest), then the faces put back from every die rolled kept (dice_taps:
    the fewest taps, the capacity named in the title reached only by the last), "Keep these"
    where they leave it to tap (a driver error where the panel disagrees); returns the panels
    as read ({"dice": before the last count rolled, "kept": the kept-dice panel as it opens,
    "kept_lit": its counts lit then, "keep_these_dim": whether Keep these was dim then})."""
    dice: dict = {}
    for face, count in Counter(rolled).items():
        if robot.find("action:kept") is not None:
            break  # read: the last face was the rest
        dice = read_panel(robot)
        yield from robot.tap(f"die:{face}:{count}")
        yield from robot.frames(2)
    yield from robot.wait_for(lambda: robot.find("action:kept") is not None, "the dice kept")
    yield from robot.frames(2)
    panels = {"dice": dice, "kept": read_panel(robot), "kept_lit": lit(robot, "keep:"),
              "keep_these_dim": dim(robot, "action:kept")}
    taps, keep_these = keep_taps(Counter(rolled), Counter(kept),
                                 capacity_in(robot.text("action:question")))
    for face, count in taps:
        yield from robot.tap(f"keep:{face}:{count}")
        yield from robot.frames(2)
    if (robot.find("action:kept") is not None) != keep_these:
        raise DriverError(f"after {taps} Keep these was expected {'' if keep_these else 'not '}"
                          f"to be left to tap: {read_panel(robot)}")
    if keep_these:
        yield from robot.tap("action:kept")
    return panels


def page_to(robot: Robot, tag: str) -> Steps:
    """"More…" tapped until the answer tagged `tag` shows (the pages go round)."""
    yield from robot.frames(2)
    while robot.find(tag) is None:
        yield from robot.tap("action:more")
        yield from robot.frames(2)


def values_first(robot: Robot, answers: Mapping[str, str | Sequence[str]] | None = None,
                 ) -> Steps:
    """The values the tiles print that the flow asks at once (each answered with
    `answer_value`), until the flow's panel shows."""
    yield from robot.frames(3)
    while robot.popup() is not None:
        yield from answer_value(robot, answers)
        yield from robot.frames(3)


def count_taps(robot: Robot, turn: str, start: int) -> None:
    """The taps of one turn (from the ship's tap to the table, Next counted as one more) in
    result["turn_taps"], to compare the flows' lengths (issue 27: a turn in 5 taps)."""
    robot.result.setdefault("turn_taps", {})[turn] = robot.taps - start + 1


def shown_whole(robot: Robot, tag: str) -> bool:
    """Whether a tagged label or button shows all its text (none cut off by max_lines or
    shortening), from the lines Kivy laid out."""
    widget = robot.find(tag)
    if widget is None or widget._label is None:
        return False
    laid_out = "".join(word.text for line in widget._label._cached_lines for word in line.words)
    return "".join(robot.text(tag).split()) == "".join(laid_out.split())


def lines_laid(robot: Robot, tag: str) -> int:
    """How many lines Kivy laid the tagged label's text out in (0: not shown)."""
    widget = robot.find(tag)
    return 0 if widget is None or widget._label is None else len(widget._label._cached_lines)


def answer_value(robot: Robot, answers: Mapping[str, str | Sequence[str]] | None = None,
                 ) -> Steps:
    """Answer the value pop-up open now: the first of `answers` whose words its question
    contains - digits typed on the keypad (default "2"), or a value pop-up's buttons tapped by
    their choice's id, the same in every language ("0" for Quarter 1, "done" for Done:
    values_model.choice_id); its question is noted in result["asked"]; OK."""
    from companion.ui.kit.values import ValueCard, ValuePopup

    popup = robot.popup()
    question = popup.question if isinstance(popup, ValuePopup | ValueCard) else popup.title
    robot.result.setdefault("asked", []).append(question)
    answer = next((a for words, a in (answers or {}).items() if words in question), "2")
    if isinstance(popup, ValueCard):
        yield from answer_card(robot, popup, answer)
    elif isinstance(popup, ValuePopup):
        for text in answer:
            yield from robot.tap(f"values:choice:{text}")
    else:
        yield from robot.tap_keys(answer)
        yield from robot.tap("key:ok")
    yield from robot.wait_for(lambda: robot.popup() is not popup, "the next question")


def answer_card(robot: Robot, card: Any, answer: str | Sequence[str]) -> Steps:
    """The value the engine asks on its card (values.ValueCard): a number's button (else its
    keypad), the ability's quarter ("0": the first), or the icons' toggles ("0:food") and
    "done"."""
    slot = card.card.slots[0]
    field = slot.key.split("/")[-1]
    if slot.how == "number":
        yield from tap_number(robot, field, str(answer))
    elif slot.how == "ability":
        yield from robot.tap(f"values:ability:{field}:{answer[0]}")
    else:
        for tap in answer:
            yield from robot.tap("values:done" if tap == "done" else f"values:icon:{tap}")


def tap_number(robot: Robot, name: str, digits: str) -> Steps:
    """A number on a card's row (`name`: the value's field): its button, or its keypad."""
    if robot.find(f"values:{name}:{digits}") is not None:
        yield from robot.tap(f"values:{name}:{digits}")
        return
    yield from robot.tap(f"values:{name}:keypad")
    yield from robot.wait_for(lambda: robot.find("key:ok") is not None, "the keypad")
    yield from robot.tap_keys(digits)
    yield from robot.tap("key:ok")


def confirm(robot: Robot, shots: Path | None, size: tuple[int, int],
            answers: Mapping[str, str | Sequence[str]] | None = None) -> Steps:
    """Confirm; every value the engine asks for is entered (`answer_value`: typed on the
    keypad, "2" unless `answers` says), a refusal is overridden ("AGREED"); then the table or
    a Diplomacy bonus prompt."""
    robot.result.setdefault("asked", [])
    yield from robot.tap("action:confirm")
    while True:
        yield from robot.wait_for(lambda: robot.popup() is not None or robot.find(
            "action:override") is not None or robot.find("action:confirm") is None,
            "keypad, refusal or the next screen")
        keypad = robot.popup()
        if keypad is not None:
            yield from answer_value(robot, answers)
            continue
        if robot.find("action:override") is not None:
            robot.result.setdefault("refused", []).append(read_panel(robot))
            yield from shot(robot, shots, "action-refused", size)
            yield from robot.tap("action:override")
            yield from robot.wait_for(robot.popup, "the reason's keyboard")
            keypad = robot.popup()
            yield from robot.tap_keys("AGREED")
        else:
            return
        yield from robot.tap("key:ok")
        yield from robot.wait_for(lambda shown=keypad: robot.popup() is not shown,
                                  "the next question")


def construction_dismantle_transport(robot: Robot, size: tuple[int, int],
                                     shots: Path | None) -> Steps:
    """Bob looks at Ann's Construction ship (Sector tiles, a dim one's reason, the preview with
    the fee) and goes back; he dismantles with Ann's Dismantle ship (her fee asked on the
    keypad); Cat trades with Bob's Transport ship, which the engine refuses: overridden."""
    yield from to_bobs_turn(robot)
    yield from robot.tap("ship:Ann:L2-construction")
    yield from values_first(robot)  # Ann's fee, printed on her ship: asked at once
    yield from robot.wait_for(lambda: robot.find("sector:101") is not None, "the Sectors")
    robot.result["sectors"] = read_panel(robot)
    robot.result["sectors_in_view"] = needed_in_view(robot)
    yield from shot(robot, shots, "action-construction", size)
    yield from page_to(robot, "sector:201")  # the Sectors that cannot be built come after
    yield from robot.tap("sector:201")
    robot.result["refused_tile"] = yield from robot.read("action:message")
    yield from page_to(robot, "sector:101")
    yield from robot.tap("sector:101")
    yield from values_first(robot)  # what Sector 101 costs: asked before the preview
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    robot.result["construction"] = read_panel(robot)
    yield from shot(robot, shots, "action-preview", size)
    yield from robot.tap("action:back")
    yield from robot.wait_for(lambda: robot.find("sector:101") is not None, "the Sectors")
    yield from robot.tap("action:back-to-table")
    yield from transport_trades(robot, shots, size)
    start = robot.taps
    yield from robot.tap("ship:Ann:L2-dismantle")
    yield from values_first(robot)  # Ann's fee, printed on her ship: asked at once
    robot.result["targets"] = read_panel(robot)
    yield from robot.tap("target:Bob:L1-transport")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    robot.result["dismantle"] = read_panel(robot)
    yield from shot(robot, shots, "action-dismantle", size)
    yield from confirm(robot, shots, size)
    yield from read_table(robot)
    count_taps(robot, "dismantle-with-a-fee-asked", start)
    robot.result["after_dismantle"] = robot.result["table"]
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Cat", "Cat's turn")
    yield from robot.tap("ship:Bob:L2-transport")
    yield from values_first(robot)  # Bob's fee
    robot.result["transport_kinds"] = read_panel(robot)
    teal = robot.all(lambda t: t.startswith("alien:teal"))[0].tag
    yield from robot.tap(teal)
    robot.result["refused"] = yield from robot.read("action:message")
    yield from shot(robot, shots, "action-transport-refused", size)
    yield from robot.tap("action:back-to-table")
    yield from read_table(robot)


def transport_trades(robot: Robot, shots: Path | None, size: tuple[int, int]) -> Steps:
    """Bob's own Transport (its cost asked at once): what kind first (the Aliens, Trade…,
    Buy…), a trade's gain, then what it pays; Buy… opened and closed with Back; the trade
    removed, another made; Done; the preview; Back to the table (nothing done)."""
    start = robot.taps
    yield from robot.tap("ship:Bob:L1-transport")
    yield from values_first(robot)  # its cost, printed on the ship card
    robot.result["transport_kinds"] = read_panel(robot)
    robot.result["transport_in_view"] = needed_in_view(robot)
    yield from shot(robot, shots, "action-transport", size)
    yield from robot.tap("group:buy")
    yield from robot.tap("buy:water")
    yield from robot.tap("action:done")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    count_taps(robot, "transport-one-buy-to-confirm", start - 1)  # Confirm and Next to come
    yield from robot.tap("action:back")  # Done taken back
    yield from robot.tap("remove:0")
    yield from robot.wait_for(lambda: robot.find("remove:0") is None, "the buy removed")
    yield from robot.tap("group:trade")
    yield from robot.tap("trade-for:food")
    robot.result["transport_pay"] = read_panel(robot)
    yield from shot(robot, shots, "action-transport-pay", size)
    yield from robot.tap("trade:metal+metal:food")
    yield from robot.tap("group:buy")
    robot.result["transport_buy"] = read_panel(robot)
    yield from robot.tap("action:back")  # the buying closed again: what kind
    yield from robot.wait_for(lambda: robot.find("group:trade") is not None, "the kinds")
    yield from robot.tap("remove:0")
    yield from robot.wait_for(lambda: robot.find("remove:0") is None, "the trade removed")
    robot.result["transport_removed"] = read_panel(robot)
    yield from robot.tap("group:trade")
    yield from robot.tap("trade-for:water")
    yield from robot.tap("trade:metal+metal:water")
    robot.result["transport"] = read_panel(robot)
    yield from robot.tap("action:done")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    robot.result["transport_preview"] = read_panel(robot)
    yield from robot.tap("action:back-to-table")


def expedition_and_neutral(robot: Robot, size: tuple[int, int], shots: Path | None) -> Steps:
    """Bob's Expedition: how many of the seven dice show each face (a count that makes more
    says why; every face but the Humans tapped, they are the rest and the seven are read);
    all seven kept at first (Keep these dim: it says why), the water, two Humans and the metal
    put back (never landing on the capacity, 5, before the last), Keep these (3 of 5); the
    Human observed without asking, Bob's Diplomacy bonus; then Cat dismantles with the neutral
    Dismantle ship."""
    yield from to_bobs_turn(robot)
    start = robot.taps
    yield from robot.tap("ship:Bob:L3-expedition")
    for face, count in (("food", 2), ("water", 1)):
        yield from robot.tap(f"die:{face}:{count}")
    robot.result["dice"] = read_panel(robot)
    robot.result["needed_in_view"] = needed_in_view(robot)
    robot.result["counts_high"] = min(w.height for w in answer_widgets(
        robot.app.screens.get_screen("action")) if w.tag.startswith("die:"))
    yield from shot(robot, shots, "action-expedition", size)
    yield from robot.tap("die:metal:5")  # 5 more would be 8 dice: dim, it says why
    robot.result["too_many"] = robot.text("action:message")
    yield from robot.tap("die:metal:1")  # the Humans are the rest (3): the 7 dice are read
    yield from robot.wait_for(lambda: robot.find("action:kept") is not None, "the dice kept")
    yield from robot.frames(2)
    robot.result["kept_panel_at_top"] = first_answer_in_view(robot)
    robot.result["kept"] = read_panel(robot)
    robot.result["kept_lit"] = lit(robot, "keep:")
    robot.result["keep_these_dim"] = dim(robot, "action:kept")
    robot.result["kept_lines_laid"] = lines_laid(robot, "action:lines")
    yield from robot.tap("action:kept")  # 7 kept, over the capacity: it says why
    robot.result["over_capacity"] = robot.text("action:message")
    robot.result["needed_in_view"] &= needed_in_view(robot)
    yield from shot(robot, shots, "action-expedition-kept", size)
    # the water, two Humans, the metal put back: 6, 4, 3 kept (5, the capacity, passed over)
    for face, count in (("water", 0), ("human", 1), ("metal", 0)):
        yield from robot.tap(f"keep:{face}:{count}")
        yield from robot.frames(2)
    robot.result["put_back"] = {"lit": lit(robot, "keep:"),
                                "keep_these_dim": dim(robot, "action:kept")}
    yield from robot.tap("action:kept")
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    robot.result["expedition"] = read_panel(robot)
    yield from confirm(robot, shots, size)
    robot.result["prompts"] = yield from choose_bonuses(robot)
    yield from read_table(robot)
    count_taps(robot, "expedition-7-dice", start)
    robot.result["after_expedition"] = robot.result["table"]
    yield from robot.tap("table:next")
    yield from robot.wait_for(lambda: robot.text("table:active") == "Cat", "Cat's turn")
    start = robot.taps
    yield from robot.tap("ship:neutral:dismantle")
    yield from values_first(robot)  # the neutral ship's cost, asked before anything else
    yield from robot.wait_for(lambda: robot.all(lambda t: t.startswith("target:")), "targets")
    robot.result["neutral_targets"] = read_panel(robot)
    yield from shot(robot, shots, "action-neutral", size)
    yield from robot.tap(robot.all(lambda t: t.startswith("target:"))[0].tag)
    yield from values_first(robot)  # the metal the ship dismantled gives
    yield from robot.wait_for(lambda: robot.find("action:confirm") is not None, "the preview")
    robot.result["neutral"] = read_panel(robot)
    yield from confirm(robot, shots, size)
    robot.result["prompts"] += yield from choose_bonuses(robot)
    yield from read_table(robot)
    count_taps(robot, "neutral-dismantle-cost-asked", start)


def needed_in_view(robot: Robot) -> bool:
    """Whether every button of the panel shown, and the bar's, lies inside the window
    without scrolling (nothing a flow needs is below the fold)."""
    from kivy.core.window import Window

    screen = robot.app.screens.get_screen("action")
    widgets = [*answer_widgets(screen), robot.find("action:back-to-table")]
    for widget in widgets:
        if widget is None or not getattr(widget, "tag", ""):
            continue
        x, y = widget.to_window(widget.x, widget.y)
        if y < 0 or y + widget.height > Window.height or x < 0 or x + widget.width > Window.width:
            return False
    return True


def first_answer_in_view(robot: Robot) -> bool:
    """Whether the panel's first button is in view (a new panel starts at the top)."""
    from kivy.uix.scrollview import ScrollView

    choices = robot.app.screens.get_screen("action").ids.choices
    scroll = choices.parent
    while not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    return in_view(choices.children[-1], scroll)


def choose_bonuses(robot: Robot) -> Steps:
    """Every Diplomacy bonus prompt waiting, answered with the first choice shown (a top
    level's pairs come first); what each asked."""
    yield from robot.frames(3)
    prompts = []
    while choices := robot.all(lambda t: t.startswith("bonus:") and t[6:].isdigit()):
        prompts.append({"question": robot.text("action:question"),
                        "choices": texts(robot, "bonus:")})
        yield from robot.tap(min(choices, key=lambda w: int(w.tag[6:])).tag)
        yield from robot.frames(3)
    return prompts


SCENARIOS = {
    "construction-dismantle-transport": construction_dismantle_transport,
    "expedition-and-neutral": expedition_and_neutral,
}

if __name__ == "__main__":
    sys.exit(run(SCENARIOS))
