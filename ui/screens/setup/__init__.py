"""The setup screen: the nobles and the market as dealt, placed one by one, and the pickers
that choose them (``pickers.py``: a level's cards, a bonus colour first; the nobles)."""

from .screen import SetupScreen

__all__ = ["SetupScreen"]
