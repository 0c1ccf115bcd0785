"""The Expedition's dice read by the camera, in the real app under Xvfb
(tests/ui/drive_dice_camera.py): the camera is a folder of recorded frames named in the config
file's `[camera] source`, as a player would set it; the reading is taken once the dice have
settled with as many dice as were rolled, corrected by taps on the picture, and used."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_recruit_expedition import CAT_TURN, SHOTS, replayed

# a real photo of six pip dice, 1 1 2 2 5 6 (d6-tray, BSD-3, Nell Byler: tests/vision/fixtures)
PHOTO = Path(__file__).resolve().parents[1] / "vision" / "fixtures" / "IMG_20191209_100641.jpg"
FRAMES = 40  # recorded frames: the same settled dice, long enough to settle at any speed


def test_the_camera_reads_the_expedition_dice_and_taps_correct_them(run_ui_driver,
                                                                     tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", CAT_TURN)
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(FRAMES):
        shutil.copyfile(PHOTO, frames / f"frame-{n:03d}.jpg")
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "{frames}"\nsettle = 0.3\n')
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
    assert sorted(kept["lines"].removeprefix("Rolled: ").split(", ")) == [
        "food", "food", "food", "food", "food", "metal"]
    assert kept["buttons"]["keep:food"] == "keep food: 0 of 5"
    assert result["camera_shown"] is False
