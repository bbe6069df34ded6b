"""Past games: who played (the companion's seats with their level), who won, when and for
how long; a tap opens a game (its standings, chart, BG Stats code and moves) or resumes one
still in play."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ai.seats import companion_levels, seat_title
from companion.stats import PlayedGame, played_games
from companion.store import GameInfo, StoreError

from .. import theme
from ..i18n import tr
from ..widgets import big_button
from .listing import Row, cell, header, line_height, rows_view, title, when

if TYPE_CHECKING:
    from ..application import CompanionApp

# Column widths, shared by the titles and the rows.
WIDTHS = (0.2, 0.34, 0.24, 0.1, 0.12)


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


class HistoryScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="history", **kw)
        self.app = app
        self.box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.add_widget(self.box)
        self.rows: dict[int, Row] = {}

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self, message: str = "", ok: bool = True) -> None:
        box = self.box
        box.clear_widgets()
        box.add_widget(title(tr("Past games")))
        games = self.app.store.games()
        unreadable: list[StoreError] = []
        played = {g.id: g for g in played_games(self.app.store, unreadable=unreadable)}
        titles = (tr("Date"), tr("Players"), tr("Winner"), tr("Rounds"), tr("Length"))
        box.add_widget(header(list(zip(titles, WIDTHS, strict=True))))
        self.rows = {
            info.id: Row(
                self._columns(info, played.get(info.id)),
                partial(self.app.show_past_game, info.id),
                lines=2,
            )
            for info in games
        }
        box.add_widget(rows_view(list(self.rows.values()), tr("No games yet.")))
        if unreadable and not message:
            message, ok = (
                tr("A game whose journal cannot be read is left out of the figures."),
                False,
            )
        note = cell(
            message,
            1,
            size_hint_y=None,
            height=line_height(),
            color=theme.OK if ok else theme.ERROR,
        )
        box.add_widget(note)
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.2, spacing=8)
        bar.add_widget(big_button(tr("Back"), self.app.show_start))
        bar.add_widget(big_button(tr("Statistics"), self.show_stats))
        bar.add_widget(big_button(tr("Export all to a USB stick"), self.export))
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
