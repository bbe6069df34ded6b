"""The web page's tests: the journal fixture (see webtools)."""

from webtools import browser, journal

__all__ = ["browser", "journal"]
