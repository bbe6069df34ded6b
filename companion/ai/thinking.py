"""A decision made in a worker thread, so the screen stays alive while the companion thinks.

The hard level takes about a second on a Raspberry Pi 4: on the screen's thread that is a
frozen table and lost taps. A :class:`Thinking` decides on its own copy of the game (the
search pushes and undoes moves on it; the live game is never touched from the worker) and
remembers the position it was asked about, so an answer that arrives after an undo, a
new game or the end of the app is recognised as stale and dropped.

The move is the one the same decision gives on the caller's thread: the copy has the same
history, and the players' random streams depend on the seed and that history only.

The thread's part (start, stop, the error kept, ``on_done``) is :class:`Worker`, which the
review of a game in the background (:class:`companion.coach.review.Reviewing`) shares.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Self

from ..engine.game import Game
from ..engine.moves import Move
from .search import Stopped

# What to decide: the game (a copy) and a ``stop`` to ask now and then (give up when yes).
Decide = Callable[[Game, Callable[[], bool]], Move | None]


class Worker:
    """Work done in a daemon thread, so the screen stays alive meanwhile. The work is handed a
    ``stop`` to ask now and then, and gives up (raises :class:`Stopped`) when it says yes.
    ``on_done`` is called from that thread once the work is over (its result kept, or its
    :attr:`error`), unless :meth:`stop` was called first; the caller hands it to its own
    thread."""

    def __init__(self, name: str, on_done: Callable[[Self], object]) -> None:
        self.error: Exception | None = None
        self._on_done = on_done
        self._stopped = threading.Event()
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> Self:
        self._thread.start()
        return self

    def work(self, stop: Callable[[], bool]) -> None:
        """The work itself, in the thread; it keeps its result on ``self``."""
        raise NotImplementedError

    def _run(self: Self) -> None:
        try:
            self.work(self._stopped.is_set)
        except Stopped:
            pass
        except Exception as err:  # said on the screen, not lost in a thread
            self.error = err
        self._finished.set()
        if not self._stopped.is_set():
            self._on_done(self)

    def stop(self) -> None:
        """The result is no longer wanted: the work gives up, ``on_done`` is not called."""
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work is over (tests and the command line); True once it is."""
        return self._finished.wait(timeout)


class Thinking(Worker):
    """One decision in a daemon thread (a :class:`Worker`): ``on_done`` is called once it
    has an answer, unless it was cancelled."""

    def __init__(self, game: Game, decide: Decide, on_done: Callable[[Thinking], object]) -> None:
        super().__init__("companion-thinks", on_done)
        self.position = tuple(game.moves)  # the history the answer is for
        self.move: Move | None = None
        self._game = game.copy()
        self._decide = decide

    def work(self, stop: Callable[[], bool]) -> None:
        self.move = self._decide(self._game, stop)

    def cancel(self) -> None:
        """The answer is no longer wanted: the search gives up, ``on_done`` is not called."""
        self.stop()

    @property
    def cancelled(self) -> bool:
        return self.stopped

    def answers(self, game: Game) -> bool:
        """The answer is for ``game`` as it stands now (not cancelled, same history)."""
        return not self.cancelled and tuple(game.moves) == self.position
