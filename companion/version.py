"""The program's version, as installed (``0+unknown`` run from a source tree never installed):
written into each game's record and the exports, shown by ``--version``."""

from importlib import metadata

try:
    __version__ = metadata.version("splendor-companion")
except metadata.PackageNotFoundError:  # run from a source tree that was not installed
    __version__ = "0+unknown"
