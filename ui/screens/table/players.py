"""The players: every one in full where the window has room, else the player to act in
full and the others in a line each; a tap on any opens the whole table at a glance.

In full a panel shows the name, the nobles won, the points, the reserved cards (tap one
to buy it), and a column per colour: the tokens held over the bonuses owned, with the
token total against the game's limit. In a line: the name over the points, the same
columns of tokens over bonuses with the total, the reserved cards and nobles counted: on
a landscape screen with four players every player's holdings are in view without a tap
(issue 34), the player to act's the largest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.engine.cards import Card
from companion.engine.game import Hidden, Seat
from companion.engine.rules import BASE
from companion.engine.tokens import Colour

from ... import theme
from ...dialogs import Dialog
from ...i18n import tr
from ...scale import SCALE
from ...widgets.drawing import draw_back, draw_bonus, draw_gem
from ...widgets.pieces import CardView
from ...widgets.text import draw_text, fit_name, text_width
from .tally import TallyGrid, grid_least

ROOM = 118  # px at 800x480 a player in full needs: with this much for each, all are in full
DIGIT = 0.76  # a held token's count, of its gem's side
LINE = 50  # px at 800x480: a player's line, its gems' counts at the text floor


def line_least() -> float:
    """The least height of a player's line: a finger's height, and its tokens over its
    bonuses with their counts at the text floor (44 px at 800x480, 36 at 480x320)."""
    return float(max(SCALE.min_target, 2 * SCALE.min_text / (DIGIT * 0.96) + 2))


def full_least(text: float = 0.0) -> float:
    """The least height of a player in full: its top line a finger's height, its counts
    at ``text`` px (the text floor by default; its gems twice the text over their share
    of the count)."""
    return float(SCALE.min_target + 2 * (text or SCALE.min_text) / (DIGIT * 0.96) + 16)


class Holdings(Widget):
    """Per colour, the tokens held (bare gems) over the bonuses owned (gems on a card),
    then the token total against the limit: ``7/10``, in warning colours near the limit."""

    tokens = ListProperty([0] * 6)
    bonuses = ListProperty([0] * 5)
    nobles = NumericProperty(0)  # nobles won: a tile with their number under the total
    limit = NumericProperty(BASE.token_limit)  # the shown game's (T1), set with the tokens
    compact = BooleanProperty(False)  # in a player's line: the nobles are counted beside it
    across = True  # its counts are read across the table (the legibility test checks them)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon)
        self.bind(tokens=self.redraw_soon, bonuses=self.redraw_soon, nobles=self.redraw_soon)
        self.bind(limit=self.redraw_soon, compact=self.redraw_soon)

    def gem_side(self) -> float:
        """A gem's side: the counts are drawn at ``DIGIT`` times it."""
        cw = self.width * 0.8 / 6
        return float(min(cw * 0.92, self.height / 2 * 0.96))

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        total_w = w * 0.2
        cw = (w - total_w) / 6
        d = self.gem_side()
        for colour in Colour:
            px = x + colour * cw + (cw - d) / 2
            top = y + h / 2 + (h / 2 - d) / 2
            held = self.tokens[colour]
            if held:
                draw_gem(c, colour, px, top, d, str(held), digit=DIGIT)
            else:
                c.add(Color(1, 1, 1, 0.1))
                c.add(RoundedRectangle(pos=(px + d * 0.3, top + d * 0.3), size=(d * 0.4, d * 0.4)))
            if colour == Colour.GOLD:
                continue
            draw_bonus(c, colour, px, y + (h / 2 - d) / 2, d, self.bonuses[colour])
        total = sum(self.tokens)
        limit = int(self.limit)
        ink = theme.ERROR if total >= limit else theme.ACCENT if total >= limit - 2 else theme.TEXT
        tx = x + w - total_w
        if self.compact:  # a line: the total across its height, the nobles beside it
            draw_text(c, f"{total}/{limit}", tx, y, total_w, h, ink, h * 0.36)
            return
        draw_text(c, f"{total}/{limit}", tx, y + h / 2, total_w, h / 2, ink, h * 0.38)
        if self.nobles:
            side = min(total_w * 0.7, h / 2 * 0.9)
            nx, ny = tx + (total_w - side) / 2, y + (h / 2 - side) / 2
            c.add(Color(*theme.NOBLE_FILL))
            c.add(RoundedRectangle(pos=(nx, ny), size=(side, side), radius=[4]))
            c.add(Color(*theme.NOBLE_RING))
            c.add(Line(rounded_rectangle=(nx, ny, side, side, 4), width=1.2))
            draw_text(c, str(self.nobles), nx, ny, side, side, theme.NOBLE_INK, side * 0.6)
        else:
            draw_text(c, tr("tokens"), tx, y, total_w, h / 2, theme.TEXT_DIM, h * 0.24, bold=False)


class Counts(Widget):
    """The reserved cards and the nobles of a player in a line, counted: a card's back
    with the number reserved, a noble's tile with the number won (nothing when none)."""

    reserved = ListProperty([])  # the reserved cards' levels
    nobles = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon)
        self.bind(reserved=self._widen, nobles=self._widen, height=self._widen)

    def _widen(self, *_: Any) -> None:
        shown = bool(self.reserved) + bool(self.nobles)
        self.width = shown * self.height * 0.8
        self.redraw_soon()

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        h = self.height
        w = h * 0.62
        x = self.x + h * 0.09
        y = self.y + h * 0.1
        if self.reserved:
            draw_back(c, max(self.reserved), x, y, w, h * 0.8, 4)
            draw_text(c, str(len(self.reserved)), x, y, w, h * 0.8, theme.TEXT, h * 0.45)
            x += h * 0.8
        if self.nobles:
            c.add(Color(*theme.NOBLE_FILL))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h * 0.8), radius=[4]))
            c.add(Color(*theme.NOBLE_RING))
            c.add(Line(rounded_rectangle=(x, y, w, h * 0.8, 4), width=1.2))
            draw_text(c, str(self.nobles), x, y, w, h * 0.8, theme.NOBLE_INK, h * 0.45)


class PlayerPanel(ButtonBehavior, BoxLayout):
    """One player, in one of three arrangements (``mode``):

    - ``full``: name, nobles, points and reserve on top, the holdings below;
    - ``line``: one line (name, token total, reserve and nobles counted, points);
    - ``wide``: one row (name and points, the holdings, the reserve): the overview.
    """

    active = BooleanProperty(False)
    mode = StringProperty("full")

    def __init__(
        self,
        on_reserved: Callable[[int, Card | Hidden], None],
        on_open: Callable[[int], None],
        **kw: Any,
    ) -> None:
        super().__init__(padding=4, spacing=4, **kw)
        self.on_reserved = on_reserved
        self.seat_index = 0
        self.seat: tuple[Seat, bool, set[str]] | None = None  # what show() was last given
        self.reserve_slots = BASE.reserve_limit  # the shown game's (A4), set by show()
        self.bind(on_release=lambda *_: on_open(self.seat_index))
        self.top_row = BoxLayout(spacing=4)
        self.name_label = Label(halign="left", valign="middle", bold=True)
        self.name_label.full_name = ""
        fit_name(self.name_label, lambda: SCALE.min_text + 2, lambda: SCALE.font(21))
        self.summary = Label(halign="right", valign="middle", size_hint_x=None)
        self.points_label = Label(
            size_hint_x=None, halign="center", valign="middle", bold=True, color=theme.ACCENT
        )
        self.points_label.bind(height=self._bg)
        self.summary.bind(texture_size=lambda w, ts: setattr(w, "width", ts[0] + 4))
        self.counts = Counts(size_hint_x=None)
        self.reserved = BoxLayout(spacing=4, size_hint_x=None)
        self.holdings = Holdings()
        self.names = BoxLayout(orientation="vertical", size_hint_x=None)  # a line's name
        # In full, how crowded the top line is: 0, the name, points and reserve side by
        # side; 1, the name over the points; 2, the reserve counted too (a long name in a
        # narrow panel: its cards one tap away, in the overview). Side by side, the name
        # was cut inside its word (issue 34: "Cle…" at 480x800).
        self.crowd = 0
        self.top_row.bind(height=self._bg)
        self.bind(pos=self._bg, size=self._bg, active=self._bg, mode=self._arrange)
        SCALE.bind(unit=self._bg)
        self._arrange()

    @property
    def full(self) -> bool:
        """Everything about the player is on the panel (not one line)."""
        return str(self.mode) != "line"

    def _arrange(self, *_: Any) -> None:
        self.clear_widgets()
        self.top_row.clear_widgets()
        self.names.clear_widgets()
        for label in (self.name_label, self.points_label):  # out of any earlier box
            if label.parent is not None:
                label.parent.remove_widget(label)
        self.holdings.compact = self.mode == "line"
        self.padding = [4, 1] if self.mode == "line" else 4  # a line's gems: all its height
        self.points_label.size_hint_x = None
        self.names.size_hint_x = None
        self.orientation = "horizontal" if self.mode == "wide" else "vertical"
        if self.mode == "full" and self.crowd:  # a narrow panel: the name over the points
            self.names.add_widget(self.name_label)
            self.names.add_widget(self.points_label)
            self.points_label.size_hint_x = 1
            self.names.size_hint_x = 1  # all the reserve leaves
            for widget in (self.names, self.reserved if self.crowd == 1 else self.counts):
                self.top_row.add_widget(widget)
        if self.mode == "full":  # the nobles: under the token total
            if not self.crowd:
                for widget in (self.name_label, self.points_label, self.reserved):
                    self.top_row.add_widget(widget)
            self.top_row.size_hint = (1, None)
            self.holdings.size_hint = (1, 1)
            self.add_widget(self.top_row)
            self.add_widget(self.holdings)
        elif self.mode == "line":  # the name over the points, the holdings, the counts
            self.names.clear_widgets()
            self.names.add_widget(self.name_label)
            self.names.add_widget(self.points_label)
            for widget in (self.names, self.holdings, self.counts):
                self.top_row.add_widget(widget)
            self.top_row.size_hint = (1, 1)
            self.holdings.size_hint = (1, 1)
            self.add_widget(self.top_row)
        else:
            names = BoxLayout(
                orientation="vertical", size_hint_x=0.4 if SCALE.small or SCALE.portrait else 0.3
            )
            names.add_widget(self.name_label)
            line = BoxLayout()
            line.add_widget(self.points_label)
            line.add_widget(Widget())
            names.add_widget(line)
            self.add_widget(names)
            self.holdings.size_hint = (0.34 if SCALE.small or SCALE.portrait else 0.44, 1)
            self.add_widget(self.holdings)
            self.add_widget(self.reserved)
        self._bg()

    def _bg(self, *_: Any) -> None:
        if self.mode == "full":  # the top line: a finger's height at the least
            self.top_row.height = max(SCALE.min_target, self.height * 0.38)
        crowd = self._crowded() if self.mode == "full" else 0
        if crowd != self.crowd:
            self.crowd = crowd
            self._arrange()
            if self.seat is not None:
                self.show(*self.seat)  # the reserve as cards, or counted
            return
        line = self.top_row.height if self.mode == "full" else self.points_label.height
        if self.mode == "line":
            line = self.height / 2 - 1  # its padding: [4, 1]
        elif self.crowd:
            line = self.top_row.height / 2
        self.summary.font_size = SCALE.font(18)
        self.points_label.font_size = max(SCALE.min_text, min(SCALE.font(30), line * 0.8))
        # As wide as its number: a narrow panel keeps the room for the name.
        self.points_label.texture_update()
        self.points_label.width = self.points_label.texture_size[0] + SCALE.px(12)
        if self.mode == "line":
            # The name's block: as wide as the name at a readable size, up to a quarter
            # of the line (a longer name is fitted: whole, or cut between its words).
            self.points_label.size_hint_x = 1
            name = self.name_label.full_name or ""
            want = text_width(name, SCALE.font(17), bold=True)
            least = text_width(name, SCALE.min_text, bold=True)  # whole at the floor
            self.names.width = max(
                self.points_label.width,
                min(max(want, least) + SCALE.px(6), self.width * 0.27),
                min(least + 6, self.width * 0.4),
            )
        # The reserve's slots: as tall as the top line, a finger wide, never more than
        # half the panel (a narrow panel keeps room for the name).
        slot = self.top_row.height if self.mode == "full" else self.height * 0.9
        room = self.width * 0.5 - self.counts.width if self.mode == "full" else self.width * 0.26
        slots = self.reserve_slots
        least = slots * SCALE.min_target + (slots - 1) * 4
        self.reserved.width = max(least, min(slots * slot + (slots - 1) * 4, room))
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*(theme.PANEL_ACTIVE if self.active else theme.PANEL))
            RoundedRectangle(pos=self.pos, size=self.size, radius=[8])
            if self.active:
                Color(*theme.ACCENT)
                Line(
                    rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, 8),
                    width=2,
                )

    def _crowded(self) -> int:
        """In full, how crowded the top line is (:attr:`crowd`): the name at the text
        floor beside the points and the reserve's slots, over the points, or beside the
        reserve counted."""
        name = text_width(self.name_label.full_name or "", SCALE.min_text, bold=True) + 8
        slots = self.reserve_slots
        reserve = slots * SCALE.min_target + (slots - 1) * 4 + 16
        points = text_width(self.points_label.text or "0", SCALE.font(30), bold=True)
        if name + points + SCALE.px(12) + reserve <= self.width:
            return 0
        return 1 if name + reserve <= self.width else 2

    def show(self, seat: Seat, active: bool, affordable: set[str]) -> None:
        self.seat = (seat, active, affordable)
        self.seat_index = seat.seat
        self.reserve_slots = seat.rules.reserve_limit
        self.active = active
        self.name_label.full_name = seat.name
        self.name_label.fit_name()
        self.points_label.text = str(seat.points)
        self.points_label.texture_update()
        limit = seat.rules.token_limit
        self.summary.text = tr("{n}/{limit} tokens").format(n=seat.tokens.total, limit=limit)
        self.summary.color = theme.ERROR if seat.tokens.total >= limit else theme.TEXT
        counted = self.mode == "line" or self.crowd == 2
        self.counts.nobles = len(seat.nobles) if self.mode == "line" else 0
        self.counts.reserved = [c.level for c in seat.reserved] if counted else []
        self.holdings.nobles = len(seat.nobles)
        self.holdings.limit = seat.rules.token_limit
        self.holdings.tokens = list(seat.tokens)
        self.holdings.bonuses = list(seat.bonuses)
        self.reserved.clear_widgets()
        for item in seat.reserved:
            view = CardView(
                card=item, small=True, highlight=isinstance(item, Card) and item.id in affordable
            )
            view.bind(on_release=lambda v, it=item: self.on_reserved(self.seat_index, it))
            self.reserved.add_widget(view)
        for _ in range(self.reserve_slots - len(seat.reserved)):
            self.reserved.add_widget(Widget())
        self._bg()


class Others(ButtonBehavior, Label):
    """The other players in one line while the companion's move takes the room: names and
    points; a tap opens the whole table."""


class PlayersColumn(GridLayout):
    """The panels in play order. With room (a portrait window; two players) every player
    in full; else the player to act in full and the others one line each, the lines
    giving up their height down to :func:`line_least` for the player to act's room (a
    refusal's two lines). While a move is docked beside them (``docked``) in landscape
    with three or four players, every player a line, the one to act outlined: the move's
    pictures are what the person making it needs, and each player's holdings stay in
    view (issue 34). Where the lines do not fit, a grid of the players' counts takes
    their place (:meth:`grid_fits`, :mod:`.tally`): on the 3.5-inch screen with three or
    four players, under the player to act in full, or every player beside a docked move;
    on the larger screens under a refusal of three lines. On the 3.5-inch screen with four
    players, a notice (the take's hint, a refusal) leaves no room for the player to act in
    full too: every player is then a row, the one to act outlined (:meth:`everyone`).
    Where even that leaves no room, the others share one line of names and points, a tap
    from the whole table."""

    def __init__(
        self,
        on_reserved: Callable[[int, Card | Hidden], None],
        on_open: Callable[[int], None],
        **kw: Any,
    ) -> None:
        super().__init__(cols=1, spacing=4, **kw)
        self.on_reserved = on_reserved
        self.on_open = on_open
        self._panels: list[PlayerPanel] = []
        self.others = Others(bold=True, halign="center", valign="middle", color=theme.TEXT)
        self.others.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
        self.others.bind(on_release=lambda *_: on_open(-1))
        self.grid = TallyGrid(on_open)  # the 3.5-inch screen's players (:mod:`.tally`)
        self.last: tuple[Any, ...] = ()
        self.bind(size=lambda *_: self.show(*self.last) if self.last else None)

    @property
    def panels(self) -> list[PlayerPanel]:
        return list(self._panels)

    def line_height(self, lines: int, rest: float) -> float:
        """Each of ``lines`` lines' height when ``rest`` is left for the player to act:
        a line's own (``LINE``) where the column has it, down to :func:`line_least`."""
        room = (self.height - rest) / max(1, lines) - self.spacing[1]
        return float(max(line_least(), min(SCALE.target(LINE), room)))

    def lines_fit(self, n: int, everyone: bool = False) -> bool:
        """A line for each of the others and the player to act still in full with its
        counts at the text floor (``everyone``: a line for every player), else the
        others share one line (a refusal's three lines on the 7-inch screen)."""
        line = line_least() + self.spacing[1]
        if everyone:
            return bool(self.height >= n * line - self.spacing[1])
        return bool(self.height >= (n - 1) * line + full_least())

    def grid_fits(self, n: int, docked: bool) -> bool:
        """Three or four players in landscape, where the players' lines do not fit, the
        grid of their counts does (:mod:`.tally`, rows under a finger's height: the grid
        is one target). On the 3.5-inch screen: every player a row beside a docked move,
        else the player to act in full over the others' rows. On the larger screens: a
        refusal of three lines (French at 800x480) leaves no room for the others' lines
        under the player to act in full, but for their rows (before, the player to act
        became a line too, its reserved cards only a count). On the 3.5-inch screen,
        where the player to act in full and the others' rows do not fit under a notice,
        every player's row does (:meth:`everyone`). Where even the rows do not fit, the
        others share one line of names and points while it shows."""
        if SCALE.portrait or n < 3 or (docked and not SCALE.small):
            return False
        if docked:
            return True  # the move leaves the grid its room (ActionColumn.share)
        if not SCALE.small and self.lines_fit(n):
            return False  # a line each: their gems as large as the player to act's
        if self.full_over_rows(n):
            return True
        # The 3.5-inch screen under a notice (the take's hint, a refusal): every player a
        # row, the one to act outlined, while it shows (:meth:`everyone`).
        return bool(SCALE.small and self.height >= grid_least(n))

    def everyone(self, n: int, docked: bool) -> bool:
        """Every player a row of the grid, the one to act outlined: beside a docked move,
        and on the 3.5-inch screen where a notice (the take's one-line hint, a refusal)
        leaves no room for the player to act in full over the others' rows. The one to
        act then has its counts in a row like the others (its tokens and their total are
        what a take needs; its reserved cards are a tap away, in the players' overview),
        rather than the others sharing one line of names and points."""
        return docked or not self.full_over_rows(n)

    def full_over_rows(self, n: int) -> bool:
        """The player to act in full over a row of the grid for each of the others."""
        return bool(self.height >= full_least() + self.spacing[1] + grid_least(n - 1))

    def room(self, n: int) -> bool:
        """Every player in full: two players, or a column tall enough for all."""
        return n == 2 or SCALE.portrait or self.height >= n * SCALE.px(ROOM)

    def show(
        self,
        seats: tuple[Seat, ...],
        to_act: int | None,
        affordable: set[str],
        docked: bool = False,
    ) -> None:
        self.last = (seats, to_act, affordable, docked)
        n = len(seats)
        while len(self._panels) < n:
            self._panels.append(PlayerPanel(on_reserved=self.on_reserved, on_open=self.on_open))
        del self._panels[n:]
        self.clear_widgets()
        self.cols = 2 if SCALE.portrait and n > 1 else 1
        if self.grid_fits(n, docked):
            self._show_grid(seats, to_act, affordable, docked)
            return
        landscape = docked and not SCALE.portrait
        # Beside a docked move in landscape, every player a line, the one to act too
        # (three or four players; on the 3.5-inch screen with two as well, where in full
        # its counts were pressed flat): the move has its room, every count its floor.
        squeezed = landscape and (n > 2 or SCALE.small)
        # Where neither lines nor the grid fit under the player to act in full (a column
        # shorter than any display's, but for a refusal on the 3.5-inch screen): the
        # player to act a line too, outlined, rather than the others' holdings a tap away.
        squeezed = squeezed or (
            not SCALE.portrait
            and not SCALE.small
            and n > 2
            and not self.lines_fit(n)
            and self.lines_fit(n, everyone=True)
        )
        # Landscape beside a docked move, two players: the player to act in full, the
        # other a line.
        everyone = self.room(n) and not landscape
        # The others in one line: where a line each would leave no room (:meth:`lines_fit`),
        # and on the 3.5-inch screen beside a docked move (its pictures need the room).
        fits = self.lines_fit(n, squeezed) and not (landscape and SCALE.small)
        shared = not everyone and n > 2 and not fits
        lines = n if squeezed else n - 1
        # The player to act in full keeps its counts read across the table (18 px at
        # 800x480) before the others' lines grow past their least.
        line_height = self.line_height(lines, 0.0 if squeezed else full_least(SCALE.font(18)))
        for seat, panel in zip(seats, self._panels, strict=True):
            active = seat.seat == to_act
            panel.mode = "full" if everyone or (active and not squeezed) else "line"
            if shared and not active:
                continue  # said in the line of the others
            # A player in a line: a finger's height and its counts' room; the player to
            # act: all the rest.
            line = panel.mode == "line"
            panel.size_hint_y = None if line else 1.0
            panel.height = line_height if line else panel.height
            self.add_widget(panel)
            panel.show(seat, active, affordable if active else set())
        if shared:
            self.others.text = "   ".join(f"{s.name} {s.points}" for s in seats if s.seat != to_act)
            self.others.font_size = SCALE.font(18)
            self.others.size_hint_y = None
            self.others.height = SCALE.target(46)
            self.add_widget(self.others)

    def _show_grid(
        self, seats: tuple[Seat, ...], to_act: int | None, affordable: set[str], docked: bool
    ) -> None:
        """The 3.5-inch screen's arrangement (:meth:`grid_fits`): beside a docked move (or
        under a notice, :meth:`everyone`) the grid of every player, the one to act
        outlined; else the player to act in full (its reserved cards a tap away) over the
        grid of the others."""
        everyone = self.everyone(len(seats), docked)
        shown = [s for s in seats if everyone or s.seat != to_act]
        if not everyone:
            for seat, panel in zip(seats, self._panels, strict=True):
                if seat.seat == to_act:
                    panel.mode = "full"
                    panel.size_hint_y = 1.0
                    self.add_widget(panel)
                    panel.show(seat, True, affordable)
        self.grid.size_hint_y = 1.0 if everyone or to_act is None else None
        self.grid.height = grid_least(len(shown))
        self.add_widget(self.grid)
        self.grid.show(shown, to_act if everyone else None)


class PlayersDialog(Dialog):
    """The whole table at a glance: every player in one row on a wide window, each in full
    upright (name, points and reserve over the holdings: in a row, the reserved cards
    were tall stripes there, issue 34); the tapped one outlined; a reserved card tapped
    there closes it and goes to ``on_reserved``."""

    def __init__(
        self,
        seats: tuple[Seat, ...],
        chosen: int,
        on_reserved: Callable[[int, Card | Hidden], None],
    ) -> None:
        super().__init__(tr("The players"))
        self.seats = seats
        self.chosen = chosen
        self.rows = GridLayout(cols=1, spacing=6, size_hint_y=None)
        self.scroll = ScrollView(do_scroll_x=False)  # four rows a finger can hit, on any screen
        self.scroll.add_widget(self.rows)

        def reserved(seat: int, item: Card | Hidden) -> None:
            self.dismiss()
            on_reserved(seat, item)

        for _ in seats:
            panel = PlayerPanel(on_reserved=reserved, on_open=lambda _: None)
            panel.size_hint_y = None
            self.rows.add_widget(panel)
        self._modes()
        self.scroll.bind(height=self._share)
        self.body.add_widget(self.scroll)
        self.button(tr("Close"), self.dismiss)

    def _modes(self) -> None:
        for seat, panel in zip(self.seats, reversed(self.rows.children), strict=True):
            panel.mode = "full" if SCALE.portrait else "wide"
            panel.show(seat, seat.seat == self.chosen, set())

    def _share(self, *_: Any) -> None:
        """The rows share the height, each a finger's and its counts' at the least."""
        n = len(self.seats)
        least = full_least() if SCALE.portrait else SCALE.min_target + 12
        each = max(SCALE.target(64), least, (self.scroll.height - 6 * (n - 1)) / n)
        for panel in self.rows.children:
            panel.height = each
        self.rows.height = each * n + 6 * (n - 1)

    def lay_out(self) -> None:
        self._modes()
        super().lay_out()
        self._share()
