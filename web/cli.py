"""``splendor-companion serve``: the table's web page on the local network.

:func:`register` adds the command (``splendor_companion.program`` asks); aiohttp and
Jinja2 are imported only when it runs.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from collections.abc import Callable
from typing import Any

from companion.cli import data_folder
from companion.i18n import _, os_reason

EXIT_OK, EXIT_ERROR = 0, 2
DEFAULT_HOST = "0.0.0.0"  # every network of the kiosk: the phones around the table
DEFAULT_PORT = 8080

Command = Callable[[Any, str, str], argparse.ArgumentParser]


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 5 or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is a number from 1 to 65535, not {text}").format(text=text)
        )
    return int(text)


def _clients(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(_("a number from 1 to 1000, not {text}").format(text=text))
    return int(text)


def _host(text: str) -> str:
    """A name or address the page is reached by, as a browser sends it in ``Host``."""
    try:
        from .guard import host_name  # aiohttp: only once the command runs
    except ImportError:
        return text  # run() says aiohttp is missing, in its own line
    if host_name(text) is None:
        raise argparse.ArgumentTypeError(
            _("a host name or address (letters, digits, '-' and '.'), not {text}").format(
                text=text[:60]
            )
        )
    return text


def register(sub: Any, command: Command) -> None:
    p = command(sub, "serve", _("serve the table's read-only web page to the phones around it"))
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("the address to listen on (127.0.0.1: this machine only)"),
    )
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=_("the port to listen on"))
    p.add_argument(
        "--max-clients",
        type=_clients,
        help=_(
            "how many phones may follow the table live at once (default: the "
            "web_max_clients setting, else 32)"
        ),
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        type=_host,
        metavar="NAME",
        help=_(
            "another name or address the page is reached by (besides this machine's own "
            "names and addresses); may be given again"
        ),
    )
    p.set_defaults(func=run)


def serve_reason(err: OSError) -> str:
    """Why the page cannot be served, in the reader's words: asyncio's own text ("error
    while attempting to bind on address...") is English, and says nothing of what to do."""
    if isinstance(err, socket.gaierror):
        return _("no such address or name on this machine: give one of its own with --host")
    if err.errno == errno.EADDRINUSE:
        return _("the port is in use by another program: choose another with --port")
    if err.errno == errno.EADDRNOTAVAIL:
        return _(
            "it is not an address of this machine: give one of its own with --host "
            "(0.0.0.0 for all of them)"
        )
    if err.errno == errno.EACCES:
        return _("permission denied: ports below 1024 need root; choose another with --port")
    return os_reason(err)


def run(args: argparse.Namespace) -> int:
    try:
        from .server import data_files, serve
    except ImportError as err:  # aiohttp or Jinja2 missing: an install without them
        print(
            _(
                "The web page cannot start: {reason}. Install it with the first command "
                "of README.md."
            ).format(reason=err),
            file=sys.stderr,
        )
        return EXIT_ERROR
    # Read only: a --data-dir that does not exist is a typo, not a new store to show.
    data_folder(args, writes=False)
    journal, settings = data_files(getattr(args, "data_dir", None))

    def ready() -> None:
        print(
            _("Serving the table on http://{host}:{port}/ (Ctrl-C stops)").format(
                host=args.host if ":" not in args.host else f"[{args.host}]", port=args.port
            ),
            flush=True,
        )

    try:
        serve(
            journal,
            args.host,
            args.port,
            settings_file=settings,
            max_clients=args.max_clients,
            allow_hosts=tuple(args.allow_host),
            ready=ready,
        )
    except OSError as err:
        reason = serve_reason(err)
        print(
            _("Cannot serve on {host}:{port}: {reason}").format(
                host=args.host, port=args.port, reason=reason
            ),
            file=sys.stderr,
        )
        return EXIT_ERROR
    return EXIT_OK
