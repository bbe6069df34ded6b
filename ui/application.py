"""The Kivy application: screens, settings, export, and the optional hardware (started
from the command line by :mod:`ui.launch`)."""

from __future__ import annotations

import functools
import gc
import logging
import os
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.logger import Logger
from kivy.uix.screenmanager import NoTransition, Screen

from companion.coach.plan import Plan
from companion.demo import demo_game
from companion.engine.setup import Setup
from companion.errors import ExportRefused
from companion.files import NotAFile
from companion.i18n import LANGUAGES, ngettext, os_reason
from companion.journal.declaring import NewGame
from companion.journal.seats import seat_titles
from companion.journal.session import Session
from companion.journal.store import Store, StoreError, system_clock
from companion.paths import data_dir as resolve_data_dir
from companion.records.timeline import points_by_round
from companion.reports.export import ExportError, export_all, file_stem

from . import keyboard, stick, theme
from .chart import PointsChart
from .context import SeatLevels
from .display import decide, native_size
from .i18n import set_language, tr
from .media import removable_media
from .screens.analysis import AnalysisScreen
from .screens.club import ClubScreen
from .screens.end import EndScreen
from .screens.enroll import EnrollScreen
from .screens.history import HistoryScreen
from .screens.manager import Screens, Shown
from .screens.newgame import NewGameScreen
from .screens.review import ReviewScreen
from .screens.setup import SetupScreen
from .screens.start import StartScreen
from .screens.stats import StatsScreen
from .screens.table import TableScreen
from .screens.table.words import error_words, named
from .screens.tournament import TournamentScreen
from .settings import (
    DEFAULTS,
    SETTINGS_SECTION,
    complaint,
    from_kiosk,
    kiosk_refused,
    usable,
    write_settings,
)
from .settings_screen import SettingsScreen

if TYPE_CHECKING:
    from .devices import Devices  # imported when wired: pyserial and gpiozero are optional

log = logging.getLogger(__name__)

# Every screen of the app by its name, each made with the app (as its ``AppContext``).
SCREENS: dict[str, Callable[[CompanionApp], Screen]] = {
    "start": StartScreen,
    "newgame": NewGameScreen,
    "setup": SetupScreen,
    "table": TableScreen,
    "end": EndScreen,
    "history": HistoryScreen,
    "enroll": EnrollScreen,
    "settings": SettingsScreen,
    "stats": StatsScreen,
    "club": ClubScreen,
    "tournament": TournamentScreen,
    "review": ReviewScreen,
    "analysis": AnalysisScreen,
}


class CompanionApp(App):
    title = "Splendor Companion"

    # The screens the app names (SCREENS lists them all), each made when first asked for.
    start_screen = Shown("start", StartScreen)
    new_game_screen = Shown("newgame", NewGameScreen)
    setup_screen = Shown("setup", SetupScreen)
    table_screen = Shown("table", TableScreen)
    end_screen = Shown("end", EndScreen)
    history_screen = Shown("history", HistoryScreen)
    enroll_screen = Shown("enroll", EnrollScreen)
    settings_screen = Shown("settings", SettingsScreen)
    manager: Screens

    def __init__(
        self,
        data_dir: str | None = None,
        language: str | None = None,
        demo: bool | int = False,
        clock: Callable[[], datetime] = system_clock,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self._data_dir_option = data_dir
        self._language_option = language
        # ``--demo`` alone is the 3-player demo; ``--demo 4`` a 4-player one.
        self.demo = 3 if demo is True else int(demo or 0)
        self.clock = clock  # the journal's clock: a test fixes it, for the same pictures
        self.notices: list[str] = []
        self._settings_unkept = False  # said once: the settings folder cannot be made
        self._lasting: list[str] = []  # the notices of the start, kept on the start screen
        # The new-game screen's choice until the game starts: levels per seat, suggestions.
        self.companion_plan: tuple[SeatLevels, bool] = ([], False)
        self.store: Store
        self.hardware: Devices | None = None

    # ------------------------------------------------------------------ settings

    def get_application_config(self, defaultpath: str = "") -> str | None:
        """``settings.ini`` in the data folder; ``None`` (Kivy then keeps the settings in
        memory) when that folder cannot be made: the app starts all the same."""
        folder = resolve_data_dir(self._data_dir_option)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as err:  # a file in its place, a NUL in its name
            if not self._settings_unkept:
                self._settings_unkept = True
                self.notice(
                    tr(
                        "The settings cannot be kept in {folder} ({reason}): the defaults "
                        "are used, and a change lasts until the app closes."
                    ).format(folder=folder, reason=os_reason(err))
                )
            return None
        return str(folder / "settings.ini")

    def build_config(self, config: Any) -> None:
        config.setdefaults(SETTINGS_SECTION, dict(DEFAULTS))
        # Kivy's own write opens settings.ini as it finds it, following a link: ours
        # replaces it atomically and refuses anything but a file there.
        config.write = functools.partial(self._write_settings, config)

    def _write_settings(self, config: Any) -> bool:
        """Kivy's ``config.write()``: ``False``, said on the screen, when it cannot be."""
        try:
            write_settings(config)
        except OSError as err:
            message = tr("cannot write {file}: {reason}").format(
                file=config.filename, reason=os_reason(err)
            )
            Logger.error("Settings: %s", message)
            if getattr(self, "manager", None) is None:
                self.notices.append(message)  # at start, before any screen
            else:
                self.say(message, error=True)
            return False
        return True

    def setting(self, key: str) -> str:
        """The value in use: the kiosk's (the service's environment wins at every start),
        else the settings file's, else (a value that cannot be used) the default."""
        kiosk = from_kiosk(key)
        if kiosk is not None:
            return kiosk
        # Raw: a "%" in a path or a port is a character, not an interpolation.
        value: str = self.config.get(SETTINGS_SECTION, key, raw=True)
        return value if usable(key, value) else DEFAULTS[key]

    def notice(self, message: str) -> None:
        """A line for the start screen, and the log: what the table should know."""
        self.notices.append(message)
        self._lasting.append(message)
        log.warning("%s", message)

    def check_settings(self) -> None:
        """Each setting that cannot be used, said (:meth:`notice`) with the default used
        instead; the app does it once at start, after the settings file is read."""
        file = str(self.config.filename or "settings.ini")
        expected = self.get_application_config()
        if expected is not None and Path(expected).exists() and not self.config.filename:
            # Kivy ignores a settings file it cannot parse: say so, rather than nothing.
            self.notice(
                tr(
                    "The settings file {file} cannot be read: the defaults are used. Fix or "
                    "delete it, then start again."
                ).format(file=expected)
            )
        for key in DEFAULTS:
            value = self.config.get(SETTINGS_SECTION, key, raw=True)
            if not usable(key, value):
                self.notice(complaint(key, value, file))
        for message in kiosk_refused():
            self.notice(message)

    @property
    def hints(self) -> bool:
        return self.setting("hints") == "1"

    # The app's own settings screen (ui/settings_screen.py) in place of Kivy's panel.
    def open_settings(self, *_: Any) -> bool:
        if self.manager.current == self.settings_screen.name:
            return False
        self.settings_screen.open(self.manager.current)
        self.manager.current = self.settings_screen.name
        return True

    def close_settings(self, *_: Any) -> bool:
        if self.manager.current != self.settings_screen.name:
            return False
        self.manager.current = self.settings_screen.back_to
        return True

    def on_config_change(self, config: Any, section: str, key: str, value: str) -> None:
        if section != SETTINGS_SECTION:
            return
        if not usable(key, value):
            self.say(complaint(key, value, str(config.filename)), error=True)
        if key == "language":
            self.switch_language(self.setting(key))
        elif key == "rotation":
            self.turn_window()
        elif key == "hints":
            self.refresh_all()
        elif key.startswith(("rfid", "pin_")) or key == "undo_hold":
            self.start_hardware()

    def switch_language(self, language: str) -> None:
        set_language(language)
        self.refresh_all()

    def turn_window(self) -> None:
        """The panel's own orientation, or the rotation deploy.sh or the settings chose."""
        width, height = Window.system_size  # unrotated: the display's mode, full screen
        decision = decide(
            os.environ.get("SPLENDOR_ROTATION"),
            self.setting("rotation"),
            native_size((int(width), int(height))),
        )
        log.info("display: %s", decision.describe())
        Window.rotation = decision.rotation

    def toggle_hints(self) -> None:
        self.config.set(SETTINGS_SECTION, "hints", "0" if self.hints else "1")
        self.config.write()
        self.refresh_all()

    def change_setting(self, key: str, value: str) -> bool:
        """Keep ``value`` in ``settings.ini`` and apply it at once (unchanged: nothing)."""
        config = self.config
        if config.get(SETTINGS_SECTION, key, raw=True) == value:
            return False
        config.set(SETTINGS_SECTION, key, value)
        config.write()
        self.dispatch("on_config_change", config, SETTINGS_SECTION, key, value)
        return True

    def when_stopping(self, callback: Callable[[], object]) -> None:
        self.bind(on_stop=lambda *_: callback())

    # ------------------------------------------------------------------ building

    def build(self) -> Any:
        language = self._language_option or self.setting("language")
        set_language(language if language in LANGUAGES else "en")
        self.check_settings()  # in the table's language
        Window.clearcolor = theme.BACKGROUND
        self.turn_window()
        self.store = self._open_store()
        # The start screen now; every other one when first shown (ui/screens/manager.py).
        makers = {name: functools.partial(kind, self) for name, kind in SCREENS.items()}
        self.manager = Screens(makers, transition=NoTransition())
        self.manager.current = "start"
        keyboard.install()  # a text field's keyboard at the kiosk, in the app's language
        if self.demo:
            self.resume(self._demo_game())
        self.start_hardware()
        self._start_dimmer()
        if stick.on_kiosk():
            self.stick_watcher = stick.StickWatcher(
                self.data_folder(), self.stick_said, self._finished_games
            )
            self._stick_check = Clock.schedule_interval(self.stick_watcher.check, 1)
        self.club_push = self._start_club_push()
        if self.club_push is None and not self.demo:
            # A kiosk that joins a club while the app runs ('club join'): its push starts
            # within half a minute. One file looked at, nothing imported, until then.
            self._club_check = Clock.schedule_interval(self._check_club, 30)
        return self.manager

    def _check_club(self, *_: Any) -> None:
        if self.club_push is None:
            self.club_push = self._start_club_push()
        if self.club_push is not None:
            self._club_check.cancel()

    def _start_club_push(self) -> Any:
        """The club's push in a thread of its own (docs/club.md), only where this kiosk
        joined a club: the table never waits on the club, and a kiosk without one starts
        nothing (nor imports a PostgreSQL client)."""
        from companion.club.link import ClubError, joined

        if self.demo or not self.store.saved or self.store.read_only:
            return None
        try:
            if joined(self.data_folder()) is None:
                return None
        except ClubError as err:  # its settings unreadable: the Club view says so and how
            Logger.warning("club: %s", err.message)
            return None
        from companion.club.push import Pusher

        return Pusher(self.store.path, self.data_folder()).start()

    def _finished_games(self) -> int:
        return sum(1 for info in self.store.games() if info.finished)

    def stick_said(self, message: str, ok: bool) -> None:
        """What the kiosk's USB export did, on the screen showing."""
        if self.manager.current == "history":
            self.history_screen.refresh(message, ok=ok)
        else:
            self.say(message, error=not ok)

    def _start_dimmer(self) -> None:
        """Dim the backlight after the idle time of the settings; a touch wakes it."""
        from .backlight import Backlight, Dimmer

        def idle() -> float:
            try:
                return 60 * float(self.setting("dim_after"))
            except ValueError:
                return 0.0

        self.dimmer = Dimmer(Backlight.find(), idle)
        Window.bind(on_touch_down=self.dimmer.touched)
        self._dim_check = Clock.schedule_interval(self.dimmer.check, 5)

    def _open_store(self) -> Store:
        """The table's journal; when its folder cannot be used (a file in its place,
        read-only, a full disk), a temporary one; when not even that can be made, one in
        memory. The app always starts, and says which it got."""
        if self.demo:
            # The demo never touches the table's own games.
            return self._temporary_store("splendor-demo-", said=False)
        path = self.data_folder() / "games.sqlite3"
        try:
            store = Store(path, clock=self.clock)
        except StoreError as err:
            # Nothing is overwritten: play on in a temporary journal and say so.
            self.notice(err.message)
            return self._temporary_store("splendor-")
        for message in store.notices:
            self.notice(message)
        return store

    def _temporary_store(self, prefix: str, said: bool = True) -> Store:
        try:
            folder = Path(tempfile.mkdtemp(prefix=prefix))
            store = Store(folder / "games.sqlite3", clock=self.clock)
        except (OSError, StoreError) as err:
            reason = err.message if isinstance(err, StoreError) else os_reason(err)
            self.notice(
                tr(
                    "No temporary journal can be made either ({reason}): play goes on, but "
                    "the games are not saved."
                ).format(reason=reason)
            )
            return Store.unsaved(self.data_folder() / "games.sqlite3", clock=self.clock)
        if said:
            self.notice(
                tr(
                    "The games are kept in a temporary journal, {path}, until the computer "
                    "is switched off: export them to a USB stick from Past games."
                ).format(path=store.path)
            )
        return store

    def data_folder(self) -> Path:
        """Where the games and the RFID tag map are kept."""
        return resolve_data_dir(self._data_dir_option or self.setting("data_dir") or None)

    def _demo_game(self) -> int:
        return demo_game(self.store, self.demo)

    def refresh_all(self) -> None:
        """Every screen made so far drawn again (a language, the hints); one not made yet
        is made in the new words when first shown."""
        for screen in self.manager.screens:
            refresh = getattr(screen, "refresh", None)
            if refresh is not None and (screen.name != "setup" or self.setup_screen.draft):
                refresh()

    # ------------------------------------------------------------------ navigation

    def show_start(self) -> None:
        self.manager.current = "start"

    def show_new_game(self) -> None:
        self.manager.current = "newgame"

    def show_setup(
        self, draft: NewGame, levels: SeatLevels | None = None, suggest: bool = False
    ) -> None:
        self.companion_plan = (levels or [], suggest)
        self.setup_screen.start(draft)
        self.manager.current = "setup"

    def show_history(self) -> None:
        self.manager.current = "history"

    def show_enroll(self) -> None:
        self.enroll_screen.start(None)
        self.manager.current = "enroll"

    def start_game(self, setup: Setup) -> None:
        levels, suggest = self.companion_plan
        extra = None
        if len(levels) == len(setup.players) and (suggest or any(levels)):
            # The companion's seats and settings live in the record (companion.coach.plan).
            extra = {"app": Plan.new(levels, suggest=suggest).app()}
        self.companion_plan = ([], False)
        try:
            session = Session.start(self.store, setup, extra)
        except StoreError as err:
            self.setup_screen.refresh(err.message)
            return
        self.table_screen.play(session)
        self.manager.current = "table"

    def resume(self, game_id: int, undo: bool = False) -> None:
        try:
            session = Session.resume(self.store, game_id)
            if undo and session.can_undo:
                session.undo()
        except StoreError as err:
            # A journal that cannot be replayed is kept as it is; the table is told why.
            self.manager.current = "start"
            self.say(error_words(err), error=True)  # a card or noble it names, said in words
            return
        self.table_screen.play(session)
        self.manager.current = "table"

    def show_end(self, session: Session) -> None:
        self.end_screen.show(session.game_id, session.record)
        self.manager.current = "end"

    def show_past_game(self, game_id: int) -> None:
        info = self.store.info(game_id)
        if not info.finished:
            self.resume(game_id)
            return
        try:
            record = self.store.record(game_id)
        except StoreError as err:
            self.history_screen.refresh(error_words(err), ok=False)
            return
        self.end_screen.show(game_id, record, from_history=True)
        self.manager.current = "end"

    # ------------------------------------------------------------------ export

    def export_to_media(self, folder: Path | None = None) -> tuple[bool, str]:
        """Every finished game (and its chart) to the USB stick; a sentence for the table."""
        if folder is None and stick.on_kiosk():
            # The kiosk's helper mounts the stick and exports; its status comes back.
            try:
                stick.ask(self.data_folder())
            except OSError as err:
                return False, tr(
                    "cannot write {path}: {reason}. Nothing was written there."
                ).format(path=self.data_folder(), reason=err.strerror or err)
            return True, tr("Looking for the USB stick...")
        if folder is None:
            media = removable_media()
            if not media:
                return False, tr("No USB stick found: plug one in and try again.")
            folder = media[0] / "splendor-games"
        try:
            done = export_all(self.store, folder)
            refused = list(done.refused)  # names taken by a link, a folder...: left alone
            left_out = {err.params.get("id") for err in done.skipped}
            for info in self.store.games():
                if info.finished and info.id not in left_out:
                    record = self.store.record(info.id)
                    chart = PointsChart(
                        rounds=points_by_round(record),
                        names=seat_titles(record.players, record.extra),
                        goal=record.rules.winning_points,
                        size=(800, 480),
                        size_hint=(None, None),
                    )
                    path = folder / f"{file_stem(info)}.png"
                    try:
                        chart.save_png(path)
                    except NotAFile as err:
                        refused.append(ExportRefused(path, str(err)))
        except (ExportError, StoreError) as err:
            return False, err.message
        except OSError as err:
            return False, tr("cannot write {path}: {reason}. Nothing was written there.").format(
                path=folder, reason=os_reason(err)
            )
        said = ngettext(
            "{games} game exported to {folder}", "{games} games exported to {folder}", done.games
        ).format(games=done.games, folder=folder)
        if done.skipped:
            # One damaged game never hides the others: they are out, it is named.
            return False, " ".join([f"{said}.", *(f"{error_words(err)}." for err in done.skipped)])
        if refused:  # the first one is enough to know what to clear; the others are alike
            return False, f"{said}. {refused[0].message}"
        return True, said

    # ------------------------------------------------------------------ hardware

    def start_hardware(self, pin_factory: Any = None) -> None:
        """Wire the optional reader, buttons and lights; the app runs fully without them."""
        if self.hardware is not None:
            self.hardware.close()
            self.hardware = None
        try:
            from .devices import Devices
        except ImportError as err:  # pyserial or gpiozero missing: taps only
            self.notices.append(tr("Buttons and RFID reader are off: {reason}").format(reason=err))
            return
        self.hardware = Devices(self, pin_factory=pin_factory)
        self.start_screen.refresh()  # the RFID button comes and goes with the reader

    # Events from the hardware (ui/devices.py's DevicesHost) go to the screen on show, by
    # what it can do, not by its name: a screen handles ``say``, ``tag_read``,
    # ``card_scanned``, ``undo_pressed``, ``confirm_pressed`` if it has them.

    def say(self, message: str, error: bool = False) -> None:
        """A line for the table, on whatever screen is showing."""
        said = getattr(self.manager.current_screen, "say", None)
        if said is not None:
            said(message, error)
        else:
            # What the start said (a journal, a setting) stays: the latest line joins it.
            self.notices[:] = [*self._lasting, message]
            self.start_screen.refresh()

    def tag_read(self, tag: str) -> bool:
        """A raw RFID tag for the screen on show if it takes them (enrolling a card):
        whether it did (else the devices read it as a card)."""
        read = getattr(self.manager.current_screen, "tag_read", None)
        if read is None:
            return False
        read(tag)
        return True

    def undo_pressed(self) -> None:
        """The undo button at the table."""
        pressed = getattr(self.manager.current_screen, "undo_pressed", None)
        if pressed is not None:
            pressed()

    def confirm_pressed(self) -> None:
        """The confirm button: take the tokens chosen so far, when they make a take."""
        pressed = getattr(self.manager.current_screen, "confirm_pressed", None)
        if pressed is not None:
            pressed()

    def feedback(self, accepted: bool) -> None:
        """A move or a declaration accepted (green light) or refused (red light, buzz)."""
        if self.hardware is not None:
            self.hardware.feedback(accepted)

    def on_card_scanned(self, card_id: str) -> None:
        """A card read by the RFID reader, on the app's thread."""
        scanned = getattr(self.manager.current_screen, "card_scanned", None)
        if scanned is not None:
            scanned(card_id)
        else:
            # Said as the table says a card ("a blue level-1 card"): ids are for records.
            said = tr("Scanned {card}, but no card is being declared now")
            self.say(said.format(card=named(card_id)))

    def on_start(self) -> None:
        # Everything loaded so far (Kivy, card data, the screens) lives as long as the
        # app: keep the garbage collector from walking it at every full collection,
        # which would show as a hitch in a tap's response. Once a process: the kiosk
        # starts one app; a process that starts more (the tests) would pay a full
        # collection of all it holds at each, for nothing the first did not do.
        if gc.get_freeze_count() == 0:
            gc.collect()
            gc.freeze()

    def on_stop(self) -> None:
        if hasattr(self, "dimmer"):
            Window.unbind(on_touch_down=self.dimmer.touched)
            self._dim_check.cancel()
        if hasattr(self, "_stick_check"):
            self._stick_check.cancel()
        if self.hardware is not None:
            self.hardware.close()
        if hasattr(self, "_club_check"):
            self._club_check.cancel()
        if getattr(self, "club_push", None) is not None:
            self.club_push.stop(timeout=2)
        self.store.close()


def schedule(function: Any) -> None:
    """Run ``function`` on the app's thread (from a reader's or a button's thread)."""
    Clock.schedule_once(lambda dt: function())
