"""A scratch home for everything that is not the product: the tests, the screenshots, the
benchmarks and the fault drills run in a fresh temporary folder, whatever the environment
and the working folder say.

On a kiosk (or a developer's machine set up like one) ``SPLENDOR_DATA_DIR`` names the
family's games and ``KIVY_HOME`` the app's Kivy files, and the app reads its rotation, reader
and web port from ``SPLENDOR_*`` variables (``deploy.sh`` writes them). A test or a
benchmark that inherited them would add its games to that journal and change its settings,
then fail on a table it did not set up. So such a run points every folder a program may
write to (``HOME``, the XDG folders, ``KIVY_HOME``) into its own scratch folder, forgets the
kiosk's settings (``SPLENDOR_DATA_DIR`` among them: the data folder falls back to the
scratch ``XDG_DATA_HOME``, and an app given its own folder keeps it) and, a tool, works from
there.
``SPLENDOR_LANG`` stays: it says which language the reader of a benchmark's figures wants.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from companion.paths import DATA_DIR_VARIABLE

# Where programs write a person's files: each becomes a folder of the scratch home.
HOMES = {
    "HOME": "home",
    "XDG_DATA_HOME": "home/.local/share",
    "XDG_CONFIG_HOME": "home/.config",
    "XDG_CACHE_HOME": "home/.cache",
    "XDG_STATE_HOME": "home/.local/state",
    "KIVY_HOME": "home/.kivy",
}

# What a kiosk's environment file sets for the app (deploy.sh): the data folder and the
# table's own settings, none of which a test or a benchmark may inherit.
KIOSK = (
    DATA_DIR_VARIABLE,
    "SPLENDOR_DISPLAY",
    "SPLENDOR_ROTATION",
    "SPLENDOR_TOUCH_ROTATION",
    "SPLENDOR_TOUCH_INVERT",
    "SPLENDOR_RFID_PORT",
    "SPLENDOR_RFID_READER",
    "SPLENDOR_RFID_BAUD",
    "SPLENDOR_USB_EXPORT",
    "SPLENDOR_WEB",
    "SPLENDOR_WEB_PORT",
)


_entered: Path | None = None  # this process's scratch home, once entered


def environment(folder: Path, base: Mapping[str, str]) -> dict[str, str]:
    """``base`` with every home in ``folder`` (made) and the kiosk's settings left out."""
    env = {name: value for name, value in base.items() if name not in KIOSK}
    for name, where in HOMES.items():
        path = folder / where
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    return env


def enter(prefix: str = "splendor-scratch-", chdir: bool = True) -> Path:
    """Move this process into a fresh scratch home: the environment as :func:`environment`
    says, the working folder there (unless not ``chdir``), all of it removed when the
    process ends. Call it before anything imports Kivy (which reads ``KIVY_HOME`` once) or
    asks where the games are."""
    global _entered
    if _entered is not None and os.environ.get("HOME") == str(_entered / HOMES["HOME"]):
        # Already in one (a test calling a tool's main): stay, with the test's own settings.
        return _entered
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    _entered = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    env = environment(folder, os.environ)
    for name in KIOSK:
        os.environ.pop(name, None)
    os.environ.update(env)
    if chdir:  # a tool's own files, if it writes any beside it, land there
        os.chdir(folder)
    return folder
