"""The demo: a game in progress for a first look (``splendor-companion --demo [2|3|4]``).

Always the same game for a number of players (a fixed seed), played a few rounds in,
with turns of plausible lengths on the journal's clock, so the move log and the game
clock have something to show.

>>> import tempfile, pathlib
>>> from companion.store import Store
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> info = store.info(demo_game(store, 4))
>>> info.players, info.moves, info.state
(('Ada', 'Ben', 'Cleo', 'Dev'), 28, 'playing')
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from .session import Session
from .simulate import Dealer, choose, random_setup
from .store import Store

NAMES = ("Ada", "Ben", "Cleo", "Dev")
MOVES = {2: 18, 3: 27, 4: 28}  # about seven rounds: cards bought, nobody near 15 yet


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
            session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
    finally:
        store.clock = real_clock
    return session.game_id
