"""Playing at the table as a person does, through taps on the real app: a whole move, a
card picked, what the app asks after an action; and the companion's move waited for."""

from __future__ import annotations

from companion.engine.moves import Move
from ui.taps import card_taps, finish_taps, move_taps

from .driver import Driver


def pick_card(d: Driver, card_id: str) -> None:
    """In an open card picker: the bonus colour, then the card (two taps)."""
    for widget in card_taps(d.app, card_id):
        d.tap(widget)


def finish_turn(d: Driver, move: Move) -> None:
    """Answer what the app asks after the action: reveal, returns, noble."""
    for widget in finish_taps(d.app, move):
        d.tap(widget)


def play_through_taps(d: Driver, move: Move) -> None:
    """A whole move made on the table as a player makes it, in the table's language
    (:func:`ui.taps.move_taps`): the action's taps, then what the app asks after it."""
    for widget in move_taps(d.app, move):
        d.tap(widget)


def shown_move(d: Driver) -> Move:
    """Let the app run until the companion's move is on its panel (bounded, not timed)."""
    table = d.app.table_screen
    for _ in range(400):
        if table.panel.move is not None and not table.panel.thinking:
            return table.panel.move
        if table.thinking is not None:
            table.thinking.wait(2)
        d.frames(1)
    raise AssertionError("the companion's move never appeared")
