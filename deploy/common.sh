# shellcheck shell=bash
# Helpers shared by deploy/install.sh and deploy/uninstall.sh (sourced, not run). They read
# DRY_RUN, MANIFEST, PLAYER, PREFIX, DATA and CONFIG_DIR from the script that sources them.

die() {  # a problem the script cannot go on with: say it, exit 2
    echo "$(basename "$0"): $*" >&2
    exit 2
}

step() {  # a heading for what follows
    echo "==> $*"
}

note() {
    echo "    $*"
}

skip() {  # a step left out, and why
    echo "    skipped: $*"
}

show() {  # a command as the shell would read it
    printf '    $'
    printf ' %q' "$@"
    echo
}

run() {  # print a command, and run it unless this is a dry run
    show "$@"
    [ "$DRY_RUN" = yes ] || "$@"
}

run_quietly() {  # run() for a command whose failure does not matter (udev or systemd not running)
    show "$@"
    [ "$DRY_RUN" = yes ] || "$@" >/dev/null 2>&1 || note "(failed: $1 is not running here; applies at the next boot)"
}

record() {  # remember something the install added, for uninstall.sh (once)
    [ "$DRY_RUN" = yes ] && return 0
    grep -qsxF "$1" "$MANIFEST" || echo "$1" >>"$MANIFEST"
}

render() {  # a unit, desktop or polkit file from systemd/ or deploy/, for this user and folders
    echo "    write $2 (for $PLAYER, $PREFIX, data $DATA, settings $CONFIG_DIR)"
    [ "$DRY_RUN" = yes ] && return 0
    sed -e "s#^User=pi\$#User=$PLAYER#" \
        -e "s#subject.user === \"pi\"#subject.user === \"$PLAYER\"#" \
        -e "s#/home/pi/.local/share/phoenix-companion#$DATA#g" \
        -e "s#/home/pi/.config/phoenix-companion#$CONFIG_DIR#g" \
        -e "s#/opt/phoenix-companion#$PREFIX#g" "$1" >"$2"
}

checksum() {
    sha256sum "$1" | cut -d' ' -f1
}

python_version() {
    "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'
}

same_python() {  # do two Pythons have the same version (a venv's and the system's)?
    [ "$(python_version "$1")" = "$(python_version "$2")" ]
}

os_release_codename() {
    # shellcheck disable=SC1091
    (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

systemd_running() {  # is systemd the init system here (not a chroot, not an image being built)?
    [ -d /run/systemd/system ]
}

getty_back() {  # give tty1 its login prompt back (the kiosk had it)
    run_quietly systemctl start getty@tty1.service
}

player_folder() {  # a folder for the player's files: it, and every folder made above it, theirs
    local folder=$1 absent=()
    while [ ! -d "$folder" ] && [ "$folder" != / ]; do
        absent=("$folder" "${absent[@]}")
        folder=$(dirname "$folder")
    done
    for folder in "${absent[@]}"; do
        run install -d -o "$PLAYER" -g "$PLAYER_GROUP" "$folder"
    done
    # an earlier install made the folders between the player's home and it as root: theirs again
    folder=$1
    while [ "${folder#"$PLAYER_HOME"/}" != "$folder" ]; do
        if [ -d "$folder" ] && [ "$(stat -c %u "$folder")" = 0 ] && [ "$(id -u "$PLAYER")" != 0 ]; then
            run chown "$PLAYER:$PLAYER_GROUP" "$folder"
        fi
        folder=$(dirname "$folder")
    done
}

what_changed() {  # "name old -> new" for every package of two `pip freeze` lists that differs
    awk -F'==' 'NR == FNR { old[$1] = $2; next }
        { if (!($1 in old)) printf "%s%s %s (new)", sep, $1, $2
          else if (old[$1] != $2) printf "%s%s %s -> %s", sep, $1, old[$1], $2
          else { delete old[$1]; next }
          delete old[$1]; sep = ", " }
        END { for (name in old) { printf "%s%s %s (gone)", sep, name, old[name]; sep = ", " } }' \
        "$1" "$2"
}

library_packages() {  # the Debian packages of deploy/libraries.txt for a release, one line
    local column=2
    case "$1" in trixie|forky|duke|sid) column=3 ;; esac  # Debian 13 on: libmtdev1t64
    awk -v column="$column" '!/^#/ && NF >= 4 && $column != "-" { print $column }' \
        "$(dirname "${BASH_SOURCE[0]}")/libraries.txt" | sort -u | tr '\n' ' '
}
