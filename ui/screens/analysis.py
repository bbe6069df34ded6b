"""The game review on the screen: each player's chance over the game, and each person's
costliest moves; a tap on one shows the table as it was before it (the move-by-move screen).

The review (:mod:`companion.coach.review`) runs in a worker thread; its progress and its end
come back to the screen's thread through ``Clock.schedule_once``, so the screen never
freezes. Leaving the screen stops it. Once computed it is kept in the journal, and shown at
once the next time.
"""

from __future__ import annotations

from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.coach.review import (
    VERSION,
    Mistake,
    Review,
    Reviewing,
    chances_by_move,
    default_playouts,
    mistakes,
    seat_order,
)
from companion.i18n import percent
from companion.journal.seats import companion_levels, seat_titles
from companion.journal.store import StoreError
from companion.records.movelog import tell
from companion.records.record import Record, fingerprint

from .. import theme
from ..chart import ChanceChart
from ..i18n import tr
from ..layout import Shaped, button, gap, grow_label, row_height
from ..scale import SCALE
from .listing import Row, rows_view, title

if TYPE_CHECKING:
    from ..context import AppContext


class AnalysisScreen(Shaped):
    """Landscape: the chart on the left, the costly moves on the right, scrolled. Portrait:
    the chart above the moves. The line saying the progress and the buttons below both."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="analysis", **kw)
        self.app = app
        self.record: Record | None = None
        self.game_id: int | None = None
        self.back_to = "end"
        self.playouts: int | None = None  # the budget a move (None: the default)
        self.done: Review | None = None
        self.job: Reviewing | None = None
        self.progress = (0, 0)
        self.checking: tuple[int, int] | None = None  # the deeper search's checks: done, total
        self.error = ""
        self.rows: list[tuple[int, Row]] = []  # each costly move's number and its row
        self.box = BoxLayout(orientation="vertical")
        self.add_widget(self.box)

    # ------------------------------------------------------------------ starting

    def show(self, game_id: int | None, record: Record, back_to: str = "end") -> None:
        """Review ``record`` (game ``game_id`` of the journal, where it is kept): at once
        if the journal has it, else in the background."""
        self.stop()
        self.game_id, self.record, self.back_to = game_id, record, back_to
        self.done, self.error = None, ""
        self.progress = (0, len(record.moves))
        self.checking = None
        stored = None
        if game_id is not None:
            with suppress(StoreError):
                stored = self.app.store.stored_review(game_id, VERSION, fingerprint(record))
        if stored is not None:
            with suppress(ValueError):  # kept by another version: made again
                self.done = Review.from_document(stored)
        if self.done is None:
            self.start()
        self.lay_out()

    def start(self) -> None:
        assert self.record is not None
        self.error = ""
        self.checking = None
        self.job = Reviewing(
            self.record,
            on_done=lambda job: Clock.schedule_once(partial(self._finished, job)),
            on_progress=lambda done, total: Clock.schedule_once(
                partial(self._advanced, done, total)
            ),
            playouts=self.playouts if self.playouts is not None else default_playouts(),
            on_checking=lambda done, total: Clock.schedule_once(
                partial(self._checked, done, total)
            ),
        ).start()

    def stop(self) -> None:
        """The review under way is no longer wanted: it gives up before its next move."""
        if self.job is not None:
            self.job.stop()
            self.job = None

    def on_leave(self, *_: Any) -> None:
        # Leaving stops it unless it is to look at a move of it (the move-by-move screen
        # comes back here).
        if self.manager is None or self.manager.current != "review":
            self.stop()

    def _advanced(self, done: int, total: int, *_: Any) -> None:
        if self.job is None:
            return
        self.progress = (done, total)
        self.status.text = self._said()
        n = len(self.chart.names)
        self.chart.rounds = [[1.0 / n] * n, *([*j.chances] for j in self.job.judged[:done])]
        self.stop_button.text = tr("Stop")

    def _checked(self, done: int, total: int, *_: Any) -> None:
        if self.job is None:
            return
        self.checking = (done, total)
        self.status.text = self._said()

    def _finished(self, job: Reviewing, *_: Any) -> None:
        if job is not self.job:
            return  # stopped, or another game's
        self.job = None
        if job.error is not None or job.result is None:
            self.error = tr("The review could not be made: {reason}").format(reason=job.error)
        else:
            self.done = job.result
            if self.game_id is not None:
                try:
                    self.app.store.save_review(self.game_id, job.result.document())
                except StoreError as err:
                    self.error = err.message
        self.lay_out()

    # ------------------------------------------------------------------ layout

    def lay_out(self) -> None:
        box = self.box
        box.clear_widgets()
        box.padding = gap(8)
        box.spacing = gap(6)
        record = self.record
        if record is None:
            return
        box.add_widget(title(tr("Game review")))
        # The companion's seats with their level, as every list and export names them.
        self.chart = ChanceChart(names=seat_titles(record.players, record.extra))
        self.chart.moves = max(1, len(record.moves))
        self._chart_data()
        self.list = rows_view(self._rows(), self._empty())
        if SCALE.portrait:
            middle = BoxLayout(orientation="vertical", spacing=gap(6))
            self.chart.size_hint_y = 0.45
            self.list.size_hint_y = 0.55
            middle.add_widget(self.chart)
            middle.add_widget(self.list)
        else:
            middle = BoxLayout(spacing=gap(8))
            self.chart.size_hint_x = 0.58
            self.list.size_hint_x = 0.42
            middle.add_widget(self.chart)
            middle.add_widget(self.list)
        box.add_widget(middle)
        self.status = grow_label(
            self._said(), font=17, color=theme.ERROR if self.error else theme.TEXT
        )
        box.add_widget(self.status)
        bar = BoxLayout(size_hint_y=None, height=row_height(52), spacing=gap(6))
        bar.add_widget(button(tr("Back"), self.back))
        if self.job is not None:
            words = tr("Stop")
        elif self.done is None:
            words = tr("Go on")
        else:
            words = tr("Move by move")
        self.stop_button = button(words, self.stop_or_go)
        bar.add_widget(self.stop_button)
        box.add_widget(bar)

    def _chart_data(self) -> None:
        record = self.record
        assert record is not None
        if self.done is None:
            self.chart.rounds = []
            if self.job is not None:  # laid out again meanwhile: as far as it got
                n = len(record.players)
                done = list(self.job.judged)
                self.chart.rounds = [[1.0 / n] * n, *([*j.chances] for j in done)]
            return
        self.chart.rounds = chances_by_move(record, self.done)
        self.chart.marks = [(n, seat) for n, seat in self._marked()]

    def _marked(self) -> list[tuple[int, int]]:
        return [(m.judged.number, m.judged.seat) for _, m in self._told()]

    def _told(self) -> list[tuple[str, Mistake]]:
        """The costly moves listed, with their player's title: the people's seats (every
        seat when no person played)."""
        record, done = self.record, self.done
        if record is None or done is None:
            return []
        levels = companion_levels(record.extra, len(record.players))
        titles = seat_titles(record.players, record.extra)
        people = [s for s in seat_order(levels) if levels[s] is None] or seat_order(levels)
        return [(titles[s], m) for s in people for m in mistakes(record, done, s)]

    def _rows(self) -> list[Widget]:
        self.rows = []
        for name, m in self._told():
            j = m.judged
            head = tr("Move {n}, round {round}: {move}").format(
                n=j.number, round=m.step.round, move=tell(m.step)
            )
            chances = tr("{player}: {before} before, {after} after").format(
                player=name, before=percent(j.before), after=percent(j.after)
            )
            better = tr("{move} was the companion's choice: it keeps the chance at {kept}.").format(
                move=m.preferred, kept=percent(j.before)
            )
            layout = [[(0, 1.0)], [(1, 1.0)], [(2, 1.0)], [(3, 1.0)]]
            row = Row(
                [(head, 1.0), (chances, 1.0), (better, 1.0), (m.reason, 1.0)],
                on_tap=partial(self.step_to, j.number),
                layout=layout,
            )
            row.cells[1].color = theme.ACCENT
            row.cells[3].color = theme.TEXT_DIM
            self.rows.append((j.number, row))
        return [row for _, row in self.rows]

    def _empty(self) -> str:
        if self.done is None:
            return tr("The companion is looking back over the game, move by move.")
        return tr("No move cost more than {share}.").format(share=percent(0.01))

    def _said(self) -> str:
        if self.error:
            return self.error
        if self.job is not None and self.checking is not None:
            # The costliest moves judged again (issue 37): a move the deeper search does
            # not confirm is not listed.
            done, total = self.checking
            return tr("Checking the costliest moves with a deeper search: {n} of {total}").format(
                n=done, total=total
            )
        if self.job is not None:
            done, total = self.progress
            return tr("Reviewing: move {n} of {total}").format(n=done, total=total)
        if self.done is None:
            return tr("The review was stopped.")
        return tr(
            "Each line is a player's chance of winning, as the companion judged it after each "
            "move. Tap a move to see the table as it was."
        )

    # ------------------------------------------------------------------ actions

    def stop_or_go(self) -> None:
        """Stop the review under way; start it again once stopped; once made, the game
        move by move from its start."""
        if self.job is not None:
            self.stop()
        elif self.done is None:
            self.start()
        else:
            self.step_to(1)
            return
        self.lay_out()

    def step_to(self, number: int) -> None:
        """The table as it was before move ``number`` (the move-by-move screen), back here."""
        assert self.record is not None
        moves = self.manager.get_screen("review")
        notes = {}
        for _, m in self._told():
            notes[m.judged.number - 1] = tr("Next, move {n}: {move}. {better}").format(
                n=m.judged.number,
                move=tell(m.step),
                better=tr(
                    "{move} was the companion's choice: it keeps the chance at {kept}."
                ).format(move=m.preferred, kept=percent(m.judged.before)),
            )
        moves.show(self.record, back_to="analysis", notes=notes)
        moves.go(number - 1)
        self.chart.at = number
        self.manager.current = "review"

    def back(self) -> None:
        self.stop()
        self.manager.current = self.back_to
