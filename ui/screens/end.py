"""The end of a game (or a past game): standings with the tie-break, the points chart, and
the QR code that logs the play in BG Stats."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion import bgstats
from companion.ai.seats import seat_titles
from companion.export import verdict
from companion.i18n import ngettext
from companion.playtime import clock_text, move_times
from companion.record import Record, replay
from companion.store import StoreError
from companion.timeline import points_by_round

from .. import theme
from ..chart import PointsChart
from ..i18n import tr
from ..qr import QRCode
from ..widgets import big_button, text_label

if TYPE_CHECKING:
    from ..application import CompanionApp


class EndScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="end", **kw)
        self.app = app
        self.record: Record | None = None
        self.game_id: int | None = None
        self.box = BoxLayout(spacing=8, padding=8)
        self.add_widget(self.box)

    def show(self, game_id: int, record: Record, from_history: bool = False) -> None:
        self.game_id = game_id
        self.record = record
        with suppress(StoreError):  # the table's log, for the game's length
            self.record = self.app.store.record(game_id, with_journal=True)
        self.from_history = from_history
        self.refresh()

    def refresh(self) -> None:
        record = self.record
        if record is None:
            return
        box = self.box
        box.clear_widgets()
        box.orientation = "vertical"
        middle = BoxLayout(spacing=8)
        left = BoxLayout(orientation="vertical", spacing=2)
        left.add_widget(
            text_label(
                tr("Final standings"),
                scale=0.6,
                size_hint_y=None,
                height=max(34.0, Window.height * 0.075),
                bold=True,
                color=theme.ACCENT,
                halign="left",
                valign="middle",
            )
        )
        font = max(15.0, Window.height * 0.036)
        for line in self.standings(record):
            label = Label(text=line, font_size=font, size_hint_y=None, halign="left", valign="top")
            label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
            label.bind(texture_size=lambda w, s: setattr(w, "height", s[1] + 4))
            left.add_widget(label)
        titles = seat_titles(record.players, record.extra)
        self.chart = PointsChart(rounds=points_by_round(record), names=titles)
        left.add_widget(self.chart)
        self.message = text_label(
            "", scale=0.42, size_hint_y=None, height=36, halign="left", valign="middle"
        )
        left.add_widget(self.message)
        middle.add_widget(left)
        middle.add_widget(self._bgstats_panel())
        box.add_widget(middle)
        bar = BoxLayout(size_hint_y=0.14, spacing=6)
        if self.from_history:
            bar.add_widget(big_button(tr("Back"), self.app.show_history))
            bar.add_widget(big_button(tr("Move by move"), self.review))
        else:
            bar.add_widget(big_button(tr("Undo the last move"), self.undo_last))
            bar.add_widget(big_button(tr("New game"), self.app.show_new_game))
        bar.add_widget(big_button(tr("Export to USB"), self.export))
        bar.add_widget(big_button(tr("Home"), self.app.show_start))
        box.add_widget(bar)

    @staticmethod
    def standings(record: Record) -> list[str]:
        """The standings in words (nobles counted, not named by id), then the verdict; the
        companion's seats with the level it played at, as the history says them."""
        game = replay(record).game
        table = game.standings()
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
            for s in table
        ]
        times = move_times(record)
        if times:
            lines.append(
                tr("Played for {time} (breaks left out)").format(
                    time=clock_text(times[max(times)].elapsed)
                )
            )
        # After the standings, verdict() says who won and why (the tie-break): no ids.
        return lines + verdict(game)[len(table) :]

    def _bgstats_panel(self) -> BoxLayout:
        """The play as a QR code: as tall as the screen allows, a tap shows it larger."""
        assert self.game_id is not None
        side = Window.height * 0.64
        panel = BoxLayout(orientation="vertical", size_hint_x=None, width=side, spacing=2)
        self.link = bgstats.link(bgstats.stored_play(self.app.store, self.game_id))
        self.qr = QRCode(text=self.link, size_hint_y=None, height=side)
        self.qr.bind(on_release=lambda *_: self.enlarge())
        panel.add_widget(self.qr)
        said = tr("Scan with a phone to log this play in BG Stats. Tap the code to enlarge it.")
        if not self.qr.fits:
            said = tr(
                "This play is too long for a QR code (very long names?): log it in BG Stats "
                "by hand, or export it as a file."
            )
        caption = Label(
            text=said,
            font_size=max(15.0, Window.height * 0.033),
            halign="center",
            valign="top",
            color=theme.TEXT_DIM,
        )
        caption.bind(size=lambda w, s: setattr(w, "text_size", s))
        panel.add_widget(caption)
        return panel

    def enlarge(self) -> None:
        """The code over the whole screen, for a phone further away; a tap closes it."""
        if not self.qr.fits:
            return
        view = ModalView(
            size_hint=(1, 1), background_color=(1, 1, 1, 1), overlay_color=(1, 1, 1, 1)
        )
        view._anim_duration = 0
        big = QRCode(text=self.link)
        big.bind(on_release=lambda *_: view.dismiss())
        view.add_widget(big)
        view.open()

    def review(self) -> None:
        """The game move by move (``ui/screens/review.py``), back here after."""
        assert self.record is not None
        self.manager.get_screen("review").show(self.record, back_to="end")
        self.manager.current = "review"

    def undo_last(self) -> None:
        """The last move was tapped wrongly: back to the table, the game not over."""
        assert self.game_id is not None
        self.app.resume(self.game_id, undo=True)

    def export(self) -> None:
        done = self.app.export_to_media()
        self.message.color = theme.OK if done[0] else theme.ERROR
        self.message.text = done[1]
