"""A game at the table: the engine and its journal kept in step, with undo and redo.

This is what the app calls. A move is checked by the engine, committed to the journal,
and only then counted as played; if the journal cannot save it, the engine forgets it too.

>>> import tempfile, pathlib
>>> from companion.engine.setup import Setup
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> setup = Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"],
...                  ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"])
>>> session = Session.start(store, setup)
>>> print(session.play("take WUG"))
take WUG
>>> print(session.undo())
take WUG
>>> print(Session.resume(store, session.game_id).redo())
take WUG
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.setup import Setup
from ..engine.tokens import Colour, Tokens
from ..errors import IllegalMove
from ..i18n import translate
from ..records.record import Record
from .store import GameState, Store, StoreError


@dataclass(frozen=True, slots=True)
class BankAudit:
    """The bank the players counted against the bank the companion expects.

    It changes nothing: it tells the table where to look for the mistake.
    """

    expected: Tokens
    counted: Tokens

    @property
    def differences(self) -> dict[Colour, int]:
        """Counted minus expected, for each colour that differs."""
        return {
            c: self.counted[c] - self.expected[c]
            for c in Colour
            if self.counted[c] != self.expected[c]
        }

    @property
    def ok(self) -> bool:
        return self.counted == self.expected

    def lines(self) -> list[str]:
        """The differences in words, in the current language."""
        if self.ok:
            return [translate("The bank matches: nothing to correct.")]
        out = []
        for colour, diff in self.differences.items():
            template = (
                translate(
                    "{colour}: {n} more on the table than expected ({counted} counted, "
                    "{expected} expected)"
                )
                if diff > 0
                else translate(
                    "{colour}: {n} missing from the bank ({counted} counted, {expected} expected)"
                )
            )
            out.append(
                template.format(
                    colour=translate(colour.key),
                    n=abs(diff),
                    counted=self.counted[colour],
                    expected=self.expected[colour],
                )
            )
        return out


class Session:
    """One game being played: :attr:`game` for the questions, methods for the changes."""

    def __init__(self, store: Store, game_id: int, game: Game, undone: list[Move]) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        self._redo = undone[::-1]  # the next to redo is last

    @classmethod
    def start(cls, store: Store, setup: Setup, extra: dict[str, Any] | None = None) -> Session:
        """A new game under the setup's rules, journaled (with them) before it is returned."""
        game_id = store.create_game(setup, extra)
        return cls(store, game_id, Game(setup), [])

    @classmethod
    def resume(cls, store: Store, game_id: int) -> Session:
        """A game exactly where the journal left it, under its rules, undone moves ready to
        redo."""
        record = store.record(game_id)
        game = Game(record.setup)
        for number, move in enumerate(record.moves, start=1):
            try:
                game.push(move)
            except IllegalMove as err:
                raise StoreError(
                    "game {id} cannot be resumed: its move {n} is illegal ({reason})",
                    id=game_id,
                    n=number,
                    reason=err,  # said when read: in the language, and the words, of the reader
                ) from None
        return cls(store, game_id, game, store.undone(game_id))

    @property
    def record(self) -> Record:
        return self.store.record(self.game_id)

    # ------------------------------------------------------------------ changes

    def play(self, move: Move | str) -> Move:
        """Check and journal a move. Raises :class:`IllegalMove` or :class:`StoreError`;
        either way nothing changed."""
        move = self.game.push(move)
        try:
            number = len(self.game.moves)
            self.store.append_move(self.game_id, move, GameState.of(self.game), number)
        except StoreError:
            self.game.undo()
            raise
        self._redo.clear()
        return move

    @property
    def can_undo(self) -> bool:
        return bool(self.game.moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Move:
        """Take back the last move (journaled). ``IndexError`` when there is none."""
        move = self.game.undo()
        try:
            self.store.undo(self.game_id, GameState.of(self.game), len(self.game.moves) + 1)
        except StoreError:
            self.game.push(move)
            raise
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last undone move. ``IndexError`` when there is none."""
        if not self._redo:
            raise IndexError("no undone move to redo")
        move = self.game.push(self._redo[-1])
        try:
            self.store.redo(self.game_id, GameState.of(self.game), len(self.game.moves))
        except StoreError:
            self.game.undo()
            raise
        self._redo.pop()
        return move

    def audit(self, counted: Tokens) -> BankAudit:
        """Compare the bank the players counted with the companion's; journal the result."""
        result = BankAudit(self.game.bank, counted)
        self.store.log_event(
            self.game_id,
            "audit",
            {"expected": result.expected.to_map(), "counted": counted.to_map(), "ok": result.ok},
        )
        return result
