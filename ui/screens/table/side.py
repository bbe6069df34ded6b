"""The table's action column (on the right; below the board in portrait): the bank, the
take bar (or a move docked in its place), the players, and the buttons' bar."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from ...i18n import tr
from ...scale import SCALE
from ...widgets.buttons import big_button
from ...widgets.text import widest_word
from .players import LINE, ROOM, PlayersColumn, full_least, line_least
from .tally import grid_least

PANEL_MOST = 190  # px at 800x480: a docked move's pictures need no more


class ButtonBar(BoxLayout):
    """Undo, Redo, Moves (where the move log opens: "did I already take that?") and Menu.
    Suggest, for a person's seat when the game's setting is on, is made here and shown in
    the take bar beside whose turn it is (:meth:`.bank.TakeBar.show`): five buttons in
    the bar broke their words in Italian and Portuguese (issue 34)."""

    def __init__(
        self,
        undo: Callable[[], object],
        redo: Callable[[], object],
        log: Callable[[], object],
        menu: Callable[[], object],
        suggest: Callable[[], object],
        **kw: Any,
    ) -> None:
        super().__init__(size_hint_y=None, spacing=4, **kw)
        self.undo_button = big_button(tr("Undo"), undo)
        self.redo_button = big_button(tr("Redo"), redo)
        self.log_button = big_button(tr("Moves"), log)
        self.menu_button = big_button(tr("Menu"), menu)
        for button in (self.undo_button, self.redo_button, self.log_button, self.menu_button):
            self.add_widget(button)
        self.suggest_button = big_button(tr("Suggest"), suggest)
        # Five buttons share a narrow bar: each is as wide as its longest word asks, so
        # "Menu" gives room to "Suggérer" and no word is broken.
        for button in self.buttons:
            button.bind(text=_widen)
            _widen(button)

    @property
    def buttons(self) -> tuple[Button, ...]:
        return (
            self.undo_button,
            self.redo_button,
            self.log_button,
            self.menu_button,
            self.suggest_button,
        )

    def arrange(self) -> None:
        self.height = SCALE.target(50)
        for button in self.buttons:
            _widen(button)

    def show(self, can_undo: bool, can_redo: bool, suggest: bool) -> None:
        # The language may have changed in the settings since the buttons were made.
        for button, word in zip(
            self.buttons,
            (tr("Undo"), tr("Redo"), tr("Moves"), tr("Menu"), tr("Suggest")),
            strict=True,
        ):
            button.text = word
        self.undo_button.disabled = not can_undo
        self.redo_button.disabled = not can_redo
        self.suggesting = suggest  # the take bar shows the button (see the class)


def _widen(button: Button, *_: object) -> None:
    """A button's share of its bar: its widest word as drawn (bold, 18 px), plus margins."""
    button.size_hint_x = widest_word(button.text, 18) + 14


class ActionColumn(BoxLayout):
    """The bank, the take bar, the players and the buttons, top to bottom; a move shown
    by the companion (or suggested) is docked in the take bar's place (:meth:`dock`)."""

    def __init__(
        self,
        bank_row: Widget,
        take_bar: Widget,
        players: PlayersColumn,
        notice: Widget,
        buttons: ButtonBar,
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=4, **kw)
        self.bank_row = bank_row
        self.take_bar = take_bar
        self.players = players
        self.buttons = buttons
        self.notice = notice
        self.docked: Widget | None = None
        self.seats = 1  # players at the table: the room the docked move leaves them
        # The table's line (a refusal, a hint, the move just made) under the take bar: it
        # takes its room from the players while it shows, and covers nothing.
        for widget in (bank_row, take_bar, notice, players, buttons):
            self.add_widget(widget)
        self.bind(height=self.share)
        notice.bind(height=self.share)

    def arrange(self) -> None:
        # Closer on the 3.5-inch screen: its players' grid under the player in full needs
        # every pixel (4 px elsewhere).
        self.spacing = min(4.0, SCALE.px(4))
        self.bank_row.height = SCALE.target(56)
        self.take_bar.height = SCALE.target(48)
        self.buttons.arrange()

    def dock(self, widget: Widget | None) -> None:
        """``widget`` in the take bar's place (``None``: the take bar back); the players
        are then shown compact (:class:`PlayersColumn`)."""
        current = self.docked or self.take_bar
        wanted = widget or self.take_bar
        if current is not wanted:
            index = self.children.index(current)
            self.remove_widget(current)
            self.add_widget(wanted, index=index)
        self.docked = widget
        self.share()

    def share(self, *_: object) -> None:
        """The column's heights: the bank, the take bar and the buttons have their own;
        docked, the move takes what the players leave of the rest (two players: the one
        to act in full, the other a line; more: a line each, so every player's holdings
        stay in view; the 3.5-inch screen: the one to act a line, the others one), up
        to what its pictures need; the players have all that is left."""
        docked = self.docked
        if docked is None:
            return
        n = max(1, self.seats)
        column = max(1.0, float(self.height))
        fixed = self.bank_row.height + self.buttons.height + self.notice.height
        fixed += self.spacing * 4
        if SCALE.portrait:
            rows = (n + 1) // 2
            least = rows * (full_least() + self.spacing)
        elif SCALE.small and n > 2:  # the grid: a row for every player (.tally)
            least = grid_least(n) + self.spacing
        elif SCALE.small:  # two players: a line each
            least = SCALE.target(LINE) * 2 + self.spacing * 2
        elif n > 2:  # a line for every player (PlayersColumn)
            least = n * (line_least() + self.spacing)
        else:  # two players: the player to act in full, the other a line
            least = SCALE.px(ROOM * 0.8) + SCALE.target(LINE) + self.spacing
        docked.size_hint_y = None
        # The 3.5-inch screen: every pixel the lines leave (its sentence takes two or
        # three lines there, and the pictures need their own room).
        most = column if SCALE.small else SCALE.px(PANEL_MOST)
        docked.height = max(SCALE.px(110), min(most, column - fixed - least))
