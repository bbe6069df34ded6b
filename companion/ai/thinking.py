"""A decision made in a worker thread, so the screen stays alive while the companion thinks.

The hard level takes about a second on a Raspberry Pi 4: on the screen's thread that is a
frozen table and lost taps. A :class:`Thinking` decides on its own copy of the game (the
search pushes and undoes moves on it; the live game is never touched from the worker) and
remembers the position it was asked about, so an answer that arrives after an undo, a
new game or the end of the app is recognised as stale and dropped.

The move is the one the same decision gives on the caller's thread: the copy has the same
history, and the players' random streams depend on the seed and that history only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.game import Game
from ..engine.moves import Move
from .search import Stopped

# What to decide: the game (a copy) and a ``stop`` to ask now and then (give up when yes).
Decide = Callable[[Game, Callable[[], bool]], Move | None]


class Thinking:
    """One decision in a daemon thread; ``on_done`` is called from that thread once it has
    an answer, unless it was cancelled (the caller hands it to its own thread)."""

    def __init__(self, game: Game, decide: Decide, on_done: Callable[[Thinking], object]) -> None:
        self.position = tuple(game.moves)  # the history the answer is for
        self.move: Move | None = None
        self.error: Exception | None = None
        self._game = game.copy()
        self._decide = decide
        self._on_done = on_done
        self._cancelled = threading.Event()
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, name="companion-thinks", daemon=True)

    def start(self) -> Thinking:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.move = self._decide(self._game, self._cancelled.is_set)
        except Stopped:
            pass
        except Exception as err:
            self.error = err
        self._finished.set()
        if not self._cancelled.is_set():
            self._on_done(self)

    def cancel(self) -> None:
        """The answer is no longer wanted: the search gives up, ``on_done`` is not called."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the answer is there (tests and the command line); True once it is."""
        return self._finished.wait(timeout)

    def answers(self, game: Game) -> bool:
        """The answer is for ``game`` as it stands now (not cancelled, same history)."""
        return not self.cancelled and tuple(game.moves) == self.position
