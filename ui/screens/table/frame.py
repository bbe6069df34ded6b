"""The table's parts in their places for the window's shape: landscape, the board on the
left and the action column on the right; portrait, the board on top and the column below
it. The final round's banner is above the board: across the top in portrait, over the
board alone in landscape, so it takes none of the players' room (issue 34: it shrank the
active player's counts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from ...scale import SCALE
from .banner import Banner
from .side import ActionColumn


class TableFrame(FloatLayout):
    """Laid out again on every resize and rotation (:meth:`arrange`): nothing is rebuilt,
    the turn in progress is kept. ``arranged``: the parts' sizes changed, draw them again."""

    def __init__(
        self,
        banner: Banner,
        board: Widget,
        side: ActionColumn,
        arranged: Callable[[], None],
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.board = board
        self.side = side
        self.arranged = arranged
        self._arranged = self._stale = False  # laid out once; the window changed since
        self.root_box = BoxLayout()
        self.left = BoxLayout(orientation="vertical")  # the banner over the board
        self.left.add_widget(banner)
        self.left.add_widget(board)
        self.root_box.add_widget(self.left)
        self.root_box.add_widget(side)
        self.add_widget(self.root_box)
        self.arrange()
        SCALE.bind(unit=self.arrange, portrait=self.arrange)

    def catch_up(self) -> None:
        """About to be shown: laid out again if the window changed while another screen
        showed."""
        if self._stale:
            self.arrange()

    def arrange(self, *_: object) -> None:
        """The table for the window's shape. Not showing, the table waits to be shown: a
        rotation made from the settings lays it out once, not at every step of the
        window's resize."""
        if self.get_root_window() is None and self._arranged:
            self._stale = True
            return
        self._stale, self._arranged = False, True
        portrait = SCALE.portrait
        gap = SCALE.px(6)
        self.root_box.orientation = "vertical" if portrait else "horizontal"
        self.root_box.spacing = gap
        self.root_box.padding = gap
        # A small screen gives its players' column more of the width: six piles and the
        # buttons a finger can hit.
        side = 0.52 if SCALE.small else 0.43
        self.left.size_hint = (1, 0.42) if portrait else (1 - side, 1)
        self.side.size_hint = (1, 0.58) if portrait else (side, 1)
        self.side.arrange()
        self.arranged()
