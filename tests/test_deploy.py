"""deploy.sh and systemd/: the kiosk's install, checked on a copy of a system.

deploy.sh runs with ``--root DIR``: every path it touches is under DIR, files are written
there and system commands (apt-get, useradd, pip, systemctl, ...) are only printed as
``PLAN`` lines, so the plan and the files can be checked without root and without a Pi.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sysfs import PI4_HDMI_OFF, drm_tree

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy.sh"
SYSTEMD = REPO / "systemd"

UNIT = "/etc/systemd/system/splendor-companion.service"
EXPORT_UNIT = "/etc/systemd/system/splendor-companion-export@.service"
UDEV_RULE = "/etc/udev/rules.d/99-splendor-companion-usb.rules"
ENV_FILE = "/etc/default/splendor-companion"
DATA_DIR = "/var/lib/splendor-companion"
KIVY_CONFIG = f"{DATA_DIR}/kivy/config.ini"
PREFIX = "/opt/splendor-companion"
WANTS_LINK = "/etc/systemd/system/multi-user.target.wants/splendor-companion.service"
REQUEST_PATH_UNIT = "splendor-companion-export-request.path"
WEB_UNIT = "/etc/systemd/system/splendor-companion-web.service"
COMMAND = "/usr/local/bin/splendor-companion"

DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_CODENAME=bookworm\n'
RASPBIAN_32 = 'PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nID=raspbian\nID_LIKE=debian\n'
FEDORA = 'PRETTY_NAME="Fedora Linux 40"\nID=fedora\n'
GROUPS = ("video", "render", "input", "dialout", "gpio")
KIVY_PACKAGES = ("libsdl2-2.0-0", "libgl1-mesa-dri", "libegl-mesa0", "libgbm1", "libmtdev1")


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()

    @property
    def actions(self) -> list[str]:
        """The lines of what was done or would be done."""
        return [line for line in self.lines if line.startswith(("PLAN ", "DO "))]

    def has(self, line: str) -> bool:
        return line in self.lines


def put(path: Path, text: str, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def make_source(project: Path) -> Path:
    """A small stand-in for the project: deploy.sh only hashes and (really) pip-installs it."""
    put(project / "pyproject.toml", '[project]\nname = "splendor-companion"\nversion = "0"\n')
    put(project / "companion" / "__init__.py", "")
    return project


def make_root(system: Path) -> Path:
    """A fresh Raspberry Pi OS, as far as deploy.sh looks: os-release and the groups."""
    put(system / "etc" / "os-release", DEBIAN)
    put(
        system / "etc" / "group",
        "root:x:0:\n" + "".join(f"{g}:x:{40 + i}:\n" for i, g in enumerate(GROUPS)),
    )
    return system


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return make_source(tmp_path / "project")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_root(tmp_path / "root")


PYTHON = ("--python", sys.executable)


def deploy(root: Path, source: Path, *args: str) -> Run:
    result = subprocess.run(
        ["bash", str(DEPLOY), "--root", str(root), "--source", str(source), *PYTHON, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return Run(result.returncode, result.stdout, result.stderr)


def snapshot(root: Path) -> dict[str, object]:
    """Every file and folder under ``root``: its bytes and mode; a link (install_everything
    makes some that lead out of the root) by its target, not what it leads to."""
    state: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            state[name] = os.readlink(path)
        else:
            state[name] = (path.read_bytes() if path.is_file() else b"", path.stat().st_mode)
    return state


def text(root: Path, path: str) -> str:
    return (root / path.lstrip("/")).read_text()


def apt_packages(run: Run) -> list[str]:
    [line] = [line for line in run.lines if line.startswith("PLAN apt-get install -y ")]
    return line.removeprefix("PLAN apt-get install -y ").split()


def install_everything(root: Path, packages: list[str]) -> None:
    """Make the fake root look like a system where every system command already ran."""
    status = "".join(
        f"Package: {p}\nStatus: install ok installed\nArchitecture: arm64\n\n" for p in packages
    )
    put(root / "var/lib/dpkg/status", status)
    put(root / "etc/passwd", f"splendor:x:990:990::{DATA_DIR}:/usr/sbin/nologin\n")
    put(
        root / "etc/group",
        "root:x:0:\nsplendor:x:990:\n"
        + "".join(f"{g}:x:{40 + i}:pi,splendor\n" for i, g in enumerate(GROUPS)),
    )
    for name in ("python", "splendor-companion"):
        put(root / f"{PREFIX.lstrip('/')}/venv/bin/{name}", "#!/bin/sh\n", 0o755)
    link = root / WANTS_LINK.lstrip("/")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(UNIT)
    (link.parent / REQUEST_PATH_UNIT).symlink_to(f"/etc/systemd/system/{REQUEST_PATH_UNIT}")
    (link.parent / Path(WEB_UNIT).name).symlink_to(WEB_UNIT)
    # Kivy has run once: its own full file, with config_version.
    put(
        root / KIVY_CONFIG.lstrip("/"),
        "[kivy]\nconfig_version = 27\nlog_level = info\n\n[graphics]\nfullscreen = 0\n"
        "rotation = 0\nshow_cursor = 1\n\n[input]\nmouse = mouse\n%(name)s = probesysfs\n\n"
        "[splendor]\nlanguage = fr\n\n",
    )


# ---------------------------------------------------------------- runs shared by tests
# A run that several tests only read (its output, the files it wrote) is made once for the
# module. Its root is never changed: a test that goes on from it runs on a copy.


@dataclass
class Deployed:
    root: Path
    source: Path
    before: dict[str, object]  # snapshot(root) before the run
    run: Run


def deployed_once(
    factory: pytest.TempPathFactory, *args: str, prepare: Callable[[Path], object] | None = None
) -> Iterator[Deployed]:
    """deploy.sh ARGS on a fresh root (then changed by prepare, if given), for the module;
    afterwards, a check that no test changed that root."""
    base = factory.mktemp("shared")
    source = make_source(base / "project")
    root = make_root(base / "root")
    if prepare is not None:
        prepare(root)
    before = snapshot(root)
    run = deploy(root, source, *args)
    assert run.code == 0, run.err
    after = snapshot(root)
    yield Deployed(root, source, before, run)
    assert snapshot(root) == after, "a test changed a shared root: work on copy_root() of it"


def copy_root(deployed: Deployed, tmp_path: Path) -> Path:
    """A root of the test's own where the shared run has been: the next run goes there."""
    return Path(shutil.copytree(deployed.root, tmp_path / "root", symlinks=True))


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    """--dry-run on a fresh system."""
    yield from deployed_once(tmp_path_factory, "--dry-run")


@pytest.fixture(scope="module")
def first_install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    """The first install on a fresh system."""
    yield from deployed_once(tmp_path_factory)


@pytest.fixture(scope="module")
def over_kivys_own_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    """A run where every system command ran (but apt-get): the service user and its groups,
    the venv, the unit enabled, and Kivy's own full config.ini, written at its first start."""
    yield from deployed_once(tmp_path_factory, prepare=lambda root: install_everything(root, []))


@pytest.fixture(scope="module")
def on_installed_system(
    tmp_path_factory: pytest.TempPathFactory, dry_run: Deployed
) -> Iterator[Deployed]:
    """A run where every system command ran, apt-get too (the packages of the dry run)."""
    packages = apt_packages(dry_run.run)
    yield from deployed_once(
        tmp_path_factory, prepare=lambda root: install_everything(root, packages)
    )


# ---------------------------------------------------------------- the plan of a dry run


def test_dry_run_plans_the_whole_install_and_changes_nothing(dry_run: Deployed) -> None:
    run, source = dry_run.run, dry_run.source
    assert snapshot(dry_run.root) == dry_run.before
    assert not [line for line in run.lines if line.startswith("DO ")]

    assert run.has("PLAN apt-get update")
    packages = apt_packages(run)
    assert {"python3-venv", *KIVY_PACKAGES} <= set(packages)
    assert any(
        line.startswith("PLAN useradd --system") and line.endswith(" splendor")
        for line in run.lines
    )
    assert run.has("PLAN usermod -aG video,render,input,dialout,gpio splendor")
    assert run.has(f"PLAN {sys.executable} -m venv {PREFIX}/venv")
    assert run.has(f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}")
    assert any(
        line.startswith(f"PLAN {PREFIX}/venv/bin/python -m companion.engine.build")
        for line in run.lines
    )
    for path in (KIVY_CONFIG, ENV_FILE, UNIT, EXPORT_UNIT, UDEV_RULE):
        assert run.has(f"PLAN write {path}")
    assert run.has("PLAN systemctl daemon-reload")
    assert run.has("PLAN systemctl enable splendor-companion.service")
    assert run.has("PLAN systemctl restart splendor-companion.service")
    # The order matters: packages, user, venv, project, configuration, unit, start.
    order = [
        "PLAN apt-get install",
        "PLAN useradd",
        "PLAN usermod",
        f"PLAN {sys.executable} -m venv",
        f"PLAN {PREFIX}/venv/bin/python -m pip install",
        f"PLAN {PREFIX}/venv/bin/python -m companion.engine.build",
        f"PLAN write {KIVY_CONFIG}",
        f"PLAN write {UNIT}",
        "PLAN systemctl enable",
        "PLAN systemctl restart",
    ]
    where = [next(i for i, line in enumerate(run.lines) if line.startswith(o)) for o in order]
    assert where == sorted(where)


def test_dry_run_lists_the_checks_it_passed(dry_run: Deployed) -> None:
    run = dry_run.run
    assert any(line.startswith("CHECK system: Debian GNU/Linux 12") for line in run.lines)
    assert any(line.startswith("CHECK python: ") for line in run.lines)
    assert any(line.startswith("CHECK disk: ") for line in run.lines)


@pytest.mark.parametrize(
    ("machine", "arch"), [("armv7l", "armhf"), ("armv6l", "armhf"), ("aarch64", "armhf")]
)
def test_32_bit_raspberry_pi_os_is_refused_before_anything_is_done(
    root: Path, source: Path, tmp_path: Path, machine: str, arch: str
) -> None:
    # aarch64 with armhf: the 32-bit Raspberry Pi OS on a Pi 4's 64-bit kernel.
    put(root / "etc/os-release", RASPBIAN_32)
    fake = tmp_path / "bin"
    put(fake / "uname", f'#!/bin/sh\n[ "$1" = -m ] && echo {machine} || echo Linux\n', 0o755)
    put(fake / "dpkg", f"#!/bin/sh\necho {arch}\n", 0o755)
    before = snapshot(root)
    result = subprocess.run(
        ["bash", str(DEPLOY), "--root", str(root), "--source", str(source), *PYTHON],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"},
        timeout=60,
    )
    assert result.returncode == 3
    assert "32-bit ARM" in result.stderr and "Kivy 2.3" in result.stderr
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert not [line for line in result.stdout.splitlines() if line.startswith(("PLAN", "DO"))]
    assert snapshot(root) == before


def test_no_start_installs_and_enables_but_starts_and_reloads_nothing(
    root: Path, source: Path
) -> None:
    run = deploy(root, source, "--no-start")
    assert run.code == 0, run.err
    assert run.has("PLAN systemctl enable splendor-companion.service")
    assert run.has(f"PLAN systemctl enable {REQUEST_PATH_UNIT}")
    assert (root / UNIT.lstrip("/")).is_file() and (root / UDEV_RULE.lstrip("/")).is_file()
    live = ("restart", "start ", "daemon-reload", "udevadm", "--now")
    assert not [a for a in run.actions if any(word in a for word in live)], run.actions
    assert run.has("NOTE not run (--no-start): systemctl restart splendor-companion.service")
    gone = deploy(root, source, "--uninstall", "--no-start")
    assert gone.code == 0, gone.err
    assert gone.has("PLAN systemctl disable splendor-companion.service")
    assert not [a for a in gone.actions if any(word in a for word in live)], gone.actions


def test_groups_missing_on_the_system_are_left_out(root: Path, source: Path) -> None:
    put(root / "etc/group", "video:x:44:\ninput:x:105:\n")
    run = deploy(root, source)
    assert run.code == 0, run.err
    assert run.has("PLAN usermod -aG video,input splendor")
    assert any(line.startswith("NOTE no group render dialout gpio") for line in run.lines)
    assert "SupplementaryGroups=video input\n" in text(root, UNIT)


# ---------------------------------------------------------------- files, and running again


def test_root_run_writes_the_files_and_a_second_run_changes_none(
    first_install: Deployed, tmp_path: Path
) -> None:
    first = first_install.run
    assert first.code == 0, first.err
    for path in (KIVY_CONFIG, ENV_FILE, UNIT, EXPORT_UNIT, UDEV_RULE):
        assert first.has(f"DO write {path}")
        assert (first_install.root / path.lstrip("/")).is_file()
    helper = first_install.root / PREFIX.lstrip("/") / "bin/splendor-companion-usb-export"
    assert helper.stat().st_mode & stat.S_IXUSR
    root = copy_root(first_install, tmp_path)
    before = snapshot(root)

    second = deploy(root, first_install.source)
    assert second.code == 0, second.err
    assert snapshot(root) == before
    assert not [line for line in second.lines if line.startswith(("DO ", "PLAN write"))]
    for path in (KIVY_CONFIG, ENV_FILE, UNIT, EXPORT_UNIT, UDEV_RULE):
        assert second.has(f"UNCHANGED {path}")


@pytest.mark.parametrize("dry", [False, True])
def test_a_link_at_a_file_deploy_writes_is_refused_not_followed(
    root: Path, source: Path, dry: bool
) -> None:
    victim = root / "victim"
    put(victim, "[kivy]\nconfig_version = 27\n")
    config = root / KIVY_CONFIG.lstrip("/")
    config.parent.mkdir(parents=True)
    config.symlink_to(victim)
    run = deploy(root, source, *(["--dry-run"] if dry else []))
    assert run.code == 3
    assert f"{KIVY_CONFIG} is a link or not a file: remove it (nothing was written)" in run.err
    assert victim.read_text() == "[kivy]\nconfig_version = 27\n"
    assert config.is_symlink() and sorted(p.name for p in config.parent.iterdir()) == ["config.ini"]


def test_on_an_installed_system_a_second_run_does_nothing(
    on_installed_system: Deployed, tmp_path: Path
) -> None:
    first = on_installed_system.run
    assert first.code == 0, first.err
    assert not [line for line in first.actions if "apt-get" in line or "useradd" in line]
    assert first.has("PLAN systemctl restart splendor-companion.service")  # files were written

    second = deploy(copy_root(on_installed_system, tmp_path), on_installed_system.source)
    assert second.code == 0, second.err
    assert second.actions == []
    assert any(line.startswith("UNCHANGED apt packages") for line in second.lines)
    assert second.has("UNCHANGED user splendor")
    assert second.has("UNCHANGED splendor-companion.service enabled")


def test_a_changed_source_is_installed_again_and_the_app_restarted(
    root: Path, source: Path, dry_run: Deployed
) -> None:
    install_everything(root, apt_packages(dry_run.run))
    deploy(root, source)
    put(source / "companion" / "__init__.py", "VERSION = 2\n")
    run = deploy(root, source)
    assert run.actions == [
        f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}",
        f"PLAN {PREFIX}/venv/bin/python -m pip install 'kivy>=2.3.1' "
        "(only if the project does not bring it)",
        f"PLAN {PREFIX}/venv/bin/python -m companion.engine.build "
        "(the engine compiled; pure Python if it cannot be)",
        f"DO write {PREFIX}/.installed-source",
        "PLAN systemctl restart splendor-companion-web.service",  # the page runs it too
        "PLAN systemctl restart splendor-companion.service",
    ]


# ---------------------------------------------------------------- Kivy's configuration


def kivy_sections(config: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for line in config.splitlines():
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = []
        elif line.strip():
            sections[current].append(line)
    return sections


def test_kivy_input_is_mtdev_only_without_the_duplicate_providers(
    over_kivys_own_file: Deployed,
) -> None:
    assert over_kivys_own_file.run.code == 0
    config = text(over_kivys_own_file.root, KIVY_CONFIG)
    sections = kivy_sections(config)
    assert sections["input"] == ["%(name)s = probesysfs,provider=mtdev"]
    assert "mouse = mouse" not in config
    assert "hidinput" not in config
    # Everything else is kept: Kivy's own keys and the app's settings.
    assert sections["kivy"] == ["config_version = 27", "log_level = info"]
    assert sections["graphics"] == ["fullscreen = 0", "rotation = 0", "show_cursor = 1"]
    assert sections["splendor"] == ["language = fr"]


def test_the_first_run_lets_kivy_write_its_defaults_as_the_service_user(
    first_install: Deployed, over_kivys_own_file: Deployed
) -> None:
    [line] = [line for line in first_install.run.lines if "import kivy.config" in line]
    assert line.startswith(
        "PLAN runuser -u splendor -- env KIVY_HOME=/var/lib/splendor-companion/kivy"
    )
    # Later runs do not: Kivy's file has a config_version.
    assert not [line for line in over_kivys_own_file.run.lines if "import kivy.config" in line]


@pytest.mark.parametrize("rotation", ["90", "180", "270"])
def test_rotation_lands_in_kivy_graphics(root: Path, source: Path, rotation: str) -> None:
    install_everything(root, [])
    assert deploy(root, source, "--rotation", rotation).code == 0
    graphics = kivy_sections(text(root, KIVY_CONFIG))["graphics"]
    assert graphics == ["fullscreen = 0", f"rotation = {rotation}", "show_cursor = 1"]
    assert f"SPLENDOR_ROTATION={rotation}\n" in text(root, ENV_FILE)


def test_rotation_is_added_to_a_config_without_graphics(root: Path, source: Path) -> None:
    assert deploy(root, source, "--rotation", "180").code == 0
    sections = kivy_sections(text(root, KIVY_CONFIG))
    assert sections == {
        "graphics": ["rotation = 180"],
        "input": ["%(name)s = probesysfs,provider=mtdev"],
    }


@pytest.mark.parametrize(
    ("axes", "params"),
    [
        ("x", ",param=invert_x=1"),
        ("y", ",param=invert_y=1"),
        ("xy", ",param=invert_x=1,param=invert_y=1"),
    ],
)
def test_touch_invert_goes_to_the_mtdev_provider(
    root: Path, source: Path, axes: str, params: str
) -> None:
    assert deploy(root, source, "--touch-invert", axes).code == 0
    assert kivy_sections(text(root, KIVY_CONFIG))["input"] == [
        f"%(name)s = probesysfs,provider=mtdev{params}"
    ]


def test_settings_are_kept_by_the_next_run_until_changed(root: Path, source: Path) -> None:
    deploy(root, source, "--rotation", "270", "--rfid-port", "/dev/serial0")
    run = deploy(root, source)
    assert run.has(f"UNCHANGED {KIVY_CONFIG}")
    assert "rotation = 270" in text(root, KIVY_CONFIG)
    assert "SPLENDOR_RFID_PORT=/dev/serial0\n" in text(root, ENV_FILE)
    run = deploy(root, source, "--rfid-port", "none")
    assert run.has(f"DO write {ENV_FILE}")
    assert "SPLENDOR_RFID_PORT" not in text(root, ENV_FILE)


kivy_missing = importlib.util.find_spec("kivy") is None


@pytest.mark.skipif(kivy_missing, reason="Kivy is not installed")
def test_kivy_itself_reads_one_touch_provider_and_the_rotation(root: Path, source: Path) -> None:
    """Kivy's real default file, edited by deploy.sh, then read by Kivy's own loader."""
    kivy_home = root / KIVY_CONFIG.lstrip("/")
    kivy_home = kivy_home.parent
    kivy_home.mkdir(parents=True)
    env = {**os.environ, "KIVY_HOME": str(kivy_home), "KIVY_NO_ARGS": "1"}
    env |= {"KIVY_NO_FILELOG": "1", "KIVY_NO_CONSOLELOG": "1"}
    subprocess.run([sys.executable, "-c", "import kivy.config"], env=env, check=True)
    assert "mouse = mouse" in (kivy_home / "config.ini").read_text()  # Kivy's default

    assert deploy(root, source, "--rotation", "90").code == 0
    show = (
        "from kivy.config import Config; "
        "print(Config.items('input'), Config.get('graphics', 'rotation'))"
    )
    result = subprocess.run([sys.executable, "-c", show], env=env, capture_output=True, text=True)
    assert result.stdout.strip() == "[('%(name)s', 'probesysfs,provider=mtdev')] 90"

    # When Kivy (or the app) saves the file again, it is byte for byte what deploy.sh wrote,
    # so that the next run finds it unchanged.
    before = (kivy_home / "config.ini").read_text()
    save = "from kivy.config import Config; Config.write()"
    subprocess.run([sys.executable, "-c", save], env=env, check=True)
    assert (kivy_home / "config.ini").read_text() == before
    assert deploy(root, source).has(f"UNCHANGED {KIVY_CONFIG}")


# ---------------------------------------------------------------- the screen: --display


MTDEV = "%(name)s = probesysfs,provider=mtdev"
ADS7846 = "%(name)s = probesysfs,provider=hidinput,select_all=1,match=ADS7846"


def env_values(root: Path) -> dict[str, str]:
    lines = text(root, ENV_FILE).splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


@pytest.mark.parametrize(
    ("display", "rotation", "touch"),
    [
        ("7inch", "0", MTDEV),
        ("7inch-portrait", "90", MTDEV),  # 480x800: the app lays out in portrait
        ("touch2", "0", MTDEV),  # 720x1280, its own portrait
        ("touch2-landscape", "90", MTDEV),  # 1280x720
        ("hdmi", "0", MTDEV),
        ("spi35", "0", ADS7846),
    ],
)
def test_each_display_sets_its_rotation_and_touch_input(
    root: Path, source: Path, display: str, rotation: str, touch: str
) -> None:
    install_everything(root, [])
    run = deploy(root, source, "--display", display)
    assert run.code == 0, run.err
    sections = kivy_sections(text(root, KIVY_CONFIG))
    assert sections["graphics"] == ["fullscreen = 0", f"rotation = {rotation}", "show_cursor = 1"]
    assert sections["input"] == [touch]
    env = env_values(root)
    assert (env["SPLENDOR_DISPLAY"], env["SPLENDOR_ROTATION"]) == (display, rotation)
    assert (env["SPLENDOR_TOUCH_ROTATION"], env["SPLENDOR_TOUCH_INVERT"]) == ("0", "none")
    assert f"(display {display}, rotation {rotation}," in run.lines[0]


def test_options_given_with_a_display_win_over_its_own(root: Path, source: Path) -> None:
    run = deploy(
        root, source, "--display", "spi35", "--rotation", "180", "--touch-rotation", "90",
        "--touch-invert", "x",
    )  # fmt: skip
    assert run.code == 0, run.err
    sections = kivy_sections(text(root, KIVY_CONFIG))
    assert sections["graphics"] == ["rotation = 180"]
    assert sections["input"] == [f"{ADS7846},param=invert_x=1,param=rotation=90"]
    assert deploy(root, source, "--display", "touch2-landscape", "--rotation", "270").code == 0
    assert kivy_sections(text(root, KIVY_CONFIG))["graphics"] == ["rotation = 270"]


def test_a_display_named_again_brings_back_its_settings_and_the_next_run_keeps_them(
    root: Path, source: Path
) -> None:
    deploy(root, source, "--rotation", "180", "--touch-invert", "xy", "--touch-rotation", "270")
    assert deploy(root, source, "--display", "touch2").code == 0
    env = env_values(root)
    assert (env["SPLENDOR_ROTATION"], env["SPLENDOR_TOUCH_INVERT"]) == ("0", "none")
    assert env["SPLENDOR_TOUCH_ROTATION"] == "0"
    # One option later changes that one; the display (and its touch input) stays.
    assert deploy(root, source, "--display", "spi35").code == 0
    assert deploy(root, source, "--rotation", "180").code == 0
    env = env_values(root)
    assert (env["SPLENDOR_DISPLAY"], env["SPLENDOR_ROTATION"]) == ("spi35", "180")
    assert kivy_sections(text(root, KIVY_CONFIG))["input"] == [ADS7846]
    assert deploy(root, source).has(f"UNCHANGED {KIVY_CONFIG}")


@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_an_orientation_is_left_to_the_app_which_reads_the_panel(
    root: Path, source: Path, orientation: str
) -> None:
    install_everything(root, [])
    assert deploy(root, source, "--rotation", orientation).code == 0
    # Kivy starts unturned; the app turns it at start if the panel is the other shape.
    assert "rotation = 0" in kivy_sections(text(root, KIVY_CONFIG))["graphics"]
    assert env_values(root)["SPLENDOR_ROTATION"] == orientation


def test_touch_rotation_goes_to_the_touch_provider(root: Path, source: Path) -> None:
    assert deploy(root, source, "--touch-rotation", "90").code == 0
    assert kivy_sections(text(root, KIVY_CONFIG))["input"] == [f"{MTDEV},param=rotation=90"]


@pytest.mark.skipif(kivy_missing, reason="Kivy is not installed")
def test_kivy_itself_reads_the_spi_screens_touch_line(root: Path, source: Path) -> None:
    kivy_home = (root / KIVY_CONFIG.lstrip("/")).parent
    kivy_home.mkdir(parents=True)
    env = {**os.environ, "KIVY_HOME": str(kivy_home), "KIVY_NO_ARGS": "1"}
    env |= {"KIVY_NO_FILELOG": "1", "KIVY_NO_CONSOLELOG": "1"}
    subprocess.run([sys.executable, "-c", "import kivy.config"], env=env, check=True)
    assert deploy(root, source, "--display", "spi35", "--touch-rotation", "270").code == 0
    show = "from kivy.config import Config; print(Config.items('input'))"
    result = subprocess.run([sys.executable, "-c", show], env=env, capture_output=True, text=True)
    assert result.stdout.strip() == (
        "[('%(name)s', 'probesysfs,provider=hidinput,select_all=1,match=ADS7846,"
        "param=rotation=270')]"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([], "DSI-1 720x1280 (portrait): the app lays out in portrait, 720x1280"),
        (
            ["--display", "touch2-landscape"],
            "DSI-1 720x1280 (portrait): the app lays out in landscape, 1280x720, turned 90",
        ),
        (
            ["--rotation", "landscape"],
            "DSI-1 720x1280 (portrait): the app lays out in landscape, 1280x720, turned 90",
        ),
    ],
)
def test_the_screen_found_is_said_with_how_the_app_lays_out_on_it(
    root: Path, source: Path, args: list[str], said: str
) -> None:
    drm_tree(root, {**PI4_HDMI_OFF, "card2-DSI-1": ("connected", "720x1280\n")})
    run = deploy(root, source, "--dry-run", *args)
    assert run.code == 0, run.err
    assert [line for line in run.lines if line.startswith("NOTE the screen")] == [
        f"NOTE the screen: {said}"
    ]


def test_no_screen_connected_says_nothing_of_it(root: Path, source: Path) -> None:
    drm_tree(root, PI4_HDMI_OFF)
    run = deploy(root, source, "--dry-run")
    assert not [line for line in run.lines if line.startswith("NOTE the screen")]


def test_an_spi_screen_without_a_drm_driver_is_said(root: Path, source: Path) -> None:
    drm_tree(root, PI4_HDMI_OFF)
    (root / "sys/class/graphics/fb1").mkdir(parents=True)
    run = deploy(root, source, "--dry-run", "--display", "spi35")
    assert any("framebuffer driver only (/dev/fb1)" in line for line in run.lines)
    # With its DRM driver, the screen is a connector the app draws on.
    for folder in ("sys/class/drm", "sys/devices"):
        shutil.rmtree(root / folder)
    drm_tree(root, {**PI4_HDMI_OFF, "card2-SPI-1": ("connected", "480x320\n")})
    run = deploy(root, source, "--dry-run", "--display", "spi35")
    assert not any("framebuffer driver only" in line for line in run.lines)
    assert run.has(
        "NOTE the screen: SPI-1 480x320 (landscape): the app lays out in landscape, 480x320"
    )


@pytest.mark.parametrize(
    ("path", "content", "said"),
    [
        (
            "boot/firmware/config.txt",
            "dtoverlay=vc4-kms-v3d\ndtoverlay=vc4-kms-dsi-ili9881-7inch,swapxy,invx\n",
            "turns or mirrors the touches in the kernel (dtoverlay=vc4-kms-dsi-ili9881-7inch,"
            "swapxy,invx)",
        ),
        (
            "boot/firmware/config.txt",
            "dtoverlay=vc4-kms-v3d\nlcd_rotate=2\n",
            "/boot/firmware/config.txt has lcd_rotate=2: the KMS display driver does not use it",
        ),
        (
            "boot/firmware/cmdline.txt",
            "console=tty1 root=PARTUUID=1234-02 rootwait video=DSI-1:720x1280@60,rotate=90\n",
            "/boot/firmware/cmdline.txt turns the screen (video=DSI-1:720x1280@60,rotate=90)",
        ),
        (
            "boot/firmware/cmdline.txt",
            "console=tty1 video=DSI-1:panel_orientation=upside_down rootwait\n",
            "(video=DSI-1:panel_orientation=upside_down)",
        ),
    ],
)
def test_turns_made_by_the_kernel_or_firmware_are_said(
    root: Path, source: Path, path: str, content: str, said: str
) -> None:
    put(root / path, content)
    run = deploy(root, source, "--dry-run")
    assert run.code == 0, run.err
    assert any(said in line for line in run.lines if line.startswith("NOTE ")), run.out


def test_a_plain_boot_configuration_says_no_turn(root: Path, source: Path) -> None:
    # The touch calibration of an SPI screen's own overlay is its business.
    put(
        root / "boot/firmware/config.txt",
        "dtoverlay=vc4-kms-v3d\ndisplay_auto_detect=1\n"
        "dtoverlay=ads7846,cs=1,penirq=25,swapxy=1,xmin=200,xmax=3900\n",
    )
    put(root / "boot/firmware/cmdline.txt", "console=tty1 root=PARTUUID=1234-02 rootwait\n")
    run = deploy(root, source, "--dry-run")
    assert not [line for line in run.lines if line.startswith("NOTE ") and "turn" in line]


# ---------------------------------------------------------------- the environment file and units


def test_environment_file_has_what_the_app_and_sdl_need(root: Path, source: Path) -> None:
    assert deploy(root, source, "--rfid-port", "/dev/ttyUSB0", "--rfid-reader", "lines").code == 0
    env = dict(
        line.split("=", 1) for line in text(root, ENV_FILE).splitlines() if not line.startswith("#")
    )
    assert env["SPLENDOR_RFID_PORT"] == "/dev/ttyUSB0"
    assert env["SPLENDOR_RFID_READER"] == "lines"
    assert env["SPLENDOR_DATA_DIR"] == DATA_DIR
    assert env["KIVY_HOME"] == f"{DATA_DIR}/kivy"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_WINDOW"] == "sdl2"
    # Without it, an app that turns Kivy's console log off would leave nothing in the
    # journal, not even a traceback (Kivy sends stderr to its own logger).
    assert env["KIVY_LOG_MODE"] == "PYTHON"


def test_unit_runs_the_app_full_screen_as_the_service_user(root: Path, source: Path) -> None:
    assert deploy(root, source, "--user", "kiosk", "--prefix", "/srv/splendor").code == 0
    unit = text(root, UNIT)
    assert not re.search(r"@[A-Z]+@", unit)
    lines = set(unit.splitlines())
    assert {
        "User=kiosk",
        "SupplementaryGroups=video render input dialout gpio",
        "EnvironmentFile=/etc/default/splendor-companion",
        "ExecStart=/srv/splendor/venv/bin/splendor-companion --fullscreen",
        "Restart=always",  # a clean exit too: never a black tty1
        "StandardOutput=journal",
        "Conflicts=getty@tty1.service",
        "WantedBy=multi-user.target",
    } <= lines
    unit_section = unit.split("[Service]")[0]
    assert "StartLimitIntervalSec=" in unit_section
    assert "StartLimitBurst=" in unit_section


def test_usb_export_hook(first_install: Deployed) -> None:
    root = first_install.root
    rule = text(root, UDEV_RULE)
    assert 'ENV{SYSTEMD_WANTS}+="splendor-companion-export@%k.service"' in rule
    assert 'ENV{ID_FS_TYPE}=="vfat|exfat"' in rule
    export = text(root, EXPORT_UNIT)
    assert f"ExecStart={PREFIX}/bin/splendor-companion-usb-export /dev/%I" in export
    helper = (SYSTEMD / "splendor-companion-usb-export").read_text()
    assert 'export --all --to "$mountpoint/splendor-games"' in helper


def test_no_usb_export_removes_the_hook(first_install: Deployed, tmp_path: Path) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    run = deploy(root, source, "--no-usb-export")
    assert run.code == 0, run.err
    assert run.has(f"DO remove {UDEV_RULE}")
    assert not (root / UDEV_RULE.lstrip("/")).exists()
    assert not (root / EXPORT_UNIT.lstrip("/")).exists()
    assert deploy(root, source).has(f"UNCHANGED {UDEV_RULE} (not there)")  # kept off


# ---------------------------------------------------------------- uninstall


def test_uninstall_removes_the_install_and_keeps_the_games(
    first_install: Deployed, tmp_path: Path
) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    games = put(root / DATA_DIR.lstrip("/") / "games.sqlite3", "the games")
    dry = deploy(root, source, "--uninstall", "--dry-run")
    assert dry.code == 0, dry.err
    assert dry.has("PLAN systemctl disable --now splendor-companion.service")
    for path in (UNIT, EXPORT_UNIT, UDEV_RULE, ENV_FILE, f"{DATA_DIR}/kivy"):
        assert dry.has(f"PLAN remove {path}")
    assert not [line for line in dry.actions if line == f"PLAN remove {DATA_DIR}"]
    assert not [line for line in dry.actions if "userdel" in line]

    run = deploy(root, source, "--uninstall")
    assert run.code == 0, run.err
    assert games.read_text() == "the games"
    for path in (UNIT, EXPORT_UNIT, UDEV_RULE, ENV_FILE, PREFIX):
        assert not (root / path.lstrip("/")).exists()
    assert deploy(root, source, "--uninstall").actions == []  # nothing left to do


def test_uninstall_purge_data_deletes_the_games_and_the_user(
    over_kivys_own_file: Deployed, tmp_path: Path
) -> None:
    root, source = copy_root(over_kivys_own_file, tmp_path), over_kivys_own_file.source
    put(root / DATA_DIR.lstrip("/") / "games.sqlite3", "the games")
    run = deploy(root, source, "--uninstall", "--purge-data")
    assert run.code == 0, run.err
    assert run.has(f"DO remove {DATA_DIR}")
    assert run.has("PLAN userdel splendor")
    assert not (root / DATA_DIR.lstrip("/")).exists()


def test_uninstall_gives_back_the_groups_of_your_own_user(root: Path, source: Path) -> None:
    put(root / "etc/passwd", "pi:x:1000:1000::/home/pi:/bin/bash\n")
    put(root / "etc/group", "pi:x:1000:\nvideo:x:44:pi\ninput:x:105:pi\ngpio:x:997:\n")
    run = deploy(root, source, "--user", "pi")
    assert run.has("UNCHANGED user pi")
    assert run.has("PLAN usermod -aG gpio pi")
    assert "SPLENDOR_GROUPS_ADDED=gpio\n" in text(root, ENV_FILE)
    put(root / "etc/group", "pi:x:1000:\nvideo:x:44:pi\ninput:x:105:pi\ngpio:x:997:pi\n")
    run = deploy(root, source, "--uninstall", "--purge-data")
    assert run.code == 0, run.err
    assert [line for line in run.actions if "pi" in line.split()] == ["PLAN gpasswd -d pi gpio"]


def test_uninstall_keeps_a_prefix_that_holds_other_things(
    first_install: Deployed, tmp_path: Path
) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    mine = put(root / PREFIX.lstrip("/") / "notes.txt", "mine")
    assert deploy(root, source, "--uninstall").code == 0
    assert mine.read_text() == "mine"


# ---------------------------------------------------------------- checks and options


def test_a_non_debian_system_stops_before_any_change(root: Path, source: Path) -> None:
    put(root / "etc/os-release", FEDORA)
    before = snapshot(root)
    run = deploy(root, source)
    assert run.code == 3
    assert "Fedora Linux 40, not a Debian-like system" in run.err
    assert run.actions == []
    assert snapshot(root) == before


def test_a_system_without_os_release_stops(root: Path, source: Path) -> None:
    (root / "etc/os-release").unlink()
    run = deploy(root, source, "--dry-run")
    assert run.code == 3
    assert "cannot tell which system this is" in run.err


def test_an_old_python_stops(root: Path, source: Path, tmp_path: Path) -> None:
    old = put(tmp_path / "python3.9", "#!/bin/sh\necho 3.9\n", 0o755)
    run = deploy(root, source, "--python", str(old))
    assert run.code == 3
    assert "Python 3.11 or newer is needed" in run.err
    assert run.actions == []


def test_too_little_disk_stops(root: Path, source: Path) -> None:
    run = deploy(root, source, "--min-free-mb", "999999999")
    assert run.code == 3
    assert "not enough free disk at /opt/splendor-companion" in run.err
    assert run.actions == []


def test_a_folder_that_is_not_the_project_stops(root: Path, tmp_path: Path) -> None:
    run = deploy(root, tmp_path)
    assert run.code == 3
    assert "has no pyproject.toml" in run.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rotation", "45"], "--rotation: 0, 90, 180, 270, landscape or portrait"),
        (["--rotation", "sideways"], "--rotation: 0, 90, 180, 270, landscape or portrait"),
        (["--touch-rotation", "portrait"], "--touch-rotation: 0, 90, 180 or 270"),
        (["--display", "7-inch"], "--display: 7inch, 7inch-portrait, touch2, touch2-landscape"),
        (["--display"], "--display needs a value"),
        (["--touch-invert", "z"], "--touch-invert: none, x, y or xy"),
        (["--user", "Bad User"], "is not a valid user name"),
        (["--user", "root"], "must not run as root"),
        (["--prefix", "relative/path"], "must be an absolute path"),
        (["--prefix", "/usr"], "is a system folder"),
        (["--rfid-port", "COM3"], "--rfid-port: a device like /dev/ttyUSB0"),
        (["--rfid-reader", "nfc"], "--rfid-reader: rdm6300, lines, pn532, keyboard or none"),
        (["--prefix", "/./etc"], "'/etc' is a system folder"),
        (["--prefix", "/etc//"], "'/etc' is a system folder"),
        (["--prefix", "///"], "'/' is a system folder"),
        (["--prefix", "/usr/./local/"], "'/usr/local' is a system folder"),
        (["--prefix", "/opt/../etc"], "must be an absolute path"),
        (["--rfid-port", "/dev/../etc/shadow"], "/etc/shadow is not under /dev"),
        (["--rfid-port", "/dev/./../root/x"], "/root/x is not under /dev"),
        (["--rfid-port", "/dev/"], "is not under /dev"),
        (["--rfid-baud", "fast"], "--rfid-baud: a speed like 9600 or 115200"),
        (["--purge-data"], "--purge-data goes with --uninstall"),
        (["--rotation"], "--rotation needs a value"),
        (["--frobnicate"], "unknown option: --frobnicate"),
    ],
)
def test_wrong_options_are_refused(root: Path, source: Path, args: list[str], message: str) -> None:
    run = deploy(root, source, *args)
    assert run.code == 2
    assert message in run.err
    assert run.actions == []


def test_help() -> None:
    result = subprocess.run(["bash", str(DEPLOY), "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for option in ("--user", "--prefix", "--rotation", "--rfid-port", "--dry-run", "--uninstall"):
        assert option in result.stdout
    for option in ("--display", "--touch-rotation", "touch2-landscape", "spi35"):
        assert option in result.stdout


# ---------------------------------------------------------------- linters


def test_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    scripts = [DEPLOY, REPO / "setup.sh", REPO / "tools" / "pi-check"]
    scripts += [SYSTEMD / "splendor-companion-usb-export"]
    result = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_systemd_analyze_verify(tmp_path_factory: pytest.TempPathFactory, source: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    # verify checks that ExecStart= exists: a real prefix holding stand-in executables.
    prefix = tmp_path_factory.mktemp("prefix")
    for name in ("venv/bin/splendor-companion", "bin/splendor-companion-usb-export"):
        put(prefix / name, "#!/bin/sh\n", 0o755)
    root = tmp_path_factory.mktemp("root")
    put(root / "etc/os-release", DEBIAN)
    run = deploy(root, source, "--prefix", str(prefix))
    assert run.code == 0, run.err
    units = root / "etc/systemd/system"
    # A template is verified through an instance, as udev starts it.
    instance = units / "splendor-companion-export@sda1.service"
    shutil.copy(units / "splendor-companion-export@.service", instance)
    request = units / "splendor-companion-export-request.service"
    for unit in (
        units / "splendor-companion.service",
        units / "splendor-companion-web.service",
        instance,
        request,
        units / REQUEST_PATH_UNIT,
    ):
        result = subprocess.run(
            [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True
        )
        assert result.returncode == 0, f"{unit.name}: {result.stdout}{result.stderr}"
        assert "splendor" not in result.stderr, result.stderr


# ------------------------------------------------- paths, readers and the serial port


def test_paths_are_normalised_before_they_are_used(root: Path, source: Path) -> None:
    run = deploy(root, source, "--prefix", "/srv//splendor/./", "--rfid-port", "/dev//ttyUSB0")
    assert run.code == 0, run.err
    env = text(root, ENV_FILE)
    assert "SPLENDOR_PREFIX=/srv/splendor\n" in env
    assert "SPLENDOR_RFID_PORT=/dev/ttyUSB0\n" in env


def test_a_prefix_that_is_a_symlink_to_a_system_folder_is_refused(root: Path, source: Path) -> None:
    (root / "srv").mkdir()
    (root / "srv" / "app").symlink_to("/etc")
    run = deploy(root, source, "--prefix", "/srv/app")
    assert run.code == 2
    assert "leads to /etc, a system folder" in run.err


def test_every_reader_kind_of_the_registry_is_accepted_and_documented(
    root: Path, source: Path
) -> None:
    from hardware.readers import NAMES

    help_text = subprocess.run(
        ["bash", str(DEPLOY), "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name in NAMES:
        assert name in help_text
        run = deploy(root, source, "--dry-run", "--rfid-reader", name)
        assert run.code == 0, run.err


def test_the_reader_speed_reaches_the_environment_and_is_kept(root: Path, source: Path) -> None:
    assert deploy(root, source, "--rfid-reader", "pn532", "--rfid-baud", "57600").code == 0
    assert "SPLENDOR_RFID_BAUD=57600" in text(root, ENV_FILE)
    assert deploy(root, source).code == 0
    assert "SPLENDOR_RFID_BAUD=57600" in text(root, ENV_FILE)
    assert deploy(root, source, "--rfid-baud", "default").code == 0
    assert "SPLENDOR_RFID_BAUD" not in text(root, ENV_FILE)


@pytest.mark.parametrize(
    ("model", "port"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0"),
        ("Raspberry Pi 4 Model B Rev 1.4", "/dev/serial0"),
    ],
)
def test_uart_is_the_gpio_serial_port_of_the_board(
    root: Path, source: Path, model: str, port: str
) -> None:
    put(root / "proc/device-tree/model", model + "\0")
    assert deploy(root, source, "--rfid-port", "uart").code == 0
    assert f"SPLENDOR_RFID_PORT={port}\n" in text(root, ENV_FILE)


def test_a_pi_5_told_serial0_is_sent_to_ttyama0(root: Path, source: Path) -> None:
    put(root / "proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\0")
    run = deploy(root, source, "--rfid-port", "/dev/serial0")
    assert run.code == 0, run.err
    assert any(
        line.startswith("NOTE on a Pi 5, /dev/serial0 is the 3-pin debug connector")
        and "/dev/ttyAMA0" in line
        for line in run.lines
    )


@pytest.mark.parametrize(
    ("model", "console", "port", "config"),
    [
        ("Raspberry Pi 4 Model B", "serial0", "/dev/serial0", ""),
        ("Raspberry Pi 4 Model B", "serial0", "uart", ""),
        ("Raspberry Pi 5 Model B", "serial0", "uart", "dtparam=uart0_console\n"),
        ("Raspberry Pi 4 Model B", "ttyS0", "/dev/ttyS0", ""),
    ],
)
def test_a_serial_console_on_the_readers_port_is_said_with_how_to_turn_it_off(
    root: Path, source: Path, model: str, console: str, port: str, config: str
) -> None:
    put(root / "proc/device-tree/model", model + "\0")
    put(root / "boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\n" + config)
    put(
        root / "boot/firmware/cmdline.txt",
        f"console={console},115200 console=tty1 root=PARTUUID=1234-02 rootwait\n",
    )
    run = deploy(root, source, "--rfid-port", port)
    assert run.code == 0, run.err
    [note] = [line for line in run.lines if "serial console" in line]
    assert f"console={console} in /boot/firmware/cmdline.txt" in note
    assert "raspi-config nonint do_serial_cons 1" in note
    quiet = deploy(root, source, "--rfid-port", "/dev/ttyUSB0")
    assert not [line for line in quiet.lines if "serial console" in line]


def test_a_pi_5_console_on_its_debug_connector_leaves_the_gpio_uart_alone(
    root: Path, source: Path
) -> None:
    put(root / "proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\0")
    put(root / "boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\n")
    put(root / "boot/firmware/cmdline.txt", "console=serial0,115200 console=tty1 rootwait\n")
    run = deploy(root, source, "--rfid-port", "uart")
    assert run.code == 0, run.err
    assert not [line for line in run.lines if "serial console" in line]


# ---------------------------------------------------------------- the kiosk's command


def test_the_command_on_path_runs_as_the_kiosk_user_on_its_data(root: Path, source: Path) -> None:
    import getpass
    import tempfile

    me = getpass.getuser()
    user = "nobody" if me == "root" else me  # as root: runuser to another user, for real
    base = Path(tempfile.mkdtemp(prefix="splendor-command-"))
    try:
        base.chmod(0o777)
        seen = base / "seen"
        stub = put(
            base / "prefix/venv/bin/splendor-companion",
            f'#!/bin/sh\necho "$(id -un) $SPLENDOR_DATA_DIR $*" > {seen}\n',
            0o755,
        )
        for folder in stub.parents:
            if folder == base:
                break
            folder.chmod(0o755)
        run = deploy(root, source, "--user", user, "--prefix", str(base / "prefix"))
        assert run.code == 0, run.err
        command = root / COMMAND.lstrip("/")
        assert not re.search(r"@[A-Z_]+@", command.read_text())
        subprocess.run([str(command), "rfid", "enroll", "--level", "1"], check=True, timeout=60)
        assert seen.read_text() == f"{user} {DATA_DIR} rfid enroll --level 1\n"
    finally:
        shutil.rmtree(base)


def test_uninstall_removes_the_command_and_the_request_units(
    first_install: Deployed, tmp_path: Path
) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    assert (root / COMMAND.lstrip("/")).exists()
    run = deploy(root, source, "--uninstall")
    assert run.code == 0, run.err
    assert not (root / COMMAND.lstrip("/")).exists()
    assert not (root / "etc/systemd/system" / REQUEST_PATH_UNIT).exists()
    assert run.has(f"PLAN systemctl disable --now {REQUEST_PATH_UNIT}")


# ---------------------------------------------------------------- the unit's sandbox


@pytest.mark.parametrize("which", ["app", "web"])
def test_systemd_analyze_security_scores_the_unit_under_5(
    which: str, first_install: Deployed
) -> None:
    """The kiosk's app unit and its web page's unit, each sandboxed (the app's with its
    groups, as on a Pi)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    unit = first_install.root / {"app": UNIT, "web": WEB_UNIT}[which].lstrip("/")
    result = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) < 5.0, result.stdout


@pytest.fixture
def request_folder() -> Iterator[Path]:
    """A data folder anyone may write, as the app's is, for the USB export helper run as
    root (it mounts the stick); removed afterwards."""
    import getpass
    import tempfile

    if getpass.getuser() != "root" or shutil.which("runuser") is None:
        pytest.skip("the helper runs as root (it mounts the stick)")
    data = Path(tempfile.mkdtemp(prefix="splendor-request-"))
    data.chmod(0o777)
    yield data
    shutil.rmtree(data)


def answer_the_request(data: Path) -> None:
    """The helper run as systemd runs it on the app's request (for the user ``nobody``,
    no stick plugged in); it must end well."""
    env = {
        **os.environ,
        "SPLENDOR_USER": "nobody",
        "SPLENDOR_PREFIX": "/nonexistent",
        "SPLENDOR_DATA_DIR": str(data),
    }
    helper = SYSTEMD / "splendor-companion-usb-export"
    result = subprocess.run(
        ["bash", str(helper), "--request"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_export_asked_without_a_stick_says_so_to_the_app(request_folder: Path) -> None:
    data = request_folder
    (data / "usb-export.request").write_text("")
    answer_the_request(data)
    status = (data / "usb-export.status").read_text().splitlines()
    assert "state=no-stick" in status
    assert (data / "usb-export.status").owner() == "nobody"  # never root's, in its folder
    assert not (data / "usb-export.request").exists()


def test_the_helpers_status_is_never_written_through_a_link(request_folder: Path) -> None:
    data = request_folder
    victim = data / "settings.ini"
    victim.write_text("[companion]\nlanguage = fr\n")
    shutil.chown(victim, "nobody")
    # A link at the old temporary name, and one at the status's own name.
    (data / "usb-export.status.tmp").symlink_to(victim)
    (data / "usb-export.status").symlink_to(victim)
    answer_the_request(data)
    assert victim.read_text() == "[companion]\nlanguage = fr\n"
    status = data / "usb-export.status"
    assert not status.is_symlink() and "state=no-stick" in status.read_text().splitlines()
    assert sorted(p.name for p in data.iterdir()) == [
        "settings.ini",
        "usb-export.status",
        "usb-export.status.tmp",
    ]


# ---------------------------------------------------------------- the web page


def test_the_web_page_is_served_by_its_own_unit_by_default(root: Path, source: Path) -> None:
    run = deploy(root, source, "--user", "kiosk")
    assert run.code == 0, run.err
    unit = text(root, WEB_UNIT)
    assert not re.search(r"@[A-Z]+@", unit)
    lines = set(unit.splitlines())
    assert {
        "User=kiosk",
        "ExecStart=/opt/splendor-companion/venv/bin/splendor-companion serve --port "
        "${SPLENDOR_WEB_PORT} $SPLENDOR_WEB_OPTIONS",
        "LimitNOFILE=2048",
        f"ReadOnlyPaths={DATA_DIR}",
        "ProtectSystem=strict",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "EnvironmentFile=/etc/default/splendor-companion",
        "WantedBy=multi-user.target",
    } <= lines
    assert not any(line.startswith("ReadWritePaths") for line in lines)
    env = text(root, ENV_FILE).splitlines()
    assert "SPLENDOR_WEB=yes" in env and "SPLENDOR_WEB_PORT=8080" in env
    assert run.has("PLAN systemctl enable --now splendor-companion-web.service")


@pytest.mark.parametrize("option", ["--no-web", "--uninstall"])
def test_no_web_and_uninstall_remove_the_web_page(
    first_install: Deployed, tmp_path: Path, option: str
) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    run = deploy(root, source, option)
    assert run.code == 0, run.err
    assert run.has("PLAN systemctl disable --now splendor-companion-web.service")
    assert not (root / WEB_UNIT.lstrip("/")).exists()


def test_after_no_web_the_next_run_keeps_the_page_off_until_web(
    first_install: Deployed, tmp_path: Path
) -> None:
    root, source = copy_root(first_install, tmp_path), first_install.source
    assert deploy(root, source, "--no-web").code == 0
    assert "SPLENDOR_WEB=no" in text(root, ENV_FILE).splitlines()
    again = deploy(root, source)
    assert not (root / WEB_UNIT.lstrip("/")).exists()  # kept off
    assert not again.has("PLAN systemctl enable --now splendor-companion-web.service")
    assert deploy(root, source, "--web").code == 0
    assert (root / WEB_UNIT.lstrip("/")).exists()


def test_a_run_says_what_it_installs_once_and_a_machine_without_a_board_model_writes_no_error(
    root: Path, source: Path
) -> None:
    """A serial port on a machine with no /proc/device-tree (a PC, a container): the
    board's model is not there to read, which is no error to print."""
    run = deploy(root, source, "--rfid-port", "/dev/serial0")
    assert run.code == 0, run.err
    assert sum(line.startswith("deploy.sh: install ") for line in run.lines) == 1
    assert "web page" in next(line for line in run.lines if line.startswith("deploy.sh: install "))
    assert "No such file" not in run.err, run.err


# ---------------------------------------------------------------- a club's kiosk


def test_club_installs_the_club_s_parts_and_the_next_runs_keep_them_until_no_club(
    on_installed_system: Deployed, tmp_path: Path
) -> None:
    """--club: the project installed again with its [club] extra (psycopg, openskill:
    docs/club.md), kept by the runs after, and --no-club installs it without again."""
    root, source = copy_root(on_installed_system, tmp_path), on_installed_system.source
    assert "SPLENDOR_CLUB=no" in text(root, ENV_FILE).splitlines()  # not asked: none
    assert on_installed_system.run.has(
        f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}"
    )

    unit = text(root, UNIT).splitlines()
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK" in unit and "IPAddressDeny=any" in unit

    club = deploy(root, source, "--club")
    assert club.code == 0, club.err
    assert club.has(f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}[club]")
    assert "SPLENDOR_CLUB=yes" in text(root, ENV_FILE).splitlines()
    # The app reaches the club's server: its unit lets it out on the network.
    unit = text(root, UNIT).splitlines()
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6" in unit
    assert "IPAddressDeny=" in unit and "IPAddressDeny=any" not in unit
    assert club.has("PLAN systemctl restart splendor-companion.service")
    assert "club yes" in next(line for line in club.lines if line.startswith("deploy.sh: install"))

    again = deploy(root, source)  # the source unchanged, the club's parts kept
    assert again.code == 0, again.err
    assert again.has(f"UNCHANGED project in {PREFIX}/venv (same source)")
    assert "SPLENDOR_CLUB=yes" in text(root, ENV_FILE).splitlines()

    put(source / "companion" / "__init__.py", "VERSION = 3\n")  # an update: still a club's
    updated = deploy(root, source)
    assert updated.has(f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}[club]")

    off = deploy(root, source, "--no-club")
    assert off.code == 0, off.err
    assert off.has(f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}")
    assert "SPLENDOR_CLUB=no" in text(root, ENV_FILE).splitlines()
    assert "IPAddressDeny=any" in text(root, UNIT).splitlines()


def test_the_dry_run_of_club_plans_the_club_s_parts_and_changes_nothing(
    root: Path, source: Path
) -> None:
    before = snapshot(root)
    run = deploy(root, source, "--club", "--dry-run")
    assert run.code == 0, run.err
    assert run.has(f"PLAN {PREFIX}/venv/bin/python -m pip install --upgrade {source}[club]")
    assert snapshot(root) == before
    assert "--club" in deploy(root, source, "--help").out
