"""The table's menu and what it opens: hints, the bank audit, settings."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.engine.tokens import Colour, Tokens
from companion.journal.session import Session
from companion.journal.store import StoreError

from ... import theme
from ...dialogs import Dialog
from ...i18n import tr
from ...widgets.buttons import big_button, then
from ...widgets.pieces import TokenButton

if TYPE_CHECKING:
    from ...context import AppContext


class MenuDialog(Dialog):
    def __init__(self, entries: list[tuple[str, Callable[[], object]]]) -> None:
        super().__init__(tr("Menu"))
        grid = GridLayout(cols=2, spacing=8)
        for text, action in entries:
            grid.add_widget(big_button(text, then(self.dismiss, action)))
        self.body.add_widget(grid)
        self.button(tr("Back to the game"), self.dismiss)


def table_menu(app: AppContext, audit: Callable[[], object]) -> MenuDialog:
    """The table's menu: hints on or off, the bank audit, the settings, leaving the game."""
    hints = tr("Hints: on") if app.hints else tr("Hints: off")
    return MenuDialog(
        [
            (hints, app.toggle_hints),
            (tr("Bank audit: count the bank"), audit),
            (tr("Settings"), app.open_settings),
            (tr("Leave the game (it is saved)"), app.show_start),
        ]
    )


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
