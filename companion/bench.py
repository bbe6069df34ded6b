"""Speed figures of the engine, printed for the README: ``splendor-companion bench``.

Figures, not pass/fail: tests never assert timings.

The honest figure comes first: **uniform random play** through the public API, in a fresh
process for each player count, with no warm-up. At every turn the legal actions are
generated (:meth:`Game.actions`), one is chosen uniformly, then one of its completions
(:meth:`Game.completions`: the tokens returned and the noble chosen, when due), the
table's reveal is dealt from the unseen cards, and :meth:`Game.push` validates and applies
the whole move. Goal (enough for the companion's playouts): 1,000 two-player games a second
in one CPython process, 600 at least.

The engine runs as installed: compiled with mypyc where ``./setup.sh`` could build it
(:mod:`companion.engine.native`), which the first lines say. The other figures are labelled for
what they are: the same play from the engine's source (pure Python), uniform over every
whole legal move (``legal_moves()`` listed in full each turn, as the engine was first
measured), the kind-first random player of :mod:`companion.engine.simulate`, several
processes, and the app's own paths (``push`` alone, replay, journal).

``--baseline REF`` measures this engine against the one of a git ``REF`` (a commit, a tag,
``origin/main``) in the same run: that engine is unpacked from the repository into a
temporary folder and compiled there, and the two play the same uniform random games in
turn, compiled and from their source, in fresh processes (best of several rounds, so that
the other work of the machine weighs on both alike). No second copy of the engine is kept
in the tree.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import io
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .engine import native
from .engine.game import Game
from .engine.simulate import DEFAULT_NAMES, MAX_MOVES, Dealer, choose, random_setup, simulate
from .errors import CompanionError, ErrorCode
from .figures import percentile
from .i18n import N_, ngettext, number, translate
from .interrupt import worker_pool
from .journal.session import Session
from .journal.store import Store
from .records.record import Record, read, replay, write

PLAYER_COUNTS = (2, 3, 4)
GOAL, FLOOR = 1000, 600  # uniform random 2-player games a second, cold


def verdict(rate: float) -> str:
    """The honest figure against the goal and floor, in the reader's language."""
    _ = translate
    if rate >= GOAL:
        said = _("met")
    elif rate >= FLOOR:
        said = _("the floor met, the goal not")
    else:
        said = _("NOT met")
    return _("goal: {goal} two-player games/s, {floor} at least: {verdict}").format(
        goal=number(GOAL), floor=number(FLOOR), verdict=said
    )


def uniform_games(n: int, players: int, whole: bool = False) -> tuple[float, float, float]:
    """Games a second (by the clock, and by this process's CPU time) and moves a game of
    uniform random play, from the first game on.

    ``whole``: choose uniformly among every whole legal move (``legal_moves()``) instead
    of an action, then a completion.
    """
    moves = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for seed in range(n):
        rng = random.Random(seed)
        game = Game(random_setup(rng, DEFAULT_NAMES[:players]))
        dealer = Dealer(game, rng)
        choice = rng.choice
        played = 0
        while not game.over and not game.stalled and played < MAX_MOVES:
            if whole:
                move = choice(list(game.legal_moves()))
            else:
                move = choice(game.completions(choice(game.actions())))
            game.push(dealer.deal(move))
            played += 1
        moves += played
    return n / (time.perf_counter() - start), n / (time.process_time() - cpu), moves / n


def cold(
    n: int, players: int, whole: bool = False, pure: bool = False, tree: Path | None = None
) -> tuple[float, float, float]:
    """:func:`uniform_games` in a fresh interpreter: nothing built or cached beforehand.

    ``pure``: the engine from its source even where it is compiled (:mod:`companion.engine.native`).
    ``tree``: a folder holding another engine (:func:`baseline`) to play instead of this
    one; the same :func:`uniform_games`, this module's, is sent to play it.
    """
    simulate = "companion.engine.simulate"
    if tree is not None and not (tree / native.PACKAGE.name / "engine").is_dir():
        simulate = "companion.simulate"  # a baseline from before the engine had its own folder
    code = (
        "import random, time\n"
        "from companion import Game\n"
        f"from {simulate} import DEFAULT_NAMES, MAX_MOVES, Dealer, random_setup\n"
        f"{inspect.getsource(uniform_games)}\n"
        f"print(*uniform_games({n}, {players}, {whole}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE}
    if pure:
        env[native.PURE] = "1"
    # The folder a fresh interpreter runs in comes first on its path: the engine there.
    where = tree if tree is not None else native.PACKAGE.parent
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
        cwd=where,
    ).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1]), float(out[2])


@contextmanager
def baseline(ref: str, build: bool = True) -> Iterator[tuple[Path, bool]]:
    """The engine of git ``ref`` in a temporary folder, compiled there when it can be (and
    ``build``): the folder, and whether it was compiled. :class:`CompanionError` when
    ``ref`` cannot be read from the repository this package is in."""
    _ = translate
    root = native.PACKAGE.parent
    package = native.PACKAGE.name
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", f"{ref}^{{commit}}", package],
            capture_output=True,
        )
    except OSError as err:
        raise CompanionError(
            ErrorCode.BAD_BASELINE,
            N_("--baseline needs git, which cannot be run: {reason}"),
            {"reason": str(err)},
        ) from None
    if archive.returncode != 0:
        said = archive.stderr.decode(errors="replace").strip().splitlines()
        raise CompanionError(
            ErrorCode.BAD_BASELINE,
            N_("--baseline {ref}: not a commit of the git repository at {root} ({reason})"),
            {"ref": ref, "root": root, "reason": said[-1] if said else archive.returncode},
        )
    with tempfile.TemporaryDirectory(prefix="splendor-baseline-") as temp:
        tree = Path(temp)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tree, filter="data")
        if not build:
            yield tree, False
            return
        env = {k: v for k, v in os.environ.items() if k != native.PURE}
        env["MYPY_CACHE_DIR"] = str(tree / ".mypy_cache")
        # The build command where that engine has it (before the engine's own folder, the
        # package's).
        command = "engine.build" if (tree / package / "engine" / "build.py").exists() else "build"
        built = subprocess.run(
            [sys.executable, "-m", f"{package}.{command}", "--force"],
            cwd=tree, env=env, capture_output=True, text=True,
        )  # fmt: skip
        yield tree, built.returncode == 0


def against(ref: str, n: int, rounds: int, build: bool = True) -> None:
    """Print this engine's speed beside the one of git ``ref`` (see the module's docs),
    2-player games a second by CPU time, the best of ``rounds`` (``build``: compile
    ``ref``'s engine to compare the compiled ones too)."""
    _ = translate
    print(
        _("this engine against the one of {ref}, measured alternately in this run:").format(ref=ref)
    )
    with baseline(ref, build) as (tree, built):
        if build and not built:
            print(
                "  "
                + _("{ref} could not be compiled here: only the source is compared").format(ref=ref)
            )
        ways = [True] if not (built and native.compiled()) else [False, True]
        for pure in ways:
            ours: list[float] = []
            theirs: list[float] = []
            for _round in range(rounds):
                # By CPU time: the clock counts the other work of the machine too.
                ours.append(cold(n, 2, pure=pure)[1])
                theirs.append(cold(n, 2, pure=pure, tree=tree)[1])
            new, old = max(ours), max(theirs)
            line = (
                _("from the source, 2 players: {new} games/s by CPU time, {ref}: {old} ({change})")
                if pure
                else _("compiled, 2 players: {new} games/s by CPU time, {ref}: {old} ({change})")
            )
            print(
                "  "
                + line.format(
                    new=number(new), old=number(old), ref=ref,
                    change=f"{(new / old - 1) * 100:+.1f} %",
                )
            )  # fmt: skip


def engine_words() -> str:
    """Which engine this process runs: compiled (:mod:`companion.engine.native`) or its source."""
    _ = translate
    if native.compiled():
        return _("the engine compiled with mypyc (python -m companion.engine.build)")
    return _(
        "the engine from its source, not compiled (python -m companion.engine.build compiles it)"
    )


def _games(seeds: range) -> int:
    moves = 0
    for seed in seeds:
        moves += len(simulate(players=2 + seed % 3, seed=seed).moves)
    return moves


def _warm(_: int) -> None:
    _games(range(10_000, 10_100))


def kind_first_games(n: int, workers: int) -> float:
    """Games a second of :func:`companion.engine.simulate.simulate` (its kind-first random player,
    2 to 4 players in turn), after 100 warm-up games, on ``workers`` processes."""
    if workers == 1:
        _warm(0)
        start = time.perf_counter()
        _games(range(n))
    else:
        chunks = [range(i, n, workers) for i in range(workers)]
        with worker_pool(workers) as pool:
            list(pool.map(_warm, range(workers)))
            start = time.perf_counter()
            sum(pool.map(_games, chunks))
    return n / (time.perf_counter() - start)


def apply_times(n_games: int) -> list[float]:
    """Microseconds per ``push`` (validation included) over the moves of random games."""
    times = []
    for seed in range(n_games):
        rng = random.Random(seed)
        game = Game(random_setup(rng, DEFAULT_NAMES[: 2 + seed % 3]))
        dealer = Dealer(game, rng)
        while not game.over and not game.stalled:
            move = dealer.deal(choose(rng, list(game.legal_moves())))
            t0 = time.perf_counter_ns()
            game.push(move)
            times.append((time.perf_counter_ns() - t0) / 1000)
    return times


def long_record(min_moves: int = 120) -> str:
    """A real 4-player record of at least ``min_moves`` moves, cut to exactly that many."""
    seed = 0
    while True:
        game = simulate(players=4, seed=seed)
        if len(game.moves) >= min_moves:
            record = Record(game.setup, list(game.moves)[:min_moves])
            return write(record)
        seed += 1


def replay_ms(text: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = replay(read(text))
        times.append((time.perf_counter() - t0) * 1000)
        assert result.valid
    return times


def journal_figures(text: str, repeat: int) -> tuple[list[float], list[float]]:
    """Milliseconds to journal one move (durably), and to resume a 120-move game."""
    record = read(text)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "games.sqlite3")
        commits = []
        for _ in range(max(1, repeat // 40)):
            session = Session.start(store, record.setup)
            for move in record.moves:
                t0 = time.perf_counter()
                session.play(move)
                commits.append((time.perf_counter() - t0) * 1000)
        resumes = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            Session.resume(store, session.game_id)
            resumes.append((time.perf_counter() - t0) * 1000)
        store.close()
    return commits, resumes


def main(quick: bool = False, base: str | None = None) -> int:
    n = 100 if quick else 1000
    workers = os.cpu_count() or 1
    _ = translate
    print(
        ngettext(
            "Splendor Companion engine benchmark ({n} core, Python {version})",
            "Splendor Companion engine benchmark ({n} cores, Python {version})",
            workers,
        ).format(n=workers, version=sys.version.split()[0])
    )
    print(engine_words())
    if base is not None:
        against(base, n, 2 if quick else 5)
        return 0
    print(_("uniform random play, public API, one process, cold (actions, then completions):"))
    for players in PLAYER_COUNTS:
        rate, cpu, per_game = cold(n, players)
        print(
            "  "
            + _(
                "{players} players: {rate} games/s ({cpu} by CPU time; {moves} moves a game)"
            ).format(players=players, rate=number(rate), cpu=number(cpu), moves=number(per_game))
        )
        if players == 2:
            print("    " + verdict(rate))
    print(_("other figures:"))
    if native.compiled():
        rate, cpu, per_game = cold(n, 2, pure=True)
        print(
            "  "
            + _(
                "the same from the engine's source (pure Python), 2 players: "
                "{rate} games/s ({cpu} by CPU time)"
            ).format(rate=number(rate), cpu=number(cpu))
        )
    rate, cpu, per_game = cold(n // 5, 2, whole=True)
    print(
        "  "
        + _(
            "uniform over whole legal moves (legal_moves() listed), 2 players, cold: "
            "{rate} games/s ({cpu} by CPU time; {moves} moves a game)"
        ).format(rate=number(rate), cpu=number(cpu), moves=number(per_game))
    )
    rate = kind_first_games(n // 2, 1)
    print(
        "  "
        + _("kind-first random player (simulate, 2-4 players), warm, 1 process: {rate}").format(
            rate=number(rate)
        )
    )
    if workers > 1:
        rate = kind_first_games(n // 2, workers)
        print("  " + _("the same on {n} processes: {rate}").format(n=workers, rate=number(rate)))
    # The app freezes what it has loaded once started (ui.application), so that the
    # collector does not walk the card data and move caches again and again: do the same.
    gc.collect()
    gc.freeze()
    times = apply_times(20 if quick else 200)
    print(
        ngettext(
            "apply + validation, us: median {median}, p99 {p99} ({n} move)",
            "apply + validation, us: median {median}, p99 {p99} ({n} moves)",
            len(times),
        ).format(
            median=number(statistics.median(times), 1),
            p99=number(percentile(times, 0.99), 1),
            n=number(len(times)),
        )
    )
    text = long_record()
    replays = replay_ms(text, 20 if quick else 200)
    commits, resumes = journal_figures(text, 20 if quick else 200)
    for template, values in (
        (_("replay a 120-move record (read+apply), ms: median {median}, p99 {p99}"), replays),
        (_("journal one move (commit, fsync), ms: median {median}, p99 {p99}"), commits),
        (_("resume a 120-move game from the journal, ms: median {median}, p99 {p99}"), resumes),
    ):
        print(
            template.format(
                median=number(statistics.median(values), 2),
                p99=number(percentile(values, 0.99), 2),
            )
        )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", metavar="REF")
    parsed = parser.parse_args()
    raise SystemExit(main(parsed.quick, parsed.baseline))
