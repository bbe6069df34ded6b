"""The hard level's search: flat Monte Carlo over a few candidate moves.

Each candidate is played, then the game goes on for a few rounds with every seat playing
the quick policy, over cards dealt at random from those its seat has not seen; the result
is judged by :func:`~companion.ai.value.outlook`. Every candidate sees the same dealt cards
in a round (common random numbers), so the comparison is between moves, not luck.

The budget is a number of playouts, not a clock: the same seed gives the same move on a
fast machine and a slow one. :func:`rollouts_for` turns a time budget into playouts at the
speed of a Raspberry Pi 4.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.game import Game
from ..engine.moves import Move
from .value import Quick, outlook, rival_value
from .view import choices, dealt, public_view, stuck, unstick

# Playouts a Raspberry Pi 4 runs in a second: 1 s of thought is this many playouts. The
# benchmark's machine runs about 1,900 a second on one idle core and is taken to be four
# times a Pi 4 (measured side by side), so about 475; rounded down to keep the Pi under its second.
PI_ROLLOUTS_PER_SECOND = 400
WIDTH = 6  # candidates searched
ROUNDS = 2  # rounds of play after the candidate, per playout


def rollouts_for(think: float) -> int:
    """Playouts that fit in ``think`` seconds on a Raspberry Pi 4 (at least one per move),
    counted as two-player playouts: see :func:`playouts_at` for a larger table."""
    return max(WIDTH, round(think * PI_ROLLOUTS_PER_SECOND))


def playouts_at(rollouts: int, players: int) -> int:
    """``rollouts`` two-player playouts' worth of moves, as playouts at a table of
    ``players``: a playout plays the candidate and ``ROUNDS`` rounds, 1 + 2 * ``players``
    moves (5 at two, 9 at four), and a move costs about the same at any table, so a
    second of a Pi 4 is a second at four players too (222 playouts there for 400 at two;
    at 400 a four-player decision took 1.7 s of a Pi 4, issue 37): 400, 285 and 222
    at two, three and four players."""
    return max(1, rollouts * (1 + ROUNDS * 2) // (1 + ROUNDS * players))


class Stopped(Exception):
    """The search was asked to stop (its position is no longer the table's)."""


@dataclass(frozen=True)
class Search:
    move: Move
    scores: dict[Move, float]  # mean outlook per candidate searched


def policy(game: Game, rng: random.Random) -> Move:
    """The playouts' move: the quick score's best, with a little noise."""
    moves = list(game.legal_moves())
    if len(moves) == 1:
        return moves[0]
    score = Quick(game).score
    if rng.random() < 0.15:
        # Now and then a near-best move, so the playouts do not all follow one line.
        return rng.choice(sorted(moves, key=score, reverse=True)[:3])
    return max(moves, key=score)


def playout(game: Game, seat: int, move: Move, rng: random.Random, plies: int) -> float:
    """Play ``move`` then ``plies`` more moves; the outlook for ``seat``. Leaves ``game``
    as it found it."""
    game.push(dealt(game, move, rng))
    pushed = 1
    while pushed <= plies and not game.over and not game.stalled:
        game.push(dealt(game, policy(game, rng), rng))
        pushed += 1
    score = outlook(game, seat)
    for _ in range(pushed):
        game.undo()
    return score


def candidates(
    game: Game,
    seat: int,
    blind: bool,
    rng: random.Random,
    width: int = WIDTH,
    judge: Callable[[Game, int], float] | None = None,
) -> list[Move]:
    """The ``width`` moves worth searching: the quick score's best, re-ranked one move
    ahead by ``judge`` (a seat's chance in a game; the hand-tuned :func:`outlook` when
    none is given)."""
    moves = choices(game, blind)
    quick = Quick(game)
    moves = sorted(moves, key=quick.score, reverse=True)[: width * 2]
    ahead = []
    rival = rival_value(game, seat) if judge is None else 0.0
    for move in moves:
        game.push(dealt(game, move, rng))
        ahead.append(outlook(game, seat, rival) if judge is None else judge(game, seat))
        game.undo()
    ranked = sorted(range(len(moves)), key=lambda i: -ahead[i])
    return [moves[i] for i in ranked[:width]]


def search(
    game: Game,
    rng: random.Random,
    rollouts: int,
    blind: bool,
    stop: Callable[[], bool] | None = None,
) -> Search:
    """The best of the candidates after ``rollouts`` playouts. ``stop`` is asked between
    rounds: when it says yes, :class:`Stopped` is raised (the answer is no longer wanted);
    it never changes the move chosen."""
    seat = game.to_act
    view = public_view(game, seat)
    if stuck(view):
        move = unstick(view, choices(view, blind), rng)
        return Search(move, {move: 0.0})
    moves = candidates(view, seat, blind, rng)
    if len(moves) == 1:
        return Search(moves[0], {moves[0]: 0.0})
    plies = ROUNDS * len(game.seats)
    totals = dict.fromkeys(moves, 0.0)
    # Fewer playouts than candidates (a test's tiny budget): the one-move-ahead ranking.
    rounds = rollouts // len(moves)
    if rounds == 0:
        return Search(moves[0], {moves[0]: 0.0})
    for _ in range(rounds):
        if stop is not None and stop():
            raise Stopped
        seed = rng.random()
        for move in moves:
            totals[move] += playout(view, seat, move, random.Random(seed), plies)
    scores = {m: t / rounds for m, t in totals.items()}
    # Ties go to the earlier candidate: the one judged better one move ahead.
    best = max(moves, key=lambda m: scores[m])
    return Search(best, scores)
