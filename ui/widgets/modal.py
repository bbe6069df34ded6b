"""A modal panel over the screen: the dialogs at the table, the setup's pickers and the
history's panels are each one."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from .. import theme
from ..layout import FollowsWindow


class ModalPanel(FollowsWindow, ModalView):
    """An opaque panel over a darkened screen, there or gone at once, that follows the
    window (:class:`ui.layout.FollowsWindow`: a subclass says how in :meth:`lay_out`).

    Its parts go in :attr:`box`, a vertical box on the panel's colour with ``radius``
    corners; ``shade`` is how dark the screen around it is (0 to 1)."""

    def __init__(
        self, size_hint: tuple[float, float], shade: float, radius: float, **kw: Any
    ) -> None:
        super().__init__(
            size_hint=size_hint,
            auto_dismiss=False,
            overlay_color=(0, 0, 0, shade),
            background_color=(0, 0, 0, 0),
            **kw,
        )
        self._anim_duration = 0  # at the table a panel is there or gone, at once
        self.box = BoxLayout(orientation="vertical")
        with self.box.canvas.before:  # opaque: the screen must not show through
            Color(*theme.PANEL)
            self._panel = RoundedRectangle(radius=[radius])
        self.box.bind(pos=self._place, size=self._place)
        self.add_widget(self.box)
        self.follow_window()

    def _place(self, *_: Any) -> None:
        self._panel.pos = self.box.pos
        self._panel.size = self.box.size
