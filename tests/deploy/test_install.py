"""The Raspberry Pi install (deploy/, systemd/), run as a player runs it where this machine allows:
shellcheck on every script, `install.sh --dry-run` for Bookworm and Trixie, a real install into a
folder that ends with a working `phoenix-companion --version`, the unit it writes passing
`systemd-analyze verify`, and `uninstall.sh` leaving the games database in place.

The tools are installed by `make test` (shellcheck, systemd-analyze and desktop-file-validate
from Debian's packages, by deploy/system-packages.sh); a missing one fails, never skips."""

from __future__ import annotations

import os
import pwd
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
# what a Pi needs from the system, by release: the libraries the wheels load (Kivy's libGL, the
# KMS/DRM pieces SDL2 opens; tests/deploy/test_libraries.py checks that list), Mesa's drivers,
# polkit for the power rule, and lgpio from Raspberry Pi OS's archive
PI_PACKAGES = ["python3-venv", "libgl1", "libgbm1", "libdrm2", "libegl1", "libgles2",
               "libgl1-mesa-dri", "polkitd", "python3-lgpio"]
MTDEV = {"bookworm": "libmtdev1", "trixie": "libmtdev1t64"}
CAMERA = ["python3-picamera2", "python3-libcamera"]
TEST_ONLY = ["xvfb", "xauth", "shellcheck", "chromium", "chromium-driver"]


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
    sh(tool("shellcheck", "apt-get install shellcheck"), "-x", *found)


def dry_run(tmp_path: Path, *args: str) -> str:
    prefix = tmp_path / "prefix"
    done = sh(INSTALL, "--dry-run", "--prefix", prefix, "--data", tmp_path / "data",
              "--config", tmp_path / "config", "--user", "nobody", *args)
    assert not prefix.exists() and not (tmp_path / "data").exists()  # nothing done
    assert not (tmp_path / "config").exists()
    return done.stdout


def apt_packages(output: str) -> list[str]:
    [line] = [line for line in output.splitlines() if "apt-get install" in line]
    return line.split("--no-install-recommends")[1].split()


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_the_dry_run_shows_every_step_for_the_release(tmp_path, release):
    out = dry_run(tmp_path, "--release", release, "--camera", "yes")
    prefix, config = tmp_path / "prefix", tmp_path / "config"
    assert f"release: {release} (its Python: {'3.11' if release == 'bookworm' else '3.13'}" \
        in out
    packages = apt_packages(out)
    assert set(PI_PACKAGES + CAMERA + [MTDEV[release]]) <= set(packages)
    assert not set(packages) & ((set(TEST_ONLY) | set(MTDEV.values())) - {MTDEV[release]})
    assert f"-m venv --system-site-packages {prefix}/venv" in out
    [app] = [line for line in out.splitlines() if "pip install" in line and "--upgrade" in line]
    assert "[test]" not in app
    assert f"--constraint {REPO}/deploy/constraints.txt" in app  # the versions tested
    simplejpeg = "--ignore-installed --no-deps simplejpeg"
    assert (simplejpeg in out) == (release == "bookworm")
    assert f"{prefix}/venv/bin/phoenix-companion --version" in out
    assert "picamera2_problem" in out  # the camera stack is checked once installed
    assert f"deploy/config.toml {config}/config.toml" in out  # the settings in their folder
    assert "the polkit rule: nobody may shut down and restart the Pi from the screen" in out
    assert "/etc/polkit-1/rules.d/60-phoenix-companion.rules" in out
    assert "the player's groups: video render input gpio dialout" in out
    assert "/etc/udev/rules.d/60-phoenix-companion.rules" in out
    if Path("/run/systemd/system").is_dir():  # else: a chroot, see the test below
        # the backlight's rule acts on "add", so it is applied with one at once
        assert "udevadm trigger --action=add --subsystem-match=backlight" in out
    assert "/etc/systemd/system/phoenix-companion.service" in out
    assert "systemctl enable phoenix-companion.service" in out
    assert f"write {prefix}/share/phoenix-companion/phoenix-companion.service (for nobody" in out
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
    (["--config", "/etc/my settings"], "may hold only letters"),
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


def player() -> str:
    """The player a folder install is made for: someone else than root where the tests may
    give folders away (CI runs as root; Debian's `daemon` is on every system, and systemd warns
    of units run as `nobody`), else the user running the tests."""
    return "daemon" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name


def test_install_into_a_folder_then_uninstall_keeps_the_games(tmp_path, run_ui_driver):
    home = tmp_path / "home"
    prefix = tmp_path / "prefix"
    data = home / ".local" / "share" / "phoenix-companion"
    config = home / ".config" / "phoenix-companion"
    who = player()
    args = ("--prefix", prefix, "--data", data, "--config", config, "--user", who,
            "--no-apt", "--no-systemd", "--python", sys.executable)
    home.mkdir()
    first = sh(INSTALL, *args)
    assert "phoenix-companion 0.1.0" in first.stdout
    version = sh(prefix / "bin" / "phoenix-companion", "--version")
    assert version.stdout.strip() == "phoenix-companion 0.1.0"
    python = prefix / "venv" / "bin" / "python"
    installed = sh(python, "-m", "pip", "list", "--local", "--format=freeze").stdout
    assert "pytest" not in installed and "babel" not in installed.lower()  # run-time only
    # the versions tested (deploy/constraints.txt), from a wheel, not the source folder
    assert "kivy==2.3.1" in installed.lower()
    where = sh(python, "-I", "-c", "import companion; print(companion.__file__)").stdout
    assert where.startswith(str(prefix / "venv"))
    assert (config / "config.toml").read_text() == (REPO / "deploy" / "config.toml").read_text()
    # every folder the install made for the player is theirs, not root's
    uid = pwd.getpwnam(who).pw_uid
    for folder in (home / ".local", home / ".local" / "share", data, home / ".config", config):
        assert folder.stat().st_uid == uid, folder

    # the installed copy opens the demo game (its example games are in the wheel)
    demo = run_ui_driver("drive_table.py", "demo-table", args=("--demo",), python=python)
    assert demo["table"]["active"] == "Cat"
    assert "EXAMPLE values" in demo["table"]["demo"]

    unit = prefix / "share" / "phoenix-companion" / "phoenix-companion.service"
    written = unit.read_text()
    assert f"ExecStart={prefix}/venv/bin/phoenix-companion --kiosk" in written
    assert f"Environment=PHOENIX_COMPANION_HOME={data}" in written
    assert f"Environment=PHOENIX_COMPANION_CONFIG={config}" in written
    assert f"ReadWritePaths=-{data} -{config}" in written
    verify = sh(tool("systemd-analyze", "apt-get install systemd"), "verify", unit)
    assert verify.stdout + verify.stderr == ""  # a warning is a failure too
    sh(tool("desktop-file-validate", "apt-get install desktop-file-utils"),
       unit.with_suffix(".desktop"))
    rule = (unit.parent / "polkit-power.rules").read_text()
    assert f'subject.user === "{who}"' in rule and '"pi"' not in rule

    # a game played with the installed app, and a setting changed: both survive
    sh(prefix / "bin" / "phoenix-companion", "replay",
       REPO / "examples" / "two-players-first-game.jsonl", "--db", data / "games.sqlite")
    games = (data / "games.sqlite").read_bytes()
    again = sh(INSTALL, *args)  # an upgrade
    assert f"{config}/config.toml (written by an earlier install) is kept" in again.stdout
    assert "what changed: nothing" in again.stdout
    sh(UNINSTALL, "--prefix", prefix)
    assert not prefix.exists()
    assert not (config / "config.toml").exists()  # unchanged since installed: taken away
    assert (data / "games.sqlite").read_bytes() == games


def test_an_upgrade_moves_the_settings_to_their_folder(tmp_path):
    """Earlier versions kept config.toml beside the games: an upgrade moves it, unchanged."""
    data, config = tmp_path / "data", tmp_path / "config"
    data.mkdir()
    (data / "config.toml").write_text("[display]\nrotation = 180\n")
    done = sh(INSTALL, "--prefix", tmp_path / "prefix", "--data", data, "--config", config,
              "--user", player(), "--no-apt", "--no-systemd", "--python", sys.executable)
    assert f"the settings move to {config}" in done.stdout
    assert (config / "config.toml").read_text() == "[display]\nrotation = 180\n"
    assert not (data / "config.toml").exists()


def test_a_32_bit_raspberry_pi_os_is_refused_before_anything_is_installed(tmp_path):
    # the Python of 32-bit Raspberry Pi OS says linux-armv7l (also under a 64-bit kernel);
    # CPython's sysconfig takes _PYTHON_HOST_PLATFORM as cross-builds do
    env = {**os.environ, "_PYTHON_HOST_PLATFORM": "linux-armv7l"}
    done = subprocess.run([INSTALL, "--prefix", tmp_path / "prefix", "--data", tmp_path / "d",
                           "--config", tmp_path / "c", "--no-apt", "--no-systemd",
                           "--python", sys.executable], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert "this is the 32-bit Raspberry Pi OS" in done.stderr
    assert 'Write "Raspberry Pi OS (64-bit)"' in done.stderr
    assert not (tmp_path / "prefix").exists()
    # `make run` asks the same before it makes its venv
    assert "deploy/check-python.sh $(PYTHON)" in (REPO / "Makefile").read_text()


def fake_apt(tmp_path: Path, archive: list[str]) -> dict[str, str]:
    """An environment whose apt-get does nothing and whose apt-cache knows only `archive`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text("#!/bin/sh\necho \"apt-get $*\" >>\"$(dirname \"$0\")/log\"\n")
    known = " ".join(archive)
    (bin_dir / "apt-cache").write_text(
        f'#!/bin/sh\nfor p in {known}; do [ "$p" = "$4" ] && exit 0; done\nexit 100\n')
    for tool_file in bin_dir.iterdir():
        tool_file.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def test_without_raspberry_pi_os_archive_it_says_what_is_missing_and_where_from(tmp_path):
    if os.geteuid() != 0:
        pytest.fail("this test runs install.sh's apt step, which needs root (CI runs as root)",
                    pytrace=False)
    debian = [*PI_PACKAGES[:-1], MTDEV["bookworm"], "python3"]  # all but python3-lgpio
    args = [INSTALL, "--release", "bookworm", "--prefix", tmp_path / "prefix", "--data",
            tmp_path / "d", "--config", tmp_path / "c", "--user", player(), "--no-systemd",
            "--camera", "no", "--python", sys.executable]
    done = subprocess.run(args, capture_output=True, text=True, env=fake_apt(tmp_path, debian))
    assert done.returncode == 2
    assert "not in this system's package archive: python3-lgpio" in done.stderr
    assert "Raspberry Pi OS's own archive (archive.raspberrypi.com)" in done.stderr
    assert "pass --without-pi-packages" in done.stderr
    assert not (tmp_path / "prefix").exists()
    # with the flag, the Pi's packages are left out and said so
    out = sh(INSTALL, "--dry-run", *[str(a) for a in args[1:]], "--without-pi-packages").stdout
    assert "left out (--without-pi-packages): python3-lgpio" in out
    assert "python3-lgpio" not in apt_packages(out)


def test_a_chroot_without_systemd_enables_the_kiosk_for_the_first_boot(tmp_path):
    out = dry_run(tmp_path, "--release", "trixie")
    if Path("/run/systemd/system").is_dir():  # systemd runs here: started as on a Pi
        assert "systemctl daemon-reload" in out and "systemctl try-restart" in out
    else:  # as in a chroot building an SD card image
        assert "systemd is not running here (a chroot or an image being built)" in out
        assert "systemctl daemon-reload" not in out
        assert "systemctl enable phoenix-companion.service" in out
        assert "skipped: systemctl try-restart phoenix-companion.service" in out
        assert "skipped: udevadm trigger" in out


def test_the_unit_gives_tty1_back_and_is_sandboxed():
    unit = UNIT.read_text().splitlines()
    # a crash loop ends on the login prompt, not a black screen
    assert "OnFailure=getty@tty1.service" in unit and "Conflicts=getty@tty1.service" in unit
    for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=read-only",
                 "ReadWritePaths=-/home/pi/.local/share/phoenix-companion "
                 "-/home/pi/.config/phoenix-companion",
                 "PrivateTmp=yes", "CapabilityBoundingSet=", "SystemCallFilter=@system-service",
                 "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6",
                 "Environment=KIVY_HOME=%C/phoenix-companion/kivy"):
        assert line in unit, line
    # nothing that limits the devices: the screen, touch, GPIO, camera and panel are all in /dev
    # (ProtectClock= implies a device allow-list of the clock alone on some systemd releases)
    directives = {line.split("=")[0] for line in unit if "=" in line and not line.startswith("#")}
    assert not directives & {"PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"}
    security = sh(tool("systemd-analyze", "apt-get install systemd"), "security",
                  "--offline=yes", UNIT).stdout
    [overall] = [line for line in security.splitlines() if "Overall exposure level" in line]
    score = float(overall.split(": ")[1].split()[0])
    assert score <= 3.0, overall  # 9.2 "UNSAFE" before


def test_uninstall_gives_tty1_its_login_prompt_back(tmp_path):
    share = tmp_path / "prefix" / "share" / "phoenix-companion"
    share.mkdir(parents=True)
    (share / "installed").write_text("service phoenix-companion.service\n")
    out = sh(UNINSTALL, "--prefix", tmp_path / "prefix", "--dry-run").stdout
    assert "systemctl disable --now phoenix-companion.service" in out
    assert "systemctl start getty@tty1.service" in out


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
