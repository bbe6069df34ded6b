"""A tournament night run from the kiosk (the Club view's "Tournament"): start it, the
players present registered (typed on the new-game screen's keyboard, or the names the
club knows tapped), the next round seated, the night ended. The round's tables and the
standings after each round are the Club view's, where seating a round leads.

Every step is a question to the club, asked in a thread of its own as the Club view asks
it (the screen says it is asking; the table never waits on the network).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.club import link, ratings, tournament
from companion.errors import CompanionError
from companion.i18n import ngettext, number
from companion.text import normal_name

from .. import theme
from ..i18n import tr
from ..layout import Shaped, button, fit_label, gap, grow_label, row_height, show_name
from ..scale import SCALE
from ..widgets.buttons import big_button
from .listing import Panel, title
from .namekeys import name_keyboard, with_key

if TYPE_CHECKING:
    from ..context import AppContext

Step = Callable[[Any], object]
"""A change made on the club's connection (start, register, seat...)."""


@dataclass(frozen=True, slots=True)
class Night:
    """The tournament as the club has it, or why it said nothing."""

    name: str | None = None  # the open tournament's; ``None``: none is open
    players: tuple[str, ...] = ()
    known: tuple[str, ...] = ()  # the club's people not registered, best rated first
    round: int = 0
    problem: str = ""
    done: str = ""  # what the last step did, said once


def ask_club(folder: Any, step: Step | None = None, said: str = "") -> Night:
    """The night after ``step`` (in a thread: it may wait on the network)."""
    try:
        club = link.joined(folder)
        if club is None:
            return Night(problem=tr("This kiosk has joined no club."))
        with link.connect(club) as conn:
            problem = ""
            if step is not None:
                try:
                    step(conn)
                except CompanionError as err:  # a name refused, a round still played...
                    problem, said = err.message, ""
            known = [r.who for r in ratings.standings(conn, ratings.PERSON)]
            found = tournament.current(conn)
            if found is None:
                return Night(known=tuple(known), problem=problem, done=said)
            present = tournament.players(conn, found.id)
            return Night(
                found.name,
                tuple(present),
                tuple(k for k in known if k not in present),
                tournament.latest_round(conn, found.id),
                problem,
                said,
            )
    except CompanionError as err:
        return Night(problem=err.message)


class TournamentScreen(Shaped):
    """Landscape: the players and the names to tap on the left, the keyboard on the
    right. Portrait: the keyboard below. On a 3.5-inch screen the keyboard takes the
    screen while a name is typed, as on the new-game screen."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="tournament", **kw)
        self.app = app
        self.night = Night()
        self.asking = False
        self.typed = ""
        self.accents = False
        self.typing = False
        self.box = BoxLayout(orientation="vertical", padding=gap(6), spacing=gap(6))
        self.add_widget(self.box)

    @property
    def cramped(self) -> bool:
        return SCALE.small and not SCALE.portrait

    def show(self) -> None:
        self.typed, self.typing, self.accents = "", False, False
        self.ask()

    def ask(self, step: Step | None = None, said: str = "") -> None:
        if self.asking:
            return
        self.asking = True
        folder = self.app.store.path.parent

        def run() -> None:
            night = ask_club(folder, step, said)
            Clock.schedule_once(lambda dt: self.answered(night))

        threading.Thread(target=run, name="club-tournament", daemon=True).start()
        self.refresh()

    def answered(self, night: Night) -> None:
        self.night, self.asking = night, False
        self.refresh()

    # ------------------------------------------------------------------ drawing

    def refresh(self) -> None:
        box = self.box
        box.clear_widgets()
        box.padding, box.spacing = gap(6), gap(6)
        night = self.night
        if self.cramped and self.typing and night.name is not None:
            box.add_widget(self._typing_bar())
            box.add_widget(self._keyboard())
            return
        heading = (
            tr("Tournament: {name}").format(name=night.name)
            if night.name is not None
            else tr("Tournament night")
        )
        box.add_widget(title(heading))
        if night.name is None:
            box.add_widget(self._names_view([], []))
        elif SCALE.portrait:
            box.add_widget(self._names_view(night.players, night.known))
            box.add_widget(self._entry())
            keys = self._keyboard()
            keys.size_hint_y = None
            keys.height = 5 * row_height(56) + 4 * gap(3)
            box.add_widget(keys)
        else:
            top = BoxLayout(spacing=gap(10))
            left = BoxLayout(orientation="vertical", spacing=gap(4))
            left.add_widget(self._names_view(night.players, night.known))
            if self.cramped:
                left.add_widget(
                    button(
                        tr("Type a name"), self.start_typing, size_hint_y=None, height=row_height()
                    )
                )
                top.add_widget(left)
            else:
                left.add_widget(self._entry())
                inner = SCALE.width - 2 * gap(6) - gap(10)
                keys_w = max(inner * 0.55, 10 * SCALE.target(44) + 9 * gap(3) + 2)
                left.size_hint_x, left.width = None, inner - keys_w
                top.add_widget(left)
                top.add_widget(self._keyboard())
            box.add_widget(top)
        said = tr("Asking the club...") if self.asking else night.problem or night.done
        box.add_widget(
            grow_label(said, font=17, color=theme.ERROR if night.problem else theme.TEXT)
        )
        box.add_widget(self._bar())

    def _names_view(self, players: Sequence[str], known: Sequence[str]) -> ScrollView:
        """The players present (a tap takes one out) and the club's names (a tap adds one)."""
        scroll = ScrollView(do_scroll_x=False, bar_width=gap(6))
        part = BoxLayout(orientation="vertical", spacing=gap(4), size_hint_y=None)
        part.bind(minimum_height=part.setter("height"))
        if self.night.name is None:
            part.add_widget(
                grow_label(
                    tr("No tournament is open. Start one, then register the players present."),
                    font=17,
                )
            )
        else:
            part.add_widget(
                grow_label(
                    ngettext(
                        "{n} player present: a tap takes one out",
                        "{n} players present: a tap takes one out",
                        len(players),
                    ).format(n=number(len(players))),
                    font=17,
                    color=theme.ACCENT,
                )
            )
            part.add_widget(self._grid(players, self.drop))
            if known:
                part.add_widget(
                    grow_label(tr("Known to the club: one tap"), font=17, color=theme.TEXT_DIM)
                )
                part.add_widget(self._grid(known, self.add))
        scroll.add_widget(part)
        return scroll

    def _grid(self, names: Sequence[str], action: Callable[[str], None]) -> GridLayout:
        cols = 2 if self.cramped or SCALE.small else 3
        unit = row_height(44)
        rows = -(-len(names) // cols)
        grid = GridLayout(
            cols=cols,
            spacing=gap(4),
            size_hint_y=None,
            height=max(0, rows * unit + (rows - 1) * gap(4)),
        )
        for name in names:
            b = big_button("", partial(action, name))
            show_name(b, name, font=18)
            grid.add_widget(b)
        return grid

    def _entry(self) -> BoxLayout:
        """The name being typed, and Add."""
        row = BoxLayout(size_hint_y=None, height=row_height(), spacing=gap(6))
        row.add_widget(fit_label(self.typed or "…", font=20, bold=True))
        row.add_widget(
            button(tr("Add"), self.add_typed, size_hint_x=0.4, background_color=theme.BUTTON_GO)
        )
        return row

    def _typing_bar(self) -> BoxLayout:
        row = self._entry()
        row.add_widget(button(tr("Done"), self.stop_typing, size_hint_x=0.3))
        return row

    def _keyboard(self) -> BoxLayout:
        keyboard = name_keyboard(self.accents, self.type, self.toggle_accents, self.backspace)
        keyboard.spacing = gap(3)
        for row in keyboard.children:
            row.spacing = gap(3)
        return keyboard

    def _bar(self) -> BoxLayout:
        bar = BoxLayout(size_hint_y=None, height=row_height(), spacing=gap(8))
        bar.add_widget(button(tr("Back"), self.back, size_hint_x=0.25))
        if self.night.name is None:
            bar.add_widget(
                button(tr("Start a tournament"), self.start, background_color=theme.BUTTON_GO)
            )
        else:
            bar.add_widget(button(tr("End the tournament"), self.confirm_end))
            bar.add_widget(
                button(tr("Seat the next round"), self.seat, background_color=theme.BUTTON_GO)
            )
        return bar

    # ------------------------------------------------------------------ doing

    def start_typing(self) -> None:
        self.typing = True
        self.refresh()

    def stop_typing(self) -> None:
        self.typing = False
        self.refresh()

    def type(self, key: str) -> None:
        self.accents = False  # one accented letter, then the letters again
        self.typed = with_key(self.typed, key)
        self.refresh()

    def toggle_accents(self) -> None:
        self.accents = not self.accents
        self.refresh()

    def backspace(self) -> None:
        self.typed = self.typed[:-1]
        self.refresh()

    def add_typed(self) -> None:
        name = normal_name(self.typed)
        if not name:
            self.night = replace(self.night, problem=tr("Type a name first."), done="")
            self.refresh()
            return
        self.typed = ""
        self.add(name)

    def add(self, name: str) -> None:
        """``name`` registered (refused, said, when it is no name: as the command's)."""

        self.ask(
            lambda conn: tournament.register(conn, [name]),
            tr("{name} is registered.").format(name=name),
        )

    def drop(self, name: str) -> None:
        self.ask(lambda conn: tournament.drop(conn, name), tr("{name} is out.").format(name=name))

    def start(self) -> None:
        name = tournament.night_name()  # dated: the club's nights told apart
        self.ask(
            lambda conn: tournament.start(conn, name),
            tr("Tournament {name} started.").format(name=name),
        )

    def confirm_end(self) -> None:
        panel = Panel(tr("End the tournament?"), height=0.6)
        panel.text(tr("Its results stay at the club; no round can be seated after."))
        panel.button(tr("Cancel"), panel.dismiss)

        def end() -> None:
            panel.dismiss()
            self.ask(lambda conn: tournament.end(conn), tr("The tournament is over."))

        panel.button(tr("End the tournament"), end)
        panel.open()

    def seat(self) -> None:
        """The next round seated; the Club view shows its tables and the standings."""
        club = self.manager.get_screen("club")
        club.show_seated()
        self.manager.current = "club"

    def back(self) -> None:
        club = self.manager.get_screen("club")
        club.show()
        self.manager.current = "club"
