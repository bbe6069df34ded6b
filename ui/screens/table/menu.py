"""The table's menu and what it opens: hints, the bank audit, the move log, settings."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.session import Session
from companion.store import StoreError
from companion.tokens import Colour, Tokens

from ... import theme
from ...dialogs import Dialog
from ...i18n import tr
from ...widgets import TokenButton, big_button, then, wrapping_label
from .words import describe


class MenuDialog(Dialog):
    def __init__(self, entries: list[tuple[str, Callable[[], object]]]) -> None:
        super().__init__(tr("Menu"))
        grid = GridLayout(cols=2, spacing=8)
        for text, action in entries:
            grid.add_widget(big_button(text, then(self.dismiss, action)))
        self.body.add_widget(grid)
        self.button(tr("Back to the game"), self.dismiss)


class AuditDialog(Dialog):
    """Count the physical bank, colour by colour; the companion says which colours differ.

    Every pile starts blank ("?"), so the table counts rather than confirms a number it
    is shown. Changes nothing in the game.
    """

    def __init__(self, session: Session) -> None:
        super().__init__(tr("Count the tokens in the bank, colour by colour"))
        self.session = session
        self.counted: list[int | None] = [None] * len(Colour)
        row = BoxLayout(spacing=6)
        self.tokens: list[TokenButton] = []
        for colour in Colour:
            column = BoxLayout(orientation="vertical", spacing=4)
            token = TokenButton(colour=colour, blank=True)
            self.tokens.append(token)
            column.add_widget(big_button("+", partial(self.change, colour, 1)))
            column.add_widget(token)
            column.add_widget(big_button("-", partial(self.change, colour, -1)))
            row.add_widget(column)
        self.body.add_widget(row)
        self.button(tr("Close"), self.dismiss)
        self.check_button = self.button(tr("Check"), self.check, background_color=theme.BUTTON_GO)
        self.update()

    def change(self, colour: Colour, step: int) -> None:
        now = self.counted[colour]
        self.counted[colour] = max(0, (now or 0) + step)
        self.update()

    def update(self) -> None:
        for colour, token in zip(Colour, self.tokens, strict=True):
            token.blank = self.counted[colour] is None
            token.count = self.counted[colour] or 0
        left = sum(1 for n in self.counted if n is None)
        self.check_button.disabled = left > 0
        self.message.color = theme.TEXT
        self.message.text = (
            tr("Tap + or - on each colour as you count its pile ({n} to count).").format(n=left)
            if left
            else ""
        )

    def check(self) -> None:
        try:
            result = self.session.audit(Tokens._make(n or 0 for n in self.counted))
        except StoreError as err:
            self.message.text = err.message
            return
        self.message.color = theme.OK if result.ok else theme.ERROR
        self.message.text = " ".join(result.lines())


class LogDialog(Dialog):
    """Every move of this game in words, newest first, with its round.

    The place where the full move log opens from the table (its own widget may replace
    this list's body).
    """

    def __init__(self, session: Session) -> None:
        super().__init__(tr("Moves of this game"))
        game = session.game
        n = len(game.names)
        lines = BoxLayout(orientation="vertical", size_hint_y=None, spacing=4)
        lines.bind(minimum_height=lines.setter("height"))
        for index in reversed(range(len(game.moves))):
            move = game.moves[index]
            text = (
                tr("Round {n}").format(n=index // n + 1)
                + ": "
                + describe(move, game.names[move.player])
            )
            lines.add_widget(wrapping_label(text, font=18))
        if not game.moves:
            lines.add_widget(wrapping_label(tr("No move yet."), font=18))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(lines)
        self.body.add_widget(scroll)
        self.button(tr("Back to the game"), self.dismiss)
