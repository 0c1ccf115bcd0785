"""The Expedition's dice read by the camera, in the real app under Xvfb
(tests/ui/drive_dice_camera.py): the camera is a folder of recorded frames named in the config
file's `[camera] source`, as a player would set it; the reading is taken once the dice have
settled with as many dice as were rolled, corrected by taps on the picture, and used."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ui_fixtures import CAT_TURN, SHOTS, replayed

# a real photo of six pip dice, 1 1 2 2 5 6 (d6-tray, BSD-3, Nell Byler: tests/vision/fixtures)
PHOTO = Path(__file__).resolve().parents[2] / "vision" / "fixtures" / "IMG_20191209_100641.jpg"
FRAMES = 40  # recorded frames: the same settled dice, long enough to settle at any speed
LONG_FRAMES = 400  # frames for a camera unplugged and plugged in (15 a second: 26 s at least)
WAIT = "60"  # the drivers' longest wait for the screen, seconds: room for a loaded machine
# the line under a picture from the camera: its dice not read yet (the tray not still for the
# settle time), read, or read and taken
PICTURE = ("Camera: the dice are read once they lie still", "Camera sees 6 of the 6 dice",
           "Read: 6 of the 6 dice")


def test_the_camera_reads_the_expedition_dice_and_taps_correct_them(run_ui_driver,
                                                                     tmp_path: Path) -> None:
    db, config = camera_game(tmp_path, FRAMES, settle=0.3)
    result = run_ui_driver("drive_dice_camera.py", "read", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config)))
    taken = result["taken"]
    # the standard face map: 1-2 food, 3-4 water, 5 metal, 6 Human
    assert taken["faces"] == ["food", "food", "food", "food", "human", "metal"]
    assert taken["line"].startswith("Read: 6 of the 6 dice")
    assert taken["panel"]["buttons"]["action:camera-dice"] == "These 6 dice (camera)"
    assert taken["panel"]["question"] == "Cat uses Terran Expedition L1: Roll 6 · keep 4"
    # a tap on the Human die: after the last face, it is taken away (not a die)
    assert result["tapped_human"]["faces"] == ["food", "food", "food", "food", "metal"]
    assert result["tapped_human"]["line"].startswith("Read: 5 of the 6 dice")
    # a tap where no die is adds one, food first
    assert result["added"]["faces"] == ["food", "food", "food", "food", "food", "metal"]
    assert result["added"]["button"] == "These 6 dice (camera)"
    kept = result["kept"]
    assert kept["lines"] == "Rolled: food ×5, metal ×1 · tap what is put back"
    # kept by count: 0 to the 5 food rolled (more than the capacity, 4), 0 or 1 metal; all 6
    # kept at first, over the capacity: Keep these dim
    assert [t for t in kept["buttons"] if t.startswith("keep:")] == [
        *(f"keep:food:{n}" for n in range(6)), "keep:metal:0", "keep:metal:1"]
    assert result["kept_lit"] == ["keep:food:5", "keep:metal:1"]
    assert result["keep_these_dim"] is True
    assert result["camera_shown"] is False
    assert result["answers_left"] < 0.25  # the picture's room given back to the answers


def test_the_camera_reads_the_dice_in_german(run_ui_driver, tmp_path: Path) -> None:
    """The same reading with `[display] language = "de"`: the line, the answer and the faces
    (on the picture too) in German."""
    db, config = camera_game(tmp_path, FRAMES, settle=0.3)
    config.write_text(config.read_text() + '[display]\nlanguage = "de"\n')
    result = run_ui_driver("drive_dice_camera.py", "read", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config)))
    taken = result["taken"]
    assert taken["faces"] == ["food", "food", "food", "food", "human", "metal"]
    assert taken["line"].startswith("Gelesen: 6 von 6 Würfeln")
    assert taken["panel"]["buttons"]["action:camera-dice"] == "Diese 6 Würfel (Kamera)"
    assert result["kept"]["lines"] == "Gewürfelt: Pflanzen ×5, Metall ×1 · tippe, was zurück soll"
    assert any(name.endswith("action-dice-camera-de-800x480.png")
               for name in result["screenshots"])


def camera_game(tmp_path: Path, frames: int, settle: float) -> tuple[Path, Path]:
    """The game at Cat's turn, and a config whose camera is a folder of `frames` recorded
    frames (hard links to one copy of the photo) read with this settle time."""
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", CAT_TURN)
    folder = tmp_path / "frames"
    folder.mkdir()
    first = folder / "frame-000.jpg"
    shutil.copyfile(PHOTO, first)  # the others link to this copy (the same file system)
    for n in range(1, frames):
        os.link(first, folder / f"frame-{n:03d}.jpg")
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "{folder}"\nsettle = {settle}\n')
    return db, config


def test_an_unplugged_camera_is_reported_and_the_faces_are_tapped_until_it_is_back(
        run_ui_driver, tmp_path: Path) -> None:
    # a long settle: the picture stays live (its dice not read yet, or read but not taken),
    # so fresh pictures show once the camera is back
    db, config = camera_game(tmp_path, LONG_FRAMES, settle=10)
    result = run_ui_driver("drive_dice_camera.py", "lost", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config), "--timeout", WAIT))
    seen = result["seen"]
    assert seen["problem"] is None and seen["strip"] == "" and seen["shown"] is True
    assert seen["line"].startswith(PICTURE)
    # unplugged: the strip and the line under the picture say why, the picture stays
    lost = result["lost"]
    assert lost["problem"].endswith("; retrying")
    assert str(tmp_path / "frames") in lost["problem"]
    assert lost["strip"] == f"Dice camera: {lost['problem']}"
    assert lost["line"] == f"Camera: {lost['problem']}. Tap the faces in instead."
    assert lost["shown"] is True
    # the face buttons are the way in meanwhile
    fallback = result["fallback"]
    assert fallback["food"] == ["die:food:1"]
    assert fallback["line"].startswith("Camera: ") and fallback["strip"].startswith(
        "Dice camera: ")
    # plugged in again: the problem is gone, the camera sees the dice again; the tap stays
    back = result["back"]
    assert back["problem"] is None and back["strip"] == "" and back["shown"] is True
    assert back["line"].startswith(PICTURE)
    assert back["food"] == ["die:food:1"]
    assert (tmp_path / "frames").is_dir()


def test_the_panel_dice_button_holds_the_picture_then_takes_its_dice(run_ui_driver,
                                                                      tmp_path: Path) -> None:
    # a long settle: the picture is neither read nor taken by itself before the button
    db, config = camera_game(tmp_path, FRAMES, settle=10)
    result = run_ui_driver("drive_dice_camera.py", "panel", shots=SHOTS,
                           args=("--db", str(db), "--config", str(config), "--timeout", WAIT))
    live = result["live"]
    assert live["taken"] is False
    assert live["line"] == "Camera: the dice are read once they lie still, or tap the picture."
    # the first press holds the picture and reads its dice: their reading is an answer
    held = result["held"]
    assert held["taken"] is True and held["message"] == ""
    assert held["line"].startswith("Read: 6 of the 6 dice")
    assert held["faces"] == ["food", "food", "food", "food", "human", "metal"]
    assert held["panel"]["buttons"]["action:camera-dice"] == "These 6 dice (camera)"
    assert held["panel"]["buttons"]["action:camera-again"] == "Read again"
    # the second press takes the camera's six dice: the kept-dice panel
    kept = result["kept"]
    assert result["message"] == ""
    assert kept["question"] == ("Cat uses Terran Expedition L1: Roll 6 · keep 4 · "
                                "which dice are kept?")
    assert kept["lines"] == "Rolled: food ×4, metal ×1, human ×1 · tap what is put back"
    assert [t for t in kept["buttons"] if t.startswith("keep:food:")] == [
        f"keep:food:{n}" for n in range(5)]
    assert [t for t in kept["buttons"] if t.startswith("keep:human:")] == [
        "keep:human:0", "keep:human:1"]
    assert result["kept_lit"] == ["keep:food:4", "keep:metal:1", "keep:human:1"]
    assert result["keep_these_dim"] is True
    assert result["camera_shown"] is False
