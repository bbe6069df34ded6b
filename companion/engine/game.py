"""The rules engine: one :class:`Game` is a starting position plus the moves applied to it.

>>> from companion.engine.setup import Setup
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
:meth:`Game.position` is the frozen :class:`~companion.engine.position.Position` (O(1): the engine
keeps one per move, which is how undo works); :meth:`Game.text` its one-line text form and
:meth:`Game.from_text` / :meth:`Game.from_position` a game starting there.
:meth:`Game.copy` is a cheap independent copy for search.

>>> again = Game.from_text(game.text(), names=["Ada", "Ben"])
>>> again.text() == game.text(), again.position() == game.position()
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from ..errors import ErrorCode, IllegalMove, RecordError
from ..i18n import Counted
from .cards import Card, Noble, card_id_problem
from .moves import Buy, Move, Pass, Reserve, Take, parse_move
from .position import EMPTY_SEAT, Hidden, Position, SeatState, Status, seen_bits
from .rules import BASE, Rules
from .setup import Setup
from .tables import (
    GOLD,
    NEW,
    NONE,
    Bonuses,
    Completions,
    affordable,
    after_bonuses,
    complete,
    gives_back,
    minus,
    nobles_met,
    payment,
    pays_exactly,
    plus,
    return_key,
    signature,
    tables_of,
    with_bonus,
)
from .tokens import Colour, Tokens

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
    """One player's tableau as the table sees it, at one moment: the position's
    :class:`SeatState` with the seat's number, the player's name and the game's rules
    (what a screen shows the hand against: ``7/10`` tokens, 3 places for reserved cards).
    The state's fields read through: ``seat.tokens`` is ``seat.state.tokens``."""

    seat: int
    name: str
    state: SeatState
    rules: Rules = BASE

    @property
    def tokens(self) -> Tokens:
        return self.state.tokens

    @property
    def bonuses(self) -> Bonuses:
        return self.state.bonuses

    @property
    def points(self) -> int:
        return self.state.points

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.state.cards

    @property
    def reserved(self) -> tuple[Card | Hidden, ...]:
        return self.state.reserved

    @property
    def nobles(self) -> tuple[Noble, ...]:
        return self.state.nobles


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


def _illegal(code: ErrorCode, template: str, **params: object) -> IllegalMove:
    return IllegalMove(code, template, **params)


class Game:
    """A game of Splendor: ask it what is legal, push moves, undo them.

    The state is a pure function of the starting position and :attr:`moves`; :meth:`push`
    either applies a legal move or raises :class:`IllegalMove` and changes nothing.
    ``rules`` is the edition played: the setup's (:attr:`Setup.rules`, the base game unless
    given) by default; rules given here are the setup's from then on (:attr:`setup` holds
    them, so a record of the game carries them), checked against it. ``start``, a
    position to begin at instead of the setup's (:meth:`from_position` passes it, with a
    stand-in setup).
    """

    def __init__(
        self, setup: Setup, rules: Rules | None = None, *, start: Position | None = None
    ) -> None:
        if rules is None:
            rules = setup.rules
        elif rules is not setup.rules:
            setup = replace(setup, rules=rules)  # checks the setup against them
        if start is not None:
            # from_position(): the setup is its stand-in, the play begins at ``start``.
            self._begin(setup, rules, start)
            return
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
        """The current position's one-line text form (see :mod:`companion.engine.position`)."""
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
        """E1: someone reached the winning points and the round is complete."""
        return self._state.over

    @property
    def final_round(self) -> bool:
        """Someone has the winning points: the round is being completed (E1)."""
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
        return Seat(seat, self.names[seat], self._state.seats[seat], self.rules)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.seat(i) for i in range(len(self._state.seats)))

    def cost(self, seat: int, card: Card) -> Tokens:
        """What ``card`` costs this player now: its cost minus their bonuses, never below 0."""
        return after_bonuses(card.cost, self._state.seats[seat].bonuses)

    def default_payment(self, seat: int, card: Card) -> Tokens | None:
        """Coloured tokens first, gold for the rest; ``None`` when the player cannot afford it."""
        p = self._state.seats[seat]
        return payment(p.tokens, p.bonuses, card.cost)

    def can_afford(self, seat: int, card: Card) -> bool:
        return self.default_payment(seat, card) is not None

    def qualifying_nobles(self, seat: int) -> list[Noble]:
        """Nobles on the table whose requirement this player's bonuses meet (N1)."""
        return nobles_met(self._state.nobles, self._state.seats[seat].bonuses)

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
        after = self._play(s, action, True, action_only=True)
        assert after is not None, "the explaining verdict raises where it refuses"
        mine = after.seats[s.to_act]
        return Due(
            reveal=self.reveal_due(action),
            returns=max(0, sum(mine.tokens) - self._limit),
            nobles=tuple(nobles_met(s.nobles, mine.bonuses)),
            hand=mine.tokens,
        )

    # ------------------------------------------------------------ the verdict

    def explain(self, move: Move) -> IllegalMove | None:
        """Why ``move`` is illegal now, or ``None`` when it is legal. Changes nothing."""
        try:
            self._play(self._state, move, True)
        except IllegalMove as err:
            return err
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now: the fast verdict (the one :meth:`push` applies
        first), for search. Changes nothing."""
        return self._play(self._state, move, False) is not None

    def push(self, move: Move | str) -> Move:
        """Apply a legal whole move (or its text form) and return it; raise
        :class:`IllegalMove` (and change nothing) when it is not legal."""
        if isinstance(move, str):
            move = self.parse(move)
        before = self._state
        # The fast verdict; when it refuses, the explaining one raises saying why.
        state = self._play(before, move, False) or self._play(before, move, True)
        assert state is not None, "the explaining verdict raises where it refuses"
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
        # What each colour is paid with, bonus and token together.
        reach = (b0 + t0, b1 + t1, b2 + t2, b3 + t3, b4 + t4)
        # The face-up cards, and the reserved ones but those blind-reserved.
        rows = market
        if reserved:
            rows = (*market, tuple([c for c in reserved if isinstance(c, Card)]))
        affordable(rows, reach, gold, buy, moves)
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
        excess = sum(p.tokens) - self._limit
        if (
            excess <= 0
            and action.__class__ is Buy
            and (not s.nobles or sum(p.bonuses) + 1 < self._tables.noble_floor)
        ):
            return (action,)  # a buy gives no token, and no noble can visit yet
        gems = NONE
        bonuses = p.bonuses
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
                bonuses = with_bonus(bonuses, card.bonus)
        nobles = s.nobles
        floor = self._tables.noble_floor
        met = nobles_met(nobles, bonuses) if nobles and sum(bonuses) >= floor else ()
        if excess <= 0 and len(met) < 2:
            return (action,)
        back: tuple[Tokens | None, ...] = (None,)
        if excess > 0:
            # Every way to give tokens back from the hand after the action (it runs for
            # a third of the turns of a random game, at 8 tokens and more).
            back = self._tables.returns[return_key(excess, plus(p.tokens, gems))]
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
        met = nobles_met(nobles, bonuses) if nobles and sum(bonuses) >= floor else []
        choice_now: tuple[str | None, ...] = tuple(n.id for n in met) if len(met) > 1 else (None,)
        after_buy: dict[int, tuple[str | None, ...]] = {}
        gold = GOLD if s.bank[5] else NONE
        for action in self.actions():
            if isinstance(action, Buy):
                card = tables.cards[action.card]
                choice = after_buy.get(card.bonus)
                if choice is None:
                    more = with_bonus(bonuses, card.bonus)
                    met = nobles_met(nobles, more) if nobles and sum(more) >= floor else []
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
            for r in tables.returns[return_key(excess, plus(tokens, gems))]:
                for noble in choice:
                    yield complete(action, r, noble)

    # ------------------------------------------------------------ applying
    #
    # Each move's effect is written once, in _play(): the action (take, reserve, buy,
    # pass), the reveal, the tokens returned, the noble's visit, the end of the turn.
    # Two verdicts run over it. The fast one (``explain`` false) answers None at the first
    # rule broken: push() and is_legal() use it, and search calls them. The explaining one
    # (``explain`` true) raises IllegalMove with the code and words of the rule broken: where
    # a rule is one test the two share it, where saying why takes several they differ, and
    # tests/test_engine.py plays both on thousands of moves to show that they agree.

    def _play(
        self, s: Position, move: Move, explain: bool, action_only: bool = False
    ) -> Position | None:
        """The position after the whole ``move``; ``None`` when the rules refuse it, or when
        ``explain``, :class:`IllegalMove` saying why. ``action_only``: the position once
        the action alone is applied, the gap it leaves in the market unchanged (for
        :meth:`due`)."""
        bank, all_seats, market, deck_sizes, nobles, seat, passes, round_, over, seen = s
        if over or move.player != seat:
            if explain:
                raise self._not_your_turn(s, move)
            return None
        tokens, bonuses, points, cards, reserved, held = all_seats[seat]
        row = -1  # the market row, and below the slot, that the action empties (A6)
        index = 0

        # The action: take (A1-A3), buy (A5), reserve (A4) or pass (A7).
        if isinstance(move, Take):
            gems = move.gems
            if explain:
                self._check_take(bank, gems)
            if gems not in self._tables.take_sets[signature(bank)]:
                return None
            bank = minus(bank, gems)
            tokens = plus(tokens, gems)
        elif isinstance(move, Buy):
            card = self._tables.cards.get(move.card)
            if card is None:
                self._unknown_card(move.card, explain)
                return None
            row = card.level - 1
            faces = market[row]  # cards compare by identity: these scans run in C
            index = faces.index(card) if card in faces else -1
            if index < 0:
                row = -1
                i = _in_reserve(reserved, card, seen)
                if i < 0:
                    if explain:
                        raise _illegal(
                            ErrorCode.CARD_UNAVAILABLE,
                            "{id} is neither face up nor in {name}'s reserve",
                            id=card.id,
                            name=self.names[seat],
                        )
                    return None
                reserved = reserved[:i] + reserved[i + 1 :]
                seen |= 1 << card.index  # a blind-reserved card is seen once bought
            pay = payment(tokens, bonuses, card.cost)
            if pay is None:
                if explain:
                    raise _illegal(
                        ErrorCode.CANNOT_AFFORD,
                        "{id} costs {name} {cost} after bonuses; they hold {held}",
                        id=card.id,
                        name=self.names[seat],
                        cost=after_bonuses(card.cost, bonuses),
                        held=tokens,
                    )
                return None
            if move.payment is not None:
                if explain:
                    self._check_payment(tokens, bonuses, card, move.payment)
                if not pays_exactly(tokens, after_bonuses(card.cost, bonuses), move.payment):
                    return None
                pay = move.payment
            tokens = minus(tokens, pay)
            bank = plus(bank, pay)
            bonuses = with_bonus(bonuses, card.bonus)
            points += card.points
            cards = (*cards, card)
        elif isinstance(move, Reserve):
            if len(reserved) >= self._reserve_limit:
                if explain:
                    raise _illegal(
                        ErrorCode.RESERVE_LIMIT,
                        "{name} already holds {cards}: buy one before reserving again",
                        name=self.names[seat],
                        cards=Counted(
                            "{n} reserved card", "{n} reserved cards", self._reserve_limit
                        ),
                    )
                return None
            kept: Card | Hidden
            if move.deck is None:
                if move.card is None:
                    if explain:
                        raise _illegal(ErrorCode.MALFORMED_MOVE, "a reserve names a card or a deck")
                    return None
                card = self._tables.cards.get(move.card)
                if card is None:
                    self._unknown_card(move.card, explain)
                    return None
                row = card.level - 1
                faces = market[row]
                index = faces.index(card) if card in faces else -1
                if index < 0:
                    if explain:
                        raise _illegal(
                            ErrorCode.CARD_UNAVAILABLE,
                            "{id} is not face up on the table",
                            id=card.id,
                        )
                    return None
                kept = card
            else:
                level = move.deck
                drawn = self._drawn(level, move.card, deck_sizes, seen, explain)
                if drawn is None:
                    return None
                kept = drawn
                if isinstance(drawn, Card):
                    seen |= 1 << drawn.index
                deck_sizes = _dealt(deck_sizes, level - 1)
            reserved = (*reserved, kept)
            if bank[5]:  # A4: a gold token comes with it, while any is left
                bank = minus(bank, GOLD)
                tokens = plus(tokens, GOLD)
        elif isinstance(move, Pass):
            if self._has_action(s):
                if explain:
                    raise _illegal(
                        ErrorCode.PASS_INVALID,
                        "{name} can still take, reserve or buy: a pass is allowed only when "
                        "nothing else is",
                        name=self.names[seat],
                    )
                return None
            passes += 1
        else:
            if explain:
                raise _illegal(ErrorCode.MALFORMED_MOVE, "unknown action {move!r}", move=move)
            return None
        if action_only:
            mine = NEW(SeatState, (tokens, bonuses, points, cards, reserved, held))
            seats = (*all_seats[:seat], mine, *all_seats[seat + 1 :])
            return NEW(
                Position,
                (bank, seats, market, deck_sizes, nobles, seat, passes, round_, over, seen),
            )

        # A6: the gap the action left is filled with the card the table declares.
        reveal = move.reveal
        if row >= 0:
            placed: Card | None = None
            if deck_sizes[row]:
                # An unseen card of the gap's level.
                placed = self._tables.cards.get(reveal) if reveal is not None else None
                if placed is None or placed.level != row + 1 or seen >> placed.index & 1:
                    if explain:
                        self._refuse_reveal(reveal, row)
                    return None
                seen |= 1 << placed.index
                deck_sizes = _dealt(deck_sizes, row)
            elif reveal is not None:
                if explain:
                    raise _illegal(
                        ErrorCode.REVEAL_INVALID,
                        "the level {level} deck is empty: the slot stays empty",
                        level=self.rules.levels[row],
                    )
                return None
            faces = market[row]
            faces = (*faces[:index], placed, *faces[index + 1 :])
            if row == 0 and len(market) == 3:  # most often, and written out for it
                market = (faces, market[1], market[2])
            else:
                market = (*market[:row], faces, *market[row + 1 :])
        elif reveal is not None:
            if explain:
                raise _illegal(
                    ErrorCode.REVEAL_INVALID,
                    "no face-up card left the table, so nothing is revealed ({id})",
                    id=reveal,
                )
            return None

        # T1: the tokens above the limit go back to the bank.
        excess = sum(tokens) - self._limit
        returned = move.returned
        if explain:
            self._check_returns(s, tokens, excess, returned)
        if excess > 0:
            if returned is None or not gives_back(tokens, returned, excess):
                return None
            tokens = minus(tokens, returned)
            bank = plus(bank, returned)
        elif returned is not None and any(returned):
            return None

        # N1: a noble whose requirement the bonuses meet visits; the player names one
        # when several do.
        floor = self._tables.noble_floor
        met = nobles_met(nobles, bonuses) if nobles and sum(bonuses) >= floor else []
        if met or move.noble is not None:
            visit = self._visitor(met, move.noble, explain)
            if visit is None:
                if move.noble is not None or len(met) > 1:
                    return None
            else:
                nobles = tuple(n for n in nobles if n is not visit)
                held = (*held, visit)
                points += visit.points

        # The turn passes; after the last seat's, the round ends, the game too when
        # someone reached the winning points (E1).
        mine = NEW(SeatState, (tokens, bonuses, points, cards, reserved, held))
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
        if move.__class__ is not Pass:
            passes = 0
        return NEW(
            Position,
            (bank, seats, market, deck_sizes, nobles, following, passes, round_, over, seen),
        )

    # ------------------------------------------------- the explaining verdict's words

    def _not_your_turn(self, s: Position, move: Move) -> IllegalMove:
        if s.over:
            return _illegal(ErrorCode.GAME_OVER, "the game is over; no more moves can be played")
        name = self.names[s.to_act]
        if 0 <= move.player < len(self.names):
            return _illegal(
                ErrorCode.WRONG_PLAYER,
                "it is {name}'s turn, not {given}'s",
                name=name,
                given=self.names[move.player],
            )
        return _illegal(
            ErrorCode.WRONG_PLAYER,
            "it is {name}'s turn; this table has no player {given}",
            name=name,
            given=move.player + 1,  # the record counts seats from 0, people from 1
        )

    def _check_take(self, bank: Tokens, gems: Tokens) -> None:
        """Why a take is refused (A1-A3); the fast verdict looks it up in the move tables."""
        if any(n < 0 for n in gems):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        if gems[5]:
            raise _illegal(
                ErrorCode.TAKE_INVALID, "gold cannot be taken: it comes only with a reserve"
            )
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

    def _check_payment(self, tokens: Tokens, bonuses: Bonuses, card: Card, paid: Tokens) -> None:
        """Why a payment named with a buy is refused (A5)."""
        if any(n < 0 for n in paid):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        lacking = [c for c in Colour if paid[c] > tokens[c]]
        if lacking:
            raise _illegal(
                ErrorCode.PAYMENT_INVALID,
                "the payment uses {colour} tokens the player does not hold",
                colour=lacking,
            )
        cost = after_bonuses(card.cost, bonuses)
        if not pays_exactly(tokens, cost, paid):
            raise _illegal(
                ErrorCode.PAYMENT_INVALID,
                "{id} costs {cost} after bonuses; the payment {payment} does not cover it "
                "exactly (gold stands in for any colour)",
                id=card.id,
                cost=cost,
                payment=paid,
            )

    def _check_returns(
        self, s: Position, tokens: Tokens, excess: int, returned: Tokens | None
    ) -> None:
        """Why the tokens returned, or their lack, are refused (T1)."""
        limit = self._limit
        given = 0
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
            given = sum(returned)
            if given > max(0, excess):
                raise _illegal(
                    ErrorCode.RETURN_INVALID,
                    "returns {tokens}; only {excess} are needed to get down to {limit}",
                    tokens=Counted("{n} token", "{n} tokens", given),
                    excess=max(0, excess),
                    limit=limit,
                )
        if excess > given:
            raise _illegal(
                ErrorCode.TOKEN_LIMIT,
                "{name} would end the turn with {n} tokens: return {excess} to get down to {limit}",
                name=self.names[s.to_act],
                n=excess + limit - given,
                excess=excess - given,
                limit=limit,
            )

    def _refuse_reveal(self, reveal: str | None, row: int) -> None:
        """Why the card declared to fill a gap of market ``row`` is refused (A6)."""
        level = self.rules.levels[row]
        if reveal is None:
            raise _illegal(
                ErrorCode.REVEAL_MISSING,
                "declare the level {level} card turned face up to fill the gap",
                level=level,
            )
        card = self._tables.cards.get(reveal)
        if card is None:
            self._unknown_card(reveal, True)
        raise _illegal(
            ErrorCode.REVEAL_INVALID,
            "{id} cannot be revealed: the gap needs an unseen level {level} card",
            id=reveal,
            level=level,
        )

    def _drawn(
        self, level: int, known: str | None, deck_sizes: tuple[int, ...], seen: int, explain: bool
    ) -> Card | Hidden | None:
        """The card a blind reserve takes from the deck of ``level`` (A4): hidden, or the
        one named when the writer knows it."""
        if level not in self.rules.levels:
            if explain:
                raise _illegal(
                    ErrorCode.MALFORMED_MOVE, "there is no deck of level {level}", level=level
                )
            return None
        if deck_sizes[level - 1] == 0:
            if explain:
                raise _illegal(ErrorCode.DECK_EMPTY, "the level {level} deck is empty", level=level)
            return None
        if known is None:
            return Hidden(level)
        card = self._tables.cards.get(known)
        if card is None:
            self._unknown_card(known, explain)
            return None
        if card.level != level or seen >> card.index & 1:
            if explain:
                raise _illegal(
                    ErrorCode.CARD_UNAVAILABLE,
                    "{id} cannot be the top card of the level {level} deck: it is of "
                    "another level or already seen",
                    id=card.id,
                    level=level,
                )
            return None
        return card

    def _visitor(self, met: list[Noble], chosen: str | None, explain: bool) -> Noble | None:
        """The noble that visits (N1), of those ``met``: the one ``chosen``, else the only
        one. ``None`` when none does, or (refused) when ``chosen`` is not among them or
        several are and none is chosen."""
        if chosen is None:
            if len(met) == 1:
                return met[0]
            if met and explain:
                raise _illegal(
                    ErrorCode.NOBLE_CHOICE_REQUIRED,
                    "several nobles can visit ({ids}): choose one",
                    ids=[n.id for n in met],
                )
            return None
        for noble in met:
            if noble.id == chosen:
                return noble
        if explain:
            if chosen not in self.rules.nobles:
                raise _illegal(
                    ErrorCode.MALFORMED_MOVE, "{id!r} is not a noble (N1 to N10)", id=chosen
                )
            raise _illegal(
                ErrorCode.NOBLE_INVALID,
                "noble {id} cannot visit: it is not on the table or its bonuses are not met",
                id=chosen,
            )
        return None

    def _has_action(self, s: Position) -> bool:
        """A7: is any action but a pass legal for the player to act?"""
        if any(s.bank[c] > 0 for c in _GEM_RANGE):
            return True
        p = s.seats[s.to_act]
        if len(p.reserved) < self._reserve_limit and (
            any(s.deck_sizes) or any(c for row in s.market for c in row)
        ):
            return True
        market = [c for row in s.market for c in row if c is not None]
        known = [c for c in p.reserved if isinstance(c, Card)]
        return any(payment(p.tokens, p.bonuses, c.cost) is not None for c in market + known)

    def _unknown_card(self, card_id: str, explain: bool) -> None:
        """A move names a card that does not exist: refused."""
        if explain:
            template, params = card_id_problem(self.rules.cards, card_id)
            raise _illegal(ErrorCode.MALFORMED_MOVE, template, **params)


def _in_reserve(reserved: tuple[Card | Hidden, ...], card: Card, seen: int) -> int:
    """Where ``card`` is in a reserve, or -1: itself, or else the first blind-reserved card
    of its level when it has never been seen (that card may be it)."""
    if card in reserved:
        return reserved.index(card)
    for i, held in enumerate(reserved):
        if isinstance(held, Hidden) and held.level == card.level:
            return -1 if seen >> card.index & 1 else i
    return -1


def _dealt(deck_sizes: tuple[int, ...], row: int) -> tuple[int, ...]:
    """The deck sizes once a card of the deck of market ``row`` is dealt."""
    sizes = list(deck_sizes)
    sizes[row] -= 1
    return tuple(sizes)


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
    return Setup.of(players, nobles, market, rules)
