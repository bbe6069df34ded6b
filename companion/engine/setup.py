"""What the table lays out before the first turn (S1-S4): players, nobles, the market.

>>> setup = Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"],
...                  ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"])
>>> setup.market[1]
('2W1', '2W2', '2W3', '2W4')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import RecordError
from ..i18n import Counted
from ..text import check_name, normal_name, quoted
from .cards import card_id_problem
from .rules import BASE, Rules
from .tokens import Tokens


def starting_bank(players: int, rules: Rules = BASE) -> Tokens:
    """S1: the bank at the start for ``players`` (4, 5 or 7 of each gem, and 5 gold, in
    the base game). Every figure of a game is its rules' (``game.rules``): there are no
    module constants of the base game's figures to read instead."""
    return rules.starting_bank(players)


@dataclass(frozen=True, slots=True)
class Setup:
    """Player names in play order, the nobles revealed, the face-up cards per level, and
    the rules the game is played by (:data:`~companion.rules.BASE` unless given).

    Constructing one checks it against its rules; a bad setup raises
    :class:`RecordError` naming the field. A :class:`~companion.game.Game` plays its
    setup's rules; a record and the journal keep them with the setup.
    Names are kept in their normal form (:func:`~companion.text.normal_name`): every way
    into a game (a record, the new-game screen, a position, a simulation) passes here, so
    two spellings of one name are one name before they are compared or stored.
    """

    players: tuple[str, ...]
    nobles: tuple[str, ...]
    market: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    # Rules compare by identity, and the same figures are the same Rules (Rules.variant).
    rules: Rules = field(default=BASE, repr=False)

    @classmethod
    def of(
        cls,
        players: Sequence[str],
        nobles: Sequence[str],
        market: Sequence[str | Sequence[str]],
        rules: Rules = BASE,
    ) -> Setup:
        """Convenience: each market level as a sequence of ids or one space-separated string."""
        rows = [tuple(r.split()) if isinstance(r, str) else tuple(r) for r in market]
        if len(rows) != len(rules.levels):
            raise RecordError("setup.market", "give the face-up cards of levels 1, 2 and 3")
        return cls(tuple(players), tuple(nobles), (rows[0], rows[1], rows[2]), rules)

    def __post_init__(self) -> None:
        names = tuple(normal_name(p) if isinstance(p, str) else p for p in self.players)
        object.__setattr__(self, "players", names)
        self.check(self.rules)

    def check(self, rules: Rules) -> None:
        """Raise :class:`RecordError` naming the first field ``rules`` do not allow."""
        names = self.players
        problem = rules.players_problem(len(names))
        if problem is not None:
            raise RecordError("players", problem[0], **problem[1])
        for i, name in enumerate(names):
            check_name(name, f"players[{i}]")
        if len(set(names)) != len(names):
            raise RecordError("players", "two players have the same name; make the names distinct")
        want = rules.nobles_revealed(len(names))
        if len(self.nobles) != want:
            raise RecordError(
                "setup.nobles",
                "{players} players reveal {want} nobles, not {n}",
                players=len(names),
                want=want,
                n=len(self.nobles),
            )
        for i, noble in enumerate(self.nobles):
            if noble not in rules.nobles:
                raise RecordError(
                    f"setup.nobles[{i}]", "{id} is not a noble (N1 to N10)", id=quoted(noble)
                )
        if len(set(self.nobles)) != len(self.nobles):
            raise RecordError("setup.nobles", "a noble is revealed twice")
        for level, row in zip(rules.levels, self.market, strict=True):
            where = f"setup.market.{level}"
            if len(row) != rules.market_slots:
                raise RecordError(
                    where,
                    "level {level} shows {cards}, not {n}",
                    level=level,
                    cards=Counted("{n} card", "{n} cards", rules.market_slots),
                    n=len(row),
                )
            for i, card in enumerate(row):
                if card not in rules.cards:
                    template, params = card_id_problem(rules.cards, card)
                    raise RecordError(f"{where}[{i}]", template, **params)
                if rules.cards[card].level != level:
                    raise RecordError(
                        f"{where}[{i}]", "{id} is not a level {level} card", id=card, level=level
                    )
            if len(set(row)) != len(row):
                raise RecordError(where, "a card is revealed twice")
