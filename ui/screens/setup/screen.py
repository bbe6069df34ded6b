"""Lay out the table: declare the nobles and the 12 face-up cards, in as few taps as can be.

The places fill in the order they lie on the table (nobles, then levels 3, 2, 1): once a
place is filled the picker of the next empty one opens by itself, and a picker shows all
that can still lie there, so each place is one tap. A scanned card fills the next place of
its level. Cancel stops the run; a tap on a place opens its picker again, and a tap on a
filled place takes it back and asks again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.engine.cards import Card, Noble
from companion.errors import ErrorCode, Refused
from companion.i18n import ngettext
from companion.journal.declaring import NewGame

from ... import theme
from ...cardface import CardFace, NobleFace
from ...i18n import tr
from ...layout import Shaped, button, fit_label, gap, grow_label, row_height
from ...scale import SCALE
from ...widgets.drawing import ROMAN
from .pickers import LevelPicker, NobleGrid

if TYPE_CHECKING:
    from ...context import AppContext

NOBLE = 0  # a place is (NOBLE, 0) or (a card's level, its index in the row)
ORDER = (NOBLE, 3, 2, 1)  # as the places lie on the table, top to bottom


class SetupScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="setup", **kw)
        self.app = app
        self.draft: NewGame | None = None
        self.picker: LevelPicker | NobleGrid | None = None
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)
        self.message = grow_label("")

    def start(self, draft: NewGame) -> None:
        self.draft = draft
        self.refresh()
        # The first empty place asks at once: the table is being laid out right now.
        Clock.schedule_once(lambda dt: self.open_next(), 0)

    # ------------------------------------------------------------------ drawing

    def lay_out(self) -> None:
        if self.draft is not None:
            self.refresh(self.message.text)  # the window changed: what was said stays

    def refresh(self, message: str = "") -> None:
        """The table as declared so far: the nobles' row on top, then levels 3, 2 and 1,
        as they lie on the table; the same in portrait, where the card rows are taller."""
        draft = self.draft
        assert draft is not None
        box = self.box
        box.clear_widgets()
        box.padding = gap(6)
        box.spacing = gap(4)
        left = sum(draft.cards_needed(lv) for lv in (1, 2, 3)) + draft.nobles_needed
        title = (
            ngettext(
                "Lay out the table: {n} place to fill. Tap it, or scan the card.",
                "Lay out the table: {n} places to fill. Tap a place, or scan the cards.",
                left,
            ).format(n=left)
            if left
            else tr("The table is laid out.")
        )
        box.add_widget(grow_label(title, font=20, color=theme.ACCENT))
        mark = row_height(44)  # the level's column, and the nobles' row's indent
        # In portrait the nobles take the whole width: five abreast, each wide enough.
        indent = 0 if SCALE.portrait else mark + gap(8)
        nobles = BoxLayout(spacing=gap(6), padding=[indent, 0, 0, 0])
        nobles.size_hint_y = 0.6 if SCALE.portrait else 1
        rules = draft.rules
        revealed = rules.nobles_revealed(len(draft.players))
        for i in range(revealed):
            noble = rules.nobles[draft.nobles[i]] if i < len(draft.nobles) else None
            view = NobleFace(noble=noble)
            view.bind(on_release=lambda v, n=noble: self.tap_noble(n))
            nobles.add_widget(view)
        for _ in range(rules.nobles_revealed(rules.players[-1]) - revealed):
            nobles.add_widget(Widget())
        box.add_widget(nobles)
        for level in (3, 2, 1):
            row = BoxLayout(spacing=gap(8))
            row.add_widget(
                fit_label(
                    ROMAN[level],
                    font=22,
                    size_hint_x=None,
                    width=mark,
                    bold=True,
                    halign="center",
                )
            )
            cards = draft.market[level]
            for i in range(rules.market_slots):
                card = rules.cards[cards[i]] if i < len(cards) else None
                face = CardFace(card=card, level=level)
                face.bind(on_release=lambda v, c=card, lv=level: self.tap_card(lv, c))
                row.add_widget(face)
            box.add_widget(row)
        # A refusal (a card scanned twice) in full, above the buttons; no room when none.
        self.message = grow_label(message, font=17, color=theme.ERROR)
        box.add_widget(self.message)
        bar = BoxLayout(size_hint_y=None, height=row_height(), spacing=gap(8))
        bar.add_widget(button(tr("Back"), self.back, size_hint_x=0.3))
        bar.add_widget(Widget(size_hint_x=0.2))
        bar.add_widget(
            button(
                tr("Start the game"),
                self.begin,
                disabled=not draft.complete,
                size_hint_x=0.5,
                background_color=theme.BUTTON_GO,
            )
        )
        box.add_widget(bar)
        if self.picker is not None and message:
            self.picker.message.text = message

    # ------------------------------------------------------------------ places

    def next_place(self) -> int | None:
        """The next kind of place to fill (``NOBLE`` or a level), ``None`` when all are."""
        draft = self.draft
        assert draft is not None
        for place in ORDER:
            needed = draft.nobles_needed if place == NOBLE else draft.cards_needed(place)
            if needed:
                return place
        return None

    def open_next(self) -> None:
        if self.manager is None or self.manager.current != self.name:
            return  # the table went on without us (Back, or a game started)
        place = self.next_place()
        if place is not None:
            self.open_place(place)

    def open_place(self, place: int) -> None:
        draft = self.draft
        assert draft is not None
        self.close_picker()
        seen = draft.seen()
        if place == NOBLE:
            total = draft.rules.nobles_revealed(len(draft.players))
            title = tr("Noble {n} of {total}: which noble lies on the table?").format(
                n=len(draft.nobles) + 1, total=total
            )
            free_nobles = [n for n in draft.rules.nobles.values() if n.id not in seen]
            self.picker = NobleGrid(title, free_nobles, self.pick_noble, self.stop)
        else:
            title = tr(
                "Level {level}, card {n} of {total}: which card is face up? (or scan it)"
            ).format(level=place, n=len(draft.market[place]) + 1, total=draft.rules.market_slots)
            free_cards = [c for c in draft.rules.cards_by_level[place] if c.id not in seen]
            self.picker = LevelPicker(title, free_cards, self.pick_card, self.stop)
        self.picker.open()

    def close_picker(self) -> None:
        if self.picker is not None:
            self.picker.dismiss(animation=False)
            self.picker = None

    def stop(self) -> None:
        """Cancel in a picker: the run stops; the table is shown as it is."""
        self.picker = None

    def pick_noble(self, noble: Noble) -> None:
        self.picker = None
        self.declare(noble.id, go_on=True)

    def pick_card(self, card: Card) -> None:
        self.picker = None
        self.declare(card.id, go_on=True)

    # ------------------------------------------------------------------ taps

    def tap_noble(self, noble: Noble | None) -> None:
        assert self.draft is not None
        if noble is not None:
            self.draft.withdraw(noble.id)  # a mistake: take it back and ask again
            self.refresh()
        self.open_place(NOBLE)

    def tap_card(self, level: int, card: Card | None) -> None:
        assert self.draft is not None
        if card is not None:
            self.draft.withdraw(card.id)
            self.refresh()
        self.open_place(level)

    def card_scanned(self, card_id: str) -> None:
        """A card read by the RFID reader while this screen shows: laid out on the table."""
        self.declare(card_id)

    def say(self, message: str, error: bool = False) -> None:
        self.refresh(message)

    def declare(self, item: str, go_on: bool = False) -> None:
        """A tap in a picker (``go_on``: then the next place asks), or a scanned card."""
        assert self.draft is not None
        asking = go_on or self.picker is not None
        try:
            self.draft.declare(item)
        except Refused as err:
            self.app.feedback(False)
            # The engine's sentence names the card by its record id; players see the card.
            said = (
                tr("That card is already on the table.")
                if err.code is ErrorCode.ALREADY_DECLARED
                else err.message
            )
            self.refresh(said)
            if go_on:
                self.open_next()
            return
        self.app.feedback(True)
        self.refresh()
        if asking:  # a scan while a picker asks: the picker moves on to the next place
            self.close_picker()
            self.open_next()

    def back(self) -> None:
        self.close_picker()
        self.app.show_new_game()

    def begin(self) -> None:
        assert self.draft is not None
        self.close_picker()
        self.app.start_game(self.draft.setup())
