#!/bin/sh
# Refuses a Python the app cannot be installed for, before pip starts: older than 3.11, or a
# platform with no prebuilt Kivy, OpenCV and numpy (32-bit Raspberry Pi OS, where pip would
# build them from source for hours). Used by deploy/install.sh and by `make`.
#
#   deploy/check-python.sh [PYTHON]        # exit 0 and no output when it is fine; else 2
set -eu
PYTHON=${1:-python3}

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "no Python at $PYTHON" >&2
    exit 2
fi
version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
platform=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_platform())')
case "$version" in
    3.1[1-9]) ;;
    *) echo "$PYTHON is Python $version; the app needs 3.11 or newer" >&2; exit 2 ;;
esac
case "$platform" in
    linux-aarch64|linux-x86_64|macosx-*) ;;
    linux-armv6l|linux-armv7l|linux-armv8l|linux-arm)
        cat >&2 <<MESSAGE
$PYTHON runs on 32-bit ARM ($platform): this is the 32-bit Raspberry Pi OS.
Kivy, OpenCV and numpy have no prebuilt packages for it (building them takes hours and often
fails). Write "Raspberry Pi OS (64-bit)" with Raspberry Pi Imager (a Pi 4 or Pi 5 runs it) and
install again; your games are in ~/.local/share/phoenix-companion if you want to copy them over.
MESSAGE
        exit 2 ;;
    *) echo "$PYTHON runs on $platform: Kivy, OpenCV and numpy have no prebuilt packages for it (64-bit Linux on arm or x86 has them)" >&2
       exit 2 ;;
esac
