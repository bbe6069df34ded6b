"""The review checked: against a deeper search, and against play.

``python -m companion.coach.review_bench --verify`` runs both over seeded games of two, three
and four players (game ``n`` has ``2 + n % 3`` players, each seat a medium player seeded by
the game's number and its seat, the deal by the number):

- **Advice** (:func:`check_advice`): each move the review lists as costly is judged again, the
  preferred move against the move played, with :data:`DEEPER` times the review's playouts
  and a random stream of its own. The review's verdict is *confirmed* where the deeper search
  also finds the preferred move better.
- **Chances** (:func:`play_out`): from every :data:`EVERY`-th position reviewed, the game is
  played on to its end by experts in every seat; each seat's chance as the review said it is
  set beside what that seat then won (1, a share of a shared victory, or 0). A calibration
  table (the chances said, in tenths, against the share won) and the Brier score follow.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..ai.players import make
from ..engine.game import Game
from ..records.record import Record
from .play import play, play_on
from .review import Review, compare, shares

DEEPER = 16  # the deeper search's budget, in times the review's
EVERY = 8  # one position in this many is played out
BINS = 10  # the calibration table's rows: tenths
ENOUGH = 100  # chances in a tenth for it to be held to 5 points (its standard error is 5 at most)


def table_game(n: int) -> Record:
    """Game ``n``: ``2 + n % 3`` medium players, dealt by ``n``.

    >>> [len(table_game(n).players) for n in range(3)]
    [2, 3, 4]
    """
    size = 2 + n % 3
    players = [make("medium", seed=n * 10 + seat) for seat in range(size)]
    return Record.of(play(players, seed=n))


@dataclass(frozen=True)
class Checked:
    """One costly move judged again."""

    players: int  # at the table
    number: int  # the move's number, 1-based
    cost: float  # what the review said it cost
    margin: float  # the deeper search's chance of the preferred move less the played one's

    @property
    def confirmed(self) -> bool:
        return self.margin > 0


def check_advice(record: Record, done: Review, playouts: int, seed: int) -> list[Checked]:
    """Each costly move of ``done`` (every seat's) judged again at ``playouts`` a move."""
    costly = sorted(
        (j for seat in range(len(record.players)) for j in done.costly(seat)),
        key=lambda j: j.number,
    )
    game = Game(record.setup)
    out = []
    for judged in costly:
        while len(game.moves) < judged.number - 1:
            game.push(record.moves[len(game.moves)])
        assert judged.preferred is not None
        preferred, played = compare(
            game, [judged.preferred, record.moves[judged.number - 1]], playouts, seed
        )
        out.append(Checked(len(record.players), judged.number, judged.cost, preferred - played))
    return out


@dataclass(frozen=True)
class Said:
    """A seat's chance as the review said it after a move, and what the seat then won."""

    players: int
    chance: float
    won: float
    raw: float = 0.0  # the chance before calibration (a share of the seats' judgements)
    outlook: float = 0.0  # the seat's judgement itself, which the calibration maps


def play_out(
    record: Record, done: Review, playouts: int, seed: int, every: int = EVERY
) -> list[Said]:
    """From every ``every``-th move reviewed, the game played on by experts at ``playouts``
    a decision (seeded by ``seed`` and the move's number): each seat's said chance and what
    it won."""
    out = []
    size = len(record.players)
    for judged in done.moves:
        if judged.number % every:
            continue
        game = Game(record.setup)
        for move in record.moves[: judged.number]:
            game.push(move)
        if game.over:
            continue
        experts = [
            make("expert", seed=seed * 1000 + judged.number * 10 + s, rollouts=playouts)
            for s in range(size)
        ]
        play_on(game, experts, random.Random(f"played-out:{seed}:{judged.number}"))
        ranks = [s.rank for s in sorted(game.standings(), key=lambda s: s.seat)]
        finished = game.over or game.stalled
        winners = ranks.count(1)
        raw = shares(judged.outlooks) if judged.outlooks else judged.chances
        for seat, chance in enumerate(judged.chances):
            won = 1.0 / winners if finished and ranks[seat] == 1 else 0.0
            outlook = judged.outlooks[seat] if judged.outlooks else chance
            out.append(Said(size, chance, won, raw[seat], outlook))
    return out


def calibration(said: Sequence[Said], bins: int = BINS) -> list[tuple[int, float, float]]:
    """Each tenth of chance said that holds a position: (positions, mean said, share won).

    >>> rows = calibration([Said(2, 0.05, 0.0), Said(2, 0.95, 1.0), Said(2, 0.91, 0.0)])
    >>> rows[0], rows[9], sum(n for n, _said, _won in rows)
    ((1, 0.05, 0.0), (2, 0.93, 0.5), 3)
    """
    rows: list[list[Said]] = [[] for _ in range(bins)]
    for s in said:
        rows[min(bins - 1, int(s.chance * bins))].append(s)
    return [
        (
            len(r),
            round(sum(s.chance for s in r) / len(r), 4) if r else 0.0,
            round(sum(s.won for s in r) / len(r), 4) if r else 0.0,
        )
        for r in rows
    ]


def brier(said: Sequence[Said]) -> float:
    """The mean squared distance between the chance said and what was won (0 is perfect;
    always saying 1/n at a table of n scores about (n - 1) / n²).

    >>> brier([Said(2, 1.0, 1.0), Said(2, 0.5, 0.0)])
    0.125
    """
    return sum((s.chance - s.won) ** 2 for s in said) / len(said)
