"""The start and end screens say where the table's web page is, with a small QR code that
holds only its address, when the page is served; they fit at 800x480 as before."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window

from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record
from ui.webaddress import WebAddress

from . import legible
from .driver import Driver


@pytest.fixture
def page_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A server listening on this machine (as the web page's would), its port set as
    deploy.sh sets it."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = int(listening.getsockname()[1])
        monkeypatch.setenv("SPLENDOR_WEB_PORT", str(port))
        monkeypatch.delenv("SPLENDOR_WEB")  # not the kiosk: the app looks for the server
        yield port


def shown_addresses(d: Driver) -> list[WebAddress]:
    return [w for w in d.top().walk(restrict=True) if isinstance(w, WebAddress)]


def test_the_start_and_end_screens_show_the_pages_address(tmp_path: Path, page_port: int) -> None:
    assert (Window.width, Window.height) == (800, 480)
    d = Driver(tmp_path / "data")
    try:
        [start] = shown_addresses(d)
        assert start.url.startswith("http://") and start.url.endswith(f":{page_port}/")
        assert start.qr.text == start.url and start.qr.fits  # only the address
        assert legible.faults("start, web address", d.top()) == []
        game = simulate(players=4, seed=4)
        game_id = d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.show_past_game(game_id)
        d.frames(3)
        [end] = shown_addresses(d)
        assert end.url == start.url
        assert legible.faults("end, web address", d.top()) == []
    finally:
        d.close()


def test_no_address_when_the_page_is_turned_off_or_not_served(
    tmp_path: Path, page_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = Driver(tmp_path / "data")
    try:
        d.app.config.set("companion", "web", "0")
        d.app.start_screen.refresh()
        d.frames(2)
        assert shown_addresses(d) == []
    finally:
        d.close()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        unused = free.getsockname()[1]
    monkeypatch.setenv("SPLENDOR_WEB_PORT", str(unused))
    d = Driver(tmp_path / "data2")
    try:
        assert shown_addresses(d) == []
    finally:
        d.close()
