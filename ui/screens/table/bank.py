"""The bank's piles and the take being chosen: tap colours, the take plays itself when it
is whole; a take of two of one colour waits for its own button (a bounce cannot play it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.engine.tokens import Colour
from companion.errors import IllegalMove, Refused
from companion.i18n import localise
from companion.journal.declaring import Picked, Turn

from ... import theme
from ...i18n import tr
from ...widgets.buttons import big_button
from ...widgets.pieces import TokenButton
from ...widgets.text import text_label
from .parts import Table


class BankRow(BoxLayout):
    """One pile per colour; gold is drawn barred, as it is never taken."""

    def __init__(self, on_token: Callable[[Colour], None], **kw: Any) -> None:
        super().__init__(spacing=2, **kw)
        self.tokens: list[TokenButton] = []
        for colour in Colour:
            token = TokenButton(colour=colour, locked=colour == Colour.GOLD)
            token.bind(on_release=lambda t, c=colour: on_token(c))
            self.tokens.append(token)
            self.add_widget(token)

    def show(self, turn: Turn | None, bank: Any, playing: bool) -> None:
        selection = turn.selection if turn is not None else None
        can_add = turn.can_add() if turn is not None and playing else set()
        for token in self.tokens:
            chosen = selection[token.colour] if selection is not None else 0
            token.count = bank[token.colour] - chosen
            token.chosen = chosen
            token.dimmed = (
                token.colour != Colour.GOLD and token.colour not in can_add and not chosen
            )


class TakeBar(BoxLayout):
    """Under the bank: whose turn it is, or the take chosen so far with its buttons.

    The widgets are made once and swapped in and out: a refresh re-renders no text that
    did not change.
    """

    def __init__(
        self,
        on_take: Callable[[], None],
        on_clear: Callable[[], None],
        on_pass: Callable[[], None],
        **kw: Any,
    ) -> None:
        super().__init__(spacing=4, **kw)
        self.take_button = big_button("", on_take, background_color=theme.BUTTON_GO)
        self.clear_button = big_button(tr("Clear"), on_clear, size_hint_x=0.45)
        self.pass_button = big_button(tr("Pass (no action is possible)"), on_pass)
        self.turn_label = text_label("", scale=0.5, bold=True, color=theme.ACCENT)
        self.mode: tuple[Any, ...] = ()

    def _show(self, *shown: Any) -> None:
        if self.mode != shown:
            self.clear_widgets()
            for widget in shown:
                self.add_widget(widget)
            self.mode = shown

    def show(
        self, turn: Turn | None, name: str, playing: bool, suggest: Widget | None = None
    ) -> None:
        """``suggest``: the Suggest button, beside whose turn it is (a person's seat, the
        game's setting on)."""
        if turn is None or not playing:
            self._show()
        elif any(turn.selection):
            self.take_button.text = tr("Take {tokens}").format(tokens=localise(turn.selection))
            self.take_button.disabled = turn.picked() == Picked.MORE
            self.clear_button.text = tr("Clear")
            self._show(self.take_button, self.clear_button)
        elif turn.passes_only():
            self.pass_button.text = tr("Pass (no action is possible)")
            self._show(self.pass_button)
        else:
            self.turn_label.text = tr("{name}'s turn").format(name=name)
            if suggest is not None:
                suggest.size_hint_x = 0.4
                self._show(self.turn_label, suggest)
            else:
                self._show(self.turn_label)


class Taking:
    """The take being chosen on the bank: a colour tapped (the take played as soon as it
    is whole and nothing can be added), taken, or cleared. ``advance``: the take is in
    the turn, go on with its steps (:meth:`.steps.TurnSteps.advance`)."""

    def __init__(self, table: Table, advance: Callable[[], None]) -> None:
        self.table = table
        self.advance = advance

    def tap(self, colour: Colour) -> None:
        turn = self.table.turn
        assert turn is not None
        try:
            picked = turn.pick_token(colour)
        except (IllegalMove, Refused) as err:
            self.table.refuse(err)
            return
        if picked == Picked.COMPLETE:
            self.take()  # nothing can be added and no bounce makes it: save a tap
            return
        hints = {
            Picked.MORE: tr("Tap more colours, then Take."),
            Picked.READY: tr("Tap Take, or one more colour."),
            Picked.CONFIRM: tr("Two {colour} tokens: tap Take to confirm, or Clear.").format(
                colour=tr(colour.key)
            ),
        }
        self.table.refresh(hints[picked])

    def take(self) -> None:
        turn = self.table.turn
        assert turn is not None
        try:
            turn.take()
        except (IllegalMove, Refused) as err:
            self.table.refuse(err)
            return
        self.advance()

    def clear(self) -> None:
        turn = self.table.turn
        if turn is not None:
            turn.clear_selection()
        self.table.refresh()
