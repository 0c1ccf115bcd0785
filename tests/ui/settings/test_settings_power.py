"""Shut down and Restart on the settings screen, in the real app under Xvfb
(tests/ui/drive_settings_power.py), with a fake systemctl first on PATH and a folder standing in
for /run/systemd/system: asked first, Cancel runs nothing, a confirmed tap runs systemctl and the
screen says the Pi goes down; a refusal shows its reason and the app carries on; without systemd
no buttons, and why. Screenshots go to build/screenshots/ (or $PHOENIX_SCREENSHOTS)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardware"))
from fake_systemctl import REFUSED, fake_systemctl

SCRIPT = "drive_settings_power.py"
SHOTS = Path(os.environ.get("PHOENIX_SCREENSHOTS")
             or Path(__file__).resolve().parents[3] / "build" / "screenshots")
QUESTION = ("Shut down the Raspberry Pi? The game is saved: it resumes where it was at the next "
            "start.")


def systemd_with(tmp_path: Path, **answer) -> dict[str, str]:
    """The driver's env: systemd runs the computer, and systemctl (the fake) answers as told."""
    running = tmp_path / "run" / "systemd" / "system"
    running.mkdir(parents=True)
    fake = tmp_path / "fake"
    bin_folder = fake_systemctl(fake, **answer)
    return {"PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}",
            "PHOENIX_SYSTEMD_RUNNING": str(running), "PHOENIX_TEST_SYSTEMCTL": str(fake)}


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1280x800"])
def test_shut_down_and_restart_are_asked_first_then_run(run_ui_driver, tmp_path, size):
    result = run_ui_driver(SCRIPT, "power", size=size, shots=SHOTS,
                           extra_env=systemd_with(tmp_path))
    section = result["section"]
    assert section["buttons"] == {"shutdown": "Shut down", "restart": "Restart"}
    assert section["fit"], section
    assert section["note"].startswith("Shut the Pi down before you pull the plug")
    question = result["question"]
    assert question["text"] == QUESTION and question["fits"]
    assert question["buttons"] == {"power:cancel": "Cancel", "power:confirm": "Shut down"}
    assert result["after_cancel"] == []  # Cancel: nothing run
    shutdown = result["shutdown"]
    assert shutdown["text"] == ("Shutting down… wait until the green light stops blinking "
                                "before you pull the plug.")
    assert shutdown["buttons"] == {} and shutdown["fits"]  # nothing left to tap
    assert result["after_shutdown"] == ["--no-ask-password poweroff"]
    assert result["restart_question"]["text"].startswith("Restart the Raspberry Pi?")
    assert result["restart_question"]["buttons"]["power:confirm"] == "Restart"
    assert result["restart"]["text"].startswith("Restarting…")
    assert result["calls"] == ["--no-ask-password poweroff", "--no-ask-password reboot"]


def test_a_refusal_shows_its_reason_and_the_app_carries_on(run_ui_driver, tmp_path):
    result = run_ui_driver(SCRIPT, "refused", shots=SHOTS,
                           extra_env=systemd_with(tmp_path, status=1, says=REFUSED))
    refusal = result["refusal"]
    reason = ("The Raspberry Pi may not be shut down from the screen (systemctl: Call to PowerOff "
              "failed: Access denied). Run sudo deploy/install.sh once more: it adds the rule "
              "that allows it. Until then use sudo poweroff over SSH or at a keyboard.")
    assert refusal["text"] == reason and refusal["fits"]
    assert refusal["buttons"] == {"power:cancel": "Close"}
    assert result["message"] == reason  # still there once the pop-up is closed
    assert result["calls"] == ["--no-ask-password poweroff"]


def test_without_systemd_no_buttons_and_the_reason(run_ui_driver, tmp_path):
    env = systemd_with(tmp_path)
    env["PHOENIX_SYSTEMD_RUNNING"] = str(tmp_path / "not-systemd")
    section = run_ui_driver(SCRIPT, "not-offered", extra_env=env)["section"]
    assert section["buttons"] == {}
    assert section["note"] == ("Shut down and Restart are offered where systemd runs the "
                               "computer, as on the Raspberry Pi; not here: switch it off as "
                               "you usually do.")


def test_in_german_the_refusal_fits_its_pop_up(run_ui_driver, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    result = run_ui_driver(SCRIPT, "refused", shots=SHOTS, args=("--config", str(config)),
                           extra_env=systemd_with(tmp_path, status=1, says=REFUSED))
    refusal = result["refusal"]
    assert refusal["text"].startswith("Der Raspberry Pi darf nicht vom Bildschirm aus "
                                      "heruntergefahren werden (systemctl: Call to PowerOff")
    assert refusal["fits"] and refusal["buttons"] == {"power:cancel": "Schließen"}
    assert any(name.endswith("settings-power-refused-de-800x480.png")
               for name in result["screenshots"])
