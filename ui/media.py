"""Finding a USB stick to export to: mounted, removable, writable."""

from __future__ import annotations

import os
from pathlib import Path

MOUNT_ROOTS = ("/media", "/run/media", "/mnt")


def _unescape(field: str) -> str:
    # /proc/mounts writes spaces and tabs in mount points as octal escapes.
    return field.encode().decode("unicode_escape")


def _removable(device: str, sys_block: Path) -> bool:
    name = Path(device).name
    block = sys_block / name
    if not block.exists():
        return False
    # A partition's "removable" flag lives on its disk.
    disk = block if (block / "removable").exists() else block.resolve().parent
    try:
        return (disk / "removable").read_text().strip() == "1" or "usb" in str(disk.resolve())
    except OSError:
        return False


def removable_media(
    mounts: Path = Path("/proc/mounts"),
    sys_block: Path = Path("/sys/class/block"),
    roots: tuple[str, ...] = MOUNT_ROOTS,
) -> list[Path]:
    """Mount points of removable, writable media (a USB stick), the most recent first."""
    found = []
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        fields = line.split()
        if len(fields) < 4 or not fields[0].startswith("/dev/"):
            continue
        point = _unescape(fields[1])
        if not point.startswith(roots):
            continue
        if "ro" in fields[3].split(","):
            continue
        if _removable(fields[0], sys_block) and os.access(point, os.W_OK):
            found.append(Path(point))
    return found[::-1]
