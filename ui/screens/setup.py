"""Lay out the table: declare the nobles and the 12 face-up cards (tap, or scan a card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.cards import CARDS, CARDS_BY_LEVEL, NOBLES
from companion.errors import Refused
from companion.table import NewGame

from .. import theme
from ..dialogs import CardPicker, NoblePicker
from ..i18n import tr
from ..widgets import CardView, NobleView, big_button, text_label

if TYPE_CHECKING:
    from ..application import CompanionApp


class SetupScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="setup", **kw)
        self.app = app
        self.draft: NewGame | None = None
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.add_widget(self.box)

    def start(self, draft: NewGame) -> None:
        self.draft = draft
        self.refresh()

    def refresh(self, message: str = "") -> None:
        draft = self.draft
        assert draft is not None
        box = self.box
        box.clear_widgets()
        left = sum(draft.cards_needed(lv) for lv in (1, 2, 3)) + draft.nobles_needed
        title = (
            tr(
                "Tap each empty place and choose what lies on the table ({n} to go), or scan "
                "the cards"
            ).format(n=left)
            if left
            else tr("The table is laid out.")
        )
        box.add_widget(
            text_label(
                title,
                scale=0.42,
                size_hint_y=0.08,
                halign="left",
                valign="middle",
                color=theme.ACCENT,
            )
        )
        nobles = BoxLayout(size_hint_y=0.17, spacing=8, padding=[120, 0])
        for i in range(len(draft.players) + 1):
            noble = NOBLES[draft.nobles[i]] if i < len(draft.nobles) else None
            view = NobleView(noble=noble)
            view.bind(on_release=lambda v, n=noble: self.tap_noble(n))
            nobles.add_widget(view)
        box.add_widget(nobles)
        for level in (3, 2, 1):
            row = BoxLayout(spacing=8, padding=[60, 0], size_hint_y=0.2)
            row.add_widget(text_label("I" * level, scale=0.25, size_hint_x=0.2, bold=True))
            cards = draft.market[level]
            for i in range(4):
                card = CARDS[cards[i]] if i < len(cards) else None
                view = CardView(card=card)
                view.bind(on_release=lambda v, c=card, lv=level: self.tap_card(lv, c))
                row.add_widget(view)
            row.add_widget(Widget(size_hint_x=0.2))
            box.add_widget(row)
        box.add_widget(text_label(message, scale=0.5, size_hint_y=0.07, color=theme.ERROR))
        bar = BoxLayout(size_hint_y=0.11, spacing=8)
        bar.add_widget(big_button(tr("Back"), self.app.show_new_game))
        start = big_button(
            tr("Start the game"),
            self.begin,
            disabled=not draft.complete,
            background_color=(0.3, 0.7, 0.4, 1),
        )
        bar.add_widget(start)
        box.add_widget(bar)

    def tap_noble(self, noble: Any) -> None:
        assert self.draft is not None
        if noble is not None:
            self.draft.withdraw(noble.id)
            self.refresh()
            return
        free = [n for n in NOBLES.values() if n.id not in self.draft.nobles]
        NoblePicker(
            tr("Which noble is on the table?"),
            free,
            lambda n: self.declare(n.id),
            on_cancel=lambda: None,
        ).open()

    def tap_card(self, level: int, card: Any) -> None:
        assert self.draft is not None
        if card is not None:
            self.draft.withdraw(card.id)
            self.refresh()
            return
        seen = self.draft.seen()
        free = [c for c in CARDS_BY_LEVEL[level] if c.id not in seen]
        CardPicker(
            tr("Level {level}: which card is face up?").format(level=level),
            free,
            lambda c: self.declare(c.id),
        ).open()

    def card_scanned(self, card_id: str) -> None:
        """A card read by the RFID reader while this screen shows: laid out on the table."""
        self.declare(card_id)

    def say(self, message: str, error: bool = False) -> None:
        self.refresh(message)

    def declare(self, item: str) -> None:
        """A tap in a picker or a scanned card."""
        assert self.draft is not None
        try:
            self.draft.declare(item)
        except Refused as err:
            self.app.feedback(False)
            self.refresh(err.message)
            return
        self.app.feedback(True)
        self.refresh()

    def begin(self) -> None:
        assert self.draft is not None
        self.app.start_game(self.draft.setup())
