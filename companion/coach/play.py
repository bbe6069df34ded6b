"""Whole games between companions: for ``simulate``, the benchmark and the tests.

The table's part (shuffled decks, the cards turned face up) is the simulation's
:class:`~companion.engine.simulate.Dealer`, with its own random stream: the players never see it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..ai.players import DEFAULT_THINK, Player, make
from ..engine.game import Game
from ..engine.rules import BASE, Rules
from ..engine.simulate import DEFAULT_NAMES, MAX_MOVES, Dealer, random_setup
from ..journal.seats import app_seats


def play(
    players: Sequence[Player],
    seed: int = 0,
    names: Sequence[str] | None = None,
    timings: list[float] | None = None,
    rules: Rules = BASE,
) -> Game:
    """A whole game under ``rules``, seat ``i`` played by ``players[i]``; ``seed`` fixes
    the table's deal.

    ``timings``, when given, receives the seconds of each decision.
    """
    if len(players) not in rules.players:
        raise ValueError(f"a game has {rules.players[0]} to {rules.players[-1]} players")
    rng = random.Random(seed)
    game = Game(random_setup(rng, names or DEFAULT_NAMES[: len(players)], rules))
    return play_on(game, players, rng, timings)


def play_on(
    game: Game,
    players: Sequence[Player],
    rng: random.Random,
    timings: list[float] | None = None,
) -> Game:
    """``game`` played on to its end (or the move limit), seat ``i`` by ``players[i]``, the
    cards turned face up dealt by ``rng`` from the unseen ones."""
    dealer = Dealer(game, rng)
    while not game.over and not game.stalled and len(game.moves) < MAX_MOVES:
        start = time.perf_counter()
        move = players[game.to_act].choose(game)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        game.push(dealer.deal(move))
    return game


def play_levels(
    levels: Sequence[str], seed: int = 0, think: float = DEFAULT_THINK
) -> tuple[Game, list[str]]:
    """A whole game between companions of ``levels``; the record's ``app["seats"]`` too.

    The game depends on ``seed`` and ``think`` only (a budget in playouts, not a clock), so
    ``simulate --seats ... --seed S --think T`` replays it exactly.
    """
    players = [make(level, seed=seed, think=think) for level in levels]
    return play(players, seed=seed), app_seats(levels)
