"""Where phones find the page: ``http://<hostname>.local:8080/`` where avahi answers for the
kiosk's mDNS name (Raspberry Pi OS), else its address on the network. Imports neither
aiohttp nor Kivy: the app's start and end screens ask it (``ui.webaddress``).

The page is shown only when it is served: the ``web`` setting on, and on the kiosk its
service installed (deploy.sh writes ``SPLENDOR_WEB=yes`` and ``SPLENDOR_WEB_PORT`` into
the app's environment: the app's sandbox has no network to look); elsewhere a server
answering on this machine at the port (8080 by default).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Mapping
from pathlib import Path

PORT_VARIABLE = "SPLENDOR_WEB_PORT"
KIOSK_VARIABLE = "SPLENDOR_WEB"  # yes or no, from deploy.sh
DEFAULT_PORT = 8080
AVAHI_RUNNING = Path("/run/avahi-daemon/pid")


def port(environ: Mapping[str, str] | None = None) -> int:
    text = (os.environ if environ is None else environ).get(PORT_VARIABLE, "").strip()
    if text.isdigit() and 1 <= int(text) <= 65535:
        return int(text)
    return DEFAULT_PORT


def serving(at_port: int, timeout: float = 0.2) -> bool:
    """Whether a server answers on this machine at ``at_port`` (a connection refused at
    once when none does)."""
    try:
        with socket.create_connection(("127.0.0.1", at_port), timeout=timeout):
            return True
    except OSError:
        return False


def host_address() -> str | None:
    """The kiosk's first address on its network (``hostname -I``), or ``None``."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        ).stdout.split()
        for address in found:
            if ":" not in address and not address.startswith("127."):
                return address
    return None


def host_name(avahi: Path = AVAHI_RUNNING) -> str | None:
    """The mDNS name (``splendor.local``) where avahi runs, else the address."""
    if avahi.exists():
        name = socket.gethostname().split(".")[0]
        if name and name.isascii():
            return f"{name}.local"
    return host_address()


def page_url(
    enabled: bool = True, environ: Mapping[str, str] | None = None, avahi: Path = AVAHI_RUNNING
) -> str | None:
    """The page's address for a phone, or ``None`` when it is not served here."""
    environ = os.environ if environ is None else environ
    at = port(environ)
    kiosk = environ.get(KIOSK_VARIABLE, "").strip()
    if not enabled or kiosk == "no" or (kiosk != "yes" and not serving(at)):
        return None
    host = host_name(avahi)
    if host is None:
        return None
    return f"http://{host}/" if at == 80 else f"http://{host}:{at}/"
