"""The 90 development cards and 10 nobles (rule C2), loaded once from package data.

>>> CARDS["2R3"].level, CARDS["2R3"].bonus.key
(2, 'red')
>>> len(CARDS), len(NOBLES)
(90, 10)
>>> NOBLES["N1"].points
3
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..i18n import N_
from .tokens import GEMS, Colour

LEVELS = (1, 2, 3)


# Cards and nobles are compared and hashed by identity (eq=False): each exists once, in its
# edition's table, and the engine finds them in markets and reserves at every move, where
# comparing field by field costed more than the rest of the search. A copy (unpickled in
# another process) comes back as the table's own card.
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A development card: ``id`` as in the record (``2R3``), cost indexed by gem colour.

    ``index`` is the card's place in its edition's table (0 to 89 in the base game): the
    engine keeps the set of cards seen as the bits ``1 << index`` of one integer.
    """

    id: str
    level: int
    bonus: Colour
    points: int
    cost: tuple[int, int, int, int, int]
    index: int = 0

    def __str__(self) -> str:
        return self.id

    def __reduce__(self) -> tuple[object, ...]:
        return (_card, (self.id, self.level, self.bonus, self.points, self.cost, self.index))


@dataclass(frozen=True, slots=True, eq=False)
class Noble:
    """A noble tile: the bonuses (cards, never tokens) a player needs for its visit."""

    id: str
    points: int
    requires: tuple[int, int, int, int, int]

    def __str__(self) -> str:
        return self.id

    def __reduce__(self) -> tuple[object, ...]:
        return (_noble, (self.id, self.points, self.requires))


def _card(
    card_id: str,
    level: int,
    bonus: Colour,
    points: int,
    cost: tuple[int, int, int, int, int],
    index: int,
) -> Card:
    """A card from its fields: the base game's own when it is one of them (see Card)."""
    card = CARDS.get(card_id)
    if card is not None and (card.level, card.bonus, card.points, card.cost, card.index) == (
        level, bonus, points, cost, index,
    ):  # fmt: skip
        return card
    return Card(card_id, level, bonus, points, cost, index)


def _noble(noble_id: str, points: int, requires: tuple[int, int, int, int, int]) -> Noble:
    noble = NOBLES.get(noble_id)
    if noble is not None and (noble.points, noble.requires) == (points, requires):
        return noble
    return Noble(noble_id, points, requires)


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _gem_counts(row: dict[str, str]) -> tuple[int, int, int, int, int]:
    w, u, g, r, k = (int(row[c.key]) for c in GEMS)
    return (w, u, g, r, k)


def _load_cards() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for row in _rows("cards.csv"):
        card = Card(
            id=row["id"],
            level=int(row["level"]),
            bonus=Colour.from_key(row["bonus"]),
            points=int(row["points"]),
            cost=_gem_counts(row),
            index=len(cards),
        )
        cards[card.id] = card
    return cards


def _load_nobles() -> dict[str, Noble]:
    return {
        row["id"]: Noble(id=row["id"], points=int(row["points"]), requires=_gem_counts(row))
        for row in _rows("nobles.csv")
    }


CARDS: dict[str, Card] = _load_cards()
NOBLES: dict[str, Noble] = _load_nobles()
CARDS_BY_LEVEL: dict[int, tuple[Card, ...]] = {
    level: tuple(c for c in CARDS.values() if c.level == level) for level in LEVELS
}


_CARD_SHAPE = re.compile(r"([0-9])([A-Z])([0-9]{1,3})", re.ASCII)


def card_id_problem(cards: Mapping[str, Card], value: object) -> tuple[str, dict[str, Any]]:
    """Why ``value`` is not one of ``cards``' ids, as an error's template and params: a
    level, colour and number of the right shape with no such card says how far that
    colour goes at that level, rather than that the id is shaped wrong.

    >>> card_id_problem(CARDS, "1U9")
    ('{id} is not a card: level {level} has {n} cards of its colour, {first} to {last}', \
{'id': '"1U9"', 'level': 1, 'n': 8, 'first': '1U1', 'last': '1U8'})
    >>> card_id_problem(CARDS, "blue")[0]
    '{id} is not a card id (like 2R3)'
    """
    from ..text import quoted  # text imports the errors, which the cards stay below

    found = _CARD_SHAPE.fullmatch(value) if isinstance(value, str) else None
    if found is not None:
        level, colour = int(found.group(1)), found.group(2)
        same = sorted(
            (int(c.id[2:]), c.id)
            for c in cards.values()
            if c.level == level and c.id[1:2] == colour and c.id[2:].isdigit()
        )
        if same:
            return (
                N_(
                    "{id} is not a card: level {level} has {n} cards of its colour, "
                    "{first} to {last}"
                ),
                {
                    "id": quoted(value),
                    "level": level,
                    "n": len(same),
                    "first": same[0][1],
                    "last": same[-1][1],
                },
            )
    return (N_("{id} is not a card id (like 2R3)"), {"id": quoted(value)})
