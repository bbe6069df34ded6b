"""What a screen may ask of the app, and nothing more.

Every screen is made with an :class:`AppContext`: the journal, the settings, the notices
of the start, the hardware if any, the lights and buzzer, and the ways to another screen.
:class:`ui.application.CompanionApp` is the one that implements it; a screen never reaches
the app's other members (its screen manager, its Kivy config, the other screens).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.engine.setup import Setup
from companion.journal.declaring import NewGame
from companion.journal.session import Session
from companion.journal.store import Store

if TYPE_CHECKING:
    from .devices import Devices

SeatLevels = list[str | None]
"""Per seat, the companion's level playing it (``None``: a person's seat)."""


class AppContext(Protocol):
    """The app as the screens see it."""

    # ------------------------------------------------------------------ state

    @property
    def store(self) -> Store:
        """The table's journal of games."""
        ...

    @property
    def notices(self) -> list[str]:
        """What the app said so far (a journal, a setting, the reader): the start screen
        shows them; the settings screen shows the ones a change brought."""
        ...

    @property
    def hardware(self) -> Devices | None:
        """The reader, buttons and lights, when they are wired (``None``: taps only)."""
        ...

    @property
    def hints(self) -> bool:
        """The affordable cards outlined (the "hints" setting)."""
        ...

    def setting(self, key: str) -> str:
        """A setting's value in use (the kiosk's, the file's, else its default)."""
        ...

    def change_setting(self, key: str, value: str) -> bool:
        """Keep ``value`` in the settings file and apply it at once; ``False``: it was
        the value already (nothing done)."""
        ...

    def toggle_hints(self) -> None: ...

    def feedback(self, accepted: bool) -> None:
        """A move accepted (the green light) or refused (the red one, a buzz)."""
        ...

    def when_stopping(self, callback: Callable[[], object]) -> None:
        """``callback`` when the app closes (a search to stop, a binding to undo)."""
        ...

    def export_to_media(self, folder: Path | None = None) -> tuple[bool, str]:
        """Every finished game to the USB stick: whether it went well, and what to say."""
        ...

    # ------------------------------------------------------------------ navigation

    def show_start(self) -> None: ...

    def show_new_game(self) -> None: ...

    def show_setup(
        self, draft: NewGame, levels: SeatLevels | None = None, suggest: bool = False
    ) -> None:
        """Place the nobles and the market of ``draft``; the companion's seats (none:
        every seat a person's) and the suggestions are kept until the game starts."""
        ...

    def start_game(self, setup: Setup) -> None: ...

    def resume(self, game_id: int, undo: bool = False) -> None: ...

    def show_end(self, session: Session) -> None: ...

    def show_history(self) -> None: ...

    def show_past_game(self, game_id: int) -> None: ...

    def show_enroll(self) -> None: ...

    def open_settings(self) -> bool: ...

    def close_settings(self) -> bool: ...
