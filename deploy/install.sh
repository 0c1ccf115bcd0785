#!/bin/bash
# Installs Phoenix Companion on Raspberry Pi OS (Bookworm or Trixie, 64-bit) so that it starts
# full screen on the touchscreen at every boot. Safe to run again: that upgrades it.
#
#   sudo deploy/install.sh                      # the kiosk, for the user who ran sudo
#   deploy/install.sh --dry-run                 # every step, nothing done
#   deploy/install.sh --prefix DIR --no-apt --no-systemd   # the app alone, into a folder
#   deploy/install.sh --without-pi-packages     # plain Debian: no Raspberry Pi OS archive
#
# Inside a chroot (building an SD card image) it works too: the service is enabled for the
# image's first boot instead of being started.
#
# See docs/raspberry-pi.md. deploy/uninstall.sh takes it all away again (never the games).
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=common.sh source-path=SCRIPTDIR
. "$SOURCE/deploy/common.sh"
PREFIX=/opt/phoenix-companion
PLAYER=${SUDO_USER:-$(id -un)}
DATA=""
CONFIG_DIR=""
RELEASE=""
CAMERA=auto
MODE=kiosk
PYTHON=/usr/bin/python3
APT=yes
SYSTEMD=yes
PI_ARCHIVE=yes
DRY_RUN=no
GROUPS_WANTED="video render input gpio dialout"
UNIT=phoenix-companion.service

usage() {
    cat <<EOF
Usage: deploy/install.sh [options]
  --user NAME        the player's user, who runs the app (default: $PLAYER)
  --prefix DIR       where the app goes (default: $PREFIX)
  --data DIR         the player's data folder: games, catalogue, dice (default:
                     ~NAME/.local/share/phoenix-companion)
  --config DIR       the player's settings folder, for config.toml (default:
                     ~NAME/.config/phoenix-companion)
  --release NAME     bookworm or trixie (default: VERSION_CODENAME in /etc/os-release)
  --camera WHEN      auto, yes or no: install the Pi camera stack (auto: when a camera is
                     connected)
  --desktop          start the app in the desktop session (autostart) instead of the kiosk
  --python PATH      the Python the virtual environment is made from (default: $PYTHON)
  --no-apt           install no system packages
  --no-systemd       no boot service, udev or polkit rule, group changes: the app and its
                     config only
  --without-pi-packages
                     leave out what only Raspberry Pi OS's archive has (python3-lgpio, the
                     Pi camera's python3-picamera2): for plain Debian; the GPIO buttons then
                     need another pin library and the Pi camera is not read
  --dry-run          print every step without doing it
  -h, --help         this help
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --user) PLAYER=${2:?--user needs a name}; shift ;;
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        --data) DATA=${2:?--data needs a folder}; shift ;;
        --config) CONFIG_DIR=${2:?--config needs a folder}; shift ;;
        --release) RELEASE=${2:?--release needs bookworm or trixie}; shift ;;
        --camera) CAMERA=${2:?--camera needs auto, yes or no}; shift ;;
        --desktop) MODE=desktop ;;
        --python) PYTHON=${2:?--python needs a path}; shift ;;
        --no-apt) APT=no ;;
        --no-systemd) SYSTEMD=no ;;
        --without-pi-packages) PI_ARCHIVE=no ;;
        --dry-run) DRY_RUN=yes ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done


case "$CAMERA" in auto|yes|no) ;; *) die "--camera must be auto, yes or no, got '$CAMERA'" ;; esac
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
if [ -z "$RELEASE" ]; then
    RELEASE=$(os_release_codename)
    [ -n "$RELEASE" ] || die "cannot tell the release from /etc/os-release; pass --release bookworm or trixie"
fi
case "$RELEASE" in
    bookworm|trixie) ;;
    *) die "release '$RELEASE' is not supported (bookworm or trixie); pass --release to choose the nearest" ;;
esac
getent passwd "$PLAYER" >/dev/null || die "no user '$PLAYER' here (--user NAME)"
PLAYER_HOME=$(getent passwd "$PLAYER" | cut -d: -f6)
PLAYER_GROUP=$(id -gn "$PLAYER")
[ -n "$DATA" ] || DATA="$PLAYER_HOME/.local/share/phoenix-companion"
[ -n "$CONFIG_DIR" ] || CONFIG_DIR="$PLAYER_HOME/.config/phoenix-companion"
case "$DATA" in /*) ;; *) DATA="$(pwd)/$DATA" ;; esac
case "$CONFIG_DIR" in /*) ;; *) CONFIG_DIR="$(pwd)/$CONFIG_DIR" ;; esac
case "$PREFIX$DATA$CONFIG_DIR" in
    *[!A-Za-z0-9._/+-]*) die "the prefix, data and settings folders may hold only letters, digits and . _ / + - (they go into the unit file)" ;;
esac
if [ "$SYSTEMD" = yes ] && [ "$(id -u "$PLAYER")" = 0 ]; then
    die "the app does not run as root: say which user plays (--user NAME)"
fi
if [ "$DRY_RUN" = no ] && [ "$(id -u)" != 0 ] && { [ "$APT" = yes ] || [ "$SYSTEMD" = yes ]; }; then
    die "system packages, the service, the udev rule and groups need root: run it with sudo, or pass --no-apt --no-systemd"
fi

command -v "$PYTHON" >/dev/null || die "no Python at $PYTHON (--python PATH)"
# 3.11 or newer, on a platform with prebuilt Kivy, OpenCV and numpy (not 32-bit Raspberry Pi OS)
"$SOURCE/deploy/check-python.sh" "$PYTHON" || exit 2
FOUND_PYTHON=$(python_version "$PYTHON")

VENV="$PREFIX/venv"
SHARE="$PREFIX/share/phoenix-companion"
MANIFEST="$SHARE/installed"
CONSTRAINTS="$SOURCE/deploy/constraints.txt"
PIP=(-m pip install --disable-pip-version-check --constraint "$CONSTRAINTS")

# What each release needs: the system libraries the wheels load (deploy/libraries.txt: libGL for
# Kivy's GL backend, the KMS/DRM pieces SDL2 opens, libmtdev), Mesa's GPU drivers, the venv, and
# polkit (the player may shut down and restart the Pi from the screen).
PACKAGES="python3 python3-venv $(library_packages "$RELEASE")libgl1-mesa-dri polkitd"
# Only Raspberry Pi OS's archive (archive.raspberrypi.com) has these.
PI_PACKAGES="python3-lgpio"
CAMERA_PACKAGES="python3-picamera2 python3-libcamera"
case "$RELEASE" in
    bookworm)
        PYTHON_VERSION=3.11
        # Bookworm's python3-simplejpeg (Picamera2's JPEG encoder) is built against numpy 1.x
        # and stops Picamera2's import under the venv's numpy 2 ("numpy.dtype size changed"):
        # a simplejpeg wheel built against numpy 2 goes into the venv, ahead of it.
        NUMPY_FIX="simplejpeg"
        NUMPY_WHY="the system's simplejpeg is built against numpy 1.x: the venv gets its own, built against numpy 2"
        ;;
    trixie)
        PYTHON_VERSION=3.13
        NUMPY_FIX=""
        NUMPY_WHY="the system's simplejpeg is built against numpy 2: Picamera2 loads under the venv's numpy 2 as it is"
        ;;
esac

camera_connected() {
    # A CSI camera shows up as the Pi's camera receiver (Pi 4: unicam, Pi 5: rp1-cfe).
    grep -qsE '^(unicam|rp1-cfe)' /sys/class/video4linux/video*/name
}
if [ "$CAMERA" = auto ]; then
    if camera_connected; then CAMERA=yes; else CAMERA=no; fi
    CAMERA_HOW="$CAMERA (auto: camera $( [ "$CAMERA" = yes ] && echo found || echo 'not found; --camera yes installs it anyway'))"
else
    CAMERA_HOW="$CAMERA (--camera)"
fi
LEFT_OUT=""
if [ "$PI_ARCHIVE" = yes ]; then
    PACKAGES="$PACKAGES $PI_PACKAGES"
    [ "$CAMERA" = yes ] && PACKAGES="$PACKAGES $CAMERA_PACKAGES"
else
    LEFT_OUT="$PI_PACKAGES"
    [ "$CAMERA" = yes ] && LEFT_OUT="$LEFT_OUT $CAMERA_PACKAGES"
    CAMERA_HOW="no (--without-pi-packages: the Pi camera's packages come from Raspberry Pi OS)"
    CAMERA=no
fi
if systemd_running; then BOOTED=yes; else BOOTED=no; fi

echo "Phoenix Companion: installing for $PLAYER into $PREFIX ($MODE)"
echo "release: $RELEASE (its Python: $PYTHON_VERSION; $PYTHON is $FOUND_PYTHON, $("$PYTHON" -c 'import sysconfig; print(sysconfig.get_platform())')); camera stack: $CAMERA_HOW"
echo "numpy: the venv's numpy 2 and OpenCV; $NUMPY_WHY"
[ -n "$LEFT_OUT" ] && echo "left out (--without-pi-packages): $LEFT_OUT"
[ "$BOOTED" = no ] && echo "systemd is not running here (a chroot or an image being built): the service is enabled for the next boot, nothing is started"
[ "$DRY_RUN" = yes ] && echo "dry run: nothing is changed"

not_in_archive() {  # the packages of the list apt cannot find
    local package
    for package in "$@"; do
        apt-cache show --no-all-versions "$package" >/dev/null 2>&1 || printf '%s ' "$package"
    done
}

step "system packages"
if [ "$APT" = yes ]; then
    run env DEBIAN_FRONTEND=noninteractive apt-get update -q
    # shellcheck disable=SC2086
    unfound=$([ "$DRY_RUN" = yes ] || not_in_archive $PACKAGES)
    if [ -n "$unfound" ]; then
        pi_missing=""
        for package in $unfound; do
            case " $PI_PACKAGES $CAMERA_PACKAGES " in *" $package "*) pi_missing="$pi_missing $package" ;; esac
        done
        if [ -n "$pi_missing" ]; then
            die "not in this system's package archive:$pi_missing. They come from Raspberry Pi OS's own archive (archive.raspberrypi.com), which Raspberry Pi OS has; on plain Debian pass --without-pi-packages (the GPIO buttons then need another pin library, the Pi camera is not read)"
        fi
        die "not in this system's package archive: $unfound(is /etc/apt/sources.list complete for $RELEASE? try sudo apt-get update)"
    fi
    # shellcheck disable=SC2086
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES
else
    skip "apt-get install $PACKAGES (--no-apt)"
fi

step "the virtual environment (it sees the system's Picamera2 and lgpio)"
if [ -x "$VENV/bin/python" ] && ! same_python "$VENV/bin/python" "$PYTHON"; then
    note "the venv was made from another Python: made again"
    run rm -rf "$VENV"
fi
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
if [ -x "$VENV/bin/python" ]; then  # an upgrade: what was there, to say what changed
    "$VENV/bin/python" -m pip list --format=freeze --local --disable-pip-version-check \
        2>/dev/null | sort >"$BUILD/before.txt" || true
    cat "$SHARE/source" >>"$BUILD/before.txt" 2>/dev/null || true
fi
run install -d "$PREFIX" "$SHARE"
run "$PYTHON" -m venv --system-site-packages "$VENV"

step "the app (without its test extras; the versions in deploy/constraints.txt, wheels only)"
# A copy, so that building the wheel leaves nothing in the source folder.
run cp -R "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/companion" "$SOURCE/vision" \
    "$SOURCE/hardware" "$SOURCE/examples" "$BUILD/"
if [ -f "$SOURCE/setup.py" ]; then
    run cp "$SOURCE/setup.py" "$BUILD/"
fi
run "$VENV/bin/python" "${PIP[@]}" --upgrade "$BUILD"
if [ -n "$NUMPY_FIX" ]; then
    run "$VENV/bin/python" "${PIP[@]}" --ignore-installed --no-deps "$NUMPY_FIX"
else
    skip "simplejpeg in the venv: not needed on $RELEASE"
fi
run install -d "$PREFIX/bin" "$PREFIX/share/doc"
run ln -sfn "$VENV/bin/phoenix-companion" "$PREFIX/bin/phoenix-companion"
run ln -sfn "$VENV/bin/phoenix-dice" "$PREFIX/bin/phoenix-dice"
run install -m 644 "$SOURCE/docs/raspberry-pi.md" "$PREFIX/share/doc/raspberry-pi.md"
run "$VENV/bin/phoenix-companion" --version
if [ "$CAMERA" = yes ]; then
    run "$VENV/bin/python" -c "import sys, vision.camera as c; sys.exit(c.picamera2_problem())"
else
    skip "the Picamera2 check (no camera stack)"
fi
if [ "$DRY_RUN" = no ]; then
    REVISION=$(git -C "$SOURCE" describe --always --dirty 2>/dev/null || echo "not from git")
    echo "phoenix-companion-source==$REVISION" >"$SHARE/source"
    "$VENV/bin/python" -m pip list --format=freeze --local --disable-pip-version-check \
        | sort >"$BUILD/after.txt"
    cat "$SHARE/source" >>"$BUILD/after.txt"
    if [ -f "$BUILD/before.txt" ]; then
        changes=$(what_changed "$BUILD/before.txt" "$BUILD/after.txt")
        note "what changed: ${changes:-nothing}"
    fi
fi

step "the player's folders: games in $DATA, settings in $CONFIG_DIR"
player_folder "$DATA"
player_folder "$CONFIG_DIR"
CONFIG="$CONFIG_DIR/config.toml"
OLD_CONFIG="$DATA/config.toml"  # where earlier versions kept it
if [ "$OLD_CONFIG" != "$CONFIG" ] && [ -e "$OLD_CONFIG" ] && [ ! -e "$CONFIG" ]; then
    note "the settings move to $CONFIG_DIR (the app reads them there now)"
    run mv "$OLD_CONFIG" "$CONFIG"
    [ "$DRY_RUN" = yes ] || sed -i "s#^config $OLD_CONFIG #config $CONFIG #" "$MANIFEST" 2>/dev/null || true
fi

step "the default config (kept when there is one)"
if [ -e "$CONFIG" ] && ! grep -qs "^config $CONFIG " "$MANIFEST"; then
    note "$CONFIG is there already: kept"
elif [ -e "$CONFIG" ]; then
    note "$CONFIG (written by an earlier install) is kept"
else
    run install -m 644 -o "$PLAYER" -g "$PLAYER_GROUP" "$SOURCE/deploy/config.toml" "$CONFIG"
    record "config $CONFIG $(checksum "$SOURCE/deploy/config.toml")"
fi

step "the service files, written for $PLAYER and $PREFIX"
render "$SOURCE/systemd/$UNIT" "$SHARE/$UNIT"
render "$SOURCE/systemd/phoenix-companion.desktop" "$SHARE/phoenix-companion.desktop"
render "$SOURCE/deploy/polkit-power.rules" "$SHARE/polkit-power.rules"

step "the player's groups: $GROUPS_WANTED"
if [ "$SYSTEMD" = yes ]; then
    for group in $GROUPS_WANTED; do
        if ! getent group "$group" >/dev/null; then
            note "no group $group here (not Raspberry Pi OS?): left out"
        elif id -nG "$PLAYER" | tr ' ' '\n' | grep -qx "$group"; then
            note "$PLAYER is in $group already"
        else
            run usermod -a -G "$group" "$PLAYER"
            record "group $group $PLAYER"
        fi
    done
else
    skip "usermod -a -G ${GROUPS_WANTED// /,} $PLAYER (--no-systemd)"
fi

step "the udev rule for the USB-serial button panel (Pico 2e8a:0005) and the display's backlight"
RULE=/etc/udev/rules.d/60-phoenix-companion.rules
if [ "$SYSTEMD" = no ]; then
    skip "install $RULE (--no-systemd)"
else
    run install -m 644 "$SOURCE/deploy/60-phoenix-companion.rules" "$RULE"
    record "file $RULE"
    if [ "$BOOTED" = yes ]; then
        run_quietly udevadm control --reload-rules
        run_quietly udevadm trigger --subsystem-match=tty
        # the backlight's rule acts on "add" (a plain trigger sends "change"): the video group
        # may set the brightness from now on, not only after the next boot
        run_quietly udevadm trigger --action=add --subsystem-match=backlight
    else
        skip "udevadm trigger (systemd is not running here): the rule applies at the first boot"
    fi
fi

step "the polkit rule: $PLAYER may shut down and restart the Pi from the screen"
POLKIT_RULE=/etc/polkit-1/rules.d/60-phoenix-companion.rules
if [ "$SYSTEMD" = yes ]; then
    run install -d -m 755 "$(dirname "$POLKIT_RULE")"
    run install -m 644 "$SHARE/polkit-power.rules" "$POLKIT_RULE"
    record "file $POLKIT_RULE"
else
    skip "install $POLKIT_RULE (--no-systemd)"
fi

step "start at boot ($MODE)"
AUTOSTART_DIR="$PLAYER_HOME/.config/autostart"
AUTOSTART="$AUTOSTART_DIR/phoenix-companion.desktop"
if [ "$SYSTEMD" = no ]; then
    skip "install /etc/systemd/system/$UNIT and enable it (--no-systemd)"
else
    for link in /usr/local/bin/phoenix-companion /usr/local/bin/phoenix-dice; do
        run ln -sfn "$PREFIX/bin/$(basename "$link")" "$link"
        record "file $link"
    done
fi
if [ "$SYSTEMD" = yes ] && [ "$MODE" = kiosk ]; then
    if grep -qsxF "file $AUTOSTART" "$MANIFEST"; then
        run rm -f "$AUTOSTART"  # an earlier --desktop install
    fi
    run install -m 644 "$SHARE/$UNIT" "/etc/systemd/system/$UNIT"
    record "file /etc/systemd/system/$UNIT"
    record "service $UNIT"
    if [ "$BOOTED" = yes ]; then
        run systemctl daemon-reload
    fi
    run systemctl enable "$UNIT"
    DEFAULT_TARGET=$(systemctl get-default 2>/dev/null || echo unknown)
    if [ "$DEFAULT_TARGET" = graphical.target ]; then
        note "the desktop would take the screen: booting to the console (multi-user.target)"
        record "default-target graphical.target"
        run systemctl set-default multi-user.target
    else
        note "boots to $DEFAULT_TARGET: the kiosk has the screen"
    fi
    if [ "$BOOTED" = yes ]; then
        # an upgrade: the running app starts again with the new version; should that fail or
        # take too long, the install is still done (the next boot starts it)
        show systemctl try-restart "$UNIT"
        if [ "$DRY_RUN" = no ] && ! timeout 150 systemctl try-restart "$UNIT"; then
            note "the app did not start again now: see journalctl -u $UNIT -b; it starts at the next boot"
        fi
    else
        skip "systemctl try-restart $UNIT (systemd is not running here)"
    fi
elif [ "$SYSTEMD" = yes ]; then
    if grep -qsxF "service $UNIT" "$MANIFEST"; then
        run_quietly systemctl disable "$UNIT"  # an earlier kiosk install
    fi
    player_folder "$AUTOSTART_DIR"
    run install -m 644 -o "$PLAYER" -g "$PLAYER_GROUP" "$SHARE/phoenix-companion.desktop" \
        "$AUTOSTART"
    record "file $AUTOSTART"
fi

echo
if [ "$DRY_RUN" = yes ]; then
    echo "dry run done: nothing was changed"
else
    echo "Phoenix Companion is installed: $PREFIX/bin/phoenix-companion"
    echo "games: $DATA (back up games.sqlite); settings: $CONFIG; deploy/uninstall.sh keeps both"
    if [ "$SYSTEMD" = yes ] && [ "$BOOTED" = yes ]; then
        echo "reboot (sudo reboot) to start it; its log: journalctl -u $UNIT"
    elif [ "$SYSTEMD" = yes ]; then
        echo "it starts at the first boot of this system; its log: journalctl -u $UNIT"
    fi
fi
