"""The teacher's page of the class server: the class's results as one plain HTML page (issue 21).

:func:`render` turns a :class:`~safari_kit.teaching.class_tables.ClassResults` into a
page a projector at 1366x768 can show: no script, no CDN, inline SVG only (drawn with
:mod:`safari_kit.simulation.charts`), and a ``<meta http-equiv="refresh">`` so it
follows the lesson by itself. Every number on it comes from ClassResults' tables
(:meth:`~ClassResults.simulation`, :meth:`~ClassResults.learners`,
:meth:`~ClassResults.calibration`, :meth:`~ClassResults.brier`, :meth:`~ClassResults.knockout`,
:meth:`~ClassResults.challenge`, :meth:`~ClassResults.where`, :meth:`~ClassResults.quiz`), so the page and
lesson 05's pandas section can never disagree. Nicknames and every other text from
the records are escaped (:func:`html.escape`): a learner's nickname is never markup.

Labs and the Simulation lab's questions are named in the labs' own words (:class:`LabWords`, which the
class server reads from the labs: :mod:`safari_kit.classroom_web.lab_words`); the footer's wipe command
(:func:`wipe_command`) runs as printed, from any terminal, once the server has stopped.

The page knows nothing about tokens or servers: the class server's handler
(:mod:`safari_kit.classroom_web.teacher`) checks the teacher's token and calls it.
"""
from __future__ import annotations

import datetime as _dt
import html
import math
import os
import shlex
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from safari_kit.simulation.charts import BLUE, GREY, LIGHT_BLUE, ORANGE, Chart, linear_ticks
from safari_kit.teaching.class_tables import ClassResults

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


def _e(text) -> str:
    return html.escape(str(text), quote=True)


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
def _simulation(results: ClassResults, words: LabWords) -> str:
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
                        label=f"{words.question(row.question)}: each learner's estimate and the class's")
        covers = "<span class='yes'>yes</span>" if row.covers else "<span class='no'>no</span>"
        ex = row.exact_fraction
        exact = f"{_num(row.exact)}<br><span class='note'>{_e(ex)}</span>" if ex.denominator < 10_000 \
            else _num(row.exact)
        warn = (f"<br><span class='note'>{row.same_draws} repeated draws (class seed): interval too narrow</span>"
                if row.same_draws else "")
        deal = (f"<br><span class='note nw'>one of {deals[row.question]} positions</span>"
                if deals[row.question] > 1 else "")
        rows.append([f"<b>{_e(words.question(row.question))}</b>{deal}<br><span class='note nw'>"
                     f"{_n(row.learners, 'learner')}, {_n(row.runs, 'run')}</span>{warn}",
                     f"{row.successes:,} of {row.trials:,}", f"<b>{_num(row.estimate)}</b>",
                     f"<span class='nw'>{_num(row.ci_low)} to {_num(row.ci_high)}</span>", exact, covers, svg])
    legend = (f"<span class='key' style='background:#333;border-radius:7px;width:10px'></span>a learner's estimate"
              f"<span class='key' style='background:{LIGHT_BLUE}'></span>the class's 95% interval"
              f"<span class='key' style='background:{BLUE}'></span>the class's estimate"
              f"<span class='key' style='border-top:3px dashed {ORANGE};height:0'></span>exact chance")
    return ("<section class='wide'><h2>Simulation lab: the class as one experiment</h2>"
            "<p>Everyone's runs added up: the class's estimate usually lands closer to the exact chance than most "
            "learners' own. Runs are added up only when they are the same question <i>and</i> the same exact "
            "chance: learners dealt different cards may face different positions of one question. Every run's "
            "trials are drawn by the lab, not typed, so one learner pressing Simulate many times adds real draws, "
            "not votes (and the class server caps each learner's records).</p>"
            + _table(["Question", "Class: successes of trials", "Class estimate", "95% interval", "Exact chance",
                      "Interval covers exact?", "Each learner's own estimate"], rows)
            + f"<p class='note'>{legend}</p></section>")


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
    return ("<p class='note'>" + "; ".join(said) + ". Each learner weighs as one learner in the class's rows, "
            "however many guesses they made.</p>")


def _calibration(results: ClassResults) -> str:
    cal = results.calibration()
    head = "<section><h2>Guesses: the class's calibration</h2>"
    if cal.empty:
        note = _counted_note(results) if results.guess_counts()["recorded"] else ""
        return head + "<p class='note'>No guesses yet.</p>" + note + "</section>"
    rows = [[_e(r.bin), str(r.guesses), str(r.learners), _num(r.mean_guess, 2), _pct(r.share_happened),
             _num(r.mean_exact, 2)] for r in cal.itertuples(index=False)]
    svg = calibration_svg([(r.mean_guess, r.share_happened, r.learners) for r in cal.itertuples(index=False)])
    return (head + "<p>Well calibrated guesses sit on the dashed diagonal: of the times the class guessed about "
            "30%, about 30% happened.</p>"
            f"<div style='display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap'>{svg}"
            + _table(["Guessed", "Guesses", "Learners", "Mean guess", "Happened", "Mean exact"], rows) + "</div>"
            + _counted_note(results)
            + "<p class='note'>Mean guess, Happened and Mean exact weigh each guess by 1/(its learner's guesses); "
              "a dot's size is the number of learners it holds.</p></section>")


def _brier(results: ClassResults) -> str:
    table = results.brier()
    if table.empty:
        return ""
    rows = [[_e(r.nickname), str(r.guesses), _num(r.brier), _num(r.brier_exact)] for r in table.itertuples(index=False)]
    last = len(rows) - 1
    return ("<section><h2>Brier scores (lower is better)</h2>"
            "<p class='note'>The mean of (guess − what happened)², 0 happened and 1 did. Beside it, the score "
            "of always guessing the exact chance on the same events: the best anyone can expect. The class's row "
            "is the mean of the learners' scores.</p>"
            + _table(["Nickname", "Guesses", "Brier of the guesses", "Brier of “always the exact chance”"], rows,
                     row_class=lambda k: "class" if k == last and table.iloc[-1].learner == "" else "")
            + "</section>")


def _knockout(results: ClassResults) -> str:
    """The Knockout lab's plays (issue 26: recorded, but shown nowhere): per learner, how often they played
    the card with the best chance, and the chance the lab showed against how often the card won."""
    table = results.knockout()
    head = "<section><h2>Knockout: which card wins the turn?</h2>"
    if table.empty:
        return head + "<p class='note'>No Knockout plays yet.</p></section>"
    rows = []
    for r in table.itertuples(index=False):
        best = "–" if math.isnan(r.best_share) else (f"{_pct(r.best_share)}" + (
            f" <span class='note'>of {r.with_best}</span>" if r.with_best != r.plays else ""))
        rows.append([_e(r.nickname), str(r.plays), best, _pct(r.mean_chance),
                     f"<span class='nw'>{r.won} ({_pct(r.won_share)})</span>"])
    last = len(rows) - 1
    cls = table.iloc[-1]
    return (head + f"<p>Over the class, the lab showed a mean chance of <b>{_pct(cls.mean_chance)}</b> for the cards "
            f"played, and <b>{_pct(cls.won_share)}</b> of the plays won. Few plays make the share that won jump "
            "around: compare them over many plays.</p>"
            + _table(["Nickname", "Plays", "Played the best chance", "Chance shown (mean)", "Won"], rows,
                     row_class=lambda k: "class" if k == last else "")
            + "<p class='note'>Played the best chance: the share of plays where the card played had the highest "
              "chance of winning the turn in the hand (–: not known for these plays). The class's row: the plays "
              "added up; every share and mean is the mean over learners.</p></section>")


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


def _where(results: ClassResults, now: _dt.datetime, words: LabWords) -> str:
    table = results.where()
    if table.empty:
        return ""
    table = table.assign(lab=[words.lab(lab) for lab in table.lab]).sort_values(["lab", "nickname"])
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


def _page(title: str, body: str, refresh_seconds: int | None) -> str:
    meta = f"<meta http-equiv='refresh' content='{int(refresh_seconds)}'>" if refresh_seconds else ""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<meta name='referrer' content='no-referrer'>{meta}<title>{_e(title)}</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>")


def render(results: ClassResults, *, db_path: str, csv_href: str, session: str = "",
           refresh_seconds: int | None = REFRESH_SECONDS, now: _dt.datetime | None = None,
           words: LabWords | None = None, wipe: str | None = None) -> str:
    """The teacher's page for ``results``: ``db_path`` the session's database file (shown),
    ``csv_href`` the CSV download's address (already carrying whatever opens it); ``words`` the labs' names
    for labs and questions (default: none, keys shown as they are); ``wipe`` the footer's wipe command
    (default :func:`wipe_command` for ``db_path``)."""
    now = now or _dt.datetime.now(_dt.timezone.utc)
    words = words or LabWords()
    wipe = wipe or wipe_command(db_path, session)
    n = len(results.records)
    learners = len(results.nicknames())
    stamp = now.astimezone().strftime("%H:%M:%S")
    title = f"Class results{' – ' + session if session else ''}"
    header = (f"<header><h1>{_e(title)}</h1><span><b>{n}</b> records from <b>{learners}</b> learners</span>"
              f"<span>updated {stamp}{f', every {refresh_seconds} s' if refresh_seconds else ''}</span>"
              f"<a href='{_e(csv_href)}' download>Download all records (CSV)</a></header>")
    footer = (f"<p class='note' style='padding:0 18px 12px'>Session file: <code>{_e(db_path)}</code>. Only what "
              "the labs record is kept (nickname, lab, time, and the run, guess, decision or answer). When the "
              "class is over, stop the class server first (Ctrl+C in its window: a wipe is refused while it "
              f"runs), then wipe the session with <code>{_e(wipe)}</code></p>")
    if not n:
        body = (header + "<div class='empty'><h2>Nothing recorded yet</h2>"
                "<p>When learners join with a nickname and use the labs, their Simulate runs, guesses, "
                "Challenge decisions, Knockout plays and tutorial quiz answers appear here (this page refreshes by "
                "itself).</p>"
                "</div>" + footer)
        return _page(title, body, refresh_seconds)
    sections = [_simulation(results, words), _calibration(results), _brier(results), _challenge(results),
                _knockout(results), _where(results, now, words), _quiz(results)]
    return _page(title, header + "<main>" + "".join(s for s in sections if s) + "</main>" + footer,
                 refresh_seconds)


def forbidden_page() -> str:
    """The answer to anyone without the teacher's key: in words, with no hint of the key."""
    body = ("<div class='empty'><h1>This page is for the teacher</h1>"
            "<p>It opens with the teacher's address that the class server printed when it started. "
            "Learners: your lab is at the class address your teacher gave you.</p></div>")
    return _page("For the teacher", body, None)
