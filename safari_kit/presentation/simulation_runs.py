"""The Simulation lab's runs without widgets: the presses and runs of each question, pooling, rounds of
intervals, the tournaments kept, and every word and picture the lab shows about them.

:class:`~safari_kit.widgets.labs.simulation.SimulationLab` is the layout around this bookkeeping (issue 28: the
lab had tangled the two in 908 lines). The lab draws (``running_estimate``, ``coverage_run`` and the tournament,
with numpy, from :mod:`safari_kit.widgets.labs.simulation_draws` and :mod:`safari_kit.simulation.tournament`);
:class:`SimulationRuns` keeps what was drawn and writes it:

* :meth:`SimulationRuns.press` counts the presses of a button for a question and N (press k keys run k's draw, so
  run k is the same draw on every screen with the seed); :meth:`~SimulationRuns.add_run` keeps a run in
  ``history[question]``;
* :meth:`~SimulationRuns.convergence`: the summary of the last run (or of every run of the question pooled, with
  *Pool my runs*), the sentence said to a screen reader and the picture (:func:`pooled_path` puts the runs one
  after the other); ``results`` holds its numbers;
* :meth:`~SimulationRuns.count_round`: a round of intervals, what it covers, the learner's rounds together and
  the range a round usually falls in; ``coverage`` holds its numbers;
* :meth:`~SimulationRuns.show_tournament`: a tournament's run k, its table by the bots' plain names and its bars;
  the last :data:`TOURNAMENTS_KEPT` are kept, so Reset at the same seed shows run 1 again at once.

A run is "run k" on the page, never a seed: ``screens`` is where run k is the same draw in words ("on every
screen with seed 28"), or None for a secret seed ("Another screen draws its own runs."). Simple intervals below
0 (or above 1) are said why under the run or round (:func:`outside_words`).

Nothing here imports a widget package or numpy (``tests/presentation/test_simulation_runs.py``); the pictures are
:mod:`safari_kit.presentation.charts`' SVG text.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass

from safari_kit.core.i18n import N_, _, ngettext, series
from safari_kit.presentation.chance_html import fraction_html
from safari_kit.presentation.numbers import decimal, percent, whole
from safari_kit.presentation.charts import bars_svg, convergence_svg, coverage_svg
from safari_kit.probability.distributions import Estimate

__all__ = ["SimulationRuns", "Convergence", "pooled_path", "tournament_html", "learner_tournament_html",
           "outside_words", "estimate_text", "count_first_html", "bot_words", "bar_letter", "same_on_screens",
           "stopped_words", "PICTURE_WORDS", "INTERVAL_WORDS", "TOURNAMENTS_KEPT"]

TOURNAMENTS_KEPT = 8  # tournaments kept per lab, so Reset at the same seed shows run 1 again without replaying it


def pooled_path(runs: list[dict], points: int = 400) -> tuple[list[int], list[Estimate]]:
    """The running estimate over the runs one after the other (at most about ``points`` checkpoints)."""
    xs, ests, done, succ = [], [], 0, 0.0
    for r in runs:
        for x, e in zip(r["xs"], r["estimates"]):
            xs.append(done + x)
            ests.append(Estimate(int(round(succ + e.successes)), done + x))
        done += r["n"]
        succ += r["estimate"].successes
    if len(xs) <= points:
        return xs, ests
    step = math.log(xs[-1]) / points
    keep, last = [], -1.0
    for i, x in enumerate(xs):
        if math.log(x) - last >= step or i == len(xs) - 1:
            keep.append(i)
            last = math.log(x)
    return [xs[i] for i in keep], [ests[i] for i in keep]


# the lab's tournament table (an ipywidgets HTML, outside JupyterLab's own table style): numbers right-aligned
_T = ".safari-simulation-lab table.sk-tournament"
TOURNAMENT_STYLE = (f"<style>{_T}{{border-collapse:collapse;margin:4px 0}}"
                    f"{_T} th,{_T} td{{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}}"
                    f"{_T} th[scope=row],{_T} thead th:first-child{{text-align:left}}"
                    f"{_T} thead th{{border-bottom:2px solid #999}}</style>")


def tournament_html(res) -> str:
    """A tournament's summary for the page: the table of win rates and the seat advantage, without the
    tournament seed that ``res._repr_html_()`` prints (the lab says "run k" instead)."""
    c = res.config
    return (TOURNAMENT_STYLE + f"<div class='sk-tournament'><p><b>{html.escape(_tournament_head(c))}</b></p>"
            f"{res.summary_html()}<p style='color:#555'>{html.escape(res.seats_words())}</p></div>")


def _percent_of(part: int, total: int, digits: int) -> str:
    """``100 * part / total`` as a percent in the learner's language, computed as the English always was
    (``percent(part / total)`` may round a hair differently at a half)."""
    return percent(1.0, 0).replace("100", decimal(100 * part / total, digits), 1)


def _tournament_head(c) -> str:
    """``Knockout tournament: 100 games, 3 players``, in the learner's language."""
    return _("{game} tournament: {games} games, {players} players").format(
        game=c["game"].title(), games=whole(c["games"]), players=c["players"])


def outside_words(below: int, above: int, total: int, method: str = "normal") -> str:
    """Why simple intervals reach below 0 (or above 1), for a learner: ``below`` of ``total`` intervals do
    (``above`` reach above 1). Empty when none does, or for Wilson's interval (it never leaves 0 to 1).

    >>> print(outside_words(1, 0, 1))
    This simple interval reaches below 0. It goes 1.96·SE both ways from the estimate. After few trials, \
with the estimate near 0, 1.96·SE is bigger than the estimate itself. A probability cannot be below 0: read \
the interval as starting at 0. Wilson's interval always stays between 0 and 1.
    """
    if method != "normal" or not (below or above):
        return ""
    # issue 30: whole sentences for the translator (three cases: below 0, above 1, both). The English says
    # "1 reach" as it always did (both forms alike); a language with plural forms translates each
    side = "both" if below and above else "below" if below else "above"
    if total == 1:
        head = {"below": _("This simple interval reaches below 0."),
                "above": _("This simple interval reaches above 1."),
                "both": _("This simple interval reaches below 0 and above 1.")}[side]
    else:
        head = {"below": ngettext("Of these {total} simple intervals, {below} reach below 0.",
                                  "Of these {total} simple intervals, {below} reach below 0.", below),
                "above": ngettext("Of these {total} simple intervals, {above} reach above 1.",
                                  "Of these {total} simple intervals, {above} reach above 1.", above),
                "both": _("Of these {total} simple intervals, {below} reach below 0 and {above} reach above 1."),
                }[side].format(total=total, below=below, above=above)
    # issue 27: short sentences (it was one of 33 words), "symmetric" said as "both ways"
    rest = {"below": _("It goes 1.96·SE both ways from the estimate. After few trials, with the estimate near 0, "
                       "1.96·SE is bigger than the estimate itself. A probability cannot be below 0: read the "
                       "interval as starting at 0. Wilson's interval always stays between 0 and 1."),
            "above": _("It goes 1.96·SE both ways from the estimate. After few trials, with the estimate near 1, "
                       "1.96·SE is bigger than 1 minus the estimate. A probability cannot be above 1: read the "
                       "interval as ending at 1. Wilson's interval always stays between 0 and 1."),
            "both": _("It goes 1.96·SE both ways from the estimate. After few trials, with the estimate near 0 or "
                      "1, 1.96·SE is bigger than its distance to 0 or 1. A probability cannot be below 0 or above "
                      "1: read the interval as cut at 0 and 1. Wilson's interval always stays between 0 and 1.")}
    return f"{head} {rest[side]}"


def estimate_text(e: Estimate) -> str:
    k = int(e.successes)  # the English says "1 successes" as it always did (both forms alike)
    return ngettext("{successes} successes in {n} trials: {mean} ± {se} (SE, the standard error)",
                    "{successes} successes in {n} trials: {mean} ± {se} (SE, the standard error)", k).format(
        successes=whole(k), n=whole(e.n), mean=decimal(e.mean, 4), se=decimal(e.se, 4))


#: the pictures' terms in plain words, right under them, where a learner first meets them (issue 27)
_PICTURE_WORDS = N_(
    "<p class='safari-sim-words' style='margin:0 0 4px;color:#345;font-size:13px'>Left: the bottom axis is on a "
    "<b>log scale</b>: each step to the right multiplies the trials by 10. Right: the standard error falls along a "
    "line of <b>slope −1/2</b>. So 100 times more trials make it 10 times smaller.</p>")
#: the two intervals in plain words, where the coverage part first names them
_INTERVAL_WORDS = N_(
    "<b>Do 95% intervals really cover the truth 95% of the time?</b><br><span class='safari-sim-words' "
    "style='color:#345;font-size:13px'>The <b>simple interval</b> runs from the estimate minus 1.96·SE to the "
    "estimate plus 1.96·SE. <b>Wilson's interval</b> is another way to draw a 95% interval. It always stays "
    "between 0 and 1.</span>")
PICTURE_WORDS, INTERVAL_WORDS = _PICTURE_WORDS, _INTERVAL_WORDS  # English; the lab shows _(...) of them

#: the registry's learner names of the bots the lab offers (safari_kit.simulation writes no words for learners):
#: the catalogue's copy, said by bot_words; tests/i18n checks it holds every name the lab can show
BOT_NAMES = (
    N_("Bot that plays at random"), N_("Bot that makes the move with the best chance"),
    N_("Bot that remembers none of the cards it sees"), N_("Bot that remembers a quarter of the cards it sees"),
    N_("Bot that remembers half of the cards it sees"), N_("Bot that remembers three quarters of the cards it sees"),
    N_("Bot that remembers only the last 2 cards it saw"), N_("Bot that remembers only the last 6 cards it saw"),
    N_("Bot that leads its card least likely to be beaten"),
    N_("Bot that leads its card least likely to be beaten, then follows with its highest card"),
)


def bot_words(game: str, spec: str) -> str:
    """A bot's name for a learner (issue 27: ``memory:0.25``, ``lastk:6`` were on the screen): the registry's
    :func:`~safari_kit.simulation.registry.learner_name`; the spec itself only for a bot it cannot name."""
    from safari_kit.simulation import registry

    try:
        return _(registry.learner_name(game, spec))
    except Exception:  # noqa: BLE001 - an entry typed in Python that the registry refuses: show what was typed
        return spec


def count_first_html(q, words: tuple[str, str]) -> str:
    """The exact chance as the lessons write it (issue 27): the count first, then the reduced fraction and
    its decimal, with the count's symbols in words (``words``: what
    :func:`~safari_kit.widgets.labs.simulation_draws.count_words` says of the question ``q``)."""
    head, said = words
    return (f"{html.escape(head)} <span style='color:#666'>{fraction_html(q.exact.value, 4)}</span>"
            + (f"<div style='color:#555;font-size:13px'>{html.escape(said)}</div>" if said else ""))


def learner_tournament_html(res) -> str:
    """A tournament's table for a learner: each bot by its plain name, its games, wins and win rate with the
    95% interval (Wilson's); then the seat advantage in one sentence. (``tournament_html`` keeps the teachers'
    full table.)"""
    c, s = res.config, res.summary
    rows = "".join(
        f"<tr><td style='text-align:center'>{bar_letter(i)}</td><th scope='row'>"
        f"{html.escape(bot_words(c['game'], str(label)))}</th><td>{whole(int(r.games))}</td>"
        f"<td>{whole(int(r.wins))}</td><td>{decimal(r.win_rate, 3)}</td><td>"
        + _("{low} to {high}").format(low=decimal(r.win_ci_low, 3), high=decimal(r.win_ci_high, 3)) + "</td></tr>"
        for i, (label, r) in enumerate(s.iterrows()))
    rates = [decimal(r.win_rate, 3) for _seat, r in res.by_seat.iterrows()]
    seats = rates[0] if len(rates) == 1 else series(rates)
    heads = "".join(f"<th scope='col'>{h}</th>" for h in (  # as written (Wilson's: no &#x27;)
        _("Bar"), _("Bot"), _("Games"), _("Wins"), _("Win rate"), _("95% interval (Wilson's)")))
    return (TOURNAMENT_STYLE + f"<div class='sk-tournament'><p><b>{html.escape(_tournament_head(c))}</b></p>"
            f"<table class='sk-tournament'><thead><tr>{heads}</tr></thead><tbody>"
            + rows + "</tbody></table><p style='color:#555'>"
            + _("Win rate is wins divided by games (a shared win counts as a part). Win rate by seat, from the "
                "first seat to the last: {seats}.").format(seats=seats) + "</p></div>")


def bar_letter(i: int) -> str:
    """The letter of bar ``i`` in the tournament picture (A, B, ...): the table beside it names each bot."""
    return chr(ord("A") + i) if i < 26 else str(i + 1)


def same_on_screens(secret: bool, fair: bool, seed: int) -> str | None:
    """Where run k is the same draw, in the learner's words (never a secret seed: None then)."""
    if secret:
        return None
    if fair:
        return _("on every screen with the class seed")
    return _("on every screen with seed {seed}").format(seed=seed)


def stopped_words(stopped) -> str:
    """What the page says of a tournament that Stop or the wall-time cap ended (``stopped``: a WorkStopped)."""
    return _("Stopped after {done} of {total} games: {reason}. Nothing is shown for this run; press Run "
             "tournament again, or pick fewer games.").format(done=whole(stopped.done), total=whole(stopped.total),
                                                               reason=_(stopped.reason))


@dataclass(frozen=True)
class Convergence:
    """What the convergence part shows of the last run: the question's words, the summary, the picture, and the
    sentence a screen reader is told."""

    about: str
    summary: str
    plot: str
    spoken: str


class SimulationRuns:
    """The runs, rounds and tournaments of one Simulation lab since its last reset, and their words."""

    def __init__(self) -> None:
        self.results: dict = {}
        self.coverage: dict = {}
        self.figures: dict[str, str] = {}
        self.tournament_result = None
        self.tournament_run = 0  # which run of its line-up the shown tournament is
        self.tournaments: dict[tuple, object] = {}  # (tournament seed, line-up) -> result, the last few
        self.clear()

    def clear(self) -> None:
        """A new seed: no runs, no presses, no rounds (the tournaments kept stay: their key holds the seed)."""
        self.history: dict[str, list[dict]] = {}  # question -> its runs since the last reset
        self.presses: dict[tuple, int] = {}  # (what, question, N...) -> presses so far
        self.rounds: dict[tuple, tuple[int, int]] = {}  # (question, size, count, round, method) -> (covered, total)

    def press(self, *key) -> int:
        """Count one more press of a button for ``key``; the count keys the next draw."""
        self.presses[key] = self.presses.get(key, 0) + 1
        return self.presses[key]

    def unpress(self, *key) -> None:
        """Take a press back (a stopped tournament: the next press plays that run again, whole)."""
        self.presses[key] -= 1

    # ------------------------------------------------------------------ convergence
    def add_run(self, question: str, n: int, k: int, path: dict, by_lab: str | None) -> dict:
        """Keep run ``k`` of ``question`` with N = ``n`` (``path``: ``running_estimate``'s; ``by_lab``: when the
        lab drew it itself, in words, else None)."""
        run = {"run": k, "n": n, "xs": path["n"], "estimates": path["estimates"],
               "estimate": path["estimates"][-1], "by_lab": by_lab}
        self.history.setdefault(question, []).append(run)
        return run

    @staticmethod
    def run_note(runs: list[dict], last: dict, pool: bool, screens: str | None) -> str:
        """Which run this is, in words: run 1 drawn by the lab itself says so, and so does the run after it
        (issue 27: a learner's first press said "Run 2" with no word of run 1)."""
        k, n = last["run"], last["n"]
        # by_lab: when the lab drew the run itself, as an English phrase of BY_LAB (said in the learner's words)
        if last.get("by_lab"):
            text = _("Run {k} with N = {n}: the lab drew these {n} trials {when}. Press Simulate for run {next}, "
                     "with {n} new trials.").format(k=k, n=whole(n), when=_(last["by_lab"]), next=k + 1)
        else:
            first = next((r for r in runs if r["n"] == n and r["run"] == 1), None)
            text = _("Run {k} with N = {n}: your press of Simulate drew {n} new trials.").format(k=k, n=whole(n))
            if k == 2 and first and first.get("by_lab"):
                text += " " + _("Run 1 was drawn by the lab {when}.").format(when=_(first["by_lab"]))
        text += " " + (_("Another screen draws its own runs.") if screens is None
                       else _("Run {k} is the same {screens}.").format(k=k, screens=screens))
        return text + " " + (_("The plot pools all your runs of this question, one after the other.") if pool
                             else _("Tick <i>Pool my runs</i> to add your runs together."))

    def convergence(self, q, words: tuple[str, str], pool: bool, screens: str | None) -> Convergence:
        """Summary and picture of the question's last run (or of all its runs pooled), from ``history``;
        ``words``: the exact chance's count in words (``count_words(q)``)."""
        runs = self.history[q.key]
        last = runs[-1]
        final = last["estimate"]
        exact = float(q.exact)
        lo, hi = final.ci()
        pooled = Estimate(int(round(sum(r["estimate"].successes for r in runs))), sum(r["n"] for r in runs))
        plo, phi = pooled.ci()
        self.results = {"question": q.key, "exact": q.exact, "run": last["run"], "n": last["xs"],
                        "estimates": last["estimates"], "estimate": final, "ci": (lo, hi), "covers": lo <= exact <= hi,
                        "runs": len(runs), "pooled": pooled, "pooled_ci": (plo, phi),
                        "pooled_covers": plo <= exact <= phi, "pool": pool}

        def verdict(est, a, b):
            words = (_("{estimate}; 95% interval {low} to {high}: it covers the exact value") if a <= exact <= b
                     else _("{estimate}; 95% interval {low} to {high}: it <b style='color:#a33'>misses</b> the "
                            "exact value"))
            return words.format(estimate=estimate_text(est), low=decimal(a, 4), high=decimal(b, 4))

        row = "<tr><td style='padding:2px 8px;vertical-align:top'><b>{}</b></td><td>{}</td></tr>"
        rows = [row.format(_("Exact"), count_first_html(q, words)),
                row.format(_("Run {k}").format(k=last["run"]), verdict(final, lo, hi))]
        if pool:  # issue 27: "All 5 runs pooled" showed with Pool my runs unticked
            rows.append(row.format(_("All {n} runs pooled").format(n=len(runs)) if len(runs) > 1
                                   else _("Pooled (1 run)"), verdict(pooled, plo, phi)))
        note = self.run_note(runs, last, pool, screens)
        shown = [(lo, hi)] + ([(plo, phi)] if pool else [])
        outside = outside_words(sum(1 for x, _ in shown if x < 0), sum(1 for _, y in shown if y > 1), 1)
        summary = (f"<div class='safari-sim-run' style='margin:2px 0;color:#234'>{note}</div>"
                   f"<table style='border-collapse:collapse'>{''.join(rows)}</table>"
                   + (f"<p class='safari-sim-outside' style='margin:2px 0;color:#7a4b00'>{outside}</p>"
                      if outside else ""))
        spoken = (_("Run {k} with N = {n}: estimate {mean}, 95% interval {low} to {high}; it covers the exact "
                    "value {exact}.") if lo <= exact <= hi else
                  _("Run {k} with N = {n}: estimate {mean}, 95% interval {low} to {high}; it misses the exact "
                    "value {exact}.")).format(k=last["run"], n=whole(last["n"]), mean=decimal(final.mean, 4),
                                              low=decimal(lo, 4), high=decimal(hi, 4), exact=decimal(exact, 4))
        if pool:
            xs, ests = pooled_path(runs)
            others = []
            title = ngettext("{runs} run pooled: {n} trials", "{runs} runs pooled: {n} trials", len(runs)).format(
                runs=len(runs), n=whole(pooled.n))
        else:
            xs, ests = last["xs"], last["estimates"]
            others = [(r["xs"], [e.mean for e in r["estimates"]]) for r in runs[-9:-1]]
            title = _("Run {k}: the estimate settles on the exact value").format(k=last["run"])
        svg = convergence_svg(xs, [e.mean for e in ests], [e.se for e in ests], exact, others=others, title=title)
        self.figures["convergence"] = svg
        return Convergence(f"<p style='margin:4px 0'>{html.escape(q.about)}</p>", summary, svg + _(PICTURE_WORDS),
                           spoken)

    # ------------------------------------------------------------------ coverage
    def count_round(self, q, k: int, size: int, count: int, method: str, c: dict, exact_cov: float,
                    typical: tuple[int, int]) -> tuple[str, str]:
        """Round ``k`` of intervals (``c``: ``coverage_run``'s, completed here; ``exact_cov``: how often such an
        interval covers; ``typical``: the range a round falls in 19 times in 20): (its summary, its picture)."""
        c.update(question=q.key, round=k)
        self.rounds[(q.key, size, count, k, method)] = (c["covered"], c["total"])
        mine = [v for key, v in self.rounds.items() if (key[0], key[1], key[4]) == (q.key, size, method)]
        c["tally"] = (sum(v[0] for v in mine), sum(v[1] for v in mine), len(mine))
        c["exact_coverage"] = exact_cov
        lo, hi = c["typical"] = typical
        self.coverage = c
        covered, total, rounds = c["tally"]
        tally = (" " + _("Your {rounds} rounds with these settings together: <b>{covered} of {total}</b> "
                         "({share}).").format(rounds=rounds, covered=whole(covered), total=whole(total),
                                              share=_percent_of(covered, total, 1)) if rounds > 1 else "")
        long_run = (_("In the long run, the simple (mean ± 1.96·SE) interval with n = {size} trials covers the exact "
                      "value {share} of the time. So a round of {count} usually covers between {low} and {high} (19 "
                      "rounds in 20).") if method == "normal" else
                    _("In the long run, the Wilson's interval with n = {size} trials covers the exact value {share} "
                      "of the time. So a round of {count} usually covers between {low} and {high} (19 rounds in 20)."
                      )).format(size=size, share=percent(c["exact_coverage"]), count=count, low=lo, high=hi)
        summary = (
            "<p style='margin:4px 0' class='safari-sim-round'>"
            + _("<b>Round {k}: {covered} of {total}</b> intervals ({share}) cover the exact value {exact}. Each "
                "interval used {size} fresh trials. Press again for a new round.").format(
                k=k, covered=c["covered"], total=c["total"], share=_percent_of(c["covered"], c["total"], 0),
                exact=decimal(float(q.exact), 4), size=size)
            + f"{tally}<br><span style='color:#555'>{long_run}</span></p>")
        c["below_0"] = sum(1 for r in c["intervals"] if r[0] < 0)
        c["above_1"] = sum(1 for r in c["intervals"] if r[1] > 1)
        outside = outside_words(c["below_0"], c["above_1"], c["total"], method)
        if outside:
            summary += (f"<p class='safari-sim-outside' style='margin:2px 0;color:#7a4b00'>{outside} "
                        + _("In the picture, the impossible part is shaded grey.") + "</p>")
        svg = coverage_svg(c["intervals"], float(q.exact),
                           title=_("Round {k}: {covered} of {total} intervals cover the exact value (misses in "
                                   "orange)").format(k=k, covered=c["covered"], total=c["total"]))
        self.figures["coverage"] = svg
        return summary, svg

    # ------------------------------------------------------------------ tournaments
    def kept_tournament(self, key: tuple):
        """The tournament played before with ``key`` (taken out: showing it keeps it again), or None."""
        return self.tournaments.pop(key, None)

    def show_tournament(self, res, k: int, key: tuple, screens: str | None) -> tuple[str, str, str]:
        """Keep run ``k`` (``res``) and say it: (the summary and table, the bars, the status line)."""
        games = res.config["games"]
        self.tournaments[key] = res
        while len(self.tournaments) > TOURNAMENTS_KEPT:
            self.tournaments.pop(next(iter(self.tournaments)))
        self.tournament_result, self.tournament_run = res, k
        summary = (  # run k, never the tournament's seed (a huge number, or a secret)
            "<p class='safari-tour-run' style='margin:4px 0;color:#234'>"
            + _("<b>Run {k}</b> of this line-up: {games} games.").format(k=k, games=whole(games)) + " "
            + (_("Another screen plays its own games.") if screens is None else
               _("Run {k} is the same {screens}.").format(k=k, screens=screens)) + " "
            + _("Press again for {games} new games.").format(games=whole(games)) + "</p>"
            + learner_tournament_html(res))
        svg = self._tournament_svg()
        # issue 27: the live status said "Playing 30 games ... run 2" long after the games ended
        best = res.summary["win_rate"].idxmax()
        status = _("The tournament is over: run {k}, {games} games played. Most wins: {bot}. The win rates are "
                   "below.").format(k=k, games=whole(games), bot=bot_words(res.config["game"], str(best)))
        return summary, svg, status

    def _tournament_svg(self) -> str:
        res = self.tournament_result
        s, players = res.summary, res.config["players"]
        # the bars by letter (A, B, ...): the plain names are too long to sit under a bar; the table names them
        svg = bars_svg([bar_letter(i) for i in range(len(s.index))], s["win_rate"].to_numpy(),
                       s["win_ci_low"].to_numpy(), s["win_ci_high"].to_numpy(),
                       reference=1 / players, reference_label=_("fair share 1/{players}").format(players=players),
                       title=_("{game}, run {k}: {games} games").format(
                           game=res.config["game"].title(), k=self.tournament_run, games=res.config["games"]),
                       ylabel=_("win rate (95% interval)"))
        self.figures["tournament"] = svg
        return svg
