"""Pop-up choices: a card picker (two taps), nobles, tokens to give back, a buy."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.cards import Card, Noble
from companion.tokens import GEMS, Colour, Tokens

from . import theme
from .i18n import tr
from .widgets import (
    CardView,
    NobleView,
    TokenButton,
    big_button,
    text_label,
    then,
    wrapping_label,
)


class Dialog(ModalView):
    """A modal panel with a title, a body and a row of buttons."""

    def __init__(self, title: str, **kw: Any) -> None:
        super().__init__(
            size_hint=(0.94, 0.92),
            auto_dismiss=False,
            overlay_color=(0, 0, 0, 0.75),
            background_color=(0, 0, 0, 0),
            **kw,
        )
        self._anim_duration = 0  # at the table a dialog is there or gone, at once
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        unit = Window.height / 480  # 1 on the 7-inch screen
        self.title = wrapping_label(title, font=22 * unit, bold=True, color=theme.ACCENT)
        self.body = BoxLayout(orientation="vertical", spacing=6)
        # A refusal is said in full, wrapped, never cut: the label grows with its text.
        self.message = wrapping_label("", font=19 * unit, color=theme.ERROR)
        # Buttons a finger can hit: 56 px at 800x480, growing with the window.
        self.buttons = BoxLayout(size_hint_y=None, height=max(56, Window.height * 0.12), spacing=8)
        with self.box.canvas.before:  # an opaque panel: the table must not show through
            Color(*theme.PANEL)
            self._panel = RoundedRectangle(radius=[10])
        self.box.bind(pos=self._place, size=self._place)
        self.box.add_widget(self.title)
        self.box.add_widget(self.body)
        self.box.add_widget(self.message)
        self.box.add_widget(self.buttons)
        self.add_widget(self.box)

    def _place(self, *_: Any) -> None:
        self._panel.pos = self.box.pos
        self._panel.size = self.box.size

    def ribbon(self, text: str) -> None:
        """A line kept in sight above the dialog's title (the final round's banner)."""
        unit = Window.height / 480
        label = wrapping_label(text, font=18 * unit, bold=True, color=theme.BANNER_TEXT)
        with label.canvas.before:
            Color(*theme.BANNER)
            band = Rectangle()

        def place(*_: Any) -> None:
            band.pos, band.size = label.pos, label.size

        label.bind(pos=place, size=place)
        self.box.add_widget(label, index=len(self.box.children))

    def button(self, text: str, action: Callable[[], object], **kw: Any) -> Any:
        b = big_button(text, action, **kw)
        self.buttons.add_widget(b)
        return b


class CardPicker(Dialog):
    """Choose a card among ``cards``: first its bonus colour, then the card (two taps)."""

    def __init__(
        self,
        title: str,
        cards: Sequence[Card],
        on_pick: Callable[[Card], None],
        on_cancel: Callable[[], None] | None = None,
        dimmed: Collection[str] = (),
    ) -> None:
        super().__init__(title)
        self.cards = list(cards)
        self.dimmed = set(dimmed)  # cards shown but not possible now (say, too dear)
        self.on_pick = on_pick
        self.colours = BoxLayout(size_hint_y=None, height=max(60, Window.height * 0.13), spacing=8)
        self.grid = GridLayout(rows=1, spacing=6)
        self.body.add_widget(self.colours)
        self.body.add_widget(self.grid)
        for colour in GEMS:
            count = sum(1 for c in self.cards if c.bonus == colour)
            token = TokenButton(colour=colour, count=count, dimmed=count == 0)
            token.bind(on_release=lambda t, col=colour: self.show_colour(col))
            self.colours.add_widget(token)
        self.button(tr("Cancel"), lambda: self._cancel(on_cancel))
        first = next((c.bonus for c in self.cards), None)
        if first is not None and len({c.bonus for c in self.cards}) == 1:
            self.show_colour(first)

    def _cancel(self, on_cancel: Callable[[], None] | None) -> None:
        self.dismiss()
        if on_cancel:
            on_cancel()

    def show_colour(self, colour: Colour) -> None:
        for token in self.colours.children:
            token.selected = token.colour == colour
        self.grid.clear_widgets()
        chosen = [c for c in self.cards if c.bonus == colour]
        self.grid.cols = max(4, len(chosen))
        for card in chosen:
            view = CardView(card=card, dimmed=card.id in self.dimmed)
            view.bind(on_release=lambda v, c=card: self.pick(c))
            self.grid.add_widget(view)
        for _ in range(4 - len(chosen)):
            self.grid.add_widget(Widget())

    def pick(self, card: Card) -> None:
        self.dismiss()
        self.on_pick(card)


class NoblePicker(Dialog):
    def __init__(
        self,
        title: str,
        nobles: Sequence[Noble],
        on_pick: Callable[[Noble], None],
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(title)
        grid = GridLayout(cols=5, spacing=10, padding=[20, 0], size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for noble in nobles:
            # Tiles keep a tile's shape (a little wider than tall), centred in the body.
            view = NobleView(noble=noble, size_hint_y=None, pos_hint={"center_y": 0.5})
            view.bind(width=lambda v, w: setattr(v, "height", w * 0.8))
            view.bind(on_release=lambda v, n=noble: self.pick(n, on_pick))
            grid.add_widget(view)
        for _ in range((-len(nobles)) % 5):
            grid.add_widget(Widget())
        self.body.add_widget(Widget())
        self.body.add_widget(grid)
        self.body.add_widget(Widget())
        if on_cancel is not None:
            self.button(tr("Cancel"), then(self.dismiss, on_cancel))

    def pick(self, noble: Noble, on_pick: Callable[[Noble], None]) -> None:
        self.dismiss()
        on_pick(noble)


class ReturnPicker(Dialog):
    """Give back ``count`` tokens from ``hand`` (tokens just taken included)."""

    def __init__(
        self,
        title: str,
        hand: Tokens,
        count: int,
        on_done: Callable[[Tokens], None],
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(title)
        self.hand = hand
        self.count = count
        self.chosen = [0] * 6
        row = BoxLayout(spacing=8, size_hint_y=0.5)
        self.tokens: list[TokenButton] = []
        for colour in Colour:
            token = TokenButton(
                colour=colour, count=hand[colour], dimmed=hand[colour] == 0, sign="-"
            )
            token.bind(on_release=lambda t, col=colour: self.tap(col))
            self.tokens.append(token)
            row.add_widget(token)
        self.body.add_widget(row)
        self.status = text_label("", scale=0.45, size_hint_y=0.2)
        self.body.add_widget(self.status)
        if on_cancel is not None:
            self.button(tr("Cancel"), then(self.dismiss, on_cancel))
        self.button(tr("Start again"), self.clear)
        self.done = self.button(
            tr("Give back"), lambda: self.finish(on_done), background_color=theme.BUTTON_GO
        )
        self.update()

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

    def finish(self, on_done: Callable[[Tokens], None]) -> None:
        self.dismiss()
        on_done(Tokens._make(self.chosen))
