"""The camera view's model (companion/ui/dice_camera_model.py): the dice read, corrected by
taps, as the flow's dice reading; the line and the button beside the picture."""

from __future__ import annotations

from companion.ui.kit.dice_camera_model import CameraDice, SeenDie, camera_line
from companion.ui.play.action_model import camera_button

FACES = ("food", "water", "metal", "human")


class Rolled:
    """The part of a flow's Dice the view reads: how many dice were rolled."""

    dice = 3


def seen() -> CameraDice:
    return CameraDice([SeenDie("food", (0, 0, 10, 10), 0.99, 1),
                       SeenDie("metal", (20, 0, 30, 10), 0.5, 5)], FACES)


def test_a_tap_on_a_die_shows_its_next_face_set_by_the_player() -> None:
    dice = seen()
    assert dice.tap(5, 5) == "die 1: water"
    assert dice.faces == ["water", "metal"]
    assert dice.dice[0].certainty == 1.0 and dice.dice[0].value is None  # a player set it


def test_after_the_last_face_a_tap_takes_the_die_away() -> None:
    dice = seen()
    assert dice.tap(25, 5) == "die 2: human"
    assert dice.tap(25, 5) == "die 2 taken away (not a die)"
    assert dice.faces == ["food"]


def test_a_tap_where_no_die_is_adds_one_the_size_of_the_others() -> None:
    dice = seen()
    assert dice.tap(100, 50) == "die 3 added: food"
    assert dice.faces == ["food", "metal", "food"]
    assert dice.dice[2].box == (95, 45, 105, 55) and dice.dice[2].certainty == 1.0


def test_unsure_dice_are_counted_and_said() -> None:
    dice = seen()
    assert dice.unsure == 1 and dice.certainty == [0.99, 0.5]
    assert camera_line(3, dice, True, None) == (
        "Read: 2 of the 3 dice, 1 to check (yellow). Tap a die to change it, or a missed one "
        "to add it.")
    assert camera_line(3, dice, False, None).startswith("Camera sees 2 of the 3 dice")


def test_a_camera_problem_sends_the_player_to_the_face_buttons() -> None:
    assert camera_line(3, None, False, "camera lost: unplugged; retrying") == (
        "Camera: camera lost: unplugged; retrying. Tap the faces in instead.")
    assert camera_line(3, None, False, None) == "Camera: waiting for a picture…"


def test_a_live_picture_says_when_its_dice_are_read() -> None:
    """The dice are read once they lie still; a picture held before that is read then."""
    assert camera_line(3, None, False, None, shown=True) == (
        "Camera: the dice are read once they lie still, or tap the picture.")
    assert camera_line(3, None, True, None, shown=True) == "Camera: reading the dice…"
    assert camera_line(3, None, True, "camera lost: unplugged; retrying", shown=True) == (
        "Camera: camera lost: unplugged; retrying. Tap the faces in instead.")


def test_a_preview_says_how_many_dice_it_sees() -> None:
    assert camera_line(None, seen(), False, None) == "Camera sees 2 dice, 1 to check (yellow)."


def test_the_camera_answer_needs_as_many_dice_as_were_rolled() -> None:
    dice = seen()
    button = camera_button(Rolled(), dice)
    assert (button.label, button.allowed) == ("These 2 dice (camera)", False)
    assert "2 of the 3 dice rolled" in button.reason
    dice.tap(100, 50)
    assert camera_button(Rolled(), dice).allowed


def test_calibrating_pip_dice_a_tap_cycles_the_values_with_their_faces() -> None:
    face_map = {1: "food", 2: "food", 3: "water", 4: "water", 5: "metal", 6: "human"}
    dice = CameraDice([SeenDie("food", (0, 0, 10, 10), 0.99, 1)], FACES, face_map)
    assert dice.tap(5, 5) == "die 1: 2 food"
    assert dice.tap(5, 5) == "die 1: 3 water"
    assert (dice.dice[0].value, dice.faces) == (3, ["water"])
    assert dice.tap(50, 50) == "die 2 added: 1 food"
    for _ in range(3):
        dice.tap(5, 5)
    assert dice.tap(5, 5) == "die 1 taken away (not a die)"
