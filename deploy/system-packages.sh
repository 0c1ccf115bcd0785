#!/bin/sh
# Installs the Debian / Raspberry Pi OS packages the app and its tests need, when they are missing.
# Only as root on a Debian-family system; elsewhere it says what to install and carries on.
# For the tests only (never on a Pi: deploy/install.sh has its own list): Xvfb and Mesa for the
# UI tests, systemd's tools (systemd-analyze verify) and desktop-file-validate for the unit and
# autostart files.
set -eu

PACKAGES="xvfb xauth libgl1 libgl1-mesa-dri libegl1 libgles2 libmtdev1 systemd desktop-file-utils"

missing=""
for package in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "note: not a Debian system; install Xvfb and Mesa (OpenGL) yourself for the UI tests" >&2
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "note: missing system packages:$missing" >&2
    echo "      run 'sudo make system-packages' (or: sudo apt-get install$missing)" >&2
    exit 0
fi
echo "installing system packages:$missing"
DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
