"""Where the companion keeps its games.

The first of: the ``SPLENDOR_DATA_DIR`` environment variable (which the command line's
``--data-dir`` sets for its run), the ``data_dir`` setting the
app passes in, ``$XDG_DATA_HOME/splendor-companion``, ``~/.local/share/splendor-companion``.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "splendor-companion"
DATABASE_NAME = "games.sqlite3"
DATA_DIR_VARIABLE = "SPLENDOR_DATA_DIR"


def data_dir(setting: str | os.PathLike[str] | None = None) -> Path:
    env = os.environ.get(DATA_DIR_VARIABLE)
    if env:
        return Path(env).expanduser()
    if setting:
        return Path(setting).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / APP_NAME


def database_path(setting: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(setting) / DATABASE_NAME
