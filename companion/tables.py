"""What an edition's moves are made of, computed once: the move tables behind
:meth:`companion.game.Game.actions`, the ways to give tokens back, and token arithmetic.

Every table here is built once (per edition, or once for all) and never grows as games are
played: the engine keeps no cache that fills with use.

>>> from companion.rules import BASE
>>> table = tables_of(BASE)
>>> [str(m) for m in table.takes[0][signature(BASE.starting_bank(2))]][:3]
['take WUG', 'take WUR', 'take WUK']
>>> len(returns(1, 1, 0, 0, 0, 0, 1))    # one token back from a hand of white and gold
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import overload

from .cards import Card
from .moves import Buy, Move, Pass, Reserve, Take, with_ending
from .rules import Rules
from .tokens import Tokens

_GEM_RANGE = range(5)

NONE = Tokens()
GOLD = Tokens(gold=1)
NEW = tuple.__new__
"""Builds a named tuple from its fields without the checks of ``_make``: it runs for every
position and hand."""


def plus(a: Tokens, b: Tokens) -> Tokens:
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return NEW(Tokens, (a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4, a5 + b5))


def minus(a: Tokens, b: Tokens) -> Tokens:
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return NEW(Tokens, (a0 - b0, a1 - b1, a2 - b2, a3 - b3, a4 - b4, a5 - b5))


def _return_choices(excess: int) -> tuple[Tokens, ...]:
    vectors = []
    for combo in combinations_with_replacement(range(6), excess):
        counts = [0] * 6
        for c in combo:
            counts[c] += 1
        vectors.append(Tokens._make(counts))
    return tuple(vectors)


# A turn ends at most 3 tokens above 10 (a take of 3 from 10), so these are all the shapes.
RETURN_CHOICES = {k: _return_choices(k) for k in (1, 2, 3)}


@cache
def return_table() -> dict[tuple[int, ...], tuple[Tokens | None, ...]]:
    """Every way to give back ``excess`` tokens from a hand, for every hand: keyed by
    ``(excess, *hand)`` with each count capped at ``excess`` (4,889 keys and 93,294 ways,
    built once in about 20 ms: product() yields whole keys, so none is built twice), so
    nothing is cached as games are played."""
    table: dict[tuple[int, ...], list[Tokens]] = {}
    key: tuple[int, ...]
    for excess, vectors in RETURN_CHOICES.items():
        top = excess + 1
        for key in product((excess,), *(range(top),) * 6):
            table[key] = []
        for r in vectors:
            # Every hand that holds at least r, as its key.
            for key in product((excess,), *(range(n, top) for n in r)):
                table[key].append(r)
    return {key: tuple(vectors) for key, vectors in table.items()}


def returns(excess: int, *hand: int) -> tuple[Tokens | None, ...]:
    """Every way to give back ``excess`` tokens from ``hand`` (counts capped at ``excess``)."""
    return return_table()[(excess, *hand)]


def complete(action: Move, returned: Tokens | None, noble: str | None) -> Move:
    """``action`` with its ``returned`` and ``noble`` set (it builds every move
    :meth:`Game.legal_moves` lists, and each completion taken)."""
    if returned is None and noble is None:
        return action
    return with_ending(action, returned, noble)


class Completions(Sequence[Move]):
    """The whole moves finishing one action (:meth:`Game.completions`), built on demand:
    ``len`` and indexing cost nothing, so a random choice among hundreds builds one."""

    __slots__ = ("action", "nobles", "returns")

    def __init__(
        self, action: Move, returns: tuple[Tokens | None, ...], nobles: tuple[str | None, ...]
    ) -> None:
        self.action = action
        self.returns = returns
        self.nobles = nobles

    def __len__(self) -> int:
        return len(self.returns) * len(self.nobles)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("completion index out of range")
        returned, noble = divmod(index, len(self.nobles))
        return complete(self.action, self.returns[returned], self.nobles[noble])

    def __repr__(self) -> str:
        return f"Completions({[str(m) for m in self]})"


def _weights(colour: int) -> tuple[int, ...]:
    return tuple(3**colour * (0 if n == 0 else 1 if n < 4 else 2) for n in range(64))


_SIGNATURE = tuple(_weights(c) for c in _GEM_RANGE)


def signature(bank: Tokens) -> int:
    """Which colours the bank has none (0), some (1) or 4+ (2) of, as one number below
    3**5: all the takes depend on (A1-A3)."""
    w, u, g, r, k = _SIGNATURE
    return w[bank[0]] + u[bank[1]] + g[bank[2]] + r[bank[3]] + k[bank[4]]


def _takes(signature: int) -> tuple[Tokens, ...]:
    """Every legal take from a bank whose colours hold none (0), some (1) or 4+ (2)."""
    codes = [signature // 3**c % 3 for c in _GEM_RANGE]
    available = [c for c in _GEM_RANGE if codes[c]]
    if len(available) >= 3:
        picks: list[tuple[int, ...]] = list(combinations(available, 3))
    else:
        picks = [p for k in (1, 2) for p in combinations(available, k)]
    picks += [(c, c) for c in _GEM_RANGE if codes[c] == 2]
    out = []
    for pick in picks:
        gems = [0] * 6
        for c in pick:
            gems[c] += 1
        out.append(Tokens._make(gems))
    return tuple(out)


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """Every move :meth:`Game.actions` can list, built once per edition: shared values
    instead of thousands of equal objects, and a bounded amount of memory. (A slotted
    class: its fields are read at every move, and a named tuple's read about twice as
    slowly.)"""

    takes: tuple[tuple[tuple[Move, ...], ...], ...]  # [seat][bank signature]
    reserve: tuple[tuple[Move, ...], ...]  # [seat][card index]
    reserve_deck: tuple[tuple[Move, ...], ...]  # [seat][level - 1]
    buy: tuple[tuple[Move, ...], ...]  # [seat][card index]
    passes: tuple[Move, ...]  # [seat]
    take_sets: tuple[frozenset[Tokens], ...]  # [bank signature]: the legal takes
    cards: dict[str, Card]  # by id: a plain dict, faster than the rules' read-only view
    noble_floor: int  # the fewest bonuses any noble asks for: below it, none can visit
    unseen: tuple[tuple[tuple[int, Card], ...], ...]  # [level - 1]: (bit, card) pairs
    returns: dict[tuple[int, ...], tuple[Tokens | None, ...]]  # :func:`return_table`


@cache
def tables_of(rules: Rules) -> Tables:
    seats = range(rules.players[-1])
    gems = [_takes(sig) for sig in range(3**5)]
    cards = rules.cards_by_index
    assert [c.index for c in cards] == list(range(len(cards))), "card indexes are 0..n-1"
    return Tables(
        takes=tuple(tuple(tuple(Take(g, player=s) for g in row) for row in gems) for s in seats),
        reserve=tuple(tuple(Reserve(card=c.id, player=s) for c in cards) for s in seats),
        reserve_deck=tuple(
            tuple(Reserve(deck=level, player=s) for level in rules.levels) for s in seats
        ),
        buy=tuple(tuple(Buy(c.id, player=s) for c in cards) for s in seats),
        passes=tuple(Pass(player=s) for s in seats),
        take_sets=tuple(frozenset(row) for row in gems),
        cards=dict(rules.cards),
        noble_floor=min((sum(n.requires) for n in rules.nobles.values()), default=0),
        unseen=tuple(
            tuple((1 << c.index, c) for c in rules.cards_by_level[level]) for level in rules.levels
        ),
        returns=return_table(),
    )
