"""The teacher's page of the class server: the class's results as one plain HTML page (issue 21).

:func:`render` turns a :class:`~safari_kit.class_results.class_tables.ClassResults` into a
page a projector at 1366x768 can show: no script, no CDN, inline SVG only (drawn with
:mod:`safari_kit.presentation.charts`), and a ``<meta http-equiv="refresh">`` so it
follows the lesson by itself. Every number on it comes from ClassResults' tables
(:meth:`~ClassResults.simulation`, :meth:`~ClassResults.learners`,
:meth:`~ClassResults.calibration`, :meth:`~ClassResults.brier`, :meth:`~ClassResults.knockout`,
:meth:`~ClassResults.challenge`, :meth:`~ClassResults.where`, :meth:`~ClassResults.quiz`), so the page and
lesson 05's pandas section can never disagree. The page is a Jinja2 template
(``templates/teacher_page.html.j2``) with autoescape: nicknames and every other text from
the records are escaped by the template itself, so a learner's nickname is never markup,
whichever part of the page shows it (only the kit's own SVG charts are passed as markup).
Jinja2 comes with Voilà and jupyter_server, which the class server runs on (the ``lab``
extra declares it); a learner's kernel never imports this module.

Labs and the Simulation lab's questions are named in the labs' own words (:class:`LabWords`, which the
class server reads from the labs: :mod:`safari_kit.classroom.lab_words`); the footer's wipe command
(:func:`wipe_command`) runs as printed, from any terminal, once the server has stopped.

The page knows nothing about tokens or servers: the class server's handler
(:mod:`safari_kit.classroom.teacher`) checks the teacher's token and calls it.
"""
from __future__ import annotations

import datetime as _dt
import functools
import math
import os
import shlex
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from safari_kit.presentation.charts import BLUE, GREY, LIGHT_BLUE, ORANGE, Chart, linear_ticks
from safari_kit.class_results.class_tables import ClassResults

__all__ = ["render", "forbidden_page", "REFRESH_SECONDS", "LabWords", "wipe_command"]

REFRESH_SECONDS = 10

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a1a1a;background:#f6f6f3;
 font-size:16px;line-height:1.35}
header{background:#234;color:#fff;padding:8px 18px;display:flex;flex-wrap:wrap;gap:6px 24px;align-items:baseline}
header h1{font-size:22px;margin:0}
header a{color:#ffd27a}
main{display:grid;grid-template-columns:minmax(0,1.25fr) minmax(0,1fr);gap:12px;padding:12px 18px}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px}
section.wide{grid-column:1/-1}
h2{font-size:19px;margin:2px 0 6px}
p{margin:4px 0}
.note{color:#555;font-size:14px}
table{border-collapse:collapse;margin:4px 0;font-size:15px}
th,td{padding:2px 8px;border-bottom:1px solid #e3e3e3;text-align:right;vertical-align:middle}
th{background:#f0f0ea;font-weight:600}
td.t,th.t{text-align:left}
tr.class td{font-weight:700;border-top:2px solid #999}
.yes{color:#1b6e20;font-weight:600}.no{color:#b23b00;font-weight:600}
.nw{white-space:nowrap}
table.quiz td:nth-child(4){min-width:300px}
.key{display:inline-block;width:14px;height:10px;margin:0 4px 0 10px}
.empty{max-width:760px;margin:40px auto;background:#fff;padding:18px 26px;border:1px solid #ddd;border-radius:6px}
"""


def _num(x: float, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.{digits}f}"


def _pct(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.0f}%"


def _n(count: int, word: str) -> str:
    """'1 learner', '3 learners', '2 guesses'."""
    return f"{count} {word}" + ("" if count == 1 else "es" if word.endswith("s") else "s")


@dataclass(frozen=True)
class LabWords:
    """What the labs call their labs and questions: ``labs`` a record's ``lab`` -> the name the lab chooser
    shows ("Identification"), ``questions`` a Simulation question's key -> the lab's words for it ("Identify
    by animal, knowing nothing"). A key without words (a newer kit's lab) is shown as it is."""

    labs: Mapping[str, str] = field(default_factory=dict)
    questions: Mapping[str, str] = field(default_factory=dict)

    def lab(self, key: str) -> str:
        return self.labs.get(key, key)

    def question(self, key: str) -> str:
        return self.questions.get(key, key)


# ---------------------------------------------------------------------- charts
def strip_svg(estimates: Sequence[float], exact: float, low: float, high: float, estimate: float,
              label: str = "") -> str:
    """One question: each learner's estimate a dot, the class's pooled estimate (blue bar) with its 95%
    interval (light blue), the exact value (orange dashes)."""
    values = [*estimates, exact, low, high]
    span = max(values) - min(values)
    pad = max(span * 0.08, 0.01)
    xlim = (max(0.0, min(values) - pad), min(1.0, max(values) + pad))
    # drawn at about the width the page gives it (a 1366-px screen: ~380 px), so its 11-px tick labels stay
    # 11 px on screen (a 520-wide drawing scaled down showed them at 8 px)
    chart = Chart(390, 64, label=label or "each learner's estimate and the class's")
    p = chart.panel(12, 6, 366, 36, xlim, (0.0, 1.0))
    p.axes(xticks=linear_ticks(*xlim, target=5), yticks=[])
    x0, x1 = p.px(low), p.px(high)
    p.parts.append(f"<rect x='{x0:.1f}' y='{p.y}' width='{max(x1 - x0, 2):.1f}' height='{p.h}' fill='{LIGHT_BLUE}'/>")
    p.segment(estimate, 0.0, 1.0, BLUE, 3)
    ex = p.px(exact)
    p.parts.append(f"<line x1='{ex:.1f}' y1='{p.y - 4}' x2='{ex:.1f}' y2='{p.y + p.h + 4}' stroke='{ORANGE}' "
                   f"stroke-width='2.5' stroke-dasharray='5,3'/>")
    for i, v in enumerate(sorted(estimates)):
        y = 0.2 + 0.6 * ((i * 0.618) % 1.0)  # spread the dots up and down so equal estimates stay visible
        p.parts.append(f"<circle cx='{p.px(v):.1f}' cy='{p.py(y):.1f}' r='4' fill='#333' fill-opacity='0.75'/>")
    return str(chart)


def calibration_svg(points: Sequence[tuple[float, float, int]]) -> str:
    """(mean guess, share that happened, learners) per bin against the diagonal of perfect calibration."""
    chart = Chart(280, 250, label="the class's calibration: guessed chance against what happened")
    p = chart.panel(62, 12, 200, 190, (0.0, 1.0), (0.0, 1.0))  # room left of the axis for its rotated label
    p.axes(xlabel="guessed chance (mean of the bin)", ylabel="share that happened")
    p.line([0, 1], [0, 1], color=GREY, width=1.5, dash="5,4")
    most = max((n for _x, _y, n in points), default=1)
    for x, y, n in points:
        r = 3 + 6 * math.sqrt(n / most)
        p.parts.append(f"<circle cx='{p.px(x):.1f}' cy='{p.py(y):.1f}' r='{r:.1f}' fill='{BLUE}' "
                       f"fill-opacity='0.8'/>")
    return str(chart)


# ---------------------------------------------------------------------- sections
# Each returns what its part of the template (templates/teacher_page.html.j2) shows, as plain values: the template
# escapes every text; only the kit's own SVG charts are passed as markup.
def _simulation(results: ClassResults, words: LabWords) -> dict[str, Any]:
    table = results.simulation()
    if table.empty:
        return {"rows": []}
    mine = results.learners()
    deals = table.question.value_counts()
    rows = []
    for row in table.itertuples(index=False):
        own = mine[(mine.question == row.question) & (mine.exact == row.exact)]
        svg = strip_svg(list(own.estimate), row.exact, row.ci_low, row.ci_high, row.estimate,
                        label=f"{words.question(row.question)}: each learner's estimate and the class's")
        ex = row.exact_fraction
        rows.append({"question": words.question(row.question), "positions": int(deals[row.question]),
                     "who": f"{_n(row.learners, 'learner')}, {_n(row.runs, 'run')}", "same_draws": row.same_draws,
                     "counts": f"{row.successes:,} of {row.trials:,}", "estimate": _num(row.estimate),
                     "low": _num(row.ci_low), "high": _num(row.ci_high), "exact": _num(row.exact),
                     "fraction": str(ex) if ex.denominator < 10_000 else "", "covers": bool(row.covers),
                     "svg": Markup(svg)})
    return {"rows": rows}


def _counted_note(results: ClassResults) -> str:
    """Which guesses the calibration and the Brier scores count (issue 26), in words."""
    c = results.guess_counts()
    said = ["Only guesses made with the exact chance hidden count"]
    if c["chance_seen"]:
        said.append(f"{_n(c['chance_seen'], 'guess')} made with the exact chance on screen "
                    f"{'is' if c['chance_seen'] == 1 else 'are'} left out")
    if c["unknown"]:
        said.append(f"{_n(c['unknown'], 'guess')} from an older kit, which did not record whether the chance was "
                    f"on screen, {'is' if c['unknown'] == 1 else 'are'} counted")
    return "; ".join(said) + ". Each learner weighs as one learner in the class's rows, however many guesses they made."


def _calibration(results: ClassResults) -> dict[str, Any]:
    cal = results.calibration()
    counted = _counted_note(results)
    if cal.empty:
        return {"rows": [], "recorded": bool(results.guess_counts()["recorded"]), "counted": counted}
    rows = [[r.bin, str(r.guesses), str(r.learners), _num(r.mean_guess, 2), _pct(r.share_happened),
             _num(r.mean_exact, 2)] for r in cal.itertuples(index=False)]
    svg = calibration_svg([(r.mean_guess, r.share_happened, r.learners) for r in cal.itertuples(index=False)])
    return {"rows": rows, "svg": Markup(svg), "counted": counted}


def _brier(results: ClassResults) -> dict[str, Any]:
    table = results.brier()
    if table.empty:
        return {"rows": []}
    rows = [[r.nickname, str(r.guesses), _num(r.brier), _num(r.brier_exact)] for r in table.itertuples(index=False)]
    class_row = table.iloc[-1].learner == ""
    return {"rows": rows,
            "row_classes": ["class" if k == len(rows) - 1 and class_row else "" for k in range(len(rows))]}


def _knockout(results: ClassResults) -> dict[str, Any]:
    """The Knockout lab's plays (issue 26: recorded, but shown nowhere): per learner, how often they played
    the card with the best chance, and the chance the lab showed against how often the card won."""
    table = results.knockout()
    if table.empty:
        return {"rows": []}
    rows = []
    for r in table.itertuples(index=False):
        unknown = math.isnan(r.best_share)
        rows.append({"nickname": r.nickname, "plays": str(r.plays), "best": "–" if unknown else _pct(r.best_share),
                     "of": r.with_best if not unknown and r.with_best != r.plays else None,
                     "chance": _pct(r.mean_chance), "won": f"{r.won} ({_pct(r.won_share)})"})
    cls = table.iloc[-1]
    return {"rows": rows, "row_classes": ["class" if k == len(rows) - 1 else "" for k in range(len(rows))],
            "mean_chance": _pct(cls.mean_chance), "won_share": _pct(cls.won_share)}


def _challenge(results: ClassResults) -> dict[str, Any]:
    table = results.challenge()
    if table.empty:
        return {"rows": []}
    said: list[dict[str, Any]] = []
    rows = []
    for r in table.itertuples(index=False):
        gave = r.continued_result_vs_stop
        went_on = "–" if math.isnan(gave) else f"{gave:+.2f} cards"
        rows.append({"rule": r.rule, "cells": [str(r.decisions), str(r.stopped), str(r.continued),
                                               _pct(r.followed_share), _num(r.expected_cards_lost, 2), went_on]})
        if r.rule == "stop":
            said.append({"kind": "stopped", "stopped": r.stopped, "decisions": r.decisions,
                         "share": _pct(r.stopped / r.decisions)})
            if r.continued:
                said.append({"kind": "cost", "lost": _num(r.expected_cards_lost, 2),
                             "gave": "" if math.isnan(gave) else f"{abs(gave):.2f}",
                             "fewer_or_more": "fewer" if gave < 0 else "more"})
    return {"rows": rows, "said": said}


def _ago(at: str, now: _dt.datetime) -> str:
    try:
        then = _dt.datetime.fromisoformat(at)
    except ValueError:
        return at
    if then.tzinfo is None:
        then = then.replace(tzinfo=_dt.timezone.utc)
    seconds = (now - then).total_seconds()
    clock = then.astimezone().strftime("%H:%M")
    if seconds < 0 or seconds > 24 * 3600:
        return then.astimezone().strftime("%Y-%m-%d %H:%M")
    return f"{clock} ({int(seconds // 60)} min ago)" if seconds >= 60 else f"{clock} (just now)"


def _where(results: ClassResults, now: _dt.datetime, words: LabWords) -> dict[str, Any]:
    table = results.where()
    if table.empty:
        return {"rows": []}
    table = table.assign(lab=[words.lab(lab) for lab in table.lab]).sort_values(["lab", "nickname"])
    counts = table.lab.value_counts()
    rows = [[r.nickname, r.lab, _ago(r.at, now), str(r.records)] for r in table.itertuples(index=False)]
    return {"rows": rows, "summary": sorted(counts.items())}


def _quiz(results: ClassResults) -> dict[str, Any]:
    """The Rules tutorial's quiz, only when someone answered: per question, who answered, who was right, and
    the wrong answer chosen most (the rule to explain again)."""
    table = results.quiz()
    if table.empty:
        return {"rows": []}
    rows = []
    for r in table.itertuples(index=False):
        rows.append({"game": r.game.title() if r.game else "", "number": r.number, "rulings": r.rulings,
                     "text": r.text, "right_answer": r.right_answer, "question": r.question,
                     "right": r.right, "low": r.right_share < 0.5, "share": _pct(r.right_share),
                     "answered": str(r.answered), "top_wrong": r.top_wrong if r.top_wrong_count else "–",
                     "top_wrong_count": str(r.top_wrong_count) if r.top_wrong_count else "–"})
    return {"rows": rows}


def wipe_command(db_path: str, session: str = "", *, cwd: str | None = None, program: str | None = None) -> str:
    """The command that deletes this session's files, as it runs when typed into any terminal once the server
    has stopped (issue 26: "safari-kit results wipe ..." was not found: the command lives in ``.venv/bin``).

    ``program``: the ``safari-kit`` command beside this Python (``sys.executable``'s folder; default), or
    ``python -m safari_kit`` when there is none; plain ``safari-kit`` when that is what the PATH finds. Paths
    inside ``cwd`` (the server's folder, default the current one) are written from it, after ``cd CWD &&``:

    >>> wipe_command("/work/kit/class-results/7b.sqlite3", "7b", cwd="/work/kit",
    ...              program="/work/kit/.venv/bin/safari-kit")
    'cd /work/kit && .venv/bin/safari-kit results wipe class-results 7b'
    """
    here = Path(cwd or os.getcwd())
    if program is None:
        beside = Path(sys.executable).parent / ("safari-kit.exe" if os.name == "nt" else "safari-kit")
        found = shutil.which("safari-kit")
        if found and beside.exists() and Path(found).resolve() == beside.resolve():
            program = "safari-kit"
        elif beside.exists():
            program = str(beside)
        else:
            program = f"{sys.executable} -m safari_kit"

    def short(path: str) -> tuple[str, bool]:
        p = Path(path)
        if p.is_absolute() and p.is_relative_to(here) and p != here:
            return str(p.relative_to(here)), True
        return path, False

    words = program.split(" -m ")
    exe, inside = short(words[0])
    folder, inside_too = short(str(Path(db_path).parent))
    command = " ".join([shlex.quote(exe), *(["-m", "safari_kit"] if len(words) > 1 else []), "results", "wipe",
                        shlex.quote(folder), shlex.quote(session or Path(db_path).name.split(".")[0])])
    return f"cd {shlex.quote(str(here))} && {command}" if inside or inside_too else command


@functools.lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    """The page's template, autoescaped: a text from the records can never be markup."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                             autoescape=True, extensions=["jinja2.ext.do"], undefined=jinja2.StrictUndefined)
    return env.get_template("teacher_page.html.j2")


def _page(**values: Any) -> str:
    return _template().render(css=Markup(_CSS), colors={"blue": BLUE, "light_blue": LIGHT_BLUE, "orange": ORANGE},
                              **values)


def render(results: ClassResults, *, db_path: str, csv_href: str, session: str = "",
           refresh_seconds: int | None = REFRESH_SECONDS, now: _dt.datetime | None = None,
           words: LabWords | None = None, wipe: str | None = None) -> str:
    """The teacher's page for ``results``: ``db_path`` the session's database file (shown),
    ``csv_href`` the CSV download's address (already carrying whatever opens it); ``words`` the labs' names
    for labs and questions (default: none, keys shown as they are); ``wipe`` the footer's wipe command
    (default :func:`wipe_command` for ``db_path``)."""
    now = now or _dt.datetime.now(_dt.timezone.utc)
    words = words or LabWords()
    n = len(results.records)
    sections = {}
    if n:
        sections = {"simulation": _simulation(results, words), "calibration": _calibration(results),
                    "brier": _brier(results), "challenge": _challenge(results), "knockout": _knockout(results),
                    "where": _where(results, now, words), "quiz": _quiz(results)}
    return _page(title=f"Class results{' – ' + session if session else ''}", forbidden=False,
                 refresh_seconds=int(refresh_seconds) if refresh_seconds else None, records=n,
                 learners=len(results.nicknames()), stamp=now.astimezone().strftime("%H:%M:%S"), csv_href=csv_href,
                 db_path=db_path, wipe=wipe or wipe_command(db_path, session), sections=sections)


def forbidden_page() -> str:
    """The answer to anyone without the teacher's key: in words, with no hint of the key."""
    return _page(title="For the teacher", forbidden=True, refresh_seconds=None)
