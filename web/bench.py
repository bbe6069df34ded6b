"""The web page's figures: 20 phones following a game live while the app plays it.

    python -m web.bench [--clients 20] [--moves 40] [--pace 0.5]

Three programs, as on the kiosk: the app (``python -m ui.frames``: the real app, headless,
playing a seeded 4-player game through taps on its table), the page's server
(``splendor-companion serve`` on 127.0.0.1, reading the app's journal), and ``--clients``
live feeds (server-sent events) read by a process of their own (on the kiosk they are
the phones; here they share the machine). The same game, from the same seed, is played
twice, each time in a fresh games folder: first with the server and its clients running,
then with neither (the page turned off). Prints, without judging them: from a move
journaled to each client's event (median and p99), the same to each client holding the
table again (the event, then the fetch of the table the page's script makes), the
server's memory (RSS, from /proc), each page's weight, and the app's frames in both
runs (frame to frame, and each frame's own work: p50, p99, max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

from companion.journal.store import Store
from ui.bench import headless

from .sample import finished_game

AFTER_LAST_MOVE = 1.0  # the last move's events and fetches, before the clients stop


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def memory_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident memory (``VmHWM``: its peak), in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def delays(journaled: list[float], arrivals: list[float]) -> list[float]:
    """Milliseconds from each move journaled to the first arrival at or after it (a
    client still busy may see two moves as one event: then the later one counts)."""
    out = []
    ordered = sorted(arrivals)
    for moment in journaled:
        first = next((t for t in ordered if t >= moment), None)
        if first is not None:
            out.append((first - moment) * 1000)
    return out


def figures(values: list[float]) -> str:
    """p50, p99 and max of seconds, in ms (a tenth below 10 ms)."""
    ms = [v * 1000 for v in values]

    def said(v: float) -> str:
        return f"{v:.1f}" if v < 10 else f"{v:.0f}"

    return (
        f"p50 {said(statistics.median(ms))} ms, p99 {said(percentile(ms, 0.99))} ms, "
        f"max {said(max(ms))} ms"
    )


def frames_lines(label: str, run: dict[str, Any]) -> list[str]:
    """The app's frames of one run: frame to frame (what the eye sees), then each frame's
    own work, the frames drawn (something changed: a tap, a move) apart from the others,
    then the CPU time the app used in a drawn frame (its work less its waits for a core)."""
    shown = run["drawn"]
    drawn = [work for work, was in zip(run["busy"], shown, strict=True) if was]
    idle = [work for work, was in zip(run["busy"], shown, strict=True) if not was]
    cpu = [used for used, was in zip(run["cpu"], shown, strict=True) if was]
    return [
        f"{label}: {len(run['intervals'])} frames, frame to frame {figures(run['intervals'])}",
        f"    each frame's own work: the {len(drawn)} drawn {figures(drawn) if drawn else '-'}; "
        f"the {len(idle)} others {figures(idle) if idle else '-'}",
        f"    the app's CPU time in a drawn frame: {figures(cpu) if cpu else '-'}",
    ]


def machine() -> str:
    cores = os.cpu_count() or 0
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith(("model name", "Model"))
        ),
        platform.processor() or "?",
    )
    return f"{platform.system()} {platform.machine()}, {cores} cores ({model})"


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


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
    url: str, clients: int, stop: Any, ready: Any, results: list[tuple[list[float], list[float]]]
) -> None:
    async with aiohttp.ClientSession() as session:
        tasks = []
        for _ in range(clients):
            arrivals: list[float] = []
            tables: list[float] = []
            results.append((arrivals, tables))
            tasks.append(asyncio.create_task(follow(url, session, arrivals, tables)))
        while not stop.is_set():
            if all(tables for _arrivals, tables in results):
                ready.set()  # every feed open, its first table fetched
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def clients_process(url: str, clients: int, stop: Any, ready: Any, out: Any) -> None:
    """The phones, in a process of their own; their times go back through ``out``
    (CLOCK_MONOTONIC is the same clock in every process of the machine), with the CPU
    time they took."""
    results: list[tuple[list[float], list[float]]] = []
    asyncio.run(run_clients(url, clients, stop, ready, results))
    out.put((results, time.process_time()))


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


def games_folder(folder: Path) -> int:
    """``folder`` with a finished game in its journal (for the game page's weight); its id."""
    folder.mkdir(parents=True)
    with Store(folder / "games.sqlite3") as store:
        return finished_game(store)


def play(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The app playing the game in ``folder``: its figures (``ui/frames.py``)."""
    command = [sys.executable, "-m", "ui.frames", str(folder)]
    command += ["--moves", str(args.moves), "--pace", str(args.pace)]
    done = subprocess.run(
        command,
        env=headless(folder),
        capture_output=True,
        text=True,
        timeout=60 + args.moves * (5 + args.pace),
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        status, said = done.returncode, done.stderr[-3000:]
        raise SystemExit(f"the app did not finish its game (exit status {status}):\n{said}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def start_server(folder: Path, port: int, clients: int) -> subprocess.Popen[bytes]:
    """``splendor-companion serve`` on ``folder``'s journal, once it answers."""
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "splendor_companion", "serve", "--host", "127.0.0.1"),
            *("--port", str(port), "--data-dir", str(folder)),
            *("--max-clients", str(max(32, clients))),  # the kiosk's default, or more
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/table") as answer:
                answer.read()
            return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise SystemExit("the web server did not start") from None
            time.sleep(0.1)


def with_page(folder: Path, finished: int, args: argparse.Namespace) -> dict[str, Any]:
    """The game played with the server and its clients running: the app's figures, each
    client's delays, the server's memory and CPU time, the clients' CPU time, the pages'
    weights."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(folder, port, args.clients)
    try:
        idle = memory_mb(server.pid)
        context = multiprocessing.get_context("spawn")
        stop, ready, out = context.Event(), context.Event(), context.Queue()
        # A daemon: if the app fails, the clients end with this process, not hold it open.
        phones = context.Process(
            target=clients_process, args=(url, args.clients, stop, ready, out), daemon=True
        )
        phones.start()
        if not ready.wait(60):
            raise SystemExit("the live clients did not all connect")
        used = cpu_seconds(server.pid)
        run = play(folder, args)
        time.sleep(AFTER_LAST_MOVE)
        run["server_cpu"] = cpu_seconds(server.pid) - used
        run["memory"] = (idle, memory_mb(server.pid), memory_mb(server.pid, "VmHWM"))
        stop.set()
        results, run["clients_cpu"] = out.get(timeout=30)
        phones.join(30)
        run["weights"] = page_weights(url, finished)
    finally:
        server.terminate()
        server.wait(10)
    run["events"] = [d for arrivals, _tables in results for d in delays(run["journaled"], arrivals)]
    run["shown"] = [d for _arrivals, tables in results for d in delays(run["journaled"], tables)]
    return run


def report(runs: list[tuple[dict[str, Any], dict[str, Any]]], args: argparse.Namespace) -> None:
    """What the rounds measured: the page's figures over every round, then the app's
    frames round by round, with the page and without."""
    pages = [page for page, _alone in runs]
    events = [d for page in pages for d in page["events"]]
    shown = [d for page in pages for d in page["shown"]]
    moves = sum(len(page["journaled"]) for page in pages)
    print(f"{args.clients} live clients, {moves} moves journaled by the app")
    if events:
        print(
            f"move journaled -> event at each client: median {statistics.median(events):.0f} ms, "
            f"p99 {percentile(events, 0.99):.0f} ms ({len(events)} events)"
        )
        print(
            f"move journaled -> table fetched again: median {statistics.median(shown):.0f} ms, "
            f"p99 {percentile(shown, 0.99):.0f} ms"
        )
    idle, busy, peak = (max(page["memory"][i] for page in pages) for i in range(3))
    print(
        f"memory (RSS) of the server (serve), idle: {idle:.0f} MB; with the clients: "
        f"{busy:.0f} MB; its peak: {peak:.0f} MB"
    )
    for name, size in pages[0]["weights"].items():
        print(f"weight of {name}: {size / 1024:.1f} KB")
    print(
        f"the app's frames (800x480, Kivy's clock at {pages[0]['fps']:.0f} a second), "
        f"from the first tap to {AFTER_LAST_MOVE:.0f} s after the last move:"
    )
    for number, (page, alone) in enumerate(runs, start=1):
        played = sum(page["intervals"])
        print("\n".join(frames_lines(f"  {number}. with the server and the clients", page)))
        print(
            f"    CPU time meanwhile: the server {page['server_cpu']:.1f} s in {played:.0f} s "
            f"({100 * page['server_cpu'] / played:.0f}% of a core), the clients' process "
            f"{page['clients_cpu']:.1f} s"
        )
        print("\n".join(frames_lines(f"  {number}. without them (no server)", alone)))
    print(
        f"(this machine has {os.cpu_count()} cores, a Raspberry Pi 4 has 4; the clients' "
        "process shares them here, on the kiosk the clients are phones)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The web page's figures (no judgement).")
    parser.add_argument("--clients", type=int, default=20, choices=range(1, 101), metavar="N")
    parser.add_argument("--moves", type=int, default=40, choices=range(1, 201), metavar="N")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between two moves")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        choices=range(1, 11),
        metavar="N",
        help="the game with the page, then without, N times",
    )
    args = parser.parse_args(argv)
    print(f"machine: {machine()}; load average {load()} (1, 5, 15 min)")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(args.rounds):
            live, alone = Path(tmp) / f"with-{number}", Path(tmp) / f"without-{number}"
            finished = games_folder(live)
            games_folder(alone)
            runs.append((with_page(live, finished, args), play(alone, args)))
    report(runs, args)
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
