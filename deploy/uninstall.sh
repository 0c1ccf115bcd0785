#!/bin/bash
# Takes away what deploy/install.sh added, as its list in PREFIX/share/phoenix-companion/installed
# says: the service, the udev rule, the groups it added the player to, the console boot it set,
# the polkit rule, the default config while it is unchanged, and the app. Never the games database nor
# anything else in the player's data folder.
#
#   sudo deploy/uninstall.sh [--prefix DIR] [--dry-run]
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=common.sh source-path=SCRIPTDIR
. "$SOURCE/deploy/common.sh"
PREFIX=/opt/phoenix-companion
DRY_RUN=no

usage() {
    cat <<EOF
Usage: deploy/uninstall.sh [options]
  --prefix DIR   where the app was installed (default: $PREFIX)
  --dry-run      print every step without doing it
  -h, --help     this help
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        --dry-run) DRY_RUN=yes ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done


case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
MANIFEST="$PREFIX/share/phoenix-companion/installed"
[ -f "$MANIFEST" ] || die "nothing installed by deploy/install.sh in $PREFIX (no $MANIFEST)"
if [ "$DRY_RUN" = no ] && [ "$(id -u)" != 0 ] && grep -qE '^(service|group|default-target|file /etc/|file /usr/)' "$MANIFEST"; then
    die "the install changed the system (service, udev rule, groups): run it with sudo"
fi

entries() {  # the manifest's lines of one kind, without the kind
    sed -n "s/^$1 //p" "$MANIFEST"
}

echo "Phoenix Companion: uninstalling from $PREFIX"
[ "$DRY_RUN" = yes ] && echo "dry run: nothing is changed"

step "the service"
for unit in $(entries service); do
    run_quietly systemctl disable --now "$unit"
    getty_back  # the kiosk had tty1: its login prompt comes back now, not at the next boot
done
for target in $(entries default-target); do
    run systemctl set-default "$target"
done

step "files outside $PREFIX"
for file in $(entries file); do
    run rm -f "$file"
    case "$file" in
        /etc/systemd/system/*) run_quietly systemctl daemon-reload ;;
        /etc/udev/rules.d/*)
            run_quietly udevadm control --reload-rules
            if [ -n "$(ls -A /sys/class/backlight 2>/dev/null)" ]; then
                note "the display's backlight stays settable by the video group until the next boot"
            fi
            ;;
    esac
done

step "groups the install added"
entries group | while read -r group user; do
    run gpasswd -d "$user" "$group"
done

step "the default config"
entries config | while read -r config sum; do
    if [ ! -e "$config" ]; then
        note "$config is gone already"
    elif [ "$(checksum "$config")" = "$sum" ]; then
        run rm -f "$config"
    else
        note "$config was changed (your settings): kept"
    fi
    note "kept: everything else in $(dirname "$config"), the games database among it"
done

step "the app"
run rm -rf "$PREFIX/venv" "$PREFIX/share/phoenix-companion"
run rm -f "$PREFIX/bin/phoenix-companion" "$PREFIX/bin/phoenix-dice" \
    "$PREFIX/share/doc/raspberry-pi.md"
for dir in "$PREFIX/bin" "$PREFIX/share/doc" "$PREFIX/share" "$PREFIX"; do
    if [ -d "$dir" ]; then  # the folders too, unless something else is in them
        run rmdir --ignore-fail-on-non-empty "$dir"
    fi
done
echo
if [ "$DRY_RUN" = yes ]; then
    echo "dry run done: nothing was changed"
else
    echo "Phoenix Companion is uninstalled"
fi
