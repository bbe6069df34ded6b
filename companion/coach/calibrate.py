"""The review's chances calibrated: ``python -m companion.coach.calibrate``.

The review's chance of a seat is its judgement of the position (``value.outlook`` averaged
over playouts, as a share of every seat's), not a measured rate. This command measures it:
seeded games of two, three and four medium players (:func:`.verify.table_game`, numbered
from :data:`FIRST` so that ``review_bench --verify``'s games 0 to 99 stay held out) are
reviewed, and from every ``--every``-th position the game is played on by experts
(:func:`.verify.play_out`); each seat's chance before calibration is set beside what it then
won. ``--out FILE`` keeps them, a line a game (a long run can be stopped and fitted from
what it has).

``--fit FILE`` fits, for each table size, the share actually won as a rising function of the
chance said (isotonic regression: pool adjacent violators, over the positions in order of
their chance), and prints it as knots for :mod:`.calibration` (the review reads the chance
between two knots on the straight line between them), then the fit held out: each game's
positions calibrated by the fit of the other half of the games (even against odd), their
Brier score before and after and the table of chances said against shares won.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .. import scratch
from ..ai.search import rollouts_for
from ..arguments import command_line
from ..i18n import _, number, percent
from .calibration import through
from .kept import said_of
from .review import default_playouts, review
from .verify import BINS, EVERY, Said, brier, calibration, play_out, table_game

FIRST = 1000  # the first game collected: review_bench --verify's games come before
KNOTS = 12  # at most this many knots a table size


def collect(job: tuple[int, int, int, int]) -> list[Said]:
    """Game ``n`` reviewed and played on from every ``every``-th position."""
    n, playouts, play_playouts, every = job
    record = table_game(n)
    done = review(record, playouts, seed=n, confirm=False)  # the chances alone
    return play_out(record, done, play_playouts, seed=n, every=every)


def isotonic(points: Sequence[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """The rising step function closest to ``points`` (x, y) in squared error: its steps as
    (mean x, mean y, points), in order of x (pool adjacent violators).

    >>> isotonic([(0.1, 0.0), (0.2, 1.0), (0.3, 0.0), (0.4, 1.0)])
    [(0.1, 0.0, 1), (0.25, 0.5, 2), (0.4, 1.0, 1)]
    """
    blocks: list[list[float]] = []  # [sum x, sum y, n]
    for x, y in sorted(points):
        blocks.append([x, y, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            for i in range(3):
                blocks[-1][i] += last[i]
    return [(round(sx / k, 4), round(sy / k, 4), int(k)) for sx, sy, k in blocks]


def knots(
    points: Sequence[tuple[float, float]], most: int = KNOTS
) -> tuple[tuple[float, float], ...]:
    """At most ``most`` knots (judgement, share won) of the isotonic fit, each standing for
    about as many positions: steps merged in order until each holds its part, so that no
    knot rests on a handful of games."""
    steps = isotonic(points)
    per = max(1, len(points) // most)
    out: list[tuple[float, float]] = []
    sx = sy = 0.0
    k = 0
    for x, y, n in steps:
        sx, sy, k = sx + x * n, sy + y * n, k + n
        if k >= per:
            out.append((round(sx / k, 4), round(sy / k, 4)))
            sx = sy = 0.0
            k = 0
    if k:
        if out:  # the remainder joins the last knot rather than standing alone
            lx, ly = out.pop()
            total = per + k
            out.append((round((lx * per + sx) / total, 4), round((ly * per + sy) / total, 4)))
        else:
            out.append((round(sx / k, 4), round(sy / k, 4)))
    return tuple(out)


class KeptError(Exception):
    """A file ``--fit`` cannot use, in words that name the file, the line and what to do."""


def read(paths: Iterable[Path]) -> dict[int, list[list[Said]]]:
    """The positions kept by ``--out`` (or by ``review_bench --verify --save``: the same
    chances, a line a game), by game: each position its seats' chances. A file or a line
    that is not one of these, or a game kept twice, is a :class:`KeptError`."""
    out: dict[int, list[list[Said]]] = {}
    where: dict[int, str] = {}
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise KeptError(
                _("cannot read {path}: {error}; give another file").format(path=path, error=e)
            ) from e
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                game, positions = _positions(line)
            except (ValueError, KeyError, TypeError, IndexError) as e:
                raise KeptError(
                    _(
                        "{path}, line {line} is not a game kept by calibrate --out or "
                        "review_bench --verify --save; remove that line"
                    ).format(path=path, line=i)
                ) from e
            if game in where:
                raise KeptError(
                    _(
                        "{path}, line {line}: game {game} is kept in {other} too; give each "
                        "game once"
                    ).format(path=path, line=i, game=game, other=where[game])
                )
            where[game] = f"{path}, line {i}"
            out[game] = positions
    return out


def _positions(line: str) -> tuple[int, list[list[Said]]]:
    """One kept line: its game's number and positions; ``ValueError`` when it is not one."""
    data = json.loads(line)
    said = said_of(data["said"])
    positions = []
    while said:
        size = said[0].players
        if not 2 <= size <= 4 or len(said) < size or any(s.players != size for s in said[:size]):
            raise ValueError("not a position's seats")
        positions.append(said[:size])
        said = said[size:]
    return int(data["game"]), positions


def fitted(positions: Sequence[Sequence[Said]]) -> tuple[tuple[float, float], ...]:
    """The knots fitted to every seat of ``positions``: the share won on the chance said
    before calibration."""
    return knots([(s.raw, s.won) for p in positions for s in p])


def applied(knots: Sequence[tuple[float, float]], position: Sequence[Said]) -> list[Said]:
    """A position's chances read through ``knots``, as the review reads them: each seat's,
    then their shares."""
    read = [through(knots, s.raw) for s in position]
    total = sum(read)
    return [
        Said(s.players, r / total if total > 0 else 1 / len(read), s.won, s.raw, s.outlook)
        for s, r in zip(position, read, strict=True)
    ]


def held_out(games: dict[int, list[list[Said]]], size: int) -> list[Said]:
    """Every position of ``size`` players calibrated by a fit that did not see its game:
    two folds, the even games fitted on the odd ones and the odd on the even."""
    out = []
    for fold in (0, 1):
        train = [p for g, ps in games.items() if g % 2 != fold for p in ps if len(p) == size]
        test = [p for g, ps in games.items() if g % 2 == fold for p in ps if len(p) == size]
        if train and test:
            knots = fitted(train)
            out += [s for p in test for s in applied(knots, p)]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    with command_line(
        "python -m companion.coach.calibrate",
        _("Play on from reviewed positions and fit the review's chances to what was won."),
    ) as parser:
        parser.add_argument("--games", type=int, default=60, help=_("games reviewed"))
        parser.add_argument("--first", type=int, default=FIRST, help=_("the first game's number"))
        parser.add_argument(
            "--every", type=int, default=EVERY, help=_("one position in this many is played on")
        )
        parser.add_argument(
            "--play-playouts",
            type=int,
            default=rollouts_for(0.1),
            help=_("the experts' playouts a decision when a game is played on"),
        )
        parser.add_argument("--workers", type=int, default=1, help=_("processes"))
        parser.add_argument("--out", type=Path, help=_("keep the positions in this file"))
        parser.add_argument("--fit", type=Path, nargs="*", help=_("fit from these files"))
        args = parser.parse_args(argv)
    if args.fit:
        try:
            games = read(args.fit)
        except KeptError as e:
            parser.error(str(e))
        for size in (2, 3, 4):
            positions = [p for ps in games.values() for p in ps if len(p) == size]
            if positions:
                chances = number(sum(len(p) for p in positions))
                print(f"    {size}: {fitted(positions)!r},  # {chances}")
        for size in (2, 3, 4):
            tested = held_out(games, size)
            if not tested:
                continue
            raw = [Said(s.players, s.raw, s.won) for s in tested]
            print(
                _(
                    "{n} players, held out (two folds by game): Brier score {raw} before "
                    "calibration, {brier} after, over {k} chances"
                ).format(
                    n=size,
                    raw=number(brier(raw), 4),
                    brier=number(brier(tested), 4),
                    k=number(len(tested)),
                )
            )
            for tenth, ((n, mean, won), (n0, mean0, won0)) in enumerate(
                zip(calibration(tested), calibration(raw), strict=True)
            ):
                print(
                    f"  | {percent(tenth / BINS)}-{percent((tenth + 1) / BINS)} "
                    f"| {percent(mean0)} / {percent(won0)} ({number(n0)}) "
                    f"| {percent(mean)} / {percent(won)} ({number(n)}) |"
                )
        return 0
    scratch.enter("splendor-calibrate-")
    jobs = [
        (n, default_playouts(), args.play_playouts, args.every)
        for n in range(args.first, args.first + args.games)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        for job, said in zip(jobs, pool.map(collect, jobs), strict=True):
            line = json.dumps({"game": job[0], "said": [list(vars_of(s)) for s in said]})
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as f:
                    f.write(line + "\n")
            print(_("game {n}: {k} chances").format(n=job[0], k=len(said)), flush=True)
    return 0


def vars_of(s: Said) -> tuple[float, ...]:
    return (s.players, s.chance, s.won, s.raw, s.outlook)


if __name__ == "__main__":
    raise SystemExit(main())
