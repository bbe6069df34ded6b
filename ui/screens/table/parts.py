"""What a part of the table screen may ask of the screen, and nothing more.

The table screen (:mod:`.screen`) is made of parts that each own their widgets: the board,
the bank and take bar, the players, the buttons, the banner, the notice, the turn's steps
(:mod:`.steps`) and the companion's seat (:mod:`.seat`). A part that needs the game in
play, or to say something, or to open a dialog, is handed a :class:`Table` when it is
made, and callables for anything more particular; no part reaches into another.
"""

from __future__ import annotations

from typing import Protocol

from companion.engine.game import Game
from companion.errors import CompanionError
from companion.journal.declaring import Turn
from companion.journal.session import Session

from ...dialogs import Dialog


class Table(Protocol):
    """The table screen as its parts see it."""

    @property
    def session(self) -> Session | None:
        """The game's journal: its moves, undo and redo (``None``: no game yet)."""
        ...

    @property
    def game(self) -> Game:
        """The game in play (only asked while one is)."""
        ...

    @property
    def turn(self) -> Turn | None:
        """The turn in progress: tokens chosen, payment, steps due (``None``: no game)."""
        ...

    @property
    def playing(self) -> bool:
        """A game is on the table and not over."""
        ...

    @property
    def dialog(self) -> Dialog | None:
        """The dialog open over the table, if any."""
        ...

    def refresh(self, message: str = "", error: bool = False) -> None:
        """Everything drawn again from the engine's state, with ``message`` said."""
        ...

    def say(self, message: str, error: bool = False) -> None:
        """``message`` where the eyes are, until the next tap."""
        ...

    def refuse(self, err: CompanionError) -> None:
        """A refused tap or move: the red light, and why, in words."""
        ...

    def open_dialog(self, dialog: Dialog) -> None:
        """``dialog`` over the table (in the place of any other)."""
        ...
