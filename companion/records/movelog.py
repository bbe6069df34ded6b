"""The game so far in words, newest first: what the table asks ("did I already take that?").

Each move is told as a player would say it, in the current language, naming cards and
nobles by what they look like (colour, level, points), never by their record ids, with its
round and, from the table's log, when it was played and how long its turn took.

>>> from companion.records.record import Record
>>> from companion.engine.simulate import simulate
>>> log = move_log(Record.of(simulate(players=2, seed=3, max_moves=3)))
>>> [(e.number, e.round) for e in log]
[(3, 2), (2, 1), (1, 1)]
>>> log[-1].words
'Ada takes 2 blue'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.cards import Card, Noble
from ..engine.game import Game
from ..engine.moves import Buy, Move, Pass, Reserve, Take, with_reveal
from ..engine.naming import card_words
from ..engine.tokens import Tokens
from ..i18n import localise, ngettext
from ..i18n import translate as _
from .playtime import MoveTime, move_times
from .record import Record
from .timeline import Step, last_step, timeline


def tell(step: Step) -> str:
    """One move in a sentence: ``Ada buys a blue level-1 card (2 points), pays 2 red``."""
    move, name = step.move, step.player
    returned = move.returned or Tokens()
    if isinstance(move, Take):
        text = _("{player} takes {tokens}").format(player=name, tokens=localise(move.gems))
    elif isinstance(move, Reserve):
        if step.card is not None and move.deck is None:
            text = _("{player} reserves {card}").format(player=name, card=card_words(step.card))
        else:
            text = _("{player} reserves an unseen level-{level} card from the deck").format(
                player=name, level=move.deck
            )
        if step.gained.gold:
            text += ", " + _("takes {tokens}").format(
                tokens=localise(Tokens(gold=step.gained.gold))
            )
    elif isinstance(move, Buy):
        what = card_words(step.card) if step.card is not None else move.card
        text = _("{player} buys {card}").format(player=name, card=what)
        paid = Tokens._make(max(0, s - r) for s, r in zip(step.spent, returned, strict=True))
        if any(paid):
            text += ", " + _("pays {tokens}").format(tokens=localise(paid))
        else:
            text += ", " + _("pays nothing (bonuses)")
    else:
        assert isinstance(move, Pass)
        text = _("{player} passes: no move was possible").format(player=name)
    if any(returned):
        text += ", " + _("gives back {tokens}").format(tokens=localise(returned))
    if step.noble is not None:
        points = step.noble.points
        text += ". " + ngettext(
            "A noble visits {player} ({n} point)", "A noble visits {player} ({n} points)", points
        ).format(player=name, n=points)
    return text


def foretell(game: Game, move: Move, player: str | None = None) -> str:
    """``move``, the next of ``game`` and not yet made, told as :func:`tell` will tell it
    once played (the companion's move, for the person who makes it on the table), its
    player called ``player`` when given ("Robo (hard)").

    >>> from companion.engine.simulate import simulate
    >>> game = simulate(players=2, seed=3, max_moves=2)
    >>> foretell(game, game.parse("take WUG"))
    'Ada takes 1 white, 1 blue, 1 green'
    """
    after = game.copy()
    after.push(_with_a_reveal(game, move))
    step = last_step(after)
    return tell(step if player is None else replace(step, player=player))


def _with_a_reveal(game: Game, move: Move) -> Move:
    """A face-up card taken leaves a gap the next card fills (A6): any unseen card of its
    level stands for it, as the words do not name it."""
    if move.reveal is not None or not isinstance(move, Buy | Reserve) or move.card is None:
        return move
    if not any(c is not None and c.id == move.card for row in game.market for c in row):
        return move  # from a reserve: no gap on the table
    level = game.rules.cards[move.card].level
    unseen = game.unseen(level)
    return with_reveal(move, unseen[0].id) if game.deck_size(level) and unseen else move


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A line of the move log."""

    number: int  # 1-based move number
    round: int
    seat: int
    player: str
    words: str
    card: Card | None  # the card bought or reserved face up, for its picture
    noble: Noble | None  # the noble that visited
    points_after: int
    time: MoveTime | None  # when, and how long the turn took (from the table's log)


def move_log(record: Record) -> list[LogEntry]:
    """Every move of the record in words, the newest first."""
    times = move_times(record)
    entries = [
        LogEntry(
            number=step.number,
            round=step.round,
            seat=step.seat,
            player=step.player,
            words=tell(step),
            card=step.card
            if not (isinstance(step.move, Reserve) and step.move.deck is not None)
            else None,
            noble=step.noble,
            points_after=step.points_after,
            time=times.get(step.number),
        )
        for step in timeline(record)
    ]
    return entries[::-1]
