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
runs (frame to frame, and each frame's own work: p50, p99, max). In the reader's language
(``SPLENDOR_LANG``, else the locale's), numbers written its way, like the other benchmarks.
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

from companion import scratch
from companion.arguments import command_line, whole_number
from companion.figures import percentile
from companion.i18n import N_, _, ngettext, number, percent
from companion.journal.store import Store
from ui.bench import headless

from .sample import finished_game

AFTER_LAST_MOVE = 1.0  # the last move's events and fetches, before the clients stop


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
        return number(v, 1) if v < 10 else number(v)

    return _("p50 {p50} ms, p99 {p99} ms, max {max} ms").format(
        p50=said(statistics.median(ms)), p99=said(percentile(ms, 0.99)), max=said(max(ms))
    )


def frames_lines(label: str, run: dict[str, Any]) -> list[str]:
    """The app's frames of one run: frame to frame (what the eye sees), then each frame's
    own work, the frames drawn (something changed: a tap, a move) apart from the others,
    then the CPU time the app used in a drawn frame (its work less its waits for a core)."""
    shown = run["drawn"]
    drawn = [work for work, was in zip(run["busy"], shown, strict=True) if was]
    idle = [work for work, was in zip(run["busy"], shown, strict=True) if not was]
    cpu = [used for used, was in zip(run["cpu"], shown, strict=True) if was]
    count = len(run["intervals"])
    heading = ngettext(
        "{label}: {n} frame, frame to frame {figures}",
        "{label}: {n} frames, frame to frame {figures}",
        count,
    )
    drawn_said = ngettext("the {n} drawn {figures}", "the {n} drawn {figures}", len(drawn))
    idle_said = ngettext("the {n} other {figures}", "the {n} others {figures}", len(idle))
    work = _("each frame's own work: {drawn}; {others}").format(
        drawn=drawn_said.format(n=number(len(drawn)), figures=figures(drawn) if drawn else "-"),
        others=idle_said.format(n=number(len(idle)), figures=figures(idle) if idle else "-"),
    )
    used = _("the app's CPU time in a drawn frame: {figures}")
    return [
        heading.format(label=label, n=number(count), figures=figures(run["intervals"])),
        "    " + work,
        "    " + used.format(figures=figures(cpu) if cpu else "-"),
    ]


def machine() -> str:
    """The machine in a few words (its system, its cores, its processor's model)."""
    cores = os.cpu_count() or 0
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith(("model name", "Model"))
        ),
        platform.processor() or "?",
    )
    return ngettext(
        "{system} {machine}, {n} core ({model})", "{system} {machine}, {n} cores ({model})", cores
    ).format(system=platform.system(), machine=platform.machine(), n=number(cores), model=model)


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    """The load average over 1, 5 and 15 minutes, written the reader's way."""
    return " ".join(number(float(v), 2) for v in Path("/proc/loadavg").read_text().split()[:3])


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
            # The pages' names, translated where they are printed (the files' are not).
            for name, path, extra in (
                (N_("live table"), "/", css + out["live.js"]),
                (N_("game page"), f"/games/{game}", css),
                (N_("games"), "/games", css),
                (N_("statistics"), "/stats", css),
                (N_("API table"), "/api/v1/table", 0),
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
        raise SystemExit(
            _("the app did not finish its game (exit status {status}):").format(status=status)
            + "\n"
            + said
        )
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
                raise SystemExit(_("the web server did not start")) from None
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
            raise SystemExit(_("the live clients did not all connect"))
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


def report(runs: list[tuple[dict[str, Any], dict[str, Any]]], clients: int) -> str:
    """What the rounds measured, in the reader's language: the page's figures over every
    round, then the app's frames round by round, with the page and without."""
    pages = [page for page, _alone in runs]
    events = [d for page in pages for d in page["events"]]
    shown = [d for page in pages for d in page["shown"]]
    moves = sum(len(page["journaled"]) for page in pages)
    lines = [
        ngettext("{n} live client", "{n} live clients", clients).format(n=number(clients))
        + ", "
        + ngettext("{n} move journaled by the app", "{n} moves journaled by the app", moves).format(
            n=number(moves)
        )
    ]
    if events:
        lines.append(
            ngettext(
                "move journaled -> event at each client: median {median} ms, p99 {p99} ms "
                "({n} event)",
                "move journaled -> event at each client: median {median} ms, p99 {p99} ms "
                "({n} events)",
                len(events),
            ).format(
                median=number(statistics.median(events)),
                p99=number(percentile(events, 0.99)),
                n=number(len(events)),
            )
        )
        lines.append(
            _("move journaled -> table fetched again: median {median} ms, p99 {p99} ms").format(
                median=number(statistics.median(shown)), p99=number(percentile(shown, 0.99))
            )
        )
    idle, busy, peak = (max(page["memory"][i] for page in pages) for i in range(3))
    lines.append(
        _(
            "memory (RSS) of the server (serve), idle: {idle} MB; with the clients: {busy} MB; "
            "its peak: {peak} MB"
        ).format(idle=number(idle), busy=number(busy), peak=number(peak))
    )
    for name, size in pages[0]["weights"].items():
        lines.append(
            _("weight of {name}: {size} KB").format(name=_(name), size=number(size / 1024, 1))
        )
    lines.append(
        _(
            "the app's frames (800x480, Kivy's clock at {fps} a second), from the first tap "
            "to {after} s after the last move:"
        ).format(fps=number(pages[0]["fps"]), after=number(AFTER_LAST_MOVE))
    )
    for count, (page, alone) in enumerate(runs, start=1):
        played = sum(page["intervals"])
        beside = _("with the server and the clients")
        lines += frames_lines(f"  {number(count)}. {beside}", page)
        lines.append(
            "    "
            + _(
                "CPU time meanwhile: the server {server} s in {played} s ({share} of a core), "
                "the clients' process {clients} s"
            ).format(
                server=number(page["server_cpu"], 1),
                played=number(played),
                share=percent(page["server_cpu"] / played),
                clients=number(page["clients_cpu"], 1),
            )
        )
        without = _("without them (no server)")
        lines += frames_lines(f"  {number(count)}. {without}", alone)
    cores = os.cpu_count() or 0
    lines.append(
        ngettext(
            "(this machine has {n} core, a Raspberry Pi 4 has 4; the clients' process shares "
            "it here, on the kiosk the clients are phones)",
            "(this machine has {n} cores, a Raspberry Pi 4 has 4; the clients' process shares "
            "them here, on the kiosk the clients are phones)",
            cores,
        ).format(n=number(cores))
    )
    return "\n".join(lines)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line, its help and its errors in the reader's language."""
    with command_line(
        "python -m web.bench",
        _(
            "The web page's figures (no judgement): live clients following a game the app "
            "plays, then the same game without them."
        ),
    ) as parser:
        parser.add_argument(
            "--clients",
            type=whole_number(1, 100),
            default=20,
            metavar="N",
            help=_("live clients following the game (the phones), 1 to 100"),
        )
        parser.add_argument(
            "--moves",
            type=whole_number(1, 200),
            default=40,
            metavar="N",
            help=_("moves the app plays, 1 to 200"),
        )
        parser.add_argument("--pace", type=float, default=0.5, help=_("seconds between two moves"))
        parser.add_argument(
            "--games",
            type=whole_number(1, 100_000),
            metavar="N",
            help=_(
                "instead: a club's journal of N games (made once, kept in the temporary "
                "folder), each page's and answer's size and time"
            ),
        )
        parser.add_argument(
            "--rounds",
            type=whole_number(1, 10),
            default=1,
            metavar="N",
            help=_("the game with the page, then without, N times"),
        )
        return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    scratch.enter("splendor-web-bench-")  # the app's Kivy files and games: never a kiosk's
    print(
        _("machine: {machine}; load average {load} (1, 5, 15 min)").format(
            machine=machine(), load=load()
        )
    )
    if args.games is not None:
        from .club import figures

        for line in figures(args.games):
            print(line)
        return 0
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            live, alone = Path(tmp) / f"with-{round_}", Path(tmp) / f"without-{round_}"
            finished = games_folder(live)
            games_folder(alone)
            runs.append((with_page(live, finished, args), play(alone, args)))
    print(report(runs, args.clients))
    print(_("load average at the end: {load}").format(load=load()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
