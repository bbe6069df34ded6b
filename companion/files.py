"""Writing files so that an interruption never leaves a half file that looks complete.

Only a regular file (or a name not yet taken) is replaced atomically. Anything else the user
names is written through, as a shell's ``>`` would: a device (``/dev/stdout``), a FIFO, a
symbolic link (its target is written, the link stays). Renaming over those would replace
the node itself with a plain file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def _new_file_mode() -> int:
    """0666 less the umask: the mode ``open()`` gives a new file (0644 with umask 022)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path``: atomically (a temporary file in the same folder and a
    rename) when ``path`` is a regular file or absent, straight through otherwise.

    A replaced file keeps its mode; a new one gets the umask's (not ``mkstemp``'s 0600).
    Raises ``OSError`` (full disk, read-only folder...) with a regular ``path`` untouched
    and no temporary file left behind.
    """
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None and not stat.S_ISREG(found.st_mode):
        _write_through(path, raw)
        return
    mode = stat.S_IMODE(found.st_mode) if found is not None else _new_file_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    # The rename is durable only once the folder itself reaches the disk.
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _write_through(path: Path, raw: bytes) -> None:
    """Write into whatever ``path`` is (device, FIFO, link): never replace the node."""
    with open(path, "wb") as f:
        f.write(raw)
        f.flush()
        if stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            os.fsync(f.fileno())
