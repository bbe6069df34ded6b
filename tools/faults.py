"""Fault injection on the games journal: what the table was shown as done
survives a kill, a full disk or a damaged row ("the journal is sacred").

    python tools/faults.py               # the full run: 50 kills, and each other fault
    python tools/faults.py --quick       # 3 kills (what the test suite runs)
    python tools/faults.py --kills 500 --seed 7
    python tools/faults.py --json        # one JSON object instead of the table

Each fault is played through the public API (a :class:`companion.journal.session.Session` in a
subprocess) or the command line (a subprocess), and reported as what was acknowledged
(moves the table was shown as done, games committed) against what was found in the
journal afterwards, with the tracebacks the subprocesses printed. The goal: equal, always,
and no traceback, ever. The exit status is 1 when a fault missed it.

The faults: SIGKILL during play; a full disk during play, then the games read and copied
off that full disk; an export onto a full stick; a damaged row; a read-only folder whose
journal has a WAL file and no ``-shm``. A full disk is a small tmpfs, a read-only folder a
read-only bind mount: both need root. Without root a full disk is stood in for by a file
size limit (``RLIMIT_FSIZE``) and a read-only folder by its mode (0555), and the report
says so; a fault that cannot be staged at all is reported as skipped, with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import scratch  # noqa: E402
from companion.engine.simulate import simulate  # noqa: E402
from companion.journal.store import GameState, Store  # noqa: E402
from companion.records.record import Record, move_document  # noqa: E402

TRACEBACK = "Traceback (most recent call last)"


def child_env() -> dict[str, str]:
    """The players' environment: this process's (its scratch home, once :func:`main` moved
    there), the clone on the path, English."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "SPLENDOR_LANG": "en"}


# A table playing through the Session: each move printed once the journal has it (only
# then would the app show it as done). It resumes the unfinished game, or starts one.
# With "wait" it says "ready" and waits for a line before playing (the disk gets full).
PLAYER = textwrap.dedent(
    """
    import json, random, signal, sys
    from companion.records.record import move_document
    from companion.journal.session import Session
    from companion.engine.simulate import Dealer, choose, random_setup
    from companion.journal.store import Store, StoreError
    path, seed, wait = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "wait"
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file size limit: an error, not death
    rng = random.Random(seed)
    store = Store(path)
    info = store.latest_unfinished()
    if info is None:
        session = Session.start(store, random_setup(rng, ["Ada", "Ben", "Cleo"]))
    else:
        session = Session.resume(store, info.id)
    dealer = Dealer(session.game, rng)
    print("ready", session.game_id, flush=True)
    if wait:
        sys.stdin.readline()
    try:
        while not session.game.over:
            move = session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
            print("ack", session.game_id, len(session.game.moves),
                  json.dumps(move_document(move)), flush=True)
    except StoreError as err:
        print("refused", err.code, json.dumps(err.message), flush=True)
    print("over", flush=True)
    """
)


@dataclass
class Result:
    fault: str
    unit: str
    acknowledged: int = 0
    found: int = 0
    tracebacks: int = 0
    note: str = ""
    problems: list[str] = field(default_factory=list)
    skipped: str = ""

    @property
    def ok(self) -> bool:
        if self.skipped:
            return True
        return self.acknowledged == self.found and not self.tracebacks and not self.problems


def tracebacks(*texts: str) -> int:
    return sum(text.count(TRACEBACK) for text in texts)


def cli(data: Path, *args: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """``splendor-companion --data-dir data ARGS`` in a subprocess (``limit``: a file size
    limit in bytes, the stand-in for a full disk)."""

    def limited() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        env=child_env(),
        preexec_fn=limited if limit is not None else None,
        check=False,
        timeout=300,
    )


def import_finished(path: Path, seeds: range) -> int:
    with Store(path) as store:
        for seed in seeds:
            game = simulate(players=2, seed=seed)
            store.import_record(Record.of(game), GameState.of(game))
    return len(seeds)


def stored_moves(path: Path) -> dict[int, list[str]]:
    """Every game's moves in play, as the journal gives them back to a reader."""
    with Store(path, reader=True) as store:
        return {
            info.id: [json.dumps(move_document(m)) for m in store.moves(info.id)]
            for info in store.games()
        }


def listed(result: subprocess.CompletedProcess[str]) -> int:
    """How many games ``games`` listed (its lines less the header)."""
    lines = result.stdout.splitlines()
    return 0 if not lines or lines[0].startswith("No games") else len(lines) - 1


# ------------------------------------------------------------------ staging


def is_root() -> bool:
    return os.geteuid() == 0


def mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[bool]:
    """A small tmpfs at ``folder`` (True), or nothing (False: not root, or no right)."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = is_root() and mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder))
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill(folder: Path, leave: int = 0) -> None:
    """Fill the file system of ``folder``, then give back ``leave`` bytes."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 65536)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 512)
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave))
    finally:
        os.close(fd)


def journal_with_a_wal(folder: Path, games: int = 3) -> int:
    """A journal whose last games are committed in its WAL file, with no ``-shm``: as a
    card pulled out while the app ran leaves it. Returns how many games it holds."""
    staging = Path(tempfile.mkdtemp(prefix="faults-wal-"))
    try:
        import_finished(staging / "games.sqlite3", range(1, 2))
        store = Store(staging / "games.sqlite3")
        for seed in range(2, games + 1):
            game = simulate(players=2, seed=seed)
            store.import_record(Record.of(game), GameState.of(game))
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("games.sqlite3", "games.sqlite3-wal"):  # copied while it is open
            shutil.copyfile(staging / name, folder / name)
        store.close()
    finally:
        shutil.rmtree(staging)
    return games


# ------------------------------------------------------------------ the faults


def kills(work: Path, n: int, rng: random.Random) -> Result:
    """SIGKILL of a table playing, ``n`` times, anywhere (mid-commit too)."""
    result = Result(f"SIGKILL during play (x{n})", "moves")
    path = work / "kills" / "games.sqlite3"
    acked: dict[tuple[int, int], str] = {}
    for round_ in range(n):
        child = subprocess.Popen(
            [sys.executable, "-c", PLAYER, str(path), str(round_), "go"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(),
        )
        assert child.stdout is not None and child.stderr is not None
        stop_after = rng.randrange(0, 40)
        for seen, line in enumerate(child.stdout):
            word, *rest = line.split(" ", 3)
            if word == "ack":
                acked[(int(rest[0]), int(rest[1]))] = rest[2].rstrip("\n")
            if seen >= stop_after or word == "over":
                break
        time.sleep(rng.random() * 0.005)  # the kill lands between moves or inside one
        child.kill()
        child.wait()
        result.tracebacks += tracebacks(child.stderr.read())
        child.stdout.close()
        child.stderr.close()
    result.acknowledged = len(acked)
    stored = stored_moves(path)
    result.found = sum(
        1
        for (game, number), text in acked.items()
        if len(stored.get(game, [])) >= number and stored[game][number - 1] == text
    )
    with sqlite3.connect(path) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        result.problems.append(f"integrity check: {check}")
    result.note = f"{len(stored)} games"
    return result


def _play_until_full(path: Path, disk: Path | None, leave: int) -> tuple[Result, str]:
    """A table playing while the disk fills up (``disk``: a tmpfs to fill; ``None``: a
    file size limit stands in). Returns the result and the refusal said."""
    result = Result("disk full during play", "moves")
    limit = None
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER, str(path), "7", "wait"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    assert child.stdin is not None and child.stdout is not None
    ready = child.stdout.readline().split()
    if disk is not None:
        fill(disk, leave)
    else:
        size = sum(p.stat().st_size for p in path.parent.iterdir() if p.is_file())
        limit = size + leave
        # The stand-in: the child may write no file beyond the journal's size now.
        resource.prlimit(child.pid, resource.RLIMIT_FSIZE, (limit, limit))
    child.stdin.write("go\n")
    child.stdin.flush()
    out, err = child.communicate(timeout=300)
    acked = [line.split(" ", 3) for line in out.splitlines() if line.startswith("ack ")]
    refusal = [line for line in out.splitlines() if line.startswith("refused ")]
    result.tracebacks = tracebacks(err)
    result.acknowledged = len(acked)
    stored = stored_moves(path).get(int(ready[1]), [])
    result.found = sum(
        1 for _, _, n, text in acked if len(stored) >= int(n) and stored[int(n) - 1] == text
    )
    said = json.loads(refusal[0].split(" ", 2)[2]) if refusal else ""
    if not refusal:
        result.problems.append("the disk never refused a move")
    elif disk is not None and "disk is full" not in said:
        result.problems.append(f"the refusal does not say the disk is full: {said}")
    return result, said


def full_disk(work: Path) -> list[Result]:
    """A full disk during play; then, the disk still full, the games listed, counted and
    copied off to another device; and an export onto a full stick."""
    results = []
    with small_disk(work / "disk") as mounted:
        disk = work / "disk" if mounted else None
        data = (disk or work / "limited") / "data"
        path = data / "games.sqlite3"
        finished = import_finished(path, range(1, 3))
        play, said = _play_until_full(path, disk, 96 * 1024)
        play.note = ("tmpfs" if mounted else "stand-in: file size limit") + f"; said: {said}"
        results.append(play)
        reading = Result("reading a full disk (games, stats, export)", "games")
        if disk is None:
            reading.skipped = "a full disk to read needs a tmpfs (root)"
        else:
            fill(disk)
            games = cli(data, "games")
            stats = cli(data, "stats")
            usb = work / "usb-elsewhere"
            export = cli(data, "export", "--all", "--to", str(usb))
            reading.acknowledged = finished + 1  # and the game in play
            reading.found = listed(games)
            reading.tracebacks = tracebacks(games.stderr, stats.stderr, export.stderr)
            for name, done in (("games", games), ("stats", stats), ("export", export)):
                if done.returncode:
                    reading.problems.append(f"{name}: {done.stderr.strip()}")
            if f"{finished} finished games exported" not in export.stdout:
                reading.problems.append(f"export: {export.stdout.strip()}")
            reading.note = f"exported: {export.stdout.strip()}"
        results.append(reading)
    results.append(export_to_full_stick(work, data if disk is None else None))
    return results


def export_to_full_stick(work: Path, data: Path | None) -> Result:
    result = Result("export onto a full stick", "games")
    data = data or work / "stick-data"
    if not (data / "games.sqlite3").exists():
        import_finished(data / "games.sqlite3", range(1, 4))
    before = stored_moves(data / "games.sqlite3")
    with small_disk(work / "stick", "512k") as mounted:
        stick = work / "stick"
        if mounted:
            fill(stick, 4096)
            done = cli(data, "export", "--all", "--to", str(stick / "splendor-games"))
        else:
            done = cli(data, "export", "--all", "--to", str(stick / "splendor-games"), limit=4096)
        result.note = ("tmpfs" if mounted else "stand-in: file size limit") + (
            f"; said: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}"
        )
        result.tracebacks = tracebacks(done.stderr)
        if done.returncode != 2:
            result.problems.append(f"exit {done.returncode}, not 2")
        halves = [p.name for p in stick.rglob("*.part")]
        if halves:
            result.problems.append(f"half-written files left: {halves}")
    after = stored_moves(data / "games.sqlite3")
    result.acknowledged, result.found = (
        len(before),
        sum(1 for game, moves in before.items() if after.get(game) == moves),
    )
    return result


def damaged_row(work: Path) -> Result:
    """One game's players and another's move no longer JSON, SQLite's check still ok."""
    result = Result("a damaged row (games, stats, export)", "games")
    data = work / "damaged"
    path = data / "games.sqlite3"
    result.acknowledged = import_finished(path, range(1, 5))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = '[\"Ada\", ' WHERE id = 2")
        db.execute("UPDATE moves SET move = '{' WHERE game_id = 3 AND seq = 5")
        rows = db.execute("SELECT players, record FROM games ORDER BY id").fetchall()
    games = cli(data, "games")
    stats = cli(data, "stats")
    export = cli(data, "export", "--all", "--to", str(work / "damaged-usb"))
    result.found = listed(games)
    result.tracebacks = tracebacks(games.stderr, stats.stderr, export.stderr)
    if "2 finished games exported" not in export.stdout:
        result.problems.append(f"export: {export.stdout.strip()}")
    for name, done in (("games", games), ("stats", stats), ("export", export)):
        if done.returncode != 2 or "game 2" not in done.stderr or "game 3" not in done.stderr:
            result.problems.append(f"{name} did not name the damaged games")
    with sqlite3.connect(path) as db:
        if db.execute("SELECT players, record FROM games ORDER BY id").fetchall() != rows:
            result.problems.append("the damaged rows were changed")
    result.note = export.stdout.strip()
    return result


def read_only_folder(work: Path) -> Result:
    """A read-only folder whose journal has a WAL file and no ``-shm``."""
    result = Result("read-only folder, WAL and no -shm", "games")
    folder = work / "card"
    result.acknowledged = journal_with_a_wal(folder)
    staged = ""
    if is_root():
        if mount("--bind", str(folder), str(folder)) and mount(
            "-o", "remount,ro,bind", str(folder)
        ):
            staged = "read-only bind mount"
    else:
        folder.chmod(0o555)
        staged = "folder mode 0555"
    if not staged:
        result.skipped = "no right to mount here"
        return result
    try:
        games = cli(folder, "games")
        export = cli(folder, "export", "--all", "--to", str(work / "card-usb"))
        result.found = listed(games)
        result.tracebacks = tracebacks(games.stderr, export.stderr)
        if games.returncode or export.returncode:
            result.problems.append(games.stderr.strip() or export.stderr.strip())
        result.note = f"{staged}; {export.stdout.strip()}"
    finally:
        if is_root():
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)
        else:
            folder.chmod(0o755)
    return result


# ------------------------------------------------------------------ the run


def run(n_kills: int, seed: int) -> list[Result]:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="splendor-faults-"))
    steps: list[Callable[[], Result | list[Result]]] = [
        lambda: kills(work, n_kills, rng),
        lambda: full_disk(work),
        lambda: damaged_row(work),
        lambda: read_only_folder(work),
    ]
    results: list[Result] = []
    try:
        for step in steps:
            done = step()
            results.extend(done if isinstance(done, list) else [done])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


def table(results: list[Result]) -> str:
    head = ("fault", "unit", "acknowledged", "found", "tracebacks", "")
    rows = [head] + [
        (
            r.fault,
            r.unit,
            "-" if r.skipped else str(r.acknowledged),
            "-" if r.skipped else str(r.found),
            "-" if r.skipped else str(r.tracebacks),
            "skipped: " + r.skipped if r.skipped else ("ok" if r.ok else "FAILED"),
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    for r in results:
        for text in ([r.note] if r.note else []) + r.problems:
            lines.append(f"  {r.fault}: {text}")
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs during play (50)")
    parser.add_argument("--quick", action="store_true", help="3 kills: the test suite's run")
    parser.add_argument("--seed", type=int, default=2026, help="the same seed, the same run")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    scratch.enter("splendor-faults-")  # never a kiosk's games, whatever the environment says
    results = run(3 if args.quick else args.kills, args.seed)
    if args.json:
        print(json.dumps([{**asdict(r), "ok": r.ok} for r in results], ensure_ascii=False))
    else:
        print(table(results))
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
