"""The teacher's page of the class server: the class's results as one plain HTML page (issue 21).

:func:`render` turns a :class:`~safari_kit.teaching.class_tables.ClassResults` into a
page a projector at 1366x768 can show: no script, no CDN, inline SVG only (drawn with
:mod:`safari_kit.simulation.charts`), and a ``<meta http-equiv="refresh">`` so it
follows the lesson by itself. Every number on it comes from ClassResults' tables
(:meth:`~ClassResults.simulation`, :meth:`~ClassResults.learners`,
:meth:`~ClassResults.calibration`, :meth:`~ClassResults.brier`,
:meth:`~ClassResults.challenge`, :meth:`~ClassResults.where`, :meth:`~ClassResults.quiz`), so the page and
lesson 05's pandas section can never disagree. Nicknames and every other text from
the records are escaped (:func:`html.escape`): a learner's nickname is never markup.

The page knows nothing about tokens or servers: the class server's handler
(:mod:`safari_kit.classroom_web.teacher`) checks the teacher's token and calls it.
"""
from __future__ import annotations

import datetime as _dt
import html
import math
from collections.abc import Iterable, Sequence

from safari_kit.simulation.charts import BLUE, GREY, LIGHT_BLUE, ORANGE, Chart, linear_ticks
from safari_kit.teaching.class_tables import ClassResults

__all__ = ["render", "forbidden_page", "REFRESH_SECONDS"]

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


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.{digits}f}"


def _pct(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.0f}%"


def _n(count: int, word: str) -> str:
    """'1 learner', '3 learners'."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def _question(key: str) -> str:
    """A question's key as words ("identify-animal" -> "identify animal")."""
    return key.replace("-", " ").replace("_", " ")


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], left: int = 1, row_class=None,
           text_columns: Sequence[int] = ()) -> str:
    """An HTML table; the first ``left`` columns and those in ``text_columns`` are text (left-aligned); cells
    are already HTML."""
    text = set(range(left)) | set(text_columns)
    head = "".join(f"<th class='t'>{h}</th>" if i in text else f"<th>{h}</th>" for i, h in enumerate(headers))
    body = []
    for k, row in enumerate(rows):
        cls = f" class='{row_class(k)}'" if row_class and row_class(k) else ""
        body.append(f"<tr{cls}>" + "".join(f"<td class='t'>{c}</td>" if i in text else f"<td>{c}</td>"
                                           for i, c in enumerate(row)) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


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
    """(mean guess, share that happened, guesses) per bin against the diagonal of perfect calibration."""
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
def _simulation(results: ClassResults) -> str:
    table = results.simulation()
    if table.empty:
        return ("<section class='wide'><h2>Simulation lab: the class as one experiment</h2>"
                "<p class='note'>No Simulate runs yet.</p></section>")
    mine = results.learners()
    deals = table.question.value_counts()
    rows = []
    for row in table.itertuples(index=False):
        own = mine[(mine.question == row.question) & (mine.exact == row.exact)]
        svg = strip_svg(list(own.estimate), row.exact, row.ci_low, row.ci_high, row.estimate,
                        label=f"{_question(row.question)}: each learner's estimate and the class's")
        covers = "<span class='yes'>yes</span>" if row.covers else "<span class='no'>no</span>"
        ex = row.exact_fraction
        exact = f"{_num(row.exact)}<br><span class='note'>{_e(ex)}</span>" if ex.denominator < 10_000 \
            else _num(row.exact)
        warn = (f"<br><span class='note'>{row.same_draws} repeated draws (class seed): interval too narrow</span>"
                if row.same_draws else "")
        deal = (f"<br><span class='note nw'>one of {deals[row.question]} positions</span>"
                if deals[row.question] > 1 else "")
        rows.append([f"<b class='nw'>{_e(_question(row.question))}</b>{deal}<br><span class='note nw'>"
                     f"{_n(row.learners, 'learner')}, {_n(row.runs, 'run')}</span>{warn}",
                     f"{row.successes:,} of {row.trials:,}", f"<b>{_num(row.estimate)}</b>",
                     f"<span class='nw'>{_num(row.ci_low)} to {_num(row.ci_high)}</span>", exact, covers, svg])
    legend = (f"<span class='key' style='background:#333;border-radius:7px;width:10px'></span>a learner's estimate"
              f"<span class='key' style='background:{LIGHT_BLUE}'></span>the class's 95% interval"
              f"<span class='key' style='background:{BLUE}'></span>the class's estimate"
              f"<span class='key' style='border-top:3px dashed {ORANGE};height:0'></span>exact chance")
    return ("<section class='wide'><h2>Simulation lab: the class as one experiment</h2>"
            "<p>Everyone's runs added up: the class's estimate lands far closer to the exact chance than most "
            "learners' own. Runs are added up only when they are the same question <i>and</i> the same exact "
            "chance: learners dealt different cards may face different positions of one question.</p>"
            + _table(["Question", "Class: successes of trials", "Class estimate", "95% interval", "Exact chance",
                      "Interval covers exact?", "Each learner's own estimate"], rows)
            + f"<p class='note'>{legend}</p></section>")


def _calibration(results: ClassResults) -> str:
    cal = results.calibration()
    if cal.empty:
        return "<section><h2>Guesses: the class's calibration</h2><p class='note'>No guesses yet.</p></section>"
    rows = [[_e(r.bin), str(r.guesses), _num(r.mean_guess, 2), f"{r.happened} ({_pct(r.share_happened)})",
             _num(r.mean_exact, 2)] for r in cal.itertuples(index=False)]
    svg = calibration_svg([(r.mean_guess, r.share_happened, r.guesses) for r in cal.itertuples(index=False)])
    return ("<section><h2>Guesses: the class's calibration</h2>"
            "<p>Well calibrated guesses sit on the dashed diagonal: of the times the class guessed about 30%, "
            "about 30% happened.</p>"
            f"<div style='display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap'>{svg}"
            + _table(["Guessed", "Guesses", "Mean guess", "Happened", "Mean exact"], rows) + "</div></section>")


def _brier(results: ClassResults) -> str:
    table = results.brier()
    if table.empty:
        return ""
    rows = [[_e(r.nickname), str(r.guesses), _num(r.brier), _num(r.brier_exact)] for r in table.itertuples(index=False)]
    last = len(rows) - 1
    return ("<section><h2>Brier scores (lower is better)</h2>"
            "<p class='note'>The mean of (guess − what happened)², 0 happened and 1 did. Beside it, the score "
            "of always guessing the exact chance on the same events: the best anyone can expect.</p>"
            + _table(["Nickname", "Guesses", "Brier of the guesses", "Brier of “always the exact chance”"], rows,
                     row_class=lambda k: "class" if k == last and table.iloc[-1].learner == "" else "")
            + "</section>")


def _challenge(results: ClassResults) -> str:
    table = results.challenge()
    head = "<section><h2>Challenge: stop or go on?</h2>"
    if table.empty:
        return head + "<p class='note'>No Challenge decisions yet.</p></section>"
    said = []
    rows = []
    for r in table.itertuples(index=False):
        gave = r.continued_result_vs_stop
        went_on = "–" if math.isnan(gave) else f"{gave:+.2f} cards"
        rows.append([f"<span class='nw'>rule says <b>{_e(r.rule)}</b></span>", str(r.decisions), str(r.stopped),
                     str(r.continued), _pct(r.followed_share), _num(r.expected_cards_lost, 2), went_on])
        if r.rule == "stop":
            said.append(f"When the n/(n+1) rule said stop, the class stopped <b>{r.stopped} of {r.decisions}</b> "
                        f"times ({_pct(r.stopped / r.decisions)}).")
            if r.continued:
                said.append(f"Going on there cost {_num(r.expected_cards_lost, 2)} expected cards each time"
                            + ("" if math.isnan(gave) else f"; in the end those who went on archived "
                               f"{abs(gave):.2f} cards {'fewer' if gave < 0 else 'more'} than stopping would "
                               f"have, on average") + ".")
    return (head + "<p>" + " ".join(said) + "</p>"
            + _table(["", "Decisions", "Stopped", "Went on", "Followed the rule", "Expected cards lost",
                      "Going on gave (vs stop)"], rows)
            + "<p class='note'>Expected cards lost: the mean, over the decisions against the rule, of the "
              "difference between the two choices' expected cards.</p></section>")


def _ago(at: str, now: _dt.datetime) -> str:
    try:
        then = _dt.datetime.fromisoformat(at)
    except ValueError:
        return _e(at)
    if then.tzinfo is None:
        then = then.replace(tzinfo=_dt.timezone.utc)
    seconds = (now - then).total_seconds()
    clock = then.astimezone().strftime("%H:%M")
    if seconds < 0 or seconds > 24 * 3600:
        return _e(then.astimezone().strftime("%Y-%m-%d %H:%M"))
    return f"{clock} ({int(seconds // 60)} min ago)" if seconds >= 60 else f"{clock} (just now)"


def _where(results: ClassResults, now: _dt.datetime) -> str:
    table = results.where()
    if table.empty:
        return ""
    table = table.sort_values(["lab", "nickname"])
    counts = table.lab.value_counts()
    summary = ", ".join(f"<b>{_e(lab)}</b> {n}" for lab, n in sorted(counts.items()))
    rows = [[_e(r.nickname), _e(r.lab), _ago(r.at, now), str(r.records)] for r in table.itertuples(index=False)]
    return ("<section><h2>Who is in which lab</h2>"
            f"<p>{summary} <span class='note'>(the lab of each learner's latest record)</span></p>"
            + _table(["Nickname", "Lab", "Last record", "Records"], rows, left=2) + "</section>")


def _quiz(results: ClassResults) -> str:
    """The Rules tutorial's quiz, only when someone answered: per question, who answered, who was right, and
    the wrong answer chosen most (the rule to explain again)."""
    table = results.quiz()
    if table.empty:
        return ""
    rows = []
    for r in table.itertuples(index=False):
        if r.game:
            ask = (f"<b class='nw'>{_e(r.game.title())} {r.number}</b> <span class='note'>({_e(r.rulings)})</span> "
                   f"{_e(r.text)}<br><span class='note'>Right: {_e(r.right_answer)}</span>")
        else:
            ask = f"<b>{_e(r.question)}</b><br><span class='note'>not a question of this kit's tutorial</span>"
        share = _pct(r.right_share)
        right = f"{r.right} <span class='{'no' if r.right_share < 0.5 else 'yes'}'>({share})</span>"
        wrong = _e(r.top_wrong) if r.top_wrong_count else "–"
        rows.append([ask, str(r.answered), f"<span class='nw'>{right}</span>", wrong,
                     str(r.top_wrong_count) if r.top_wrong_count else "–"])
    table_html = _table(["Question", "Answered", "Right", "<span class='nw'>Wrong answer chosen most</span>",
                         "<span class='nw'>Chose it</span>"], rows, text_columns=(3,))
    return ("<section class='wide'><h2>Rules tutorial quiz</h2>"
            "<p>Each learner's first answer to each question. A question many got wrong is a rule to explain "
            "again; the wrong answer chosen most says what they thought.</p>"
            + table_html.replace("<table>", "<table class='quiz'>", 1) + "</section>")


def _wipe_command(db_path: str, session: str) -> str:
    """The command that deletes this session's files (``safari-kit results wipe FOLDER SESSION``)."""
    import shlex
    from pathlib import PurePath

    path = PurePath(db_path)
    return f"safari-kit results wipe {shlex.quote(str(path.parent))} {shlex.quote(session or path.stem)}"


def _page(title: str, body: str, refresh_seconds: int | None) -> str:
    meta = f"<meta http-equiv='refresh' content='{int(refresh_seconds)}'>" if refresh_seconds else ""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<meta name='referrer' content='no-referrer'>{meta}<title>{_e(title)}</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>")


def render(results: ClassResults, *, db_path: str, csv_href: str, session: str = "",
           refresh_seconds: int | None = REFRESH_SECONDS, now: _dt.datetime | None = None) -> str:
    """The teacher's page for ``results``: ``db_path`` the session's database file (shown),
    ``csv_href`` the CSV download's address (already carrying whatever opens it)."""
    now = now or _dt.datetime.now(_dt.timezone.utc)
    n = len(results.records)
    learners = len(results.nicknames())
    stamp = now.astimezone().strftime("%H:%M:%S")
    title = f"Class results{' – ' + session if session else ''}"
    header = (f"<header><h1>{_e(title)}</h1><span><b>{n}</b> records from <b>{learners}</b> learners</span>"
              f"<span>updated {stamp}{f', every {refresh_seconds} s' if refresh_seconds else ''}</span>"
              f"<a href='{_e(csv_href)}' download>Download all records (CSV)</a></header>")
    footer = (f"<p class='note' style='padding:0 18px 12px'>Session file: <code>{_e(db_path)}</code>. Only what "
              "the labs record is kept (nickname, lab, time, and the run, guess, decision or answer); wipe it "
              f"with <code>{_e(_wipe_command(db_path, session))}</code> when the class is over.</p>")
    if not n:
        body = (header + "<div class='empty'><h2>Nothing recorded yet</h2>"
                "<p>When learners join with a nickname and use the labs, their Simulate runs, guesses, "
                "Challenge decisions and tutorial quiz answers appear here (this page refreshes by itself).</p>"
                "</div>" + footer)
        return _page(title, body, refresh_seconds)
    sections = [_simulation(results), _calibration(results), _brier(results), _challenge(results),
                _where(results, now), _quiz(results)]
    return _page(title, header + "<main>" + "".join(s for s in sections if s) + "</main>" + footer,
                 refresh_seconds)


def forbidden_page() -> str:
    """The answer to anyone without the teacher's key: in words, with no hint of the key."""
    body = ("<div class='empty'><h1>This page is for the teacher</h1>"
            "<p>It opens with the teacher's address that the class server printed when it started. "
            "Learners: your lab is at the class address your teacher gave you.</p></div>")
    return _page("For the teacher", body, None)
