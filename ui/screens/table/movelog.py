"""The move log: every move of this game in words, with small pictures, newest first.

At a real table the question is "did I already take that?": each line says who did what
(``Ada buys a blue level-1 card (2 points), pays 2 red``), in which round, the card or the
tokens as small pictures, and the game clock: how long that turn took and the game's time
when it was played (breaks left out, as in the exports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.engine.moves import Reserve, Take
from companion.engine.tokens import Colour
from companion.records.movelog import LogEntry, move_log
from companion.records.playtime import clock_text, move_times
from companion.records.record import Record

from ... import theme
from ...cardface import CardFace
from ...dialogs import Dialog
from ...i18n import tr
from ...layout import fit_row, gap, grow_label
from ...scale import SCALE
from ...widgets.drawing import draw_gem

if TYPE_CHECKING:
    from companion.journal.session import Session


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
            draw_gem(self.canvas, colour, x + i * d, self.center_y - d / 2, d * 0.92, letter=True)


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
        self.entries = entries
        self.moves = record.moves
        # A steady bar (no fade): it says there is more below, and pictures are repeatable.
        steady = (0.7, 0.7, 0.7, 0.9)
        self.scroll = ScrollView(do_scroll_x=False, bar_color=steady, bar_inactive_color=steady)
        # One list for the dialog's life, its lines made again at each layout: Kivy's
        # ScrollView keeps following a list it no longer shows until that list is
        # collected, and scrolled far past its end after a rotation when it was replaced.
        self.lines = BoxLayout(orientation="vertical", size_hint_y=None, padding=[0, 2])
        self.lines.bind(minimum_height=self.lines.setter("height"))
        self.scroll.add_widget(self.lines)
        self.body.add_widget(self.scroll)
        self.button(tr("Close"), self.dismiss)
        self.fill()

    def lay_out(self) -> None:
        super().lay_out()
        self.fill()

    def fill(self) -> None:
        """A line a move: in landscape its round, picture, words and times side by side;
        in portrait the round and times above the picture and the words."""
        self.scroll.bar_width = gap(8)
        self.lines.spacing = gap(4)
        self.lines.clear_widgets()
        if not self.entries:
            self.lines.add_widget(grow_label(tr("No move yet."), font=20, halign="center"))
        for entry in self.entries:
            self.lines.add_widget(self._line(entry, self.moves[entry.number - 1]))

    def _line(self, entry: LogEntry, move: Any) -> BoxLayout:
        when = tr("Round {n}").format(n=entry.round)
        clock = ""
        if entry.time is not None:
            clock = tr("{turn} turn\n{time} into the game").format(
                turn=clock_text(entry.time.turn), time=clock_text(entry.time.elapsed)
            )
        picture = _picture(entry, move, max(44.0, SCALE.px(58)))
        words = grow_label(entry.words, font=17)
        side = gap(14)  # clear of the scroll bar
        if SCALE.portrait:
            line = BoxLayout(
                orientation="vertical", spacing=gap(2), size_hint_y=None, padding=[4, 2, side, 2]
            )
            head = BoxLayout(size_hint_y=None, spacing=gap(8))
            round_label = grow_label(when, font=16, color=theme.TEXT_DIM)
            head.add_widget(round_label)
            times = grow_label(
                clock.replace("\n", " · "), font=16, halign="right", color=theme.TEXT_DIM
            )
            head.add_widget(times)
            fit_row(head, round_label, times)
            main = BoxLayout(size_hint_y=None, spacing=gap(8))
            main.add_widget(picture)
            main.add_widget(words)
            fit_row(main, words, least=picture.height)
            line.add_widget(head)
            line.add_widget(main)
            line.bind(minimum_height=line.setter("height"))
            return line
        line = BoxLayout(spacing=gap(8), size_hint_y=None, padding=[4, 2, side, 2])
        round_label = grow_label(
            when, font=16, size_hint_x=None, width=SCALE.px(96), color=theme.TEXT_DIM
        )
        line.add_widget(round_label)
        line.add_widget(picture)
        line.add_widget(words)
        labels = [round_label, words]
        if clock:
            times = grow_label(
                clock,
                font=16,
                size_hint_x=None,
                width=SCALE.px(118),
                halign="right",
                color=theme.TEXT_DIM,
            )
            line.add_widget(times)
            labels.append(times)
        fit_row(line, *labels, least=picture.height)
        return line
