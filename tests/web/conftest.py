"""The web page's tests: the journal fixture (see webtools)."""

from webtools import journal

__all__ = ["journal"]
