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

A variant changes some figures of another edition (:meth:`Rules.variant`); the same
figures give the same value, so a record read twice plays under one ``Rules``:

>>> short = BASE.variant(reserve_limit=1, winning_points=10)
>>> short.name, short.reserve_limit, short is BASE.variant(winning_points=10, reserve_limit=1)
('reserve_limit=1 winning_points=10', 1, True)
>>> short.document(), BASE.document()
({'reserve_limit': 1, 'winning_points': 10}, {})
>>> Rules.read({"reserve_limit": 1, "winning_points": 10}) is short
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..errors import RecordError
from ..i18n import N_
from ..text import quoted
from .cards import CARDS, NOBLES, Card, Noble
from .tokens import Tokens

FIGURES = {
    "gold": range(0, 6),
    "market_slots": range(1, 5),
    "token_limit": range(3, 21),
    "reserve_limit": range(1, 4),
    "winning_points": range(1, 100),
}
"""The single figures a variant may change, each with the values allowed: what the
table holds (5 gold, 4 places a level) and what the table screen lays out (3 reserved
cards a player); see ``docs/rules.md``. A variant may also change ``players`` (within 2
to 4) and ``gems_per_colour`` (1 to 7 a colour)."""


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

    def players_problem(self, n: int) -> tuple[str, dict[str, Any]] | None:
        """Why ``n`` players cannot play these rules (S1): a template and its parameters,
        for the error of the caller's kind; ``None`` when they can."""
        if n in self.players:
            return None
        template = N_("a game has {low} to {high} players, not {n}")
        return template, {"low": self.players[0], "high": self.players[-1], "n": n}

    def variant(
        self,
        *,
        players: range | None = None,
        gems_per_colour: Mapping[int, int] | None = None,
        gold: int | None = None,
        market_slots: int | None = None,
        token_limit: int | None = None,
        reserve_limit: int | None = None,
        winning_points: int | None = None,
    ) -> Rules:
        """These rules with some figures changed (the same cards and nobles), named after
        the changes. The same figures give the same value (rules compare by identity, and
        the engine builds its move tables once per value); the base figures give :data:`BASE`.
        A figure outside what :data:`FIGURES` allows raises :class:`RecordError` naming it,
        as a record holding it would: every variant can be written and read back."""
        gems = dict(self.gems_per_colour)
        gems.update(gems_per_colour or {})
        made = replace(
            self,
            name="",
            players=players if players is not None else self.players,
            gems_per_colour=MappingProxyType(gems),
            gold=gold if gold is not None else self.gold,
            market_slots=market_slots if market_slots is not None else self.market_slots,
            token_limit=token_limit if token_limit is not None else self.token_limit,
            reserve_limit=reserve_limit if reserve_limit is not None else self.reserve_limit,
            winning_points=winning_points if winning_points is not None else self.winning_points,
        )
        known = _VARIANTS.get(made._key())
        if known is not None:
            return known
        made._check()
        name = " ".join(f"{k}={_figure_text(v)}" for k, v in made.document().items())
        made = replace(made, name=name)
        _VARIANTS[made._key()] = made
        return made

    def _check(self) -> None:
        """Raise :class:`RecordError` at the first figure a variant may not have."""
        low = _whole(self.players[0], BASE.players, "rules.players[0]")
        _whole(self.players[-1], range(low, BASE.players[-1] + 1), "rules.players[1]")
        for n in self.players:
            _whole(self.gems_per_colour.get(n), range(1, 8), f"rules.gems_per_colour.{n}")
        for name, allowed in FIGURES.items():
            _whole(getattr(self, name), allowed, f"rules.{name}")

    def _key(self) -> tuple[object, ...]:
        """What makes two rules the same: the cards, the nobles and every figure. (By the
        ids of the cards and nobles: the rules kept in ``_VARIANTS`` keep them alive.)"""
        return (
            id(self.cards),
            id(self.nobles),
            self.players,
            tuple(sorted(self.gems_per_colour.items())),
            *(getattr(self, name) for name in FIGURES),
        )

    def document(self) -> dict[str, Any]:
        """The figures that differ from the base game's, as a game record writes them
        (``docs/game-record.md``): empty for the base game."""
        doc: dict[str, Any] = {}
        if self.players != BASE.players:
            doc["players"] = [self.players[0], self.players[-1]]
        gems = {str(n): k for n, k in self.gems_per_colour.items() if n in self.players}
        if gems != {str(n): k for n, k in BASE.gems_per_colour.items() if n in self.players}:
            doc["gems_per_colour"] = gems
        for name in FIGURES:
            value = getattr(self, name)
            if value != getattr(BASE, name):
                doc[name] = value
        return doc

    @staticmethod
    def read(doc: Any) -> Rules:
        """The base game's rules with the figures of a record's ``rules`` object changed.
        Raises :class:`RecordError` naming the figure that is not allowed."""
        if not isinstance(doc, dict):
            raise RecordError(
                "rules", "{key} is an object of figures like {example}", key='"rules"',
                example='{"reserve_limit": 1}',
            )  # fmt: skip
        changes: dict[str, Any] = {}
        for key, value in doc.items():
            if key in FIGURES:
                changes[key] = _whole(value, FIGURES[key], f"rules.{key}")
            elif key == "players":
                if not isinstance(value, list) or len(value) != 2:
                    raise RecordError(
                        "rules.players", "{key} is the fewest and the most players, like {example}",
                        key='"players"', example="[2, 3]",
                    )  # fmt: skip
                low = _whole(value[0], BASE.players, "rules.players[0]")
                high = _whole(value[1], range(low, BASE.players[-1] + 1), "rules.players[1]")
                changes["players"] = range(low, high + 1)
            elif key == "gems_per_colour":
                changes["gems_per_colour"] = _gems(value)
            else:
                # Only a known key names the place: any other text may be anything.
                raise RecordError("rules", "unknown key {key}", key=quoted(key))
        return BASE.variant(**changes)


_VARIANTS: dict[tuple[object, ...], Rules] = {}


def _figure_text(value: object) -> str:
    """A figure in a variant's name: ``2-3`` for a range of players."""
    if isinstance(value, list):
        return "-".join(str(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def _whole(value: Any, allowed: range, where: str) -> int:
    # bool is an int to Python, and 2.0 == 2: neither is a figure in a record.
    if type(value) is not int or value not in allowed:
        raise RecordError(
            where,
            "a whole number from {low} to {high} is expected, not {value}",
            low=allowed[0],
            high=allowed[-1],
            value=quoted(value),
        )
    return value


def _gems(value: Any) -> dict[int, int]:
    """A record's ``gems_per_colour``: player count to gems of each colour."""
    where = "rules.gems_per_colour"
    if not isinstance(value, dict):
        raise RecordError(
            where, "{key} is an object from a player count to a number, like {example}",
            key='"gems_per_colour"', example='{"2": 4}',
        )  # fmt: skip
    gems: dict[int, int] = {}
    for count, n in value.items():
        if count not in [str(p) for p in BASE.players]:
            raise RecordError(where, "unknown key {key}", key=quoted(count))
        gems[int(count)] = _whole(n, range(1, 8), f"{where}.{count}")
    return gems


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
_VARIANTS[BASE._key()] = BASE
