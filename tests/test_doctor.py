"""``splendor-companion doctor``: each of the Pi's devices a line, ok or what to do, on
folders laid out as ``/dev``, ``/sys`` and ``/proc`` are on a Pi, and a real journal."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from journal import SETUP, play_random

from companion import doctor as core
from companion.i18n import set_language
from companion.journal.session import Session
from companion.journal.store import Store
from hardware import doctor

# A Pi's 7-inch touchscreen (multitouch), its keyboard, and an SPI screen's ADS7846
# (x and y only), as /sys/class/input shows them: axes as the kernel's hexadecimal words.
MULTITOUCH_AXES = "661800000000003"  # ABS_X, ABS_Y, ABS_MT_SLOT, _POSITION_X/Y, _TRACKING_ID
SINGLE_AXES = "1000003"  # ABS_X, ABS_Y, ABS_PRESSURE


def input_device(root: Path, event: str, name: str, axes: str) -> None:
    device = root / "sys/class/input" / event / "device"
    (device / "capabilities").mkdir(parents=True)
    (device / "name").write_text(name + "\n")
    (device / "capabilities" / "abs").write_text(axes + "\n")
    (root / "dev/input").mkdir(parents=True, exist_ok=True)
    (root / "dev/input" / event).write_text("")


def a_pi(root: Path) -> Path:
    """A Pi with everything in place: a KMS card, the touchscreen, the GPIO chip."""
    (root / "dev/dri").mkdir(parents=True)
    (root / "dev/dri/card1").write_text("")
    (root / "dev/gpiochip0").write_text("")
    input_device(root, "event0", "gpio_keys", "0")
    input_device(root, "event1", "10-0038 generic ft5x06 (79)", MULTITOUCH_AXES)
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    (root / "proc/cmdline").write_text("console=tty1 root=PARTUUID=1-02 rootwait\n")
    return root


def journal_with_a_game(database: Path) -> Path:
    with Store(database) as store:
        play_random(Session.start(store, SETUP), 30)
    return database


def texts(found: list[core.Finding]) -> dict[str, core.Finding]:
    return {f.text.split(":", 1)[0]: f for f in found}


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_a_pi_with_everything_in_place_is_all_ok(tmp_path: Path) -> None:
    root = a_pi(tmp_path / "root")
    found = doctor.findings({}, tmp_path / "data/games.sqlite3", root, web=lambda: None)
    assert [f.ok for f in found] == [True] * 7, [f.text for f in found]
    by = texts(found)
    assert by["machine"].text == "machine: Raspberry Pi 4 Model B Rev 1.4"
    assert "deploy.sh installs it" in by["web page"].text  # said, though not installed
    assert str(root / "dev/dri/card1") in by["display"].text and "kmsdrm" in by["display"].text
    assert "ft5x06" in by["touch"].text and "multitouch" in by["touch"].text
    assert "no games yet" in by["journal"].text
    lines, code = core.report(found)
    assert code == 0 and lines[-1] == "everything the app needs is in place"
    assert all(line.startswith("ok   ") for line in lines[:-1])


def test_a_lite_image_without_kms_says_to_add_the_overlay(tmp_path: Path) -> None:
    root = a_pi(tmp_path / "root")
    (root / "dev/dri/card1").unlink()
    finding = core.display(root / "dev", {}, {})
    assert not finding.ok and "dtoverlay=vc4-kms-v3d" in finding.text
    lines, code = core.report([finding])
    assert (
        code == 1 and lines[0].startswith("FIX  display:") and lines[-1] == "1 thing to fix (above)"
    )


def test_a_kiosk_told_another_sdl_driver_is_told_kmsdrm(tmp_path: Path) -> None:
    root = a_pi(tmp_path / "root")
    settings = tmp_path / "splendor-companion"
    settings.write_text("SDL_VIDEODRIVER=kmsdrm\n")
    (tmp_path / "splendor-companion.local").write_text("SDL_VIDEODRIVER=x11\n")  # wins
    finding = core.display(root / "dev", {}, core.kiosk_settings(settings))
    assert not finding.ok and "SDL_VIDEODRIVER is x11" in finding.text
    assert core.display(root / "dev", {"DISPLAY": ":0"}, {}).ok  # a desktop draws it


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens any file")
def test_devices_this_user_may_not_open_name_the_group(tmp_path: Path) -> None:
    root = a_pi(tmp_path / "root")
    for device in ("dev/dri/card1", "dev/gpiochip0", "dev/input/event1"):
        (root / device).chmod(0)
    assert "video and render groups" in core.display(root / "dev", {}, {}).text
    assert "gpio group" in core.gpio(root / "dev").text
    assert "input group" in doctor.touch(root / "sys/class/input", root / "dev/input").text


def test_an_spi_screen_is_a_single_touch_and_no_panel_says_check_the_cable(tmp_path: Path) -> None:
    root = tmp_path / "root"
    input_device(root, "event2", "ADS7846 Touchscreen", SINGLE_AXES)
    finding = doctor.touch(root / "sys/class/input", root / "dev/input")
    assert finding.ok and "ADS7846" in finding.text and "single touch" in finding.text
    bare = tmp_path / "bare"
    input_device(bare, "event0", "USB Keyboard", "0")
    finding = doctor.touch(bare / "sys/class/input", bare / "dev/input")
    assert not finding.ok and "ribbon cable" in finding.text


def test_the_readers_port_missing_plain_file_or_held_by_the_console(tmp_path: Path) -> None:
    root = a_pi(tmp_path / "root")
    dev, cmdline = root / "dev", root / "proc/cmdline"
    missing = doctor.reader("/dev/ttyUSB0", cmdline, dev)
    assert not missing.ok and "plug the reader in" in missing.text
    (dev / "ttyAMA0").write_text("")
    assert "is not a device" in doctor.reader(str(dev / "ttyAMA0"), cmdline, dev).text
    # A real character device: a pseudo-terminal, as the tests of the readers use.
    main, side = os.openpty()
    try:
        port = os.ttyname(side)
        assert doctor.reader(port, cmdline, dev).ok
        cmdline.write_text(f"console={Path(port).name},115200 console=tty1\n")
        held = doctor.reader(port, cmdline, Path(port).parent)
        assert not held.ok and "login shell: No" in held.text
    finally:
        os.close(main)
        os.close(side)
    assert doctor.reader("", cmdline, dev).ok  # no reader set: nothing to check
    assert "/dev/serial0" in doctor.reader("uart", cmdline, dev, model="Raspberry Pi 4").text


def test_no_gpio_chip_says_so(tmp_path: Path) -> None:
    finding = core.gpio(tmp_path)
    assert not finding.ok and "no GPIO chip" in finding.text


def test_a_real_journal_is_counted_and_a_damaged_one_is_told(tmp_path: Path) -> None:
    database = journal_with_a_game(tmp_path / "games.sqlite3")
    finding = core.journal(database)
    assert finding.ok and "1 game," in finding.text and "quick check ok" in finding.text
    # The moves table's first page overwritten: SQLite's own check finds it.
    raw = sqlite3.connect(database)
    (page,) = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'").fetchone()
    (size,) = raw.execute("PRAGMA page_size").fetchone()
    raw.close()
    with open(database, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xff" * 200)
    damaged = core.journal(database)
    assert not damaged.ok and "fails SQLite's check" in damaged.text


def test_a_pc_is_named_and_given_no_raspberry_pi_advice(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True)
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('NAME="Debian"\nPRETTY_NAME="Debian GNU/Linux 12"\n')
    found = doctor.findings({}, tmp_path / "data/games.sqlite3", root, web=lambda: None)
    said = "\n".join(f.text for f in found)
    by = texts(found)
    assert by["machine"].ok and "not a Raspberry Pi (Debian GNU/Linux 12, " in by["machine"].text
    for pi_only in ("config.txt", "dtoverlay", "raspi-config", "ribbon cable", "usermod"):
        assert pi_only not in said, said
    assert not by["display"].ok and "desktop session" in by["display"].text
    assert by["GPIO"].ok and by["touch"].ok  # none is due off a Pi
    assert "splendor-companion serve" in by["web page"].text


def test_the_web_pages_service_is_said_when_installed() -> None:
    missing = core.web(None)
    assert missing.ok and "no splendor-companion-web service" in missing.text
    assert core.web("active") == core.Finding(True, "web page: splendor-companion-web is running")
    failed = core.web("failed")
    assert failed is not None and not failed.ok and "systemctl restart" in failed.text


def test_the_command_prints_a_line_each_in_the_language_and_exits_1_when_one_is_to_fix(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    journal_with_a_game(tmp_path / "data" / "games.sqlite3")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from splendor_companion.program import main; raise SystemExit(main())",
            "--lang",
            "fr",
            "--data-dir",
            str(tmp_path / "data"),
            "doctor",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    lines = result.stdout.splitlines()
    checks = [line for line in lines if line.startswith(("ok   ", "FIX  "))]
    assert len(checks) == 7, result.stdout + result.stderr
    assert checks[0].startswith("ok   machine\u00a0: ")  # which machine, first
    assert any("1 partie" in line and line.startswith("ok   ") for line in checks), checks
    to_fix = [line for line in checks if line.startswith("FIX  ")]
    assert result.returncode == (1 if to_fix else 0)
    assert lines[-1] == (
        "tout ce dont l'application a besoin est en place" if not to_fix else lines[-1]
    )
