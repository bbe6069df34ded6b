"""The rules engine: one :class:`Game` is a setup plus the moves applied to it.

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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from .cards import CARDS, CARDS_BY_LEVEL, LEVELS, NOBLES, Card, Noble
from .errors import ErrorCode, IllegalMove
from .i18n import Counted
from .moves import Buy, Move, Pass, Reserve, Take, parse_move
from .setup import (
    MARKET_SLOTS,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    WINNING_POINTS,
    Setup,
    starting_bank,
)
from .tokens import GEMS, Colour, Tokens

GOLD = Colour.GOLD
_GEM_RANGE = range(5)


@dataclass(frozen=True, slots=True)
class Hidden:
    """A blind-reserved card whose identity the companion has not seen yet (H2)."""

    level: int

    @property
    def id(self) -> str:
        return f"L{self.level}?"

    def __str__(self) -> str:
        return self.id


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


@dataclass(frozen=True, slots=True)
class Position:
    """Everything the rules depend on, hashable: two equal positions play the same."""

    to_act: int
    over: bool
    bank: Tokens
    market: tuple[tuple[str | None, ...], ...]
    deck_sizes: tuple[int, int, int]
    nobles: tuple[str, ...]
    seats: tuple[Seat, ...]
    seen: frozenset[str]


class _Player:
    __slots__ = ("bonuses", "cards", "nobles", "points", "reserved", "tokens")

    def __init__(self) -> None:
        self.tokens = [0] * 6
        self.bonuses = [0] * 5
        self.points = 0
        self.cards: list[Card] = []
        self.reserved: list[Card | Hidden] = []
        self.nobles: list[Noble] = []


def _illegal(code: ErrorCode, template: str, **params: object) -> IllegalMove:
    return IllegalMove(code, template, **params)


class Game:
    """A game of Splendor: ask it what is legal, push moves, undo them.

    The state is a pure function of :attr:`setup` and :attr:`moves`; :meth:`push` either
    applies a legal move or raises :class:`IllegalMove` and changes nothing.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.names = setup.players
        n = len(setup.players)
        self._bank = list(starting_bank(n))
        self._players = [_Player() for _ in range(n)]
        self._market: list[list[Card | None]] = [[CARDS[c] for c in row] for row in setup.market]
        self._decks = [len(CARDS_BY_LEVEL[lv]) - MARKET_SLOTS for lv in LEVELS]
        self._nobles = [NOBLES[x] for x in setup.nobles]
        self._seen: set[str] = {c for row in setup.market for c in row}
        self._seen_log: list[str] = []
        self._to_act = 0
        self._over = False
        self._moves: list[Move] = []
        self._undo: list[tuple[object, ...]] = []

    # ------------------------------------------------------------------ queries

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def to_act(self) -> int:
        """The seat whose turn it is (0-based, in play order)."""
        return self._to_act

    @property
    def over(self) -> bool:
        """E1: someone reached 15 and the round is complete."""
        return self._over

    @property
    def final_round(self) -> bool:
        """Someone has 15 points: the round is being completed (E1)."""
        return not self._over and any(p.points >= WINNING_POINTS for p in self._players)

    @property
    def stalled(self) -> bool:
        """A whole round of passes: nobody can act, so the game cannot go on (A7)."""
        n = len(self._players)
        return len(self._moves) >= n and all(isinstance(m, Pass) for m in self._moves[-n:])

    @property
    def round(self) -> int:
        """The 1-based round being played (the last one, once the game is over)."""
        n = len(self._players)
        return (len(self._moves) - (1 if self._over else 0)) // n + 1

    @property
    def bank(self) -> Tokens:
        return Tokens._make(self._bank)

    @property
    def market(self) -> tuple[tuple[Card | None, ...], ...]:
        """Face-up cards per level (index 0 is level 1); ``None`` is an empty slot."""
        return tuple(tuple(row) for row in self._market)

    def deck_size(self, level: int) -> int:
        """H3: how many cards are still in a level's deck."""
        return self._decks[level - 1]

    @property
    def nobles(self) -> tuple[Noble, ...]:
        """The nobles still on the table."""
        return tuple(self._nobles)

    def unseen(self, level: int) -> list[Card]:
        """Cards of a level not seen anywhere yet: what a reveal or a blind reserve may be."""
        return [c for c in CARDS_BY_LEVEL[level] if c.id not in self._seen]

    def seat(self, seat: int) -> Seat:
        p = self._players[seat]
        b = p.bonuses
        return Seat(
            seat=seat,
            name=self.names[seat],
            tokens=Tokens._make(p.tokens),
            bonuses=(b[0], b[1], b[2], b[3], b[4]),
            points=p.points,
            cards=tuple(p.cards),
            reserved=tuple(p.reserved),
            nobles=tuple(p.nobles),
        )

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.seat(i) for i in range(len(self._players)))

    def cost(self, seat: int, card: Card) -> Tokens:
        """What ``card`` costs this player now: its cost minus their bonuses, never below 0."""
        b = self._players[seat].bonuses
        return Tokens._make([max(0, card.cost[c] - b[c]) for c in _GEM_RANGE] + [0])

    def default_payment(self, seat: int, card: Card) -> Tokens | None:
        """Coloured tokens first, gold for the rest; ``None`` when the player cannot afford it."""
        p = self._players[seat]
        t, b, cost = p.tokens, p.bonuses, card.cost
        pay = [0] * 6
        short = 0
        for c in _GEM_RANGE:
            need = cost[c] - b[c]
            if need > 0:
                have = t[c]
                if have >= need:
                    pay[c] = need
                else:
                    pay[c] = have
                    short += need - have
        if short > t[5]:
            return None
        pay[5] = short
        return Tokens._make(pay)

    def can_afford(self, seat: int, card: Card) -> bool:
        return self.default_payment(seat, card) is not None

    def qualifying_nobles(self, seat: int) -> list[Noble]:
        """Nobles on the table whose requirement this player's bonuses meet (N1)."""
        return self._met(self._players[seat].bonuses)

    def _met(self, bonuses: list[int]) -> list[Noble]:
        # Unrolled: this runs for every candidate of every legal-move list.
        w, u, g, r, k = bonuses
        return [
            n
            for n in self._nobles
            if w >= n.requires[0]
            and u >= n.requires[1]
            and g >= n.requires[2]
            and r >= n.requires[3]
            and k >= n.requires[4]
        ]

    def standings(self) -> list[Standing]:
        """Players ranked by E2: most points, then fewest purchased cards; ties share a rank."""
        keys = [(p.points, len(p.cards)) for p in self._players]
        lines = []
        for i, p in enumerate(self._players):
            better = sum(1 for pts, cards in keys if (-pts, cards) < (-p.points, len(p.cards)))
            lines.append(
                Standing(
                    seat=i,
                    player=self.names[i],
                    points=p.points,
                    cards=len(p.cards),
                    nobles=tuple(n.id for n in p.nobles),
                    rank=better + 1,
                )
            )
        lines.sort(key=lambda s: (s.rank, s.seat))
        return lines

    def winners(self) -> list[str]:
        """Names of the winners once the game is over (several: a shared victory)."""
        if not self._over:
            return []
        return [s.player for s in self.standings() if s.rank == 1]

    def position(self) -> Position:
        return Position(
            to_act=self._to_act,
            over=self._over,
            bank=self.bank,
            market=tuple(tuple(c.id if c else None for c in row) for row in self._market),
            deck_sizes=(self._decks[0], self._decks[1], self._decks[2]),
            nobles=tuple(n.id for n in self._nobles),
            seats=self.seats,
            seen=frozenset(self._seen),
        )

    # ------------------------------------------------------- what a move needs

    def parse(self, text: str) -> Move:
        """A move in text form (``"take WUG"``) for the player to act."""
        return parse_move(text, self._to_act)

    def reveal_due(self, move: Move) -> int | None:
        """The level whose next card the table must declare after ``move`` (A6), if any."""
        if isinstance(move, Buy) or (isinstance(move, Reserve) and move.deck is None):
            card_id = move.card
        else:
            return None
        for level, row in zip(LEVELS, self._market, strict=True):
            if any(c is not None and c.id == card_id for c in row):
                return level if self._decks[level - 1] > 0 else None
        return None

    def due(self, action: Move) -> Due:
        """What the table must still declare to finish a turn that starts with ``action``.

        Its own ``reveal``, ``returned`` and ``noble`` are ignored. Raises
        :class:`IllegalMove` when the action itself is illegal. Changes nothing.
        """
        snapshot = self._snapshot()
        try:
            seat = self._to_act
            slot = self._act(action)
            level = None
            if slot is not None and self._decks[slot[0]] > 0:
                level = slot[0] + 1
            p = self._players[seat]
            hand = Tokens._make(p.tokens)
            return Due(
                reveal=level,
                returns=max(0, hand.total - TOKEN_LIMIT),
                nobles=tuple(self.qualifying_nobles(seat)),
                hand=hand,
            )
        finally:
            self._restore(snapshot)

    # ------------------------------------------------------------ the verdict

    def explain(self, move: Move) -> IllegalMove | None:
        """Why ``move`` is illegal now, or ``None`` when it is legal. Changes nothing."""
        snapshot = self._snapshot()
        try:
            self._play(move)
        except IllegalMove as err:
            return err
        finally:
            self._restore(snapshot)
        return None

    def is_legal(self, move: Move) -> bool:
        return self.explain(move) is None

    def push(self, move: Move | str) -> Move:
        """Apply a legal move (or its text form) and return it; raise :class:`IllegalMove`."""
        if isinstance(move, str):
            move = self.parse(move)
        snapshot = self._snapshot()
        try:
            self._play(move)
        except IllegalMove:
            self._restore(snapshot)
            raise
        self._undo.append(snapshot)
        self._moves.append(move)
        return move

    apply = push

    def undo(self) -> Move:
        """Take back the last move, restoring the exact previous state. ``IndexError`` if none."""
        if not self._moves:
            raise IndexError("no move to undo")
        self._restore(self._undo.pop())
        return self._moves.pop()

    pop = undo

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move of the player to act.

        Takes, face-up and blind reserves, buys (face-up and known reserved cards) with the
        default payment; each with every way to return tokens above 10 and every noble
        choice when several qualify. A move that empties a market slot leaves ``reveal``
        unset: the table declares it (:meth:`reveal_due`, :meth:`unseen`).

        The order is fixed: takes, then reserves, then buys (a pass only when alone).
        """
        if self._over:
            return iter(())
        return iter(self._legal_list())

    def _legal_list(self) -> list[Move]:
        seat = self._to_act
        p = self._players[seat]
        t = p.tokens
        held = sum(t)
        nobles_now = self._qualifying_ids(p.bonuses)
        bank = self._bank

        # Takes depend only on which colours the bank can give, on the hand when it
        # nears 10 and on the nobles due: the same few lists come back again and again.
        signature = tuple(0 if b == 0 else (2 if b >= 4 else 1) for b in bank[:5])
        # Near 10, the returns matter, and they depend on at most 3 tokens of a colour.
        near = (held, *(min(x, 3) for x in t)) if held + 3 > TOKEN_LIMIT else None
        key = (seat, signature, near, tuple(nobles_now))
        takes = _TAKES.get(key)
        if takes is None:
            takes = _TAKES[key] = self._take_moves(seat, t, held, nobles_now)
            if len(_TAKES) > 100_000:
                _TAKES.clear()
        moves = list(takes)

        if len(p.reserved) < RESERVE_LIMIT:
            gold = 1 if bank[5] > 0 else 0
            after = list(t)
            after[5] += gold
            returns = _returns(after, held + gold - TOKEN_LIMIT)
            for row in self._market:
                for card in row:
                    if card is not None:
                        for returned in returns:
                            for noble in nobles_now:
                                moves.append(_cached(Reserve, seat, card.id, None, returned, noble))
            for level in LEVELS:
                if self._decks[level - 1] > 0:
                    for returned in returns:
                        for noble in nobles_now:
                            moves.append(_cached(Reserve, seat, None, level, returned, noble))

        candidates = [c for row in self._market for c in row if c is not None]
        candidates += [c for c in p.reserved if isinstance(c, Card)]
        b = p.bonuses
        gold_held = t[5]
        # What each colour is paid with, bonus and token together: the card loop below runs
        # for every card on every call, so it is written out rather than looped.
        e0, e1, e2, e3, e4 = (b[0] + t[0], b[1] + t[1], b[2] + t[2], b[3] + t[3], b[4] + t[4])
        after_buy: dict[int, list[str | None]] = {}
        for card in candidates:
            c0, c1, c2, c3, c4 = card.cost
            short = (
                (c0 - e0 if c0 > e0 else 0)
                + (c1 - e1 if c1 > e1 else 0)
                + (c2 - e2 if c2 > e2 else 0)
                + (c3 - e3 if c3 > e3 else 0)
                + (c4 - e4 if c4 > e4 else 0)
            )
            if short > gold_held:
                continue
            colour = card.bonus
            choices = after_buy.get(colour)
            if choices is None:
                # A bonus of this colour changes the nobles due only for a noble one short.
                if any(n.requires[colour] == b[colour] + 1 for n in self._nobles):
                    bonuses = list(b)
                    bonuses[colour] += 1
                    choices = self._qualifying_ids(bonuses)
                else:
                    choices = nobles_now
                after_buy[colour] = choices
            for noble in choices:
                moves.append(_cached(Buy, seat, card.id, None, None, noble))

        if not moves:
            moves = [_cached(Pass, seat, None, None, None, noble) for noble in nobles_now]
        return moves

    def _take_moves(
        self, seat: int, t: list[int], held: int, nobles_now: list[str | None]
    ) -> tuple[Move, ...]:
        bank = self._bank
        available = [c for c in _GEM_RANGE if bank[c] > 0]
        if len(available) >= 3:
            picks: list[tuple[int, ...]] = list(combinations(available, 3))
        else:
            picks = [s for k in (1, 2) for s in combinations(available, k)]
        picks += [(c, c) for c in _GEM_RANGE if bank[c] >= 4]
        moves: list[Move] = []
        for pick in picks:
            gems = [0] * 6
            for c in pick:
                gems[c] += 1
            taken = Tokens._make(gems)
            after = [a + g for a, g in zip(t, gems, strict=True)]
            for returned in _returns(after, held + len(pick) - TOKEN_LIMIT):
                for noble in nobles_now:
                    key = (Take, seat, taken, returned, noble)
                    move = _MOVES.get(key)
                    if move is None:
                        move = _MOVES[key] = Take(
                            taken, player=seat, returned=returned, noble=noble
                        )
                    moves.append(move)
        return tuple(moves)

    def _qualifying_ids(self, bonuses: list[int]) -> list[str | None]:
        """The ``noble`` values a legal move may carry: ``None`` unless a choice is due."""
        met = self._met(bonuses)
        return [n.id for n in met] if len(met) > 1 else [None]

    def _has_action(self) -> bool:
        """A7: is any action but a pass legal for the player to act?"""
        if any(self._bank[c] > 0 for c in _GEM_RANGE):
            return True
        seat = self._to_act
        p = self._players[seat]
        if len(p.reserved) < RESERVE_LIMIT and (
            any(d > 0 for d in self._decks) or any(c for row in self._market for c in row)
        ):
            return True
        market = [c for row in self._market for c in row if c is not None]
        known = [c for c in p.reserved if isinstance(c, Card)]
        return any(self.default_payment(seat, c) is not None for c in market + known)

    # ------------------------------------------------------------ applying

    def _snapshot(self) -> tuple[object, ...]:
        seat = self._to_act
        p = self._players[seat]
        return (
            seat,
            self._over,
            list(self._bank),
            list(p.tokens),
            list(p.bonuses),
            p.points,
            len(p.cards),
            list(p.reserved),
            len(p.nobles),
            [list(row) for row in self._market],
            list(self._decks),
            list(self._nobles),
            len(self._seen_log),
        )

    def _restore(self, snapshot: tuple[object, ...]) -> None:
        (
            seat,
            over,
            bank,
            tokens,
            bonuses,
            points,
            n_cards,
            reserved,
            n_nobles,
            market,
            decks,
            nobles,
            n_seen,
        ) = snapshot
        assert isinstance(seat, int) and isinstance(n_cards, int) and isinstance(n_seen, int)
        assert isinstance(n_nobles, int) and isinstance(points, int) and isinstance(over, bool)
        p = self._players[seat]
        self._to_act = seat
        self._over = over
        self._bank = bank  # type: ignore[assignment]
        p.tokens = tokens  # type: ignore[assignment]
        p.bonuses = bonuses  # type: ignore[assignment]
        p.points = points
        del p.cards[n_cards:]
        p.reserved = reserved  # type: ignore[assignment]
        del p.nobles[n_nobles:]
        self._market = market  # type: ignore[assignment]
        self._decks = decks  # type: ignore[assignment]
        self._nobles = nobles  # type: ignore[assignment]
        while len(self._seen_log) > n_seen:
            self._seen.discard(self._seen_log.pop())

    def _see(self, card: Card) -> None:
        self._seen.add(card.id)
        self._seen_log.append(card.id)

    def _play(self, move: Move) -> None:
        """Apply ``move`` step by step, raising at the first rule it breaks.

        The caller restores the snapshot on error, so a half-applied move never shows.
        """
        slot = self._act(move)
        self._refill(slot, move.reveal)
        self._end_turn(self._to_act, self._players[self._to_act], move)

    def _act(self, move: Move) -> tuple[int, int] | None:
        """The action part of a move; returns the market slot it emptied, if any."""
        if self._over:
            raise _illegal(ErrorCode.GAME_OVER, "the game is over; no more moves can be played")
        seat = self._to_act
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
        p = self._players[seat]
        slot: tuple[int, int] | None = None
        if isinstance(move, Take):
            self._take(p, move.gems)
        elif isinstance(move, Reserve):
            slot = self._reserve(p, move)
        elif isinstance(move, Buy):
            slot = self._buy(p, move)
        elif isinstance(move, Pass):
            if self._has_action():
                raise _illegal(
                    ErrorCode.PASS_INVALID,
                    "{name} can still take, reserve or buy: a pass is allowed only when "
                    "nothing else is",
                    name=self.names[seat],
                )
        else:
            raise _illegal(ErrorCode.MALFORMED_MOVE, "unknown action {move!r}", move=move)
        return slot

    def _take(self, p: _Player, gems: Tokens) -> None:
        if any(n < 0 for n in gems):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        if gems[5]:
            raise _illegal(
                ErrorCode.TAKE_INVALID, "gold cannot be taken: it comes only with a reserve"
            )
        bank = self._bank
        chosen = [c for c in GEMS if gems[c]]
        counts = [gems[c] for c in chosen]
        if counts == [2]:
            colour = chosen[0]
            if bank[colour] < 4:
                raise _illegal(
                    ErrorCode.TAKE_TWO_NEEDS_FOUR,
                    "2 {colour} tokens can be taken only when the bank holds at least 4; "
                    "it holds {n}",
                    colour=colour,
                    n=bank[colour],
                )
        elif counts and all(n == 1 for n in counts) and len(counts) <= 3:
            missing = [c for c in chosen if bank[c] == 0]
            if missing:
                raise _illegal(
                    ErrorCode.BANK_SHORT, "the bank has no {colour} token left", colour=missing
                )
            available = sum(1 for c in _GEM_RANGE if bank[c] > 0)
            if len(counts) < 3 and available >= 3:
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
        for c in chosen:
            bank[c] -= gems[c]
            p.tokens[c] += gems[c]

    def _reserve(self, p: _Player, move: Reserve) -> tuple[int, int] | None:
        if len(p.reserved) >= RESERVE_LIMIT:
            raise _illegal(
                ErrorCode.RESERVE_LIMIT,
                "{name} already holds 3 reserved cards: buy one before reserving again",
                name=self.names[self._to_act],
            )
        slot = None
        if move.deck is not None:
            level = move.deck
            if level not in LEVELS:
                raise _illegal(
                    ErrorCode.MALFORMED_MOVE, "there is no deck of level {level}", level=level
                )
            if self._decks[level - 1] == 0:
                raise _illegal(ErrorCode.DECK_EMPTY, "the level {level} deck is empty", level=level)
            self._decks[level - 1] -= 1
            if move.card is None:
                p.reserved.append(Hidden(level))
            else:
                card = self._card(move.card)
                if card.level != level or card.id in self._seen:
                    raise _illegal(
                        ErrorCode.CARD_UNAVAILABLE,
                        "{id} cannot be the top card of the level {level} deck: it is of "
                        "another level or already seen",
                        id=card.id,
                        level=level,
                    )
                self._see(card)
                p.reserved.append(card)
        else:
            if move.card is None:
                raise _illegal(ErrorCode.MALFORMED_MOVE, "a reserve names a card or a deck")
            card = self._card(move.card)
            slot = self._find_face_up(card)
            if slot is None:
                raise _illegal(
                    ErrorCode.CARD_UNAVAILABLE, "{id} is not face up on the table", id=card.id
                )
            self._market[slot[0]][slot[1]] = None
            p.reserved.append(card)
        if self._bank[5] > 0:
            self._bank[5] -= 1
            p.tokens[5] += 1
        return slot

    def _buy(self, p: _Player, move: Buy) -> tuple[int, int] | None:
        card = self._card(move.card)
        slot = self._find_face_up(card)
        source: int | None = None
        if slot is None:
            for i, r in enumerate(p.reserved):
                if isinstance(r, Card) and r is card:
                    source = i
                    break
            else:
                for i, r in enumerate(p.reserved):
                    if isinstance(r, Hidden) and r.level == card.level:
                        if card.id not in self._seen:
                            source = i
                        break
            if source is None:
                raise _illegal(
                    ErrorCode.CARD_UNAVAILABLE,
                    "{id} is neither face up nor in {name}'s reserve",
                    id=card.id,
                    name=self.names[self._to_act],
                )
        seat = self._to_act
        default = self.default_payment(seat, card)
        if default is None:
            cost = self.cost(seat, card)
            raise _illegal(
                ErrorCode.CANNOT_AFFORD,
                "{id} costs {name} {cost} after bonuses; they hold {held}",
                id=card.id,
                name=self.names[seat],
                cost=cost,
                held=Tokens._make(p.tokens),
            )
        pay = default if move.payment is None else self._check_payment(p, card, move.payment)
        for c in range(6):
            p.tokens[c] -= pay[c]
            self._bank[c] += pay[c]
        p.cards.append(card)
        p.bonuses[card.bonus] += 1
        p.points += card.points
        if slot is not None:
            self._market[slot[0]][slot[1]] = None
        else:
            assert source is not None
            if isinstance(p.reserved[source], Hidden):
                self._see(card)
            del p.reserved[source]
        return slot

    def _check_payment(self, p: _Player, card: Card, payment: Tokens) -> Tokens:
        if any(n < 0 for n in payment):
            raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
        lacking = [c for c in Colour if payment[c] > p.tokens[c]]
        if lacking:
            raise _illegal(
                ErrorCode.PAYMENT_INVALID,
                "the payment uses {colour} tokens the player does not hold",
                colour=lacking,
            )
        cost = self.cost(self._to_act, card)
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

    def _refill(self, slot: tuple[int, int] | None, reveal: str | None) -> None:
        if slot is None:
            if reveal is not None:
                raise _illegal(
                    ErrorCode.REVEAL_INVALID,
                    "no face-up card left the table, so nothing is revealed ({id})",
                    id=reveal,
                )
            return
        row, index = slot
        level = row + 1
        if self._decks[row] == 0:
            if reveal is not None:
                raise _illegal(
                    ErrorCode.REVEAL_INVALID,
                    "the level {level} deck is empty: the slot stays empty",
                    level=level,
                )
            return
        if reveal is None:
            raise _illegal(
                ErrorCode.REVEAL_MISSING,
                "declare the level {level} card turned face up to fill the gap",
                level=level,
            )
        card = self._card(reveal)
        if card.level != level or card.id in self._seen:
            raise _illegal(
                ErrorCode.REVEAL_INVALID,
                "{id} cannot be revealed: the gap needs an unseen level {level} card",
                id=card.id,
                level=level,
            )
        self._market[row][index] = card
        self._decks[row] -= 1
        self._see(card)

    def _end_turn(self, seat: int, p: _Player, move: Move) -> None:
        returned = move.returned
        excess = sum(p.tokens) - TOKEN_LIMIT
        if returned is not None and any(returned):
            if any(n < 0 for n in returned):
                raise _illegal(ErrorCode.MALFORMED_MOVE, "a token count cannot be negative")
            lacking = [c for c in Colour if returned[c] > p.tokens[c]]
            if lacking:
                raise _illegal(
                    ErrorCode.RETURN_INVALID,
                    "returns {colour} tokens the player does not hold",
                    colour=lacking,
                )
            if returned.total > max(0, excess):
                raise _illegal(
                    ErrorCode.RETURN_INVALID,
                    "returns {tokens}; only {excess} are needed to get down to 10",
                    tokens=Counted("{n} token", "{n} tokens", returned.total),
                    excess=max(0, excess),
                )
            for c in range(6):
                p.tokens[c] -= returned[c]
                self._bank[c] += returned[c]
            excess -= returned.total
        if excess > 0:
            raise _illegal(
                ErrorCode.TOKEN_LIMIT,
                "{name} would end the turn with {n} tokens: return {excess} to get down to 10",
                name=self.names[seat],
                n=excess + TOKEN_LIMIT,
                excess=excess,
            )

        qualifying = self.qualifying_nobles(seat)
        if move.noble is not None:
            noble = NOBLES.get(move.noble)
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
        else:
            noble = qualifying[0] if qualifying else None
        if noble is not None:
            self._nobles.remove(noble)
            p.nobles.append(noble)
            p.points += noble.points

        n = len(self._players)
        if seat == n - 1 and any(q.points >= WINNING_POINTS for q in self._players):
            self._over = True
        self._to_act = (seat + 1) % n

    def _card(self, card_id: str) -> Card:
        card = CARDS.get(card_id)
        if card is None:
            raise _illegal(
                ErrorCode.MALFORMED_MOVE, "{id!r} is not a card id (like 2R3)", id=card_id
            )
        return card

    def _find_face_up(self, card: Card) -> tuple[int, int] | None:
        row = self._market[card.level - 1]
        for i, c in enumerate(row):
            if c is card:
                return (card.level - 1, i)
        return None


_TAKES: dict[tuple[object, ...], tuple[Move, ...]] = {}
_MOVES: dict[tuple[object, ...], Move] = {}


def _cached(
    kind: type[Reserve] | type[Buy] | type[Pass],
    seat: int,
    card: str | None,
    deck: int | None,
    returned: Tokens | None,
    noble: str | None,
) -> Move:
    """One shared value per distinct generated move: moves are immutable, so sharing is
    safe, and it spares building thousands of equal objects in a game."""
    key = (kind, seat, card, deck, returned, noble)
    move = _MOVES.get(key)
    if move is None:
        if kind is Reserve:
            move = Reserve(card=card, deck=deck, player=seat, returned=returned, noble=noble)
        elif kind is Buy:
            assert card is not None
            move = Buy(card, player=seat, noble=noble)
        else:
            move = Pass(player=seat, noble=noble)
        _MOVES[key] = move
    return move


def _return_choices(excess: int) -> tuple[tuple[Tokens, tuple[tuple[int, int], ...]], ...]:
    vectors = []
    for combo in combinations_with_replacement(range(6), excess):
        counts = [0] * 6
        for c in combo:
            counts[c] += 1
        pairs = tuple((c, n) for c, n in enumerate(counts) if n)
        vectors.append((Tokens._make(counts), pairs))
    return tuple(vectors)


# A turn ends at most 3 tokens above 10 (a take of 3 from 10), so these are all the shapes.
_RETURN_CHOICES = {k: _return_choices(k) for k in (1, 2, 3)}


def _returns(after: list[int], excess: int) -> list[Tokens | None]:
    """Every way to give back ``excess`` tokens from ``after`` (``[None]`` when none is due)."""
    if excess <= 0:
        return [None]
    return [
        tokens for tokens, pairs in _RETURN_CHOICES[excess] if all(after[c] >= n for c, n in pairs)
    ]
