"""The settings screen, in the app's own look and the reader's language.

Three tabs (general, the card reader, buttons and lights) list their settings, each
with its name, its value and one line on what it does; a tap opens its choices as big
buttons, and a tap on one applies it at once: a new language or rotation redraws every
screen, the game in progress is kept. The values stay in Kivy's ``settings.ini`` under
the keys they always had. A value the kiosk's installer set is shown with where to
change it, and cannot be changed here (the next start would undo it).

Sizes come from :data:`ui.scale.SCALE`; tiles and choices are laid out from the room
their words need, so no text is cut and no word broken, from 480x320 to portrait.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from . import theme
from .i18n import tr
from .scale import SCALE
from .settings_items import ITEMS, SECTIONS, Item, choices, kiosk_set, origin, shown
from .widgets.buttons import big_button
from .widgets.text import text_width, widest_word, wrapping_label

if TYPE_CHECKING:
    from .context import AppContext

Line = tuple[str, float, bool, theme.RGBA]  # text, font size, bold, colour


def _lines_needed(text: str, font: float, bold: bool, width: float) -> int:
    """How many lines ``text`` wraps to in ``width``, words going whole to the next line
    as Kivy wraps them (a little room kept at each line's end). Counting one line more
    whenever it wrapped made French settings spill out of a 480x800 screen."""
    if width <= 0:
        return 99
    room = width * 0.96
    space = text_width(" ", font, bold)
    lines, used = 1, 0.0
    for word in text.split():
        w = text_width(word, font, bold)
        if used and used + space + w > room:
            lines, used = lines + 1, w
        else:
            used += (space if used else 0) + w
    return lines


class Tile(ButtonBehavior, BoxLayout):
    """A panel of lines of text to tap: a setting in the list, or one of its choices."""

    key: str | None = None  # the setting it opens, in the list
    value: str | None = None  # the value it chooses, among a setting's choices

    def __init__(
        self,
        lines: Sequence[Line],
        fill: theme.RGBA,
        on_press: Callable[[], object],
        centred: bool = False,
        **kw: Any,
    ) -> None:
        self.pad = SCALE.px(8)
        super().__init__(orientation="vertical", padding=[self.pad, self.pad / 2], **kw)
        self.lines = list(lines)
        self.fill = fill
        with self.canvas.before:
            self._colour = Color(*fill)
            self._panel = RoundedRectangle(radius=[SCALE.px(6)])
        self.bind(pos=self._place, size=self._place, state=self._pressed)
        self.add_widget(Widget())  # the lines sit in the middle of a taller tile
        for text, font, bold, colour in self.lines:
            label = wrapping_label(text, font=font, bold=bold, color=colour)
            if centred:
                label.halign = "center"
            self.add_widget(label)
        self.add_widget(Widget())
        self.bind(on_release=lambda *_: on_press())

    def _place(self, *_: Any) -> None:
        self._panel.pos, self._panel.size = self.pos, self.size

    def _pressed(self, *_: Any) -> None:
        shade = 0.75 if self.state == "down" else 1.0
        self._colour.rgba = (*(c * shade for c in self.fill[:3]), self.fill[3])

    def least_width(self) -> float:
        """The width its widest word needs, and a finger's."""
        words = max(widest_word(text, font, bold) for text, font, bold, _ in self.lines)
        return max(float(SCALE.min_target), words + 2 * self.pad + SCALE.px(6))

    def least_height(self, width: float) -> float:
        """The height its lines need at ``width``."""
        inner = width - 2 * self.pad
        needed = sum(
            max(_lines_needed(text, font, bold, inner) * font * 1.25, font * 1.4)
            for text, font, bold, _ in self.lines
        )
        return max(float(SCALE.min_target), needed + self.pad + SCALE.px(4))


def shape(
    tiles: Sequence[Tile], width: float, height: float, gap: float, most: int, tall: float
) -> tuple[int, float]:
    """Columns and row height for ``tiles`` in a ``width`` x ``height`` box: as many
    columns (up to ``most``) as leave each tile the room its words need; rows share the
    height up to ``tall`` (the rest stays empty below), never less than their words need."""
    n = len(tiles)
    if not n:
        return 1, SCALE.min_target
    least = max(t.least_width() for t in tiles)
    for cols in range(min(n, most), 0, -1):
        cell = (width - gap * (cols - 1)) / cols
        if cell < least and cols > 1:
            continue
        rows = math.ceil(n / cols)
        need = max(t.least_height(cell) for t in tiles)
        room = (height - gap * (rows - 1)) / rows
        if room >= need or cols == 1:
            return cols, max(need, min(room, tall))
    return 1, SCALE.min_target


class FitGrid(GridLayout):
    """A grid that picks its columns and row height from its tiles and its own size."""

    def __init__(self, most: int, tall: float, **kw: Any) -> None:
        super().__init__(cols=1, row_force_default=True, **kw)
        self.most = most
        self.tall = tall  # the tallest row worth having
        self.bind(size=self.fit)

    def fit(self, *_: Any) -> None:
        tiles = [w for w in reversed(self.children) if isinstance(w, Tile)]
        self.cols, self.row_default_height = shape(
            tiles, self.width, self.height, self.spacing[1], self.most, self.tall
        )


class SettingsScreen(Screen):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="settings", **kw)
        self.app = app
        self.section = 0
        self.editing: str | None = None
        self.back_to = "start"
        self.notes: list[tuple[str, bool]] = []  # the last lines the app said here
        self.port_field: TextInput | None = None
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)
        self._relayout = Clock.create_trigger(lambda dt: self._follow(), -1)
        app.when_stopping(lambda: Window.unbind(size=self._relayout))

    # A rotation, a resize while shown: laid out again.
    def on_pre_enter(self, *_: Any) -> None:
        Window.bind(size=self._relayout)

    def on_leave(self, *_: Any) -> None:
        Window.unbind(size=self._relayout)

    def _follow(self) -> None:
        if self.get_root_window() is not None:  # shown (an app closed since: not)
            self.refresh()

    # ------------------------------------------------------------------ navigation

    def open(self, back_to: str) -> None:
        self.back_to = back_to if back_to != self.name else "start"
        self.section, self.editing, self.notes = 0, None, []
        self.refresh()

    def show_section(self, section: int) -> None:
        self.section, self.editing, self.notes = section, None, []
        self.refresh()

    def edit(self, key: str) -> None:
        self.editing, self.notes = key, []
        self.refresh()

    def back(self) -> None:
        """From a setting's choices to the list; from the list to where it was opened."""
        if self.editing is not None:
            self.editing = None
            self.refresh()
        else:
            self.app.close_settings()

    def say(self, message: str, error: bool = False) -> None:
        """A line from the app (the reader found, a pin refused), under the settings: the
        last two, so that the reader's news does not hide a refused pin."""
        self.notes = [*[n for n in self.notes if n[0] != message][-1:], (message, error)]
        self.refresh()

    # ------------------------------------------------------------------ changing

    def value(self, key: str) -> str:
        return shown(self.app, key)

    def choose(self, key: str, value: str) -> None:
        """Keep ``value`` in ``settings.ini`` and apply it at once."""
        self.editing = None
        told = len(self.app.notices)
        if self.app.change_setting(key, value):
            # What the devices said of it (a pin refused).
            self.notes = [(notice, True) for notice in self.app.notices[told:]][-2:]
        self.refresh()

    def typed_port(self, *_: Any) -> None:
        field = self.port_field
        if field is not None and field.text.strip():
            self.choose("rfid_port", field.text.strip())

    # ------------------------------------------------------------------ layout

    def refresh(self) -> None:
        box = self.box
        box.clear_widgets()
        self.port_field = None
        gap = SCALE.px(6)
        box.padding = gap
        box.spacing = gap
        if self.editing is not None:
            self._editor(ITEMS[self.editing], gap)
        else:
            self._list(gap)
        for message, error in self.notes:
            colour = theme.ERROR if error else theme.OK
            box.add_widget(wrapping_label(message, font=SCALE.font(16), color=colour))
        # Back where every screen has it, bottom left, apart from the tabs (issue 34: at
        # the end of the tab row it read as a fourth tab); the list's tabs to its right,
        # as a screen's other buttons are, the one shown lit.
        bar = self._bar()
        bar.add_widget(big_button(tr("Back"), self.back, size_hint_x=0.6))
        if self.editing is None:
            bar.add_widget(Widget(size_hint_x=None, width=SCALE.px(10)))
            for i, (name, _) in enumerate(SECTIONS):
                tab = big_button(tr(name), partial(self.show_section, i))
                if i == self.section:
                    tab.background_color = theme.ACCENT
                    tab.color = theme.BANNER_TEXT
                bar.add_widget(tab)
        else:
            bar.add_widget(Widget(size_hint_x=3))  # Back as wide as on the list
        box.add_widget(bar)

    def _bar(self) -> BoxLayout:
        return BoxLayout(size_hint_y=None, height=SCALE.target(52), spacing=SCALE.px(6))

    def _list(self, gap: float) -> None:
        # Two columns side by side on a wide screen, one under the other when upright.
        grid = FitGrid(most=1 if SCALE.portrait else 2, tall=SCALE.target(150), spacing=gap)
        for item in SECTIONS[self.section][1]:
            grid.add_widget(self._setting_tile(item))
        self.box.add_widget(grid)

    def _setting_tile(self, item: Item) -> Tile:
        value = self.value(item.key)
        words = item.words(value)
        kiosk = kiosk_set(self.app, item.key)
        if kiosk:
            words = f"{words} ({tr('set by the kiosk')})"
        lines: list[Line] = [
            (tr(item.name), SCALE.font(18), True, theme.TEXT),
            (words, SCALE.font(18), True, theme.TEXT_DIM if kiosk else theme.ACCENT),
            (tr(item.explain), SCALE.font(15), False, theme.TEXT_DIM),
        ]
        tile = Tile(lines, theme.PANEL, partial(self.edit, item.key))
        tile.key = item.key
        return tile

    def _editor(self, item: Item, gap: float) -> None:
        value = self.value(item.key)
        kiosk = kiosk_set(self.app, item.key)
        bar = self._bar()
        title = Label(
            text=tr(item.name),
            bold=True,
            font_size=SCALE.font(22),
            color=theme.ACCENT,
            halign="left",
            valign="middle",
        )
        title.bind(size=lambda w, s: setattr(w, "text_size", s))
        bar.add_widget(title)
        self.box.add_widget(bar)
        if item.typed and not kiosk:
            # At the top: the kiosk's keyboard comes up over the bottom of the screen.
            self.box.add_widget(self._port_row(value))
        self.box.add_widget(wrapping_label(tr(item.explain), font=SCALE.font(17), color=theme.TEXT))
        now = tr("Now: {value}").format(value=item.words(value))
        said = origin(self.app, item.key)
        self.box.add_widget(
            wrapping_label(
                f"{now}. {said}",
                font=SCALE.font(16),
                color=theme.ACCENT if kiosk else theme.TEXT_DIM,
            )
        )
        grid = FitGrid(most=12, tall=SCALE.target(72), spacing=gap)
        for choice in choices(item, value):
            grid.add_widget(self._choice_tile(item, choice, choice == value, kiosk))
        self.box.add_widget(grid)

    def _choice_tile(self, item: Item, choice: str, chosen: bool, kiosk: bool) -> Tile:
        ink = theme.BANNER_TEXT if chosen else theme.TEXT_DISABLED if kiosk else theme.TEXT
        lines: list[Line] = [(item.button(choice), SCALE.font(18), True, ink)]
        if item.detail is not None and item.detail(choice):
            dim = theme.BANNER_TEXT if chosen else theme.TEXT_DIM
            lines.append((item.detail(choice), SCALE.font(14), False, dim))
        fill = theme.ACCENT if chosen else theme.BUTTON_DISABLED if kiosk else theme.BUTTON
        tile = Tile(lines, fill, partial(self.choose, item.key, choice), centred=True)
        tile.value = choice
        tile.disabled = kiosk
        return tile

    def _port_row(self, value: str) -> BoxLayout:
        """A port typed on the keyboard (the kiosk's comes up on the screen)."""
        row = self._bar()
        field = TextInput(
            text=value,
            multiline=False,
            write_tab=False,
            font_size=SCALE.font(20),
            hint_text=tr("Type a port: /dev/ttyUSB0"),
            background_color=theme.PANEL_ACTIVE,
            foreground_color=theme.TEXT,
            hint_text_color=theme.TEXT_DIM,
            cursor_color=theme.ACCENT,
            padding=[SCALE.px(8), SCALE.px(10)],
        )
        field.bind(on_text_validate=self.typed_port)
        self.port_field = field
        row.add_widget(field)
        use = big_button(tr("Use this port"), self.typed_port, size_hint_x=None)
        use.width = max(SCALE.px(160), widest_word(use.text, 18) * 2.2)
        row.add_widget(use)
        return row
