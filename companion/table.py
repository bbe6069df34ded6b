"""What the table is declaring right now: the setup reveals, or one turn step by step.

The app's taps and the RFID reader's scans both land here, so the two behave the same and
neither re-implements a rule: every check is the engine's (``due``, ``explain``,
``legal_moves``).

>>> from companion.setup import Setup
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

from .cards import CARDS, LEVELS, NOBLES, Card
from .errors import ErrorCode, IllegalMove, Refused
from .game import Due, Game
from .i18n import Counted
from .moves import Buy, Move, Pass, Reserve, Take, with_parts
from .session import Session
from .setup import MARKET_SLOTS, MAX_PLAYERS, MIN_PLAYERS, Setup
from .tokens import GEMS, Colour, Tokens


class NewGame:
    """A game being set up: player names, then the nobles and the 12 face-up cards."""

    def __init__(self, players: Sequence[str]) -> None:
        names = [p.strip() for p in players]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise Refused("players", "a game has 2 to 4 players, not {n}", n=len(names))
        if any(not n for n in names):
            raise Refused("players", "every player needs a name")
        if len(set(names)) != len(names):
            raise Refused("players", "two players have the same name; make the names distinct")
        self.players = tuple(names)
        self.nobles: list[str] = []
        self.market: dict[int, list[str]] = {level: [] for level in LEVELS}

    @property
    def nobles_needed(self) -> int:
        return len(self.players) + 1 - len(self.nobles)

    def cards_needed(self, level: int) -> int:
        return MARKET_SLOTS - len(self.market[level])

    @property
    def complete(self) -> bool:
        return self.nobles_needed == 0 and all(self.cards_needed(lv) == 0 for lv in LEVELS)

    def seen(self) -> set[str]:
        return {*self.nobles, *(c for row in self.market.values() for c in row)}

    def declare(self, item: str) -> str:
        """A noble or a card laid out on the table (tapped or scanned); returns its id."""
        if item in self.seen():
            raise Refused("already-declared", "{id} is already on the table", id=item)
        if item in NOBLES:
            if self.nobles_needed == 0:
                raise Refused(
                    "setup-full", "all {n} nobles are declared already", n=len(self.nobles)
                )
            self.nobles.append(item)
            return item
        card = CARDS.get(item)
        if card is None:
            raise Refused("unknown", "{id} is neither a card nor a noble", id=item)
        if self.cards_needed(card.level) == 0:
            raise Refused(
                "setup-full",
                "the 4 face-up cards of level {level} are declared already",
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
        raise Refused("unknown", "{id} was not declared", id=item)

    def setup(self) -> Setup:
        if not self.complete:
            raise Refused(
                "setup-incomplete",
                "the table is not laid out yet: {nobles} and {cards} to declare",
                nobles=Counted("{n} noble", "{n} nobles", self.nobles_needed),
                cards=Counted("{n} card", "{n} cards", sum(self.cards_needed(lv) for lv in LEVELS)),
            )
        return Setup.of(self.players, self.nobles, [self.market[lv] for lv in LEVELS])


ACTION, REVEAL, RETURN, NOBLE, CONFIRM = "action", "reveal", "return", "noble", "confirm"


@dataclass
class Turn:
    """The turn being declared: an action, then each thing due, then :meth:`commit`.

    Steps come in the order of the rules: the reveal refilling the market (A6), the
    tokens returned above 10 (T1), the noble's visit when several qualify (N1).
    """

    session: Session
    action: Move | None = None
    due: Due | None = None
    reveal: str | None = None
    returned: Tokens | None = None
    noble: str | None = None
    options: list[Move] = field(default_factory=list)
    """When a scanned card could be bought or reserved, the choices for the table."""

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def step(self) -> str:
        if self.action is None or self.due is None:
            return ACTION
        if self.due.reveal is not None and self.reveal is None:
            return REVEAL
        if self.due.returns and self.returned is None:
            return RETURN
        if self.due.noble_choice and self.noble is None:
            return NOBLE
        return CONFIRM

    def cancel(self) -> None:
        self.action = self.due = self.reveal = self.returned = self.noble = None
        self.options = []

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
            raise Refused("nothing-chosen", "choose an action first")
        return with_parts(self.action, reveal=self.reveal, returned=self.returned, noble=self.noble)

    def _check_so_far(self, move: Move, later: set[ErrorCode]) -> None:
        """Raise the engine's error unless it is about a step still to come."""
        error = self.game.explain(move)
        if error is not None and error.code not in later:
            raise error

    def declare_reveal(self, card_id: str) -> None:
        if self.step != REVEAL:
            raise Refused("nothing-due", "no card needs to be revealed now")
        candidate = with_parts(self.move, reveal=card_id)
        self._check_so_far(
            candidate,
            {ErrorCode.TOKEN_LIMIT, ErrorCode.NOBLE_CHOICE_REQUIRED},
        )
        self.reveal = card_id

    def give_back(self, tokens: Tokens) -> None:
        """The tokens returned to end the turn at 10 (all at once)."""
        if self.step != RETURN:
            raise Refused("nothing-due", "no token needs to be returned now")
        candidate = with_parts(self.move, returned=tokens)
        self._check_so_far(candidate, {ErrorCode.NOBLE_CHOICE_REQUIRED})
        self.returned = tokens

    def choose_noble(self, noble_id: str) -> None:
        if self.step != NOBLE:
            raise Refused("nothing-due", "no noble needs to be chosen now")
        candidate = with_parts(self.move, noble=noble_id)
        self._check_so_far(candidate, set())
        self.noble = noble_id

    def commit(self) -> Move:
        """Play the declared move (journaled). The turn is then cleared for the next one."""
        if self.step != CONFIRM:
            raise Refused("incomplete", "the turn is not fully declared yet")
        move = self.session.play(self.move)
        self.cancel()
        return move

    # ---------------------------------------------------------------- helpers

    def takes(self) -> list[Tokens]:
        """Every legal take of the player to act (the token choices to offer)."""
        seen: dict[Tokens, None] = {}
        for move in self.game.legal_moves():
            if isinstance(move, Take):
                seen[move.gems] = None
        return list(seen)

    def can_add(self, selection: Tokens) -> set[Colour]:
        """Colours a tap may add to ``selection`` and still lead to a legal take."""
        out = set()
        for take in self.takes():
            for colour in GEMS:
                more = selection + Tokens._make(1 if c == colour else 0 for c in range(6))
                if all(m <= t for m, t in zip(more, take, strict=True)):
                    out.add(colour)
        return out

    def is_take(self, selection: Tokens) -> bool:
        return selection in self.takes()

    def passes_only(self) -> bool:
        """A7: nothing but a pass is legal."""
        return all(isinstance(m, Pass) for m in self.game.legal_moves())

    def declare_card(self, card_id: str) -> str:
        """A card tapped or scanned in the middle of a turn; returns what it became.

        ``reveal``: it refills the market; ``buy`` or ``reserve``: it started that action;
        ``choose``: it could start either, see :attr:`options`.
        """
        if card_id not in CARDS:
            raise Refused("unknown", "{id} is not a card", id=card_id)
        if self.step == REVEAL:
            self.declare_reveal(card_id)
            return REVEAL
        if self.step != ACTION:
            raise Refused("nothing-due", "finish the turn first: {step}", step=self.step)
        seat = self.game.to_act
        card = CARDS[card_id]
        candidates: list[Move] = [Buy(card_id, player=seat)]
        if _face_up(self.game, card):
            candidates.append(Reserve(card=card_id, player=seat))
        legal: list[Move] = []
        first_error: IllegalMove | None = None
        for move in candidates:
            try:
                self.game.due(move)
            except IllegalMove as err:
                first_error = first_error or err
                continue
            legal.append(move)
        if not legal:
            assert first_error is not None
            raise first_error
        if len(legal) == 1:
            self.start(legal[0])
            return "buy" if isinstance(legal[0], Buy) else "reserve"
        self.options = legal
        return "choose"


def _face_up(game: Game, card: Card) -> bool:
    return any(c is card for row in game.market for c in row)
