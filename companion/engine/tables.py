"""What an edition's moves are made of, computed once: the move tables behind
:meth:`companion.engine.game.Game.actions`, the ways to give tokens back, and token arithmetic.

Every table here is built once (per edition, or once for all) and never grows as games are
played: the engine keeps no cache that fills with use.

>>> from companion.engine.rules import BASE
>>> table = tables_of(BASE)
>>> [str(m) for m in table.takes[0][signature(BASE.starting_bank(2))]][:3]
['take WUG', 'take WUR', 'take WUK']
>>> len(returns(1, Tokens(white=1, gold=1)))    # one token back: white or gold
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import overload

from .cards import Card, Noble
from .moves import Buy, Move, Pass, Reserve, Take, with_ending
from .rules import Rules
from .tokens import Tokens

_GEM_RANGE = range(5)

Bonuses = tuple[int, int, int, int, int]
"""A count for each gem colour: bonuses, a card's cost, a noble's requirement."""

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


def payment(tokens: Tokens, bonuses: Bonuses, cost: Bonuses) -> Tokens | None:
    """The default payment of ``cost`` (A5): after ``bonuses``, coloured tokens first and
    gold for the rest; ``None`` when ``tokens`` cannot pay it."""
    t0, t1, t2, t3, t4, gold = tokens
    b0, b1, b2, b3, b4 = bonuses
    c0, c1, c2, c3, c4 = cost
    n0, n1, n2, n3, n4 = c0 - b0, c1 - b1, c2 - b2, c3 - b3, c4 - b4
    p0 = 0 if n0 <= 0 else n0 if n0 <= t0 else t0
    p1 = 0 if n1 <= 0 else n1 if n1 <= t1 else t1
    p2 = 0 if n2 <= 0 else n2 if n2 <= t2 else t2
    p3 = 0 if n3 <= 0 else n3 if n3 <= t3 else t3
    p4 = 0 if n4 <= 0 else n4 if n4 <= t4 else t4
    short = (
        (n0 - p0 if n0 > 0 else 0)
        + (n1 - p1 if n1 > 0 else 0)
        + (n2 - p2 if n2 > 0 else 0)
        + (n3 - p3 if n3 > 0 else 0)
        + (n4 - p4 if n4 > 0 else 0)
    )
    if short > gold:
        return None
    return NEW(Tokens, (p0, p1, p2, p3, p4, short))


def after_bonuses(cost: Bonuses, bonuses: Bonuses) -> Tokens:
    """What ``cost`` leaves to pay in tokens once ``bonuses`` are counted (never below 0)."""
    c0, c1, c2, c3, c4 = cost
    b0, b1, b2, b3, b4 = bonuses
    return NEW(
        Tokens,
        (
            c0 - b0 if c0 > b0 else 0,
            c1 - b1 if c1 > b1 else 0,
            c2 - b2 if c2 > b2 else 0,
            c3 - b3 if c3 > b3 else 0,
            c4 - b4 if c4 > b4 else 0,
            0,
        ),
    )


def pays_exactly(tokens: Tokens, due: Tokens, paid: Tokens) -> bool:
    """Whether ``paid``, out of ``tokens``, settles ``due`` (gems, after bonuses) exactly:
    each colour at most what is due of it, gold for all the rest."""
    t0, t1, t2, t3, t4, t5 = tokens
    d0, d1, d2, d3, d4, _ = due
    p0, p1, p2, p3, p4, p5 = paid
    return (
        0 <= p0 <= t0 and 0 <= p1 <= t1 and 0 <= p2 <= t2 and 0 <= p3 <= t3
        and 0 <= p4 <= t4 and 0 <= p5 <= t5
        and p0 <= d0 and p1 <= d1 and p2 <= d2 and p3 <= d3 and p4 <= d4
        and d0 - p0 + d1 - p1 + d2 - p2 + d3 - p3 + d4 - p4 == p5
    )  # fmt: skip


def gives_back(tokens: Tokens, returned: Tokens, excess: int) -> bool:
    """Whether ``returned`` is ``excess`` tokens that ``tokens`` holds (T1)."""
    t0, t1, t2, t3, t4, t5 = tokens
    r0, r1, r2, r3, r4, r5 = returned
    return (
        0 <= r0 <= t0 and 0 <= r1 <= t1 and 0 <= r2 <= t2 and 0 <= r3 <= t3
        and 0 <= r4 <= t4 and 0 <= r5 <= t5
        and r0 + r1 + r2 + r3 + r4 + r5 == excess
    )  # fmt: skip


def with_bonus(bonuses: Bonuses, colour: int) -> Bonuses:
    """``bonuses`` and one more of ``colour``: a card bought."""
    b0, b1, b2, b3, b4 = bonuses
    return (
        b0 + (colour == 0),
        b1 + (colour == 1),
        b2 + (colour == 2),
        b3 + (colour == 3),
        b4 + (colour == 4),
    )


def nobles_met(nobles: tuple[Noble, ...], bonuses: Bonuses) -> list[Noble]:
    """The nobles of ``nobles`` whose requirement ``bonuses`` reach in every colour (N1)."""
    w, u, g, r, k = bonuses
    out = []
    for noble in nobles:
        q0, q1, q2, q3, q4 = noble.requires
        if w >= q0 and u >= q1 and g >= q2 and r >= q3 and k >= q4:
            out.append(noble)
    return out


def affordable(
    rows: tuple[tuple[Card | None, ...], ...],
    reach: Bonuses,
    gold: int,
    buys: tuple[Move, ...],
    out: list[Move],
) -> None:
    """Add to ``out`` the buy (from ``buys``, by card index) of each card of ``rows`` that
    ``reach`` (a colour's bonuses and tokens together) and ``gold`` pay for. It runs for
    every card offered at every turn, so the colours are written out."""
    e0, e1, e2, e3, e4 = reach
    if gold:
        for row in rows:
            for card in row:
                if card is not None:
                    c0, c1, c2, c3, c4 = card.cost
                    if (
                        (c0 - e0 if c0 > e0 else 0)
                        + (c1 - e1 if c1 > e1 else 0)
                        + (c2 - e2 if c2 > e2 else 0)
                        + (c3 - e3 if c3 > e3 else 0)
                        + (c4 - e4 if c4 > e4 else 0)
                    ) <= gold:
                        out.append(buys[card.index])
    else:
        # Without gold, every colour must cover its cost: the first that does not
        # settles it (small integers compared, nothing built).
        for row in rows:
            for card in row:
                if card is not None:
                    c0, c1, c2, c3, c4 = card.cost
                    if c0 <= e0 and c1 <= e1 and c2 <= e2 and c3 <= e3 and c4 <= e4:
                        out.append(buys[card.index])


def return_key(excess: int, hand: Tokens) -> tuple[int, int, int, int, int, int, int]:
    """The key of :func:`return_table` for giving back ``excess`` tokens from ``hand``."""
    h0, h1, h2, h3, h4, h5 = hand
    return (
        excess,
        h0 if h0 < excess else excess,
        h1 if h1 < excess else excess,
        h2 if h2 < excess else excess,
        h3 if h3 < excess else excess,
        h4 if h4 < excess else excess,
        h5 if h5 < excess else excess,
    )


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


def returns(excess: int, hand: Tokens) -> tuple[Tokens | None, ...]:
    """Every way to give back ``excess`` tokens from ``hand``."""
    return return_table()[return_key(excess, hand)]


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
