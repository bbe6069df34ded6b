"""Small copies of ``/sys/class/drm`` as a Raspberry Pi's kernel lays it out, for the
display tests (tests/test_display.py) and the installer's (tests/test_deploy.py)."""

from __future__ import annotations

from pathlib import Path

# A television's modes file: preferred first, an interlaced mode, many more.
TV_MODES = "1920x1080\n1920x1080i\n1280x720\n1024x768\n800x600\n720x576\n720x480\n640x480\n"

# A Pi 4 with both HDMI ports empty (and the writeback connector KMS always has).
PI4_HDMI_OFF = {
    "card1-HDMI-A-1": ("disconnected", ""),
    "card1-HDMI-A-2": ("disconnected", ""),
    "card1-Writeback-1": ("unknown", ""),
}


def drm_tree(root: Path, outputs: dict[str, tuple[str, str]]) -> Path:
    """``root/sys/class/drm`` with these connectors, ``{"card1-DSI-1": ("connected",
    "800x480\\n")}``: each a symlink to its device's folder holding ``status``, ``modes``
    and ``enabled``, next to the cards, a render node and ``version``."""
    devices = root / "sys/devices/platform/gpu/drm"
    folder = root / "sys/class/drm"
    folder.mkdir(parents=True)
    (folder / "version").write_text("drm 1.1.0 20060810\n")
    for card in {name.split("-", 1)[0] for name in outputs} | {"card0"}:
        (devices / card).mkdir(parents=True)
        (folder / card).symlink_to(devices / card)
    (devices / "renderD128").mkdir(parents=True)
    (folder / "renderD128").symlink_to(devices / "renderD128")
    for name, (status, modes) in outputs.items():
        device = devices / name.split("-", 1)[0] / name
        device.mkdir()
        (device / "status").write_text(status + "\n")
        (device / "modes").write_text(modes)
        (device / "enabled").write_text("enabled\n" if status == "connected" else "disabled\n")
        (folder / name).symlink_to(device)
    return folder
