"""``python -m splendor_companion``: the program, as the ``splendor-companion`` command."""

import sys

from .program import main

sys.exit(main())
