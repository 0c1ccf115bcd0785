"""The system libraries the app's wheels load are all installed on a Pi: every library that
Kivy's, OpenCV's and numpy's ELF files need (their NEEDED entries, read with readelf) is inside
the wheels, part of every Debian system, or in deploy/libraries.txt, whose packages
deploy/install.sh installs for each release. The test machine's own packages play no part (it
has libGL from Mesa for Xvfb, which Raspberry Pi OS Lite lacks), so a library the wheels need
and the list misses fails here. `sudo tools/pi-check` checks the same with ldd on arm64."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIBRARIES = REPO / "deploy" / "libraries.txt"
INSTALL = REPO / "deploy" / "install.sh"
WHEELS = {"kivy": "kivy", "cv2": "opencv_python_headless", "numpy": "numpy"}  # module: wheel
# on every Debian and Raspberry Pi OS: glibc (libc6), the C++ runtime (libstdc++6, libgcc-s1)
# and zlib (zlib1g), all of which apt itself needs
EVERY_SYSTEM = ("libc.so.", "libm.so.", "libpthread.so.", "libdl.so.", "librt.so.", "ld-linux",
                "libstdc++.so.", "libgcc_s.so.", "libz.so.", "libutil.so.")


def listed() -> list[dict[str, str]]:
    """deploy/libraries.txt as rows: library, bookworm, trixie, how, by."""
    rows = []
    for line in LIBRARIES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            library, bookworm, trixie, how, by = line.split(maxsplit=4)
            rows.append({"library": library, "bookworm": bookworm, "trixie": trixie,
                         "how": how, "by": by})
    return rows


def elf_files() -> list[Path]:
    """Every shared object of the installed Kivy, OpenCV and numpy, their .libs folders too."""
    found = []
    for name, wheel in WHEELS.items():
        spec = importlib.util.find_spec(name)
        assert spec and spec.origin, f"{name} is not installed"
        package = Path(spec.origin).parent
        libs = [p for p in package.parent.iterdir()  # the wheel's own copies ("Kivy.libs")
                if p.name.lower().startswith(wheel) and p.name.endswith(".libs")]
        assert libs, f"no {wheel}*.libs beside {package}"
        for folder in (package, *libs):
            found += [p for p in folder.rglob("*.so*") if p.is_file()]
    return sorted(set(found))


def needed(path: Path) -> list[str]:
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.fail("readelf is not installed (binutils)", pytrace=False)
    out = subprocess.run([readelf, "-d", str(path)], capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def test_every_library_the_wheels_need_is_bundled_on_every_system_or_listed():
    files = elf_files()
    bundled = {path.name for path in files}
    rows = {row["library"]: row for row in listed()}
    wanted: dict[str, set[str]] = {}
    for path in files:
        for library in needed(path):
            if library not in bundled and not library.startswith(EVERY_SYSTEM):
                wanted.setdefault(library, set()).add(path.name)
    assert "libGL.so.1" in wanted  # Kivy's GL backend: what Raspberry Pi OS Lite lacked
    missing = {library: sorted(by) for library, by in wanted.items() if library not in rows}
    assert missing == {}, "add these to deploy/libraries.txt with their packages"
    for library, by in wanted.items():
        row = rows[library]
        if row["how"] == "unused":  # only by a part of a wheel the app never loads
            assert all(name.split(".")[0] in row["by"] for name in by), (library, by)
        else:
            assert row["how"] == "linked", (library, row["how"])


def test_the_libraries_opened_at_run_time_are_named_by_what_opens_them():
    """A "dlopen" row names a library that a wheel's code opens by name: SDL2 (inside Kivy)
    for KMS/DRM, Kivy's mtdev module."""
    contents = b"".join(path.read_bytes() for path in elf_files())
    mtdev = importlib.util.find_spec("kivy.lib.mtdev")
    assert mtdev and mtdev.origin
    contents += Path(mtdev.origin).read_bytes()
    opened = [row["library"] for row in listed() if row["how"] == "dlopen"]
    assert {"libEGL.so.1", "libgbm.so.1", "libdrm.so.2", "libmtdev.so.1"} <= set(opened)
    for library in opened:
        assert library.encode() in contents, library


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_the_install_puts_in_every_listed_package(tmp_path, release):
    out = subprocess.run([INSTALL, "--dry-run", "--release", release, "--user", "daemon",
                          "--prefix", tmp_path / "p", "--data", tmp_path / "d", "--config",
                          tmp_path / "c"], capture_output=True, text=True, check=True).stdout
    [line] = [line for line in out.splitlines() if "apt-get install" in line]
    packages = set(line.split("--no-install-recommends")[1].split())
    wanted = {row[release] for row in listed() if row[release] != "-"}
    assert wanted <= packages, wanted - packages
    # make run's route installs the same list: both read it through common.sh
    read = subprocess.run(["bash", "-c", f". deploy/common.sh; library_packages {release}"],
                          cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert set(read.split()) == wanted
    assert "library_packages" in (REPO / "deploy" / "system-packages.sh").read_text()
