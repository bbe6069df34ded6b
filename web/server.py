"""The web server: aiohttp, read-only, GET and HEAD only.

Pages (HTML, Jinja2 with autoescaping), the JSON API (``/api/v1/...``), the live feed
(server-sent events, ``/events``) and the static files, which come from a fixed map held
in memory: no part of a request's path ever reaches the filesystem. See docs/web.md.
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import functools
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from aiohttp import web
from markupsafe import Markup

from companion.engine.tokens import GEMS, Colour
from companion.errors import ErrorCode
from companion.i18n import LANGUAGES, language_name, ngettext, number
from companion.i18n import translate as _
from companion.journal.store import GameInfo, Store, StoreError, journal_state, resolve
from companion.reports import bgstats
from companion.reports.export import FORMAT, export_text, file_stem
from companion.reports.stats import (
    CompanionLevel,
    HeadToHead,
    PlayedGame,
    PlayerStats,
    head_to_head,
    people_and_levels,
    played_games,
)
from companion.text import normal_name, printable

from . import league, views
from .guard import (
    BACKLOG,
    SECURITY_HEADERS,
    Hosts,
    Runner,
    max_connections,
    open_files_limit,
    plain,
    quiet_accept_errors,
)
from .journal import Journal
from .style import colours_css

log = logging.getLogger("splendor_companion.web")

DEFAULT_PORT = 8080
DEFAULT_MAX_CLIENTS = 32
POLL_SECONDS = 0.2  # how often the journal's change counter is read: well inside 1 s
RUNNING_SECONDS = 1.0  # how often the system's lock table is read (is the app running?)
SWITCH_SECONDS = 0.001  # the interpreter's thread switch (see serve)
STATS_PATIENCE = 0.1  # seconds a statistics page waits for fresh figures before the last
COUNTING_REFRESH = 3  # seconds before a page still counting the games asks again
HEARTBEAT_SECONDS = 15.0  # a comment on each live feed, so a dead connection is noticed
MAX_ID = 2**63 - 1  # SQLite's largest integer: any other number is no game
MAX_MOVE = 10_000
# What aiohttp accepts of a request: a GET has no body, and short headers.
LIMITS = {"max_line_size": 4096, "max_field_size": 4096, "max_headers": 64}
CLIENT_MAX_SIZE = 1024
PAGE_SIZE = 50  # games a page of the list (and of the API's) shows: about 30 KB
KEPT_QUERY = ("move", "a", "b", "page")  # what a language link keeps of the address
MEDIA = {"json": "application/json", "csv": "text/csv", "txt": "text/plain"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """Every static file, by the one name a request may ask for: read once at start."""
    folder = resources.files("web").joinpath("static")
    files = {
        "style.css": (folder.joinpath("style.css").read_bytes(), "text/css"),
        "live.js": (folder.joinpath("live.js").read_bytes(), "text/javascript"),
        "colours.css": (colours_css().encode(), "text/css"),
    }
    return files


@dataclass
class Settings:
    """The kiosk's settings the server obeys, from the app's ``settings.ini`` (read, never
    written): ``web`` (1 or 0) and ``web_max_clients``. A value that cannot be used is its
    default, as in the app, and said once in one line (:attr:`refused`)."""

    file: Path | None
    max_clients: int = DEFAULT_MAX_CLIENTS
    _enabled: bool = True
    _stamp: tuple[int, int] | None = None
    _fixed_max: bool = False
    refused: list[str] = field(default_factory=list)
    """Why a value of the file is not used: one translated line each, since the last read."""

    def refresh(self) -> None:
        if self.file is None:
            return
        try:
            found = self.file.stat()
        except OSError:
            self._enabled, self._stamp = True, None
            return
        stamp = (found.st_mtime_ns, found.st_size)
        if stamp == self._stamp:
            return
        self._stamp = stamp
        config = configparser.RawConfigParser()
        with contextlib.suppress(OSError, configparser.Error, UnicodeDecodeError):
            config.read(self.file, encoding="utf-8")
        section = config["companion"] if config.has_section("companion") else {}
        web = str(section.get("web", "1"))
        self.refused = []
        if web.strip() not in ("0", "1"):
            self.refused.append(refused_setting("web", web, self.file.name, _("0 or 1"), "1"))
        self._enabled = web.strip() != "0"
        text = str(section.get("web_max_clients", ""))
        if text.strip() and clients_setting(text) is None:
            self.refused.append(
                refused_setting(
                    "web_max_clients",
                    text,
                    self.file.name,
                    _("a number from 1 to 1000"),
                    str(DEFAULT_MAX_CLIENTS),
                )
            )
        if not self._fixed_max:
            self.max_clients = clients_setting(text) or DEFAULT_MAX_CLIENTS
        for line in self.refused:
            log.warning("%s", line)

    @property
    def enabled(self) -> bool:
        self.refresh()
        return self._enabled


def whole_number(text: str, high: int) -> int | None:
    """``text`` as a whole number from 0 to ``high`` in ASCII digits, else ``None``: a
    superscript ``²`` or an Arabic-Indic digit is no number here (``str.isdigit`` takes
    them, ``int`` then refuses or reads them)."""
    if not text or len(text) > len(str(high)) or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if value <= high else None


def clients_setting(text: str) -> int | None:
    """``web_max_clients`` as a number from 1 to 1000; ``None`` when it is not one."""
    value = whole_number(text.strip(), 1000)
    return value if value else None


def refused_setting(key: str, value: str, file: str, expected: str, default: str) -> str:
    """The one line said of a setting the page cannot use (the app's words for it)."""
    shown = printable(value)
    shown = shown if len(shown) <= 24 else shown[:20] + "…"
    return _(
        "The setting {key} = {value} in {file} cannot be used ({expected}): the page uses "
        "{default}. Change it in the kiosk's Settings."
    ).format(key=key, value=shown, file=file, expected=expected, default=default)


@dataclass
class Hub:
    """The journal followed: one poll for every live client; each waits on its queue."""

    journal: Journal
    poll: float = POLL_SECONDS
    clients: set[asyncio.Queue[int | None]] = field(default_factory=set)
    counter: int = 0
    running: bool | None = None
    _seen: tuple[object, ...] | None = None
    _running_at: float = 0.0

    @property
    def seen(self) -> tuple[object, ...] | None:
        """The journal's state as last read (``None`` before the first read)."""
        return self._seen

    def check(self) -> bool:
        """Read the journal's change counter (and now and then whether the app runs):
        ``True`` when something changed, then every client is woken."""
        now = time.monotonic()
        if now - self._running_at >= RUNNING_SECONDS:
            self._running_at = now
            self.running = self.journal.running()
        seen = (self.journal.version(), self.running)
        if seen == self._seen:
            return False
        first = self._seen is None
        self._seen = seen
        if not first:
            self.counter += 1
            for queue in self.clients:
                queue.put_nowait(self.counter)
        return True

    def close(self) -> None:
        """End every live feed (the server stops): each client's script tries again."""
        for queue in self.clients:
            queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            try:
                self.check()
            except Exception:  # never let one bad read stop the live page
                log.exception("reading the journal")
            await asyncio.sleep(self.poll)


@dataclass
class Figures:
    """The statistics of one state of the journal, read on the statistics' thread (none
    of it depends on the language): the finished games, the people, each person's line
    and the companion's levels; head-to-heads are kept as asked."""

    games: list[PlayedGame]
    people: list[str]
    players: list[PlayerStats]
    levels: list[CompanionLevel]
    heads: OrderedDict[tuple[str, str], HeadToHead] = field(default_factory=OrderedDict)

    def head(self, a: str, b: str) -> HeadToHead:
        found = self.heads.get((a, b))
        if found is None:
            found = self.heads[(a, b)] = head_to_head(self.games, a, b)
            if len(self.heads) > 64:
                self.heads.popitem(last=False)
        return found


def isolate(name: str) -> str:
    """A name inside a sentence, isolated (U+2068 ... U+2069): a right-to-left name never
    reorders the words around it."""
    return "\u2068" + name + "\u2069"


def accepted_language(header: str) -> str:
    """The first of the browser's languages (by ``q``) that the companion speaks.

    >>> accepted_language("de-CH, fr;q=0.8, en;q=0.5")
    'fr'
    >>> accepted_language("")
    'en'
    """
    found: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:512].split(",")):
        code, _sep, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        base = code.strip().split("-")[0].lower()
        if base in LANGUAGES and weight > 0:
            found.append((-weight, index, base))
    return min(found)[2] if found else "en"


def language_of(request: web.Request) -> tuple[str, bool]:
    """The page's language and whether the address chose it (``?lang=``)."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked, True
    return accepted_language(request.headers.get("Accept-Language", "")), False


class Site:
    """The pages, the API and the live feed over one read-only journal."""

    def __init__(
        self,
        journal_path: Path,
        *,
        settings_file: Path | None = None,
        max_clients: int | None = None,
        poll: float = POLL_SECONDS,
        hosts: Hosts | None = None,
    ) -> None:
        self.journal = Journal(journal_path)
        self.hosts = Hosts.of_this_machine() if hosts is None else hosts
        self.hub = Hub(self.journal, poll)
        self.settings = Settings(settings_file)
        if max_clients is not None:
            self.settings.max_clients = max_clients
            self.settings._fixed_max = True
        self.settings.refresh()
        self.static = _static_files()
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader("web", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.globals.update(
            _=lambda text: _(text),
            ngettext=lambda one, many, n: ngettext(one, many, n),
            number=number,
            gems=[c.key for c in GEMS],
            colours=[c.key for c in Colour],
            colour_word=lambda key: _(key),
            languages=[(code, language_name(code)) for code in LANGUAGES],
            isolate=isolate,
        )
        self.templates.filters["isolate"] = isolate
        self.templates.filters["when"] = views.when  # the kiosk's local time, the page's way
        self._cache: OrderedDict[tuple[object, ...], views.View] = OrderedDict()
        self._task: asyncio.Task[None] | None = None
        # The finished games the statistics count, read on a thread of their own (their
        # own read-only connection) once per state of the journal: every phone shares it.
        self._played: tuple[tuple[object, ...], asyncio.Future[Figures]] | None = None
        # Each finished game's line, kept across changes of the journal (a move of the game
        # being played changes no finished game): only new games are replayed. Used by one
        # worker at a time (each waits for the one before, below).
        self._known: dict[tuple[int, str, int], PlayedGame] = {}
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="web-statistics")
        self._played_last: Figures | None = None
        self._stopping = threading.Event()
        # The worker's [games counted, games in the journal]: what a statistics page asked
        # before the first figures are read says (a club's journal takes a minute or more).
        self._progress = [0, 0]

    # ------------------------------------------------------------------ the app

    def app(self) -> web.Application:
        app = web.Application(
            middlewares=[self._only_here, self._only_reading, self._errors],
            client_max_size=CLIENT_MAX_SIZE,
            handler_args=LIMITS,
        )
        for path, handler in self.routes():
            app.router.add_get(path, handler)
        app.on_response_prepare.append(self._headers)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._shutdown)
        app.on_cleanup.append(self._stop)
        return app

    def routes(self) -> list[tuple[str, Callable[[web.Request], Awaitable[web.StreamResponse]]]]:
        """Every address the server answers (GET and HEAD), in one list. Numbers are
        ASCII digits (``\\d`` would take other scripts' digits too)."""
        return [
            ("/", self.live),
            ("/live/table", self.live_fragment),
            ("/events", self.events),
            ("/games", self.games),
            ("/games/{id:[0-9]{1,19}}", self.game),
            ("/games/{id:[0-9]{1,19}}/export/{fmt:[a-z]{1,10}}", self.download),
            ("/stats", self.stats),
            ("/league", functools.partial(league.page, self)),  # the club's (web/league.py)
            ("/api/v1/table", self.api_table),
            ("/api/v1/games", self.api_games),
            ("/api/v1/games/{id:[0-9]{1,19}}", self.api_game),
            ("/static/{name:[a-z.]{1,20}}", self.static_file),
        ]

    def runner(self) -> Runner:
        """The app's runner: idle connections closed after seconds, the open sockets
        capped (room for every live feed and pages besides), aiohttp's own error answers
        short and with the security headers (:mod:`web.guard`)."""
        files = open_files_limit()
        return Runner(self.app(), limit=lambda: max_connections(self.settings.max_clients, files))

    async def _start(self, app: web.Application) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        self.hub.check()
        self._task = asyncio.create_task(self.hub.run())
        # The statistics read at once, on their thread: the first phone to ask finds them.
        with contextlib.suppress(StoreError):
            self._played_games()

    async def _shutdown(self, app: web.Application) -> None:
        self.hub.close()

    async def _stop(self, app: web.Application) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.journal.close()
        self._stopping.set()
        self._worker.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers.setdefault("Cache-Control", "no-store")

    @web.middleware
    async def _only_here(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Only the kiosk's own names (``Host``): a page elsewhere that resolved a name of
        its own to this address (DNS rebinding) reads nothing. First of all, before a
        word of the journal is read."""
        if not self.hosts.allows(request):
            with views.language(language_of(request)[0]):
                text = _("This page answers only at the kiosk's own names and addresses.")
            return plain(421, "421 " + text)
        return await handler(request)

    @web.middleware
    async def _only_reading(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Only GET and HEAD, whatever the path: nothing here changes anything."""
        if request.method not in ("GET", "HEAD"):
            return self._error(
                request,
                405,
                "method-not-allowed",
                _("This page only shows the game: nothing can be sent to it."),
                headers={"Allow": "GET, HEAD"},
            )
        if not self.settings.enabled:
            return self._error(
                request,
                503,
                "turned-off",
                _("The table's page is turned off in the kiosk's settings."),
            )
        return await handler(request)

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A clear page for what is not there, never a traceback or a path."""
        try:
            return await handler(request)
        except (web.HTTPException, StoreError) as err:
            with views.language(language_of(request)[0]):
                return self._failure(request, err)
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception:
            # Logged here whole; the phone gets one line, never a traceback.
            log.exception("answering %s", request.path[:200])
            with views.language(language_of(request)[0]):
                return self._error(
                    request, 500, "server-error", _("Something went wrong on the kiosk: try again.")
                )

    def _failure(self, request: web.Request, err: web.HTTPException | StoreError) -> web.Response:
        """The answer to what a handler refused, in the page's language."""
        if isinstance(err, web.HTTPException):
            if err.status == 404:
                return self._error(request, 404, "not-found", _("There is no such page."))
            if err.status == 400:
                return self._error(
                    request,
                    400,
                    "bad-request",
                    _("This address is not one the page makes: go back to the table."),
                )
            raise err
        if err.code is ErrorCode.NO_GAME:
            return self._error(request, 404, "no-game", _("There is no such game."))
        if err.code is ErrorCode.UNREADABLE_GAME:
            return self._error(request, 503, "unreadable-game", err.message)
        log.warning("journal: %s", err.message)
        state = journal_state(err)
        if state is not None:
            return self._error(request, 503, str(err.code), state)
        return self._error(
            request, 503, "journal-unreadable", _("The kiosk's journal cannot be read now.")
        )

    def _error(
        self,
        request: web.Request,
        status: int,
        code: str,
        message: str,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        """An error in one line: JSON with a stable ``code`` under ``/api/``, else a page."""
        if request.path.startswith("/api/"):
            return self._json(
                {"api": views.API_VERSION, "error": code, "message": message},
                status=status,
                headers=headers,
            )
        return self._page(
            request, "error.html", {"message": message}, status=status, headers=headers
        )

    # ------------------------------------------------------------------ helpers

    def _context(self, request: web.Request) -> dict[str, Any]:
        lang, chosen = language_of(request)

        def url(path: str, **query: object) -> str:
            params = {k: v for k, v in query.items() if v is not None}
            if chosen:
                params["lang"] = lang
            return path + ("?" + urlencode(params) if params else "")

        # A page's own path (an unknown one, or "//host", is never written into a link).
        known = request.match_info.http_exception is None and request.path.startswith("/")
        here = request.path if known and not request.path.startswith("//") else "/"

        def switch(code: str) -> str:
            params = {k: v for k, v in request.query.items() if k in KEPT_QUERY}
            params["lang"] = code
            return here + "?" + urlencode(params)

        return {"lang": lang, "url": url, "switch": switch, "path": here}

    def _page(
        self,
        request: web.Request,
        template: str,
        values: dict[str, Any],
        *,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        context = self._context(request)
        values = {"page": "", **values}
        with views.language(context["lang"]):
            body = self.templates.get_template(template).render(**context, **values)
        return web.Response(
            text=body,
            status=status,
            content_type="text/html",
            charset="utf-8",
            headers=headers,
        )

    def _store(self) -> Store:
        store = self.journal.store()
        if store is None:
            assert self.journal.problem is not None
            raise self.journal.problem
        return store

    def _cached(self, key: tuple[object, ...], make: Callable[[], views.View]) -> views.View:
        found = self._cache.get(key)
        if found is None:
            found = make()
            self._cache[key] = found
            if len(self._cache) > 64:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return found

    def _game_view(self, store: Store, info: GameInfo, lang: str, upto: int | None) -> views.View:
        """A game's table after ``upto`` moves, in ``lang`` (kept for the next reader)."""

        def make() -> views.View:
            with views.language(lang):
                record = store.record(info.id, with_journal=True)
                return views.table(record, info.id, upto)

        # The journal's own change counter: an undo and another move in the same second
        # leave the game's time and move count as they were.
        key = ("table", info.id, self.journal.version(), lang, upto)
        return self._cached(key, make)

    def _live(self, lang: str) -> dict[str, Any]:
        """The live table: the game being played (or none), and whether the app runs."""
        store = self._store()
        info = store.latest_unfinished()
        running = self.hub.running
        table = None if info is None else self._game_view(store, info, lang, None)
        last = None
        if info is None:
            found = store.latest_readable()
            last = None if found is None else views.game_line(found)
        return {"api": views.API_VERSION, "running": running, "table": table, "last": last}

    @staticmethod
    def _game_id(request: web.Request) -> int:
        text = request.match_info["id"]
        value = int(text)
        if not 0 < value <= MAX_ID:
            raise web.HTTPNotFound()
        return value

    @staticmethod
    def _move(request: web.Request, total: int) -> int | None:
        text = request.query.get("move")
        if text is None:
            return None
        value = whole_number(text, MAX_MOVE)
        if value is None:
            raise web.HTTPBadRequest()
        return min(value, total)

    @staticmethod
    def _page_number(request: web.Request, pages: int) -> int:
        """``?page=`` (from 1; past the last, the last), else 400."""
        text = request.query.get("page")
        if text is None:
            return 1
        value = whole_number(text, 10**9)
        if not value:
            raise web.HTTPBadRequest()
        return min(value, max(pages, 1))

    def _games_page(self, request: web.Request) -> tuple[list[views.View], int, int]:
        """A page of the games list, newest first: its lines, its number and the pages."""
        store = self._store()
        pages = max(1, -(-store.count_games() // PAGE_SIZE))
        page = self._page_number(request, pages)
        infos = store.games(limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
        return [views.game_line(g) for g in infos], page, pages

    # ------------------------------------------------------------------ pages

    def _fragment(self, request: web.Request) -> Markup:
        """The live table's HTML, rendered once per change of the journal and language:
        every phone fetches it after each move."""
        lang, chosen = language_of(request)
        key = ("fragment", self.hub.seen, lang, chosen)

        def make() -> views.View:
            context = self._context(request)
            with views.language(lang):
                template = self.templates.get_template("live_table.html")
                html = template.render(**context, live=self._live(lang))
            return {"html": html}

        made = self._cached(key, make) if self.hub.seen is not None else make()
        return Markup(made["html"])

    async def live(self, request: web.Request) -> web.Response:
        return self._page(
            request, "live.html", {"fragment": self._fragment(request), "page": "live"}
        )

    async def live_fragment(self, request: web.Request) -> web.Response:
        """The live table alone, for the page's script to swap in after an event."""
        return web.Response(
            text=str(self._fragment(request)), content_type="text/html", charset="utf-8"
        )

    async def games(self, request: web.Request) -> web.Response:
        lines, page, pages = self._games_page(request)
        values = {"games": lines, "page": "games", "page_number": page, "pages": pages}
        return self._page(request, "games.html", values)

    async def game(self, request: web.Request) -> web.Response:
        game_id = self._game_id(request)
        store = self._store()
        info = store.info(game_id)
        if info.problem is not None:
            raise info.problem
        lang = language_of(request)[0]
        upto = self._move(request, info.moves)
        whole = self._game_view(store, info, lang, None)
        table = whole if upto is None else self._game_view(store, info, lang, upto)
        record = store.record(game_id, with_journal=True)
        chart = views.chart_svg(views.chart(record))
        link = None
        if info.finished:
            link = bgstats.link(bgstats.stored_play(store, game_id))
        values = {
            "info": views.game_line(info),
            "whole": whole,
            "table": table,
            "chart": chart,
            "bgstats": link,
            "formats": list(FORMAT) if info.finished else [],
            "page": "games",
        }
        return self._page(request, "game.html", values)

    async def download(self, request: web.Request) -> web.Response:
        """A finished game's file, byte for byte what ``export`` writes."""
        game_id = self._game_id(request)
        fmt = request.match_info["fmt"]
        if fmt not in FORMAT:
            raise web.HTTPNotFound()
        store = self._store()
        info = store.info(game_id)
        if info.problem is not None:
            raise info.problem
        if not info.finished:
            raise web.HTTPNotFound()
        lang = language_of(request)[0]
        with views.language(lang):
            data = export_bytes(store, game_id, fmt)
        name = f"{file_stem(info)}.{FORMAT[fmt].suffix}"
        ascii_name = name.encode("ascii", "replace").decode().replace("?", "_")
        return web.Response(
            body=data,
            headers={
                "Content-Type": MEDIA.get(fmt, "application/json") + "; charset=utf-8",
                "Content-Disposition": (
                    f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"
                ),
            },
        )

    def _played_games(self) -> asyncio.Future[Figures]:
        """The finished games, read once per state of the journal on a worker thread with
        a connection of its own: the event loop serves every other phone meanwhile."""
        version = self.journal.version()
        if self._played is None or self._played[0] != version:
            self._store()  # a journal that cannot be read is said now, as on every page
            path, known = self.journal.path, self._known

            stopping, progress = self._stopping, self._progress

            def going_on(_line: PlayedGame) -> bool:
                if stopping.is_set():  # the server stops: no game more is replayed
                    raise asyncio.CancelledError
                progress[0] += 1
                return True

            def read() -> Figures:
                store = Store.reading_only(path)
                try:
                    progress[:] = [0, store.count_games()]
                    games = played_games(store, include=going_on, known=known)
                finally:
                    store.close()
                players, levels = people_and_levels(games)
                return Figures(games, views.people(games), players, levels)

            future = asyncio.get_running_loop().run_in_executor(self._worker, read)
            future.add_done_callback(self._played_done)
            self._played = (version, future)
        return self._played[1]

    async def first_figures(self) -> None:
        """Once the statistics were read a first time (or could not be): for what shows
        the page at once with its figures (a screenshot, a test), never for a phone."""
        with contextlib.suppress(Exception):
            await asyncio.shield(self._played_games())

    def _played_done(self, future: asyncio.Future[Figures]) -> None:
        if future.cancelled():
            return
        if future.exception() is None:
            self._played_last = future.result()
        else:
            log.warning("reading the statistics: %s", future.exception())

    async def _fresh_played(self) -> Figures | None:
        """The statistics' games: the journal's as it is now, or, while those are being
        read after a change, the last ones read (a move of the game being played changes
        no finished game; the page is never held long for it); ``None`` while the first
        ones are still being read (every game of a club's journal replayed: minutes)."""
        future = asyncio.shield(self._played_games())
        try:
            return await asyncio.wait_for(future, STATS_PATIENCE)
        except TimeoutError:
            return self._played_last

    async def stats(self, request: web.Request) -> web.Response:
        lang = language_of(request)[0]
        figures = await self._fresh_played()
        if figures is None:
            done, total = self._progress
            counting = {
                "counted": min(done, total),
                "total": total,
                "refresh": COUNTING_REFRESH,
                "page": "stats",
            }
            headers = {"Retry-After": str(COUNTING_REFRESH)}
            return self._page(request, "counting.html", counting, status=503, headers=headers)
        people, players, levels = figures.people, figures.players, figures.levels
        with views.language(lang):
            a, b = request.query.get("a", ""), request.query.get("b", "")
            head = None
            if a in people and b in people and a != b:
                head = views.head_line(figures.head(normal_name(a), normal_name(b)))
            values = {
                "players": [views.player_line(s) for s in players],
                "levels": [views.level_line(lv) for lv in levels],
                "people": [views.name(p) for p in people],
                "a": a if a in people else "",
                "b": b if b in people else "",
                "head": head,
                "page": "stats",
            }
        return self._page(request, "stats.html", values)

    async def static_file(self, request: web.Request) -> web.Response:
        found = self.static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, kind = found
        return web.Response(body=body, content_type=kind, headers={"Cache-Control": "max-age=300"})

    # ------------------------------------------------------------------ the API

    @staticmethod
    def _json(
        data: object, status: int = 200, headers: dict[str, str] | None = None
    ) -> web.Response:
        # <, > and & escaped too: a name stays data even where the JSON is pasted into HTML.
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return web.Response(
            text=text, status=status, content_type="application/json", headers=headers
        )

    async def api_table(self, request: web.Request) -> web.Response:
        return self._json(self._live(language_of(request)[0]))

    async def api_games(self, request: web.Request) -> web.Response:
        lines, page, pages = self._games_page(request)
        answer = {"api": views.API_VERSION, "games": lines, "page": page, "pages": pages}
        return self._json(answer)

    async def api_game(self, request: web.Request) -> web.Response:
        game_id = self._game_id(request)
        store = self._store()
        info = store.info(game_id)
        if info.problem is not None:
            raise info.problem
        lang = language_of(request)[0]
        upto = self._move(request, info.moves)
        table = self._game_view(store, info, lang, upto)
        return self._json({"api": views.API_VERSION, "info": views.game_line(info), "table": table})

    # ------------------------------------------------------------------ the live feed

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: ``change`` with a counter whenever the journal changes (or
        the app starts or stops). At most ``web_max_clients`` at once."""
        if len(self.hub.clients) >= self.settings.max_clients:
            return self._page(
                request,
                "error.html",
                {
                    "message": _(
                        "Too many phones follow the table live: this one shows it without "
                        "live updates. Reload the page in a while."
                    )
                },
                status=503,
                headers={"Retry-After": "30"},
            )
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        self.hub.clients.add(queue)
        try:
            response = web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream",
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                }
            )
            await response.prepare(request)
            await response.write(
                f"retry: 1000\nevent: change\ndata: {self.hub.counter}\n\n".encode()
            )
            while True:
                try:
                    counter = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if counter is None:
                    break
                await response.write(f"event: change\ndata: {counter}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.clients.discard(queue)
        return response


def export_bytes(store: Store, game_id: int, fmt: str) -> bytes:
    """A game's export file as ``export GAME --format FMT --out FILE`` writes it (the
    same functions: :func:`companion.reports.export.export_text`), names merged as the journal
    says."""
    record = store.record(game_id, with_journal=True)
    aliases = store.aliases()

    def person(name: str) -> str:
        return resolve(aliases, name)

    return export_text(record, fmt, person).encode("utf-8")


def serve(
    journal_path: Path,
    host: str,
    port: int,
    *,
    settings_file: Path | None = None,
    max_clients: int | None = None,
    allow_hosts: tuple[str, ...] = (),
    ready: Callable[[], None] = lambda: None,
) -> None:
    """Serve until stopped (Ctrl-C, or systemd's SIGTERM); ``ready`` is called once it
    listens. ``OSError`` when it cannot listen (the port taken, say)."""
    # The statistics' thread replays games in Python for a minute on a club's journal:
    # the event loop waits for the interpreter's lock at each switch (5 ms by default,
    # many times a page), so it is asked to switch every millisecond (the page's answers
    # stay within a few tens of ms; the statistics take about as long).
    sys.setswitchinterval(SWITCH_SECONDS)
    site = Site(
        journal_path,
        settings_file=settings_file,
        max_clients=max_clients,
        hosts=Hosts.of_this_machine(allow_hosts),
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(site, host, port, ready))


async def _serve(site: Site, host: str, port: int, ready: Callable[[], None]) -> None:
    runner = site.runner()
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, backlog=BACKLOG).start()
        ready()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()


def data_files(data_dir: str | os.PathLike[str] | None) -> tuple[Path, Path]:
    """The journal and the settings file of a data folder (``--data-dir`` or the default)."""
    from companion.paths import database_path

    journal = database_path(data_dir)
    return journal, journal.with_name("settings.ini")
