"""The companion's strength and speed, printed for the README: ``python -m companion.coach.bench``.

Figures, not pass/fail (tests never assert win rates or timings), in the reader's language
(``SPLENDOR_LANG``, else the locale's), like ``splendor-companion bench``. Goals (a companion
worth playing against, quick on a Pi): over two-player games, hard beats easy in at least 80%
and the plain greedy player in at least 70%, and the expert beats hard in at least 65% at the
same budget (with a 95% interval); the median and p99 time per decision of the hard level.
``--match A,B`` plays one match only, ``--ladder`` every pair of the levels and the greedy
player, rated in Elo points (:mod:`.ladder`).

Each game is fixed by its number: seats alternate (hard plays first in even games), the
table's deal is seeded by the game number, each player by the game number too. A shared
victory counts half a win.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .. import scratch
from ..ai.players import DEFAULT_THINK, LEVELS, make
from ..ai.search import PI_ROLLOUTS_PER_SECOND, playouts_at, rollouts_for
from ..arguments import command_line, think_seconds
from ..figures import percentile
from ..i18n import _, ngettext, number, percent
from ..journal.seats import level_word
from .ladder import ANCHOR, bootstrap, fit, interval, round_robin
from .ladder import match as duels
from .play import play
from .tables import TableGame, hero_scores, lineup, pairwise


@dataclass(frozen=True)
class Outcome:
    score: float  # 1 a win of the hard seat, 0.5 a shared victory, 0 a loss
    times: tuple[float, ...]  # seconds per decision of the hard seat


def one_game(args: tuple[str, int, int]) -> Outcome:
    rival, rollouts, number = args
    hard = make("hard", seed=number, rollouts=rollouts)
    other = make(rival, seed=number + 100_000)
    me = number % 2
    seats = [hard, other] if me == 0 else [other, hard]
    times: list[float] = []
    timings: list[float] = []
    game = play(seats, seed=number, timings=timings)
    # Decisions alternate with the seats; keep the hard seat's.
    times = timings[me::2]
    ranks = {s.seat: s.rank for s in game.standings()}
    winners = sum(1 for r in ranks.values() if r == 1)
    score = 1.0 / winners if ranks[me] == 1 and (game.over or game.stalled) else 0.0
    return Outcome(score, tuple(times))


def match(rival: str, games: int, rollouts: int, workers: int) -> list[Outcome]:
    jobs = [(rival, rollouts, n) for n in range(games)]
    if workers == 1:
        return [one_game(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=4))


PLAYERS = (*LEVELS, "greedy")  # every level and the benchmark's baseline
GOALS = {("hard", "easy"): 0.8, ("hard", "greedy"): 0.7, ("expert", "hard"): 0.65}
# At a larger table: (hero, field, players) -> the hero's goal; its fair share is 1 / players.
TABLE_GOALS = {("expert", "hard", 3): 0.6, ("expert", "hard", 4): 0.5}
TABLE_LINEUPS = (("expert", "hard"), ("hard", "medium"))  # what --players 3 or 4 plays


def two_players(text: str) -> tuple[str, str]:
    """``--match``'s two players, like ``expert,hard``."""
    names = tuple(w.strip().lower() for w in text.split(","))
    if len(names) != 2 or names[0] == names[1] or any(n not in PLAYERS for n in names):
        raise argparse.ArgumentTypeError(
            _(
                "write two different players of {players} separated by a comma, like "
                "expert,hard; not {text}"
            ).format(players=", ".join(PLAYERS), text=text)
        )
    return names[0], names[1]


def print_match(a: str, b: str, games: int, rollouts: int, workers: int) -> None:
    """``a`` against ``b``: its win rate with a 95% interval, and the goal if it has one."""
    start = time.perf_counter()
    rate, low, high = interval(duels(a, b, games, rollouts, workers))
    goal = GOALS.get((a, b))
    line = ngettext(
        "{a} vs {b}: wins {rate} (95% interval {low} to {high}) over {n} game",
        "{a} vs {b}: wins {rate} (95% interval {low} to {high}) over {n} games",
        games,
    ).format(
        a=_rival(a),
        b=_rival(b),
        rate=percent(rate),
        low=percent(low),
        high=percent(high),
        n=number(games),
    )
    if goal is not None:
        line += "; " + _("goal {goal}").format(goal=percent(goal))
    print(line + "; " + _("{seconds} s").format(seconds=number(time.perf_counter() - start)))


def print_ladder(games: int, rollouts: int, workers: int) -> None:
    """The round robin of :data:`PLAYERS` and their ratings, strongest first."""
    _print_ratings(round_robin(PLAYERS, games, rollouts, workers))


def _print_ratings(results: dict[tuple[str, str], list[float]]) -> None:
    """Elo ratings fitted to ``results`` (each pair's scores), strongest first."""
    ratings = fit(results, "greedy")
    spans = bootstrap(results, "greedy", random.Random(0))
    print(
        _(
            "Ladder: Elo ratings from games between every pair of players, the greedy "
            "player anchored at {anchor}"
        ).format(anchor=number(ANCHOR))
    )
    for player in sorted(PLAYERS, key=lambda p: -ratings[p]):
        scores = [
            s
            for (a, b), r in results.items()
            if player in (a, b)
            for s in (r if a == player else [1.0 - x for x in r])
        ]
        low, high = spans[player]
        print(
            _("{player}: {rating} (95% interval {low} to {high}), wins {rate} of its games").format(
                player=_rival(player),
                rating=number(ratings[player]),
                low=number(low),
                high=number(high),
                rate=percent(sum(scores) / len(scores)),
            )
        )
    for (a, b), r in results.items():
        print(
            "  "
            + _("{a} vs {b}: {score}").format(
                a=_rival(a), b=_rival(b), score=percent(sum(r) / len(r))
            )
        )


def print_table(
    hero: str, field: str, size: int, games: int, rollouts: int, workers: int, first: int = 0
) -> None:
    """``hero`` against ``size - 1`` seats of ``field``: each game's result as it ends (on
    standard error: a run cut short still says what it played), then its win share with a
    95% interval, beside the fair share and the goal if it has one."""
    start = time.perf_counter()
    scores: list[float] = []

    def told(number_: int, game: TableGame) -> None:
        scores.extend(hero_scores([game], hero))
        seat = game.players.index(hero)
        print(
            _("game {n}: {hero} at seat {seat}, place {place}; {won} of {played} so far").format(
                n=number_,
                hero=_rival(hero),
                seat=seat + 1,
                place=game.ranks[seat],
                won=number(sum(scores), 1),
                played=number(len(scores)),
            ),
            file=sys.stderr,
            flush=True,
        )

    played = lineup(hero, field, size, games, rollouts, workers, first, told)
    rate, low, high = interval(scores)
    line = ngettext(
        "{hero} vs {field} in the other {n} seats: wins {rate} (95% interval {low} to "
        "{high}) over {games} game",
        "{hero} vs {field} in the other {n} seats: wins {rate} (95% interval {low} to "
        "{high}) over {games} games",
        games,
    ).format(
        hero=_rival(hero),
        n=number(size - 1),
        field=_rival(field),
        rate=percent(rate),
        low=percent(low),
        high=percent(high),
        games=number(games),
    )
    line += "; " + _("fair share {share}").format(share=percent(1 / size))
    goal = TABLE_GOALS.get((hero, field, size))
    if goal is not None:
        line += "; " + _("goal {goal}").format(goal=percent(goal))
    print(line + "; " + _("{seconds} s").format(seconds=number(time.perf_counter() - start)))
    times = [t for g in played for t in g.times]
    if times:
        print(
            ngettext(
                "{hero}, time per decision: median {median} ms, p99 {p99} ms over {n} "
                "decisions ({workers} process on this machine)",
                "{hero}, time per decision: median {median} ms, p99 {p99} ms over {n} "
                "decisions ({workers} processes on this machine)",
                workers,
            ).format(
                hero=_rival(hero),
                median=number(statistics.median(times) * 1000, 1),
                p99=number(percentile(times, 0.99) * 1000, 1),
                n=number(len(times)),
                workers=number(workers),
            )
        )


def print_table_ladder(size: int, games: int, rollouts: int, workers: int) -> None:
    """Every pair of :data:`PLAYERS` at a table of ``size``: one of each against the other's
    field, then Elo ratings fitted to every two seats' places (:func:`.tables.pairwise`)."""
    results: dict[tuple[str, str], list[float]] = {}
    for i, hero in enumerate(PLAYERS):
        for field in PLAYERS[i + 1 :]:
            for key, scores in pairwise(
                lineup(hero, field, size, games, rollouts, workers)
            ).items():
                results.setdefault(key, []).extend(scores)
    _print_ratings(results)


def _games_per_match(players: int, games: int) -> str:
    """How many games of how many players each match plays, in words."""
    if players == 3:
        text = ngettext(
            "{n} three-player game per match", "{n} three-player games per match", games
        )
    elif players == 4:
        text = ngettext("{n} four-player game per match", "{n} four-player games per match", games)
    else:
        text = ngettext("{n} two-player game per match", "{n} two-player games per match", games)
    return text.format(n=number(games))


def _rival(name: str) -> str:
    """The rival's name in the reader's language: a level, or the plain greedy player."""
    return _("greedy") if name == "greedy" else level_word(name)


def main(argv: Sequence[str] | None = None) -> int:
    with command_line(
        "python -m companion.coach.bench",
        _(
            "The companion's strength and speed: the hard level against the easy one and "
            "against a greedy player over two-player games, and its time per decision."
        ),
    ) as parser:
        parser.add_argument("--games", type=int, default=200, help=_("games per match"))
        parser.add_argument(
            "--think",
            type=think_seconds,  # as simulate's: no nan, inf, nor a week a decision
            default=0.25,
            help=_(
                "the hard level's budget, in seconds on a Raspberry Pi 4 (the benchmark's "
                "budget is a quarter of the table's default, to fit this machine)"
            ),
        )
        parser.add_argument("--workers", type=int, default=2, help=_("processes"))
        parser.add_argument(
            "--match",
            type=two_players,
            metavar="A,B",
            help=_("play only this match, like expert,hard (each at the same budget)"),
        )
        parser.add_argument(
            "--ladder",
            action="store_true",
            help=_(
                "play every pair among the levels and the greedy player (--games games a "
                "pair) and print their Elo ratings"
            ),
        )
        parser.add_argument(
            "--players",
            type=int,
            choices=(2, 3, 4),
            default=2,
            help=_(
                "players at the table: at 3 or 4, the expert against hards and hard against "
                "mediums (or --match A,B: A against B's), every seat order rotated"
            ),
        )
        parser.add_argument(
            "--first",
            type=int,
            default=0,
            help=_(
                "at 3 or 4 players, the first game's number (game n is the same game in "
                "every run: a long run can be played in parts)"
            ),
        )
        parser.add_argument(
            "--timing-games",
            type=int,
            default=10,
            help=_("games against the greedy player at the table's default budget, timed"),
        )
        args = parser.parse_args(argv)
        if (
            args.games < 1
            or args.workers < 1
            or args.timing_games < 0
            or args.think <= 0
            or args.first < 0
        ):
            parser.error(
                _(
                    "--games and --workers must be 1 or more, --timing-games and --first 0 "
                    "or more, --think above 0"
                )
            )
    scratch.enter("splendor-coach-bench-")  # its worker processes too: no person's folders
    rollouts = rollouts_for(args.think)
    print(
        _(
            "hard and expert: {playouts} playouts a decision ({think} s on a Raspberry Pi 4 "
            "at {rate} playouts/s)"
        ).format(
            playouts=number(rollouts),
            think=number(args.think, 2),
            rate=number(PI_ROLLOUTS_PER_SECOND),
        )
        + (
            ""
            if args.players == 2
            else " "
            + _("({playouts} at {players} players: the same moves played)").format(
                playouts=number(playouts_at(rollouts, args.players)), players=args.players
            )
        )
        + "; "
        + _games_per_match(args.players, args.games)
        + ", "
        + ngettext("{n} process", "{n} processes", args.workers).format(n=number(args.workers))
    )
    if args.players > 2:
        if args.ladder:
            print_table_ladder(args.players, args.games, rollouts, args.workers)
            return 0
        lineups = [args.match] if args.match is not None else TABLE_LINEUPS
        for hero, field in lineups:
            print_table(hero, field, args.players, args.games, rollouts, args.workers, args.first)
        return 0
    if args.ladder:
        print_ladder(args.games, rollouts, args.workers)
        return 0
    if args.match is not None:
        first, second = args.match
        print_match(first, second, args.games, rollouts, args.workers)
        return 0
    every: list[float] = []
    for rival, goal in (("easy", 0.8), ("greedy", 0.7)):
        start = time.perf_counter()
        outcomes = match(rival, args.games, rollouts, args.workers)
        rate = sum(o.score for o in outcomes) / len(outcomes)
        times = [t for o in outcomes for t in o.times]
        every += times
        print(
            ngettext(
                "hard vs {rival}: wins {rate} (goal {goal}) over {n} game; per decision median "
                "{median} ms, p99 {p99} ms; {seconds} s",
                "hard vs {rival}: wins {rate} (goal {goal}) over {n} games; per decision median "
                "{median} ms, p99 {p99} ms; {seconds} s",
                len(outcomes),
            ).format(
                rival=_rival(rival),
                rate=percent(rate),
                goal=percent(goal),
                n=number(len(outcomes)),
                median=number(statistics.median(times) * 1000, 1),
                p99=number(percentile(times, 0.99) * 1000, 1),
                seconds=number(time.perf_counter() - start),
            )
        )
    print_match("expert", "hard", args.games, rollouts, args.workers)
    print(
        _(
            "hard, all decisions: median {median} ms, p99 {p99} ms, {rate} playouts/s on this "
            "machine"
        ).format(
            median=number(statistics.median(every) * 1000, 1),
            p99=number(percentile(every, 0.99) * 1000, 1),
            rate=number(len(every) / (sum(every) or 1) * rollouts),
        )
    )
    if args.timing_games:
        full = rollouts_for(DEFAULT_THINK)
        outcomes = match("greedy", args.timing_games, full, 1)
        times = [t for o in outcomes for t in o.times]
        rate = sum(o.score for o in outcomes) / len(outcomes)
        print(
            ngettext(
                "hard at the table's default ({playouts} playouts, 1 s on a Pi 4), one process, "
                "{n} game vs the greedy player (wins {rate}): per decision median {median} ms, "
                "p99 {p99} ms",
                "hard at the table's default ({playouts} playouts, 1 s on a Pi 4), one process, "
                "{n} games vs the greedy player (wins {rate}): per decision median {median} ms, "
                "p99 {p99} ms",
                len(outcomes),
            ).format(
                playouts=number(full),
                n=number(len(outcomes)),
                rate=percent(rate),
                median=number(statistics.median(times) * 1000, 1),
                p99=number(percentile(times, 0.99) * 1000, 1),
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
