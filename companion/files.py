"""Writing files so that an interruption never leaves a half file that looks complete, and
so that no write ever follows a link.

Every file the companion writes (exports, the RFID tags file, settings, requests to the
kiosk's helper) goes through :func:`write_atomic`: a temporary file made in the target's
folder (``O_EXCL``, through the folder's descriptor), then renamed over the name. Only a
regular file, or a name not yet taken, is replaced. A link, a folder, a device, a pipe or a
socket at the name is left as it is and refused with :class:`NotAFile`: a link named like
an export and pointing at the games journal must not get the journal written over.

A name the person typed (``--out FILE``) may name a stream: a pipe or a character device
is written into, as a shell's ``>`` would (never replaced), and so are ``/dev/stdout``,
``/dev/stderr`` and ``/dev/fd/N``, the command's own outputs (links into ``/proc``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from pathlib import Path

from .i18n import N_, translate

MAX_NAME_BYTES = 255
"""The longest file name ext4 takes, in bytes (FAT and exFAT: 255 UTF-16 units, never
fewer than the UTF-8 bytes)."""

# How to get out of a refusal, by where the file was going.
EXPORT_ELSEWHERE = N_("export to another folder")
OUT_ELSEWHERE = N_("give another file")
DATA_ELSEWHERE = N_("choose another data folder")

# What stands at a name instead of a file, with how to clear it: one sentence each, so
# that a translation can make the words agree ("remove it", "move it away").
_KINDS = {
    "link": N_("it is a link, not a file: remove it or {advice}"),
    "folder": N_("it is a folder, not a file: move it away or {advice}"),
    "other": N_("it is a device, a pipe or a socket, not a file: remove it or {advice}"),
}

_OWN_STREAM = re.compile(r"/dev/(stdout|stderr|fd/\d+)|/proc/self/fd/\d+")


class NotAFile(OSError):
    """The name is taken by a link, a folder, a device...: left as it is, nothing written.

    ``str()`` says so in the reader's language, and how to fix it (``advice``), as the
    reason of a message such as "cannot write {path}: {reason}".
    """

    def __init__(self, path: Path, kind: str, advice: str = DATA_ELSEWHERE) -> None:
        self.path = Path(path)
        self.kind = kind
        self.advice = advice
        super().__init__(translate(_KINDS[kind]).format(advice=translate(advice)))
        self.filename = str(self.path)

    def __str__(self) -> str:
        return str(self.args[0])


def kind_of(mode: int) -> str:
    """``link``, ``folder`` or ``other``: what a non-regular node is, for a refusal."""
    if stat.S_ISLNK(mode):
        return "link"
    return "folder" if stat.S_ISDIR(mode) else "other"


def fit_bytes(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, at a character boundary.

    >>> fit_bytes("Zoë", 3), fit_bytes("Zoë", 4), fit_bytes("😀😀", 7)
    ('Zo', 'Zoë', '😀')
    """
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) <= limit:
        return text
    return raw[: max(0, limit)].decode("utf-8", "ignore")


def _new_file_mode() -> int:
    """0666 less the umask: the mode ``open()`` gives a new file (0644 with umask 022)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _lstat_at(name: str, dir_fd: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def check_file(path: Path, advice: str = DATA_ELSEWHERE) -> None:
    """Raise :class:`NotAFile` when ``path`` is there and is not a regular file (a link,
    even to a file, included): for a file that something else (SQLite) opens to write."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(found.st_mode):
        raise NotAFile(path, kind_of(found.st_mode), advice)


def write_atomic(
    path: Path,
    data: str | bytes,
    *,
    advice: str = DATA_ELSEWHERE,
    streams: bool = False,
    replace: bool = True,
) -> None:
    """Write ``data`` to ``path`` atomically, in its folder, never through a link.

    Raises :class:`NotAFile` (saying ``advice`` as the way out) when the name is taken by
    anything but a regular file; with ``streams`` (a name the person typed), a pipe or a
    character device is written into instead, and so is the command's own output.
    A replaced file keeps its mode; a new one gets the umask's. Raises ``OSError`` (full
    disk, read-only folder...) with the file untouched and no temporary file left behind.
    Without ``replace``, a file at the name is never replaced: ``FileExistsError``.
    """
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if streams and _OWN_STREAM.fullmatch(str(path)):
        with open(path, "wb") as out:  # the command's own output: a link it owns
            out.write(raw)
        return
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        found = _lstat_at(path.name, folder)
        if found is not None and not stat.S_ISREG(found.st_mode):
            if streams and (stat.S_ISFIFO(found.st_mode) or stat.S_ISCHR(found.st_mode)):
                _write_stream(path, folder, raw, advice)
                return
            raise NotAFile(path, kind_of(found.st_mode), advice)
        if found is not None and not replace:
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
        mode = stat.S_IMODE(found.st_mode) if found is not None else _new_file_mode()
        _replace(path, folder, raw, mode, advice, replace)
        # The rename is durable only once the folder itself reaches the disk.
        os.fsync(folder)
    finally:
        os.close(folder)


def _temporary(name: str, folder: int, mode: int) -> tuple[str, int]:
    """A new hidden file beside ``name``, never an existing node (``O_EXCL``)."""
    for _attempt in range(100):
        tail = f".{secrets.token_hex(4)}.part"
        temp = "." + fit_bytes(name, MAX_NAME_BYTES - 1 - len(tail)) + tail
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            return temp, os.open(temp, flags, mode, dir_fd=folder)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", name)


def _replace(
    path: Path, folder: int, raw: bytes, mode: int, advice: str, replace: bool = True
) -> None:
    temp, fd = _temporary(path.name, folder, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            if stat.S_IMODE(os.fstat(f.fileno()).st_mode) != mode:
                os.fchmod(f.fileno(), mode)  # a replaced file's own mode, past the umask
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        # What was put at the name meanwhile is refused too: a rename would replace it.
        found = _lstat_at(path.name, folder)
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise NotAFile(path, kind_of(found.st_mode), advice)
        if not replace:
            _put_new(temp, path, folder)
            return
        os.replace(temp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp, dir_fd=folder)
        raise


def _put_new(temp: str, path: Path, folder: int) -> None:
    """``temp`` at ``path``'s name only if nothing is there: a hard link fails rather than
    replace (atomically); where there are none (a FAT stick), a last look, then the rename."""
    try:
        os.link(temp, path.name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:
        if _lstat_at(path.name, folder) is not None:
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(temp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        return
    os.unlink(temp, dir_fd=folder)


def _write_stream(path: Path, folder: int, raw: bytes, advice: str) -> None:
    """Write into the pipe or device at ``path`` (never replace the node, never a link)."""
    fd = os.open(path.name, os.O_WRONLY | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC, dir_fd=folder)
    with os.fdopen(fd, "wb") as f:
        found = os.fstat(f.fileno()).st_mode
        if not (stat.S_ISFIFO(found) or stat.S_ISCHR(found)):
            raise NotAFile(path, kind_of(found), advice)  # swapped since it was looked at
        f.write(raw)
        f.flush()
