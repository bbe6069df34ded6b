"""What the table is declaring right now: the setup reveals, or one turn step by step.

The app's taps and the RFID reader's scans both land here, so the two behave the same and
neither re-implements a rule: every check is the engine's (``due``, ``explain``,
``legal_moves``).

>>> from companion.engine.setup import Setup
>>> draft = NewGame(["Ada", "Ben"])
>>> for noble in ["N1", "N2", "N3"]:
...     _ = draft.declare(noble)
>>> for card in "1W1 1W2 1W3 1W4 2W1 2W2 2W3 2W4 3W1 3W2 3W3 3W4".split():
...     _ = draft.declare(card)
>>> draft.complete
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..engine.cards import Card
from ..engine.game import Due, Game, Position
from ..engine.moves import Buy, Move, Pass, Reserve, Take, with_parts
from ..engine.rules import BASE, Rules
from ..engine.setup import Setup
from ..engine.tokens import GEMS, NO_TOKENS, Colour, Tokens
from ..errors import ErrorCode, IllegalMove, Refused
from ..i18n import Counted
from ..text import normal_name
from .session import Session


class NewGame:
    """A game being set up under ``rules``: player names, then the nobles and the face-up
    cards."""

    def __init__(self, players: Sequence[str], rules: Rules = BASE) -> None:
        names = [normal_name(p) for p in players]
        self.rules = rules
        problem = rules.players_problem(len(names))
        if problem is not None:
            raise Refused(ErrorCode.PLAYERS, problem[0], **problem[1])
        if any(not n for n in names):
            raise Refused(ErrorCode.PLAYERS, "every player needs a name")
        if len(set(names)) != len(names):
            raise Refused(
                ErrorCode.PLAYERS, "two players have the same name; make the names distinct"
            )
        self.players = tuple(names)
        self.nobles: list[str] = []
        self.market: dict[int, list[str]] = {level: [] for level in rules.levels}

    @property
    def nobles_needed(self) -> int:
        return self.rules.nobles_revealed(len(self.players)) - len(self.nobles)

    def cards_needed(self, level: int) -> int:
        return self.rules.market_slots - len(self.market[level])

    @property
    def complete(self) -> bool:
        levels = self.rules.levels
        return self.nobles_needed == 0 and all(self.cards_needed(lv) == 0 for lv in levels)

    def seen(self) -> set[str]:
        return {*self.nobles, *(c for row in self.market.values() for c in row)}

    def declare(self, item: str) -> str:
        """A noble or a card laid out on the table (tapped or scanned); returns its id."""
        if item in self.seen():
            raise Refused(ErrorCode.ALREADY_DECLARED, "{id} is already on the table", id=item)
        if item in self.rules.nobles:
            if self.nobles_needed == 0:
                raise Refused(
                    ErrorCode.SETUP_FULL, "all {n} nobles are declared already", n=len(self.nobles)
                )
            self.nobles.append(item)
            return item
        card = self.rules.cards.get(item)
        if card is None:
            raise Refused(ErrorCode.UNKNOWN, "{id} is neither a card nor a noble", id=item)
        if self.cards_needed(card.level) == 0:
            raise Refused(
                ErrorCode.SETUP_FULL,
                "level {level} already has its {cards}",
                cards=Counted("{n} face-up card", "{n} face-up cards", self.rules.market_slots),
                level=card.level,
            )
        self.market[card.level].append(card.id)
        return card.id

    def withdraw(self, item: str) -> None:
        """Take back a declaration made by mistake."""
        if item in self.nobles:
            self.nobles.remove(item)
            return
        for row in self.market.values():
            if item in row:
                row.remove(item)
                return
        raise Refused(ErrorCode.UNKNOWN, "{id} was not declared", id=item)

    def setup(self) -> Setup:
        if not self.complete:
            raise Refused(
                ErrorCode.SETUP_INCOMPLETE,
                "the table is not laid out yet: {nobles} and {cards} to declare",
                nobles=Counted("{n} noble", "{n} nobles", self.nobles_needed),
                cards=Counted(
                    "{n} card", "{n} cards", sum(self.cards_needed(lv) for lv in self.rules.levels)
                ),
            )
        levels = self.rules.levels
        return Setup.of(self.players, self.nobles, [self.market[lv] for lv in levels], self.rules)


class Step(StrEnum):
    """Where the turn being declared stands: what the table is asked next."""

    ACTION = "action"
    REVEAL = "reveal"
    RETURN = "return"
    NOBLE = "noble"
    CONFIRM = "confirm"


ACTION, REVEAL, RETURN, NOBLE, CONFIRM = Step  # short names for the steps


class Declared(StrEnum):
    """What a card tapped or scanned in the middle of a turn became."""

    REVEAL = "reveal"
    BUY = "buy"
    RESERVE = "reserve"
    CHOOSE = "choose"  # either a buy or a reserve: see :attr:`Turn.options`


class Picked(StrEnum):
    """What a token tapped in the bank did to the take being chosen."""

    MORE = "more"  # not a take yet: tap more colours
    READY = "ready"  # a take; more colours may still be added, or the table confirms it
    CONFIRM = "confirm"  # a take of two of one colour: only a deliberate confirm plays it
    COMPLETE = "complete"  # nothing can be added and no double tap can make it: play it


@dataclass(frozen=True)
class Offer:
    """What the player to act may do, computed once per position from the engine."""

    takes: frozenset[Tokens]
    passes_only: bool


@dataclass
class Purchase:
    """A card the player to act may buy (or reserve), with the payment being chosen.

    The payment starts as the engine's default (coloured tokens first, gold for the rest);
    each :meth:`swap` pays one more gold in place of a coloured token.
    """

    card: Card
    seat: int
    cost: Tokens
    held: Tokens
    default: Tokens | None
    buy_error: IllegalMove | None
    reserve_error: IllegalMove | None
    face_up: bool
    payment: Tokens | None = None

    def __post_init__(self) -> None:
        self.payment = self.default

    def swaps(self) -> list[Colour]:
        """The colours for which one gold may still be paid instead."""
        pay = self.payment
        if pay is None or self.held.gold <= pay.gold:
            return []
        return [c for c in GEMS if pay[c]]

    def swap(self, colour: Colour) -> None:
        if colour not in self.swaps():
            raise Refused(ErrorCode.NO_SWAP, "no gold can be paid for {colour} now", colour=colour)
        assert self.payment is not None
        values = list(self.payment)
        values[colour] -= 1
        values[Colour.GOLD] += 1
        self.payment = Tokens._make(values)

    def reset(self) -> None:
        self.payment = self.default

    @property
    def buy(self) -> Buy:
        """The buy as chosen: the payment is named only when it is not the default."""
        pay = None if self.payment == self.default else self.payment
        return Buy(self.card.id, pay, player=self.seat)

    @property
    def reserve(self) -> Reserve:
        return Reserve(card=self.card.id, player=self.seat)


@dataclass
class Turn:
    """The turn being declared: an action, then each thing due, then :meth:`commit`.

    Steps come in the order of the rules: the reveal refilling the market (A6), the
    tokens returned above 10 (T1), the noble's visit when several qualify (N1). Before
    the action, :attr:`selection` holds the tokens tapped so far for a take.
    """

    session: Session
    action: Move | None = None
    due: Due | None = None
    reveal: str | None = None
    returned: Tokens | None = None
    noble: str | None = None
    options: list[Move] = field(default_factory=list)
    """When a scanned card could be bought or reserved, the choices for the table."""
    selection: Tokens = NO_TOKENS
    _offer: tuple[Position, Offer] | None = field(default=None, repr=False)

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def step(self) -> Step:
        if self.action is None or self.due is None:
            return Step.ACTION
        if self.due.reveal is not None and self.reveal is None:
            return Step.REVEAL
        if self.due.returns and self.returned is None:
            return Step.RETURN
        if self.due.noble_choice and self.noble is None:
            return Step.NOBLE
        return Step.CONFIRM

    def cancel(self) -> None:
        """Forget the action and its answers, and the tokens chosen so far."""
        self.action = self.due = self.reveal = self.returned = self.noble = None
        self.options = []
        self.selection = NO_TOKENS

    def start(self, action: Move) -> Due:
        """Choose the action. :class:`IllegalMove` (nothing changes) when it is not allowed."""
        action = with_parts(action, reveal=None, returned=None, noble=None)
        due = self.game.due(action)
        self.cancel()
        self.action, self.due = action, due
        return due

    @property
    def move(self) -> Move:
        """The whole move as declared so far."""
        if self.action is None:
            raise Refused(ErrorCode.NOTHING_CHOSEN, "choose an action first")
        return with_parts(self.action, reveal=self.reveal, returned=self.returned, noble=self.noble)

    def _check_so_far(self, move: Move, later: set[ErrorCode]) -> None:
        """Raise the engine's error unless it is about a step still to come."""
        error = self.game.explain(move)
        if error is not None and error.code not in later:
            raise error

    def declare_reveal(self, card_id: str) -> None:
        if self.step != Step.REVEAL:
            raise Refused(ErrorCode.NOTHING_DUE, "no card needs to be revealed now")
        candidate = with_parts(self.move, reveal=card_id)
        self._check_so_far(
            candidate,
            {ErrorCode.TOKEN_LIMIT, ErrorCode.NOBLE_CHOICE_REQUIRED},
        )
        self.reveal = card_id

    def give_back(self, tokens: Tokens) -> None:
        """The tokens returned to end the turn at 10 (all at once)."""
        if self.step != Step.RETURN:
            raise Refused(ErrorCode.NOTHING_DUE, "no token needs to be returned now")
        candidate = with_parts(self.move, returned=tokens)
        self._check_so_far(candidate, {ErrorCode.NOBLE_CHOICE_REQUIRED})
        self.returned = tokens

    def choose_noble(self, noble_id: str) -> None:
        if self.step != Step.NOBLE:
            raise Refused(ErrorCode.NOTHING_DUE, "no noble needs to be chosen now")
        candidate = with_parts(self.move, noble=noble_id)
        self._check_so_far(candidate, set())
        self.noble = noble_id

    def commit(self) -> Move:
        """Play the declared move (journaled). The turn is then cleared for the next one."""
        if self.step != Step.CONFIRM:
            raise Refused(ErrorCode.INCOMPLETE, "the turn is not fully declared yet")
        move = self.session.play(self.move)
        self.cancel()
        return move

    # ---------------------------------------------------------------- a take

    @property
    def offer(self) -> Offer:
        """The legal takes and whether only a pass is left (A7), once per position."""
        position = self.game.position()
        if self._offer is None or self._offer[0] != position:
            takes: set[Tokens] = set()
            passes_only = True
            # Actions, not whole moves: a take at 10 tokens is listed once, not once per
            # way to give tokens back.
            for move in self.game.actions():
                if isinstance(move, Take):
                    takes.add(move.gems)
                if not isinstance(move, Pass):
                    passes_only = False
            self._offer = (position, Offer(frozenset(takes), passes_only))
        return self._offer[1]

    def takes(self) -> list[Tokens]:
        """Every legal take of the player to act (the token choices to offer)."""
        return list(self.offer.takes)

    def can_add(self, selection: Tokens | None = None) -> set[Colour]:
        """Colours a tap may add to ``selection`` and still lead to a legal take."""
        chosen = self.selection if selection is None else selection
        out = set()
        for take in self.offer.takes:
            for colour in GEMS:
                if colour not in out and all(
                    m + (c == colour) <= t
                    for c, (m, t) in enumerate(zip(chosen, take, strict=True))
                ):
                    out.add(colour)
        return out

    def is_take(self, selection: Tokens | None = None) -> bool:
        return (self.selection if selection is None else selection) in self.offer.takes

    def passes_only(self) -> bool:
        """A7: nothing but a pass is legal."""
        return self.offer.passes_only

    def pick_token(self, colour: Colour) -> Picked:
        """A bank token tapped for the take being chosen; the engine's reason when it cannot be.

        A take of three colours (or of the only colours left) is whole as soon as its last
        token is tapped. A take of two of one colour is never whole by taps alone: a bounced
        double tap on a pile must not take two tokens, so the table confirms it.
        """
        if self.step != Step.ACTION:
            raise Refused(ErrorCode.NOTHING_DUE, "finish the turn first: {step}", step=self.step)
        wanted = self.selection + Tokens._make(1 if c == colour else 0 for c in range(6))
        if colour == Colour.GOLD or colour not in self.can_add():
            error = self.game.explain(Take(wanted, player=self.game.to_act))
            if error is not None:
                raise error
            raise Refused(ErrorCode.NOT_A_TAKE, "these tokens cannot be part of one take")
        self.selection = wanted
        return self.picked()

    def picked(self) -> Picked:
        """What the tokens chosen so far make (see :meth:`pick_token`)."""
        if not self.is_take():
            return Picked.MORE
        if self.can_add():
            return Picked.READY
        if max(self.selection) > 1:
            return Picked.CONFIRM
        return Picked.COMPLETE

    def clear_selection(self) -> None:
        self.selection = NO_TOKENS

    def take(self) -> Due:
        """Start the take of the tokens chosen so far (the confirm button, or a tap)."""
        if not any(self.selection):
            raise Refused(ErrorCode.NOTHING_CHOSEN, "tap the colours to take first")
        return self.start(Take(self.selection, player=self.game.to_act))

    # ---------------------------------------------------------------- a card

    def purchase(self, card: Card, face_up: bool) -> Purchase:
        """The buy dialog's facts for ``card``: cost, payment, and why each action is refused."""
        game = self.game
        seat = game.to_act
        return Purchase(
            card=card,
            seat=seat,
            cost=game.cost(seat, card),
            held=game.seat(seat).tokens,
            default=game.default_payment(seat, card),
            buy_error=self.refusal(Buy(card.id, player=seat)),
            reserve_error=self.refusal(Reserve(card=card.id, player=seat)) if face_up else None,
            face_up=face_up,
        )

    def refusal(self, action: Move) -> IllegalMove | None:
        """Why ``action`` cannot start the turn now, or ``None`` when it can."""
        try:
            self.game.due(action)
        except IllegalMove as err:
            return err
        return None

    def affordable(self, cards: Sequence[Card]) -> list[Card]:
        """Of ``cards``, those the player to act can pay for now."""
        seat = self.game.to_act
        return [c for c in cards if self.game.can_afford(seat, c)]

    def still_to_play(self) -> list[str]:
        """E1: in the final round, the players who still have a turn (this one included)."""
        game = self.game
        if not game.final_round:
            return []
        return list(game.names[game.to_act :])

    def declare_card(self, card_id: str) -> Declared:
        """A card tapped or scanned in the middle of a turn; returns what it became.

        ``reveal``: it refills the market; ``buy`` or ``reserve``: it started that action;
        ``choose``: it could start either, see :attr:`options`.
        """
        card = self.game.rules.cards.get(card_id)
        if card is None:
            raise Refused(ErrorCode.UNKNOWN, "{id} is not a card", id=card_id)
        if self.step == Step.REVEAL:
            self.declare_reveal(card_id)
            return Declared.REVEAL
        if self.step != Step.ACTION:
            raise Refused(ErrorCode.NOTHING_DUE, "finish the turn first: {step}", step=self.step)
        seat = self.game.to_act
        candidates: list[Move] = [Buy(card_id, player=seat)]
        if _face_up(self.game, card):
            candidates.append(Reserve(card=card_id, player=seat))
        legal: list[Move] = []
        first_error: IllegalMove | None = None
        for move in candidates:
            error = self.refusal(move)
            if error is not None:
                first_error = first_error or error
                continue
            legal.append(move)
        if not legal:
            assert first_error is not None
            raise first_error
        if len(legal) == 1:
            self.start(legal[0])
            return Declared.BUY if isinstance(legal[0], Buy) else Declared.RESERVE
        self.options = legal
        return Declared.CHOOSE


def _face_up(game: Game, card: Card) -> bool:
    return any(c is card for row in game.market for c in row)
