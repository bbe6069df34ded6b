"""Pop-up choices: a card picker (two taps), nobles, tokens to give back, a buy."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Generic, TypeVar

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.engine.cards import Card, Noble
from companion.engine.tokens import Colour, Tokens

from . import theme
from .colourpick import ColourFirst
from .i18n import tr
from .layout import TileGrid, button, gap, grow_label, refit, row_height
from .widgets.modal import ModalPanel
from .widgets.pieces import NobleView, TokenButton


class Dialog(ModalPanel):
    """A modal panel with a title, a body and a row of buttons; its sizes follow the
    window (:data:`ui.scale.SCALE`), again when the window changes while it shows."""

    def __init__(self, title: str, **kw: Any) -> None:
        super().__init__((0.94, 0.92), shade=0.75, radius=10, **kw)
        self.title = grow_label(title, font=22, bold=True, color=theme.ACCENT)
        self.body = BoxLayout(orientation="vertical")
        # A refusal is said in full, wrapped, never cut: the label grows with its text.
        self.message = grow_label("", font=19, color=theme.ERROR)
        # Buttons a finger can hit: 56 px at 800x480, growing with the window.
        self.buttons = BoxLayout(size_hint_y=None)
        self.box.add_widget(self.title)
        self.box.add_widget(self.body)
        self.box.add_widget(self.message)
        self.box.add_widget(self.buttons)
        self._sizes()

    def _sizes(self) -> None:
        self.box.padding = gap(8)
        self.box.spacing = gap(6)
        self.body.spacing = gap(6)
        self.buttons.spacing = gap(8)
        self.buttons.height = row_height(56)

    def lay_out(self) -> None:
        """The window changed while the dialog shows: its sizes follow."""
        self._sizes()
        refit(self)

    def ribbon(self, text: str) -> None:
        """A line kept in sight above the dialog's title (the final round's banner)."""
        label = grow_label(text, font=18, bold=True, color=theme.BANNER_TEXT)
        with label.canvas.before:
            Color(*theme.BANNER)
            band = Rectangle()

        def place(*_: Any) -> None:
            band.pos, band.size = label.pos, label.size

        label.bind(pos=place, size=place)
        self.box.add_widget(label, index=len(self.box.children))

    def button(self, text: str, action: Callable[[], object], **kw: Any) -> Any:
        b = button(text, action, **kw)
        self.buttons.add_widget(b)
        return b


T = TypeVar("T")  # what a picker asks for: a card, a noble, tokens


class Picker(Dialog, Generic[T]):
    """A dialog that asks for one thing (a card, a noble, tokens to give back): the answer
    closes it and goes to ``on_pick``; Cancel closes it and calls ``on_cancel``."""

    def __init__(
        self, title: str, on_pick: Callable[[T], None], on_cancel: Callable[[], None] | None
    ) -> None:
        super().__init__(title)
        self.on_pick = on_pick
        self.on_cancel = on_cancel

    def pick(self, answer: T) -> None:
        self.dismiss()
        self.on_pick(answer)

    def cancel(self) -> None:
        self.dismiss()
        if self.on_cancel is not None:
            self.on_cancel()


class CardPicker(Picker[Card]):
    """Choose a card among ``cards``: every card at once where each cost is legible so (one
    tap), else first its bonus colour, then the card (two taps).

    The colours fill the panel as cards, each with the number of its cards on a badge;
    a colour tapped, its cards fill the panel as the table draws them
    (:class:`ui.colourpick.ColourFirst`). A single colour shows its cards at once."""

    def __init__(
        self,
        title: str,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        on_cancel: Callable[[], None] | None = None,
        dimmed: Collection[str] = (),
    ) -> None:
        super().__init__(title, on_pick, on_cancel)
        self.cards = list(cards)
        self.dimmed = set(dimmed)  # cards shown but not possible now (say, too dear)
        hint = tr("Tap the card's bonus colour, then the card.")
        self.chooser = ColourFirst(self.cards, self.pick, hint, dimmed=self.dimmed, at_once=True)
        self.body.add_widget(self.chooser)
        self.button(tr("Cancel"), self.cancel)
        first = next((c.bonus for c in self.cards), None)
        if first is not None and len({c.bonus for c in self.cards}) == 1:
            self.show_colour(first)

    @property
    def colours(self) -> GridLayout:
        """The colours to tap, each a :class:`ui.widgets.pieces.TokenButton`."""
        return self.chooser.colours

    @property
    def grid(self) -> GridLayout:
        """The cards of the colour shown."""
        return self.chooser.grid

    def show_colour(self, colour: Colour) -> None:
        self.chooser.show_colour(colour)


class NoblePicker(Picker[Noble]):
    """Choose a noble among ``nobles``: tiles as large as the panel allows, one tap."""

    def __init__(
        self,
        title: str,
        nobles: Sequence[Noble],
        on_pick: Callable[[Noble], None],
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(title, on_pick, on_cancel)
        tiles: list[Widget] = []
        for noble in nobles:
            view = NobleView(noble=noble)
            view.bind(on_release=lambda v, n=noble: self.pick(n))
            tiles.append(view)
        # Tiles keep a tile's shape (a little wider than tall), in the middle of the body.
        self.body.add_widget(TileGrid(tiles, aspect=0.8, spacing=12))
        if on_cancel is not None:
            self.button(tr("Cancel"), self.cancel)


class ReturnPicker(Picker[Tokens]):
    """Give back ``count`` tokens from ``hand`` (tokens just taken included)."""

    def __init__(
        self,
        title: str,
        hand: Tokens,
        count: int,
        on_done: Callable[[Tokens], None],
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(title, on_done, on_cancel)
        self.hand = hand
        self.count = count
        self.chosen = [0] * 6
        self.row = BoxLayout(size_hint_y=None)
        row = self.row
        self.tokens: list[TokenButton] = []
        for colour in Colour:
            token = TokenButton(
                colour=colour, count=hand[colour], dimmed=hand[colour] == 0, sign="-"
            )
            token.bind(on_release=lambda t, col=colour: self.tap(col))
            self.tokens.append(token)
            row.add_widget(token)
        self.body.add_widget(Widget())
        self.body.add_widget(row)
        self._sizes()
        self.status = grow_label("", font=22, halign="center")
        self.body.add_widget(self.status)
        self.body.add_widget(Widget())
        if on_cancel is not None:
            self.button(tr("Cancel"), self.cancel)
        self.button(tr("Start again"), self.clear)
        self.done = self.button(
            tr("Give back"),
            lambda: self.pick(Tokens._make(self.chosen)),
            background_color=theme.BUTTON_GO,
        )
        self.update()

    def _sizes(self) -> None:
        super()._sizes()
        if hasattr(self, "row"):  # the tokens, as large as the bank's piles
            self.row.spacing = gap(8)
            self.row.height = row_height(84)

    def tap(self, colour: Colour) -> None:
        if self.chosen[colour] < self.hand[colour] and sum(self.chosen) < self.count:
            self.chosen[colour] += 1
            self.update()

    def clear(self) -> None:
        self.chosen = [0] * 6
        self.update()

    def update(self) -> None:
        for colour, token in zip(Colour, self.tokens, strict=True):
            token.chosen = self.chosen[colour]
            token.count = self.hand[colour] - self.chosen[colour]
        left = self.count - sum(self.chosen)
        self.status.text = tr("{n} more to give back").format(n=left) if left else tr("Ready")
        self.done.disabled = left != 0
