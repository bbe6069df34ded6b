"""The first screen: resume the unfinished game, start a new one, past games, settings.

A column of large buttons in the middle of the window, as wide as a hand's reach in
landscape and the whole width in portrait; laid out again when the window changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, fit_label, gap, grow_label, row_height
from ..scale import SCALE
from ..webaddress import WebAddress, address

if TYPE_CHECKING:
    from ..context import AppContext

COLUMN = 640  # px at 800x480: the column's width in landscape


class StartScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="start", **kw)
        self.app = app
        self.frame = AnchorLayout(anchor_x="center", anchor_y="center")
        self.add_widget(self.frame)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.frame.clear_widgets()
        pad = gap(16)
        width = SCALE.width - 2 * pad
        if not SCALE.portrait:
            width = min(width, SCALE.px(COLUMN))
        box = BoxLayout(
            orientation="vertical", size_hint=(None, None), width=width, spacing=gap(12)
        )
        box.bind(minimum_height=box.setter("height"))
        box.add_widget(
            fit_label(
                "Splendor Companion",
                font=40,
                size_hint_y=None,
                height=row_height(64),
                bold=True,
                color=theme.ACCENT,
                halign="center",
            )
        )
        for notice in self.app.notices:
            box.add_widget(grow_label(notice, font=18, color=theme.ERROR, halign="center"))
        tall = row_height(64)
        info = self.app.store.latest_unfinished()
        if info is not None:
            text = tr("Resume: {players}, move {n}").format(
                players=", ".join(info.players), n=info.moves + 1
            )
            box.add_widget(
                button(
                    text,
                    lambda: self.app.resume(info.id),
                    font=22,
                    size_hint_y=None,
                    height=tall,
                    background_color=theme.BUTTON_GO,
                )
            )
        box.add_widget(
            button(tr("New game"), self.app.show_new_game, font=24, size_hint_y=None, height=tall)
        )
        row = BoxLayout(spacing=gap(12), size_hint_y=None, height=row_height(56))
        row.add_widget(button(tr("Past games"), self.app.show_history))
        row.add_widget(button(tr("Settings"), self.app.open_settings))
        box.add_widget(row)
        devices = self.app.hardware
        if devices is not None and devices.reader is not None:
            box.add_widget(
                button(
                    tr("RFID cards: tag them"),
                    self.app.show_enroll,
                    size_hint_y=None,
                    height=row_height(48),
                )
            )
        url = address(self.app.setting("web") != "0")
        if url:  # the table's web page: its address, and a code a phone scans
            box.add_widget(WebAddress(url))
        self.frame.add_widget(box)
