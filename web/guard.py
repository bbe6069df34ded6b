"""The server's own defences, below the pages: which names it answers to, how many sockets
it keeps, how long an idle one stays, and what aiohttp itself answers to a request it
cannot parse.

- **Host** (DNS rebinding): a page on any phone of the network could resolve a name of
  its own to the kiosk's address and read every answer; a browser always sends that name
  in ``Host``, so only the kiosk's own names and addresses are answered (:class:`Hosts`),
  anything else 421 with a short body.
- **Sockets**: at most :data:`DEFAULT_MAX_CONNECTIONS` open (beyond, the oldest idle one is
  closed to make room, else the new one is), an idle keep-alive connection closed after
  :data:`KEEPALIVE_SECONDS`, and a closed live feed's handler cancelled at once
  (``handler_cancellation``) so its slot is free for the phone that reloads.
- **aiohttp's own answers** (a request line or header too long, a malformed request) carry
  the security headers and a fixed short text: never the request, never a traceback.
  Such answers are logged at most once a minute, with a count (a flood writes no flood).

Imports aiohttp, never Jinja2 or the journal: ``web.server`` builds on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import resource
import socket
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

log = logging.getLogger("splendor_companion.web")

KEEPALIVE_SECONDS = 5.0  # an idle keep-alive connection: a phone reuses it within this
DEFAULT_MAX_CONNECTIONS = 256  # open sockets, live feeds included (see max_connections)
SPARE_CONNECTIONS = 224  # beyond the live feeds: pages, the API, the static files
BACKLOG = 64  # connections the system holds before they are accepted
# Files besides the sockets kept: the journal and its -wal, the listener, stdio (64), and
# the sockets accepted before the cap sees them: asyncio accepts up to the backlog in one
# go, hands each over two turns of the loop later, and a socket closed to make room is
# closed a turn later still, while more batches come.
OTHER_FILES = 64 + 4 * BACKLOG
WANTED_FILES = 2048  # as the unit's LimitNOFILE
LOG_EVERY_SECONDS = 60.0
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def max_connections(live_feeds: int, open_files: int | None = None) -> int:
    """The sockets kept open for ``live_feeds`` live feeds: room for them and for the
    pages besides (systemd's ``LimitNOFILE=2048`` in the unit is above the largest, 1,224),
    and never more than the process may open (``open_files``) less what it needs besides.

    >>> max_connections(32), max_connections(1000), max_connections(1000, 1024)
    (256, 1224, 704)
    """
    wanted = max(DEFAULT_MAX_CONNECTIONS, live_feeds + SPARE_CONNECTIONS)
    if open_files is None:
        return wanted
    return max(1, min(wanted, open_files - OTHER_FILES))


def open_files_limit(wanted: int = WANTED_FILES) -> int:
    """The files this process may open, raised first towards ``wanted`` where the system
    allows (a shell's soft limit is often 1,024, below the most sockets the server may
    keep; the unit sets 2,048 and forbids changing it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return wanted if soft == resource.RLIM_INFINITY else int(soft)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio's own complaint when ``accept`` finds no file left (``EMFILE``: other
    programs' sockets, the limit lowered meanwhile) is a traceback each time, hundreds a
    second under a flood: it is said once a minute with a count instead."""
    refused = RateLimitedLog("connections not accepted: no file left to open")
    default = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            refused.note()
        elif default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


@dataclass
class RateLimitedLog:
    """One warning a minute at most, saying how many of its kind came meanwhile."""

    what: str
    every: float = LOG_EVERY_SECONDS
    count: int = 0
    _last: float = -1e9

    def note(self) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self._last >= self.every:
            log.warning("%s: %d in the last %d s", self.what, self.count, int(self.every))
            self._last, self.count = now, 0


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header, lower-case, without its port or a final dot
    (``None``: not a host a browser sends).

    >>> host_name("Kiosk.local.:8080"), host_name("[::1]:80"), host_name("a b")
    ('kiosk.local', '::1', None)
    """
    text = header.strip().lower()
    if not text or len(text) > 255 or not text.isascii():
        return None
    if text.startswith("["):
        inside, close, rest = text[1:].partition("]")
        if not close or (rest and not (rest[:1] == ":" and _port(rest[1:]))):
            return None
        return inside
    name, colon, port = text.rpartition(":")
    if not colon:
        name = text
    elif not _port(port):
        return None
    name = name.rstrip(".")
    if not name or any(not (c.isalnum() or c in "-._") for c in name):
        return None
    return name


def _port(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 5


def _addresses() -> set[str]:
    """Every address of this machine's networks (``hostname -I``), as written in a URL."""
    found: set[str] = set()
    try:
        out = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    for word in out.split():
        try:
            found.add(str(ipaddress.ip_address(word.split("%")[0])))
        except ValueError:
            continue
    return found


@dataclass
class Hosts:
    """The names and addresses the kiosk is reached by: its host name and ``.local``
    name, its addresses, localhost, and any given (``--allow-host``, ``web_hosts``)."""

    names: set[str] = field(default_factory=set)

    @classmethod
    def of_this_machine(cls, extra: Iterable[str] = ()) -> Hosts:
        names = set(LOCAL_NAMES)
        hostname = socket.gethostname().lower().rstrip(".")
        if hostname:
            short = hostname.split(".")[0]
            names |= {hostname, short, f"{short}.local"}
        names |= _addresses()
        for item in extra:
            found = host_name(item)
            if found is not None:
                names.add(found)
        return cls(names)

    def allows(self, request: BaseRequest) -> bool:
        """Whether ``request`` names this kiosk: one of its names, or the very address
        the connection came in on (an address a DHCP lease gave since the start)."""
        found = host_name(request.headers.get("Host", ""))
        if found is None:
            return False
        if found in self.names:
            return True
        transport = request.transport
        sockname = None if transport is None else transport.get_extra_info("sockname")
        if isinstance(sockname, tuple) and sockname:
            try:
                return ipaddress.ip_address(found) == ipaddress.ip_address(str(sockname[0]))
            except ValueError:
                return False
        return False


def plain(status: int, text: str) -> web.Response:
    """A short fixed answer with the security headers (nothing of the request in it)."""
    response = web.Response(status=status, text=text + "\n", content_type="text/plain")
    response.headers.update(SECURITY_HEADERS)
    response.headers["Cache-Control"] = "no-store"
    return response


class GuardedHandler(RequestHandler):
    """aiohttp's connection handler, whose own error answers (a request it cannot parse, a
    handler that failed) are short, fixed and carry the security headers."""

    _parse_errors = RateLimitedLog("requests refused before parsing (too long, malformed)")
    _failures = RateLimitedLog("requests that failed in the server")

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if request.writer.output_size > 0:
            raise ConnectionError("an answer was already sent in part")
        if status >= 500:
            self._failures.note()
            if exc is not None:
                log.debug("failed request", exc_info=exc)
        else:
            self._parse_errors.note()
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        response = plain(status, f"{status} {phrase}")
        response.force_close()
        return response


class GuardedServer(Server):
    """aiohttp's server with a cap on open sockets and :class:`GuardedHandler`."""

    def __init__(self, *args: Any, limit: Callable[[], int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limit = limit
        """The most sockets open at once (asked at each new one: a setting may change)."""
        self._refused = RateLimitedLog("connections closed at the limit of open sockets")

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, loop=self._loop, **self._kwargs)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        if len(self._connections) >= self.limit():
            self._refused.note()
            # Room for the newcomer: the oldest connection with no request in progress
            # (an idle keep-alive, a slow sender), else the newcomer itself.
            for old, old_transport in self._connections.items():
                if not getattr(old, "_request_in_progress", True):
                    # Out of the count now: its connection_lost comes at the loop's next
                    # turn, after more sockets may have been accepted.
                    del self._connections[old]
                    old_transport.abort()
                    break
            else:
                transport.abort()
                return
        super().connection_made(handler, transport)


class Runner(web.AppRunner):
    """An :class:`aiohttp.web.AppRunner` serving through :class:`GuardedServer`."""

    def __init__(self, app: web.Application, *, limit: Callable[[], int], **kwargs: Any) -> None:
        kwargs.setdefault("keepalive_timeout", KEEPALIVE_SECONDS)
        kwargs.setdefault("handler_cancellation", True)
        kwargs.setdefault("access_log", None)
        super().__init__(app, **kwargs)
        self._limit = limit

    async def _make_server(self) -> Server:
        made = await super()._make_server()
        kwargs: dict[str, Any] = dict(made._kwargs)
        return GuardedServer(
            made.request_handler,
            request_factory=made.request_factory,
            handler_cancellation=made.handler_cancellation,
            loop=made._loop,
            limit=self._limit,
            **kwargs,
        )
