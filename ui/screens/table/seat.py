"""The companion's seat at the table (and "Suggest a move" for a person's): the decision is
made in a worker thread (:class:`~companion.ai.thinking.Thinking`) while the table stays
alive, then shown in a panel docked in the action area, never over the board.

An answer is applied on Kivy's thread (``Clock.schedule_once``) and only if it is still
for the game on the table: after an undo, a redo, another game or the end of the app it is
dropped, and the search told to stop.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.uix.widget import Widget

from companion.ai.thinking import Thinking
from companion.ai.words import explained
from companion.ai.words import reason as why_suggested
from companion.coach.plan import Plan, fill
from companion.engine.moves import Move
from companion.errors import IllegalMove
from companion.journal.declaring import Step
from companion.journal.seats import seat_title
from companion.records.movelog import foretell

from ...i18n import tr
from .movepanel import MovePanel, companion_title
from .parts import Table

MovesSoFar = tuple[Move, ...]  # the game's moves when an answer was asked: whose it is


class CompanionSeat:
    """The thinking, its answer, and the panel that shows it in the take bar's place.

    ``dock``: put a widget in the take bar's place (``None``: the take bar again);
    ``mark``: outline a card of the board (``None``: none); ``advance``: the move is made
    on the table, go on with its steps.
    """

    def __init__(
        self,
        table: Table,
        dock: Callable[[Widget | None], None],
        mark: Callable[[str | None], None],
        advance: Callable[[], None],
    ) -> None:
        self.table = table
        self.dock = dock
        self.mark = mark
        self.advance = advance
        self.panel = MovePanel()  # the companion's move or a suggestion
        self.panel.open_dialog = table.open_dialog  # "?": why, over the table like any dialog
        self.plan = Plan(())
        self.thinking: Thinking | None = None
        self.asked_for: str = ""  # "companion" or "suggest": what the thinking is for
        self.answer: tuple[MovesSoFar, Move] | None = None  # the companion's move
        self.suggested: tuple[MovesSoFar, Move] | None = None  # the suggestion shown

    def play(self, plan: Plan) -> None:
        """A game comes to the table: its seats, and nothing thought for another."""
        self.stop_thinking()
        self.plan = plan
        self.asked_for = ""
        self.answer = self.suggested = None

    # ------------------------------------------------------------------ thinking

    def _think(self, what: str) -> None:
        """Start deciding for the seat to act, on a copy of the game, in a worker thread."""
        self.stop_thinking()
        plan = self.plan
        decide = plan.choose if what == "companion" else plan.suggestion
        self.asked_for = what
        self.thinking = Thinking(self.table.game, decide, self._answered).start()

    def _answered(self, thinking: Thinking) -> None:
        """From the worker thread: hand the answer to Kivy's thread, nothing more."""
        Clock.schedule_once(lambda _dt: self._arrived(thinking), 0)

    def _arrived(self, thinking: Thinking) -> None:
        """On Kivy's thread: apply the answer if it is still wanted, else drop it."""
        if thinking is not self.thinking or self.table.turn is None:
            return  # superseded, or the table was left
        if not thinking.answers(self.table.game):
            return
        self.thinking = None
        if thinking.error is not None or thinking.move is None:
            # Said where it is seen; the spinner stops (a new refresh asks again).
            text = tr("The companion could not decide: {error}").format(error=thinking.error)
            self.panel.close()
            self.panel.sentence, self.panel.explained = text, ""
            self.panel.title.text = text
            self.table.say(text, error=True)
            return
        key = (thinking.position, thinking.move)
        if self.asked_for == "companion":
            self.answer = key
        else:
            self.suggested = key
        self.table.refresh()

    def stop_thinking(self) -> None:
        """No answer is wanted any more (undo, game left, app closing): the search stops."""
        if self.thinking is not None:
            self.thinking.cancel()
            self.thinking = None

    def leave(self) -> None:
        self.stop_thinking()
        self.panel.close()

    # ------------------------------------------------------------------ the panel

    def show(self) -> None:
        """The action area for the seat to act: the companion's panel, a suggestion, or the
        take bar. Called at the end of every refresh."""
        game, turn = self.table.game, self.table.turn
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

    def _undock(self) -> None:
        self._mark(None)
        if self.panel.parent is not None:
            self.panel.close()
            self.dock(None)

    def _companion(self, level: str, position: MovesSoFar) -> None:
        game, turn = self.table.game, self.table.turn
        assert turn is not None
        name = game.names[game.to_act]
        self.dock(self.panel)
        if self.answer is None or self.answer[0] != position:
            self.answer = None
            if self.thinking is None or self.asked_for != "companion":
                self._think("companion")
            if not self.panel.thinking:
                self.panel.think(companion_title(name, level), tr("Done"))
            self._mark(None)
            return
        move = self.answer[1]
        if turn.step == Step.ACTION and not turn.selection.total:
            try:
                fill(turn, move)
            except IllegalMove as err:  # never expected: its moves come from legal_moves
                self.table.say(err.message, error=True)
                return
        if self.panel.move != move or self.panel.thinking:
            # The move in a sentence, as the move log will say it once made (issue 34),
            # and why in a few words where the panel has the room (issue 37): at a larger
            # table, the rival it matters to.
            # "Robo (hard) reserves a blue level-2 card, takes 1 gold. Why: keeps it away
            # from Ben".
            told = foretell(game, move, seat_title(name, level))
            why = explained(told, game, move)
            self.panel.show(game, move, told, tr("Done"), self.companion_done, why)
        self._mark(move)

    def _suggestion(self, position: MovesSoFar) -> None:
        game = self.table.game
        self.dock(self.panel)
        if self.suggested is None or self.suggested[0] != position:
            if not self.panel.thinking:
                self.panel.think(tr("Suggested:"), tr("Done"), tr("Close"), self.close_suggestion)
            self._mark(None)
            return
        move = self.suggested[1]
        if self.panel.move != move or self.panel.thinking:
            # A suggestion, never worded as if played: its pictures, and why. A person
            # makes it on the table and taps Done, as for the companion's own move.
            title = tr("Suggested:") + " " + why_suggested(game, move)
            self.panel.show(game, move, title, tr("Done"), self.play_suggestion)
            self.panel.second(tr("Close"), self.close_suggestion)
        self._mark(move)

    def _mark(self, move: Move | None) -> None:
        """The card of the move, outlined on the board: check it against the real table."""
        self.mark(getattr(move, "card", None))

    # ------------------------------------------------------------------ taps

    def suggest(self) -> None:
        table = self.table
        if not table.playing or self.plan.level(table.game.to_act):
            return
        self.suggested = None
        self._think("suggest")
        table.refresh()

    def close_suggestion(self) -> None:
        self.stop_thinking()
        self.suggested = None
        self.table.refresh()

    def play_suggestion(self) -> None:
        """The suggested move is made on the table: play it as the companion's is played."""
        turn = self.table.turn
        if turn is None or self.suggested is None:
            return
        if self.suggested[0] != tuple(self.table.game.moves):
            return
        move = self.suggested[1]
        self.suggested = None
        if turn.step == Step.ACTION:
            fill(turn, move)
        self.advance()

    def companion_done(self) -> None:
        """The move is made on the table: ask the reveal if one is due, then play it."""
        turn = self.table.turn
        if turn is None or self.answer is None or self.answer[0] != tuple(self.table.game.moves):
            return
        if turn.step == Step.ACTION:
            fill(turn, self.answer[1])
        self.advance()

    def companions_turn(self) -> bool:
        """A tap that would start a move while the companion's seat is to act: say what to
        do instead (its move is on the panel; Undo, Moves and Menu still answer)."""
        table = self.table
        if not table.playing or self.plan.level(table.game.to_act) is None:
            return False
        text = (
            tr("The companion is thinking: its move appears on the right.")
            if self.answer is None or self.answer[0] != tuple(table.game.moves)
            else tr("Make this move on the table for it, then tap Done.")
        )
        table.say(text)
        return True
