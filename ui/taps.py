"""What a player taps to declare a move at the table, widget by widget.

Each function is a generator: the next widget is looked up only once the previous tap
has taken effect (a dialog it opened is then on screen). The GUI tests tap them one
after the other (``tests/gui/test_game.py``); the web page's benchmark taps them at a
person's pace while the app runs (``ui/frames.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.engine.cards import CARDS
from companion.engine.game import Hidden
from companion.engine.moves import Buy, Move, Pass, Reserve, Take
from companion.engine.tokens import Colour

from .dialogs import CardPicker, NoblePicker, ReturnPicker
from .i18n import tr
from .screens.table.players import PlayerPanel
from .widgets.pieces import CardView, NobleView, TokenButton

if TYPE_CHECKING:
    from .application import CompanionApp


def modals() -> list[ModalView]:
    return [w for w in Window.children if isinstance(w, ModalView) and w._is_open]


def top(app: CompanionApp) -> Widget:
    """What a tap reaches: the open dialog, else the current screen."""
    opened = modals()
    return opened[0] if opened else app.manager.current_screen


def find(app: CompanionApp, kind: type, test: Callable[[Any], bool]) -> Any:
    """The first widget of ``kind`` on top (the dialog, else the screen) that passes."""
    for widget in top(app).walk(restrict=True):
        if isinstance(widget, kind) and test(widget):
            return widget
    raise LookupError(f"nothing on screen matches {kind.__name__}")


def button(app: CompanionApp, text: str) -> Button:
    """The button on top whose text is ``text``."""
    try:
        found: Button = find(app, Button, lambda b: b.text == text)
    except LookupError:
        shown = [b.text for b in top(app).walk(restrict=True) if isinstance(b, Button)]
        raise LookupError(f"no button {text!r}; buttons on screen: {shown}") from None
    return found


def token(app: CompanionApp, colour: Colour) -> TokenButton:
    """The token of ``colour`` on top (a dialog's, else the bank's)."""
    found: TokenButton = find(app, TokenButton, lambda t: t.colour == colour)
    return found


def expect(app: CompanionApp, kind: type) -> None:
    """Stop with what is on top when it is not the dialog the move should have opened
    (a tap on the table behind it would declare something else)."""
    if not isinstance(top(app), kind):
        raise LookupError(f"expected a {kind.__name__} on screen, found {top(app)}")


def layout_taps(app: CompanionApp, nobles: list[str], market: list[list[str]]) -> Iterator[Widget]:
    """On the setup screen: each place's picker opens by itself; one tap a place.

    ``market``: the face-up cards of levels 1, 2, 3. Places fill as they lie on the
    table: the nobles, then levels 3, 2 and 1.
    """
    from .cardface import NobleFace
    from .screens.setup.pickers import LevelPicker, NobleGrid

    for noble in nobles:
        expect(app, NobleGrid)
        yield find(app, NobleFace, partial(_is_noble, noble))
    for level in (3, 2, 1):
        for card in market[level - 1]:
            expect(app, LevelPicker)
            yield from setup_card_taps(app, card)


def _is_noble(noble: str, view: Any) -> bool:
    return view.noble is not None and view.noble.id == noble


def setup_card_taps(app: CompanionApp, card_id: str) -> Iterator[Widget]:
    """In a level picker (the setup's, or the table's card picker): the card, a tap; where
    the picker asks the bonus colour first, that colour, then the card."""
    from .cardface import CardFace

    def shown(v: Any) -> bool:
        return isinstance(v, CardFace | CardView) and v.card is not None and v.card.id == card_id

    if not any(shown(v) for v in top(app).walk(restrict=True)):
        yield token(app, CARDS[card_id].bonus)
    yield find(app, Widget, shown)


def card_taps(app: CompanionApp, card_id: str) -> Iterator[Widget]:
    """In an open card picker: the card, where every card shows at once (one tap); else
    the bonus colour, then the card (two taps)."""
    expect(app, CardPicker)
    yield from setup_card_taps(app, card_id)


def finish_taps(app: CompanionApp, move: Move) -> Iterator[Widget]:
    """What the app asks after the action: the reveal, the tokens given back, the noble."""
    if move.reveal is not None:
        yield from card_taps(app, move.reveal)
    if move.returned is not None and any(move.returned):
        expect(app, ReturnPicker)
        for colour in Colour:
            for _ in range(move.returned[colour]):
                yield token(app, colour)
        yield button(app, tr("Give back"))
    if move.noble is not None:
        # The engine names a noble on a listed move only when the player must choose.
        expect(app, NoblePicker)
        yield find(app, NobleView, lambda v: v.noble is not None and v.noble.id == move.noble)


def move_taps(app: CompanionApp, move: Move) -> Iterator[Widget]:
    """Every tap of ``move``, from the table: its action, then what is asked after it.
    A blind reserve is tapped as at a real table (the deck, not the card)."""
    table = app.table_screen
    if isinstance(move, Take):
        for colour in Colour:
            for _ in range(move.gems[colour]):
                yield table.bank[colour]
        # Three colours take themselves; two of one colour (or fewer colours) wait for Take.
        if table.turn is not None and table.turn.action is None and any(table.selection):
            yield table.take_bar.take_button
    elif isinstance(move, Reserve) and move.deck is not None:
        yield table.decks[move.deck - 1]
        yield button(app, tr("Reserve"))
    elif isinstance(move, Reserve):
        yield next(v for row in table.rows for v in row if v.card and v.card.id == move.card)
        yield button(app, tr("Reserve"))
    elif isinstance(move, Buy):
        yield from _buy_taps(app, move)
    elif isinstance(move, Pass):
        yield table.take_bar.pass_button
    yield from finish_taps(app, move)


def _buy_taps(app: CompanionApp, move: Buy) -> Iterator[Widget]:
    table = app.table_screen
    face_up = [v for row in table.rows for v in row if v.card and v.card.id == move.card]
    if face_up:
        yield face_up[0]
        yield button(app, tr("Buy"))
        return
    panel = find(app, PlayerPanel, lambda p: p.seat_index == move.player)
    views = [v for v in panel.reserved.children if isinstance(v, CardView)]
    known = [v for v in views if v.card is not None and getattr(v.card, "id", "") == move.card]
    if known:
        yield known[0]
    else:
        level = CARDS[move.card].level
        yield next(v for v in views if isinstance(v.card, Hidden) and v.card.level == level)
        yield from card_taps(app, move.card)  # which card it is, then the same buy dialog
    yield button(app, tr("Buy"))
