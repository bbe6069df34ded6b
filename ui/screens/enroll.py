"""Tag the cards: the app shows a card, the table scans it, the tag is recorded.

The same enrollment as ``splendor-companion rfid enroll``, on the touchscreen. A tag
already on another card is refused with that card named.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.engine.cards import CARDS
from companion.i18n import ngettext, number
from hardware.exc import HardwareError, TagConflict

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, fit_label, gap, grow_label, row_height
from ..scale import SCALE
from ..widgets.pieces import CardView
from .table.words import named
from .tableau import card_slot

if TYPE_CHECKING:
    from ..context import AppContext


class EnrollScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="enroll", **kw)
        self.app = app
        self.level: int | None = None
        self.queue: list[str] = []
        self.done = 0
        self.message = ""
        self.error = False
        self.box = BoxLayout(orientation="vertical")
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
        """Landscape: the card beside what to do; portrait: the card above it. The level
        to tag and the buttons below, in a row (two rows of two in portrait)."""
        box = self.box
        box.clear_widgets()
        box.padding = gap(8)
        box.spacing = gap(6)
        box.add_widget(
            grow_label(
                tr("RFID cards: scan each card when it is shown"),
                font=22,
                bold=True,
                color=theme.ACCENT,
            )
        )
        middle = BoxLayout(spacing=gap(12))
        card = self.current
        if self.tags is None:
            text = tr("Set the reader's serial port in Settings first.")
        elif card is None:
            text = tr("Every card of this choice has a tag.")
        else:
            # Said and drawn as the table shows a card: its record id means nothing to people.
            # The count after a colon: the card's words may end in brackets already
            # ("(4 points)"), and two in a row read as a slip.
            left = len(self.queue)
            text = ngettext(
                "Scan the card shown, {card}: {n} card to go",
                "Scan the card shown, {card}: {n} cards to go",
                left,
            ).format(card=named(card), n=number(left))
        said = fit_label(text, font=24)
        if card is not None:
            middle.orientation = "vertical" if SCALE.portrait else "horizontal"
            slot = card_slot(CardView(card=CARDS[card]))
            if not SCALE.portrait:
                slot.size_hint_x = 0.4
            middle.add_widget(slot)
            if SCALE.portrait:
                said.size_hint_y = 0.4
        middle.add_widget(said)
        box.add_widget(middle)
        box.add_widget(
            grow_label(self.message, font=19, color=theme.ERROR if self.error else theme.OK)
        )
        levels = GridLayout(cols=2 if SCALE.portrait else 4, spacing=gap(6), size_hint_y=None)
        levels.bind(minimum_height=levels.setter("height"))
        levels.row_default_height = row_height()
        levels.row_force_default = True
        for level in (1, 2, 3):
            levels.add_widget(button(tr("Level {n}").format(n=level), partial(self.start, level)))
        levels.add_widget(button(tr("All levels"), partial(self.start, None)))
        box.add_widget(levels)
        bar = BoxLayout(size_hint_y=None, height=row_height(), spacing=gap(6))
        # Back first, at the left, as on every screen (each tag is kept as it is read:
        # leaving loses nothing).
        bar.add_widget(button(tr("Back"), self.app.show_start))
        bar.add_widget(button(tr("Skip this card"), self.skip, disabled=card is None))
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
