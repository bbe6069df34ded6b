"""Past games: who played (the companion's seats with their level), who won, when and for
how long; a tap opens a game (its standings, chart, BG Stats code and moves) or resumes one
still in play."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion import i18n
from companion.i18n import ngettext
from companion.journal.seats import companion_levels, seat_title
from companion.journal.store import GameInfo, StoreError
from companion.reports.stats import PlayedGame, played_games

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, gap, refit
from ..scale import SCALE
from .listing import Layout, Row, cell, fits, header, line_height, one_line, rows_view, title, when

if TYPE_CHECKING:
    from ..context import AppContext

# Column widths, shared by the titles and the rows: date, players, winner, rounds, length.
WIDTHS = (0.2, 0.34, 0.24, 0.1, 0.12)
# Where they do not fit side by side (portrait, a 3.5-inch screen): a game's card, who
# played on its own line, then who won, then when and how long, each figure saying what
# it is ("Winner: Cleo", "29 rounds"): no column titles to decode two-line rows with, and
# the width of an upright screen used (issue 34: a two-line header, 60% blank).
CARD: Layout = [[(1, 1.0)], [(2, 1.0)], [(0, 0.4), (3, 0.3), (4, 0.3)]]


def minutes_text(minutes: int | None) -> str:
    return tr("{minutes} min").format(minutes=minutes) if minutes is not None else "-"


def seat_text(name: str, levels: dict[str, str]) -> str:
    """A seat as the list shows it: the companion's with its level (``Robo (hard)``)."""
    return seat_title(name, levels.get(name))


def winner_text(info: GameInfo, levels: dict[str, str]) -> str:
    if info.problem is not None:
        return tr("Damaged: kept as it is")
    if info.state == "playing":
        return tr("In play: tap to go on")
    if not info.winners:
        return tr("No winner")
    return ", ".join(seat_text(n, levels) for n in info.winners)


class HistoryScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="history", **kw)
        self.app = app
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)
        self.rows: dict[int, Row] = {}
        self.said = ("", True)  # the line said under the list, and whether it is good news
        self.listed: dict[int, list[tuple[str, float]]] | None = None  # a game's columns
        self.cards: dict[int, list[tuple[str, float]]] = {}  # the same, said on a card
        self.made: tuple[tuple[Any, ...], list[Widget]] | None = None  # the list last made

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def lay_out(self) -> None:
        """The window changed: the same games and line, arranged for it (not read again)."""
        if self.listed is not None:
            self._draw(*self.said)

    def refresh(self, message: str = "", ok: bool = True) -> None:
        """The games read from the journal afresh, and ``message`` said below them."""
        games = self.app.store.games()
        unreadable: list[StoreError] = []
        played = {g.id: g for g in played_games(self.app.store, unreadable=unreadable)}
        self.listed = {info.id: self._columns(info, played.get(info.id)) for info in games}
        self.cards = {info.id: self._card(info, self.listed[info.id]) for info in games}
        if unreadable and not message:
            message, ok = (
                tr("A game whose journal cannot be read is left out of the figures."),
                False,
            )
        self._draw(message, ok)

    def _draw(self, message: str, ok: bool) -> None:
        assert self.listed is not None
        columns = self.listed
        box = self.box
        box.clear_widgets()
        box.padding = gap(8)
        box.spacing = gap(6)
        box.add_widget(title(tr("Past games")))
        titles = (tr("Date"), tr("Players"), tr("Winner"), tr("Rounds"), tr("Length"))
        texts = [titles, *([text for text, _ in c] for c in columns.values())]
        layout = one_line(WIDTHS)
        if SCALE.portrait or not fits(layout, texts, bold=[True]):
            layout = CARD
        # Made again only when the games or their arrangement change; else the same rows,
        # fitted to the window again (a list is many labels, slow to make).
        key = (id(columns), len(layout), i18n.language())
        if self.made is None or self.made[0] != key:
            carded = layout is CARD
            self.rows = {}
            for game, c in columns.items():
                row = Row(
                    self.cards[game] if carded else c,
                    partial(self.app.show_past_game, game),
                    lines=1 if carded else 2,
                    layout=layout,
                )
                row.cells[1].bold = carded  # a card's players head it
                self.rows[game] = row
            listed = rows_view(list(self.rows.values()), tr("No games yet."))
            parts: list[Widget] = [listed]
            if not carded:  # a card's figures say what they are
                parts.insert(0, header(list(zip(titles, WIDTHS, strict=True)), layout))
            self.made = (key, parts)
        else:
            for part in self.made[1]:
                refit(part)
        for part in self.made[1]:
            if part.parent is not None:
                part.parent.remove_widget(part)
            box.add_widget(part)
        self.said = (message, ok)
        box.add_widget(cell(message, 1, color=theme.OK if ok else theme.ERROR))
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.2, spacing=gap(8))
        bar.add_widget(button(tr("Back"), self.app.show_start))
        bar.add_widget(button(tr("Statistics"), self.show_stats))
        bar.add_widget(button(tr("Export all to a USB stick"), self.export))
        box.add_widget(bar)

    def _columns(self, info: GameInfo, game: PlayedGame | None) -> list[tuple[str, float]]:
        if game is not None:
            rounds, length = str(game.rounds), minutes_text(game.minutes)
        else:  # in play, or a journal that cannot be replayed: nothing to measure
            rounds, length = "-", "-"
        levels = self._levels(info, game)
        texts = (
            when(info.started_at),
            ", ".join(seat_text(n, levels) for n in info.players) or "?",
            winner_text(info, levels),
            rounds,
            length,
        )
        return list(zip(texts, WIDTHS, strict=True))

    def _card(self, info: GameInfo, columns: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """A game's columns as its card says them: the winner and the rounds named."""
        (day, w0), players, (won, w2), (rounds, w3), (length, w4) = columns
        if info.winners and info.state != "playing" and info.problem is None:
            won = tr("{title}: {value}").format(title=tr("Winner"), value=won)
        if rounds != "-":
            rounds = ngettext("{n} round", "{n} rounds", int(rounds)).format(n=int(rounds))
        return [
            (day, w0),
            players,
            (won, w2),
            (rounds if rounds != "-" else "", w3),
            (length if length != "-" else "", w4),
        ]

    def _levels(self, info: GameInfo, game: PlayedGame | None) -> dict[str, str]:
        """The companion's level by seat name (names are unique at a table)."""
        if game is not None:
            found = game.levels
        else:  # in play: its record says; one that cannot be read shows plain names
            try:
                record = self.app.store.record(info.id)
            except StoreError:
                return {}
            found = companion_levels(record.extra, len(info.players))
        return {n: lv for n, lv in zip(info.players, found, strict=False) if lv is not None}

    def show_stats(self) -> None:
        self.manager.get_screen("stats").show()
        self.manager.current = "stats"

    def export(self) -> None:
        ok, message = self.app.export_to_media()
        self.refresh(message, ok)
