"""Statistics per player at the table: games, wins, averages, favourite bonus, fastest
win; two players head to head; two spellings of one person merged (and separated again).

Two views: the people's games between themselves, and their games against the companion
(counted apart), level by level: how many, how many the people won, each person's figures. The
companion is never a player of either list. Two taps choose two players, in either view;
what can be done with them is then offered. The figures are the core's
(:mod:`companion.reports.stats`), over every finished game of the journal.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.graphics import Color, Ellipse, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion import i18n
from companion.engine.tokens import Colour
from companion.i18n import N_, ngettext, number, percent
from companion.journal.store import StoreError, resolve
from companion.reports.stats import (
    CompanionLevel,
    PlayedGame,
    PlayerStats,
    head_to_head,
    level_words,
    people_and_levels,
    played_games,
)

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, fit_row, gap, refit
from ..scale import SCALE
from .club import club_joined
from .listing import (
    Layout,
    Panel,
    Row,
    cell,
    fits,
    header,
    line_height,
    one_line,
    rows_view,
    title,
    when,
)

if TYPE_CHECKING:
    from ..context import AppContext

# The columns between people, and against the companion (per level, fewer columns: wider).
PEOPLE_TITLES = (
    N_("Player"),
    N_("Games"),
    N_("Wins"),
    N_("Win rate"),
    N_("Average points"),
    N_("Average rounds"),
    N_("Favourite bonus"),
    N_("Fastest win"),
)
WIDTHS = (0.19, 0.08, 0.1, 0.09, 0.1, 0.1, 0.13, 0.21)
COMPANION_TITLES = tuple(t for t in PEOPLE_TITLES if t not in ("Average rounds", "Favourite bonus"))
COMPANION_WIDTHS = (0.27, 0.1, 0.1, 0.13, 0.15, 0.25)
# Where the columns do not fit side by side (portrait, a 3.5-inch screen): a player's
# card, the name on a line of its own, each figure below it with its own title ("Wins:
# 3"), two a line: no column titles above to decode the lines with.
PEOPLE_NARROW: Layout = [
    [(0, 1.0)],
    [(1, 0.5), (2, 0.5)],
    [(3, 0.5), (4, 0.5)],
    [(5, 0.5), (6, 0.5)],
    [(7, 1.0)],
]
COMPANION_NARROW: Layout = [[(0, 1.0)], [(1, 0.5), (2, 0.5)], [(3, 0.5), (4, 0.5)], [(5, 1.0)]]
PEOPLE, COMPANION = "people", "companion"  # the two views


def _list_part(titles: tuple[str, ...], widths: tuple[float, ...], layout: Layout) -> BoxLayout:
    """A list's part of the screen, its column titles on top (none over cards, whose
    figures say their titles); the rows go below."""
    said = tuple(tr(t) for t in titles)
    part = BoxLayout(orientation="vertical", spacing=gap(6))
    if len(layout) == 1:
        part.add_widget(header(list(zip(said, widths, strict=True)), layout))
    return part


def _titled(
    titles: tuple[str, ...], cells: list[tuple[str, float]], layout: Layout
) -> list[tuple[str, float]]:
    """A row's cells for ``layout``: on a card (more than one line), every figure after
    the name with its title ("Wins: 3"), on one line."""
    if len(layout) == 1:
        return cells
    return [cells[0]] + [
        (tr("{title}: {value}").format(title=tr(t), value=text.replace("\n", ", ")), width)
        for t, (text, width) in zip(titles[1:], cells[1:], strict=True)
    ]


def _arranged(
    titles: tuple[str, ...], widths: tuple[float, ...], narrow: Layout, rows: list[Any]
) -> Layout:
    """In landscape, side by side where every word of the titles and ``rows`` fits; else
    (and in portrait) ``narrow``."""
    layout = one_line(widths)
    if SCALE.portrait or not fits(layout, [tuple(tr(t) for t in titles), *rows], bold=[True]):
        return narrow
    return layout


def fastest_text(game: PlayedGame | None) -> str:
    """The fastest win, by its date (players know their evenings, not the journal's ids)."""
    if game is None:
        return "-"
    rounds = ngettext("{n} round", "{n} rounds", game.rounds).format(n=game.rounds)
    day = when(game.started_at)[:10]
    if game.minutes is not None:
        day = tr("{minutes} min").format(minutes=game.minutes) + ", " + day
    return rounds + "\n" + day


def colour_text(colour: Colour | None) -> str:
    return tr(colour.key) if colour is not None else "-"


def pip(label: Label, colour: Colour | None) -> None:
    """A bonus colour's token beside its name: the word says it too, for every eye."""
    if colour is None:
        return

    def draw(*_: Any) -> None:
        label.canvas.before.clear()
        d = SCALE.font(16)  # not from the label's size: its padding changes that
        x, y = label.x, label.center_y - d / 2
        with label.canvas.before:
            Color(*theme.TOKEN_FILL[colour])
            Ellipse(pos=(x, y), size=(d, d))
            Color(*theme.TOKEN_RING[colour])
            Line(circle=(x + d / 2, y + d / 2, d / 2), width=1)
        label.padding = [d + 6, 0, 0, 0]

    label.bind(pos=draw, size=draw)


class StatsScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="stats", **kw)
        self.app = app
        self.view = PEOPLE
        self.chosen: list[str] = []
        self.games: list[PlayedGame] = []
        self.lines: list[PlayerStats] = []
        self.levels: list[CompanionLevel] = []
        self.rows: dict[str, Row] = {}  # between people: one a person
        # Against the companion: one a person and level, under each level's line.
        self.level_rows: dict[tuple[str, str], Row] = {}
        self.level_lines: dict[str, Label] = {}
        self.panel: Panel | None = None
        self.said = ("", False)  # the line under the list, and whether it is a refusal
        self.loaded = False
        self.made: tuple[tuple[Any, ...], BoxLayout] | None = None  # the list last made
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)

    def lay_out(self) -> None:
        """The window changed: the same figures and line, arranged for it (the games are
        not replayed again)."""
        if self.loaded:
            self._draw(self.said[0], not self.said[1])

    def show(self, message: str = "", ok: bool = True) -> None:
        self.chosen = []
        self.view = PEOPLE
        self.refresh(message, ok)

    def switch(self) -> None:
        """Between people, or against the companion: the other view, the choice kept."""
        self.view = COMPANION if self.view == PEOPLE else PEOPLE
        self.refresh()

    def refresh(self, message: str = "", ok: bool = True) -> None:
        """The figures computed afresh from the journal, and ``message`` said."""
        store = self.app.store
        # Every game, for head to head and for the refusal to merge two people who met:
        # the companion at the table does not change who finished ahead of whom.
        self.games = played_games(store)
        self.lines, self.levels = people_and_levels(self.games)
        people = {s.name for s in self.lines} | {
            s.name for level in self.levels for s in level.players
        }
        self.chosen = [n for n in self.chosen if n in people]
        self.loaded = True
        self._draw(message, ok)

    def _draw(self, message: str, ok: bool) -> None:
        aliases = self.app.store.aliases()
        box = self.box
        box.clear_widgets()
        box.padding = gap(8)
        box.spacing = gap(6)
        top = BoxLayout(size_hint_y=None, height=line_height(), spacing=gap(8))
        if self.view == PEOPLE:
            top.add_widget(title(tr("Statistics: between people")))
            top.add_widget(button(tr("Against the companion"), self.switch, size_hint_x=0.4))
        else:
            top.add_widget(title(tr("Statistics: against the companion")))
            top.add_widget(button(tr("Between people"), self.switch, size_hint_x=0.4))
        box.add_widget(top)
        box.add_widget(self._list(aliases))
        self.note = cell("", 1)
        box.add_widget(self.note)
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.2, spacing=gap(8))
        bar.add_widget(button(tr("Back"), self.back))
        self.versus_button = button(tr("Head to head"), self.versus)
        self.merge_button = button(tr("Same person"), self.ask_merge)
        self.names_button = button(tr("Merged names"), self.show_names)
        for choice in (self.versus_button, self.merge_button, self.names_button):
            bar.add_widget(choice)
        if club_joined(
            self.app.store.path.parent
        ):  # a club's kiosk: its league (ui/screens/club.py)
            bar.add_widget(button(tr("Club"), self.show_club))
        box.add_widget(bar)
        self._mark()
        self.say(message, error=not ok)

    def _list(self, aliases: dict[str, str]) -> BoxLayout:
        """The view's list. Made again only when its figures or its arrangement change;
        after a resize that keeps the arrangement, the same rows fitted again (a list is
        many labels, slow to make)."""
        if self.view == PEOPLE:
            people = self._people_columns(aliases)
            texts = [tuple(t for t, _ in c) for c in people.values()]
            layout = _arranged(PEOPLE_TITLES, WIDTHS, PEOPLE_NARROW, texts)
        else:
            figures = self._companion_figures()
            layout = _arranged(
                COMPANION_TITLES, COMPANION_WIDTHS, COMPANION_NARROW, list(figures.values())
            )
        key = (self.view, id(self.games), len(layout), i18n.language())
        if self.made is not None and self.made[0] == key:
            part = self.made[1]
            if part.parent is not None:
                part.parent.remove_widget(part)
            refit(part)
            return part
        self.rows, self.level_rows, self.level_lines = {}, {}, {}
        if self.view == PEOPLE:
            part = self._people(people, layout)
        else:
            part = self._companion(figures, layout)
        self.made = (key, part)
        return part

    def _people_columns(self, aliases: dict[str, str]) -> dict[str, list[tuple[str, float]]]:
        columns = {}
        for line in self.lines:
            spellings = sorted(n for n in aliases if resolve(aliases, n) == line.name)
            columns[line.name] = self._columns(line, spellings)
        return columns

    def _people(self, columns: dict[str, list[tuple[str, float]]], layout: Layout) -> BoxLayout:
        """The people's games between themselves: a line a person, as before the companion."""
        part = _list_part(PEOPLE_TITLES, WIDTHS, layout)
        for line in self.lines:
            choose = partial(self.choose, line.name)
            cells = _titled(PEOPLE_TITLES, columns[line.name], layout)
            row = Row(cells, choose, lines=2 if len(layout) == 1 else 1, layout=layout)
            pip(row.cells[6], line.favourite_bonus)
            row.cells[0].bold = len(layout) > 1  # a card's name heads it
            self.rows[line.name] = row
        part.add_widget(rows_view(list(self.rows.values()), tr("No games between people yet.")))
        return part

    def _companion_figures(self) -> dict[tuple[str, str], tuple[str, ...]]:
        return {
            (level.level, s.name): (
                s.name,
                number(s.games),
                number(s.wins),
                percent(s.win_rate),
                number(s.average_points, 1),
                fastest_text(s.fastest_win),
            )
            for level in self.levels
            for s in level.players
        }

    def _companion(
        self, figures: dict[tuple[str, str], tuple[str, ...]], layout: Layout
    ) -> BoxLayout:
        """Level by level: the games, how many the people won, then each person's line."""
        part = _list_part(COMPANION_TITLES, COMPANION_WIDTHS, layout)
        lines: list[Any] = []
        for level in self.levels:
            heading = cell(level_words(level), 1, bold=True, color=theme.ACCENT)
            self.level_lines[level.level] = heading
            lines.append(heading)
            for s in level.players:
                cells = list(zip(figures[(level.level, s.name)], COMPANION_WIDTHS, strict=True))
                row = Row(
                    _titled(COMPANION_TITLES, cells, layout),
                    partial(self.choose, s.name),
                    lines=2 if len(layout) == 1 else 1,
                    layout=layout,
                )
                self.level_rows[(level.level, s.name)] = row
                lines.append(row)
        part.add_widget(rows_view(lines, tr("No games against the companion yet.")))
        return part

    def _columns(self, s: PlayerStats, spellings: list[str]) -> list[tuple[str, float]]:
        name = s.name
        if spellings:
            name += "\n" + tr("also {names}").format(names=", ".join(spellings))
        texts = (
            name,
            str(s.games),
            str(s.wins),
            percent(s.win_rate),
            number(s.average_points, 1),
            number(s.average_rounds, 1),
            colour_text(s.favourite_bonus),
            fastest_text(s.fastest_win),
        )
        return list(zip(texts, WIDTHS, strict=True))

    # ------------------------------------------------------------------ choosing

    def choose(self, name: str) -> None:
        """A tap on a player: chosen, or no longer; a third replaces the first."""
        if name in self.chosen:
            self.chosen.remove(name)
        else:
            self.chosen = [*self.chosen, name][-2:]
        self._mark()
        self.say()

    def _mark(self) -> None:
        shown = [*self.rows.items(), *((name, row) for (_, name), row in self.level_rows.items())]
        for name, row in shown:
            number = self.chosen.index(name) + 1 if name in self.chosen else 0
            row.selected = bool(number)
            first = row.cells[0]
            rest = first.text.split("\n", 1)[1:]
            first.text = "\n".join([f"{number}. {name}" if number else name, *rest])
        both = len(self.chosen) == 2
        self.versus_button.disabled = not both
        self.merge_button.disabled = not both
        self.names_button.disabled = not self.app.store.aliases()

    def say(self, message: str = "", error: bool = False) -> None:
        # The app says a line on whatever screen shows as say(message, error): same order here.
        if not message and (self.rows or self.level_rows):
            if len(self.chosen) == 2:
                message = tr("{a} and {b} chosen.").format(a=self.chosen[0], b=self.chosen[1])
            else:
                message = tr("Tap two players to compare them, or to count two names as one.")
        self.note.text = message
        self.note.color = theme.ERROR if error else theme.TEXT
        self.said = (message, error)

    def back(self) -> None:
        self.manager.current = "history"

    def show_club(self) -> None:
        self.manager.get_screen("club").show()
        self.manager.current = "club"

    # ------------------------------------------------------------------ panels

    def _open(self, panel: Panel) -> None:
        self.panel = panel
        panel.open()

    def close_panel(self) -> None:
        if self.panel is not None:
            self.panel.dismiss()
            self.panel = None

    def versus(self) -> None:
        a, b = self.chosen
        h = head_to_head(self.games, a, b)
        panel = Panel(tr("{a} against {b}").format(a=a, b=b))
        panel.button(tr("Close"), self.close_panel)
        if not h.games:  # zeros would read as a record of defeats
            panel.text(tr("{a} and {b} have not played at the same table yet.").format(a=a, b=b))
            panel.body.add_widget(BoxLayout())
            self._open(panel)
            return
        panel.text(
            tr("Games together: {games}, tied: {level}").format(games=h.games, level=h.level)
        )
        grid = GridLayout(cols=3, spacing=gap(4))
        lines = [
            ("", a, b),
            (tr("Finished ahead"), str(h.a_ahead), str(h.b_ahead)),
            (tr("Wins"), str(h.a_wins), str(h.b_wins)),
            (tr("Average points"), number(h.a_points, 1), number(h.b_points, 1)),
        ]
        for i, line in enumerate(lines):
            for j, text in enumerate(line):
                grid.add_widget(
                    cell(text, 1, bold=i == 0 or j == 0, halign="left" if j == 0 else "center")
                )
        panel.body.add_widget(grid)
        self._open(panel)

    def ask_merge(self) -> None:
        a, b = self.chosen
        together = next(
            (g for g in self.games if g.seat_of(a) is not None and g.seat_of(b) is not None), None
        )
        if together is not None:
            self.say(
                tr("{a} and {b} played at the same table on {date}: they are two people.").format(
                    a=a, b=b, date=when(together.started_at)
                ),
                error=True,
            )
            return
        panel = Panel(tr("Same person?"), height=0.7)
        panel.text(
            tr(
                "Are {a} and {b} two spellings of one person? Their games then count as one "
                "player's. The records keep the names as typed; this can be undone."
            ).format(a=a, b=b)
        )
        panel.body.add_widget(BoxLayout())
        panel.button(tr("Count {a} as {b}").format(a=a, b=b), lambda: self.merge(a, b))
        panel.button(tr("Count {a} as {b}").format(a=b, b=a), lambda: self.merge(b, a))
        panel.button(tr("Cancel"), self.close_panel)
        self._open(panel)

    def merge(self, name: str, person: str) -> None:
        try:
            self.app.store.merge_name(name, person)
        except StoreError as err:
            if self.panel is not None:
                self.panel.message.text = err.message
            return
        self.close_panel()
        self.chosen = [person]
        self.refresh(tr("{name} now counts as {person}.").format(name=name, person=person))

    def show_names(self) -> None:
        """Every merge, each with a button that separates the names again."""
        panel = Panel(tr("Merged names"))
        aliases = self.app.store.aliases()
        lines = []
        for name in aliases:
            line = BoxLayout(size_hint_y=None, spacing=gap(8))
            said = tr("{name} counts as {person}").format(name=name, person=resolve(aliases, name))
            words = cell(said, 0.7)
            line.add_widget(words)
            line.add_widget(button(tr("Separate"), partial(self.separate, name), size_hint_x=0.3))
            fit_row(line, words, least=line_height())
            lines.append(line)
        panel.body.add_widget(rows_view(lines, tr("No names merged yet.")))
        panel.button(tr("Close"), self.close_panel)
        self._open(panel)

    def separate(self, name: str) -> None:
        try:
            self.app.store.unmerge_name(name)
        except StoreError as err:
            if self.panel is not None:
                self.panel.message.text = err.message
            return
        self.close_panel()
        self.refresh(tr("{name} counts as itself again.").format(name=name))
