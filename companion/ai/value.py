"""How good a position looks to a seat: the hand-tuned judgement every level shares.

Everything here reads the public state only (the market, the nobles, each seat's tableau
and its own reserve) through the engine's public API.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..engine.cards import Card, Noble
from ..engine.game import Game, Seat
from ..engine.moves import Buy, Move, Reserve, Take

# Weights of the judgement, tuned by the benchmark (companion/coach/bench.py).
BONUS = 0.45  # a permanent discount, worth most early
TOKEN = 0.08
GOLD = 0.2
NOBLE = 0.4  # times the noble's 3 points, scaled by how close the seat is
REACH = 0.35  # the best cards within reach
SCALE = 3.0  # points of lead that make a win likely


def shortfall(seat: Seat, card: Card) -> int:
    """Tokens still missing to buy ``card``, after bonuses, tokens and gold."""
    t, b = seat.tokens, seat.bonuses
    return _short(card.cost, b[0] + t[0], b[1] + t[1], b[2] + t[2], b[3] + t[3], b[4] + t[4], t[5])


def _short(k: Sequence[int], e0: int, e1: int, e2: int, e3: int, e4: int, gold: int) -> int:
    # Written out: this runs for every card of every seat of every position judged.
    short = (
        (k[0] - e0 if k[0] > e0 else 0)
        + (k[1] - e1 if k[1] > e1 else 0)
        + (k[2] - e2 if k[2] > e2 else 0)
        + (k[3] - e3 if k[3] > e3 else 0)
        + (k[4] - e4 if k[4] > e4 else 0)
    )
    return short - gold if short > gold else 0


def remaining(seat: Seat, card: Card) -> int:
    """The card's cost after bonuses only: how many tokens it takes."""
    b, k = seat.bonuses, card.cost
    return (
        (k[0] - b[0] if k[0] > b[0] else 0)
        + (k[1] - b[1] if k[1] > b[1] else 0)
        + (k[2] - b[2] if k[2] > b[2] else 0)
        + (k[3] - b[3] if k[3] > b[3] else 0)
        + (k[4] - b[4] if k[4] > b[4] else 0)
    )


def noble_gap(bonuses: Sequence[int], noble: Noble) -> int:
    """Bonuses still missing for ``noble`` to visit."""
    r, b = noble.requires, bonuses
    return (
        (r[0] - b[0] if r[0] > b[0] else 0)
        + (r[1] - b[1] if r[1] > b[1] else 0)
        + (r[2] - b[2] if r[2] > b[2] else 0)
        + (r[3] - b[3] if r[3] > b[3] else 0)
        + (r[4] - b[4] if r[4] > b[4] else 0)
    )


def pulls(seat: Seat, nobles: Sequence[Noble]) -> list[float]:
    """Per colour, how much one more bonus brings ``seat`` closer to the nobles on the table."""
    pull = [0.0] * 5
    b = seat.bonuses
    for n in nobles:
        gap = noble_gap(b, n)
        if 0 < gap <= 6:
            for c in range(5):
                if n.requires[c] > b[c]:
                    pull[c] += 1.0 / gap
    return pull


def worth(card: Card, pull: Sequence[float]) -> float:
    """What owning ``card`` is worth: its points, its bonus, its pull toward nobles."""
    return card.points + BONUS + 0.6 * pull[card.bonus]


def progress(bonuses: Sequence[int], noble: Noble) -> float:
    """How far ``bonuses`` have come toward ``noble``: the share of its requirement met,
    squared (the last bonuses count most)."""
    need = sum(noble.requires)
    return ((need - noble_gap(bonuses, noble)) / need) ** 2


def reach(seat: Seat, cards: Sequence[Card], pull: Sequence[float]) -> list[float]:
    """Each of ``cards`` as worth reaching for: its :func:`worth` over one plus the tokens
    still missing, best first."""
    t, b = seat.tokens, seat.bonuses
    e0, e1, e2, e3, e4 = b[0] + t[0], b[1] + t[1], b[2] + t[2], b[3] + t[3], b[4] + t[4]
    return sorted(
        [
            (c.points + BONUS + 0.6 * pull[c.bonus])
            / (1.0 + _short(c.cost, e0, e1, e2, e3, e4, t[5]))
            for c in cards
        ],
        reverse=True,
    )


def value(seat: Seat, cards: Sequence[Card], nobles: Sequence[Noble]) -> float:
    """The seat's standing in points, counting what it has built toward later points."""
    total = sum(seat.bonuses)
    v = float(seat.points) + BONUS * min(total, 12) + 0.02 * max(0, total - 12)
    t = seat.tokens
    v += TOKEN * min(t[0] + t[1] + t[2] + t[3] + t[4], seat.rules.token_limit) + GOLD * t[5]
    for n in nobles:
        v += NOBLE * n.points * progress(seat.bonuses, n)
    own = [c for c in seat.reserved if isinstance(c, Card)]
    best = reach(seat, (*cards, *own), pulls(seat, nobles))
    v += REACH * (best[0] + best[1] + best[2] if len(best) >= 3 else sum(best))
    # A reserved card far from bought holds a slot and the tokens spent toward it.
    for c in own:
        v -= 0.1 + 0.04 * min(shortfall(seat, c), 8)
    return v


def market(game: Game) -> list[Card]:
    return [c for row in game.market for c in row if c is not None]


def rival_value(game: Game, seat: int) -> float:
    """The best standing among the other seats."""
    cards, nobles = market(game), game.nobles
    return max(value(s, cards, nobles) for s in game.seats if s.seat != seat)


def outlook(game: Game, seat: int, rival: float | None = None) -> float:
    """The chance-like score of ``seat``: 1 a win, 0 a loss, in between a judgement.

    ``rival``: the other seats' best standing when known already (one move ahead, only the
    mover changed; ignoring the card turned face up spares judging every seat again).
    """
    if game.over or game.stalled:
        ranks = {s.seat: s.rank for s in game.standings()}
        if ranks[seat] != 1:
            return 0.0
        return 1.0 / sum(1 for r in ranks.values() if r == 1)
    me = game.seat(seat)
    mine = value(me, market(game), game.nobles)
    if rival is None:
        rival = rival_value(game, seat)
    if me.points >= game.rules.winning_points:
        mine += 2.0
    return 1.0 / (1.0 + math.exp(-(mine - rival) / SCALE))


class Quick:
    """A cheap score for each legal move of the seat to act, without playing it: what the
    rollouts and the easy level use, thousands of times a decision."""

    def __init__(self, game: Game) -> None:
        seat = game.seats[game.to_act]
        nobles = game.nobles
        pull = pulls(seat, nobles)
        targets = market(game) + [c for c in seat.reserved if isinstance(c, Card)]
        self.buys = {c.id: 5.0 + 2.0 * worth(c, pull) for c in targets}
        ranked = sorted(targets, key=lambda c: -worth(c, pull) / (1.0 + remaining(seat, c)))
        # The colours the best few cards still need, weighted by how good each card is.
        want = [0.0] * 6
        t, b = seat.tokens, seat.bonuses
        for rank, card in enumerate(ranked[:3]):
            weight = 1.0 / (1 + rank)
            for c in range(5):
                if card.cost[c] > b[c] + t[c]:
                    want[c] += weight
        want[5] = 0.5
        self.want = want
        self.top = ranked[0].id if ranked else None

    def score(self, move: Move) -> float:
        if isinstance(move, Buy):
            return self.buys.get(move.card, 5.0)
        w = self.want
        s = 0.0
        if isinstance(move, Take):
            g = move.gems
            s = w[0] * g[0] + w[1] * g[1] + w[2] * g[2] + w[3] * g[3] + w[4] * g[4]
            s += 0.05 * (g[0] + g[1] + g[2] + g[3] + g[4])
        elif isinstance(move, Reserve):
            s = 0.9 if move.card is not None and move.card == self.top else 0.3
        r = move.returned
        if r is not None:
            if isinstance(move, Take):
                # Giving back what was just taken goes nowhere: a round lost, or a loop.
                g = move.gems
                s -= sum(min(g[c], r[c]) for c in range(5))
            s -= w[0] * r[0] + w[1] * r[1] + w[2] * r[2] + w[3] * r[3] + w[4] * r[4] + w[5] * r[5]
            s -= 0.2 * (r[0] + r[1] + r[2] + r[3] + r[4] + r[5])
        return s
