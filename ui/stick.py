"""The USB stick on the kiosk, where the app may not mount anything.

Raspberry Pi OS Lite mounts nothing by itself, and the kiosk's sandbox keeps the app from
mounting. On the kiosk (``SPLENDOR_USB_EXPORT=yes``, written by ``deploy.sh``) the
kiosk's own root helper does it (``systemd/splendor-companion-usb-export``):

- a stick plugged in: udev starts the helper, which exports every finished game;
- "Export to USB" tapped: the app leaves ``usb-export.request`` in its data folder, a
  systemd path unit sees it and starts the helper on the stick plugged in.

Either way the helper writes ``usb-export.status`` (``state=...``, ``games=N``...) and
:class:`StickWatcher` puts it on the screen: "12 games exported: you can pull the stick
out". Elsewhere (a desktop that mounts sticks itself) the app writes to the mounted stick.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from companion.files import write_atomic
from companion.i18n import ngettext

from .i18n import tr

REQUEST, STATUS = "usb-export.request", "usb-export.status"
MAX_STATUS = 4096


def on_kiosk(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the kiosk's helper does the USB export (deploy.sh installed it)."""
    return (os.environ if environ is None else environ).get("SPLENDOR_USB_EXPORT") == "yes"


def ask(folder: Path) -> None:
    """Ask the kiosk's helper for an export to the plugged stick."""
    write_atomic(folder / REQUEST, "export\n")  # never through a link (NotAFile)


def read_status(path: Path) -> dict[str, str]:
    """The helper's ``key=value`` lines (an unreadable or odd file: what can be read)."""
    try:
        with path.open("rb") as file:
            text = file.read(MAX_STATUS).decode("utf-8", "replace")
    except OSError:
        return {}
    status = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.isidentifier():
            status[key] = "".join(c for c in value if c.isprintable())[:200]
    return status


def message(status: Mapping[str, str], finished: int) -> tuple[bool, str] | None:
    """The sentence for the table, and whether it is good news; ``None``: nothing to say."""
    state = status.get("state")
    if state == "working":
        return True, tr("Exporting the finished games to the USB stick: leave it in")
    if state == "exported":
        games = status.get("games", "")
        n = int(games) if games.isdigit() else finished
        text = ngettext(
            "{n} game exported: you can pull the stick out",
            "{n} games exported: you can pull the stick out",
            n,
        )
        return True, text.format(n=n)
    if state == "no-stick":
        return False, tr("No USB stick found: plug one in and try again.")
    if state == "mounted":
        return False, tr("The USB stick is in use by another program: nothing was written")
    if state == "failed":
        return False, tr("The export to the USB stick failed: {reason}").format(
            reason=status.get("reason", "")
        )
    return None


class StickWatcher:
    """Says each new status of the helper on the screen (``say(text, ok)``)."""

    def __init__(
        self, folder: Path, say: Callable[[str, bool], None], finished: Callable[[], int]
    ) -> None:
        self.path = folder / STATUS
        self.say = say
        self.finished = finished
        self.seen = self._stamp()  # what was there before the app started is old news

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return info.st_mtime_ns, info.st_ino

    def check(self, *_args: object) -> None:
        stamp = self._stamp()
        if stamp is None or stamp == self.seen:
            return
        self.seen = stamp
        said = message(read_status(self.path), self.finished())
        if said is not None:
            self.say(said[1], said[0])
