"""The companion's players, one class per level, and the greedy baseline of the benchmark.

Each decision draws from its own random stream, seeded by the player's seed and the number
of moves played: the same game and seed give the same move, whatever came before it in this
process, so a reported game replays exactly (see README, "The companion as a player").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..engine.game import Game
from ..engine.moves import Buy, Move, Take
from .expert import expert_search
from .search import Search, playouts_at, rollouts_for, search
from .value import Quick, outlook, remaining, rival_value
from .view import choices, dealt, public_view, stuck, unstick

DEFAULT_THINK = 1.0  # seconds per decision on a Raspberry Pi 4 (see rollouts_for)


class Player(Protocol):
    level: str

    def choose(self, game: Game) -> Move:
        """A legal move for the seat to act, without ``reveal`` (the table declares it)."""
        ...


def stream(seed: int, game: Game, salt: str = "") -> random.Random:
    """The random stream of one decision: fixed by the seed and the public history length."""
    return random.Random(f"{seed}:{len(game.moves)}:{game.to_act}:{salt}")


class Easy:
    """Plausible but weak: takes toward a card it likes, buys whatever it can, often at
    random, and never looks ahead."""

    level = "easy"

    def __init__(self, seed: int = 0, blind: bool = False) -> None:
        self.seed = seed
        self.blind = blind

    def choose(self, game: Game) -> Move:
        rng = stream(self.seed, game)
        view = public_view(game, game.to_act)
        moves = choices(view, self.blind)
        if stuck(view):
            return unstick(view, moves, rng)
        buys = [m for m in moves if isinstance(m, Buy)]
        if buys and rng.random() < 0.6:
            return rng.choice(buys)
        quick = Quick(view)
        return max(moves, key=lambda m: quick.score(m) + rng.uniform(0.0, 2.5))


class Medium:
    """Looks one move ahead: plays each promising move and keeps the best-looking result."""

    level = "medium"
    width = 8

    def __init__(self, seed: int = 0, blind: bool = False) -> None:
        self.seed = seed
        self.blind = blind

    def choose(self, game: Game) -> Move:
        rng = stream(self.seed, game)
        seat = game.to_act
        view = public_view(game, seat)
        moves = choices(view, self.blind)
        if len(moves) == 1:
            return moves[0]
        if stuck(view):
            return unstick(view, moves, rng)
        quick = Quick(view)
        moves = sorted(moves, key=quick.score, reverse=True)[: self.width]
        best, best_score = moves[0], -1.0
        rival = rival_value(view, seat)
        for move in moves:
            view.push(dealt(view, move, rng))
            score = outlook(view, seat, rival)
            view.undo()
            if score > best_score:
                best, best_score = move, score
        return best


class Hard:
    """Searches: Monte Carlo playouts of its best candidates over the unseen cards."""

    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        blind: bool = False,
        think: float = DEFAULT_THINK,
        rollouts: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.seed = seed
        self.blind = blind
        self.rollouts = rollouts if rollouts is not None else rollouts_for(think)
        self.stop = stop  # asked between playouts: give up (see search.Stopped)

    def choose(self, game: Game) -> Move:
        return self.search(game).move

    def search(self, game: Game) -> Search:
        budget = playouts_at(self.rollouts, len(game.seats))  # the same time at any table
        return search(game, stream(self.seed, game), budget, self.blind, self.stop)


class Expert(Hard):
    """Searches a tree of every seat's moves over what its seat cannot see, dealt afresh
    for each iteration (information-set Monte Carlo tree search, see :mod:`.expert`), with
    hard's budget."""

    level = "expert"

    def search(self, game: Game) -> Search:
        budget = playouts_at(self.rollouts, len(game.seats))
        return expert_search(game, stream(self.seed, game, "expert"), budget, self.blind, self.stop)


class Greedy:
    """The benchmark's plain greedy player: buys the most points it can, else takes toward
    its cheapest card. Not offered at the table."""

    level = "greedy"

    def __init__(self, seed: int = 0, blind: bool = False) -> None:
        self.seed = seed
        self.blind = blind

    def choose(self, game: Game) -> Move:
        seat = game.seats[game.to_act]
        moves = choices(game, self.blind)
        if stuck(game):
            return unstick(game, moves, stream(self.seed, game))
        buys = [m for m in moves if isinstance(m, Buy)]
        if buys:
            by_id = game.rules.cards
            return max(buys, key=lambda m: (by_id[m.card].points, -remaining(seat, by_id[m.card])))
        takes = [m for m in moves if isinstance(m, Take)]
        if not takes:
            return moves[0]
        cards = [c for row in game.market for c in row if c is not None]
        target = min(cards, key=lambda c: (remaining(seat, c), c.id)) if cards else None
        need = [0] * 6
        if target is not None:
            for c in range(5):
                need[c] = max(0, target.cost[c] - seat.bonuses[c] - seat.tokens[c])

        def useful(m: Take) -> tuple[int, int]:
            got = sum(min(n, need[c]) for c, n in enumerate(m.gems))
            lost = sum(n * (1 + need[c]) for c, n in enumerate(m.returned or ()))
            return (got - lost, m.gems.total)

        return max(takes, key=useful)


LEVELS: dict[str, Callable[..., Player]] = {
    "easy": Easy,
    "medium": Medium,
    "hard": Hard,
    "expert": Expert,
}
"""Each level a seat can be played at, weakest first, and its player: the names are those
of :data:`companion.journal.seats.LEVELS` (the search does not import the journal; a test
checks both agree)."""


def make(
    level: str,
    seed: int = 0,
    blind: bool = False,
    think: float | None = None,
    rollouts: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Player:
    """A player of ``level`` (``greedy`` too: the benchmark's baseline). ``stop``: the
    searching levels give up when it says yes (the other levels answer at once)."""
    searching: dict[str, type[Hard]] = {"hard": Hard, "expert": Expert}
    if level in searching:
        kind = searching[level]
        if think is None:
            return kind(seed, blind, rollouts=rollouts, stop=stop)
        return kind(seed, blind, think=think, rollouts=rollouts, stop=stop)
    kinds: dict[str, Callable[[int, bool], Player]] = {
        "easy": Easy,
        "medium": Medium,
        "greedy": Greedy,
    }
    if level not in kinds:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return kinds[level](seed, blind)
