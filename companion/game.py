"""The rules engine: one :class:`Game` is a starting position plus the moves applied to it.

>>> from companion.setup import Setup
>>> game = Game(Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"],
...                      ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"]))
>>> game.bank
Tokens(white=4, blue=4, green=4, red=4, black=4, gold=5)
>>> print(game.push("take WUG"))
take WUG
>>> game.explain(game.parse("take WW")).code.value   # Ben: white is down to 3
'take-two-needs-four'
>>> print(game.undo())
take WUG
>>> game.to_act
0

Asking what is legal
--------------------
A turn is an *action* (take, reserve, buy, pass) and, only when due, its *completion*:
the tokens returned to end at 10 (T1) and the noble chosen when several qualify (N1).
The reveal that refills the market (A6) is never listed: the table declares it
(:meth:`Game.reveal_due`, :meth:`Game.unseen`).

- :meth:`Game.actions` lists the legal actions of the player to act, with ``returned``
  and ``noble`` unset: a tuple, in a fixed order (takes, reserves, buys; a pass only when
  nothing else is legal). It is cheap: this is what a player (or a computer player)
  chooses from first.
- :meth:`Game.completions` lists, for one legal action, the whole moves that finish it:
  the action itself when nothing is due, else one per way to return tokens and per noble
  that may be chosen. A tuple, never empty for a legal action.
- :meth:`Game.legal_moves` yields every whole legal move, lazily: each action's
  completions in turn (so a take at 10 tokens appears once per way to give tokens back).
- :meth:`Game.push` validates and applies a whole move (reveal included when due);
  :meth:`Game.explain` says why a move is illegal; :meth:`Game.due` says what a chosen
  action still needs.

>>> [str(m) for m in game.actions()][:3]
['take WUG', 'take WUR', 'take WUK']
>>> len(game.completions(game.parse("take WUG")))
1

Positions
---------
:meth:`Game.position` is the frozen :class:`~companion.position.Position` (O(1): the engine
keeps one per move, which is how undo works); :meth:`Game.text` its one-line text form and
:meth:`Game.from_text` / :meth:`Game.from_position` a game starting there.
:meth:`Game.copy` is a cheap independent copy for search.

>>> again = Game.from_text(game.text(), names=["Ada", "Ben"])
>>> again.text() == game.text(), again.position() == game.position()
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, Noble, card_id_problem
from .errors import ErrorCode, IllegalMove, RecordError
from .i18n import Counted
from .moves import Buy, Move, Pass, Reserve, Take, parse_move
from .position import EMPTY_SEAT, Hidden, Position, SeatState, Status, seen_bits
from .rules import BASE, Rules
from .setup import Setup
from .tables import (
    GOLD,
    NEW,
    NONE,
    Completions,
    complete,
    returns,
    signature,
    tables_of,
)
from .tokens import GEMS, Colour, Tokens

__all__ = [
    "Completions",
    "Due",
    "Game",
    "Hidden",
    "Position",
    "Seat",
    "SeatState",
    "Standing",
    "Status",
]

_GEM_RANGE = range(5)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's tableau as the table sees it, at one moment."""

    seat: int
    name: str
    tokens: Tokens
    bonuses: tuple[int, int, int, int, int]
    points: int
    cards: tuple[Card, ...]
    reserved: tuple[Card | Hidden, ...]
    nobles: tuple[Noble, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the standings: rank 1 is winning (E2: points, then fewest cards)."""

    seat: int
    player: str
    points: int
    cards: int
    nobles: tuple[str, ...]
    rank: int


@dataclass(frozen=True, slots=True)
class Due:
    """What a turn still needs once its action is chosen (see :meth:`Game.due`)."""

    reveal: int | None  # the level of the card to turn face up (A6)
    returns: int  # how many tokens to give back to end at 10 (T1)
    nobles: tuple[Noble, ...]  # the nobles that qualify (N1): a choice when several
    hand: Tokens  # the player's tokens after the action, before any return

    @property
    def noble_choice(self) -> bool:
        return len(self.nobles) > 1


class _After(NamedTuple):
    """A seat and the table once the action part of a move is applied (nothing else)."""

    bank: list[int]
    tokens: list[int]
    bonuses: tuple[int, int, int, int, int]
    points: int
    cards: tuple[Card, ...]
    reserved: tuple[Card | Hidden, ...]
    market: tuple[tuple[Card | None, ...], ...]
    deck_sizes: tuple[int, ...]
    seen: int
    slot: tuple[int, int] | None  # the market slot the action emptied


def _illegal(code: ErrorCode, template: str, **params: object) -> IllegalMove:
    return IllegalMove(code, template, **params)


def _met(nobles: tuple[Noble, ...], bonuses: Sequence[int]) -> list[Noble]:
    """Nobles whose requirement ``bonuses`` meet (N1). Unrolled: it runs every turn."""
    w, u, g, r, k = bonuses
    out = []
    for n in nobles:
        q = n.requires
        if w >= q[0] and u >= q[1] and g >= q[2] and r >= q[3] and k >= q[4]:
            out.append(n)
    return out


class Game:
    """A game of Splendor: ask it what is legal, push moves, undo them.

    The state is a pure function of the starting position and :attr:`moves`; :meth:`push`
    either applies a legal move or raises :class:`IllegalMove` and changes nothing.
    ``rules`` is the edition played (:data:`companion.rules.BASE` by default); ``start``, a
    position to begin at instead of the setup's (:meth:`from_position` passes it, with a
    stand-in setup).
    """

    def __init__(self, setup: Setup, rules: Rules = BASE, *, start: Position | None = None) -> None:
        if start is not None:
            # from_position(): the setup is its stand-in, the play begins at ``start``.
            self._begin(setup, rules, start)
            return
        if rules is not BASE:
            setup.check(rules)
        n = len(setup.players)
        market = tuple(tuple(rules.cards[c] for c in row) for row in setup.market)
        seats = (EMPTY_SEAT,) * n
        start = Position(
            bank=rules.starting_bank(n),
            seats=seats,
            market=market,
            deck_sizes=tuple(rules.deck_size(level) for level in rules.levels),
            nobles=tuple(rules.nobles[x] for x in setup.nobles),
            to_act=0,
            passes=0,
            round=1,
            over=False,
            seen_bits=seen_bits(market, seats),
        )
        self._begin(setup, rules, start)

    def _begin(self, setup: Setup, rules: Rules, start: Position) -> None:
        self.setup = setup
        self.rules = rules
        self.names = setup.players
        self.start = start
        self._tables = tables_of(rules)
        # Read at every move: kept here rather than looked up through self.rules.
        self._limit = rules.token_limit
        self._reserve_limit = rules.reserve_limit
        self._state = start
        self._plain: Position | None = None  # a position where nothing is ever due
        self._history: list[Position] = []
        self._moves: list[Move] = []

    @classmethod
    def from_position(
        cls, position: Position, names: Sequence[str] | None = None, rules: Rules = BASE
    ) -> Game:
        """A game that starts at ``position`` (no moves to undo before it).

        ``names`` default to ``Player 1``, ``Player 2``... Its :attr:`setup` is a valid
        stand-in (the position's face-up cards and nobles, gaps filled with unseen ones):
        a record of such a game replays from that setup, not from ``position``.
        """
        n = len(position.seats)
        players = tuple(names) if names is not None else tuple(f"Player {i + 1}" for i in range(n))
        if len(players) != n:
            raise RecordError(
                "names", "give one name for each of the {n} seats, not {given}", n=n,
                given=len(players),
            )  # fmt: skip
        return cls(_stand_in(position, players, rules), rules, start=position)

    @classmethod
    def from_text(cls, text: str, names: Sequence[str] | None = None, rules: Rules = BASE) -> Game:
        """A game that starts at a position's text form (:meth:`Position.parse`)."""
        return cls.from_position(Position.parse(text, rules), names, rules)

    def text(self) -> str:
        """The current position's one-line text form (see :mod:`companion.position`)."""
        return self._state.text()

    def copy(self) -> Game:
        """An independent game with the same position and moves (cheap: positions are
        shared, being immutable). For search: push and undo on the copy freely."""
        twin = Game(self.setup, self.rules, start=self.start)
        twin._state = self._state
        twin._history = list(self._history)
        twin._moves = list(self._moves)
        return twin

    # ------------------------------------------------------------------ queries

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def to_act(self) -> int:
        """The seat whose turn it is (0-based, in play order)."""
        return self._state.to_act

    @property
    def over(self) -> bool:
        """E1: someone reached 15 and the round is complete."""
        return self._state.over

    @property
    def final_round(self) -> bool:
        """Someone has 15 points: the round is being completed (E1)."""
        s = self._state
        target = self.rules.winning_points
        return not s.over and any(p.points >= target for p in s.seats)

    @property
    def stalled(self) -> bool:
        """A whole round of passes: nobody can act, so the game cannot go on (A7)."""
        s = self._state
        return s.passes >= len(s.seats)

    @property
    def status(self) -> Status:
        """``playing``, ``over`` or ``stalled`` (over first when both)."""
        return self._state.status

    @property
    def round(self) -> int:
        """The 1-based round being played (the last one, once the game is over)."""
        return self._state.round

    @property
    def bank(self) -> Tokens:
        return self._state.bank

    @property
    def market(self) -> tuple[tuple[Card | None, ...], ...]:
        """Face-up cards per level (index 0 is level 1); ``None`` is an empty slot."""
        return self._state.market

    def deck_size(self, level: int) -> int:
        """H3: how many cards are still in a level's deck."""
        return self._state.deck_sizes[level - 1]

    @property
    def nobles(self) -> tuple[Noble, ...]:
        """The nobles still on the table."""
        return self._state.nobles

    def unseen(self, level: int) -> list[Card]:
        """Cards of a level not seen anywhere yet: what a reveal or a blind reserve may be."""
        seen = self._state.seen_bits
        return [c for bit, c in self._tables.unseen[level - 1] if not seen & bit]

    def seat(self, seat: int) -> Seat:
        p = self._state.seats[seat]
        return Seat(
            seat, self.names[seat], p.tokens, p.bonuses, p.points, p.cards, p.reserved, p.nobles
        )

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.seat(i) for i in range(len(self._state.seats)))

    def cost(self, seat: int, card: Card) -> Tokens:
        """What ``card`` costs this player now: its cost minus their bonuses, never below 0."""
        b = self._state.seats[seat].bonuses
        return Tokens._make([max(0, card.cost[c] - b[c]) for c in _GEM_RANGE] + [0])

    def default_payment(self, seat: int, card: Card) -> Tokens | None:
        """Coloured tokens first, gold for the rest; ``None`` when the player cannot afford it."""
        p = self._state.seats[seat]
        return _default_payment(p.tokens, p.bonuses, card)

    def can_afford(self, seat: int, card: Card) -> bool:
        return self.default_payment(seat, card) is not None

    def qualifying_nobles(self, seat: int) -> list[Noble]:
        """Nobles on the table whose requirement this player's bonuses meet (N1)."""
        return _met(self._state.nobles, self._state.seats[seat].bonuses)

    def standings(self) -> list[Standing]:
        """Players ranked by E2: most points, then fewest purchased cards; ties share a rank."""
        seats = self._state.seats
        keys = [(-p.points, len(p.cards)) for p in seats]
        lines = [
            Standing(
                seat=i,
                player=self.names[i],
                points=p.points,
                cards=len(p.cards),
                nobles=tuple(n.id for n in p.nobles),
                rank=sum(1 for k in keys if k < keys[i]) + 1,
            )
            for i, p in enumerate(seats)
        ]
        lines.sort(key=lambda s: (s.rank, s.seat))
        return lines

    def winners(self) -> list[str]:
        """Names of the winners once the game is over (several: a shared victory)."""
        if not self._state.over:
            return []
        return [s.player for s in self.standings() if s.rank == 1]

    def position(self) -> Position:
        """The current position: frozen and hashable; equal positions play the same."""
        return self._state

    # ------------------------------------------------------- what a move needs

    def parse(self, text: str) -> Move:
        """A move in text form (``"take WUG"``) for the player to act."""
        return parse_move(text, self._state.to_act)

    def reveal_due(self, move: Move) -> int | None:
        """The level whose next card the table must declare after ``move`` (A6), if any."""
        if isinstance(move, Buy) or (isinstance(move, Reserve) and move.deck is None):
            card = self._tables.cards.get(move.card or "")
        else:
            return None
        if card is None:
            return None
        s = self._state
        row = card.level - 1
        if s.deck_sizes[row] and card in s.market[row]:
            return card.level
        return None

    def due(self, action: Move) -> Due:
        """What the table must still declare to finish a turn that starts with ``action``.

        Its own ``reveal``, ``returned`` and ``noble`` are ignored. Raises
        :class:`IllegalMove` when the action itself is illegal. Changes nothing.
        """
        s = self._state
        after = self._act(s, action)
        level = None
        if after.slot is not None and after.deck_sizes[after.slot[0]] > 0:
            level = self.rules.levels[after.slot[0]]
        hand = Tokens._make(after.tokens)
        return Due(
            reveal=level,
            returns=max(0, sum(after.tokens) - self.rules.token_limit),
            nobles=tuple(_met(s.nobles, after.bonuses)),
            hand=hand,
        )

    # ------------------------------------------------------------ the verdict

    def explain(self, move: Move) -> IllegalMove | None:
        """Why ``move`` is illegal now, or ``None`` when it is legal. Changes nothing."""
        try:
            self._next(self._state, move)
        except IllegalMove as err:
            return err
        return None

    def is_legal(self, move: Move) -> bool:
        return self.explain(move) is None

    def push(self, move: Move | str) -> Move:
        """Apply a legal whole move (or its text form) and return it; raise
        :class:`IllegalMove` (and change nothing) when it is not legal."""
        if isinstance(move, str):
            move = self.parse(move)
        before = self._state
        state = self._quick(before, move) or self._checked(before, move)
        self._history.append(before)
        self._state = state
        self._moves.append(move)
        return move

    def apply(self, move: Move | str) -> Move:
        """The same as :meth:`push` (a method, not an alias, so that the engine compiles)."""
        return self.push(move)

    def undo(self) -> Move:
        """Take back the last move, restoring the exact previous state. ``IndexError`` if none."""
        if not self._moves:
            raise IndexError("no move to undo")
        self._state = self._history.pop()
        return self._moves.pop()

    def pop(self) -> Move:
        """The same as :meth:`undo`, python-chess's name."""
        return self.undo()

    # ------------------------------------------------------------ legal moves

    def actions(self) -> tuple[Move, ...]:
        """The legal actions of the player to act, ``returned`` and ``noble`` unset.

        Takes, then face-up and blind reserves, then buys (face-up and known reserved
        cards, default payment); a pass only when nothing else is legal; none once the game
        is over. Finish one with :meth:`completions`.
        """
        s = self._state
        if s.over:
            return ()
        seat = s.to_act
        p = s.seats[seat]
        tables = self._tables
        moves = list(tables.takes[seat][signature(s.bank)])
        reserved = p.reserved
        b0, b1, b2, b3, b4 = p.bonuses
        t0, t1, t2, t3, t4, gold = p.tokens
        market = s.market
        if len(reserved) < self._reserve_limit:
            reserve = tables.reserve[seat]
            moves += [reserve[c.index] for row in market for c in row if c is not None]
            decks = tables.reserve_deck[seat]
            for i, size in enumerate(s.deck_sizes):
                if size:
                    moves.append(decks[i])
        buy = tables.buy[seat]
        # What each colour is paid with, bonus and token together. These loops run for
        # every card on every call, so they are written out.
        e0, e1, e2, e3, e4 = b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4
        if gold:
            for row in market:
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
                            moves.append(buy[card.index])
            for item in reserved:
                if item.__class__ is Card:
                    c0, c1, c2, c3, c4 = item.cost
                    if (
                        (c0 - e0 if c0 > e0 else 0)
                        + (c1 - e1 if c1 > e1 else 0)
                        + (c2 - e2 if c2 > e2 else 0)
                        + (c3 - e3 if c3 > e3 else 0)
                        + (c4 - e4 if c4 > e4 else 0)
                    ) <= gold:
                        moves.append(buy[item.index])
        else:
            # Without gold, every colour must cover its cost: the first that does not
            # settles it (small integers compared, nothing built).
            for row in market:
                for card in row:
                    if card is not None:
                        c0, c1, c2, c3, c4 = card.cost
                        if c0 <= e0 and c1 <= e1 and c2 <= e2 and c3 <= e3 and c4 <= e4:
                            moves.append(buy[card.index])
            for item in reserved:
                if item.__class__ is Card:
                    c0, c1, c2, c3, c4 = item.cost
                    if c0 <= e0 and c1 <= e1 and c2 <= e2 and c3 <= e3 and c4 <= e4:
                        moves.append(buy[item.index])
        # Below 8 tokens and a noble's requirement, no action can have anything due: say so
        # to completions(), which is then free (it follows actions() in every turn).
        if t0 + t1 + t2 + t3 + t4 + gold + 3 <= self._limit and (
            not s.nobles or b0 + b1 + b2 + b3 + b4 + 1 < tables.noble_floor
        ):
            self._plain = s
        if not moves:
            return (tables.passes[seat],)
        return tuple(moves)

    def completions(self, action: Move) -> Sequence[Move]:
        """The whole moves that finish a legal ``action`` (as :meth:`actions` lists it).

        ``(action,)`` when nothing is due; else one move per way to return the tokens above
        10 (T1) and per noble to choose when several qualify (N1), returns outer: a lazy
        :class:`Completions` sequence, each move built only when taken from it. The reveal
        stays unset. For an action that is not legal the result means nothing
        (:meth:`push` refuses it anyway).
        """
        s = self._state
        if self._plain is s:
            return (action,)
        p = s.seats[s.to_act]
        t0, t1, t2, t3, t4, t5 = p.tokens
        excess = t0 + t1 + t2 + t3 + t4 + t5 - self._limit
        if (
            excess <= 0
            and action.__class__ is Buy
            and (not s.nobles or sum(p.bonuses) + 1 < self._tables.noble_floor)
        ):
            return (action,)  # a buy gives no token, and no noble can visit yet
        gems = NONE
        bonuses: Sequence[int] = p.bonuses
        if isinstance(action, Take):
            gems = action.gems
            excess += sum(gems)
        elif isinstance(action, Reserve):
            if s.bank[5]:
                gems = GOLD
                excess += 1
        elif isinstance(action, Buy):
            card = self._tables.cards.get(action.card)
            if card is not None:
                more = list(bonuses)
                more[card.bonus] += 1
                bonuses = more
        nobles = s.nobles
        met = _met(nobles, bonuses) if nobles and sum(bonuses) >= self._tables.noble_floor else ()
        if excess <= 0 and len(met) < 2:
            return (action,)
        back: tuple[Tokens | None, ...] = (None,)
        if excess > 0:
            # The hand after the action, each colour capped at the excess: the key of the
            # table of every way to give tokens back (written out: it runs for a third of
            # the turns of a random game, at 8 tokens and more).
            g0, g1, g2, g3, g4, g5 = gems
            h0, h1, h2, h3, h4, h5 = t0 + g0, t1 + g1, t2 + g2, t3 + g3, t4 + g4, t5 + g5
            back = self._tables.returns[
                (
                    excess,
                    h0 if h0 < excess else excess,
                    h1 if h1 < excess else excess,
                    h2 if h2 < excess else excess,
                    h3 if h3 < excess else excess,
                    h4 if h4 < excess else excess,
                    h5 if h5 < excess else excess,
                )
            ]
        choice: tuple[str | None, ...] = tuple(n.id for n in met) if len(met) > 1 else (None,)
        return Completions(action, back, choice)

    def legal_moves(self) -> Iterator[Move]:
        """Every whole legal move of the player to act, lazily.

        Each of :meth:`actions` followed by its :meth:`completions`: takes, face-up and
        blind reserves, buys (face-up and known reserved cards) with the default payment,
        each with every way to return tokens above 10 and every noble choice when several
        qualify. A move that empties a market slot leaves ``reveal`` unset: the table
        declares it (:meth:`reveal_due`, :meth:`unseen`).
        """
        s = self._state
        p = s.seats[s.to_act]
        tokens = p.tokens
        base = sum(tokens) - self.rules.token_limit
        tables = self._tables
        nobles = s.nobles
        floor = tables.noble_floor
        bonuses = p.bonuses
        # The nobles a move may carry: all the same for takes and reserves, by colour for
        # buys. Computed once here rather than once per move (this lists hundreds).
        met = _met(nobles, bonuses) if nobles and sum(bonuses) >= floor else []
        choice_now: tuple[str | None, ...] = tuple(n.id for n in met) if len(met) > 1 else (None,)
        after_buy: dict[int, tuple[str | None, ...]] = {}
        gold = GOLD if s.bank[5] else NONE
        for action in self.actions():
            if isinstance(action, Buy):
                card = tables.cards[action.card]
                choice = after_buy.get(card.bonus)
                if choice is None:
                    more = list(bonuses)
                    more[card.bonus] += 1
                    met = _met(nobles, more) if nobles and sum(more) >= floor else []
                    choice = tuple(n.id for n in met) if len(met) > 1 else (None,)
                    after_buy[card.bonus] = choice
                excess = 0
                gems = NONE
            else:
                choice = choice_now
                gems = action.gems if isinstance(action, Take) else gold
                excess = base + sum(gems) if not isinstance(action, Pass) else 0
            if excess <= 0:
                if choice[0] is None:
                    yield action
                else:
                    for noble in choice:
                        yield complete(action, None, noble)
                continue
            for r in returns(excess, *(min(excess, tokens[c] + gems[c]) for c in range(6))):
                for noble in choice:
                    yield complete(action, r, noble)

    # ------------------------------------------------------------ applying

    def _next(self, s: Position, move: Move) -> Position:
        """The position after ``move``, raising at the first rule it breaks (changes nothing)."""
        quick = self._quick(s, move)
        if quick is not None:
            return quick
        return self._checked(s, move)

    def _quick(self, s: Position, move: Move) -> Position | None:
        """The position after ``move`` when it is an ordinary legal move, else ``None``.

        The fast path of :meth:`_next`: it accepts only what it fully checks (every rule
        :meth:`_checked` applies) and leaves anything unusual or illegal to that method,
        which finds the exact error. It runs for every move played, so it is written flat:
        the bank and the hand are kept as twelve counts and made into tokens once, at the
        end, and the checks are ordered so that each move type does only its own.
        """
        bank, all_seats, market, deck_sizes, nobles, seat, _, round_, over, seen = s
        if over or move.player != seat:
            return None
        tokens, bonuses, points, cards, reserved, held_nobles = all_seats[seat]
        tables = self._tables
        k0, k1, k2, k3, k4, k5 = bank
        t0, t1, t2, t3, t4, t5 = tokens
        row = -1  # the market row, and below the slot, the action empties (A6)
        index = 0
        cls = move.__class__
        # type is, not isinstance: a subclass goes to _checked(), which is exact.
        if cls is Take:
            gems = move.gems  # type: ignore[union-attr]
            if gems not in tables.take_sets[signature(bank)]:
                return None
            g0, g1, g2, g3, g4, g5 = gems
            k0, k1, k2, k3, k4, k5 = k0 - g0, k1 - g1, k2 - g2, k3 - g3, k4 - g4, k5 - g5
            t0, t1, t2, t3, t4, t5 = t0 + g0, t1 + g1, t2 + g2, t3 + g3, t4 + g4, t5 + g5
        elif cls is Buy:
            if move.payment is not None:  # type: ignore[union-attr]
                return None
            card = tables.cards.get(move.card)  # type: ignore[union-attr,arg-type]
            if card is None:
                return None
            row = card.level - 1
            faces = market[row]
            # Cards compare by identity, so these scans run in C.
            if card in faces:
                index = faces.index(card)
            elif card in reserved:
                row = -1
                i = reserved.index(card)
                reserved = reserved[:i] + reserved[i + 1 :]
            else:
                return None
            pay = _default_payment(tokens, bonuses, card)
            if pay is None:
                return None
            p0, p1, p2, p3, p4, short = pay
            k0, k1, k2, k3, k4, k5 = k0 + p0, k1 + p1, k2 + p2, k3 + p3, k4 + p4, k5 + short
            t0, t1, t2, t3, t4, t5 = t0 - p0, t1 - p1, t2 - p2, t3 - p3, t4 - p4, t5 - short
            b0, b1, b2, b3, b4 = bonuses
            bonus = card.bonus
            bonuses = (
                b0 + (bonus == 0),
                b1 + (bonus == 1),
                b2 + (bonus == 2),
                b3 + (bonus == 3),
                b4 + (bonus == 4),
            )
            points += card.points
            cards = (*cards, card)
        elif cls is Reserve:
            if len(reserved) >= self._reserve_limit:
                return None
            held: Card | Hidden
            level = move.deck  # type: ignore[union-attr]
            if level is None:
                card = tables.cards.get(move.card or "")  # type: ignore[union-attr]
                if card is None:
                    return None
                row = card.level - 1
                faces = market[row] if 0 <= row < len(market) else ()
                if card not in faces:
                    return None
                index = faces.index(card)
                held = card
            else:
                if not 0 < level <= len(deck_sizes) or not deck_sizes[level - 1]:
                    return None
                known = move.card  # type: ignore[union-attr]
                if known is None:
                    held = Hidden(level)
                else:
                    card = tables.cards.get(known)
                    if card is None or card.level != level or seen >> card.index & 1:
                        return None
                    held = card
                    seen |= 1 << card.index
                sizes = list(deck_sizes)
                sizes[level - 1] -= 1
                deck_sizes = tuple(sizes)
            reserved = (*reserved, held)
            if k5:
                k5 -= 1
                t5 += 1
        else:
            return None

        reveal = move.reveal
        if row < 0:
            if reveal is not None:
                return None
        else:
            if deck_sizes[row]:
                card = tables.cards.get(reveal)  # type: ignore[arg-type]
                if card is None or card.level != row + 1 or seen >> card.index & 1:
                    return None
                seen |= 1 << card.index
                sizes = list(deck_sizes)
                sizes[row] -= 1
                deck_sizes = tuple(sizes)
            elif reveal is not None:
                return None
            else:
                card = None
            faces = market[row]
            faces = (*faces[:index], card, *faces[index + 1 :])
            market = (
                (faces, market[1], market[2])
                if row == 0 and len(market) == 3
                else (*market[:row], faces, *market[row + 1 :])
            )

        excess = t0 + t1 + t2 + t3 + t4 + t5 - self._limit
        returned = move.returned
        if excess > 0:
            if returned is None:
                return None
            r0, r1, r2, r3, r4, r5 = returned
            if r0 + r1 + r2 + r3 + r4 + r5 != excess:
                return None
            t0, t1, t2, t3, t4, t5 = t0 - r0, t1 - r1, t2 - r2, t3 - r3, t4 - r4, t5 - r5
            if (
                r0 < 0 or r1 < 0 or r2 < 0 or r3 < 0 or r4 < 0 or r5 < 0
                or t0 < 0 or t1 < 0 or t2 < 0 or t3 < 0 or t4 < 0 or t5 < 0
            ):  # fmt: skip
                return None
            k0, k1, k2, k3, k4, k5 = k0 + r0, k1 + r1, k2 + r2, k3 + r3, k4 + r4, k5 + r5
        elif returned is not None and any(returned):
            return None

        noble_id = move.noble
        if nobles and sum(bonuses) >= tables.noble_floor:
            met = _met(nobles, bonuses)
            if noble_id is None:
                if len(met) > 1:
                    return None
                visit = met[0] if met else None
            else:
                for visit in met:
                    if visit.id == noble_id:
                        break
                else:
                    return None
            if visit is not None:
                nobles = tuple(n for n in nobles if n is not visit)
                held_nobles = (*held_nobles, visit)
                points += visit.points
        elif noble_id is not None:
            return None

        mine = NEW(
            SeatState,
            (
                NEW(Tokens, (t0, t1, t2, t3, t4, t5)),
                bonuses,
                points,
                cards,
                reserved,
                held_nobles,
            ),
        )
        following = seat + 1
        if following == len(all_seats):
            following = 0
            seats = (*all_seats[:seat], mine)
            target = self.rules.winning_points
            for q in seats:
                if q.points >= target:
                    over = True
                    break
            else:
                round_ += 1
        elif seat == 0:
            seats = (mine, *all_seats[1:])
        else:
            seats = (*all_seats[:seat], mine, *all_seats[following:])
        return NEW(
            Position,
            (
                NEW(Tokens, (k0, k1, k2, k3, k4, k5)),
                seats,
                market,
                deck_sizes,
                nobles,
                following,
                0,
                round_,
                over,
                seen,
            ),
        )

    def _checked(self, s: Position, move: Move) -> Position:
        """:meth:`_next` step by step, raising at the first rule ``move`` breaks."""
        after = self._act(s, move)
        market, deck_sizes, seen = self._refill(after, move.reveal)
        return self._end_turn(s, after, market, deck_sizes, seen, move)

    def _act(self, s: Position, move: Move) -> _After:
        """The action part of a move, checked and applied to copies."""
        if s.over:
            raise _illegal(ErrorCode.GAME_OVER, "the game is over; no more moves can be played")
        seat = s.to_act
        if move.player != seat:
            if 0 <= move.player < len(self.names):
                raise _illegal(
                    ErrorCode.WRONG_PLAYER,
                    "it is {name}'s turn, not {given}'s",
                    name=self.names[seat],
                    given=self.names[move.player],
                )
            raise _illegal(
                ErrorCode.WRONG_PLAYER,
                "it is {name}'s turn; this table has no player {given}",
                name=self.names[seat],
                given=move.player + 1,  # the record counts seats from 0, people from 1
            )
        p = s.seats[seat]
        if isinstance(move, Take):
            bank, tokens = self._take(s, p, move.gems)
            return _After(
                bank, tokens, p.bonuses, p.points, p.cards, p.reserved, s.market,
                s.deck_sizes, s.seen_bits, None,
            )  # fmt: skip
        if isinstance(move, Reserve):
            return self._reserve(s, p, move)
        if isinstance(move, Buy):
            return self._buy(s, p, move)
        if isinstance(move, Pass):
            if self._has_action(s):
                raise _illegal(
                    ErrorCode.PASS_INVALID,
                    "{name} can still take, reserve or buy: a pass is allowed only when "
                    "nothing else is",
                    name=self.names[seat],
                )
            return _After(
                list(s.bank), list(p.tokens), p.bonuses, p.points, p.cards, p.reserved,
                s.market, s.deck_sizes, s.seen_bits, None,
            )  # fmt: skip
        raise _illegal(ErrorCode.MALFORMED_MOVE, "unknown action {move!r}", move=move)

    def _take(self, s: Position, p: SeatState, gems: Tokens) -> tuple[list[int], list[int]]:
        if any(n < 0 for n in gems):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        if gems[5]:
            raise _illegal(
                ErrorCode.TAKE_INVALID, "gold cannot be taken: it comes only with a reserve"
            )
        bank = s.bank
        chosen = [c for c in _GEM_RANGE if gems[c]]
        counts = [gems[c] for c in chosen]
        if counts == [2]:
            colour = chosen[0]
            if bank[colour] < 4:
                raise _illegal(
                    ErrorCode.TAKE_TWO_NEEDS_FOUR,
                    "2 {colour} tokens can be taken only when the bank holds at least 4; "
                    "it holds {n}",
                    colour=Colour(colour),
                    n=bank[colour],
                )
        elif counts and len(counts) <= 3 and all(n == 1 for n in counts):
            missing = [Colour(c) for c in chosen if bank[c] == 0]
            if missing:
                raise _illegal(
                    ErrorCode.BANK_SHORT, "the bank has no {colour} token left", colour=missing
                )
            if len(counts) < 3 and sum(1 for c in _GEM_RANGE if bank[c] > 0) >= 3:
                raise _illegal(
                    ErrorCode.TAKE_INVALID,
                    "take 3 tokens of 3 different colours (or 2 of one colour): fewer "
                    "colours only when fewer than 3 are left in the bank",
                )
        else:
            raise _illegal(
                ErrorCode.TAKE_INVALID,
                "take 3 tokens of 3 different colours, or 2 tokens of one colour; not {gems}",
                gems=gems,
            )
        new_bank = list(bank)
        tokens = list(p.tokens)
        for c in chosen:
            new_bank[c] -= gems[c]
            tokens[c] += gems[c]
        return new_bank, tokens

    def _reserve(self, s: Position, p: SeatState, move: Reserve) -> _After:
        if len(p.reserved) >= self.rules.reserve_limit:
            raise _illegal(
                ErrorCode.RESERVE_LIMIT,
                "{name} already holds 3 reserved cards: buy one before reserving again",
                name=self.names[s.to_act],
            )
        slot = None
        market = s.market
        deck_sizes = s.deck_sizes
        seen = s.seen_bits
        held: Card | Hidden
        if move.deck is not None:
            level = move.deck
            levels = self.rules.levels
            if level not in levels:
                raise _illegal(
                    ErrorCode.MALFORMED_MOVE, "there is no deck of level {level}", level=level
                )
            row = levels.index(level)
            if deck_sizes[row] == 0:
                raise _illegal(ErrorCode.DECK_EMPTY, "the level {level} deck is empty", level=level)
            if move.card is None:
                held = Hidden(level)
            else:
                card = self._card(move.card)
                if card.level != level or seen >> card.index & 1:
                    raise _illegal(
                        ErrorCode.CARD_UNAVAILABLE,
                        "{id} cannot be the top card of the level {level} deck: it is of "
                        "another level or already seen",
                        id=card.id,
                        level=level,
                    )
                seen |= 1 << card.index
                held = card
            sizes = list(deck_sizes)
            sizes[row] -= 1
            deck_sizes = tuple(sizes)
        else:
            if move.card is None:
                raise _illegal(ErrorCode.MALFORMED_MOVE, "a reserve names a card or a deck")
            card = self._card(move.card)
            slot = _find_face_up(s, card)
            if slot is None:
                raise _illegal(
                    ErrorCode.CARD_UNAVAILABLE, "{id} is not face up on the table", id=card.id
                )
            market = _emptied(market, slot)
            held = card
        bank = list(s.bank)
        tokens = list(p.tokens)
        if bank[5] > 0:
            bank[5] -= 1
            tokens[5] += 1
        return _After(
            bank, tokens, p.bonuses, p.points, p.cards, (*p.reserved, held), market,
            deck_sizes, seen, slot,
        )  # fmt: skip

    def _buy(self, s: Position, p: SeatState, move: Buy) -> _After:
        card = self._card(move.card)
        slot = _find_face_up(s, card)
        seen = s.seen_bits
        reserved = p.reserved
        if slot is None:
            source = None
            for i, r in enumerate(reserved):
                if r is card:
                    source = i
                    break
            else:
                for i, r in enumerate(reserved):
                    if isinstance(r, Hidden) and r.level == card.level:
                        if not seen >> card.index & 1:
                            source = i
                        break
            if source is None:
                raise _illegal(
                    ErrorCode.CARD_UNAVAILABLE,
                    "{id} is neither face up nor in {name}'s reserve",
                    id=card.id,
                    name=self.names[s.to_act],
                )
            seen |= 1 << card.index  # a blind-reserved card is seen once bought
            reserved = reserved[:source] + reserved[source + 1 :]
        default = _default_payment(p.tokens, p.bonuses, card)
        if default is None:
            seat = s.to_act
            raise _illegal(
                ErrorCode.CANNOT_AFFORD,
                "{id} costs {name} {cost} after bonuses; they hold {held}",
                id=card.id,
                name=self.names[seat],
                cost=self.cost(seat, card),
                held=p.tokens,
            )
        pay = default if move.payment is None else self._check_payment(s, p, card, move.payment)
        bank = list(s.bank)
        tokens = list(p.tokens)
        for c in range(6):
            n = pay[c]
            if n:
                tokens[c] -= n
                bank[c] += n
        b = list(p.bonuses)
        b[card.bonus] += 1
        return _After(
            bank, tokens, (b[0], b[1], b[2], b[3], b[4]), p.points + card.points,
            (*p.cards, card), reserved,
            s.market if slot is None else _emptied(s.market, slot), s.deck_sizes, seen, slot,
        )  # fmt: skip

    def _check_payment(self, s: Position, p: SeatState, card: Card, payment: Tokens) -> Tokens:
        if any(n < 0 for n in payment):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        lacking = [c for c in Colour if payment[c] > p.tokens[c]]
        if lacking:
            raise _illegal(
                ErrorCode.PAYMENT_INVALID,
                "the payment uses {colour} tokens the player does not hold",
                colour=lacking,
            )
        cost = self.cost(s.to_act, card)
        over = [c for c in GEMS if payment[c] > cost[c]]
        gold_needed = sum(cost[c] - payment[c] for c in GEMS if payment[c] <= cost[c])
        if over or gold_needed != payment.gold:
            raise _illegal(
                ErrorCode.PAYMENT_INVALID,
                "{id} costs {cost} after bonuses; the payment {payment} does not cover it "
                "exactly (gold stands in for any colour)",
                id=card.id,
                cost=cost,
                payment=payment,
            )
        return payment

    def _refill(
        self, after: _After, reveal: str | None
    ) -> tuple[tuple[tuple[Card | None, ...], ...], tuple[int, ...], int]:
        slot = after.slot
        if slot is None:
            if reveal is not None:
                raise _illegal(
                    ErrorCode.REVEAL_INVALID,
                    "no face-up card left the table, so nothing is revealed ({id})",
                    id=reveal,
                )
            return after.market, after.deck_sizes, after.seen
        row, index = slot
        level = self.rules.levels[row]
        if after.deck_sizes[row] == 0:
            if reveal is not None:
                raise _illegal(
                    ErrorCode.REVEAL_INVALID,
                    "the level {level} deck is empty: the slot stays empty",
                    level=level,
                )
            return after.market, after.deck_sizes, after.seen
        if reveal is None:
            raise _illegal(
                ErrorCode.REVEAL_MISSING,
                "declare the level {level} card turned face up to fill the gap",
                level=level,
            )
        card = self._card(reveal)
        if card.level != level or after.seen >> card.index & 1:
            raise _illegal(
                ErrorCode.REVEAL_INVALID,
                "{id} cannot be revealed: the gap needs an unseen level {level} card",
                id=card.id,
                level=level,
            )
        market = after.market
        cards = list(market[row])
        cards[index] = card
        sizes = list(after.deck_sizes)
        sizes[row] -= 1
        return (
            (*market[:row], tuple(cards), *market[row + 1 :]),
            tuple(sizes),
            after.seen | 1 << card.index,
        )

    def _end_turn(
        self,
        s: Position,
        after: _After,
        market: tuple[tuple[Card | None, ...], ...],
        deck_sizes: tuple[int, ...],
        seen: int,
        move: Move,
    ) -> Position:
        seat = s.to_act
        tokens = after.tokens
        bank = after.bank
        limit = self.rules.token_limit
        excess = sum(tokens) - limit
        returned = move.returned
        if returned is not None and any(returned):
            if any(n < 0 for n in returned):
                raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
            lacking = [c for c in Colour if returned[c] > tokens[c]]
            if lacking:
                raise _illegal(
                    ErrorCode.RETURN_INVALID,
                    "returns {colour} tokens the player does not hold",
                    colour=lacking,
                )
            total = sum(returned)
            if total > max(0, excess):
                raise _illegal(
                    ErrorCode.RETURN_INVALID,
                    "returns {tokens}; only {excess} are needed to get down to 10",
                    tokens=Counted("{n} token", "{n} tokens", total),
                    excess=max(0, excess),
                )
            for c in range(6):
                tokens[c] -= returned[c]
                bank[c] += returned[c]
            excess -= total
        if excess > 0:
            raise _illegal(
                ErrorCode.TOKEN_LIMIT,
                "{name} would end the turn with {n} tokens: return {excess} to get down to 10",
                name=self.names[seat],
                n=excess + limit,
                excess=excess,
            )

        nobles = s.nobles
        points = after.points
        held = s.seats[seat].nobles
        qualifying = _met(nobles, after.bonuses) if nobles else []
        noble: Noble | None = None
        if move.noble is not None:
            noble = self.rules.nobles.get(move.noble)
            if noble is None:
                raise _illegal(
                    ErrorCode.MALFORMED_MOVE, "{id!r} is not a noble (N1 to N10)", id=move.noble
                )
            if noble not in qualifying:
                raise _illegal(
                    ErrorCode.NOBLE_INVALID,
                    "noble {id} cannot visit: it is not on the table or its bonuses are not met",
                    id=noble.id,
                )
        elif len(qualifying) > 1:
            raise _illegal(
                ErrorCode.NOBLE_CHOICE_REQUIRED,
                "several nobles can visit ({ids}): choose one",
                ids=[n.id for n in qualifying],
            )
        elif qualifying:
            noble = qualifying[0]
        if noble is not None:
            nobles = tuple(n for n in nobles if n is not noble)
            held = (*held, noble)
            points += noble.points

        seats = list(s.seats)
        seats[seat] = SeatState(
            Tokens._make(tokens), after.bonuses, points, after.cards, after.reserved, held
        )
        n = len(seats)
        over = False
        following = seat + 1
        round_ = s.round
        if following == n:
            following = 0
            target = self.rules.winning_points
            over = any(q.points >= target for q in seats)
            if not over:
                round_ += 1
        return Position(
            Tokens._make(bank),
            tuple(seats),
            market,
            deck_sizes,
            nobles,
            following,
            s.passes + 1 if move.__class__ is Pass else 0,
            round_,
            over,
            seen,
        )

    def _has_action(self, s: Position) -> bool:
        """A7: is any action but a pass legal for the player to act?"""
        if any(s.bank[c] > 0 for c in _GEM_RANGE):
            return True
        p = s.seats[s.to_act]
        if len(p.reserved) < self.rules.reserve_limit and (
            any(s.deck_sizes) or any(c for row in s.market for c in row)
        ):
            return True
        market = [c for row in s.market for c in row if c is not None]
        known = [c for c in p.reserved if isinstance(c, Card)]
        return any(_default_payment(p.tokens, p.bonuses, c) is not None for c in market + known)

    def _card(self, card_id: str) -> Card:
        card = self.rules.cards.get(card_id)
        if card is None:
            template, params = card_id_problem(self.rules.cards, card_id)
            raise _illegal(ErrorCode.MALFORMED_MOVE, template, **params)
        return card


def _default_payment(
    tokens: Tokens, bonuses: tuple[int, int, int, int, int], card: Card
) -> Tokens | None:
    # Written out per colour: it runs for every buy pushed.
    t0, t1, t2, t3, t4, gold = tokens
    b0, b1, b2, b3, b4 = bonuses
    c0, c1, c2, c3, c4 = card.cost
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


def _find_face_up(s: Position, card: Card) -> tuple[int, int] | None:
    row = card.level - 1
    cards = s.market[row] if 0 <= row < len(s.market) else ()
    for i, c in enumerate(cards):
        if c is card:
            return (row, i)
    return None


def _emptied(
    market: tuple[tuple[Card | None, ...], ...], slot: tuple[int, int]
) -> tuple[tuple[Card | None, ...], ...]:
    row, index = slot
    cards = market[row]
    return (*market[:row], (*cards[:index], None, *cards[index + 1 :]), *market[row + 1 :])


def _stand_in(position: Position, players: tuple[str, ...], rules: Rules) -> Setup:
    """A valid setup for a game built from a position: its face-up cards and nobles, each
    gap filled with a card or noble found nowhere else in the position when there is one."""
    market = []
    for level, row in zip(rules.levels, position.market, strict=True):
        # Unseen cards first; once the deck is spent, any card the row does not show.
        ranked = sorted(
            rules.cards_by_level[level], key=lambda c: position.seen_bits >> c.index & 1
        )
        spare = (c.id for c in ranked if c not in row)
        market.append([c.id if c is not None else next(spare) for c in row])
    held = {n.id for s in position.seats for n in s.nobles}
    table = [n.id for n in position.nobles]
    others = [x for x in rules.nobles if x not in table and x not in held]
    others += [x for x in rules.nobles if x in held]
    nobles = (table + others)[: rules.nobles_revealed(len(players))]
    setup = Setup.of(players, nobles, market)
    if rules is not BASE:
        setup.check(rules)
    return setup
