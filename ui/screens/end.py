"""The end of a game (or a past game): standings with the tie-break, the points chart, and
the QR code that logs the play in BG Stats."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.i18n import ngettext
from companion.journal.seats import seat_titles
from companion.journal.store import StoreError
from companion.records.playtime import clock_text, move_times
from companion.records.record import Record, replay
from companion.records.timeline import points_by_round
from companion.reports import bgstats
from companion.reports.export import verdict

from .. import theme
from ..chart import PointsChart
from ..i18n import tr
from ..layout import Shaped, button, fit_label, gap, grow_label, row_height
from ..qr import QRCode, enlarge
from ..scale import SCALE
from ..webaddress import HEIGHT as WEB_HEIGHT
from ..webaddress import WebAddress, address

if TYPE_CHECKING:
    from ..context import AppContext


class EndScreen(Shaped):
    """Landscape: the standings and the chart on the left, the BG Stats code on the right,
    the buttons below. Portrait: the standings, the chart, then the code beside its
    caption, the buttons two by two."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="end", **kw)
        self.app = app
        self.record: Record | None = None
        self.game_id: int | None = None
        self.from_history = False
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)
        self.message = grow_label("")

    def show(self, game_id: int, record: Record, from_history: bool = False) -> None:
        self.game_id = game_id
        self.record = record
        with suppress(StoreError):  # the table's log, for the game's length
            self.record = self.app.store.record(game_id, with_journal=True)
        self.from_history = from_history
        self.message = grow_label("")
        self.refresh()

    def refresh(self) -> None:
        record = self.record
        if record is None:
            return
        box = self.box
        box.clear_widgets()
        box.padding = gap(8)
        box.spacing = gap(8)
        said = (self.message.text, self.message.color)
        left = BoxLayout(orientation="vertical", spacing=gap(3), size_hint_y=None)
        lines, verdict_lines = self.standings(record), self.verdict(record)
        # Who won, first and largest: the sentence the table looks for.
        for line in verdict_lines:
            left.add_widget(grow_label(line, font=26, bold=True, color=theme.ACCENT))
        left.add_widget(grow_label(tr("Final standings"), font=18, bold=True))
        for line in lines:
            left.add_widget(grow_label(line, font=16))
        titles = seat_titles(record.players, record.extra)
        self.chart = PointsChart(
            rounds=points_by_round(record), names=titles, goal=record.rules.winning_points
        )
        left.add_widget(self.chart)
        self.message = grow_label(said[0], font=17, color=said[1])
        left.add_widget(self.message)
        url = address(self.app.setting("web") != "0")  # the table's web page, where it is served
        if SCALE.portrait:
            # The standings and the chart scroll if need be; the codes and the buttons stay
            # in view below them, whole (a phone reads a code only whole).
            box.add_widget(self._scrolled(left))
            box.add_widget(self._bgstats_panel(SCALE.width * 0.5, SCALE.width, beside=True))
            if url:
                box.add_widget(WebAddress(url))
        else:
            middle = BoxLayout(spacing=gap(8))
            middle.add_widget(self._scrolled(left))
            # The code as tall as the screen allows (less on a 3.5-inch screen, where the
            # standings and the chart need the width).
            room = SCALE.height - 2 * gap(8) - gap(8) - row_height(52) - SCALE.font(16) * 3
            if url:
                room -= row_height(WEB_HEIGHT) + gap(8)
            side = min(SCALE.height * (0.5 if SCALE.small else 0.64), SCALE.width * 0.4, room)
            middle.add_widget(self._bgstats_panel(side, min(room, SCALE.width * 0.45)))
            box.add_widget(middle)
            if url:
                box.add_widget(WebAddress(url))
        bar = GridLayout(cols=2 if SCALE.portrait else 5, spacing=gap(6), size_hint_y=None)
        bar.row_force_default = True
        bar.row_default_height = row_height(52)
        bar.bind(minimum_height=bar.setter("height"))
        if self.from_history:
            bar.add_widget(button(tr("Back"), self.app.show_history))
            bar.add_widget(button(tr("Move by move"), self.review))
        else:
            bar.add_widget(button(tr("Undo the last move"), self.undo_last))
            bar.add_widget(button(tr("New game"), self.app.show_new_game))
        bar.add_widget(button(tr("Game review"), self.analyse))
        bar.add_widget(button(tr("Export to USB"), self.export))
        bar.add_widget(button(tr("Home"), self.app.show_start))
        box.add_widget(bar)

    def _scrolled(self, column: BoxLayout) -> ScrollView:
        """``column`` in a view of its own: the chart takes the room the rest leaves, and
        never less than it needs to be read; where that is more than the window has (a
        3.5-inch screen), the column scrolls."""
        view = ScrollView(do_scroll_x=False, bar_width=gap(4))
        least = SCALE.font(18) * 12  # the legend, the axes and a plot to read

        def fit(*_: Any) -> None:
            rest = [w.height for w in column.children if w is not self.chart]
            inside = sum(rest) + column.spacing * (len(column.children) - 1)
            self.chart.size_hint_y = None
            self.chart.height = max(least, view.height - inside)
            column.height = inside + self.chart.height

        view.bind(height=fit)
        for part in column.children:
            if part is not self.chart:
                part.bind(height=fit)
        view.add_widget(column)
        fit()
        return view

    @staticmethod
    def verdict(record: Record) -> list[str]:
        """Who won and why (the tie-break), in words: no ids."""
        game = replay(record).game
        return verdict(game)[len(game.standings()) :]

    @staticmethod
    def standings(record: Record) -> list[str]:
        """The standings in words (nobles counted, not named by id), then the game's time;
        the companion's seats with the level it played at, as the history says them."""
        game = replay(record).game
        ranked = game.standings()
        title = dict(zip(record.players, seat_titles(record.players, record.extra), strict=True))
        lines = [
            ", ".join(
                (
                    tr("{rank}. {player}").format(rank=s.rank, player=title[s.player]),
                    ngettext("{n} point", "{n} points", s.points).format(n=s.points),
                    ngettext("{n} card", "{n} cards", s.cards).format(n=s.cards),
                    ngettext("{n} noble", "{n} nobles", len(s.nobles)).format(n=len(s.nobles)),
                )
            )
            for s in ranked
        ]
        times = move_times(record)
        if times:
            lines.append(
                tr("Played for {time} (breaks left out)").format(
                    time=clock_text(times[max(times)].elapsed)
                )
            )
        return lines

    def _bgstats_panel(self, side: float, most: float, beside: bool = False) -> BoxLayout:
        """The play as a QR code ``side`` pixels a side, its caption below it (``beside``:
        to its right); a tap shows the code larger. A code that would not read at ``side``
        grows to the least side at which it reads, up to ``most``; past that, its place is
        a button that shows it over the whole screen (``ui/qr.py``)."""
        assert self.game_id is not None
        self.link = bgstats.link(bgstats.stored_play(self.app.store, self.game_id))
        self.qr = QRCode(text=self.link, size_hint=(None, None))
        least = self.qr.least_side()
        side = max(side, least) if least <= most else side
        self.qr.size = (side, side)
        said = tr("Scan with a phone to log this play in BG Stats. Tap the code to enlarge it.")
        if least > side:  # a button, as wide as the code's place and a row tall
            self.qr.height = row_height(56)
            said = tr("Show the code, then scan it with a phone to log this play in BG Stats.")
        else:
            self.qr.bind(on_release=lambda *_: self.enlarge())
        panel = BoxLayout(orientation="horizontal" if beside else "vertical", spacing=gap(6))
        if beside:
            panel.size_hint_y = None
            panel.height = self.qr.height
        else:
            panel.size_hint_x = None
            panel.width = side
        panel.add_widget(self.qr)
        if not self.qr.fits:
            said = tr(
                "This play is too long for a QR code (very long names?): log it in BG Stats "
                "by hand, or export it as a file."
            )
        caption = fit_label(said, font=16, halign="center", color=theme.TEXT_DIM)
        panel.add_widget(caption)
        return panel

    def enlarge(self) -> None:
        """The code over the whole screen, for a phone further away; a tap closes it."""
        if self.qr.fits:
            enlarge(self.link)

    def review(self) -> None:
        """The game move by move (``ui/screens/review.py``), back here after."""
        assert self.record is not None
        self.manager.get_screen("review").show(self.record, back_to="end")
        self.manager.current = "review"

    def analyse(self) -> None:
        """The companion's review of the game (``ui/screens/analysis.py``), back here after."""
        assert self.record is not None
        self.manager.get_screen("analysis").show(self.game_id, self.record, back_to="end")
        self.manager.current = "analysis"

    def undo_last(self) -> None:
        """The last move was tapped wrongly: back to the table, the game not over."""
        assert self.game_id is not None
        self.app.resume(self.game_id, undo=True)

    def export(self) -> None:
        done = self.app.export_to_media()
        self.message.color = theme.OK if done[0] else theme.ERROR
        self.message.text = done[1]
