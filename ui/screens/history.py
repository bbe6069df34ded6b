"""Past games: the list, a game's summary and chart, and export to a USB stick."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from .. import theme
from ..i18n import tr
from ..widgets import big_button, text_label

if TYPE_CHECKING:
    from ..application import CompanionApp


class HistoryScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="history", **kw)
        self.app = app
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.add_widget(self.box)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self, message: str = "", ok: bool = True) -> None:
        box = self.box
        box.clear_widgets()
        box.add_widget(
            text_label(
                tr("Past games"),
                scale=0.55,
                size_hint_y=0.1,
                bold=True,
                color=theme.ACCENT,
                halign="left",
                valign="middle",
            )
        )
        games = self.app.store.games()
        scroll = ScrollView(size_hint_y=0.66)
        grid = GridLayout(cols=1, spacing=4, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        if not games:
            grid.add_widget(text_label(tr("No games yet."), scale=0.5, size_hint_y=None, height=50))
        for info in games:
            date = info.started_at.replace("T", " ")[:16]
            winner = ", ".join(info.winners) or "-"
            text = tr("{date}  {players}  winner: {winner}  ({state})").format(
                date=date, players=", ".join(info.players), winner=winner, state=tr(info.state)
            )
            grid.add_widget(
                big_button(
                    text,
                    partial(self.app.show_past_game, info.id),
                    size_hint_y=None,
                    height=52,
                    font_size=18,
                )
            )
        scroll.add_widget(grid)
        box.add_widget(scroll)
        note = text_label(
            message,
            scale=0.4,
            size_hint_y=0.1,
            halign="left",
            valign="middle",
            color=theme.OK if ok else theme.ERROR,
        )
        box.add_widget(note)
        bar = BoxLayout(size_hint_y=0.14, spacing=8)
        bar.add_widget(big_button(tr("Back"), self.app.show_start))
        bar.add_widget(big_button(tr("Export all to a USB stick"), self.export))
        box.add_widget(bar)

    def export(self) -> None:
        ok, message = self.app.export_to_media()
        self.refresh(message, ok)
