"""One scaling unit for every size on screen, derived from the window.

Screens never compute sizes from ``Window.height`` themselves: they read :data:`SCALE`,
whose properties follow the window (its size too: :attr:`Scale.width` and
:attr:`Scale.height`, the room a layout shares out), so a resize or a rotation lays the
app out again without a restart. The unit is 1 on the 7-inch 800x480 panel, the screen the app was
first drawn for; the same figures then read the same from a chair on every display:

=========  ===========  ======  ================
window     orientation  unit    floors (text/tap)
=========  ===========  ======  ================
480x320    landscape    0.6     12 / 36 px
800x480    landscape    1       14 / 44 px
480x800    portrait     1       14 / 44 px
1024x600   landscape    1.25    14 / 44 px
720x1280   portrait     1.5     14 / 44 px
1280x720   landscape    1.5     14 / 44 px
1280x800   landscape    1.6     14 / 44 px
1920x1080  landscape    2.25    14 / 44 px
=========  ===========  ======  ================

The unit is the smaller of the long side over 800 and the short side over 480: a
window's shape never makes things larger than its narrow side can hold. Where the
panel's density is known to Kivy (``KIVY_METRICS_DENSITY`` in the kiosk's environment
file, for a panel seen closer or farther than a 7-inch at arm's length) it multiplies the
unit; Kivy reports 1 otherwise, as panels seldom tell their size.

The floors are the least a person reads from a chair and taps with a finger; the 3.5-inch
screens (a short side under 400 px) are held closer and get lower ones, as the display
table of the README says.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.metrics import Metrics
from kivy.properties import BooleanProperty, NumericProperty

REFERENCE = (800, 480)  # the 7-inch panel: unit 1
SMALL_SIDE = 400  # a short side under this: a 3.5-inch screen, held close


class Scale(EventDispatcher):
    """The window's unit, shape and floors, as Kivy properties a widget can bind to."""

    unit = NumericProperty(1.0)
    width = NumericProperty(800.0)  # the window's, in pixels: the room to share out
    height = NumericProperty(480.0)
    portrait = BooleanProperty(False)
    small = BooleanProperty(False)
    min_text = NumericProperty(14.0)
    min_target = NumericProperty(44.0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        Window.bind(size=self.follow)
        self.follow()

    def follow(self, *_: Any) -> None:
        width, height = Window.size
        long, short = max(width, height), min(width, height)
        density = float(Metrics.density) if Metrics.density > 0 else 1.0
        # The shape and the floors first: a layout that follows the unit reads them.
        self.width, self.height = float(width), float(height)
        self.portrait = height > width
        self.small = short < SMALL_SIDE
        self.min_text = 12.0 if self.small else 14.0
        self.min_target = 36.0 if self.small else 44.0
        self.unit = min(long / REFERENCE[0], short / REFERENCE[1]) * density

    def px(self, n: float) -> float:
        """``n`` pixels of the 7-inch screen, on this one."""
        return float(n * self.unit)

    def font(self, n: float) -> float:
        """A font of ``n`` px at 800x480, here, never under the floor."""
        return float(max(self.min_text, n * self.unit))

    def target(self, n: float) -> float:
        """A tap target of ``n`` px at 800x480, here, never under the floor."""
        return float(max(self.min_target, n * self.unit))


SCALE = Scale()
