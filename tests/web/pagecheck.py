"""What a phone's reader meets on a page, measured in the browser from what it computed:
the page's width against the screen's, each visible text's size and its contrast with what
is behind it (WCAG 2's ratio, from the computed colours, opacity and the backgrounds under
it), and the sticky header's height. A module of its own (``tests/web`` is no package),
for the browser tests and for a look by hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TEXT_FLOOR = 14.0  # px: every text of the page
CHART_FLOOR = 12.0  # px: the chart's labels (SVG text), as drawn on the screen
READABLE = 4.5  # the contrast every text keeps
HEADER_SHARE = 0.12  # of the screen's height, at most, for the sticky header

# The text nodes' sizes and colours: one script, run in the page.
MEASURE = r"""
function parse(text) {
  let m = text.match(/^rgba?\(([^)]*)\)$/);
  if (m) {
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  m = text.match(/^color\(srgb ([^)]*)\)$/);
  if (m) {
    const p = m[1].split(/[\s\/]+/).filter(Boolean).map(Number);
    return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
  }
  return null;  // none, a gradient, a colour keyword we do not expect
}
function over(top, bottom, alpha) {
  return [0, 1, 2].map(i => top[i] * alpha + bottom[i] * (1 - alpha));
}
function luminance(c) {
  const f = v => {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}
function ratio(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
const clipMemo = new Map();
function clippedAway(el) {
  // Inside a box of a pixel or less that hides what overflows (the screen readers' text).
  if (!el || el === document.body) return false;
  if (clipMemo.has(el)) return clipMemo.get(el);
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  const tiny = r.width <= 1 || r.height <= 1;
  const hides = cs.overflow !== "visible" || cs.clipPath !== "none";
  const away = (tiny && hides) || clippedAway(el.parentElement);
  clipMemo.set(el, away);
  return away;
}
const backMemo = new Map();
function behind(el) {
  // The colour an element paints over (its own background on what is under it), and
  // each ancestor's opacity with the colour under that ancestor: from the root down.
  if (!el) return {back: [255, 255, 255], groups: []};
  if (backMemo.has(el)) return backMemo.get(el);
  const above = behind(el.parentElement);
  const cs = getComputedStyle(el);
  const opacity = parseFloat(cs.opacity);
  const groups = opacity < 1 ? above.groups.concat([[opacity, above.back]]) : above.groups;
  let back = above.back;
  if (!(el instanceof SVGElement) || el.tagName.toLowerCase() === "svg") {
    const c = parse(cs.backgroundColor);
    if (c && c[3] > 0) back = over(c, back, c[3]);
  }
  const found = {back: back, groups: groups};
  backMemo.set(el, found);
  return found;
}
const SHAPES = new Set(["circle", "rect", "ellipse", "polygon", "path"]);
function colours(el, rect) {
  // The text's colour and the colour behind it, with every ancestor's opacity applied.
  let {back, groups} = behind(el);
  const svgText = el instanceof SVGElement;
  if (svgText) {
    // A label drawn on a shape (a chart's numbered marker): the shape is behind it.
    el.scrollIntoView({block: "center"});  // a point off the screen has no element
    const seen = el.getBoundingClientRect();
    const x = seen.left + seen.width / 2, y = seen.top + seen.height / 2;
    for (const e of document.elementsFromPoint(x, y)) {
      if (e === el || !SHAPES.has(e.tagName.toLowerCase())) continue;
      const c = parse(getComputedStyle(e).fill);
      if (c) { back = over(c, back, c[3]); break; }
    }
  }
  const cs = getComputedStyle(el);
  const ink = parse(svgText ? cs.fill : cs.color) || [0, 0, 0, 1];
  let fore = over(ink, back, ink[3]);
  for (let i = groups.length - 1; i >= 0; i--) {
    const [opacity, under] = groups[i];
    fore = over(fore, under, opacity);
    back = over(back, under, opacity);
  }
  return [fore, back];
}
const found = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.data.trim();
  if (!text) continue;
  let el = node.parentElement;
  if (!el || ["SCRIPT", "STYLE", "NOSCRIPT", "TITLE"].includes(el.tagName)) continue;
  if (el.tagName === "OPTION") {  // a closed list shows its chosen option in the select
    const select = el.closest("select");
    if (!select || !el.selected) continue;
    el = select;
  }
  const range = document.createRange();
  range.selectNodeContents(el.tagName === "SELECT" ? el : node);
  const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
  if (el.tagName === "SELECT") rects.splice(0, rects.length, el.getBoundingClientRect());
  if (!rects.length) continue;
  const cs = getComputedStyle(el);
  if (cs.visibility !== "visible" || clippedAway(el)) continue;
  const svg = el instanceof SVGElement;
  let size = parseFloat(cs.fontSize);
  if (svg) size *= el.getScreenCTM().a;  // the label as drawn, the chart scaled to the screen
  const rect = rects[0];
  const [fore, back] = colours(el, rect);
  const right = Math.max(...rects.map(r => r.right));
  found.push({
    text: text.slice(0, 40),
    tag: el.tagName.toLowerCase(),
    cls: String(el.className.baseVal ?? el.className),
    size: Math.round(size * 100) / 100,
    svg: svg,
    contrast: Math.round(ratio(fore, back) * 100) / 100,
    fore: fore.map(Math.round), back: back.map(Math.round), right: right,
  });
}
const header = document.querySelector("header.top");
return {
  texts: found,
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  header: header ? header.getBoundingClientRect().height : 0,
};
"""


@dataclass(frozen=True)
class Fault:
    """What a reader would notice, in words, with the text it concerns."""

    kind: str
    text: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.text!r} ({self.detail})"


def faults(driver: Any, width: int, height: int) -> list[Fault]:
    """Every fault of the page shown in ``driver``, a screen of ``width`` x ``height``."""
    seen: dict[str, Any] = driver.execute_script(MEASURE)
    found: list[Fault] = []
    wide = max(seen["scrollWidth"], seen["innerWidth"])
    if wide > width:
        found.append(Fault("wider than the screen", "", f"{wide} px on a {width} px screen"))
    if seen["header"] > HEADER_SHARE * height:
        found.append(
            Fault("header too tall", "", f"{seen['header']:.0f} px of a {height} px screen")
        )
    for t in seen["texts"]:
        where = f"<{t['tag']} class={t['cls']!r}>"
        floor = CHART_FLOOR if t["svg"] else TEXT_FLOOR
        if t["size"] < floor - 0.01:
            found.append(Fault("text too small", t["text"], f"{t['size']} px, {where}"))
        if t["contrast"] < READABLE:
            found.append(
                Fault(
                    "text too faint",
                    t["text"],
                    f"{t['contrast']}:1, {t['fore']} on {t['back']}, {where}",
                )
            )
        if t["right"] > width + 0.5:
            found.append(Fault("text beyond the screen", t["text"], where))
    return found


def texts(driver: Any) -> list[dict[str, Any]]:
    """The visible texts as measured (for a test that checks the measure itself)."""
    seen: dict[str, Any] = driver.execute_script(MEASURE)
    return list(seen["texts"])
