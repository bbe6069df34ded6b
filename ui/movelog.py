"""The move log: every move of this game in words, with small pictures, newest first.

At a real table the question is "did I already take that?": each line says who did what
(``Ada buys a blue level-1 card (2 points), pays 2 red``), in which round, the card or the
tokens as small pictures, and the game clock: how long that turn took and the game's time
when it was played (breaks left out, as in the exports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.movelog import LogEntry, move_log
from companion.moves import Reserve, Take
from companion.playtime import clock_text, move_times
from companion.record import Record
from companion.tokens import Colour

from . import theme
from .cardface import SMALLEST_TEXT, CardFace, draw_gem
from .dialogs import Dialog
from .i18n import tr
from .widgets import text_label

if TYPE_CHECKING:
    from companion.session import Session


class GemsFace(Widget):
    """Tokens as gems, one per token, each with its letter (a take of 2 red: two R)."""

    def __init__(self, counts: list[int], **kw: Any) -> None:
        super().__init__(**kw)
        self.gems = [Colour(i) for i, n in enumerate(counts) for _ in range(n)]
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        if not self.gems:
            return
        d = min(self.height * 0.7, self.width / len(self.gems) * 0.98)
        x = self.x + (self.width - d * len(self.gems)) / 2
        for i, colour in enumerate(self.gems):
            draw_gem(self.canvas, colour, x + i * d, self.center_y - d / 2, d * 0.92)


def _picture(entry: LogEntry, move: Any, height: float) -> Widget:
    width = height * 1.9
    if entry.card is not None:
        return CardFace(card=entry.card, size_hint=(None, None), size=(width, height))
    if isinstance(move, Take):
        return GemsFace(list(move.gems), size_hint=(None, None), size=(width, height))
    if isinstance(move, Reserve):  # blind: the deck's back
        return CardFace(deck=move.deck or 0, size_hint=(None, None), size=(width, height))
    return Widget(size_hint=(None, None), size=(width, height))


class MoveLog(Dialog):
    """The log of ``record``, the newest move on top, over (almost) the whole screen.

    A :class:`Dialog` like the table's others, so the table opens it the same way (the
    final-round banner, a refusal's message) and Close sits where Cancel does.
    """

    @classmethod
    def of(cls, session: Session) -> MoveLog:
        """The log of the game at the table, with the times from its journal."""
        return cls(session.store.record(session.game_id, with_journal=True))

    def __init__(self, record: Record) -> None:
        entries = move_log(record)
        times = move_times(record)
        title = tr("Moves so far: {n}").format(n=len(entries))
        if times:
            title += "  ·  " + tr("game time {time}").format(
                time=clock_text(times[max(times)].elapsed)
            )
        super().__init__(title)
        self.size_hint = (0.98, 0.97)  # the log needs the room; the table is a tap away
        unit = max(44.0, Window.height * 0.1)
        font = max(SMALLEST_TEXT + 2, Window.height * 0.036)
        # The message line takes room only when there is something to say.
        self.message.size_hint_y = None
        self.message.height = 0
        self.message.bind(text=lambda w, t: setattr(w, "height", unit * 0.8 if t else 0))
        self.buttons.size_hint_y = None
        self.buttons.height = unit
        self.lines = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None, padding=[0, 2])
        self.lines.bind(minimum_height=self.lines.setter("height"))
        moves = record.moves
        if not entries:
            self.lines.add_widget(
                text_label(tr("No move yet."), scale=0.4, size_hint_y=None, height=unit)
            )
        for entry in entries:
            self.lines.add_widget(self._line(entry, moves[entry.number - 1], unit, font))
        # A steady bar (no fade): it says there is more below, and pictures are repeatable.
        steady = (0.7, 0.7, 0.7, 0.9)
        scroll = ScrollView(
            do_scroll_x=False, bar_width=8, bar_color=steady, bar_inactive_color=steady
        )
        scroll.add_widget(self.lines)
        self.body.add_widget(scroll)
        self.button(tr("Close"), self.dismiss)

    def _line(self, entry: LogEntry, move: Any, unit: float, font: float) -> BoxLayout:
        line = BoxLayout(spacing=8, size_hint_y=None, height=unit * 1.4, padding=[4, 2, 14, 2])
        when = tr("Round {n}").format(n=entry.round)
        line.add_widget(
            Label(
                text=when,
                font_size=font,
                size_hint_x=None,
                width=unit * 2.1,
                color=theme.TEXT_DIM,
                halign="left",
                valign="middle",
                text_size=(unit * 2.1, None),
            )
        )
        line.add_widget(_picture(entry, move, unit * 1.3))
        words = Label(text=entry.words, font_size=font, halign="left", valign="middle")
        words.bind(size=lambda w, s: setattr(w, "text_size", s))
        line.add_widget(words)
        if entry.time is not None:
            clock = Label(
                text=tr("{turn} turn\nat {time}").format(
                    turn=clock_text(entry.time.turn), time=clock_text(entry.time.elapsed)
                ),
                font_size=font,
                size_hint_x=None,
                width=unit * 2.7,
                color=theme.TEXT_DIM,
                halign="right",
                valign="middle",
                text_size=(unit * 2.5, None),
            )
            line.add_widget(clock)
        return line
