"""Tag the cards: the app shows a card, the table scans it, the tag is recorded.

The same enrollment as ``splendor-companion rfid enroll``, on the touchscreen. A tag
already on another card is refused with that card named.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.cards import CARDS
from hardware.exc import HardwareError, TagConflict

from .. import theme
from ..i18n import tr
from ..widgets import CardView, big_button, text_label
from .table.words import named

if TYPE_CHECKING:
    from ..application import CompanionApp


class EnrollScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="enroll", **kw)
        self.app = app
        self.level: int | None = None
        self.queue: list[str] = []
        self.done = 0
        self.message = ""
        self.error = False
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.add_widget(self.box)

    @property
    def tags(self) -> Any:
        devices = self.app.hardware
        return None if devices is None else devices.tags

    def start(self, level: int | None = None) -> None:
        """The cards of ``level`` (all levels: ``None``) that have no tag yet."""
        self.level = level
        self.queue = self.tags.missing(level) if self.tags is not None else []
        self.done = 0
        self.message, self.error = "", False
        self.refresh()

    @property
    def current(self) -> str | None:
        return self.queue[0] if self.queue else None

    def refresh(self) -> None:
        box = self.box
        box.clear_widgets()
        box.add_widget(
            text_label(tr("RFID cards: scan each card when it is shown"), scale=0.5,
                       size_hint_y=0.09, bold=True, color=theme.ACCENT, halign="left",
                       valign="middle")
        )  # fmt: skip
        middle = BoxLayout(spacing=12, size_hint_y=0.62)
        card = self.current
        if self.tags is None:
            text = tr("Set the reader's serial port in Settings first.")
        elif card is None:
            text = tr("Every card of this choice has a tag.")
        else:
            # Said and drawn as the table shows a card: its record id means nothing to people.
            text = tr("Scan the card shown, {card} ({left} to go)").format(
                card=named(card), left=len(self.queue)
            )
            middle.add_widget(CardView(card=CARDS[card], size_hint_x=0.3))
        middle.add_widget(text_label(text, scale=0.16, halign="left", valign="middle"))
        box.add_widget(middle)
        box.add_widget(
            text_label(self.message, scale=0.45, size_hint_y=0.09, halign="left",
                       valign="middle", color=theme.ERROR if self.error else theme.OK)
        )  # fmt: skip
        levels = BoxLayout(size_hint_y=0.1, spacing=6)
        for level in (1, 2, 3):
            levels.add_widget(
                big_button(tr("Level {n}").format(n=level), partial(self.start, level))
            )
        levels.add_widget(big_button(tr("All levels"), partial(self.start, None)))
        box.add_widget(levels)
        bar = BoxLayout(size_hint_y=0.1, spacing=6)
        bar.add_widget(big_button(tr("Skip this card"), self.skip, disabled=card is None))
        bar.add_widget(big_button(tr("Done"), self.app.show_start))
        box.add_widget(bar)

    def skip(self) -> None:
        if self.queue:
            self.queue.append(self.queue.pop(0))
            self.message, self.error = "", False
            self.refresh()

    def tag_read(self, tag: str) -> None:
        """A tag read while this screen shows (on the app's thread)."""
        card = self.current
        if card is None or self.tags is None:
            return
        try:
            self.tags.assign(tag, card)
        except HardwareError as err:
            if isinstance(err, TagConflict):
                # The reader's own message names cards by id (for the command line).
                refusal = tr("tag {tag} is already on {other}: scan another tag for this card")
                self.message = refusal.format(tag=tag, other=named(err.card))
            else:
                self.message = err.message
            self.error = True
            self.app.feedback(False)
            self.refresh()
            return
        self.queue.pop(0)
        self.done += 1
        self.message = tr("tag {tag} is now {card}: saved").format(tag=tag, card=named(card))
        self.error = False
        self.app.feedback(True)
        self.refresh()
