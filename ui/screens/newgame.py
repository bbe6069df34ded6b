"""New game: 2-4 names in the order of play, typed on the screen's own keyboard."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion import i18n
from companion.errors import RecordError, Refused
from companion.journal.declaring import NewGame
from companion.journal.seats import LEVELS, level_word
from companion.text import check_name

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, fit_label, gap, grow_label, row_height, show_name
from ..scale import SCALE
from ..widgets.buttons import big_button
from .namekeys import name_keyboard, with_key

if TYPE_CHECKING:
    from ..context import AppContext


class NewGameScreen(Shaped):
    """Landscape: the seats on the left, recent names and the keyboard on the right.
    Portrait: the seats above, the keyboard below, each the whole width. On a 3.5-inch
    screen the keyboard's keys do not fit beside the seats: the keyboard takes the screen
    while a name is typed (a seat's name or "Type a name" opens it, "Done" closes it)."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="newgame", **kw)
        self.app = app
        self.names = ["", ""]
        self.levels: list[str | None] = [None, None]  # the companion's level per seat
        self.suggest = False
        self.editing = 0
        self.typing = False  # the 3.5-inch screen's keyboard is showing
        self.root_box = BoxLayout(orientation="vertical", padding=gap(6), spacing=gap(6))
        self.add_widget(self.root_box)
        self.message = grow_label("", font=16, color=theme.ERROR)
        self.accents = False  # the keys show every accent, for one letter
        self._keys: tuple[tuple[str, bool], BoxLayout] | None = None

    def on_pre_enter(self, *_: Any) -> None:
        self.names = ["", ""]
        self.levels = [None, None]
        self.suggest = False
        self.editing = 0
        self.typing = False
        self.accents = False
        self.refresh()

    def recent_names(self) -> list[str]:
        seen: dict[str, None] = {}
        for info in self.app.store.games():
            for name in info.players:
                seen.setdefault(name, None)
        return [n for n in seen if n not in self.names][:6]  # two rows of three

    @property
    def cramped(self) -> bool:
        """A 3.5-inch screen in landscape: keys a finger can hit leave no room beside."""
        return SCALE.small and not SCALE.portrait

    def lay_out(self) -> None:
        self.refresh(keep_message=True)  # the window changed: what was said stays

    def refresh(self, keep_message: bool = False) -> None:
        box = self.root_box
        box.clear_widgets()
        box.padding = gap(6)
        box.spacing = gap(6)
        said = self.message.text if keep_message else ""
        self.message = grow_label(said, font=16, color=theme.ERROR)
        if self.cramped and self.typing:
            box.add_widget(self._typing_bar())
            box.add_widget(self._keyboard())
            return
        if SCALE.portrait:
            box.add_widget(self._seats(size_hint_y=None))
            box.add_widget(self._recent())
            box.add_widget(Widget(size_hint_y=0.001))  # what the keyboard leaves, if any
            box.add_widget(self._keyboard())
        else:
            top = BoxLayout(spacing=gap(10))
            inner = SCALE.width - 2 * gap(6) - gap(10)
            # The keyboard's ten keys a row at a finger's width at the least.
            keys = 10 * SCALE.target(44) + 9 * gap(3) + 2
            right_w = inner * 0.45 if self.cramped else max(inner * 0.58, keys)
            top.add_widget(self._seats(size_hint_x=None, width=inner - right_w))
            right = BoxLayout(
                orientation="vertical", spacing=gap(4), size_hint_x=None, width=right_w
            )
            right.add_widget(self._recent())
            if self.cramped:
                right.add_widget(Widget())
                right.add_widget(
                    button(
                        tr("Type a name"),
                        self.start_typing,
                        size_hint_y=None,
                        height=row_height(),
                    )
                )
            else:
                right.add_widget(self._keyboard())
            top.add_widget(right)
            box.add_widget(top)
        box.add_widget(self._bar())

    def _seats(self, **kw: Any) -> BoxLayout:
        """The seats in the order of play: each its name, who plays it, up, remove."""
        unit = row_height(46)
        slots = BoxLayout(orientation="vertical", spacing=gap(4), **kw)
        if kw.get("size_hint_y", 1) is None:
            slots.bind(minimum_height=slots.setter("height"))
        slots.add_widget(
            grow_label(
                tr("Players, in the order of play (the youngest starts)"),
                font=17,
                color=theme.ACCENT,
            )
        )
        for i in range(4):
            row = BoxLayout(spacing=gap(4), size_hint_y=None, height=unit)
            if i < len(self.names):
                slot = big_button("", partial(self.edit, i))
                show_name(slot, self.names[i] or "…", font=18, before=f"{i + 1}. ")
                if i == self.editing:  # framed in the accent colour, and a mark in words
                    slot.background_color = theme.ACCENT
                    slot.color = theme.BANNER_TEXT
                row.add_widget(slot)
                level = self.levels[i]
                who = tr("Person") if level is None else level_word(level)
                # Who plays this seat: a person, or the companion at a level (a tap cycles).
                row.add_widget(button(who, partial(self.cycle_level, i), size_hint_x=0.7))
                up = button(
                    "^", partial(self.move_up, i), size_hint_x=None, width=unit, disabled=i == 0
                )
                remove = button(
                    "X",
                    partial(self.remove, i),
                    size_hint_x=None,
                    width=unit,
                    disabled=len(self.names) <= 2,
                )
                row.add_widget(up)
                row.add_widget(remove)
            elif i == len(self.names):
                row.add_widget(button(tr("+ Add a player"), self.add_player))
            else:
                row.add_widget(Widget())
            slots.add_widget(row)
        slots.add_widget(self.message)
        if kw.get("size_hint_y", 1) is not None:
            slots.add_widget(Widget())
        return slots

    def _recent(self) -> BoxLayout:
        """The names played before: one tap each."""
        recent = self.recent_names()
        part = BoxLayout(orientation="vertical", spacing=gap(4), size_hint_y=None)
        part.bind(minimum_height=part.setter("height"))
        if not recent:
            return part
        part.add_widget(grow_label(tr("Recent players: one tap"), font=17, color=theme.TEXT_DIM))
        cols = 2 if self.cramped else 3
        unit = row_height(44)
        rows = -(-len(recent) // cols)
        grid = GridLayout(
            cols=cols, spacing=gap(4), size_hint_y=None, height=rows * unit + (rows - 1) * gap(4)
        )
        for name in recent:
            b = big_button("", partial(self.use_name, name))
            show_name(b, name, font=18)
            grid.add_widget(b)
        part.add_widget(grid)
        return part

    def _keyboard(self) -> BoxLayout:
        """The language's keyboard (AZERTY in French), its own accents in the last row and
        a key to every accent of the five languages, space and rub-out: keys as large as
        the room left allows, never under a finger's width. Made once a language and
        layer (the keys follow the window by themselves): a letter tapped redraws the
        seats, not fifty keys."""
        shape = (i18n.language(), self.accents)
        if self._keys is None or self._keys[0] != shape:
            self._keys = (shape, self._make_keyboard())
        keyboard = self._keys[1]
        if keyboard.parent is not None:
            keyboard.parent.remove_widget(keyboard)
        keyboard.spacing = gap(3)
        for row in keyboard.children:
            row.spacing = gap(3)
        if SCALE.portrait:
            # Not a wall of keys, nor a strip under a blank: the keys take the room the
            # seats leave, up to half as tall again as in landscape.
            keyboard.size_hint_y = 1
            keyboard.size_hint_min_y = 5 * row_height(56) + 4 * gap(3)
            keyboard.size_hint_max_y = 5 * row_height(84) + 4 * gap(3)
        else:
            keyboard.size_hint_y = 1
            keyboard.size_hint_min_y = keyboard.size_hint_max_y = None
        return keyboard

    def _make_keyboard(self) -> BoxLayout:
        return name_keyboard(self.accents, self.type, self.toggle_accents, self.backspace)

    def _typing_bar(self) -> BoxLayout:
        """Over the 3.5-inch screen's keyboard: the name being typed, and Done."""
        name = fit_label(
            f"{self.editing + 1}. {self.names[self.editing] or '…'}", font=20, bold=True
        )
        return _bottom_row(name, _go(tr("Done"), self.stop_typing, size_hint_x=0.3))

    def _bar(self) -> BoxLayout:
        suggest = tr("Suggest a move: on") if self.suggest else tr("Suggest a move: off")
        return _bottom_row(
            button(tr("Back"), self.app.show_start, size_hint_x=0.25),
            button(suggest, self.toggle_suggest, size_hint_x=0.35),
            _go(tr("Next: lay out the table"), self.next, size_hint_x=0.4),
        )

    def start_typing(self) -> None:
        self.typing = True
        self.refresh()

    def stop_typing(self) -> None:
        self.typing = False
        self.refresh()

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
        # On the 3.5-inch screen a tap on the seat being edited opens the keyboard.
        self.typing = self.cramped and i == self.editing
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
        self.accents = False  # one accented letter, then the letters again
        self.names[self.editing] = with_key(self.names[self.editing], key)
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
        self.app.show_setup(draft, levels, self.suggest)


def _bottom_row(*parts: Widget) -> BoxLayout:
    """A row a finger's height: ``parts`` side by side, the one that goes on (:func:`_go`) last."""
    bar = BoxLayout(size_hint_y=None, height=row_height(), spacing=gap(8))
    for part in parts:
        bar.add_widget(part)
    return bar


def _go(text: str, action: Callable[[], object], **kw: Any) -> Button:
    """The button that goes on: green."""
    return button(text, action, background_color=theme.BUTTON_GO, **kw)
