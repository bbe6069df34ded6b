"""The table during play, one part a file: the board (nobles, market, decks), the bank and
the take being chosen, the players, the dialogs of a turn, the menu, and the words."""

from .screen import TableScreen

__all__ = ["TableScreen"]
