"""The settings screen in the real app under Xvfb (tests/ui/drive_settings.py): changed by
touch, saved, and read back after a restart on the same data and config folders; an unusable
config file replaced only when the player says Yes; settings left in the data folder moved to
the config folder. Screenshots go to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

from companion.config import load_config

SCRIPT = "drive_settings.py"
FACE_MAP = {1: "food", 2: "food", 3: "water", 4: "water", 5: "metal", 6: "human"}  # standard
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")


FIXTURES = Path(__file__).resolve().parents[2] / "vision" / "fixtures"
STILL_PHOTO = "IMG_20191209_100641.jpg"  # six pip dice: 1 1 2 2 5 6 (d6-tray, BSD-3)


def still_camera(folder: Path) -> Path:
    """A camera looking at a still tray: a folder with one real photo of six dice, played
    again and again (the dice are read once the picture has been still for the settle
    time)."""
    folder.mkdir()
    shutil.copy(FIXTURES / STILL_PHOTO, folder)
    return folder


def user_folders(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A data folder, the config file in a config folder beside it, and the driver's
    environment that names the two folders."""
    data, config = tmp_path / "data", tmp_path / "config"
    return data, config / "config.toml", {"PHOENIX_COMPANION_HOME": str(data),
                                          "PHOENIX_COMPANION_CONFIG": str(config)}


def test_settings_changed_by_touch_survive_a_restart(run_ui_driver, tmp_path: Path) -> None:
    data, settings, folders = user_folders(tmp_path)
    env = {**folders, "GPIOZERO_PIN_FACTORY": "mock"}
    result = run_ui_driver(SCRIPT, "change", shots=SHOTS, extra_env=env)
    before, after = result["before"], result["after"]
    assert before["kind"] == ["none"] and before["display"] == ["window"]
    assert before["size"] == ["800x480"] and before["pins"] == {}
    assert before["paths"] == {"data": f"Data folder: {data}",
                               "database": f"Games: {data / 'games.sqlite'}",
                               "config": f"Settings: {settings}",
                               "overlay": "Values entered from your copy: "
                               f"{data / 'catalogue-overlay.json'}"}
    assert result["refused"] == \
        "Long press time: must be a number of seconds from 0.05 to 60, got 0.03"
    assert after["kind"] == ["gpio"] and after["display"] == ["fullscreen"]
    assert after["pins"] == {"next_turn": "Next turn: GPIO17", "undo": "Undo: GPIO24",
                             "confirm": "Confirm: GPIO22", "read_dice": "Read dice: GPIO23"}
    assert after["hold"] == "Long press of Next = Undo: 1 s"
    assert after["message"] == f"Saved in {settings}."
    # the GPIO panel reconnected at once, on gpiozero's mock pins (which have no PWM for LEDs)
    assert before["status"] == "" and "the buttons work" in after["status"]
    ratio, text = result["legibility"]["contrast"]
    assert ratio >= 4.5, text
    height, text = result["legibility"]["target"]
    assert height >= 48, text
    saved = tomllib.loads(settings.read_text(encoding="utf-8"))
    assert saved == {"panel": {"kind": "gpio", "gpio": {"undo": 24}},
                     "display": {"fullscreen": True}}

    again = run_ui_driver(SCRIPT, "reopened", extra_env=env)["settings"]
    assert {key: again[key] for key in ("kind", "display", "size", "pins", "hold")} == \
        {key: after[key] for key in ("kind", "display", "size", "pins", "hold")}
    assert again["problems"] == "" and again["status"] == after["status"]


def test_an_unusable_config_file_is_replaced_only_when_the_player_says_yes(
        run_ui_driver, tmp_path: Path) -> None:
    _data, settings, env = user_folders(tmp_path)
    settings.parent.mkdir()
    bad = '[panel]\nkind = "usb"\n'
    settings.write_text(bad, encoding="utf-8")
    result = run_ui_driver(SCRIPT, "bad-file", extra_env=env)
    before = result["before"]
    assert 'panel.kind: must be "gpio" | "serial" | "none", got \'usb\'' in before["problems"]
    assert before["kind"] == ["none"] and before["status"]
    question, after_no, _, after_yes = result["answers"]
    assert "config.toml.bad" in question
    assert after_no["display"] == ["window"]
    assert after_no["message"] == "Not saved: config.toml was left as it was."
    assert after_yes["display"] == ["fullscreen"] and after_yes["problems"] == ""
    assert after_yes["status"] == ""
    assert settings.with_name("config.toml.bad").read_text(encoding="utf-8") == bad
    assert tomllib.loads(settings.read_text(encoding="utf-8")) == \
        {"display": {"fullscreen": True}}


def test_a_serial_port_typed_on_the_keyboard(run_ui_driver, tmp_path: Path) -> None:
    _data, settings, env = user_folders(tmp_path)
    result = run_ui_driver(SCRIPT, "serial-port", extra_env=env)
    assert result["by_usb"] == "Port: the first with USB id 2e8a:0005"
    typed = result["typed"]
    assert typed["kind"] == ["serial"] and typed["port"] == "Port: /dev/serial0"
    assert "/dev/serial0" in typed["status"]  # the panel looks for it (and says so) at once
    assert load_config(settings).panel.serial.port == "/dev/serial0"


def test_the_dice_camera_shown_a_calibration_that_reads_worse_refused_and_turned_off(
        run_ui_driver, tmp_path: Path) -> None:
    """The table calibrated before (a profile of the readings kept); a roll kept whose die's
    number was tapped one on - a photo the readings kept hold already, now labelled against
    what it shows - and Calibrate: that calibration reads its own photos worse than the
    plain reader, so it is refused with its reason in figures, and the table reads with the
    plain reader (the earlier profile is no longer used)."""
    from vision.calibrate import calibrate
    from vision.dataset import load_dataset

    data, settings, env = user_folders(tmp_path)
    frames = still_camera(tmp_path / "frames")
    readings = data / "dice-readings"  # readings kept at the table: photos and labels.json
    shutil.copytree(FIXTURES, readings, ignore=shutil.ignore_patterns("LICENSE"))
    profile = calibrate(load_dataset(readings)).save(data / "dice-profile.npz")
    settings.parent.mkdir()
    settings.write_text(f'[camera]\nsource = "{frames}"\nprofile = "{profile}"\n',
                        encoding="utf-8")
    result = run_ui_driver(SCRIPT, "camera", shots=SHOTS, extra_env=env)
    before = result["before"]
    assert before["camera"] == [str(frames)]
    assert before["calibration"] == f"Calibration: {profile}. Readings kept: 3."
    # the still tray's six dice, read once it has been still for the settle time
    assert result["preview"] == "Camera sees 6 dice."
    # held, a die's number tapped one on (its face follows the standard face map), kept
    assert result["held"]["hold"] == "Read again"
    value, face = result["held"]["first"]
    assert face == FACE_MAP[value] and result["tapped"] == [value + 1, FACE_MAP[value + 1]]
    assert result["kept"].startswith("Rolls kept for the calibration: 4 ")
    refused = result["calibrated"]
    assert refused["message"].startswith(
        "Not calibrated: it would read this table worse than the plain reader: on 4 of its "
        "photos, each read by a calibration from the others, it reads ")
    assert "The dice stay read as any dice" in refused["message"]
    assert refused["calibration"] == ("Calibration: none (dice read as any dice). Readings "
                                      "kept: 4.")
    assert result["after"]["camera"] == ["none"]
    saved = load_config(settings).camera
    assert saved.source == "none" and not saved.profile
    again = run_ui_driver(SCRIPT, "reopened", extra_env=env)["settings"]
    assert again["camera"] == ["none"]
    assert again["calibration"] == "Calibration: none (dice read as any dice). Readings kept: 4."


def icon_dice_table(tmp_path: Path, language: str = "en") -> dict[str, str]:
    """Data and config folders whose config's camera is a folder with one tray photo, and
    renders of icon dice to turn it into (1 food die, 2 water, 3 metal, 4 Human): the driver's
    env."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "vision"))
    import cv2
    from synth_dice import render_tray

    _data, settings, folders = user_folders(tmp_path)
    camera, renders = tmp_path / "camera", tmp_path / "renders"
    for folder in (settings.parent, camera, renders):
        folder.mkdir()
    for count, face in enumerate(("food", "water", "metal", "human"), start=1):
        frame, _placed = render_tray([face] * count, seed=40 + count)
        cv2.imwrite(str(renders / f"{face}.png"), frame)
    shutil.copy(renders / "food.png", camera / "tray.png")
    settings.write_text(f'[camera]\nsource = "{camera}"\n'
                        f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
    return {**folders, "PHOENIX_TEST_RENDERS": str(renders), "PHOENIX_TEST_CAMERA": str(camera)}


def test_pip_faces_turned_then_icon_dice_taught_by_touch_and_kept_after_a_restart(
        run_ui_driver, tmp_path: Path) -> None:
    """DESIGN.md: "Pip dice (any ordinary d6) with a face map, default 1-2 food, 3-4 water,
    5 metal, 6 Human, configurable"; "Teaching icon dice is a calibration"."""
    env = icon_dice_table(tmp_path)
    data, settings, _env = user_folders(tmp_path)
    result = run_ui_driver(SCRIPT, "dice-kinds", shots=SHOTS, extra_env=env)
    assert result["faces"] == {"1": "1 pips: food", "2": "2 pips: food", "3": "3 pips: water",
                               "4": "4 pips: water", "5": "5 pips: metal", "6": "6 pips: human"}
    assert result["turned"]["3"] == "3 pips: metal"  # a tap turns it to the next face
    icons = result["icons"]
    assert icons["dice"] == ["icons"] and icons["faces"] == {}
    assert icons["calibration"] == ("Icon dice: not taught yet. Dice kept per face: food 0, "
                                    "water 0, metal 0, human 0.")
    assert icons["show"] == "Teach the icon dice"
    assert result["taught"] == [["food"], ["water"] * 2, ["metal"] * 3, ["human"] * 4]
    assert result["progress"].startswith("Dice kept: food 1, water 2, metal 3, human 4.")
    assert result["teach"] == "Teach"
    learned = result["learned"]
    assert learned["message"] == ("The icon dice are taught from 4 rolls; used from the next "
                                  "roll on.")
    assert learned["calibration"] == ("Icon dice: taught. Dice kept per face: food 1, water 2, "
                                      "metal 3, human 4.")
    assert (data / "icon-dice.npz").is_file()
    assert result["read_mode"] == ["read"] and result["read"] == ["human"] * 4  # read as taught
    saved = load_config(settings).camera
    assert (saved.dice, saved.faces) == ("icons", "1-2=food,3=metal,4=water,5=metal,6=human")
    again = run_ui_driver(SCRIPT, "reopened", extra_env=env)["settings"]
    assert again["dice"] == ["icons"]


def test_icon_dice_taught_in_german(run_ui_driver, tmp_path: Path) -> None:
    result = run_ui_driver(SCRIPT, "dice-kinds", shots=SHOTS,
                           extra_env=icon_dice_table(tmp_path, "de"))
    assert result["faces"]["3"] == "3 Augen: Wasser"
    assert result["icons"]["show"] == "Symbolwürfel anlernen"
    assert result["progress"].startswith("Behaltene Würfel: Pflanzen 1, Wasser 2, Metall 3, "
                                         "Mensch 4.")
    assert result["learned"]["message"].startswith("Die Symbolwürfel sind aus 4 Würfen")
    assert result["read"] == ["human"] * 4
    assert any(name.endswith("settings-teach-icons-de-800x480.png")
               for name in result["screenshots"])


def test_the_brightness_set_by_touch_at_once_and_again_at_the_next_start(
        run_ui_driver, tmp_path: Path) -> None:
    backlight = tmp_path / "sys" / "rpi_backlight"  # the 7" display's, as Linux shows it
    backlight.mkdir(parents=True)
    (backlight / "max_brightness").write_text("255\n")
    (backlight / "brightness").write_text("255\n")
    _data, settings, folders = user_folders(tmp_path)
    env = {**folders, "PHOENIX_BACKLIGHT_ROOT": str(tmp_path / "sys")}
    result = run_ui_driver(SCRIPT, "brightness", extra_env=env)
    assert result["before"]["brightness"] == "Brightness: 100 %"
    assert result["before"]["level"] == []  # none set: the backlight is left as it is
    assert result["after"]["brightness"] == "Brightness: 50 %"
    assert result["after"]["level"] == ["50"]
    assert (backlight / "brightness").read_text().strip() == "128"  # at once
    assert load_config(settings).display.brightness == 50
    (backlight / "brightness").write_text("255\n")  # another program, or a reboot
    again = run_ui_driver(SCRIPT, "reopened", extra_env=env)["settings"]
    assert (backlight / "brightness").read_text().strip() == "128"  # set at the start
    assert again["level"] == ["50"] and not again["status"]
    gone = run_ui_driver(SCRIPT, "reopened", extra_env={
        **env, "PHOENIX_BACKLIGHT_ROOT": str(tmp_path / "none")})["settings"]
    assert gone["brightness"].startswith("Brightness: this display has no backlight")
    assert gone["status"].startswith("The display's brightness cannot be set")


def test_a_calibration_run_in_german_with_settings_moved_from_the_data_folder(
        run_ui_driver, tmp_path: Path) -> None:
    """Settings left in the data folder (their place before the config folder) are moved to
    the config folder at the start and used: German, the camera; what is saved goes there."""
    data, settings, env = user_folders(tmp_path)
    frames = still_camera(tmp_path / "frames")
    data.mkdir()
    (data / "config.toml").write_text(f'[camera]\nsource = "{frames}"\n'
                                      '[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver(SCRIPT, "camera", shots=SHOTS, extra_env=env)
    assert result["preview"].startswith("Kamera sieht ")
    assert result["held"]["hold"] == "Neu lesen"
    assert result["kept"].startswith("Für die Kalibrierung behaltene Würfe: 1 ")
    assert result["calibrated"]["message"] == ("Kalibriert mit Aufnahmen: 1; gilt ab dem "
                                               "nächsten Wurf.")
    assert any(name.endswith("settings-camera-de-800x480.png")
               for name in result["screenshots"])
    assert not (data / "config.toml").exists()
    saved = load_config(settings)
    assert saved.display.language == "de" and saved.camera.source == "none"  # turned off


def test_german_chosen_in_the_settings_is_spoken_at_once_and_after_a_restart(
        run_ui_driver, tmp_path: Path) -> None:
    _data, settings, env = user_folders(tmp_path)
    result = run_ui_driver(SCRIPT, "language", shots=SHOTS, extra_env=env)
    assert result["before"] == {"back": "Back", "language": ["en"]}
    german = result["german"]
    assert german["back"] == "Zurück" and german["language"] == ["de"]
    assert load_config(settings).display.language == "de"
    again = run_ui_driver(SCRIPT, "reopened", extra_env=env)["settings"]
    assert again["back"] == "Zurück"
