"""Statistics per player at the table: games, wins, averages, favourite bonus, fastest
win; two players head to head; two spellings of one person merged (and separated again).

Two taps choose two players; what can be done with them is then offered. The figures
are the core's (:mod:`companion.stats`), over every finished game of the journal.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.graphics import Color, Ellipse, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.i18n import ngettext
from companion.stats import PlayedGame, PlayerStats, head_to_head, played_games, stats_of
from companion.store import StoreError, resolve
from companion.tokens import Colour

from .. import theme
from ..i18n import tr
from ..widgets import big_button
from .listing import Panel, Row, cell, header, line_height, rows_view, title, when

if TYPE_CHECKING:
    from ..application import CompanionApp

WIDTHS = (0.19, 0.08, 0.1, 0.09, 0.1, 0.1, 0.13, 0.21)


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
        d = min(label.height * 0.5, 24)
        x, y = label.x, label.center_y - d / 2
        with label.canvas.before:
            Color(*theme.TOKEN_FILL[colour])
            Ellipse(pos=(x, y), size=(d, d))
            Color(*theme.TOKEN_RING[colour])
            Line(circle=(x + d / 2, y + d / 2, d / 2), width=1)
        label.padding = [d + 6, 0, 0, 0]

    label.bind(pos=draw, size=draw)


class StatsScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="stats", **kw)
        self.app = app
        self.chosen: list[str] = []
        self.games: list[PlayedGame] = []
        self.lines: list[PlayerStats] = []
        self.rows: dict[str, Row] = {}
        self.panel: Panel | None = None
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.add_widget(self.box)

    def show(self, message: str = "", ok: bool = True) -> None:
        self.chosen = []
        self.refresh(message, ok)

    def refresh(self, message: str = "", ok: bool = True) -> None:
        store = self.app.store
        self.games = played_games(store)
        self.lines = stats_of(self.games)
        aliases = store.aliases()
        self.chosen = [n for n in self.chosen if n in {s.name for s in self.lines}]
        box = self.box
        box.clear_widgets()
        box.add_widget(title(tr("Statistics")))
        titles = (
            tr("Player"),
            tr("Games"),
            tr("Wins"),
            tr("Win rate"),
            tr("Average points"),
            tr("Average rounds"),
            tr("Favourite bonus"),
            tr("Fastest win"),
        )
        box.add_widget(header(list(zip(titles, WIDTHS, strict=True))))
        self.rows = {}
        for line in self.lines:
            spellings = sorted(n for n in aliases if resolve(aliases, n) == line.name)
            row = Row(self._columns(line, spellings), partial(self.choose, line.name), lines=2)
            pip(row.cells[6], line.favourite_bonus)
            self.rows[line.name] = row
        box.add_widget(rows_view(list(self.rows.values()), tr("No finished games yet.")))
        self.note = cell("", 1, size_hint_y=None, height=line_height())
        box.add_widget(self.note)
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.2, spacing=8)
        bar.add_widget(big_button(tr("Back"), self.back))
        self.versus_button = big_button(tr("Head to head"), self.versus)
        self.merge_button = big_button(tr("Same person"), self.ask_merge)
        self.names_button = big_button(tr("Merged names"), self.show_names)
        for button in (self.versus_button, self.merge_button, self.names_button):
            bar.add_widget(button)
        box.add_widget(bar)
        self._mark()
        self.say(message, ok)

    def _columns(self, s: PlayerStats, spellings: list[str]) -> list[tuple[str, float]]:
        name = s.name
        if spellings:
            name += "\n" + tr("also {names}").format(names=", ".join(spellings))
        texts = (
            name,
            str(s.games),
            str(s.wins),
            f"{s.win_rate:.0%}",
            f"{s.average_points:.1f}",
            f"{s.average_rounds:.1f}",
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
        for name, row in self.rows.items():
            number = self.chosen.index(name) + 1 if name in self.chosen else 0
            row.selected = bool(number)
            first = row.cells[0]
            rest = first.text.split("\n", 1)[1:]
            first.text = "\n".join([f"{number}. {name}" if number else name, *rest])
        both = len(self.chosen) == 2
        self.versus_button.disabled = not both
        self.merge_button.disabled = not both
        self.names_button.disabled = not self.app.store.aliases()

    def say(self, message: str = "", ok: bool = True) -> None:
        if not message and self.lines:
            if len(self.chosen) == 2:
                message = tr("{a} and {b} chosen.").format(a=self.chosen[0], b=self.chosen[1])
            else:
                message = tr("Tap two players to compare them, or to count two names as one.")
        self.note.text = message
        self.note.color = theme.TEXT if ok else theme.ERROR

    def back(self) -> None:
        self.manager.current = "history"

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
        grid = GridLayout(cols=3, spacing=4)
        lines = [
            ("", a, b),
            (tr("Finished ahead"), str(h.a_ahead), str(h.b_ahead)),
            (tr("Wins"), str(h.a_wins), str(h.b_wins)),
            (tr("Average points"), f"{h.a_points:.1f}", f"{h.b_points:.1f}"),
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
                ok=False,
            )
            return
        panel = Panel(tr("Same person?"), height=0.7)
        panel.text(
            tr(
                "Are {a} and {b} two spellings of one person? Their games then count as one "
                "player's. The records keep the names as typed; this can be undone."
            ).format(a=a, b=b)
        ).height = line_height(3)
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
            line = BoxLayout(size_hint_y=None, height=line_height(), spacing=8)
            said = tr("{name} counts as {person}").format(name=name, person=resolve(aliases, name))
            line.add_widget(cell(said, 0.7))
            line.add_widget(
                big_button(tr("Separate"), partial(self.separate, name), size_hint_x=0.3)
            )
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
