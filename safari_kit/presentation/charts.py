"""Small SVG charts for the Simulation lab and the teacher's page: drawn as text in milliseconds, no matplotlib.

They live in the presentation layer (issue 28: they were ``safari_kit.simulation.charts``, drawing code among
the simulators; the old path stays a release as a stub with a DeprecationWarning): what a learner sees.
Their words are a learner's (issue 27): "trials (log scale: each step is 10 times more)", not "trials n (log
scale)"; "Standard error shrinks with more trials", not "SE shrinks like 1/√n". The Simulation lab says the
rest in sentences right under the pictures (what a log scale and the slope −1/2 mean). The teacher's page
draws its own charts with :class:`Chart` and writes their words itself.

A matplotlib figure cost the lab about a second per click (text layout of the
log axes and a tight-bbox PNG export); these charts are plain SVG strings with
a fixed size (a ``viewBox``, so they shrink with a narrow window), put into an
``ipywidgets.HTML``. They know nothing about games or probabilities: the lab
passes numbers in.

* :func:`convergence_svg`: the running estimate with its 95% band and the exact
  line, beside the standard error against n on log-log axes;
* :func:`coverage_svg`: one vertical segment per confidence interval;
* :func:`bars_svg`: win rates with their intervals.

>>> svg = coverage_svg([(0.1, 0.3, True), (0.25, 0.4, False)], exact=0.2)
>>> svg.startswith("<svg") and svg.count("<line") >= 2
True
>>> log_ticks(1, 1000)
[1.0, 10.0, 100.0, 1000.0]
>>> linear_ticks(0.0, 1.0)
[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from safari_kit.core.i18n import _
from safari_kit.presentation.numbers import decimal, whole

__all__ = ["Chart", "Panel", "convergence_svg", "coverage_svg", "bars_svg", "linear_ticks", "log_ticks",
           "tick_text"]

FONT = "font-family='sans-serif'"
BLUE, LIGHT_BLUE, ORANGE, GREY = "#08519c", "#9ecae1", "#d94801", "#bdbdbd"


def linear_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """About ``target`` round ticks (steps 1, 2 or 5 × 10^k) from ``lo`` to ``hi``."""
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * 0.999)
    first = math.ceil(lo / step - 1e-9)
    ticks = []
    k = first
    while k * step <= hi + step * 1e-9:
        ticks.append(round(k * step, 12))
        k += 1
    return ticks


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten from ``lo`` to ``hi``; with 2× and 5× between them when fewer than two powers fit."""
    a, b = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
    powers = [10.0 ** e for e in range(a, b + 1) if lo * (1 - 1e-9) <= 10.0 ** e <= hi * (1 + 1e-9)]
    if len(powers) >= 2:
        return powers
    return [m * 10.0 ** e for e in range(a, b + 1) for m in (1, 2, 5)
            if lo * (1 - 1e-9) <= m * 10.0 ** e <= hi * (1 + 1e-9)]


def tick_text(v: float) -> str:
    """1,000 for big numbers, 0.25 for small ones."""
    if v == 0:
        return "0"
    if abs(v) >= 1 and float(v).is_integer():
        return whole(int(v))  # in the learner's language (issue 30): 1,000 / 1000, 10,000 / 10.000
    return f"{v:.4g}".replace(".", decimal(0.5, 1)[1])


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


@dataclass
class Panel:
    """A plot area: pixel box (x, y, w, h) and the data ranges (log scales allowed)."""

    x: float
    y: float
    w: float
    h: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xlog: bool = False
    ylog: bool = False
    parts: list[str] = field(default_factory=list)

    def _frac(self, v: float, lim, log: bool) -> float:
        lo, hi = lim
        if log:
            v, lo, hi = math.log10(max(v, 1e-300)), math.log10(lo), math.log10(hi)
        return 0.5 if hi == lo else (v - lo) / (hi - lo)

    def px(self, v: float) -> float:
        return self.x + self.w * self._frac(v, self.xlim, self.xlog)

    def py(self, v: float) -> float:
        return self.y + self.h * (1 - self._frac(v, self.ylim, self.ylog))

    def _pts(self, xs, ys) -> str:
        return " ".join(f"{self.px(a):.1f},{self.py(b):.1f}" for a, b in zip(xs, ys))

    def band(self, xs, lo, hi, color: str = LIGHT_BLUE, opacity: float = 0.6) -> None:
        pts = self._pts(list(xs) + list(xs)[::-1], list(lo) + list(hi)[::-1])
        self.parts.append(f"<polygon points='{pts}' fill='{color}' fill-opacity='{opacity}' stroke='none'/>")

    def line(self, xs, ys, color: str = BLUE, width: float = 1.5, dash: str = "", opacity: float = 1.0) -> None:
        d = f" stroke-dasharray='{dash}'" if dash else ""
        self.parts.append(f"<polyline points='{self._pts(xs, ys)}' fill='none' stroke='{color}' "
                          f"stroke-width='{width}' stroke-opacity='{opacity}'{d}/>")

    def dots(self, xs, ys, color: str = BLUE, r: float = 2.2) -> None:
        self.parts.extend(f"<circle cx='{self.px(a):.1f}' cy='{self.py(b):.1f}' r='{r}' fill='{color}'/>"
                          for a, b in zip(xs, ys))

    def hline(self, v: float, color: str = ORANGE, width: float = 1.5, dash: str = "6,4") -> None:
        y = self.py(v)
        self.parts.append(f"<line x1='{self.x:.1f}' y1='{y:.1f}' x2='{self.x + self.w:.1f}' y2='{y:.1f}' "
                          f"stroke='{color}' stroke-width='{width}' stroke-dasharray='{dash}'/>")

    def segment(self, x: float, y0: float, y1: float, color: str, width: float) -> None:
        px = self.px(x)
        self.parts.append(f"<line x1='{px:.1f}' y1='{self.py(y0):.1f}' x2='{px:.1f}' y2='{self.py(y1):.1f}' "
                          f"stroke='{color}' stroke-width='{width}'/>")

    def axes(self, title: str = "", xlabel: str = "", ylabel: str = "", xticks=None, yticks=None,
             xtick_labels=None) -> None:
        """Frame, ticks with labels, axis labels and a title."""
        x, y, w, h = self.x, self.y, self.w, self.h
        out = [f"<rect x='{x}' y='{y}' width='{w}' height='{h}' fill='none' stroke='#444' stroke-width='1'/>"]
        if xticks is None:
            xticks = log_ticks(*self.xlim) if self.xlog else linear_ticks(*self.xlim)
        if yticks is None:
            yticks = log_ticks(*self.ylim) if self.ylog else linear_ticks(*self.ylim)
        for i, t in enumerate(xticks):
            px = self.px(t)
            label = xtick_labels[i] if xtick_labels is not None else tick_text(t)
            out.append(f"<line x1='{px:.1f}' y1='{y + h}' x2='{px:.1f}' y2='{y + h + 4}' stroke='#444'/>")
            out.append(f"<text x='{px:.1f}' y='{y + h + 16}' font-size='11' text-anchor='middle' {FONT}>"
                       f"{_esc(label)}</text>")
        for t in yticks:
            py = self.py(t)
            out.append(f"<line x1='{x - 4}' y1='{py:.1f}' x2='{x}' y2='{py:.1f}' stroke='#444'/>")
            out.append(f"<line x1='{x}' y1='{py:.1f}' x2='{x + w}' y2='{py:.1f}' stroke='#eee'/>")
            out.append(f"<text x='{x - 6}' y='{py + 4:.1f}' font-size='11' text-anchor='end' {FONT}>"
                       f"{_esc(tick_text(t))}</text>")
        if title:
            out.append(f"<text x='{x + w / 2:.1f}' y='{y - 8}' font-size='13' font-weight='bold' "
                       f"text-anchor='middle' {FONT}>{_esc(title)}</text>")
        if xlabel:
            out.append(f"<text x='{x + w / 2:.1f}' y='{y + h + 32}' font-size='11' text-anchor='middle' {FONT}>"
                       f"{_esc(xlabel)}</text>")
        if ylabel:
            cx, cy = x - 46, y + h / 2
            out.append(f"<text x='{cx}' y='{cy:.1f}' font-size='11' text-anchor='middle' {FONT} "
                       f"transform='rotate(-90 {cx} {cy:.1f})'>{_esc(ylabel)}</text>")
        # grid lines first, data on top: the frame and ticks go before what was drawn
        self.parts[:0] = [p for p in out if "stroke='#eee'" in p]
        self.parts.extend(p for p in out if "stroke='#eee'" not in p)

    def legend(self, entries, corner: str = "right") -> None:
        """entries: (kind, color, label) with kind 'line', 'dash', 'band' or 'dot'; drawn in a top corner."""
        width = 14 + 28 + max(6.2 * len(label) for _k, _c, label in entries)
        x0 = self.x + self.w - width - 6 if corner == "right" else self.x + 6
        y0 = self.y + 6
        out = [f"<rect x='{x0:.1f}' y='{y0}' width='{width:.1f}' height='{8 + 16 * len(entries)}' "
               f"fill='white' fill-opacity='0.85' stroke='#ccc'/>"]
        for i, (kind, color, label) in enumerate(entries):
            cy = y0 + 12 + 16 * i
            if kind == "band":
                out.append(f"<rect x='{x0 + 6:.1f}' y='{cy - 5}' width='22' height='10' fill='{color}'/>")
            elif kind == "dot":
                out.append(f"<circle cx='{x0 + 17:.1f}' cy='{cy}' r='3' fill='{color}'/>")
            else:
                dash = " stroke-dasharray='6,4'" if kind == "dash" else ""
                out.append(f"<line x1='{x0 + 6:.1f}' y1='{cy}' x2='{x0 + 28:.1f}' y2='{cy}' stroke='{color}' "
                           f"stroke-width='2'{dash}/>")
            out.append(f"<text x='{x0 + 34:.1f}' y='{cy + 4}' font-size='11' {FONT}>{_esc(label)}</text>")
        self.parts.extend(out)


class Chart:
    """An SVG picture made of panels; ``str(chart)`` is the SVG text."""

    def __init__(self, width: int, height: int, label: str = "chart"):
        self.width, self.height, self.label = width, height, label
        self.panels: list[Panel] = []
        self.extra: list[str] = []

    def panel(self, *args, **kwargs) -> Panel:
        p = Panel(*args, **kwargs)
        self.panels.append(p)
        return p

    def text(self, x: float, y: float, text: str, size: int = 11, anchor: str = "start", color: str = "#333") -> None:
        self.extra.append(f"<text x='{x}' y='{y}' font-size='{size}' text-anchor='{anchor}' fill='{color}' "
                          f"{FONT}>{_esc(text)}</text>")

    def __str__(self) -> str:
        body = "".join("".join(p.parts) for p in self.panels) + "".join(self.extra)
        return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {self.width} {self.height}' "
                f"width='{self.width}' height='{self.height}' style='max-width:100%;height:auto' "
                f"role='img' aria-label='{_esc(self.label)}' class='safari-chart'>"
                f"<rect width='100%' height='100%' fill='white'/>{body}</svg>")


def _padded(lo: float, hi: float, pad: float, floor=None, ceil=None) -> tuple[float, float]:
    lo, hi = lo - pad, hi + pad
    if floor is not None:
        lo = max(floor, lo)
    if ceil is not None:
        hi = min(ceil, hi)
    return (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)


def convergence_svg(xs, means, ses, exact: float, others=(), title: str | None = None,
                    width: int = 960, height: int = 320) -> str:
    """Left: running estimate (blue) with its 95% band and the exact value; right: SE against n, log-log.

    ``others``: earlier runs as (xs, means) pairs, drawn as thin grey lines behind.
    """
    xs = [float(x) for x in xs]
    lo = [m - 1.96 * s for m, s in zip(means, ses)]
    hi = [m + 1.96 * s for m, s in zip(means, ses)]
    if title is None:
        title = _("The estimate settles on the exact value")
    chart = Chart(width, height, _("the estimate so far, and its standard error"))
    left_w = (width - 200) * 0.6
    xmax = max([xs[-1]] + [float(o[0][-1]) for o in others if len(o[0])])
    all_means = list(means) + [m for o in others for m in o[1]]
    ylim = _padded(min(min(all_means), exact), max(max(all_means), exact), 0.15, 0.0, 1.0)
    ax = chart.panel(70, 30, left_w, height - 80, (1.0, max(xmax, 10.0)), ylim, xlog=True)
    ax.band(xs, [max(ylim[0], v) for v in lo], [min(ylim[1], v) for v in hi])
    for oxs, oms in others:
        ax.line([float(x) for x in oxs], oms, color=GREY, width=1)
    ax.line(xs, means, color=BLUE, width=1.8)
    ax.hline(exact)
    ax.axes(title, _("trials (log scale: each step is 10 times more)"), _("estimate of the chance"))
    entries = [("band", LIGHT_BLUE, _("95% interval")), ("line", BLUE, _("estimate so far"))]
    if others:
        entries.append(("line", GREY, _("earlier runs")))
    entries.append(("dash", ORANGE, _("exact chance {value}").format(value=decimal(exact, 4))))
    ax.legend(entries)

    keep = [(x, s) for x, s in zip(xs, ses) if s > 0]
    x0 = 70 + left_w + 120
    if keep:
        kx, ks = [k[0] for k in keep], [k[1] for k in keep]
        ref = [ks[-1] * math.sqrt(kx[-1] / x) for x in kx]
        ylo, yhi = min(ks + ref) / 1.5, max(ks + ref) * 1.5
        ax2 = chart.panel(x0, 30, width - x0 - 20, height - 80, (min(kx) / 1.3, max(max(kx), 10 * min(kx)) * 1.3),
                          (ylo, yhi), xlog=True, ylog=True)
        ax2.line(kx, ref, color=ORANGE, width=1.2)
        ax2.dots(kx, ks)
        ax2.axes(_("Standard error shrinks with more trials"), _("trials (log scale)"),
                 _("standard error (log scale)"))
        ax2.legend([("dot", BLUE, _("standard error")), ("line", ORANGE, _("line of slope −1/2"))])
    return str(chart)


def coverage_svg(intervals, exact: float, title: str = "", width: int = 960, height: int = 250) -> str:
    """One vertical segment per interval (lo, hi, covers): blue when it covers ``exact``, orange when it misses."""
    n = len(intervals)
    chart = Chart(width, height, _("95% intervals"))
    los = [r[0] for r in intervals] + [exact]
    his = [r[1] for r in intervals] + [exact]
    span = max(his) - min(los)
    # the axis leaves 0..1 only when an interval does (a simple interval can: its impossible part is shaded)
    ylim = _padded(min(los), max(his), 0.08 * span or 0.05, floor=0.0 if min(los) >= 0 else None,
                   ceil=1.0 if max(his) <= 1 else None)
    ax = chart.panel(70, 30, width - 90, height - 75, (-1, max(n, 1)), ylim)
    entries = [("dash", "black", _("exact chance")), ("line", "#2c7fb8", _("covers it")),
               ("line", "#e6550d", _("misses it"))]
    lo_lim, hi_lim = ax.ylim
    if lo_lim < 0 or hi_lim > 1:
        for a, b in ((lo_lim, 0.0), (1.0, hi_lim)):
            if a < b:
                ax.band([-1, max(n, 1)], [a, a], [b, b], color="#999999", opacity=0.25)
        entries.append(("band", "#cccccc", _("impossible: below 0 or above 1")))
    for i, (lo, hi, ok) in enumerate(intervals):
        if hi - lo < 1e-12:  # "0 ± 0": show a dot-sized segment, or it would vanish
            lo, hi = lo - 0.002 * span, hi + 0.002 * span
        ax.segment(i, lo, hi, "#2c7fb8" if ok else "#e6550d", 2 if ok else 3)
    ax.hline(exact, color="black", width=1)
    ax.axes(title, _("interval number"), _("95% interval"), xticks=linear_ticks(0, max(n - 1, 1)))
    ax.legend(entries)
    return str(chart)


def bars_svg(labels, values, lows, highs, reference: float | None = None, reference_label: str = "",
             title: str = "", ylabel: str = "", width: int = 640, height: int = 280) -> str:
    """Bars with error bars from ``lows`` to ``highs`` on a 0–1 axis, and an optional dashed reference line."""
    n = len(labels)
    chart = Chart(width, height, title or _("bar chart"))
    ax = chart.panel(70, 30, width - 90, height - 80, (-0.6, n - 0.4), (0.0, 1.0))
    bar = min(0.6 * ax.w / max(n, 1), 120)
    for i, (v, lo, hi) in enumerate(zip(values, lows, highs)):
        cx = ax.px(i)
        ax.parts.append(f"<rect x='{cx - bar / 2:.1f}' y='{ax.py(v):.1f}' width='{bar:.1f}' "
                        f"height='{ax.py(0) - ax.py(v):.1f}' fill='#74a9cf' stroke='#045a8d'/>")
        ax.segment(i, lo, hi, "#222", 1.5)
        for yv in (lo, hi):
            ax.parts.append(f"<line x1='{cx - 8:.1f}' y1='{ax.py(yv):.1f}' x2='{cx + 8:.1f}' y2='{ax.py(yv):.1f}' "
                            f"stroke='#222' stroke-width='1.5'/>")
    if reference is not None:
        ax.hline(reference, width=1.2)
    ax.axes(title, "", ylabel, xticks=list(range(n)), xtick_labels=[str(s) for s in labels])
    if reference is not None:
        ax.legend([("dash", ORANGE, reference_label)])
    return str(chart)
