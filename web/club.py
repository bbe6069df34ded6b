"""A club's journal, made quickly: thousands of finished games for the page's figures at a
club's size (``python -m web.bench --games 10000``) and the tests of its pages' sizes.

A few simulated games are journaled move by move as the app journals them (``Session``),
then their rows are copied, each copy a game of its own an hour after the one before
(SQLite copies rows much faster than the rules replay games). The made file is kept in
the temporary folder under the count's name, and copied from there the next time.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.i18n import _, number
from companion.journal.store import SCHEMA_VERSION, Store

from .sample import finished_game

SEEDS = 12  # games actually played; the others are their copies


def club_journal(folder: Path, games: int, cache: Path | None = None, seeds: int = SEEDS) -> Path:
    """``folder/games.sqlite3`` holding ``games`` finished games (a copy of the one kept in
    ``cache``, the temporary folder by default, made there the first time)."""
    cache = Path(tempfile.gettempdir()) / "splendor-club" if cache is None else cache
    kept = cache / f"games-{games}-{seeds}-schema{SCHEMA_VERSION}.sqlite3"
    if not kept.exists():
        cache.mkdir(parents=True, exist_ok=True)
        making = cache / f"making-{games}"
        shutil.rmtree(making, ignore_errors=True)
        making.mkdir()
        _make(making / "games.sqlite3", games, seeds)
        (making / "games.sqlite3").replace(kept)
        shutil.rmtree(making, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "games.sqlite3"
    shutil.copyfile(kept, target)
    return target


def _make(path: Path, games: int, count: int) -> None:
    with Store(path) as store:
        seeds = [finished_game(store, players=2 + seed % 3, seed=seed) for seed in range(count)]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        start = datetime(2020, 1, 1, 18, 0, tzinfo=UTC)
        for number in range(len(seeds), games):
            at = (start + timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
            copy_game(db, seeds[number % len(seeds)], at)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def copy_game(db: sqlite3.Connection, source: int, at: str) -> int:
    """A copy of game ``source`` (its rows), started and ended at ``at``: its id."""
    new = db.execute(
        "INSERT INTO games (started_at, updated_at, ended_at, players, record, state, "
        "winners) SELECT ?, ?, ?, players, record, state, winners FROM games "
        "WHERE id = ?",
        (at, at, at, source),
    ).lastrowid
    assert new is not None
    db.execute(
        "INSERT INTO moves (game_id, seq, move, active) "
        "SELECT ?, seq, move, active FROM moves WHERE game_id = ?",
        (new, source),
    )
    db.execute(
        "INSERT INTO events (game_id, at, kind, seq, detail) "
        "SELECT ?, at, kind, seq, detail FROM events WHERE game_id = ?",
        (new, source),
    )
    return int(new)


PATHS = (
    "/",
    "/live/table",
    "/games",
    "/games?page=200",
    "/games/1",
    "/games/1?move=20",
    "/games/1/export/csv",
    "/stats",
    "/api/v1/table",
    "/api/v1/games",
    "/api/v1/games?page=200",
    "/api/v1/games/1",
    "/static/style.css",
)
"""What the figures fetch: every page and answer of the API (the list's first and 200th
page: a journal of 10,000 games has 200)."""


def _fetch(url: str) -> tuple[int, float]:
    """An answer's size and time (an error's too: a page still counting is a 503)."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=900) as answer:
            size = len(answer.read())
    except urllib.error.HTTPError as err:
        size = len(err.read())
    return size, time.perf_counter() - started


def _body(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=900) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def _until_fresh(url: str, old: bytes | None) -> tuple[float, list[float]]:
    """Seconds until ``url`` answers 200 with another body than ``old``, asked every 0.1 s
    (a phone's page asks every 3 s: this is finer), and each answer's own time meanwhile."""
    started = time.perf_counter()
    times = []
    while True:
        asked = time.perf_counter()
        status, body = _body(url)
        times.append(time.perf_counter() - asked)
        if status == 200 and body != old:
            return time.perf_counter() - started, times
        time.sleep(0.1)


def _ms(seconds: float) -> str:
    return number(seconds * 1000, 0)


def figures(games: int, runs: int = 5) -> list[str]:
    """A club's journal of ``games`` games served by ``serve`` (its own process, the app
    not running): the statistics read cold (just started) and warm (one game more), and
    each answer meanwhile and another phone's; then each answer's size, its first time
    and its median over ``runs`` more. Lines to print, in the reader's language; nothing
    judged."""
    from .bench import free_port, start_server

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        path = club_journal(Path(tmp) / "data", games)
        lines.append(
            _("a club's journal of {games} games, ready in {seconds} s").format(
                games=number(games), seconds=number(time.perf_counter() - started, 1)
            )
        )
        port = free_port()
        server = start_server(Path(tmp) / "data", port, 32)
        base = f"http://127.0.0.1:{port}"
        try:
            for warm in (False, True):
                case = _("warm (one game more)") if warm else _("cold (serve just started)")
                old = None
                if warm:
                    old = _body(base + "/stats")[1]
                    db = sqlite3.connect(path, isolation_level=None)
                    try:
                        copy_game(db, 1, "2030-01-01T18:00:00Z")
                    finally:
                        db.close()
                # Another phone asks for pages while the statistics are read.
                waits: list[float] = []
                done = threading.Event()

                def other(waits: list[float] = waits, done: threading.Event = done) -> None:
                    while not done.is_set():
                        waits.append(_fetch(base + "/games")[1])

                phone = threading.Thread(target=other)
                phone.start()
                fresh, times = _until_fresh(base + "/stats", old)
                done.set()
                phone.join()
                lines.append(
                    _(
                        "statistics {case}: figures on the page after {fresh} ms; its "
                        "answers meanwhile {count}, the longest {longest} ms; another phone's "
                        "page: {other} answers, the longest {slowest} ms"
                    ).format(
                        case=case,
                        fresh=_ms(fresh),
                        count=number(len(times)),
                        longest=_ms(max(times)),
                        other=number(len(waits)),
                        slowest=_ms(max(waits, default=0.0)),
                    )
                )
            for asked in PATHS:
                size, first = _fetch(base + asked)
                times = sorted(_fetch(base + asked)[1] for _ in range(runs))
                lines.append(
                    _("{path}: {size} KB, first {first} ms, then median {median} ms").format(
                        path=asked,
                        size=number(size / 1024, 1),
                        first=number(first * 1000, 1),
                        median=number(statistics.median(times) * 1000, 1),
                    )
                )
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
    return lines
