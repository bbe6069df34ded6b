"""Undo and redo of the journal's last move, each said in words ("Undone: ...") where the
eyes are; a refusal (nothing to undo, the journal failing) said instead, nothing lost."""

from __future__ import annotations

from collections.abc import Callable

from companion.errors import IllegalMove
from companion.journal.store import StoreError
from companion.records.movelog import tell
from companion.records.timeline import last_step

from ...i18n import tr
from .parts import Table


class UndoRedo:
    """``over``: a redo that ends the game (the end screen shows)."""

    def __init__(self, table: Table, over: Callable[[], None]) -> None:
        self.table = table
        self.over = over

    def undo(self) -> None:
        table, session = self.table, self.table.session
        assert session is not None
        if table.turn is not None:
            table.turn.cancel()
        try:
            told = tell(last_step(table.game))  # said before it is gone
            session.undo()
        except (IndexError, StoreError) as err:
            table.refresh(getattr(err, "message", str(err)), error=True)
            return
        table.refresh(tr("Undone: {move}").format(move=told))

    def redo(self) -> None:
        table, session = self.table, self.table.session
        assert session is not None
        try:
            session.redo()
        except (IndexError, StoreError, IllegalMove) as err:
            table.refresh(getattr(err, "message", str(err)), error=True)
            return
        if table.game.over:
            self.over()
            return
        table.refresh(tr("Redone: {move}").format(move=tell(last_step(table.game))))
