"""The table during play, one part a file, each owning its widgets: the board (nobles,
market, decks), the bank and the take being chosen, the action column and its buttons,
the players, the banner, the notice, the frame that places them for the window, the
turn's steps, the companion's seat and its docked move panel, the dialogs a card opens,
undo and redo, the menu, the move log, and the words.

The screen (``screen.py``) makes the parts and hands each what it needs: the narrow
:class:`~.parts.Table` interface, and callables; no part reaches into another. What is
left to the screen is the composition and the turn's wiring: which tap may start a move,
the refresh after it, the game's end."""

from .screen import TableScreen

__all__ = ["TableScreen"]
