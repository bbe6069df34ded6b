"""New game: 2-4 names in the order of play, typed on the screen's own keyboard."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion import i18n
from companion.ai.players import LEVELS
from companion.ai.seats import level_word
from companion.errors import RecordError, Refused
from companion.table import NewGame
from companion.text import check_name

from .. import theme
from ..i18n import tr
from ..keyboard_layouts import name_rows
from ..widgets import big_button, text_label

if TYPE_CHECKING:
    from ..application import CompanionApp

MAX_NAME = 14


class NewGameScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="newgame", **kw)
        self.app = app
        self.names = ["", ""]
        self.levels: list[str | None] = [None, None]  # the companion's level per seat
        self.suggest = False
        self.editing = 0
        self.accents = False  # the keys show every accent, for one letter
        self.root_box = BoxLayout(orientation="vertical", padding=6, spacing=6)
        self.add_widget(self.root_box)

    def on_pre_enter(self, *_: Any) -> None:
        self.names = ["", ""]
        self.levels = [None, None]
        self.suggest = False
        self.editing = 0
        self.accents = False
        self.refresh()

    def recent_names(self) -> list[str]:
        seen: dict[str, None] = {}
        for info in self.app.store.games():
            for name in info.players:
                seen.setdefault(name, None)
        return [n for n in seen if n not in self.names][:6]  # two rows of three

    def refresh(self) -> None:
        box = self.root_box
        box.clear_widgets()
        # At 800x480 every button is at least 44 px high, every text at least 14 px.
        unit = max(44.0, Window.height * 0.096)
        top = BoxLayout(spacing=10)
        slots = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.38)
        slots.add_widget(
            text_label(
                tr("Players, in the order of play (the youngest starts)"),
                scale=0.28,
                size_hint_y=None,
                height=unit * 1.3,
                halign="left",
                valign="middle",
                color=theme.ACCENT,
            )
        )
        for i in range(4):
            row = BoxLayout(spacing=4, size_hint_y=None, height=unit)
            if i < len(self.names):
                label = f"{i + 1}. {self.names[i] or '…'}"
                slot = big_button(label, partial(self.edit, i))
                if i == self.editing:
                    slot.background_color = (0.95, 0.75, 0.2, 1)
                row.add_widget(slot)
                level = self.levels[i]
                who = tr("Person") if level is None else level_word(level)
                # Who plays this seat: a person, or the companion at a level (a tap cycles).
                row.add_widget(big_button(who, partial(self.cycle_level, i), size_hint_x=0.8))
                up = big_button(
                    "^", partial(self.move_up, i), size_hint_x=None, width=unit, disabled=i == 0
                )
                remove = big_button(
                    "X",
                    partial(self.remove, i),
                    size_hint_x=None,
                    width=unit,
                    disabled=len(self.names) <= 2,
                )
                row.add_widget(up)
                row.add_widget(remove)
            elif i == len(self.names):
                row.add_widget(big_button(tr("+ Add a player"), self.add_player))
            slots.add_widget(row)
        self.message = text_label("", scale=0.3, halign="left", valign="top", color=theme.ERROR)
        slots.add_widget(self.message)
        top.add_widget(slots)
        right = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.62)
        recent = self.recent_names()
        if recent:
            right.add_widget(
                text_label(
                    tr("Recent players: one tap"),
                    scale=0.55,
                    size_hint_y=None,
                    height=unit * 0.62,
                    halign="left",
                    valign="middle",
                    color=theme.TEXT_DIM,
                )
            )
            grid = GridLayout(
                cols=3, spacing=4, size_hint_y=None, height=unit * 2 + 4, row_force_default=False
            )
            for name in recent:
                grid.add_widget(big_button(name, partial(self.use_name, name)))
            right.add_widget(grid)
        keyboard = BoxLayout(orientation="vertical", spacing=3)
        # The language's keyboard (AZERTY in French), its own accents in the last row,
        # and a key to every accent of the five languages.
        rows = name_rows(i18n.language(), self.accents)
        for n, row_keys in enumerate(rows):
            row = BoxLayout(spacing=3)
            for key in row_keys:
                row.add_widget(big_button(key, partial(self.type, key)))
            if n == len(rows) - 1:
                more = big_button(
                    "ABC" if self.accents else "ÀÉ…", self.toggle_accents, size_hint_x=2
                )
                more.background_color = theme.PANEL_ACTIVE
                row.add_widget(more)
            keyboard.add_widget(row)
        last = BoxLayout(spacing=3)
        last.add_widget(big_button(tr("Space"), lambda: self.type(" "), size_hint_x=0.6))
        last.add_widget(big_button("<-", self.backspace, size_hint_x=0.4))
        keyboard.add_widget(last)
        right.add_widget(keyboard)
        top.add_widget(right)
        box.add_widget(top)
        bar = BoxLayout(size_hint_y=None, height=unit, spacing=8)
        bar.add_widget(big_button(tr("Back"), self.app.show_start, size_hint_x=0.25))
        suggest = tr("Suggest a move: on") if self.suggest else tr("Suggest a move: off")
        bar.add_widget(big_button(suggest, self.toggle_suggest, size_hint_x=0.35))
        bar.add_widget(
            big_button(
                tr("Next: lay out the table"),
                self.next,
                size_hint_x=0.4,
                background_color=(0.3, 0.7, 0.4, 1),
            )
        )
        box.add_widget(bar)

    def cycle_level(self, i: int) -> None:
        """A person, then the companion at each level, then a person again."""
        order: list[str | None] = [None, *LEVELS]
        level = order[(order.index(self.levels[i]) + 1) % len(order)]
        self.levels[i] = level
        if level is not None and not self.names[i]:
            taken = set(self.names)
            name, n = tr("Companion"), 2
            while name in taken:
                name, n = f"{tr('Companion')} {n}", n + 1
            self.names[i] = name
        self.refresh()

    def toggle_suggest(self) -> None:
        self.suggest = not self.suggest
        self.refresh()

    def edit(self, i: int) -> None:
        self.editing = i
        self.refresh()

    def add_player(self) -> None:
        if len(self.names) < 4:
            self.names.append("")
            self.levels.append(None)
            self.editing = len(self.names) - 1
            self.refresh()

    def move_up(self, i: int) -> None:
        self.names[i - 1], self.names[i] = self.names[i], self.names[i - 1]
        self.levels[i - 1], self.levels[i] = self.levels[i], self.levels[i - 1]
        self.editing = i - 1
        self.refresh()

    def remove(self, i: int) -> None:
        del self.names[i]
        del self.levels[i]
        self.editing = min(self.editing, len(self.names) - 1)
        self.refresh()

    def use_name(self, name: str) -> None:
        self.names[self.editing] = name
        empty = [i for i, n in enumerate(self.names) if not n]
        if empty:
            self.editing = empty[0]
        elif len(self.names) < 4:
            self.names.append("")
            self.levels.append(None)
            self.editing = len(self.names) - 1
        self.refresh()

    def toggle_accents(self) -> None:
        self.accents = not self.accents
        self.refresh()

    def type(self, key: str) -> None:
        name = self.names[self.editing]
        self.accents = False  # one accented letter, then the letters again
        if len(name) < MAX_NAME:
            # Capital first letter, then small ones: the way names are written.
            self.names[self.editing] = name + (key if not name or name[-1] in " -" else key.lower())
        self.refresh()

    def backspace(self) -> None:
        self.names[self.editing] = self.names[self.editing][:-1]
        self.refresh()

    def next(self) -> None:
        kept = [i for i, n in enumerate(self.names) if n.strip()]
        names = [self.names[i] for i in kept]
        levels = [self.levels[i] for i in kept]
        if levels and all(level is not None for level in levels):
            self.message.text = tr("At least one seat is a person's: the companion needs hands.")
            return
        try:
            for name in names:
                check_name(name)  # a recent name may come from an older journal
            draft = NewGame(names)
        except (Refused, RecordError) as err:
            self.message.text = err.message
            return
        self.app.companion_plan = (levels, self.suggest)
        self.app.show_setup(draft)
