"""The final round, across the top of the table and of its dialogs until the game ends."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout

from companion.engine.game import Game
from companion.i18n import ngettext

from ... import theme
from ...i18n import tr
from ...scale import SCALE
from ...widgets.text import wrapping_label

TEXT = 17  # px at 800x480: above the board, read from the chairs


def final_round(game: Game, still: list[str]) -> str:
    """The banner's words: the leader, who still plays, how many turns are left ("" when
    it is not the final round)."""
    if not still:
        return ""
    leader = max(game.seats, key=lambda s: s.points)
    lead = tr("Final round: {name} has {points} points.").format(
        name=leader.name, points=leader.points
    )
    if len(still) == 1:
        rest = tr("{name} plays the last turn.").format(name=still[0])
    else:
        rest = tr("{names} and {last} still play:").format(
            names=", ".join(still[:-1]), last=still[-1]
        )
        rest += " " + ngettext("{n} turn left.", "{n} turns left.", len(still)).format(n=len(still))
    return f"{lead} {rest}"


Builder.load_string("""
#:import theme ui.theme

<Banner>:
    size_hint_y: None
    height: 0
    padding: [10, 2]
    canvas.before:
        Color:
            rgba: theme.BANNER
        Rectangle:
            pos: self.pos
            size: self.size
""")


class Banner(BoxLayout):
    """The final round, across the top until the game ends: who still plays, turns left.

    As tall as its wrapped words, so a long language never cuts it.
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.label = wrapping_label("", font=SCALE.font(TEXT), bold=True, color=theme.BANNER_TEXT)
        self.label.bind(height=self._fit)
        self.add_widget(self.label)
        SCALE.bind(unit=self._rescale)  # made at one size, shown at another (issue 34)

    def _rescale(self, *_: Any) -> None:
        self.label.font_size = SCALE.font(TEXT)

    def _fit(self, *_: Any) -> None:
        self.height = self.label.height + 4 if self.label.text else 0

    def show(self, text: str) -> None:
        self.label.text = text
        self.opacity = 1 if text else 0
        self._fit()
