#!/bin/bash
# Installs the Debian / Raspberry Pi OS packages that `make` needs, when they are missing:
#   deploy/system-packages.sh app    # `make run`: the system libraries the app's wheels load
#                                    # (deploy/libraries.txt), and venv where Python lacks it
#   deploy/system-packages.sh test   # `make test`: also Xvfb and Mesa for the UI tests,
#                                    # Chromium and its driver for the phone page's tests,
#                                    # shellcheck, systemd's tools (systemd-analyze) and
#                                    # desktop-file-validate for the deploy tests
# Only as root on a Debian-family system; elsewhere it says what to install and carries on.
# The Pi's kiosk install (deploy/install.sh) has its own list.
set -eu
# shellcheck source=common.sh source-path=SCRIPTDIR
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
PURPOSE=${1:-app}

PACKAGES=$(library_packages "$(os_release_codename)")
python3 -c 'import ensurepip' 2>/dev/null || PACKAGES="$PACKAGES python3-venv"
case "$PURPOSE" in
    app) ;;
    test) PACKAGES="$PACKAGES xvfb xauth libgl1-mesa-dri chromium chromium-driver systemd"
          PACKAGES="$PACKAGES desktop-file-utils shellcheck" ;;
    *) echo "usage: $0 app|test" >&2; exit 2 ;;
esac

missing=""
for package in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "note: not a Debian system; install these yourself (or what your system calls them):$missing" >&2
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "note: missing system packages:$missing" >&2
    echo "      run 'sudo make system-packages' (or: sudo apt-get install$missing)" >&2
    exit 0
fi
echo "installing system packages:$missing"
DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
