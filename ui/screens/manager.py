"""The app's screens, each made the first time it is asked for.

A kiosk starts on its start screen: the table, the review, the statistics and the rest
are made when first shown (or first named by the app), not at start-up, where a small Pi
would spend its time on screens an evening may never open (docs/speed.md has the start's
figures). Once made, a screen stays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar, cast

from kivy.uix.screenmanager import Screen, ScreenManager

S = TypeVar("S", bound=Screen)


class Screens(ScreenManager):
    """A :class:`ScreenManager` that makes each screen of ``makers`` (its name -> a
    function making it) when it is first asked for: :meth:`get_screen`, which Kivy also
    calls to show one (``current = name``). Its ``screens`` are the ones made so far."""

    def __init__(self, makers: Mapping[str, Callable[[], Screen]], **kw: Any) -> None:
        super().__init__(**kw)
        self._makers = dict(makers)

    def get_screen(self, name: str) -> Any:
        make = self._makers.pop(name, None)
        if make is None:
            return super().get_screen(name)
        screen = make()
        if screen.name != name:  # a maker filed under the wrong name: a bug, said plainly
            raise ValueError(f"the screen made for {name!r} is named {screen.name!r}")
        self.add_widget(screen)
        return screen

    def has_screen(self, name: str) -> bool:
        return name in self._makers or bool(super().has_screen(name))


class _Managed(Protocol):
    manager: Screens


class Shown(Generic[S]):
    """An app's screen by its name, made when first asked for: ``table_screen =
    Shown("table", TableScreen)`` on the app reads ``self.manager.get_screen("table")``,
    typed."""

    def __init__(self, name: str, kind: type[S]) -> None:
        self.name, self.kind = name, kind

    def __get__(self, app: _Managed, owner: object = None) -> S:
        return cast(S, app.manager.get_screen(self.name))
