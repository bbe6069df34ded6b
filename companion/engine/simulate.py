"""Random legal games, dealt by the engine itself from shuffled decks.

Used by ``splendor-companion simulate``, the property tests and the benchmark.

>>> game = simulate(players=3, seed=7)
>>> game.over or game.stalled
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .game import Game
from .moves import Buy, Move, Pass, Reserve, Take, with_parts, with_reveal
from .rules import BASE, Rules
from .setup import Setup

DEFAULT_NAMES = ("Ada", "Ben", "Cleo", "Dev")
MAX_MOVES = 2000


def random_setup(rng: random.Random, players: Sequence[str], rules: Rules = BASE) -> Setup:
    """Shuffle the nobles and each level's deck and lay out the table (S2, S3)."""
    nobles = rng.sample(sorted(rules.nobles), rules.nobles_revealed(len(players)))
    market = [
        rng.sample([c.id for c in rules.cards_by_level[lv]], rules.market_slots)
        for lv in rules.levels
    ]
    return Setup.of(players, nobles, market, rules)


class Dealer:
    """Stands in for the table's shuffled decks: the next card of a level is a random
    unseen one, which is the same as drawing the top of a shuffled deck.

    It keeps each level's unseen cards (in :meth:`Game.unseen`'s order, so a seed deals
    the same cards) and brings them up to date from the cards the game has seen since the
    last deal, instead of listing them afresh: a deal runs for every move of a simulated
    game. Any change it cannot follow that way (an undo, another game) lists them again.
    """

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self._seen = -1  # the game's seen cards when the lists below were brought up to date
        self._unseen: list[list[Card]] = []

    def unseen(self, level: int) -> list[Card]:
        """The cards of ``level`` a deal draws from, in :meth:`Game.unseen`'s order: the
        dealer's own list, brought up to date (not to be changed)."""
        game = self.game
        seen = game.position().seen_bits
        if seen != self._seen:
            if seen & self._seen != self._seen:
                # Cards went back to unseen (an undo), or this is the first deal: list them.
                self._unseen = [game.unseen(lv) for lv in game.rules.levels]
            else:
                new = seen & ~self._seen
                by_index = game.rules.cards_by_index
                while new:
                    low = new & -new
                    card = by_index[low.bit_length() - 1]
                    cards = self._unseen[card.level - 1]
                    if card in cards:  # cards compare by identity: C scans
                        cards.remove(card)
                    new ^= low
            self._seen = seen
        return self._unseen[level - 1]

    def deal(self, move: Move) -> Move:
        """Fill in what the table would declare: the reveal, a blind reserve's card."""
        cls = move.__class__
        if cls is Take or cls is Pass:
            return move  # nothing to declare (half the moves of a random game)
        if isinstance(move, Reserve) and move.deck is not None and move.card is None:
            card = self.rng.choice(self.unseen(move.deck))
            move = with_parts(move, card=card.id)
        level = self.game.reveal_due(move)
        if level is not None:
            # The card taken away is already seen, so it is never drawn again.
            move = with_reveal(move, self.rng.choice(self.unseen(level)).id)
        return move


def choose(rng: random.Random, moves: list[Move]) -> Move:
    """A random legal move: first a random kind of action, so takes do not crowd out buys."""
    # The engine lists takes first (often hundreds, with their returns), then the few
    # reserves, buys and pass: find where the takes end from the back.
    end = len(moves)
    while end and moves[end - 1].__class__ is not Take:
        end -= 1
    rest = moves[end:]
    kinds: list[list[Move]] = [moves[:end]]
    kinds += [[m for m in rest if m.__class__ is k] for k in (Reserve, Buy, Pass)]
    buys = kinds[2]
    # Buying is what ends a game: a random player that prefers it plays shorter games.
    if buys and rng.random() < 0.6:
        return rng.choice(buys)
    return rng.choice(rng.choice([k for k in kinds if k]))


def play_random(game: Game, rng: random.Random, max_moves: int = MAX_MOVES) -> Game:
    """Play random legal moves until the game is over, stalls, or ``max_moves`` is reached."""
    dealer = Dealer(game, rng)
    while not game.over and not game.stalled and len(game.moves) < max_moves:
        move = choose(rng, list(game.legal_moves()))
        game.push(dealer.deal(move))
    return game


def simulate(
    players: int = 2, seed: int = 0, max_moves: int = MAX_MOVES, rules: Rules = BASE
) -> Game:
    """A whole random game of ``players`` players under ``rules``, reproducible from ``seed``."""
    if players not in rules.players:
        raise ValueError(f"a game has {rules.players[0]} to {rules.players[-1]} players")
    rng = random.Random(seed)
    game = Game(random_setup(rng, DEFAULT_NAMES[:players], rules))
    return play_random(game, rng, max_moves)
