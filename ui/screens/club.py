"""The Club view of the statistics: the club's league as every kiosk of it sees it (the
ratings of people and companion levels), this kiosk's games waiting for the club, and, on
a tournament night, this kiosk's table with one tap to set its game up.

The club is asked in a thread of its own: the screen says it is asking and the table never
waits on the network; the answer is drawn on the app's thread. A kiosk that joined no club
never shows this screen (the statistics screen offers it only to a club's kiosk).
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from companion.club import link, ratings, tournament
from companion.club.link import ClubError
from companion.errors import CompanionError
from companion.i18n import ngettext, number
from companion.journal.declaring import NewGame
from companion.journal.outbox import Outbox
from companion.journal.seats import level_word
from companion.journal.store import StoreError

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, gap
from .listing import Lines, cell, line_height, one_line, rows_view, title

if TYPE_CHECKING:
    from ..context import AppContext


def club_joined(folder: Any) -> bool:
    """This kiosk joined a club (its settings read, whether or not they are sound)."""
    try:
        return link.joined(folder) is not None
    except ClubError:
        return True  # said on the Club view, with how to fix it


@dataclass(frozen=True, slots=True)
class Seen:
    """What the club said, or why it said nothing."""

    club: link.Club | None
    waiting: int
    league: ratings.League | None = None
    table: tournament.Table | None = None
    problem: str = ""
    tables: tuple[tournament.Table, ...] = ()  # tonight's round, when a tournament is open
    standings: tuple[tournament.Entry, ...] = ()
    tournament_open: bool = False

    @property
    def round_over(self) -> bool:
        """A tournament is open and its round (if any) has every result: the next can be seated."""
        return self.tournament_open and all(t.done for t in self.tables)


def look(app: AppContext, folder: Any, seat_round: bool = False) -> Seen:
    """The club as this kiosk sees it (in a thread: it may wait on the network);
    ``seat_round``: the tournament's next round seated first (any kiosk may do it)."""
    try:
        club = link.joined(folder)
    except ClubError as err:
        return Seen(None, 0, problem=err.message)
    waiting = 0
    try:
        with Outbox(app.store.path) as outbox:
            waiting = len(outbox.waiting())
    except StoreError:
        pass
    if club is None:
        return Seen(None, waiting)
    try:
        with link.connect(club) as conn:
            problem = ""
            if seat_round:
                try:
                    tournament.pair(conn)
                except ClubError as err:  # a round still played, too few players
                    problem = err.message
            with contextlib.suppress(ClubError):  # without openskill: the ratings as they are
                ratings.update(conn)
            league = ratings.league(conn)
            table, tables, standings = None, [], []
            is_open = tournament.current(conn) is not None
            if is_open:
                table = tournament.my_table(conn, club.kiosk)
                tables, standings = tournament.tables(conn), tournament.standings(conn)
    except CompanionError as err:
        return Seen(club, waiting, problem=err.message)
    return Seen(club, waiting, league, table, problem, tuple(tables), tuple(standings), is_open)


class ClubScreen(Shaped):
    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="club", **kw)
        self.app = app
        self.seen: Seen | None = None
        self.asking = False
        self.box = BoxLayout(orientation="vertical", padding=gap(8), spacing=gap(6))
        self.add_widget(self.box)

    def show(self) -> None:
        """Shown: drawn at once with what is known, and the club asked again."""
        self.refresh()
        self.ask()

    def ask(self, seat_round: bool = False) -> None:
        if self.asking:
            return
        self.asking = True
        folder = self.app.store.path.parent

        def run() -> None:
            seen = look(self.app, folder, seat_round)
            Clock.schedule_once(lambda dt: self.answered(seen))

        threading.Thread(target=run, name="club-look", daemon=True).start()
        self.refresh()

    def answered(self, seen: Seen) -> None:
        self.seen, self.asking = seen, False
        self.refresh()

    def refresh(self) -> None:
        box = self.box
        box.clear_widgets()
        box.add_widget(title(tr("Club")))
        seen = self.seen
        lines = []
        if seen is not None and seen.club is not None:
            lines.append(
                cell(tr("This kiosk: {kiosk}").format(kiosk=seen.club.kiosk), 1, color=theme.TEXT)
            )
            lines.append(
                cell(
                    ngettext(
                        "{n} game waiting for the club",
                        "{n} games waiting for the club",
                        seen.waiting,
                    ).format(n=number(seen.waiting)),
                    1,
                )
            )
        if seen is not None and seen.table is not None:
            lines.append(cell(_table_words(seen.table), 1, bold=True, color=theme.ACCENT))
        if seen is not None and seen.tables:
            lines.append(cell(tr("Tonight's tournament"), 1, bold=True))
            for t in seen.tables:
                # Said as the games list says a finished game (the kiosk's font has no ✓).
                done = f" ({tr('over')})" if t.done else ""
                lines.append(cell(_table_words(t) + done, 1))
            if seen.standings:  # after the games of the round played so far
                lines.append(cell(tr("The tournament's standings"), 1, bold=True))
                # The tournament's score, then the prestige points that break its ties.
                # (Score: the tournament's own, the share of the table beaten; docs/club.md.)
                head = ("#", tr("Player"), tr("Score"), tr("Points"), tr("Games"))
                lines.append(_line(head, ENTRY_WIDTHS, bold=True))
            for place, e in enumerate(seen.standings, start=1):
                lines.append(_entry_row(place, e))
        if seen is not None and seen.league is not None:
            league = seen.league
            lines.append(
                cell(
                    ngettext("{n} game in the club", "{n} games in the club", league.games).format(
                        n=number(league.games)
                    ),
                    1,
                )
            )
            if league.people:
                league_head = ("#", tr("Player"), tr("Rating"), tr("Games"))
                lines.append(_line(league_head, RATING_WIDTHS, bold=True))
            for place, r in enumerate(league.people, start=1):
                lines.append(_rating_row(place, r.who, r))
            if league.people:  # what the number is, said once (as the phone's page says it)
                lines.append(
                    cell(
                        tr(
                            "The rating is OpenSkill's: it rises with wins and as the club "
                            "grows surer of a player."
                        ),
                        1,
                        color=theme.TEXT_DIM,
                    )
                )
            if league.levels:
                lines.append(cell(tr("The companion:"), 1, bold=True))
            for place, r in enumerate(league.levels, start=1):
                lines.append(_rating_row(place, level_word(r.who), r))
        box.add_widget(rows_view(lines, tr("Asking the club...") if self.asking else ""))
        said = tr("Asking the club...") if self.asking else (seen.problem if seen else "")
        self.note = cell(said, 1, color=theme.ERROR if seen and seen.problem else theme.TEXT)
        box.add_widget(self.note)
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.2, spacing=gap(8))
        bar.add_widget(button(tr("Back"), self.back))
        bar.add_widget(button(tr("Ask the club again"), self.ask))
        if seen is not None and seen.league is not None:  # the club answered
            bar.add_widget(button(tr("Tournament"), self.organise))
        if seen is not None and seen.table is not None and not seen.table.done:
            bar.add_widget(button(tr("Start this table's game"), self.start_table))
        elif seen is not None and seen.round_over:
            bar.add_widget(button(tr("Seat the next round"), self.seat_round))
        box.add_widget(bar)

    def start_table(self) -> None:
        """One tap: the new game set up with the table's players, in their seats."""
        assert self.seen is not None and self.seen.table is not None
        self.app.show_setup(NewGame(self.seen.table.players))

    def seat_round(self) -> None:
        """The tournament's next round seated (docs/club.md), then the club asked again."""
        self.ask(seat_round=True)

    def organise(self) -> None:
        """The tournament's organiser: start it, its players, seat a round, end it."""
        self.manager.get_screen("tournament").show()
        self.manager.current = "tournament"

    def show_seated(self) -> None:
        """Come from the organiser: the next round seated, then its tables shown."""
        self.seen = None
        self.refresh()
        self.ask(seat_round=True)

    def back(self) -> None:
        self.manager.current = "stats"


def _table_words(t: tournament.Table) -> str:
    return tr("Round {round}, table {table}: {players}").format(
        round=t.round, table=t.number, players=", ".join(t.players)
    )


def _entry_row(place: int, e: tournament.Entry) -> Lines:
    """A line of the tournament's standings: its score, prestige points and games (as
    tall as its longest words wrapped: "0 point de prestige")."""
    points = ngettext("{n} point", "{n} points", e.points).format(n=number(e.points))
    games = ngettext("{n} game", "{n} games", e.played).format(n=number(e.played))
    texts = (f"{place}.", e.person, number(e.score, 2), points, games)
    return _line(texts, ENTRY_WIDTHS)


def _rating_row(place: int, who: str, r: ratings.Rating) -> Lines:
    games = ngettext("{n} game", "{n} games", r.games).format(n=number(r.games))
    return _line((f"{place}.", who, number(r.ordinal, 1), games), RATING_WIDTHS)


# The columns' shares of the row: place, name, figure, (prestige points,) games.
ENTRY_WIDTHS = (0.1, 0.35, 0.15, 0.2, 0.2)
RATING_WIDTHS = (0.1, 0.5, 0.15, 0.25)


def _line(texts: tuple[str, ...], widths: tuple[float, ...], bold: bool = False) -> Lines:
    cells = [cell(t, w, bold=bold) for t, w in zip(texts, widths, strict=True)]
    return Lines(cells, one_line(widths), 1)
