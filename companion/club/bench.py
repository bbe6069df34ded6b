"""The club at a club's size: ``python -m companion.club.bench`` (docs/speed.md).

Starts a PostgreSQL of its own (as the tests do: :mod:`companion.club.local`, with the
server's default durability: each commit on the disk), or uses ``--owner CONNINFO``'s,
loads the club's schema, and prints:

- **games pushed per second**: ``--kiosks`` kiosks (50) push ``--games`` games each (1,000)
  at once, each over its own connection as a kiosk's role, one transaction a game with
  ``ON CONFLICT DO NOTHING`` as :func:`companion.club.push.insert` does. The games are
  real records (a pool of simulated games, each seated with other people's names, so
  each has its own fingerprint); a kiosk's own work on a game (reading its journal and
  replaying it, :func:`companion.club.push.push_waiting`) is timed apart, on a journal of
  ``--journal`` games;
- **the rating update's time per game**: every game rated from the start
  (:func:`companion.club.ratings.update`), and one game arriving;
- **the league page's time**: what ``/league`` and the Club view read
  (:func:`companion.club.ratings.league`), the median of 5, with every game in the club.

Figures, not pass or fail; run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..engine.simulate import simulate
from ..journal.store import GameState, Store
from ..records.record import Record
from .games import ClubGame, club_game, game_fingerprint
from .link import Club, need
from .local import DATABASE, LocalServer
from .push import insert, push_waiting
from .ratings import league, update

POOL = 200  # simulated games, each seated again with other names
NAMES = 400  # the club's people


def _pool(size: int, seed: int) -> list[tuple[Record, ClubGame]]:
    games = []
    for n in range(size):
        game = simulate(players=2 + n % 3, seed=seed + n)
        record = Record.of(game)
        games.append((record, club_game(record, "2026-11-28T20:00:00Z")))
    return games


def _seated(base: tuple[Record, ClubGame], names: list[str], at: str) -> ClubGame:
    record, row = base
    seated = Record(replace(record.setup, players=tuple(names)), record.moves, {})
    doc = dict(row.record, players=names)
    return replace(
        row, fingerprint=game_fingerprint(seated), players=tuple(names), finished_at=at, record=doc
    )


def _kiosk_games(
    kiosk: int, games: int, pool: list[tuple[Record, ClubGame]], seen: set[str]
) -> list[ClubGame]:
    """A kiosk's games, none the same as another's (``seen``: the fingerprints so far)."""
    rng = random.Random(kiosk)
    regulars = [f"P{(kiosk * 8 + i) % NAMES:03}" for i in range(24)]  # a table's regulars
    out: list[ClubGame] = []
    while len(out) < games:
        g = len(out)
        base = pool[rng.randrange(len(pool))]
        n = len(base[1].players)
        names = [*rng.sample(regulars, n - 1), f"P{rng.randrange(NAMES):03}"]
        if len(set(names)) < n:
            names = rng.sample(regulars, n)
        at = f"2026-{1 + g * 12 // games:02}-{1 + g % 28:02}T{10 + kiosk % 12:02}:{g % 60:02}:00Z"
        game = _seated(base, names, at)
        if game.fingerprint not in seen:  # the same people at the same deal: one game
            seen.add(game.fingerprint)
            out.append(game)
    return out


def push_all(conninfo: str, kiosks: list[list[ClubGame]]) -> float:
    """Every kiosk pushing its games at once; the seconds it took."""
    pg = need("psycopg")
    start = threading.Barrier(len(kiosks) + 1)
    failures: list[BaseException] = []

    def run(number: int, games: list[ClubGame]) -> None:
        try:
            with pg.connect(conninfo) as conn:
                start.wait()
                for i, game in enumerate(games):
                    insert(conn, f"kiosk {number}", i + 1, game)
        except BaseException as err:
            failures.append(err)
            raise

    threads = [
        threading.Thread(target=run, args=(n, games), daemon=True) for n, games in enumerate(kiosks)
    ]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    return time.perf_counter() - began


def kiosk_side(conninfo: str, games: int) -> float:
    """Seconds per game of a kiosk's own push: its journal read, each game replayed, sent."""
    folder = Path(tempfile.mkdtemp(prefix="splendor-bench-"))
    with Store(folder / "games.sqlite3") as store:
        for n in range(games):
            game = simulate(players=2 + n % 3, seed=90_000 + n)
            # Ended after the club's other games: rated in order, as a kiosk's new games are.
            at = f"2027-02-01T{n // 60 % 24:02}:{n % 60:02}:00Z"
            record = Record.of(game, started_at=at, ended_at=at)
            store.import_record(record, GameState.of(game))
    began = time.perf_counter()
    done = push_waiting(folder / "games.sqlite3", Club(conninfo, "bench kiosk"))
    took = time.perf_counter() - began
    assert done.added == games, done
    return took / games


def measure(
    owner: str, kiosk_conninfo: str, kiosks: int, games: int, journal: int, pool_size: int = POOL
) -> list[str]:
    """The figures, a line each, for a club's empty database."""
    pg = need("psycopg")
    pool = _pool(pool_size, 1)
    seen: set[str] = set()
    loads = [_kiosk_games(k, games, pool, seen) for k in range(kiosks)]
    total = kiosks * games
    seconds = push_all(kiosk_conninfo, loads)
    lines = [
        f"push: {kiosks} kiosks x {games} games = {total} games in {seconds:.1f} s: "
        f"{total / seconds:.0f} games pushed per second"
    ]
    with pg.connect(owner) as conn:
        (stored,) = conn.execute("SELECT count(*) FROM games").fetchone()
        assert stored == total, (stored, total)
        began = time.perf_counter()
        rated = update(conn)
        took = time.perf_counter() - began
        lines.append(
            f"ratings: {rated} games rated from the start in {took:.1f} s: "
            f"{1000 * took / max(rated, 1):.2f} ms per game"
        )
    per_game = kiosk_side(kiosk_conninfo, journal)
    lines.append(
        f"a kiosk's own push (journal read, replay, insert, ratings): {1000 * per_game:.1f} ms "
        "per game"
    )
    with pg.connect(kiosk_conninfo) as conn:
        for said, at in (("in order", "2027-03-01T20:00:00Z"), ("late", "2026-06-15T20:00:00Z")):
            base = pool[len(said) % len(pool)]
            names = [f"{said}-{i}" for i in range(len(base[1].players))]
            insert(conn, "bench kiosk", 0, _seated(base, names, at))
            began = time.perf_counter()
            update(conn)
            took = time.perf_counter() - began
            lines.append(f"ratings: one game arriving {said}: {1000 * took:.0f} ms")
    with pg.connect(owner) as conn:
        times = []
        for _ in range(5):
            began = time.perf_counter()
            shown = league(conn)
            times.append(time.perf_counter() - began)
        lines.append(
            f"league page ({shown.games} games, {len(shown.people)} people): "
            f"{1000 * statistics.median(times):.0f} ms (median of 5)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.club.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--kiosks", type=int, default=50)
    parser.add_argument("--games", type=int, default=1000, help="games per kiosk")
    parser.add_argument("--journal", type=int, default=200, help="games of the kiosk timed apart")
    parser.add_argument(
        "--owner", help="a PostgreSQL database's owner connection (default: one started here)"
    )
    parser.add_argument("--kiosk", help="with --owner: a kiosk role's connection to it")
    args = parser.parse_args(argv)
    server: LocalServer | None = None
    if args.owner:
        owner, kiosk = args.owner, args.kiosk or args.owner
    else:
        server = LocalServer(durable=True).start()
        server.make_club()
        server.add_kiosk("bench_kiosk", "bench")
        owner = server.owner_url(DATABASE)
        kiosk = server.kiosk_url("bench_kiosk", "bench")
    try:
        for line in measure(owner, kiosk, args.kiosks, args.games, args.journal):
            print(line, flush=True)
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
