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
            source = seeds[number % len(seeds)]
            at = (start + timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
            new = db.execute(
                "INSERT INTO games (started_at, updated_at, ended_at, players, record, state, "
                "winners) SELECT ?, ?, ?, players, record, state, winners FROM games "
                "WHERE id = ?",
                (at, at, at, source),
            ).lastrowid
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
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


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
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=900) as answer:
        size = len(answer.read())
    return size, time.perf_counter() - started


def figures(games: int, runs: int = 5) -> list[str]:
    """A club's journal of ``games`` games served by ``serve``: each answer's size, its
    first time (the statistics read afresh) and its median over ``runs`` more; and how
    long another phone waits for a page while the statistics are read. Lines to print,
    in the reader's language; nothing judged."""
    from .bench import free_port, start_server

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        club_journal(Path(tmp) / "data", games)
        lines.append(
            _("a club's journal of {games} games, ready in {seconds} s").format(
                games=number(games), seconds=number(time.perf_counter() - started, 1)
            )
        )
        port = free_port()
        server = start_server(Path(tmp) / "data", port, 32)
        base = f"http://127.0.0.1:{port}"
        try:
            # The statistics read afresh, with another phone asking for pages meanwhile.
            waits: list[float] = []
            done = threading.Event()

            def other() -> None:
                while not done.is_set():
                    waits.append(_fetch(base + "/games")[1])

            phone = threading.Thread(target=other)
            phone.start()
            size, cold = _fetch(base + "/stats")
            done.set()
            phone.join()
            lines.append(
                _(
                    "statistics read afresh: {cold} ms; meanwhile another phone's page: "
                    "{count} answers, the longest {longest} ms"
                ).format(
                    cold=number(cold * 1000, 0),
                    count=number(len(waits)),
                    longest=number(max(waits, default=0.0) * 1000, 0),
                )
            )
            for path in PATHS:
                size, first = _fetch(base + path)
                times = sorted(_fetch(base + path)[1] for _ in range(runs))
                lines.append(
                    _("{path}: {size} KB, first {first} ms, then median {median} ms").format(
                        path=path,
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
