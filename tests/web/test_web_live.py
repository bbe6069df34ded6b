"""The live table: it follows the journal the app writes, never writes it itself, and
stays out of the app's way (a killed server leaves the game as it was)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from webtools import play, serve

from companion.journal.session import Session
from companion.journal.store import Store

EVENT_WAIT = 5.0  # the most a test waits for an event: a failure, not a measure


async def next_event(response: Any) -> bytes:
    """The next event of a live feed (comments skipped)."""
    while True:
        block = await asyncio.wait_for(response.content.readuntil(b"\n\n"), EVENT_WAIT)
        if b"event: change" in block:
            return bytes(block)


def test_a_move_journaled_reaches_every_live_client(journal: Store) -> None:
    session = play(journal, moves=3)
    game = Session.resume(journal, session.game_id)

    async def check(client: TestClient[Any, Any]) -> tuple[list[bytes], int]:
        feeds = [await client.get("/events") for _ in range(3)]
        for feed in feeds:
            assert feed.headers["Content-Type"] == "text/event-stream"
            await next_event(feed)  # the first one, on connecting
        game.play(game.game.legal_moves().__next__())
        got = [await next_event(feed) for feed in feeds]
        table = await (await client.get("/api/v1/table")).json()
        for feed in feeds:
            feed.close()
        return got, table["table"]["move"]

    events, move = serve(journal.path, check, poll=0.05)
    assert all(e.startswith(b"event: change") for e in events)
    assert move == 4


def test_past_the_most_live_clients_a_clear_page(journal: Store) -> None:
    play(journal, moves=2)

    async def check(client: TestClient[Any, Any]) -> tuple[int, str, int]:
        first = await client.get("/events")
        await next_event(first)
        second = await client.get("/events")
        text = await second.text()
        page = await client.get("/")  # the page itself still answers
        first.close()
        return second.status, text, page.status

    status, text, page = serve(journal.path, check, max_clients=1)
    assert status == 503 and "Too many phones follow the table live" in text
    assert page == 200


def test_the_setting_turns_the_page_off(journal: Store) -> None:
    play(journal, moves=2)
    settings = journal.path.parent / "settings.ini"
    settings.write_text("[companion]\nweb = 0\nweb_max_clients = 5\n")

    async def check(client: TestClient[Any, Any]) -> tuple[int, str]:
        response = await client.get("/")
        return response.status, await response.text()

    status, text = serve(journal.path, check, settings_file=settings)
    assert status == 503 and "turned off in the kiosk" in text


def test_the_page_says_the_game_is_paused_when_the_app_is_not_running(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        play(store, moves=5)

    async def check(client: TestClient[Any, Any]) -> tuple[str, Any]:
        page = await (await client.get("/")).text()
        return page, await (await client.get("/api/v1/table")).json()

    page, api = serve(path, check)
    assert "the game is paused" in page
    assert api["running"] is False and api["table"]["move"] == 5


def test_with_no_game_the_page_says_so_and_not_that_a_game_is_paused(tmp_path: Path) -> None:
    """The app stopped after the last game ended: nothing is paused, and the page says
    what is true (no game in play, the app not running), not in an alarm's colours."""
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        play(store)  # a whole game: over

    async def check(client: TestClient[Any, Any]) -> tuple[str, Any]:
        page = await (await client.get("/?lang=en")).text()
        return page, await (await client.get("/api/v1/table")).json()

    page, api = serve(path, check)
    assert api["running"] is False and api["table"] is None
    assert "paused" not in page and 'class="banner paused' not in page
    assert "No game is being played at the kiosk." in page
    assert "The kiosk&#39;s app is not running." in page


def files_of(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.name: (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).digest())
        for p in sorted(folder.iterdir())
    }


def test_the_server_never_writes_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        session = play(store, players=3, seed=4)
        play(store, moves=6)
    before = files_of(tmp_path)

    async def check(client: TestClient[Any, Any]) -> None:
        for p in ("/", "/games", f"/games/{session.game_id}", "/stats", "/api/v1/games"):
            assert (await client.get(p)).status == 200
        for fmt in ("json", "csv", "txt", "bgstats"):
            assert (await client.get(f"/games/{session.game_id}/export/{fmt}")).status == 200
        # While it runs, the app opens its journal as the one writer, and plays on.
        with Store(path) as app:
            resumed = Session.resume(app, app.latest_unfinished().id)  # type: ignore[union-attr]
            resumed.play(next(resumed.game.legal_moves()))

    serve(path, check)
    after = files_of(tmp_path)
    assert set(after) == set(before)  # no file of its own (no lock, no copy)
    with Store(path, reader=True) as check_store:
        assert check_store.integrity() == "ok"
        assert check_store.latest_unfinished().moves == 7  # type: ignore[union-attr]


def test_no_file_is_made_where_there_is_no_journal_yet(tmp_path: Path) -> None:
    async def check(client: TestClient[Any, Any]) -> tuple[int, str]:
        response = await client.get("/")
        return response.status, await response.text()

    status, text = serve(tmp_path / "games.sqlite3", check)
    assert status == 200 and "No game is being played" in text
    assert list(tmp_path.iterdir()) == []


def test_a_request_too_large_is_refused(journal: Store) -> None:
    play(journal, moves=1)

    async def check(client: TestClient[Any, Any]) -> list[int]:
        return [
            (await client.get("/", headers={"X-Big": "x" * 10_000})).status,
            (await client.get("/?" + "a" * 10_000)).status,
            (await client.get("/", headers={f"X-{i}": "1" for i in range(200)})).status,
        ]

    for status in serve(journal.path, check):
        assert 400 <= status < 500


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_killing_the_server_leaves_the_game_intact(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    with Store(data / "games.sqlite3") as store:
        session = play(store, moves=8)
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "splendor_companion", "serve"),
                *("--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "SPLENDOR_LANG": "en"},
        )
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/table") as r:
                        assert b'"move": 8' in r.read()
                    break
                except OSError:
                    assert time.monotonic() < deadline, server.stderr
                    time.sleep(0.1)
            session.play(next(session.game.legal_moves()))
        finally:
            server.send_signal(signal.SIGKILL)
            server.wait(10)
        session.play(next(session.game.legal_moves()))  # the app plays on
        moves = [str(m) for m in session.game.moves]
    with Store(data / "games.sqlite3") as app:
        assert app.integrity() == "ok"
        resumed = Session.resume(app, session.game_id)
        assert [str(m) for m in resumed.game.moves] == moves


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()  # a --data-dir that does not exist is refused before the port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = subprocess.run(
            [
                *(sys.executable, "-m", "splendor_companion", "serve", "--host", "127.0.0.1"),
                *("--port", port, "--data-dir", str(tmp_path / "data")),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "SPLENDOR_LANG": "en"},
        )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"Cannot serve on 127.0.0.1:{port}: the port is in use by another program: "
        "choose another with --port\n"
    )
    assert list((tmp_path / "data").iterdir()) == []  # nothing made


def test_an_undo_and_another_move_in_the_same_second_show_the_new_move(journal: Store) -> None:
    session = play(journal, moves=4)
    moves = list(session.game.legal_moves())

    async def check(client: TestClient[Any, Any]) -> tuple[str, str]:
        session.play(moves[0])
        first = (await (await client.get("/api/v1/table")).json())["table"]["log"][0]["words"]
        session.undo()
        session.play(moves[-1])  # the journal's clock reads the same second
        then = (await (await client.get("/api/v1/table")).json())["table"]["log"][0]["words"]
        return first, then

    journal.clock = lambda: datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    first, then = serve(journal.path, check)
    assert first != then
