"""The companion's move and its reason, in words, in the current language.

``announce`` says what a player must do at the table for the companion's seat; ``reason``
says in one line why the hard level likes a move (the "Suggest a move" line); ``explained``
joins a move told (the move log's sentence, the companion's move on the table) and its reason:
"Robo (hard) reserves a blue level-2 card, takes 1 gold. Why: keeps it away from Ben". A card is
worded as the move log words it (``movelog.card_words``): one wording of a card everywhere.
"""

from __future__ import annotations

from ..engine.cards import Card
from ..engine.game import Game, Seat
from ..engine.moves import Buy, Move, Pass, Reserve, Take
from ..engine.naming import card_words
from ..engine.tokens import Tokens
from ..i18n import _, localise, ngettext
from .value import pulls, remaining, shortfall, worth


def announce(game: Game, move: Move, name: str | None = None) -> str:
    """What the seat to act does, for a person to do on the table: ``move`` is legal now
    and carries no reveal (the card turned face up is declared afterwards)."""
    who = name if name is not None else _("The companion")
    seat = game.to_act
    if isinstance(move, Take):
        text = _("{name} takes {tokens} from the bank").format(name=who, tokens=localise(move.gems))
    elif isinstance(move, Buy):
        card = game.rules.cards[move.card]
        pay = move.payment if move.payment is not None else game.default_payment(seat, card)
        face_up = any(c is card for row in game.market for c in row)
        if pay is None or pay.total == 0:
            template = (
                _("{name} buys {card}; its bonuses pay for all of it")
                if face_up
                else _("{name} buys {card} from its reserve; its bonuses pay for all of it")
            )
            text = template.format(name=who, card=card_words(card))
        else:
            template = (
                _("{name} buys {card}, paying {tokens}")
                if face_up
                else _("{name} buys {card} from its reserve, paying {tokens}")
            )
            text = template.format(name=who, card=card_words(card), tokens=localise(pay))
    elif isinstance(move, Reserve):
        if move.deck is not None:
            text = _("{name} reserves the top card of the level {level} deck, face down").format(
                name=who, level=move.deck
            )
        else:
            text = _("{name} reserves {card}").format(
                name=who, card=card_words(game.rules.cards[move.card or ""])
            )
        if game.bank.gold > 0:
            text += ", " + _("and takes a gold token")
    else:
        text = _("{name} can do nothing and passes").format(name=who)
    if move.returned is not None and move.returned.total:
        then = _("then gives back {tokens}").format(tokens=localise(move.returned))
        text = _("{this}; {that}").format(this=text, that=then)
    noble = visiting(game, move)
    if noble is not None:
        # Said by what it asks for: a record id (N8) means nothing at the table.
        wants = Tokens._make([*game.rules.nobles[noble].requires, 0])
        visit = _("the noble asking for {bonuses} visits").format(bonuses=localise(wants))
        text = _("{this}; {that}").format(this=text, that=visit)
    return text


def explained(told: str, game: Game, move: Move) -> str:
    """``told`` (``move``, the next of ``game``, in a sentence) and why it was chosen, in a
    few words: at a table of three or four, the reason names the rival it matters to."""
    return _("{move}. Why: {reason}").format(move=told, reason=reason(game, move, told=True))


def visiting(game: Game, move: Move) -> str | None:
    """The noble that visits at the end of ``move`` (chosen, or the only one due)."""
    if move.noble is not None:
        return move.noble
    nobles = game.due(move).nobles
    return nobles[0].id if len(nobles) == 1 else None


def reason(game: Game, move: Move, told: bool = False) -> str:
    """Why ``move`` is good for the seat to act, in one line: "3 points, and one bonus
    closer to a noble". ``told``: the move is said just before (:func:`explained`), so a
    card reserved is not named twice ("keeps it away from Ada")."""
    seat = game.seats[game.to_act]
    parts: list[str] = []
    noble = visiting(game, move)
    if isinstance(move, Buy):
        card = game.rules.cards[move.card]
        if card.points:
            parts.append(ngettext("{n} point", "{n} points", card.points).format(n=card.points))
        if noble is None and any(
            n.requires[card.bonus] > seat.bonuses[card.bonus] for n in game.nobles
        ):
            parts.append(_("one bonus closer to a noble"))
        if not parts:
            parts.append(
                _("a {colour} bonus: cards cost less from now on").format(
                    colour=localise(card.bonus)
                )
            )
        rival = _wanting(game, card) if card.points else None
        if rival is not None:
            parts.append(_("keeps it from {name}").format(name=rival))
    elif isinstance(move, Reserve):
        kept = game.rules.cards[move.card] if move.card is not None and move.deck is None else None
        rival = _wanting(game, kept) if kept is not None and kept.points else None
        if kept is not None and rival is not None and told:
            parts.append(_("keeps it away from {name}").format(name=rival))
        elif kept is not None and rival is not None:
            parts.append(
                _("keeps {card} away from {name}").format(card=card_words(kept), name=rival)
            )
        else:
            parts.append(_("a card to buy later"))
        if game.bank.gold > 0:
            parts.append(_("a gold token"))
    elif isinstance(move, Take):
        target = _target(game, move)
        if target is not None:
            parts.append(_("tokens toward {card}").format(card=card_words(target)))
        else:
            parts.append(_("tokens for later"))
    elif isinstance(move, Pass):
        parts.append(_("nothing else is possible"))
    if noble is not None:
        points = game.rules.nobles[noble].points
        close = _close_to(game, noble)
        if close is None:
            parts.append(
                ngettext(
                    "a noble's visit, {n} point", "a noble's visit, {n} points", points
                ).format(n=points)
            )
        else:
            parts.append(
                ngettext(
                    "the noble {name} was one bonus from, {n} point",
                    "the noble {name} was one bonus from, {n} points",
                    points,
                ).format(name=close, n=points)
            )
    line = parts[-1]
    for i, part in enumerate(reversed(parts[:-1])):
        # "A, B, and C": the last two joined by "and", the others by a comma.
        join = _("{this}, and {that}") if i == 0 else _("{this}, {that}")
        line = join.format(this=part, that=line)
    return line


def _rivals(game: Game) -> list[Seat]:
    """The other seats, the most dangerous first: most points, then the next to play.

    At a table of three or four, a reason names the rival that matters most."""
    me = game.to_act
    n = len(game.seats)
    others = [s for s in game.seats if s.seat != me]
    return sorted(others, key=lambda s: (-s.points, (s.seat - me) % n))


def _wanting(game: Game, card: Card) -> str | None:
    """The rival that could buy ``card`` now, or with one token more, the most dangerous
    first; ``None`` when no rival is that close."""
    for rival in _rivals(game):
        if shortfall(rival, card) <= 1:
            return rival.name
    return None


def _close_to(game: Game, noble: str) -> str | None:
    """The rival one bonus (or none) away from ``noble``, the most dangerous first."""
    wants = game.rules.nobles[noble].requires
    for rival in _rivals(game):
        missing = sum(max(0, w - b) for w, b in zip(wants, rival.bonuses, strict=False))
        if missing <= 1:
            return rival.name
    return None


def _target(game: Game, move: Take) -> Card | None:
    """The card a take brings closest: the best one among those it pays a part of."""
    seat = game.seats[game.to_act]
    pull = pulls(seat, game.nobles)
    cards = [c for row in game.market for c in row if c is not None]
    cards += [c for c in seat.reserved if isinstance(c, Card)]
    helped = [
        c
        for c in cards
        if any(
            n and c.cost[colour] > seat.bonuses[colour] + seat.tokens[colour]
            for colour, n in enumerate(move.gems[:5])
        )
    ]
    if not helped:
        return None
    return max(
        helped,
        key=lambda c: (worth(c, pull) / (1.0 + shortfall(seat, c) + remaining(seat, c)), c.id),
    )
