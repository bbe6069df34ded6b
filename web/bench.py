"""The web page's figures: 20 phones following a game live while it is played.

    python -m web.bench [--clients 20] [--moves 40]

A server on 127.0.0.1 (a thread of this process, on its own journal in a temporary
folder); ``--clients`` live feeds (server-sent events) read by another process, so that
the clients' work is not counted as the server's; a game played through the core's
session, one move every 0.3 s. Prints, without judging them: from a move journaled to
each client's event (median and p99), the same to each client holding the table again
(the event, then the fetch of the table the page's script makes), the memory (RSS, from
/proc) of the process serving, and each page's weight. Bounded: at most ``--moves``
moves and 60 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import Store

from .running import ServerThread
from .sample import finished_game

LIMIT_SECONDS = 60.0
BETWEEN_MOVES = 0.3


def rss_mb() -> float:
    """This process's resident memory (the server runs in it), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def follow(
    url: str, session: aiohttp.ClientSession, arrivals: list[float], tables: list[float]
) -> None:
    """One phone: on each event, the table fetched again, as the page's script does."""
    async with session.get(url + "/events") as feed:
        async for line in feed.content:
            if line.startswith(b"event: change"):
                arrivals.append(time.monotonic())
                async with session.get(url + "/live/table") as page:
                    await page.read()
                tables.append(time.monotonic())


async def run_clients(
    url: str, clients: int, stop: Any, results: list[tuple[list[float], list[float]]]
) -> None:
    async with aiohttp.ClientSession() as session:
        tasks = []
        for _ in range(clients):
            arrivals: list[float] = []
            tables: list[float] = []
            results.append((arrivals, tables))
            tasks.append(asyncio.create_task(follow(url, session, arrivals, tables)))
        while not stop.is_set():
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def clients_process(url: str, clients: int, stop: Any, out: Any) -> None:
    """The phones, in a process of their own; their times go back through ``out``
    (CLOCK_MONOTONIC is the same clock in every process of the machine)."""
    results: list[tuple[list[float], list[float]]] = []
    asyncio.run(run_clients(url, clients, stop, results))
    out.put(results)


def page_weights(url: str, game: int) -> dict[str, int]:
    """Each page's bytes with what it loads (style sheets, the script)."""

    async def weigh() -> dict[str, int]:
        async with aiohttp.ClientSession() as session:
            out = {}
            for name in ("style.css", "colours.css", "live.js"):
                async with session.get(f"{url}/static/{name}") as r:
                    out[name] = len(await r.read())
            css = out["style.css"] + out["colours.css"]
            for name, path, extra in (
                ("live table", "/", css + out["live.js"]),
                ("game page", f"/games/{game}", css),
                ("games", "/games", css),
                ("statistics", "/stats", css),
                ("API table", "/api/v1/table", 0),
            ):
                async with session.get(url + path) as r:
                    out[name] = len(await r.read()) + extra
            return out

    return asyncio.run(weigh())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The web page's figures (no judgement).")
    parser.add_argument("--clients", type=int, default=20, choices=range(1, 101), metavar="N")
    parser.add_argument("--moves", type=int, default=40, choices=range(1, 201), metavar="N")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "games.sqlite3") as store:
        over = finished_game(store)
        game = simulate(players=4, seed=9)
        session = Session.start(store, game.setup)
        with ServerThread(store.path) as server:
            idle = rss_mb()
            context = multiprocessing.get_context("spawn")
            stop, out = context.Event(), context.Queue()
            phones = context.Process(
                target=clients_process, args=(server.url, args.clients, stop, out)
            )
            phones.start()
            time.sleep(3.0)  # the process started, every feed open (its first event read)
            opened = time.monotonic()
            played: list[float] = []
            started = time.monotonic()
            for move in game.moves[: args.moves]:
                if time.monotonic() - started > LIMIT_SECONDS:
                    break
                played.append(time.monotonic())
                session.play(move)
                time.sleep(BETWEEN_MOVES)
            time.sleep(1.0)
            busy = rss_mb()
            stop.set()
            results: list[tuple[list[float], list[float]]] = out.get(timeout=30)
            phones.join(30)
            weights = page_weights(server.url, over)
    events: list[float] = []
    shown: list[float] = []
    for arrivals, tables in results:
        # Each move's event is the first one after it was journaled (a client that was
        # still busy may see two moves as one event: then the later one counts).
        for label, times in ((events, arrivals), (shown, tables)):
            after = [t for t in times if t >= opened]
            for moment in played:
                first = next((t for t in after if t >= moment), None)
                if first is not None:
                    label.append((first - moment) * 1000)
    print(f"{args.clients} live clients, {len(played)} moves journaled through the session")
    if events:
        print(
            f"move journaled -> event at each client: median {statistics.median(events):.0f} ms, "
            f"p99 {percentile(events, 0.99):.0f} ms ({len(events)} events)"
        )
        print(
            f"move journaled -> table fetched again: median {statistics.median(shown):.0f} ms, "
            f"p99 {percentile(shown, 0.99):.0f} ms"
        )
    print(
        f"memory (RSS) of the process serving, idle: {idle:.0f} MB; with the clients: {busy:.0f} MB"
    )
    for name, size in weights.items():
        print(f"weight of {name}: {size / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
