"""The companion's seat at the table (and "Suggest a move" for a person's): the decision is
made in a worker thread (:class:`~companion.ai.thinking.Thinking`) while the table stays
alive, then shown in a panel docked in the action area, never over the board.

An answer is applied on Kivy's thread (``Clock.schedule_once``) and only if it is still
for the game on the table: after an undo, a redo, another game or the end of the app it is
dropped, and the search told to stop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.clock import Clock

from companion.ai.thinking import Thinking
from companion.ai.words import reason
from companion.coach.plan import Plan, fill
from companion.engine.game import Game
from companion.engine.moves import Move
from companion.errors import IllegalMove
from companion.journal.session import Session
from companion.journal.table import Step, Turn

from ...i18n import tr
from ...scale import SCALE
from .movepanel import MovePanel, companion_title
from .players import ROOM

if TYPE_CHECKING:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from ...widgets import CardView
    from .players import PlayersColumn

Position = tuple[Move, ...]
PANEL_MOST = 190  # px at 800x480: the panel's pictures need no more


class CompanionSeat:
    """Mixed into :class:`TableScreen`: the thinking, its answer, and the docked panel."""

    session: Session | None
    turn: Turn | None
    plan: Plan
    panel: MovePanel
    side: BoxLayout
    players: PlayersColumn
    take_bar: Widget
    bank_row: Widget
    bar: BoxLayout

    if TYPE_CHECKING:  # the table screen's own, and TurnSteps'

        @property
        def game(self) -> Game: ...

        def refresh(self, message: str = "", error: bool = False) -> None: ...

        def say(self, message: str, error: bool = False) -> None: ...

        def advance(self) -> None: ...

        @property
        def rows(self) -> list[list[CardView]]: ...

    def _seat_state(self) -> None:
        self.thinking: Thinking | None = None
        self.asked_for: str = ""  # "companion" or "suggest": what the thinking is for
        self.answer: tuple[Position, Move] | None = None  # the companion's move, by position
        self.suggested: tuple[Position, Move] | None = None  # the suggestion shown

    # ------------------------------------------------------------------ thinking

    def _think(self, what: str) -> None:
        """Start deciding for the seat to act, on a copy of the game, in a worker thread."""
        self.stop_thinking()
        plan = self.plan
        decide = plan.choose if what == "companion" else plan.suggestion
        self.asked_for = what
        self.thinking = Thinking(self.game, decide, self._answered).start()

    def _answered(self, thinking: Thinking) -> None:
        """From the worker thread: hand the answer to Kivy's thread, nothing more."""
        Clock.schedule_once(lambda _dt: self._arrived(thinking), 0)

    def _arrived(self, thinking: Thinking) -> None:
        """On Kivy's thread: apply the answer if it is still wanted, else drop it."""
        if thinking is not self.thinking or self.session is None:
            return  # superseded, or the table was left
        if not thinking.answers(self.game):
            return
        self.thinking = None
        if thinking.error is not None or thinking.move is None:
            # Said where it is seen; the spinner stops (a new refresh asks again).
            text = tr("The companion could not decide: {error}").format(error=thinking.error)
            self.panel.close()
            self.panel.title.text = text
            self.say(text, error=True)
            return
        key = (thinking.position, thinking.move)
        if self.asked_for == "companion":
            self.answer = key
        else:
            self.suggested = key
        self.refresh()

    def stop_thinking(self) -> None:
        """No answer is wanted any more (undo, game left, app closing): the search stops."""
        if self.thinking is not None:
            self.thinking.cancel()
            self.thinking = None

    def leave_table(self) -> None:
        self.stop_thinking()
        self.panel.close()

    # ------------------------------------------------------------------ the panel

    def dock(self) -> None:
        """The action area for the seat to act: the companion's panel, a suggestion, or the
        take bar. Called at the end of every refresh."""
        game, turn = self.game, self.turn
        assert turn is not None
        position = tuple(game.moves)
        if self.thinking is not None and not self.thinking.answers(game):
            self.stop_thinking()
        seat = game.to_act
        level = None if game.over else self.plan.level(seat)
        if level is not None:
            self._companion(level, position)
            return
        if self.thinking is not None and self.asked_for == "companion":
            self.stop_thinking()
        untouched = turn.step == Step.ACTION and not turn.selection.total
        asked = self.thinking is not None and self.asked_for == "suggest"
        shown = self.suggested is not None and self.suggested[0] == position
        if untouched and not game.over and (asked or shown):
            self._suggestion(position)
        else:
            if asked:
                self.stop_thinking()
            self.suggested = None
            self._undock()

    def _place(self, docked: bool) -> None:
        """The right column: the panel in the take bar's place; the players compact."""
        current = self.panel if self.panel.parent is not None else self.take_bar
        wanted = self.panel if docked else self.take_bar
        if current is not wanted:
            index = self.side.children.index(current)
            self.side.remove_widget(current)
            self.side.add_widget(wanted, index=index)
        self.share()

    def share(self, *_: object) -> None:
        """The action column's heights: the bank, the take bar and the buttons have their
        own; docked, the panel takes what the players leave of the rest (the player to
        act in full, so its tokens stay beside its move, the others in a line), up to
        what its pictures need; the players have all that is left."""
        if self.panel.parent is None:
            return
        n = max(1, len(self.game.seats) if self.session is not None else 1)
        side = self.side
        column = max(1.0, float(side.height))
        fixed = self.bank_row.height + self.bar.height + side.spacing * 3
        if SCALE.portrait:
            rows = (n + 1) // 2
            least = rows * SCALE.px(ROOM * 0.75)
        elif n == 2:
            least = 2 * SCALE.px(ROOM * 0.8)
        else:
            least = SCALE.px(ROOM) + SCALE.target(46)
        panel = max(SCALE.px(110), min(SCALE.px(PANEL_MOST), column - fixed - least))
        self.panel.size_hint_y = None
        self.panel.height = panel

    def _undock(self) -> None:
        self._mark(None)
        if self.panel.parent is not None:
            self.panel.close()
            self._place(False)

    def _companion(self, level: str, position: Position) -> None:
        game, turn = self.game, self.turn
        assert turn is not None
        name = game.names[game.to_act]
        self._place(True)
        if self.answer is None or self.answer[0] != position:
            self.answer = None
            if self.thinking is None or self.asked_for != "companion":
                self._think("companion")
            if not self.panel.thinking:
                self.panel.think(companion_title(name, level, True), tr("Done"))
            self._mark(None)
            return
        move = self.answer[1]
        if turn.step == Step.ACTION and not turn.selection.total:
            try:
                fill(turn, move)
            except IllegalMove as err:  # never expected: its moves come from legal_moves
                self.say(err.message, error=True)
                return
        if self.panel.move != move or self.panel.thinking:
            title = companion_title(name, level, False)
            self.panel.show(game, move, title, tr("Done"), self.companion_done)
        self._mark(move)

    def _suggestion(self, position: Position) -> None:
        game = self.game
        self._place(True)
        if self.suggested is None or self.suggested[0] != position:
            if not self.panel.thinking:
                self.panel.think(tr("Suggested:"), tr("Done"), tr("Close"), self.close_suggestion)
            self._mark(None)
            return
        move = self.suggested[1]
        if self.panel.move != move or self.panel.thinking:
            # A suggestion, never worded as if played: its pictures, and why. A person
            # makes it on the table and taps Done, as for the companion's own move.
            title = tr("Suggested:") + " " + reason(game, move)
            self.panel.show(game, move, title, tr("Done"), self.play_suggestion)
            self.panel.second(tr("Close"), self.close_suggestion)
        self._mark(move)

    def _mark(self, move: Move | None) -> None:
        """The card of the move, outlined on the board: check it against the real table."""
        card = getattr(move, "card", None)
        for row in self.rows:
            for view in row:
                view.selected = card is not None and view.card is not None and view.card.id == card

    # ------------------------------------------------------------------ taps

    def suggest(self) -> None:
        if self.session is None or self.game.over or self.plan.level(self.game.to_act):
            return
        self.suggested = None
        self._think("suggest")
        self.refresh()

    def close_suggestion(self) -> None:
        self.stop_thinking()
        self.suggested = None
        self.refresh()

    def play_suggestion(self) -> None:
        """The suggested move is made on the table: play it as the companion's is played."""
        turn = self.turn
        if turn is None or self.suggested is None:
            return
        if self.suggested[0] != tuple(self.game.moves):
            return
        move = self.suggested[1]
        self.suggested = None
        if turn.step == Step.ACTION:
            fill(turn, move)
        self.advance()

    def companion_done(self) -> None:
        """The move is made on the table: ask the reveal if one is due, then play it."""
        turn = self.turn
        if turn is None or self.answer is None or self.answer[0] != tuple(self.game.moves):
            return
        if turn.step == Step.ACTION:
            fill(turn, self.answer[1])
        self.advance()

    def companions_turn(self) -> bool:
        """A tap that would start a move while the companion's seat is to act: say what to
        do instead (its move is on the panel; Undo, Moves and Menu still answer)."""
        if self.session is None or self.game.over or self.plan.level(self.game.to_act) is None:
            return False
        text = (
            tr("The companion is thinking: its move appears on the right.")
            if self.answer is None or self.answer[0] != tuple(self.game.moves)
            else tr("Make this move on the table for it, then tap Done.")
        )
        self.say(text)
        return True
