"""Which way up the app draws: the panel's own orientation, or the rotation chosen.

A kiosk (Raspberry Pi OS Lite, SDL2 on KMS/DRM) draws full screen in the panel's own
mode: the Touch Display 2 is 720x1280, so the app lays itself out in portrait there, and
in landscape on the 7-inch 800x480 panel or a monitor. A rotation turns that: ``0``,
``90``, ``180`` or ``270`` degrees (Kivy's ``Window.rotation``, which turns the touches
with the picture), or ``landscape`` / ``portrait``, which turn the panel a quarter turn
only when its own shape is the other one.

Two places choose, and ``deploy.sh``'s wins when it turns something (as with its other
settings): the kiosk's ``SPLENDOR_ROTATION`` (``./deploy.sh --rotation`` or
``--display``), then the settings screen's ``rotation``. ``0`` from the kiosk is its
default ("the panel's own"), so it leaves the choice to the settings screen.

The panel's own size is the window's unrotated size once full screen (SDL2 sets it to the
display's mode); the connected connector's preferred mode in ``/sys/class/drm`` stands
in when the window has none, and names the panel in the log. Nothing here imports Kivy:
``deploy.sh`` runs ``python -m ui.display`` to say what the app will do with the screen
it finds.
"""

from __future__ import annotations

import argparse
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from companion.errors import ErrorCode, TextError

log = logging.getLogger(__name__)

DRM = Path("/sys/class/drm")
ROTATIONS = (0, 90, 180, 270)
# Connector types of a panel built into the device (its touchscreen's own screen), as
# the kernel names them; HDMI and composite outputs come after them on the same card.
PANELS = frozenset({"DSI", "DPI", "SPI", "LVDS", "eDP"})
MIN_SIDE = 100  # a window smaller than this is not a screen's mode yet

Size = tuple[int, int]
Choice = int | Literal["landscape", "portrait"]


def orientation(size: Size) -> str:
    """``"landscape"``, ``"portrait"`` or ``"square"``."""
    width, height = size
    if width == height:
        return "square"
    return "landscape" if width > height else "portrait"


def turned(size: Size, rotation: int) -> Size:
    """``size`` as the app sees it after ``rotation``."""
    width, height = size
    return (height, width) if rotation in (90, 270) else (width, height)


# ---------------------------------------------------------------- /sys/class/drm

_MODE = re.compile(r"(\d+)x(\d+)")
_CONNECTOR = re.compile(r"card(\d+)-(.+)")


def parse_modes(text: str) -> list[Size]:
    """The sizes of a connector's ``modes`` file, one ``1920x1080`` (or ``1920x1080i``)
    a line, the preferred mode first; lines that are not a mode are passed over."""
    sizes = []
    for line in text.splitlines():
        found = _MODE.match(line.strip())
        if found:
            sizes.append((int(found[1]), int(found[2])))
    return sizes


@dataclass(frozen=True)
class Connector:
    """One display output of ``/sys/class/drm``: ``card1-DSI-1`` is card 1, ``DSI-1``."""

    card: int
    name: str
    connected: bool
    modes: tuple[Size, ...]

    @property
    def kind(self) -> str:
        """``DSI``, ``HDMI-A``, ``SPI``...: the name without its number."""
        return self.name.rsplit("-", 1)[0]

    @property
    def size(self) -> Size | None:
        """Its preferred mode (the kernel lists it first)."""
        return self.modes[0] if self.modes else None


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def read_connectors(drm: Path = DRM) -> list[Connector]:
    """Every connector under ``drm`` (``/sys/class/drm``), in card order; none when the
    folder cannot be read (no KMS driver, not Linux)."""
    try:
        entries = sorted(drm.iterdir())
    except OSError:
        return []
    connectors = []
    for entry in entries:
        found = _CONNECTOR.fullmatch(entry.name)
        if found is None:
            continue  # card1, renderD128, version
        connectors.append(
            Connector(
                card=int(found[1]),
                name=found[2],
                connected=_read(entry / "status").strip() == "connected",
                modes=tuple(parse_modes(_read(entry / "modes"))),
            )
        )
    connectors.sort(key=lambda c: (c.card, c.name))
    return connectors


def connected_display(connectors: list[Connector]) -> Connector | None:
    """The connected screen the app draws on: SDL's KMS/DRM driver takes the first card
    with a connected output, and on it a built-in panel (DSI, SPI...) comes before HDMI."""
    candidates = [c for c in connectors if c.connected and c.modes]
    if not candidates:
        return None
    return min(candidates, key=lambda c: (c.card, c.kind not in PANELS, c.name))


def native_size(window: Size | None, drm: Path = DRM) -> Size | None:
    """The panel's own size: the window's unrotated size when it has one (full screen,
    SDL2 sized it to the display's mode), else the connected screen's preferred mode."""
    if window is not None and min(window) >= MIN_SIDE:
        return window
    screen = connected_display(read_connectors(drm))
    return screen.size if screen else None


# ---------------------------------------------------------------- the rotation


def parse_choice(text: str | None) -> Choice | None:
    """``"90"`` is 90, ``"portrait"`` is itself, nothing is ``None``; :class:`TextError`
    (:attr:`~ErrorCode.BAD_SETTING`) for anything else."""
    value = (text or "").strip().lower()
    if not value:
        return None
    if value == "landscape":
        return "landscape"
    if value == "portrait":
        return "portrait"
    if value.isascii() and value.isdigit() and len(value) < 4 and int(value) in ROTATIONS:
        return int(value)
    raise TextError(
        ErrorCode.BAD_SETTING,
        "{value} is not a rotation: write 0, 90, 180, 270, landscape or portrait",
        value=repr(text),
    )


def rotation_for(choice: Choice | None, native: Size | None) -> int:
    """The degrees that give ``choice`` on a panel of ``native`` size: an orientation
    turns a quarter turn only when the panel's own shape is the other one (or unknown:
    then nothing is turned)."""
    if choice is None:
        return 0
    if isinstance(choice, int):
        return choice
    if native is None or orientation(native) in (choice, "square"):
        return 0
    return 90


@dataclass(frozen=True)
class Decision:
    """The rotation the app applies at start, and why (for the log)."""

    rotation: int
    source: str  # "kiosk" (deploy.sh), "screen" (the settings screen) or "panel"
    choice: str
    native: Size | None

    def describe(self) -> str:
        if self.native is None:
            shape = "a screen of unknown size"
        else:
            shape = f"{self.native[0]}x{self.native[1]} {orientation(self.native)}"
        if self.source == "panel":
            return f"{shape}, drawn in its own orientation"
        by = "deploy.sh" if self.source == "kiosk" else "the settings screen"
        return f"{shape}, rotation {self.rotation} ({self.choice}, set by {by})"


def _choice(text: str | None, where: str) -> Choice | None:
    try:
        return parse_choice(text)
    except TextError:
        log.warning(
            "rotation %r from %s is not 0, 90, 180, 270, landscape or portrait: not turned",
            text,
            where,
        )
        return None


def decide(kiosk: str | None, screen: str | None, native: Size | None) -> Decision:
    """The rotation at start. The kiosk's (``SPLENDOR_ROTATION``) wins when it turns
    something; else the settings screen's; with neither, the panel's own orientation. A
    value that is no rotation is logged and passed over: the app starts all the same."""
    for source, text, where in (
        ("kiosk", kiosk, "deploy.sh (SPLENDOR_ROTATION)"),
        ("screen", screen, "the settings"),
    ):
        choice = _choice(text, where)
        if choice is not None and choice != 0:
            return Decision(rotation_for(choice, native), source, str(choice), native)
    return Decision(0, "panel", "0", native)


# ---------------------------------------------------------------- deploy.sh's note


def summary(rotation: str, drm: Path = DRM) -> str | None:
    """What the app will do on the screen connected now, said by ``deploy.sh``:
    ``DSI-1 720x1280 (portrait): the app lays out in portrait, 720x1280``; ``None``
    when no screen is connected."""
    screen = connected_display(read_connectors(drm))
    if screen is None or screen.size is None:
        return None
    size = screen.size
    degrees = rotation_for(parse_choice(rotation), size)
    seen = turned(size, degrees)
    turn = f", turned {degrees}" if degrees else ""
    return (
        f"{screen.name} {size[0]}x{size[1]} ({orientation(size)}): the app lays out in "
        f"{orientation(seen)}, {seen[0]}x{seen[1]}{turn}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ui.display",
        description="Say which screen is connected and how the app lays out on it.",
    )
    parser.add_argument("--rotation", default="0", help="deploy.sh's --rotation (default 0)")
    parser.add_argument("drm", nargs="?", type=Path, default=DRM, help="/sys/class/drm")
    args = parser.parse_args(argv)
    try:
        said = summary(args.rotation, args.drm)
    except TextError as err:
        parser.error(f"--rotation: {err.message}")
    if said is not None:
        print(said)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
