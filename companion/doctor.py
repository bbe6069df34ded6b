"""``splendor-companion doctor``: what the Pi's own devices say, each a line, ok or what to do.

The parts the core can check from files alone are here, each taking the paths it reads, so
that tests give it a folder laid out like ``/dev`` or ``/sys``: the display (a KMS/DRM
device and SDL's driver), the GPIO chip, the games journal, the kiosk's settings file. The
touchscreen and the reader's port are probed by :mod:`hardware.doctor`, which also runs the
command (the core never imports the hardware).
"""

from __future__ import annotations

import contextlib
import os
import platform
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .i18n import _, ngettext, number

SETTINGS_FILE = Path("/etc/default/splendor-companion")
"""The kiosk's settings, written by deploy.sh; a ``.local`` file next to it wins."""


@dataclass(frozen=True)
class Finding:
    """One line of the report: ``ok`` or not, and what was found or what to do."""

    ok: bool
    text: str


def line(finding: Finding) -> str:
    return ("ok   " if finding.ok else "FIX  ") + finding.text


def report(findings: Sequence[Finding]) -> tuple[list[str], int]:
    """The lines to print, the last a summary, and the exit status: 0 when all are ok."""
    bad = sum(1 for f in findings if not f.ok)
    lines = [line(f) for f in findings]
    if bad:
        lines.append(
            ngettext("{n} thing to fix (above)", "{n} things to fix (above)", bad).format(
                n=number(bad)
            )
        )
    else:
        lines.append(_("everything the app needs is in place"))
    return lines, 1 if bad else 0


def kiosk_settings(path: Path = SETTINGS_FILE) -> dict[str, str]:
    """The kiosk's settings (``KEY=value`` lines of deploy.sh's file, then of its ``.local``
    file, which wins); none when it is not a kiosk. Read, never run as a shell would."""
    values: dict[str, str] = {}
    for file in (path, path.with_name(path.name + ".local")):
        try:
            text = file.read_text(errors="replace")
        except OSError:
            continue
        for raw in text.splitlines():
            key, sep, value = raw.strip().partition("=")
            if sep and key and not key.startswith("#"):
                values[key.removeprefix("export ").strip()] = value.strip().strip("\"'")
    return values


def setting(name: str, environ: Mapping[str, str], settings: Mapping[str, str]) -> str:
    """A setting from the environment (the kiosk's unit sets it), else the kiosk's file."""
    return environ.get(name) or settings.get(name, "")


def usable(path: Path) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def machine(model: str, os_release: Path = Path("/etc/os-release")) -> Finding:
    """Which machine this is, first: the advice below is a Pi's only on a Pi (``model``:
    the device tree's, ``""`` off a Pi)."""
    if model:
        return Finding(True, _("machine: {model}").format(model=model))
    system = platform.machine() or "?"
    with contextlib.suppress(OSError):
        for raw in os_release.read_text(errors="replace").splitlines():
            key, _sep, value = raw.partition("=")
            if key == "PRETTY_NAME":
                system = f"{value.strip().strip(chr(34))}, {system}"
    return Finding(
        True,
        _(
            "machine: not a Raspberry Pi ({system}): the app runs in a desktop's window; the "
            "GPIO buttons and lights are the Pi's"
        ).format(system=system),
    )


def display(
    dev: Path, environ: Mapping[str, str], settings: Mapping[str, str], pi: bool = True
) -> Finding:
    """A KMS/DRM device this user may open, and SDL told to use it where no desktop runs
    (off a Pi with no desktop: where the app can be seen, never the Pi's boot file)."""
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return Finding(
            True,
            _("display: a desktop's ({name})").format(
                name=environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY")
            ),
        )
    cards = sorted((dev / "dri").glob("card*"))
    if not cards and not pi:
        return Finding(
            False,
            _(
                "display: no desktop and no KMS/DRM device in {folder}: run the app in a "
                "desktop session (or see it headless: SDL_VIDEODRIVER=offscreen and "
                "tools/screenshots.py)"
            ).format(folder=dev / "dri"),
        )
    if not cards:
        return Finding(
            False,
            _(
                "display: no KMS/DRM device in {folder}: add dtoverlay=vc4-kms-v3d to "
                "/boot/firmware/config.txt and reboot"
            ).format(folder=dev / "dri"),
        )
    allowed = [c for c in cards if usable(c)]
    if not allowed:
        return Finding(
            False,
            _(
                "display: {device} cannot be opened by this user: add it to the video and "
                "render groups (sudo usermod -aG video,render USER), then log in again"
            ).format(device=cards[-1]),
        )
    driver = setting("SDL_VIDEODRIVER", environ, settings)
    if driver and driver != "kmsdrm":
        return Finding(
            False,
            _(
                "display: SDL_VIDEODRIVER is {driver} and no desktop runs: the app draws on "
                "nothing; set SDL_VIDEODRIVER=kmsdrm (deploy.sh does)"
            ).format(driver=driver),
        )
    return Finding(
        True,
        _("display: {devices} (KMS/DRM), SDL driver {driver}").format(
            devices=", ".join(str(c) for c in allowed), driver=driver or "kmsdrm"
        ),
    )


def gpio(dev: Path, pi: bool = True) -> Finding:
    """A GPIO chip this user may open (the buttons and lights); off a Pi, none is due."""
    chips = sorted(dev.glob("gpiochip*"))
    if not chips and not pi:
        return Finding(True, _("GPIO: none on this machine: the buttons and lights are the Pi's"))
    if not chips:
        return Finding(
            False,
            _(
                "GPIO: no GPIO chip ({folder}/gpiochip*): not a Raspberry Pi, or a kernel "
                "without its GPIO driver"
            ).format(folder=dev),
        )
    allowed = [c for c in chips if usable(c)]
    if not allowed:
        return Finding(
            False,
            _(
                "GPIO: {device} cannot be opened by this user: add it to the gpio group "
                "(sudo usermod -aG gpio USER), then log in again"
            ).format(device=chips[0]),
        )
    return Finding(True, _("GPIO: {devices}").format(devices=", ".join(map(str, allowed))))


def journal(database: Path) -> Finding:
    """The games journal opens and passes SQLite's quick check; or, before the first game,
    its folder can be made and written."""
    if not database.exists():
        folder = database.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if os.access(folder, os.W_OK | os.X_OK):
            return Finding(
                True,
                _("journal: no games yet; {path} is made at the first one").format(path=database),
            )
        return Finding(
            False,
            _(
                "journal: {folder} cannot be written by this user: the games cannot be kept; "
                "run as the kiosk's user (splendor-companion on PATH does) or give the folder "
                "to this user"
            ).format(folder=folder),
        )
    try:
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            (verdict,) = db.execute("PRAGMA quick_check").fetchone()
            (games,) = db.execute("SELECT count(*) FROM games").fetchone()
        finally:
            db.close()
    except sqlite3.Error as err:
        verdict, games = str(err), 0
    if verdict != "ok":
        return Finding(
            False,
            _(
                "journal: {path} fails SQLite's check ({reason}): copy it aside, then start "
                "the app, which sets a damaged journal aside and says what it kept"
            ).format(path=database, reason=verdict),
        )
    if not os.access(database, os.W_OK):
        return Finding(
            False,
            _(
                "journal: {path} cannot be written by this user: run as the kiosk's user "
                "(splendor-companion on PATH does)"
            ).format(path=database),
        )
    return Finding(
        True,
        ngettext(
            "journal: {path}, {n} game, SQLite's quick check ok",
            "journal: {path}, {n} games, SQLite's quick check ok",
            int(games),
        ).format(path=database, n=number(int(games))),
    )


def web(state: str | None) -> Finding:
    """The web page's service, from ``systemctl is-active`` (``None``: no systemd, or the
    service is not installed: said, with how to run the page by hand)."""
    if state is None:
        return Finding(
            True,
            _(
                "web page: no splendor-companion-web service here (deploy.sh installs it "
                "unless --no-web); splendor-companion serve runs the page by hand"
            ),
        )
    if state == "active":
        return Finding(True, _("web page: splendor-companion-web is running"))
    return Finding(
        False,
        _(
            "web page: splendor-companion-web is {state}: sudo systemctl restart "
            "splendor-companion-web, then journalctl -u splendor-companion-web"
        ).format(state=state),
    )
