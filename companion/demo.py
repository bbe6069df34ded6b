"""The demo: a game in progress for a first look (``splendor-companion --demo [2|3|4]``).

Always the same game for a number of players (a fixed seed), played a few rounds in,
with turns of plausible lengths on the journal's clock, so the move log and the game
clock have something to show.

>>> import tempfile, pathlib
>>> from companion.journal.store import Store
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> info = store.info(demo_game(store, 4))
>>> info.players, info.moves, info.state
(('Ada', 'Ben', 'Cleo', 'Dev'), 40, 'playing')
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from .engine.cards import CARDS
from .engine.game import Game
from .engine.moves import Buy, Move, Reserve, Take
from .engine.simulate import Dealer, random_setup
from .journal.session import Session
from .journal.store import Store

NAMES = ("Ada", "Ben", "Cleo", "Dev")
MOVES = {2: 26, 3: 33, 4: 40}  # ten rounds or so: cards bought, nobody near 15


def _table_move(rng: random.Random, game: Game) -> Move:
    """A move as a table plays: buy the best card it can, else take what brings the
    nearest card within reach, reserve seldom."""
    moves = list(game.legal_moves())
    buys = [m for m in moves if isinstance(m, Buy)]
    if buys:
        best = max(CARDS[m.card].points for m in buys)
        return rng.choice([m for m in buys if CARDS[m.card].points == best])
    takes = [m for m in moves if isinstance(m, Take) and m.returned is None]
    if takes and rng.random() < 0.9:
        seat = game.to_act
        hand = game.seat(seat).tokens
        cards = [c for row in game.market for c in row if c is not None]

        def reach(take: Take) -> float:
            tokens = hand + take.gems
            return min(
                sum(max(0, n - t) for n, t in zip(game.cost(seat, c)[:5], tokens[:5], strict=True))
                - tokens.gold
                - 0.5 * c.points
                for c in cards
            )

        least = min(reach(t) for t in takes)
        return rng.choice([t for t in takes if reach(t) == least])
    reserves = [m for m in moves if isinstance(m, Reserve) and m.deck is None]
    return rng.choice(reserves or moves)


def demo_game(store: Store, players: int = 3) -> int:
    """Play the demo game into ``store``; returns its id."""
    rng = random.Random(2026)
    real_clock = store.clock
    # The game started a while ago; each turn took 20 s to 2 min.
    moment = [real_clock() - timedelta(seconds=70 * MOVES[players])]

    def scripted() -> datetime:
        return moment[0]

    store.clock = scripted
    try:
        setup = random_setup(rng, list(NAMES[:players]))
        session = Session.start(store, setup)
        dealer = Dealer(session.game, rng)
        for _ in range(MOVES[players]):
            moment[0] += timedelta(seconds=rng.randint(20, 120))
            session.play(dealer.deal(_table_move(rng, session.game)))
    finally:
        store.clock = real_clock
    return session.game_id
