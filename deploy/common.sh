# shellcheck shell=bash
# Helpers shared by deploy/install.sh and deploy/uninstall.sh (sourced, not run). They read
# DRY_RUN, MANIFEST, PLAYER, PREFIX and DATA from the script that sources them.

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

render() {  # a unit or desktop file from systemd/, for this user, prefix and data folder
    echo "    write $2 (User=$PLAYER, $PREFIX, PHOENIX_COMPANION_HOME=$DATA)"
    [ "$DRY_RUN" = yes ] && return 0
    sed -e "s#^User=pi\$#User=$PLAYER#" \
        -e "s#/home/pi/.local/share/phoenix-companion#$DATA#g" \
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
