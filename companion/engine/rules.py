"""The rules that vary between editions of the game: one :class:`Rules` value per variant.

Everything the engine used to read from module constants lives here, so an expansion
(Cities of Splendor, say) is a new ``Rules`` value and not a fork of the engine. The base
game is :data:`BASE`, the default of :class:`companion.engine.game.Game`.

Attributes the table UI lays itself out from (all read-only):

- ``levels``: the card levels, lowest first: ``(1, 2, 3)``; market row ``i`` is level
  ``levels[i]``.
- ``market_slots``: face-up cards per level (4).
- ``players``: the player counts allowed, as a range (2 to 4).
- ``gems_per_colour``: gem tokens of each colour in the bank by player count
  (``{2: 4, 3: 5, 4: 7}``, S1); ``starting_bank(players)`` gives the whole bank.
- ``gold``: gold tokens in the bank (5).
- ``token_limit``: tokens a player may hold at the end of a turn (10, T1).
- ``reserve_limit``: reserved cards a player may hold (3, A4).
- ``winning_points``: the points that start the final round (15, E1).
- ``cards``: every card by id; ``cards_by_level``: the cards of each level, in id order;
  ``cards_by_index``: every card at its :attr:`~companion.engine.cards.Card.index`.
- ``nobles``: every noble by id; ``nobles_revealed(players)``: how many are laid out (S2).

>>> BASE.levels, BASE.market_slots, BASE.winning_points
((1, 2, 3), 4, 15)
>>> BASE.starting_bank(3)
Tokens(white=5, blue=5, green=5, red=5, black=5, gold=5)
>>> len(BASE.cards_by_level[2]), BASE.nobles_revealed(4)
(30, 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import CARDS, NOBLES, Card, Noble
from .tokens import Tokens


@dataclass(frozen=True, eq=False)
class Rules:
    """One edition of the rules. Compared by identity: two games share rules or do not."""

    name: str
    levels: tuple[int, ...]
    market_slots: int
    players: range
    gems_per_colour: Mapping[int, int]
    gold: int
    token_limit: int
    reserve_limit: int
    winning_points: int
    cards: Mapping[str, Card]
    nobles: Mapping[str, Noble]
    cards_by_level: Mapping[int, tuple[Card, ...]] = field(init=False)
    cards_by_index: tuple[Card, ...] = field(init=False)

    def __post_init__(self) -> None:
        by_level = {
            lv: tuple(c for c in self.cards.values() if c.level == lv) for lv in self.levels
        }
        object.__setattr__(self, "cards_by_level", MappingProxyType(by_level))
        by_index = tuple(sorted(self.cards.values(), key=lambda c: c.index))
        object.__setattr__(self, "cards_by_index", by_index)

    def starting_bank(self, players: int) -> Tokens:
        """S1: the gems of each colour for ``players``, and the gold."""
        gems = self.gems_per_colour[players]
        return Tokens(gems, gems, gems, gems, gems, self.gold)

    def nobles_revealed(self, players: int) -> int:
        """S2: one noble more than there are players."""
        return players + 1

    def deck_size(self, level: int) -> int:
        """Cards of ``level`` in the deck at the start, once the market is laid out (S3)."""
        return len(self.cards_by_level[level]) - self.market_slots


BASE = Rules(
    name="base",
    levels=(1, 2, 3),
    market_slots=4,
    players=range(2, 5),
    gems_per_colour=MappingProxyType({2: 4, 3: 5, 4: 7}),
    gold=5,
    token_limit=10,
    reserve_limit=3,
    winning_points=15,
    cards=MappingProxyType(CARDS),
    nobles=MappingProxyType(NOBLES),
)
"""The base game (rules S1-S4, A1-A7, T1, N1, E1-E2 of ``docs/rules.md``)."""
