"""A box framed as the table's floating parts are: the active panel's colour with a rounded
outline (the companion's move panel, a refusal's notice)."""

from __future__ import annotations

from kivy.lang import Builder
from kivy.properties import ColorProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout

from .. import theme

Builder.load_string("""
#:import theme ui.theme

<FramedBox>:
    canvas.before:
        Color:
            rgba: theme.PANEL_ACTIVE
        RoundedRectangle:
            pos: self.pos
            size: self.size
            radius: [8]
        Color:
            rgba: self.frame_colour
        Line:
            width: self.frame_width
            rounded_rectangle: (self.x + 1, self.y + 1, self.width - 2, self.height - 2, 8)
""")


class FramedBox(BoxLayout):
    """A box layout on the active panel's colour, outlined in ``frame_colour``."""

    frame_colour = ColorProperty(theme.ACCENT)
    frame_width = NumericProperty(1.5)
