"""The first screen: resume the unfinished game, start a new one, past games, settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .. import theme
from ..i18n import tr
from ..widgets import big_button, text_label

if TYPE_CHECKING:
    from ..application import CompanionApp


class StartScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="start", **kw)
        self.app = app
        self.box = BoxLayout(orientation="vertical", padding=[40, 20], spacing=12)
        self.add_widget(self.box)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        box = self.box
        box.clear_widgets()
        box.add_widget(
            text_label(
                "Splendor Companion", scale=0.55, size_hint_y=0.16, bold=True, color=theme.ACCENT
            )
        )
        for notice in self.app.notices:
            box.add_widget(
                text_label(notice, scale=0.3, size_hint_y=0.1, color=theme.ERROR, halign="center")
            )
        info = self.app.store.latest_unfinished()
        if info is not None:
            text = tr("Resume: {players}, move {n}").format(
                players=", ".join(info.players), n=info.moves + 1
            )
            box.add_widget(
                big_button(
                    text,
                    lambda: self.app.resume(info.id),
                    size_hint_y=0.16,
                    background_color=(0.3, 0.7, 0.4, 1),
                )
            )
        box.add_widget(big_button(tr("New game"), self.app.show_new_game, size_hint_y=0.16))
        row = BoxLayout(spacing=12, size_hint_y=0.16)
        row.add_widget(big_button(tr("Past games"), self.app.show_history))
        row.add_widget(big_button(tr("Settings"), self.app.open_settings))
        box.add_widget(row)
        devices = self.app.hardware
        if devices is not None and devices.reader is not None:
            box.add_widget(
                big_button(tr("RFID cards: tag them"), self.app.show_enroll, size_hint_y=0.12)
            )
        box.add_widget(BoxLayout(size_hint_y=0.1))
