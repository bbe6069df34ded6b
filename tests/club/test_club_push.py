"""A kiosk joins a club and its finished games reach the club's PostgreSQL, once each,
whatever stops a push half-way (a real server: tests/club/conftest.py)."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clubdb import ClubDb

from companion.club.link import Club, ClubError, joined
from companion.club.push import LONGEST_WAIT, backoff, push_waiting

from .kiosks import cli, club_rows, named_game, store, waiting

ROOT = Path(__file__).resolve().parents[2]


def test_a_kiosk_joins_and_its_games_are_at_the_club(club: ClubDb, data: Path) -> None:
    ids = store(data, named_game(1, ["Ada", "Ben"]), named_game(2, ["Ada", "Cleo", "Ben"]))
    assert waiting(data) == ids  # queued when they were stored as finished

    code, out, err = cli("club", "join", club.url(), "--name", "Table 1")

    assert (code, err) == (0, "")
    assert "Sent to the club: 2 new, 0 it had already; 0 waiting." in out
    assert "pw-one" not in out
    rows = club_rows(
        club.owner(),
        "SELECT kiosk, kiosk_game, players, record->'players', state FROM games "
        "ORDER BY kiosk_game",
    )
    assert rows == [
        ("Table 1", ids[0], ["Ada", "Ben"], ["Ada", "Ben"], "over"),
        ("Table 1", ids[1], ["Ada", "Cleo", "Ben"], ["Ada", "Cleo", "Ben"], "over"),
    ]
    assert waiting(data) == []
    # The password went to libpq's password file (0600), never to the kiosk's settings.
    pgpass = Path(os.environ["PGPASSFILE"])
    assert stat.S_IMODE(pgpass.stat().st_mode) == 0o600
    assert pgpass.read_text().strip().endswith(":table1:pw-one")
    settings = (data / "club.json").read_text()
    assert "pw-one" not in settings
    assert joined() == Club(json.loads(settings)["conninfo"], "Table 1")

    code, out, _ = cli("club", "status")
    assert code == 0
    assert "0 games waiting for the club" in out
    assert "The club has 2 games, 2 of them from this kiosk." in out


def test_a_game_ending_later_is_pushed_once_and_the_outbox_emptied(
    club: ClubDb, data: Path
) -> None:
    store(data, named_game(3, ["Ada", "Ben"]))
    assert cli("club", "join", club.url())[0] == 0
    (later,) = store(data, named_game(4, ["Ben", "Cleo"]))
    assert waiting(data) == [later]
    club_now = joined()
    assert club_now is not None
    done = push_waiting(data / "games.sqlite3", club_now)
    assert (done.added, done.known, done.waiting, done.error) == (1, 0, 0, None)
    # Pushed again (a kiosk killed after the club's commit, before the outbox's): no twin.
    store(data.parent / "other", named_game(4, ["Ben", "Cleo"]))
    again = push_waiting(data.parent / "other" / "games.sqlite3", club_now)
    assert (again.added, again.known) == (0, 1)
    assert club_rows(club.owner(), "SELECT count(*) FROM games") == [(2,)]


def test_a_club_of_a_newer_schema_is_refused_in_one_line(club: ClubDb, data: Path) -> None:
    club.server.owner_sql("INSERT INTO club_schema (version) VALUES (2)", club.name)
    code, out, err = cli("club", "join", club.url())
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "the club's database has schema 2, and this companion knows 1: update this kiosk "
        "(git pull && ./setup.sh --club)"
    ]
    assert not (data / "club.json").exists()
    # A kiosk that joined before the club was updated: its push is refused the same way,
    # and its games keep waiting.
    club.server.owner_sql("DELETE FROM club_schema WHERE version = 2", club.name)
    assert cli("club", "join", club.url())[0] == 0
    (later,) = store(data, named_game(6, ["Ada", "Ben"]))
    club.server.owner_sql("INSERT INTO club_schema (version) VALUES (2)", club.name)
    code, _, err = cli("club", "push")
    assert code == 2 and err.startswith("the club's database has schema 2")
    assert waiting(data) == [later]
    # And the shipped script refuses to touch it.
    with pytest.raises(RuntimeError, match="has schema 2, newer than this script's 1"):
        club.server.owner_sql(
            (ROOT / "companion" / "club" / "schema.sql").read_text(encoding="utf-8"), club.name
        )


def test_a_database_without_the_schema_is_named(club: ClubDb, data: Path) -> None:
    club.server.owner_sql("CREATE DATABASE bare_club", database="postgres")
    code, _, err = cli("club", "join", club.url().rsplit("/", 1)[0] + "/bare_club")
    assert code == 2
    assert "has no club's tables: its owner runs the companion's schema.sql" in err


def test_the_kiosk_role_may_add_games_but_not_change_them(club: ClubDb, data: Path) -> None:
    import psycopg

    store(data, named_game(5, ["Ada", "Ben"]))
    assert cli("club", "join", club.url())[0] == 0
    with psycopg.connect(club.url()) as conn:
        for sql in ("UPDATE games SET kiosk = 'x'", "DELETE FROM games", "DROP TABLE names"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(sql)


def test_the_server_stopped_mid_push_then_back_the_games_arrive_once(
    club: ClubDb, data: Path
) -> None:
    ids = store(data, *(named_game(10 + i, ["Ada", "Ben", "Cleo"]) for i in range(5)))
    from companion.club.link import keep_password, save

    save(Club(keep_password(club.url()), "Table 1"))
    member = joined()
    assert member is not None

    def stop_after_two(game_id: int) -> None:
        if game_id == ids[1]:
            club.server.halt()

    try:
        done = push_waiting(data / "games.sqlite3", member, after_each=stop_after_two)
        assert done.added == 2 and done.error is not None
        assert "the club stopped answering" in done.error.message
        assert waiting(data) == ids[2:]
        with pytest.raises(ClubError) as refused:
            push_waiting(data / "games.sqlite3", member)
        assert refused.value.code == "club-unreachable"
        assert waiting(data) == ids[2:]
    finally:
        club.server.restart()
    done = push_waiting(data / "games.sqlite3", member)
    assert (done.added, done.known, done.waiting) == (3, 0, 0)
    rows = club_rows(club.owner(), "SELECT kiosk_game FROM games ORDER BY kiosk_game")
    assert rows == [(i,) for i in ids]


def _push_process(data: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SPLENDOR_DATA_DIR": str(data)}
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "club", "push"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _killed_at_random(club: ClubDb, data: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    games = [named_game(20 + i, ["Ada", "Ben", "Cleo", "Dan"][: 2 + i % 3]) for i in range(12)]
    ids = store(data, *games)
    from companion.club.link import keep_password, save

    save(Club(keep_password(club.url()), "Table 1"))
    for _ in range(kills):
        process = _push_process(data)
        try:
            process.wait(timeout=rng.uniform(0.3, 1.5))
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
        # Whatever was left: each game at the club at most once, and none lost.
        at_club = {r[0] for r in club_rows(club.owner(), "SELECT kiosk_game FROM games")}
        assert at_club | set(waiting(data)) == set(ids)
    final = _push_process(data)
    assert final.wait(timeout=60) == 0
    rows = club_rows(club.owner(), "SELECT kiosk_game, count(*) FROM games GROUP BY kiosk_game")
    assert sorted(rows) == [(i, 1) for i in ids]
    assert waiting(data) == []


def test_the_kiosk_killed_at_random_points_of_a_push_loses_nothing(
    club: ClubDb, data: Path
) -> None:
    _killed_at_random(club, data, kills=3, seed=38)


@pytest.mark.long
def test_the_kiosk_killed_many_times_loses_nothing(club: ClubDb, data: Path) -> None:
    _killed_at_random(club, data, kills=30, seed=380)


def test_two_kiosks_pushing_the_same_and_other_games_at_once(club: ClubDb, tmp_path: Path) -> None:
    from companion.club.link import keep_password

    shared = [named_game(40 + i, ["Ada", "Ben"]) for i in range(6)]
    one, two = tmp_path / "one", tmp_path / "two"
    store(one, *shared, *(named_game(50 + i, ["Cleo", "Dan"]) for i in range(4)))
    store(two, *reversed(shared), *(named_game(60 + i, ["Eve", "Fay", "Gus"]) for i in range(4)))
    clubs = {
        one: Club(keep_password(club.url("table1")), "one"),
        two: Club(keep_password(club.url("table2")), "two"),
    }
    start = threading.Barrier(2)
    results = {}

    def push(folder: Path) -> None:
        start.wait()
        results[folder] = push_waiting(folder / "games.sqlite3", clubs[folder])

    threads = [threading.Thread(target=push, args=(f,)) for f in clubs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r.error is None and r.waiting == 0 for r in results.values())
    assert sum(r.added for r in results.values()) == 14
    assert sum(r.known for r in results.values()) == 6
    rows = club_rows(club.owner(), "SELECT kiosk, count(*) FROM games GROUP BY kiosk")
    counts = dict(rows)
    assert counts["one"] + counts["two"] == 14 and counts["one"] >= 4 and counts["two"] >= 4
    assert waiting(one) == [] and waiting(two) == []


def test_the_app_s_push_thread_catches_up_once_the_club_is_back(club: ClubDb, data: Path) -> None:
    from companion.club.link import keep_password, save
    from companion.club.push import Pusher

    ids = store(data, named_game(80, ["Ada", "Ben"]), named_game(81, ["Ben", "Cleo"]))
    save(Club(keep_password(club.url()), "Table 1"))
    club.server.halt()
    pusher = Pusher(data / "games.sqlite3", every=0.1, first_wait=0.1).start()
    try:
        deadline = time.monotonic() + 30
        while pusher.tries < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pusher.tries >= 2 and pusher.error is not None
        assert pusher.error.code == "club-unreachable"
        assert waiting(data) == ids
    finally:
        club.server.restart()
    try:
        while waiting(data) and time.monotonic() < deadline:
            pusher.wake()
            time.sleep(0.05)
    finally:
        pusher.stop()
    assert waiting(data) == [] and pusher.tries == 0
    assert club_rows(club.owner(), "SELECT count(*) FROM games") == [(2,)]


def test_the_retries_wait_longer_each_time_up_to_half_an_hour() -> None:
    rng = random.Random(1)
    waits = [backoff(n, rng) for n in range(1, 14)]
    assert 3.75 <= waits[0] <= 5
    assert all(later > earlier for earlier, later in itertools.pairwise(waits[:9]))
    assert max(waits) <= LONGEST_WAIT and waits[-1] >= LONGEST_WAIT * 0.75


def test_a_kiosk_without_a_club_needs_no_postgresql_client(data: Path) -> None:
    store(data, named_game(70, ["Ada", "Ben"]))
    code, out, _ = cli("club", "status")
    assert (code, out) == (0, "This kiosk has joined no club.\n")
    script = (
        "import sys; from companion.cli import main; code = main(['games']);"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in "
        "('psycopg', 'openskill')), file=sys.stderr)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert shown.stderr.strip().splitlines()[-1] == "0 []"


def test_a_missing_client_is_said_as_one_not_as_a_bug(data: Path) -> None:
    script = (
        "import sys; sys.modules['psycopg'] = None; from companion.cli import main;"
        "sys.exit(main(['club', 'join', 'postgresql://t@127.0.0.1/x']))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert shown.returncode == 2
    assert shown.stderr.strip() == (
        "the club needs psycopg, which is not installed: run ./setup.sh --club"
    )
