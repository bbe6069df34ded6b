"""Where the start and end screens say the page is: the kiosk's mDNS name where avahi
runs, else its address; nothing when the page is off or not served."""

from __future__ import annotations

import socket
from pathlib import Path

from web.address import page_url


def test_the_kiosk_says_its_mdns_name_where_avahi_runs(tmp_path: Path) -> None:
    avahi = tmp_path / "pid"
    avahi.write_text("1\n")
    url = page_url(environ={"SPLENDOR_WEB": "yes", "SPLENDOR_WEB_PORT": "8081"}, avahi=avahi)
    assert url == f"http://{socket.gethostname().split('.')[0]}.local:8081/"


def test_without_avahi_the_address_on_the_network(tmp_path: Path) -> None:
    url = page_url(environ={"SPLENDOR_WEB": "yes"}, avahi=tmp_path / "none")
    assert url is None or (url.startswith("http://") and url.endswith(":8080/"))
    assert ".local" not in (url or "")


def test_no_address_when_the_page_is_off_or_not_served(tmp_path: Path) -> None:
    avahi = tmp_path / "pid"
    avahi.write_text("1\n")
    assert page_url(environ={"SPLENDOR_WEB": "no"}, avahi=avahi) is None
    assert page_url(False, environ={"SPLENDOR_WEB": "yes"}, avahi=avahi) is None
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        unused = str(free.getsockname()[1])
    assert page_url(environ={"SPLENDOR_WEB_PORT": unused}, avahi=avahi) is None
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = str(listening.getsockname()[1])
        assert page_url(environ={"SPLENDOR_WEB_PORT": port}, avahi=avahi) == (
            f"http://{socket.gethostname().split('.')[0]}.local:{port}/"
        )
