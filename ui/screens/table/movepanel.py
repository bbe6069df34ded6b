"""The companion's turn on screen, docked on the table (never over it): while it thinks, a
spinner; then its move in pictures, made on the table by a person and confirmed with one
tap on Done. The "Suggest a move" hint for a person's seat uses the same panel.

The board, the bank and the players stay in sight the whole time: the players make the
move on the real table and check it against the screen. What to show comes from the core
(:mod:`companion.ai`): the move, its wording, its reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ai.words import visiting
from companion.engine.game import Game
from companion.engine.moves import Buy, Move, Reserve, Take
from companion.engine.tokens import Tokens
from companion.journal.seats import seat_title

from ... import theme
from ...dialogs import Dialog
from ...i18n import tr
from ...layout import grow_label
from ...scale import SCALE
from ...widgets.buttons import big_button
from ...widgets.framed import FramedBox
from ...widgets.pieces import CardView, GemRow, NobleView
from ...widgets.text import (
    line_height,
    text_width,
    widest_word,
    wrapped_lines,
    wrapping_label,
)

GEM_MIN = 28.0  # a gem's count stays at 14 px or more (the count is 0.56 of the gem)
GEM_MOST = 56.0  # px at 800x480: as large as the bank's, no larger
CARD_FULL = 88.0  # shorter than this, a card is drawn small (its cost would be too fine)
SHORT = 176.0  # px at 800x480: a panel shorter than this has its buttons beside the pictures
CAPTION = 15.0  # px at 800x480: a caption's size, on one line where its group has room
PAD, GAP = 6.0, 4.0  # px at 800x480: the panel's padding, and between its title and row


def unit() -> float:
    return float(SCALE.unit)  # 1 on the 7-inch screen


def gems(tokens: Tokens) -> GemRow:
    """Tokens in a row, each with its count: a picture, not a button (nothing to tap)."""
    return GemRow(values=list(tokens), spacing=4, least=GEM_MIN, most=GEM_MOST * unit(), digit=0.56)


class Group(BoxLayout):
    """A caption ("Paying:") over what it names: tokens, a card or a noble."""

    def __init__(self, caption: str, content: Widget, ratio: float, **kw: Any) -> None:
        super().__init__(orientation="vertical", spacing=2, size_hint_x=None, **kw)
        self.ratio = ratio  # the content's width for its height (a gem row: per token)
        self.content = content
        # No caption (a card, a noble): the picture takes the whole height.
        self.caption = Label(
            text=caption,
            font_size=SCALE.font(CAPTION),
            color=theme.TEXT_DIM,
            size_hint_y=None,
            height=SCALE.font(CAPTION) * 1.35,
            halign="left",
            valign="middle",
        )
        self.caption.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
        if caption:
            self.add_widget(self.caption)
        self.add_widget(content)

    def fit_caption(self, height: float) -> None:
        """The caption on one line where the group is wide enough, else wrapped between
        its words on two, smaller down to the text floor ("From the / bank:"); never cut
        inside a word ("From…ank:" was). Where two lines would leave the picture under
        half of the group's ``height`` (the 3.5-inch screen), no caption: the title says
        the move in words."""
        if self.caption.parent is None:
            return
        text, width = self.caption.text, max(1.0, float(self.width) - 2)

        def fits(size: float) -> bool:  # whole words, on two lines at most
            return widest_word(text, size, bold=False) <= width and (
                len(wrapped_lines(text, size, width)) <= 2
            )

        size = SCALE.font(CAPTION)
        while size > SCALE.min_text and not fits(size):
            size = max(float(SCALE.min_text), size - 1)
        lines = len(wrapped_lines(text, size, width))
        tall = lines * line_height(size) + (size * 0.35 if lines == 1 else 2)
        if not fits(size) or tall > height / 2:
            tall = 0.0
        self.caption.font_size = size
        self.caption.height = tall
        self.caption.opacity = 1 if tall else 0

    def wanted(self, height: float) -> float:
        inner = height
        if self.caption.parent is not None:
            inner = max(1.0, height - self.caption.height - self.spacing)
        if isinstance(self.content, GemRow):
            width = self.content.wanted(inner)
        else:  # a card or a noble: a finger's width at the least, as on the board
            width = max(SCALE.min_target, inner * self.ratio)
        if self.caption.parent is None:
            return float(width)
        # Wide enough for the caption on one line at its size now (the window's scale
        # may have changed since the group was made).
        return max(float(width), text_width(self.caption.text, SCALE.font(CAPTION)) + 2)


class Pictures(BoxLayout):
    """The move as a person sees it on the table, left to right: the card, the tokens
    taken or paid, those given back, the noble. Sized to the panel's height."""

    def __init__(self, game: Game, move: Move, **kw: Any) -> None:
        super().__init__(spacing=8 * unit(), **kw)
        self.card: CardView | None = None
        self.groups: list[Group] = []
        seat = game.to_act
        if isinstance(move, Take):
            self._group(tr("From the bank:"), gems(move.gems), 0)
        elif isinstance(move, Buy | Reserve):
            if isinstance(move, Reserve) and move.deck is not None:
                card = CardView(deck_level=move.deck, deck_count=game.deck_size(move.deck))
            else:
                card = CardView(card=game.rules.cards[move.card or ""])
            self.card = card
            self._group("", card, 0.72)
            if isinstance(move, Buy):
                bought = game.rules.cards[move.card]
                pay = move.payment or game.default_payment(seat, bought) or Tokens()
                if pay.total:
                    self._group(tr("Paying:"), gems(pay), 0)
            elif game.bank.gold:  # taken with the reserve, not paid: from the bank
                self._group(tr("From the bank:"), gems(Tokens(gold=1)), 0)
        if move.returned is not None and move.returned.total:
            self._group(tr("Gives back:"), gems(move.returned), 0)
        noble = visiting(game, move)
        if noble is not None:
            # Wider than tall: its 2x2 grid of asked bonuses keeps 14 px counts. Its visit
            # is in the words.
            self._group("", NobleView(noble=game.rules.nobles[noble]), 1.35)
        self.add_widget(Widget())  # the rest of the row
        self.bind(size=self._fit)

    def _group(self, caption: str, content: Widget, ratio: float) -> None:
        group = Group(caption, content, ratio)
        self.groups.append(group)
        self.add_widget(group)

    def _fit(self, *_: Any) -> None:
        """Each group as wide as its height asks; short of room, the token rows give way
        first (down to gems whose counts stay 14 px), then everything alike."""
        height = self.height
        room = self.width - self.spacing * len(self.groups)
        widths = [g.wanted(height) for g in self.groups]
        excess = sum(widths) - room
        if excess > 0:
            gems = [i for i, g in enumerate(self.groups) if isinstance(g.content, GemRow)]
            least = {i: self.groups[i].content.wanted(GEM_MIN) for i in gems}
            give = sum(max(0.0, widths[i] - least[i]) for i in gems)
            if give > 0:
                part = min(1.0, excess / give)
                for i in gems:
                    widths[i] -= max(0.0, widths[i] - least[i]) * part
        scale = min(1.0, max(0.1, room / max(1.0, sum(widths))))
        for group, width in zip(self.groups, widths, strict=True):
            group.width = width * scale
            group.fit_caption(height)
        if self.card is not None:
            self.card.small = self.card.height < CARD_FULL * unit()


class Spinner(Widget):
    """An arc that turns while the companion thinks: the screen is alive, not stuck."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.angle = 0.0
        self._tick = Clock.schedule_interval(self._turn, 1 / 30)
        self.bind(pos=self.redraw, size=self.redraw)

    def _turn(self, dt: float) -> None:
        self.angle = (self.angle + 360 * dt) % 360
        self.redraw()

    def stop(self) -> None:
        self._tick.cancel()

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        r = max(4.0, min(self.width, self.height) / 2 - 4)
        cx, cy = self.center
        with self.canvas:
            Color(*theme.TEXT_DIM[:3], 0.35)
            Line(circle=(cx, cy, r), width=2 * unit())
            Color(*theme.ACCENT)
            Line(circle=(cx, cy, r, self.angle, self.angle + 100), width=3 * unit())


Builder.load_string("""
#:import theme ui.theme

<MovePanel>:
    orientation: "vertical"
""")


class MovePanel(FramedBox):
    """Docked in the table's action area: a title, then a spinner while the answer is
    computed or the move in pictures, then one button (Done, or Close for a suggestion)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.move: Move | None = None
        self.thinking = False
        self.sentence = ""  # the title without its reason
        self.explained = ""  # the title with it ("... Why: keeps it away from Ada")
        self.title = wrapping_label("", font=17 * unit(), bold=True, color=theme.ACCENT)
        self.body = BoxLayout()
        self.spinner: Spinner | None = None
        self.pictures: Pictures | None = None
        self.button = big_button("", lambda: self.on_button(), background_color=theme.BUTTON_GO)
        self.other = big_button("", lambda: self.on_other())
        self.on_button: Callable[[], object] = lambda: None
        self.on_other: Callable[[], object] = lambda: None
        # Where the title has no room for why (issue 37: the 3.5-inch screen, or beside a
        # card, its payment and a noble), "?" beside Done says it in a dialog: one tap.
        self.why = big_button(
            "?", lambda: self.open_dialog(WhyDialog(self.sentence, self.explained))
        )
        self.why.size_hint_x = None
        # One glyph: larger than a word would be (bound after big_button's own fit, so
        # this one has the last word).
        self.why.bind(
            size=lambda b, size: setattr(b, "font_size", max(SCALE.min_text, min(size) * 0.6))
        )
        self.open_dialog: Callable[[Dialog], object] = lambda dialog: dialog.open()
        self.buttons = BoxLayout(size_hint_y=None, spacing=SCALE.px(6))
        self.buttons.add_widget(self.button)
        # The pictures and the buttons: one over the other, or side by side where the
        # panel is wide and short (portrait: the players below keep their room).
        self.row = BoxLayout(spacing=SCALE.px(6))
        self.add_widget(self.title)
        self.add_widget(self.row)
        self.side_by_side = False
        self._place()
        SCALE.bind(portrait=self._place)
        self.bind(height=self._place)
        self.bind(height=self._rescale)  # the title's lines follow the panel's height
        self.row.bind(size=lambda *_: self._share())
        SCALE.bind(unit=self._rescale)
        self.bind(width=self._rescale)
        self._rescale()

    def _place(self, *_: Any) -> None:
        """The buttons under the pictures (landscape), or beside them (portrait; and in
        landscape where the panel is short: three or four players' lines beside it, whose
        holdings stay in view, issue 34), so the pictures keep the panel's height."""
        # One button beside: a suggestion's two would break their words there.
        alone = self.other.parent is None
        wanted = bool(SCALE.portrait) or (self.height < SCALE.px(SHORT) and alone)
        if self.buttons.parent is not None and wanted == self.side_by_side:
            return
        self.side_by_side = wanted
        self.row.clear_widgets()
        if self.buttons.parent is not None:
            self.buttons.parent.remove_widget(self.buttons)
        self.row.add_widget(self.body)
        if wanted:  # Done and Close side by side all the same: each as tall as the row
            self.row.add_widget(self.buttons)
            self._share()
        else:
            self.buttons.size_hint = (1, None)
            self.add_widget(self.buttons)

    def _share(self) -> None:
        """Beside the pictures: a third of the row for Done, half for Done and Close;
        "?" takes a square of its own beside Done."""
        self._place()
        # "?" over Done where the row is two fingers tall, else beside it (a square).
        gap = float(self.buttons.spacing)
        stacked = (
            self.side_by_side
            and self.why.parent is not None
            and float(self.row.height) >= 2 * SCALE.min_target + gap
        )
        self.buttons.orientation = "vertical" if stacked else "horizontal"
        if stacked:
            self.why.size_hint, self.why.height = (1, None), SCALE.min_target
        else:
            self.why.size_hint, self.why.width = (None, 1), SCALE.target(48)
        if self.side_by_side:
            share = 0.34 if self.other.parent is None else 0.5
            if self.why.parent is not None and not stacked:
                self.buttons.size_hint = (None, 1)
                width = max(float(self.row.width) * share, SCALE.target(48) * 2)
                self.buttons.width = width + self.why.width + gap
            else:
                self.buttons.size_hint = (share, 1)

    def _rescale(self, *_: Any) -> None:
        self.buttons.height = SCALE.target(48)
        self.padding = SCALE.px(PAD)
        self.spacing = SCALE.px(GAP)
        self._title()
        self._why_button()

    def _why_button(self) -> None:
        """The "?" beside Done while the title says less than the whole: the move
        without why, or a sentence cut short."""
        hidden = bool(self.sentence) and self.title.text != (self.explained or self.sentence)
        if hidden and self.why.parent is None:
            self.buttons.add_widget(self.why, index=len(self.buttons.children))
        elif not hidden and self.why.parent is not None:
            self.buttons.remove_widget(self.why)
        self._share()

    def _title(self) -> None:
        # The move's sentence on two lines where it can, down to the text floor: the
        # pictures below it keep their room.
        width = max(1.0, float(self.width) - SCALE.px(12))
        most = self._lines_room()
        if self.explained:
            # Why, too (issue 37), where a third line leaves the pictures their room: not
            # on the smallest screens, nor beside three pictures (a card, its payment and a
            # noble); else the sentence alone.
            room = 2 if SCALE.small or self.pictures is None or len(self.pictures.groups) > 2 else 3
            room = min(room, most)
            size = self._fitting(self.explained, width, room)
            if len(wrapped_lines(self.explained, size, width, bold=True)) <= room:
                self.title.text, self.title.font_size = self.explained, size
                return
        size = self._fitting(self.sentence, width, 2)
        self.title.font_size = size
        self.title.text = shortened(self.sentence, size, width, most)

    def _lines_room(self) -> int:
        """The most lines of title that leave the pictures and Done a finger's height
        (a long French sentence on the 3.5-inch screen took four and pressed Done to
        27 px)."""
        if self.height <= 1 or self.thinking or self.move is None:
            return 99  # not laid out yet, or no pictures under it
        inner = float(self.height) - 2 * SCALE.px(PAD) - SCALE.px(GAP)
        if not self.side_by_side:
            inner -= float(self.buttons.height) + SCALE.px(GAP)
        line = line_height(SCALE.min_text, bold=True)
        return max(1, int((inner - SCALE.min_target) // line))

    @staticmethod
    def _fitting(text: str, width: float, lines: int) -> float:
        """The largest size down to the text floor at which ``text`` takes ``lines``."""
        size = SCALE.font(17)
        while size > SCALE.min_text and len(wrapped_lines(text, size, width, bold=True)) > lines:
            size = max(float(SCALE.min_text), size - 1)
        return size

    def _clear(self) -> None:
        if self.spinner is not None:
            self.spinner.stop()
            self.spinner = None
        self.pictures = None
        self.body.clear_widgets()

    def second(self, text: str, action: Callable[[], object]) -> None:
        """A second button beside the first (a suggestion: Done, or Close)."""
        self.other.text = text
        self.on_other = action
        if self.other.parent is None:
            self.buttons.add_widget(self.other)
        self._share()

    def think(
        self,
        title: str,
        button: str,
        other: str = "",
        on_other: Callable[[], object] | None = None,
    ) -> None:
        """The answer is being computed: a turning spinner, the button not yet usable
        (``other``, a button usable meanwhile: Close a suggestion)."""
        self._clear()
        self._alone()
        if other and on_other is not None:
            self.second(other, on_other)
        self.move = None
        self.thinking = True
        self.sentence, self.explained = title, ""
        self._rescale()
        self.spinner = Spinner()
        self.body.add_widget(self.spinner)
        self.button.text = button
        self.button.disabled = True

    def show(
        self,
        game: Game,
        move: Move,
        title: str,
        button: str,
        action: Callable[[], object],
        explained: str = "",
    ) -> None:
        """The move in pictures; ``action`` when the button is tapped. ``explained``: the
        title with why, shown instead where the panel has the room."""
        self._clear()
        self._alone()
        self.move = move
        self.thinking = False
        self.pictures = Pictures(game, move)
        self.body.add_widget(self.pictures)
        self.sentence, self.explained = title, explained
        self._rescale()
        self.button.text = button
        self.button.disabled = False
        self.on_button = action

    def _alone(self) -> None:
        """One button again (the second is a suggestion's)."""
        if self.other.parent is not None:
            self.buttons.remove_widget(self.other)
        self._share()

    def close(self) -> None:
        """Off the table: nothing turns on in the background."""
        self._clear()
        self._alone()
        self.move = None
        self.thinking = False
        self.sentence = self.explained = ""  # no "?" left over for what is said next
        self._why_button()


def shortened(sentence: str, size: float, width: float, lines: int) -> str:
    """``sentence`` in at most ``lines`` lines at ``size`` in ``width``: whole where it
    fits, else its longest start ending at a clause (". ", ", ") or else between words,
    and "…" (the whole is one tap away: "?")."""
    if len(wrapped_lines(sentence, size, width, bold=True)) <= lines:
        return sentence
    clauses = [m.start() for m in re.finditer(r"[.,;] ", sentence)]
    words = [m.start() for m in re.finditer(r" ", sentence)]
    for cuts in (clauses, words):
        for at in reversed(cuts):
            text = sentence[:at].rstrip(" .,;") + "…"
            if len(wrapped_lines(text, size, width, bold=True)) <= lines:
                return text
    return sentence.split(" ", 1)[0] + "…"


class WhyDialog(Dialog):
    """The companion's move and why it chose it, in full: the panel's title says the move
    alone where a third line would take the pictures' room."""

    def __init__(self, sentence: str, explained: str) -> None:
        super().__init__(tr("Why?"))
        # The move as the panel says it, then why, larger: what the "?" was tapped for
        # (a suggestion's sentence is its why, said whole).
        why = explained.removeprefix(sentence).lstrip(" .") or sentence
        if why != sentence:
            self.body.add_widget(grow_label(sentence, font=20))
        self.why = grow_label(why, font=26, bold=True)
        self.body.add_widget(self.why)
        self.body.add_widget(Widget())  # the words at the top, Close at the bottom
        self.button(tr("Close"), self.dismiss)


def companion_title(name: str, level: str) -> str:
    """The panel's title while the companion thinks: its seat as history and the end
    screen name it (``seat_title``: "Robo (hard)"), so a seat left with the companion's own
    name reads "Companion (hard) is thinking...", never "Companion (the companion, hard)".
    Its move is then told in a sentence (:func:`companion.records.movelog.foretell`)."""
    return tr("{title} is thinking...").format(title=seat_title(name, level))
