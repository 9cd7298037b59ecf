"""Simulation lab: Monte Carlo estimates converging on exact answers, and bot tournaments.

Tab 1, **Convergence**: pick a question with an exact answer (computed by
:mod:`safari_kit.probability`), simulate N trials with the probability module's
own Monte Carlo twin of that question (``mc_p_match``, ``mc_p_streak``,
``mc_complete_set``, ``estimate_p_win``) and watch

* the running estimate with its 95% confidence band close in on the exact line;
* the standard error shrink like 1/sqrt(n) (a straight line of slope -1/2 on log-log axes);
* 100 independent 95% intervals: about 95 of them cover the exact value (the
  lab also gives the exact coverage of the interval, :func:`exact_coverage`).

Every press of **Simulate** (and of **Run the intervals**) draws fresh trials,
reproducibly: press k uses the generator keyed by (seed, "run", question, N, k), so
the k-th press is the same draw in every classroom, and the lab says which run
it shows. **Pool my runs** adds a question's runs together (the law of large
numbers in the learner's hands).

Tab 2, **Tournament**: bots from :mod:`safari_kit.simulation.registry` play
:func:`safari_kit.simulation.tournament.tournament` (in this process, with a
progress bar); a bar plot shows the win rates with their 95% intervals. Each
press of **Run tournament** plays fresh games, reproducibly: run k of a line-up
(game, players, bots, games) uses the tournament seed :func:`tournament_seed`
(seed, k) (run 1: the lab's seed itself, so it is ``tournament(..., seed=seed)``
in Python), and the lab says which run it shows.

The pictures are small SVG charts (:mod:`safari_kit.presentation.charts`), drawn
in milliseconds; while anything runs the lab's buttons are disabled, and what
takes longer (a tournament of hundreds of games: up to ~20 s on 2 cores; Reset,
which replays one) moves a progress bar: Reset's shows above the tabs, so it is
seen from either tab. A tournament already played at this seed (Reset at the
same seed replays run 1) is shown again at once.
Everything is drawn from one seeded ``numpy`` generator per run, so the same
seed and the same presses give the same pictures on every screen. The lab never decides whether a
trial succeeded: the Monte Carlo functions of the probability layer do, in
batches; the lab only adds the batches up.

**The default seed** is :data:`~safari_kit.widgets.labs.simulation_draws.DEFAULT_SEED`, chosen so the
first presses of every button are typical ones (see that module). **Simple intervals below 0.** The
simple interval (mean ± 1.96·SE) is symmetric around the estimate, so with few successes it reaches below 0
(or above 1): the lab draws it as computed and says why under it (:func:`outside_words`), since that is
the weakness Wilson's interval repairs. **In the app** (``fair=True``, what
:class:`~safari_kit.widgets.app.LabChooser` builds) the lab is like every other: a fresh secret seed of its
own (no Seed box, no seed in any text or synced state; runs are "run 1, 2, 3" of this screen), or the
teacher's shared class seed, shown in the note.

**The class experiment** (issue 21). Once the learner joined (:meth:`~safari_kit.widgets.labs.base.Lab.use_recorder`),
every run of Simulate the lab completes and shows is recorded as a ``simulation_run``: the question's key, the run's
trials and successes (the numbers the summary shows, so the class's pooled counts are exact sums of what the
learners saw), the question's exact chance from the probability layer, ``run`` = the k of "Run k" (press k of this
question with this N) and ``seed`` = the seed the learner can see (the class seed, or the Seed box in a notebook;
None for a secret seed, which is in no record). A run the lab draws itself when the learner changes the
question or presses Reset is shown as a run like any other and is recorded too. The run the lab draws as it
opens is the learner's first when they had joined: the chooser builds the lab, then hands it the recorder with
``opening=True``, and that run is recorded then. A learner who joins while the lab is open drew its runs before
joining: none of them is kept, the opening run neither. A Simulate run is never stopped part way (Stop ends only
tournaments), so a run is recorded whole or, if it fails or is refused, not at all; rounds of intervals and
tournaments are not recorded (the class tables pool Simulate runs).

>>> lab = SimulationLab(seed=1)
>>> lab.results["question"]
'identify-animal'
>>> abs(lab.results["estimate"].mean - float(lab.results["exact"])) < 0.05
True
>>> first = lab.results["estimate"].successes
>>> lab.run()["run"], lab.results["runs"], lab.results["pooled"].n
(2, 2, 2000)
"""
from __future__ import annotations

import html
import logging
import math
import threading
import time
from contextlib import contextmanager

import ipywidgets as W
import numpy as np

from safari_kit.probability.distributions import Estimate
from safari_kit.presentation.charts import bars_svg, convergence_svg, coverage_svg
from safari_kit.widgets.labs.base import Lab, Progress, fraction_html, guarded, python_in_browser
from safari_kit.widgets.labs.limits import (
    Pacer, WorkStopped, bounded_int, in_kernel, low_priority, pin_range, wall_time_cap,
)
from safari_kit.widgets.labs.simulation_draws import (  # noqa: F401 - the lab's public helpers, as before
    DEFAULT_SEED, Question, count_at_most, count_words, coverage_run, draw_rng, exact_coverage, questions,
    running_estimate, tournament_seed, typical_range,
)

__all__ = ["SimulationLab", "Question", "questions", "running_estimate", "coverage_run", "exact_coverage",
           "count_at_most", "typical_range", "tournament_seed", "DEFAULT_SEED", "TRIAL_CHOICES", "COVERAGE_SIZES",
           "BOT_CHOICES", "outside_words"]

TRIAL_CHOICES = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
COVERAGE_SIZES = (20, 50, 100, 200, 500, 1_000)
TOURNAMENT_GAMES = (10, 20, 30, 50, 100, 200, 500)
BOT_CHOICES = {
    "witness": ("random", "greedy", "memory:0", "memory:0.25", "memory:0.5", "memory:0.75", "lastk:2", "lastk:6"),
    "knockout": ("random", "greedy", "highcard", "highcard:best"),
}
COVERAGE_COUNTS = (20, 200)  # intervals per round: the slider's range, kept on the server (issue 19)
PLAYERS = (2, 5)  # tournament seats: the slider's range, kept on the server
log = logging.getLogger("safari_kit.widgets")
TOURNAMENT_CHUNK = 10  # games per chunk: a progress step every 10 games (results depend on it, never on workers)
TOURNAMENTS_KEPT = 8  # tournaments kept per lab, so Reset at the same seed shows run 1 again without replaying it


def _pooled_path(runs: list[dict], points: int = 400) -> tuple[list[int], list[Estimate]]:
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
_TOURNAMENT_STYLE = (f"<style>{_T}{{border-collapse:collapse;margin:4px 0}}"
                     f"{_T} th,{_T} td{{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}}"
                     f"{_T} th[scope=row],{_T} thead th:first-child{{text-align:left}}"
                     f"{_T} thead th{{border-bottom:2px solid #999}}</style>")


def tournament_html(res) -> str:
    """A tournament's summary for the page: the table of win rates and the seat advantage, without the
    tournament seed that ``res._repr_html_()`` prints (the lab says "run k" instead)."""
    c = res.config
    return (_TOURNAMENT_STYLE + f"<div class='sk-tournament'><p><b>{html.escape(c['game'].title())} tournament: "
            f"{c['games']:,} games, "
            f"{c['players']} players</b></p>{res.summary_html()}<p style='color:#555'>"
            f"{html.escape(res.seats_words())}</p></div>")


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
    where = " and ".join(w for w, k in (("below 0", below), ("above 1", above)) if k)
    if total == 1:
        head = f"This simple interval reaches {where}"
    else:
        counts = " and ".join(f"{k} {w}" for w, k in (("reach below 0", below), ("reach above 1", above)) if k)
        head = f"Of these {total} simple intervals, {counts}"
    near = ("with the estimate near 0, 1.96·SE is bigger than the estimate itself" if below and not above
            else "with the estimate near 1, 1.96·SE is bigger than 1 minus the estimate" if above and not below
            else "with the estimate near 0 or 1, 1.96·SE is bigger than its distance to 0 or 1")
    read = ("read the interval as starting at 0" if not above else "read the interval as ending at 1"
            if not below else "read the interval as cut at 0 and 1")
    # issue 27: short sentences (it was one of 33 words), "symmetric" said as "both ways"
    return (f"{head}. It goes 1.96·SE both ways from the estimate. After few trials, {near}. A probability "
            f"cannot be {where.replace(' and ', ' or ')}: {read}. Wilson's interval always stays between 0 and 1.")


def _estimate_text(e: Estimate) -> str:
    return f"{int(e.successes):,} successes in {e.n:,} trials: {e.mean:.4f} ± {e.se:.4f} (SE, the standard error)"


#: the pictures' terms in plain words, right under them, where a learner first meets them (issue 27)
PICTURE_WORDS = (
    "<p class='safari-sim-words' style='margin:0 0 4px;color:#345;font-size:13px'>Left: the bottom axis is on a "
    "<b>log scale</b>: each step to the right multiplies the trials by 10. Right: the standard error falls along a "
    "line of <b>slope −1/2</b>. So 100 times more trials make it 10 times smaller.</p>")
#: the two intervals in plain words, where the coverage part first names them
INTERVAL_WORDS = (
    "<b>Do 95% intervals really cover the truth 95% of the time?</b><br><span class='safari-sim-words' "
    "style='color:#345;font-size:13px'>The <b>simple interval</b> runs from the estimate minus 1.96·SE to the "
    "estimate plus 1.96·SE. <b>Wilson's interval</b> is another way to draw a 95% interval. It always stays "
    "between 0 and 1.</span>")


def bot_words(game: str, spec: str) -> str:
    """A bot's name for a learner (issue 27: ``memory:0.25``, ``lastk:6`` were on the screen): the registry's
    :func:`~safari_kit.simulation.registry.learner_name`; the spec itself only for a bot it cannot name."""
    from safari_kit.simulation import registry

    try:
        return registry.learner_name(game, spec)
    except Exception:  # noqa: BLE001 - an entry typed in Python that the registry refuses: show what was typed
        return spec


def count_first_html(q: Question) -> str:
    """The exact chance as the lessons write it (issue 27): the count first, then the reduced fraction and
    its decimal, with the count's symbols in words (:func:`~safari_kit.widgets.labs.simulation_draws.count_words`)."""
    head, words = count_words(q)
    return (f"{html.escape(head)} <span style='color:#666'>{fraction_html(q.exact.value, 4)}</span>"
            + (f"<div style='color:#555;font-size:13px'>{html.escape(words)}</div>" if words else ""))


def learner_tournament_html(res) -> str:
    """A tournament's table for a learner: each bot by its plain name, its games, wins and win rate with the
    95% interval (Wilson's); then the seat advantage in one sentence. (``tournament_html`` keeps the teachers'
    full table.)"""
    c, s = res.config, res.summary
    rows = "".join(
        f"<tr><td style='text-align:center'>{bar_letter(i)}</td><th scope='row'>"
        f"{html.escape(bot_words(c['game'], str(label)))}</th><td>{int(r.games):,}</td>"
        f"<td>{int(r.wins):,}</td><td>{r.win_rate:.3f}</td><td>{r.win_ci_low:.3f} to {r.win_ci_high:.3f}</td></tr>"
        for i, (label, r) in enumerate(s.iterrows()))
    rates = [f"{r.win_rate:.3f}" for _, r in res.by_seat.iterrows()]
    seats = rates[0] if len(rates) == 1 else f"{', '.join(rates[:-1])} and {rates[-1]}"
    return (_TOURNAMENT_STYLE + f"<div class='sk-tournament'><p><b>{html.escape(c['game'].title())} tournament: "
            f"{c['games']:,} games, {c['players']} players</b></p><table class='sk-tournament'><thead><tr>"
            "<th scope='col'>Bar</th><th scope='col'>Bot</th><th scope='col'>Games</th><th scope='col'>Wins</th>"
            "<th scope='col'>Win rate</th><th scope='col'>95% interval (Wilson's)</th></tr></thead><tbody>"
            + rows + "</tbody></table><p style='color:#555'>Win rate is wins divided by games (a shared win "
            f"counts as a part). Win rate by seat, from the first seat to the last: {seats}.</p></div>")


def bar_letter(i: int) -> str:
    """The letter of bar ``i`` in the tournament picture (A, B, ...): the table beside it names each bot."""
    return chr(ord("A") + i) if i < 26 else str(i + 1)


# ----------------------------------------------------------------------------- the lab
class SimulationLab(Lab):
    """Monte Carlo versus exact answers, and tournaments of bots.

    ``lab.results`` (convergence), ``lab.coverage`` and ``lab.tournament_result``
    hold the last numbers; ``lab.figures`` the last pictures (SVG text).

    Every press draws fresh trials, reproducibly: press k of Simulate with a
    question and N uses the generator keyed by (seed, "run", question, N, k), so the
    k-th press is the same draw in every classroom. ``lab.history[question]``
    keeps the runs of each question since the last reset; with **Pool my runs**
    the summary and the plot pool them all.
    """

    title = "Simulation lab"
    record_lab = "simulation"
    # Nothing here is a hidden card, but in the app (fair mode) the lab keeps the app's promise like every
    # other lab: its own fresh seed, never shown (a huge number means nothing to a learner), no Seed box.
    secret_deals = True

    def __init__(self, seed: int | None = DEFAULT_SEED, question: str = "identify-animal", trials: int = 1_000,
                 tournament_game: str = "knockout", run_tournament: bool = True, *, fair: bool = False):
        if seed is None and not fair:
            seed = DEFAULT_SEED
        super().__init__(seed, fair=fair)
        self.layout.add_class("safari-simulation-lab")  # the lab's root, for tests and the focus keeper
        self.header.value = f"<h3 style='margin:2px 12px 2px 0;white-space:nowrap'>{html.escape(self.title)}</h3>"
        if self.secret:
            seed_words = ("a seed drawn in your browser" if python_in_browser()
                          else "a secret seed drawn on the server")
            self.deal_note.value = ("<span style='color:#555'>Your own draws: the questions, trials and games "
                                    f"here come from {seed_words}. No two "
                                    "screens show the same runs. Reset draws again.</span>")
        self._questions: dict[str, Question] = {}
        self.results: dict = {}
        self.coverage: dict = {}
        self.tournament_result = None
        self.tournament_run = 0  # which run of its line-up the shown tournament is
        self._tournaments: dict[tuple, object] = {}  # (tournament seed, line-up) -> result, the last few
        self._resetting = False
        self.figures: dict[str, str] = {}
        self.history: dict[str, list[dict]] = {}  # question -> its runs since the last reset
        self._presses: dict[tuple, int] = {}       # (what, question, N...) -> presses so far
        self._rounds: dict[tuple, tuple[int, int]] = {}  # (question, size, count, round, method) -> (covered, total)
        self._busy_depth = 0
        self._was_disabled: dict = {}
        self._quiet = False
        # the page's presses at a human pace on the class server (issue 26; see :class:`Pacer`); elsewhere
        # (a notebook, a test, a script) nothing waits
        self._pacer = Pacer() if fair and in_kernel() else Pacer(0, 0)

        # tab 1: convergence
        self.question_box = W.Dropdown(description="Question", layout=W.Layout(width="430px"),
                                       style={"description_width": "70px"})
        self.question_box.observe(self._on_question, names="value")
        self.trials_slider = W.SelectionSlider(options=TRIAL_CHOICES, value=trials if trials in TRIAL_CHOICES else 1000,
                                               description="Trials N", continuous_update=False,
                                               style={"description_width": "70px"})
        self.run_button = W.Button(description="Simulate", button_style="primary",
                                   tooltip="Draw N fresh trials (run 1, 2, 3, ...: the same runs in every classroom)")
        self.run_button.on_click(lambda _b: self._from_page(self.run))
        self.pool_box = W.Checkbox(value=False, description="Pool my runs", indent=False,
                                   layout=W.Layout(width="130px"))
        self.pool_box.observe(self._on_pool, names="value")
        self.about = W.HTML()
        self.summary = W.HTML()
        self.plot_out = W.HTML()
        self.plot_out.add_class("safari-sim-plot")
        self.cov_size = W.SelectionSlider(options=COVERAGE_SIZES, value=100, description="n per interval",
                                          continuous_update=False, style={"description_width": "95px"})
        self.cov_count = W.IntSlider(value=100, min=COVERAGE_COUNTS[0], max=COVERAGE_COUNTS[1], step=10,
                                     description="Intervals", continuous_update=False,
                                     style={"description_width": "70px"})
        pin_range(self.cov_count, *COVERAGE_COUNTS)  # a page's {"max": 1000000} is put back
        self.cov_method = W.Dropdown(options=[("simple: mean ± 1.96·SE", "normal"), ("Wilson's", "wilson")],
                                     value="normal",
                                     description="Interval", layout=W.Layout(width="260px"),
                                     style={"description_width": "60px"})
        self.cov_method.observe(self._on_method, names="value")
        self.cov_button = W.Button(description="Run the intervals",
                                   tooltip="A new round of intervals, each from its own fresh trials")
        self.cov_button.on_click(lambda _b: self._from_page(self.run_coverage))
        self.cov_summary = W.HTML()
        self.cov_out = W.HTML()
        self.cov_out.add_class("safari-sim-coverage")
        convergence = W.VBox([
            W.HBox([self.question_box, self.trials_slider, self.run_button, self.pool_box]), self.about,
            self.summary, self.plot_out,
            W.HTML(INTERVAL_WORDS),
            W.HBox([self.cov_size, self.cov_count, self.cov_method, self.cov_button]),
            self.cov_summary, self.cov_out])

        # tab 2: tournament
        self.game_box = W.ToggleButtons(options=[("Safari Witness", "witness"), ("Safari Knockout", "knockout")],
                                        value=tournament_game, description="Game")
        self.players_slider = W.IntSlider(value=3, min=PLAYERS[0], max=PLAYERS[1], description="Players",
                                          continuous_update=False)
        pin_range(self.players_slider, *PLAYERS)
        self.games_slider = W.SelectionSlider(options=TOURNAMENT_GAMES,
                                              value=100 if tournament_game == "knockout" else 30,
                                              description="Games", continuous_update=False)
        self.seat_boxes = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.tour_button = W.Button(description="Run tournament", button_style="primary",
                                    tooltip="Play fresh games (run 1, 2, 3, ...: the same games in every classroom)")
        self.tour_button.on_click(lambda _b: self.run_tournament(background=in_kernel()))
        self.progress = Progress("Games")
        # long work (a tournament) runs in steps of TOURNAMENT_CHUNK games; Stop and the wall-time cap end it
        self.stop_button = W.Button(description="Stop", button_style="danger", disabled=True,
                                    tooltip="Stop the games being played", layout=W.Layout(width="70px"))
        self.stop_button.add_class("safari-sim-stop")
        self.stop_button.on_click(lambda _b: self.stop())
        self._stop_requested = False
        self._deadline: float | None = None
        self._job: threading.Thread | None = None  # a tournament played beside the kernel's message loop
        self._clicked = False
        self.tour_summary = W.HTML()
        self.tour_out = W.HTML()
        self.game_box.observe(self._on_lineup_change, names="value")
        self.players_slider.observe(self._on_lineup_change, names="value")
        tournament_tab = W.VBox([
            self.game_box, W.HBox([self.players_slider, self.games_slider]),
            W.HTML("Bots (seats rotate every game, so nobody keeps the first seat):"), self.seat_boxes,
            W.HBox([self.tour_button, self.progress.widget, self.stop_button]), self.tour_summary, self.tour_out])

        self.tabs = W.Tab(children=[convergence, tournament_tab])
        self.tabs.set_title(0, "Convergence")
        self.tabs.set_title(1, "Tournament")
        # Reset's progress, above the tabs (seen from either tab); hidden while nothing long runs
        self.reset_progress = Progress("Reset")
        self.reset_progress.bar.bar_style = "info"
        self.reset_progress.widget.layout.display = "none"
        self.reset_progress.widget.children = (*self.reset_progress.widget.children, self.stop_button)
        self.reset_progress.widget.add_class("safari-sim-reset-progress")
        self.body.children = [self.reset_progress.widget, self.tabs]
        self._question_default = question
        self._run_tournament_on_reset = run_tournament
        self._build_seats()
        self._opening: tuple | None = None  # the run drawn as the lab opens, until a recorder takes it
        self._drawn_by_lab: str | None = None  # while the lab draws a run itself: when ("as it opened")
        self.reset(self.seed)
        if self.question_box.value in self.history:  # (not when the opening run failed)
            self._opening = (self.question, self.history[self.question.key][-1])

    # ------------------------------------------------------------------ reset
    def _reset_clicked(self) -> None:
        self._clicked = True  # a click's tournament is played beside the message loop, so Stop is heard
        try:
            super()._reset_clicked()
        finally:
            self._clicked = False

    def reset(self, seed: int | None = None) -> None:
        if self._refused_while_playing():
            return
        super().reset(seed)

    @guarded
    def _reset(self) -> None:
        """New questions, run 1, round 1 and the tournament's run 1 at the seed; buttons off, a bar above the tabs."""
        background = self._clicked and self._run_tournament_on_reset and in_kernel()
        with self._busy("Working: new questions, runs and tournament..."):
            self._resetting = True
            bar = self.reset_progress
            bar.widget.layout.display = None
            bar.bar.value = 0  # before the new max: a smaller max would first clamp the old value
            bar.update(0, 3 + (self._games() if self._run_tournament_on_reset else 0))
            bar.label.value = "questions..."
            try:
                self._questions = questions(self.seed)
                current = self.question_box.value or self._question_default
                self._quiet = True
                try:
                    self.question_box.options = [(q.label, k) for k, q in self._questions.items()]
                    self.question_box.value = current if current in self._questions else "identify-animal"
                finally:
                    self._quiet = False
                self.history, self._presses, self._rounds = {}, {}, {}
                self._reset_step(1, "a run of Simulate...")
                self._drawn_by_lab = "as it opened"  # issue 27: say so (a learner's first press said "Run 2")
                try:
                    self.run()
                finally:
                    self._drawn_by_lab = None
                self._reset_step(2, "a round of intervals...")
                self.run_coverage()
                self._reset_step(3, "the tournament...")
                if self._run_tournament_on_reset and not background:
                    self.run_tournament()
            finally:
                if not background:
                    self._end_reset()
        self.show_status("Each press of a button draws new trials or games: run 1, run 2, and so on. "
                         + ("Another screen draws its own runs." if self.secret
                            else f"Run 2 here is run 2 {self._same_on_screens()}."))
        if background:  # after the buttons are restored: the job disables them until it ends
            self.run_tournament(background=True, on_end=self._end_reset)

    def _end_reset(self) -> None:
        self._resetting = False
        self.reset_progress.widget.layout.display = "none"

    def _reset_step(self, done: int, what: str) -> None:
        self.reset_progress.bar.value = done
        self.reset_progress.label.value = what

    def _tournament_progress(self, done: int, total: int) -> None:
        """A step of a tournament (every TOURNAMENT_CHUNK games): move the bars, then end it if Stop was pressed
        or the wall-time cap is reached (:class:`WorkStopped`, caught by :meth:`_play`)."""
        self.progress.update(done, total)
        if self._resetting:  # Reset's bar: its 3 first steps, then the games
            self.reset_progress.bar.value = 3 + int(done)
            self.reset_progress.label.value = f"the tournament: {done:,} / {total:,} games"
        if done < total:
            if self._stop_requested:
                raise WorkStopped("you pressed Stop", done, total)
            if self._deadline is not None and time.monotonic() > self._deadline:
                raise WorkStopped(f"one run may take at most {wall_time_cap(self.fair):g} seconds on this "
                                  "server", done, total)

    def stop(self) -> None:
        """Stop the tournament being played, at its next step (the Stop button)."""
        if self._deadline is not None or self._job is not None:
            self._stop_requested = True

    def _refused_while_playing(self) -> bool:
        """While a tournament plays beside the message loop, every other action waits (a click on a disabled
        button still reaches the server): say so and refuse."""
        if self._job is None:
            return False
        self.show_status("Games are being played: wait for them, or press Stop.", kind="bad")
        return True

    def _games(self) -> int:
        """The Games slider's value, if it is one the lab offers (the page cannot add options; Python can)."""
        games = int(self.games_slider.value)
        return games if games in self.games_slider.options else TOURNAMENT_GAMES[0]

    @property
    def question(self) -> Question:
        return self._questions[self.question_box.value]

    def _rng(self, *key) -> np.random.Generator:
        """The numpy generator of one run (:func:`~safari_kit.widgets.labs.simulation_draws.draw_rng`)."""
        return draw_rng(self.seed, *key)

    def _same_on_screens(self) -> str:
        """Where run k is the same draw, in the learner's words (never a secret seed)."""
        if self.secret:
            return "on this screen (another screen has its own runs)"
        if self.fair:
            return "on every screen with the class seed"
        return f"on every screen with seed {self.seed}"

    def _press(self, *key) -> int:
        """Count one more press of a button for ``key``; the count keys the next draw."""
        self._presses[key] = self._presses.get(key, 0) + 1
        return self._presses[key]

    @property
    def _buttons(self) -> list:
        return [self.run_button, self.cov_button, self.tour_button, self.reset_button]

    @contextmanager
    def _busy(self, message: str | None = None):
        """Disable the lab's buttons while something runs (no click is queued meanwhile), then restore them.

        ``message``: shown in the status line while it runs (for the slow actions: tournaments, Reset).
        """
        outer = self._busy_depth == 0
        if outer:
            self._was_disabled = {id(b): b.disabled for b in self._buttons}
            for b in self._buttons:
                b.disabled = True
        before = self.status.value
        if message:
            self.show_status(message)
        shown = self.status.value
        self._busy_depth += 1
        try:
            with low_priority():  # long work yields to the class's clicks on a shared server
                yield
        finally:
            self._busy_depth -= 1
            if message and self.status.value == shown:
                self.status.value = before
            if outer:
                for b in self._buttons:
                    b.disabled = self._was_disabled.get(id(b), False)

    def _from_page(self, work, *args) -> None:
        """Run a press from the page at a human pace (:class:`~safari_kit.widgets.labs.limits.Pacer`): the lab's
        buttons are off first, so a press that must wait shows as the button being busy, nothing else."""
        if self._job is not None:  # a tournament plays: refused at once, as before (no wait)
            work(*args)
            return
        with self._busy(), self._pacer.paced():
            work(*args)

    @guarded
    def _on_question(self, change) -> None:
        if self._quiet or not change["new"] or self._refused_while_playing():
            return
        with self._busy(), self._pacer.paced():
            self._drawn_by_lab = "when you chose this question"
            try:
                self.run()
            finally:
                self._drawn_by_lab = None
            self.run_coverage()

    # ------------------------------------------------------------------ convergence
    @guarded
    def run(self, trials: int | None = None) -> dict:
        """Simulate ``trials`` (default: the slider) fresh trials of the chosen question and redraw.

        Press k with a question and N draws from the generator keyed by (seed, "run", question, N, k).
        """
        if self._refused_while_playing():
            return self.results
        if trials is not None:
            if trials not in TRIAL_CHOICES:
                raise ValueError(f"trials must be one of {TRIAL_CHOICES}, got {trials!r}")
            self.trials_slider.value = trials
        with self._busy():
            q = self.question
            n = int(self.trials_slider.value)
            if n not in TRIAL_CHOICES:  # never trust what came from the page: only the offered sizes run
                raise ValueError(f"trials must be one of {TRIAL_CHOICES}, got {n!r}")
            k = self._press("run", q.key, n)
            path = running_estimate(q, n, self._rng("run", q.key, n, k))
            self.history.setdefault(q.key, []).append(
                {"run": k, "n": n, "xs": path["n"], "estimates": path["estimates"],
                 "estimate": path["estimates"][-1], "by_lab": self._drawn_by_lab})
            self._show_convergence()
            self._record_run(q, self.history[q.key][-1])
        return self.results

    def use_recorder(self, recorder, opening: bool = False, download=None) -> None:
        """As every lab; with ``opening`` (the chooser has just built the lab for a learner who had joined),
        the run drawn as the lab opened is recorded now, if no run was drawn since (see the module's docstring)."""
        super().use_recorder(recorder, opening=opening, download=download)
        if opening and recorder is not None and self._opening is not None:
            self._record_run(*self._opening)

    def _record_run(self, q: Question, run: dict) -> None:
        """Record a run the lab now shows (nothing until the learner joined; see the module's docstring):
        its trials and successes are the summary's, its seed only one the learner can see."""
        self._opening = None  # a later run, or the opening one taken: the opening run is no longer pending
        self.record("simulation_run", question=q.key, trials=int(run["n"]),
                    successes=int(run["estimate"].successes), exact=q.exact.value,
                    seed=None if self.secret else self.seed, run=int(run["run"]))

    @guarded
    def _on_pool(self, change) -> None:
        if self.question_box.value in self.history:
            with self._pacer.paced():  # a redraw (a new chart) from the page, at its pace too
                self._show_convergence()

    def _run_note(self, runs: list[dict], last: dict, pool: bool) -> str:
        """Which run this is, in words: run 1 drawn by the lab itself says so, and so does the run after it
        (issue 27: a learner's first press said "Run 2" with no word of run 1)."""
        k, n = last["run"], last["n"]
        if last.get("by_lab"):
            text = (f"Run {k} with N = {n:,}: the lab drew these {n:,} trials {last['by_lab']}. "
                    f"Press Simulate for run {k + 1}, with {n:,} new trials.")
        else:
            first = next((r for r in runs if r["n"] == n and r["run"] == 1), None)
            before = (f" Run 1 was drawn by the lab {first['by_lab']}." if k == 2 and first and first.get("by_lab")
                      else "")
            text = f"Run {k} with N = {n:,}: your press of Simulate drew {n:,} new trials.{before}"
        text += (" Another screen draws its own runs." if self.secret
                 else f" Run {k} is the same {self._same_on_screens()}.")
        return text + (" The plot pools all your runs of this question, one after the other." if pool
                       else " Tick <i>Pool my runs</i> to add your runs together.")

    def _show_convergence(self) -> None:
        """Summary and picture of the question's last run (or of all its runs pooled), from ``self.history``."""
        q = self.question
        runs = self.history[q.key]
        last = runs[-1]
        final = last["estimate"]
        exact = float(q.exact)
        lo, hi = final.ci()
        pooled = Estimate(int(round(sum(r["estimate"].successes for r in runs))), sum(r["n"] for r in runs))
        plo, phi = pooled.ci()
        pool = bool(self.pool_box.value)
        self.results = {"question": q.key, "exact": q.exact, "run": last["run"], "n": last["xs"],
                        "estimates": last["estimates"], "estimate": final, "ci": (lo, hi), "covers": lo <= exact <= hi,
                        "runs": len(runs), "pooled": pooled, "pooled_ci": (plo, phi),
                        "pooled_covers": plo <= exact <= phi, "pool": pool}
        self.about.value = f"<p style='margin:4px 0'>{html.escape(q.about)}</p>"

        def verdict(a, b):
            return "covers" if a <= exact <= b else "<b style='color:#a33'>misses</b>"

        row = "<tr><td style='padding:2px 8px;vertical-align:top'><b>{}</b></td><td>{}</td></tr>"
        rows = [row.format("Exact", count_first_html(q)),
                row.format(f"Run {last['run']}", f"{_estimate_text(final)}; 95% interval {lo:.4f} to {hi:.4f}: it "
                                                 f"{verdict(lo, hi)} the exact value")]
        if pool:  # issue 27: "All 5 runs pooled" showed with Pool my runs unticked
            rows.append(row.format(f"All {len(runs)} runs pooled" if len(runs) > 1 else "Pooled (1 run)",
                                   f"{_estimate_text(pooled)}; 95% interval {plo:.4f} to {phi:.4f}: it "
                                   f"{verdict(plo, phi)} the exact value"))
        note = self._run_note(runs, last, pool)
        shown = [(lo, hi)] + ([(plo, phi)] if pool else [])
        outside = outside_words(sum(1 for x, _ in shown if x < 0), sum(1 for _, y in shown if y > 1), 1)
        self.summary.value = (f"<div class='safari-sim-run' style='margin:2px 0;color:#234'>{note}</div>"
                              f"<table style='border-collapse:collapse'>{''.join(rows)}</table>"
                              + (f"<p class='safari-sim-outside' style='margin:2px 0;color:#7a4b00'>{outside}</p>"
                                 if outside else ""))
        covers = "covers" if lo <= exact <= hi else "misses"
        self.live.say(f"Run {last['run']} with N = {last['n']:,}: estimate {final.mean:.4f}, 95% interval {lo:.4f} "
                      f"to {hi:.4f}; it {covers} the exact value {exact:.4f}.")  # what a screen reader is told
        if pool:
            xs, ests = _pooled_path(runs)
            others = []
            title = f"{len(runs)} run{'s' if len(runs) > 1 else ''} pooled: {pooled.n:,} trials"
        else:
            xs, ests = last["xs"], last["estimates"]
            others = [(r["xs"], [e.mean for e in r["estimates"]]) for r in runs[-9:-1]]
            title = f"Run {last['run']}: the estimate settles on the exact value"
        svg = convergence_svg(xs, [e.mean for e in ests], [e.se for e in ests], exact, others=others, title=title)
        self.figures["convergence"] = svg
        self.plot_out.value = svg + PICTURE_WORDS

    # ------------------------------------------------------------------ coverage
    @guarded
    def run_coverage(self, size: int | None = None, intervals: int | None = None, method: str | None = None) -> dict:
        """A new round: ``intervals`` independent 95% intervals of ``size`` fresh trials each; count the covering ones.

        Round k with a question, size and count draws from the generator keyed by
        (seed, "coverage", question, size, count, k); changing only the interval
        method re-counts the same round (the same trials, other intervals).
        """
        if self._refused_while_playing():
            return self.coverage
        if size is not None:
            if size not in COVERAGE_SIZES:
                raise ValueError(f"size must be one of {COVERAGE_SIZES}, got {size!r}")
            self.cov_size.value = size
        if intervals is not None:
            self.cov_count.value = bounded_int(intervals, *COVERAGE_COUNTS, 100)
        with self._busy():
            if method is not None:
                self._quiet = True
                try:
                    self.cov_method.value = method
                finally:
                    self._quiet = False
            q = self.question
            k = self._press("coverage", q.key, *self._coverage_size())
            return self._count_round(k)

    def _coverage_size(self) -> tuple[int, int]:
        """(trials per interval, intervals) as the server allows them, whatever the page sent (issue 19: a
        slider sent {"max": 1000000} then {"value": 1000000} started an hour of work)."""
        size = int(self.cov_size.value)
        if size not in COVERAGE_SIZES:
            raise ValueError(f"size must be one of {COVERAGE_SIZES}, got {size!r}")
        return size, bounded_int(self.cov_count.value, *COVERAGE_COUNTS, 100)

    @guarded
    def _on_method(self, change) -> None:
        if self._quiet or not self.coverage or self.coverage.get("question") != self.question_box.value:
            return
        if self._refused_while_playing():
            return
        c = self.coverage
        if (c["size"], c["total"]) != self._coverage_size():
            return
        with self._busy(), self._pacer.paced():
            self._count_round(c["round"])  # the same trials, the other interval

    def _count_round(self, k: int) -> dict:
        q = self.question
        (size, count), method = self._coverage_size(), self.cov_method.value
        c = coverage_run(q, size, count, self._rng("coverage", q.key, size, count, k), method)
        c.update(question=q.key, round=k)
        self._rounds[(q.key, size, count, k, method)] = (c["covered"], c["total"])
        mine = [v for key, v in self._rounds.items() if (key[0], key[1], key[4]) == (q.key, size, method)]
        c["tally"] = (sum(v[0] for v in mine), sum(v[1] for v in mine), len(mine))
        c["exact_coverage"] = exact_coverage(q.exact, size, method)
        lo, hi = typical_range(count, c["exact_coverage"])
        c["typical"] = (lo, hi)
        self.coverage = c
        name = "simple (mean ± 1.96·SE)" if method == "normal" else "Wilson's"
        covered, total, rounds = c["tally"]
        tally = (f" Your {rounds} rounds with these settings together: <b>{covered:,} of {total:,}</b> "
                 f"({100 * covered / total:.1f}%)." if rounds > 1 else "")
        self.cov_summary.value = (
            f"<p style='margin:4px 0' class='safari-sim-round'><b>Round {k}: {c['covered']} of {c['total']}</b> "
            f"intervals ({100 * c['covered'] / c['total']:.0f}%) cover the exact value {float(q.exact):.4f}. "
            f"Each interval used {size} fresh trials. Press again for a new round.{tally}<br>"
            f"<span style='color:#555'>In the long run, the {name} interval with n = {size} trials covers the "
            f"exact value {100 * c['exact_coverage']:.1f}% of the time. So a round of {count} usually covers "
            f"between {lo} and {hi} (19 rounds in 20).</span></p>")
        c["below_0"] = sum(1 for r in c["intervals"] if r[0] < 0)
        c["above_1"] = sum(1 for r in c["intervals"] if r[1] > 1)
        outside = outside_words(c["below_0"], c["above_1"], c["total"], method)
        if outside:
            self.cov_summary.value += (f"<p class='safari-sim-outside' style='margin:2px 0;color:#7a4b00'>{outside} "
                                       "In the picture, the impossible part is shaded grey.</p>")
        svg = coverage_svg(c["intervals"], float(q.exact),
                           title=f"Round {k}: {c['covered']} of {c['total']} intervals cover the exact value "
                                 f"(misses in orange)")
        self.figures["coverage"] = svg
        self.cov_out.value = svg
        return c

    # ------------------------------------------------------------------ tournament
    def _build_seats(self) -> None:
        game = self.game_box.value
        choices = BOT_CHOICES[game]
        old = [b.value for b in self.seat_boxes.children]
        defaults = (("greedy", "random", "memory:0.5", "memory:0.25", "memory:0.75") if game == "witness"
                    else ("greedy", "random", "highcard", "highcard:best", "random"))
        boxes = []
        for s in range(bounded_int(self.players_slider.value, *PLAYERS, 3)):
            value = old[s] if s < len(old) and old[s] in choices else defaults[s]
            boxes.append(W.Dropdown(options=[(bot_words(game, c), c) for c in choices], value=value,
                                    description=f"Bot {s + 1}",
                                    layout=W.Layout(width="390px"), style={"description_width": "45px"}))
        self.seat_boxes.children = boxes

    @guarded
    def _on_lineup_change(self, change) -> None:
        self._build_seats()
        if change["owner"] is self.game_box:
            self.games_slider.value = 100 if self.game_box.value == "knockout" else 30

    @property
    def bots(self) -> list[str]:
        return [b.value for b in self.seat_boxes.children]

    @guarded
    def run_tournament(self, game: str | None = None, bots=None, games: int | None = None, *,
                       background: bool = False, on_end=None):
        """Play a tournament (in this process) with the chosen game, bots and number of games; plot win rates.

        It runs in steps of :data:`TOURNAMENT_CHUNK` games; between steps the Stop button and (in the app) the
        wall-time cap (:func:`~safari_kit.widgets.labs.limits.wall_time_cap`) can end it, and the page says it
        stopped. ``background`` (a button's click in a kernel): play beside the kernel's message loop, so a
        Stop press is heard, and return None at once; ``on_end`` is called when it ends.
        """
        if self._refused_while_playing():
            return None
        if game is not None:
            self.game_box.value = game
        if bots is not None:
            bots = bots.split(",") if isinstance(bots, str) else list(bots)
            self.players_slider.value = len(bots)
            for box, spec in zip(self.seat_boxes.children, bots):
                spec = spec.strip()
                if spec not in [v for _, v in box.options]:
                    box.options = tuple(box.options) + ((bot_words(self.game_box.value, spec), spec),)
                box.value = spec
        if games is not None:
            if games not in TOURNAMENT_GAMES:
                self.games_slider.options = tuple(sorted(set(TOURNAMENT_GAMES) | {int(games)}))
            self.games_slider.value = int(games)
        game, players, games = self.game_box.value, bounded_int(self.players_slider.value, *PLAYERS, 3), self._games()
        lineup = (game, players, tuple(self.bots[:players]), games)
        k = self._press("tournament", *lineup)
        seed = tournament_seed(self.seed, k)
        key = (seed, *lineup, TOURNAMENT_CHUNK)
        message = f"Playing {games} games, run {k} of this line-up (the bar counts them)..."
        res = self._tournaments.pop(key, None)
        if res is not None:  # played before at this seed: the same games, at once
            with self._busy(message):
                self._tournament_progress(games, games)
                self._show_tournament(res, k, key)
            if on_end is not None:
                on_end()
            return res
        if background:
            self._start_job(message, lambda: self._play(lineup, k, seed, key), on_end)
            return None
        try:
            with self._busy(message):
                return self._play(lineup, k, seed, key)
        finally:
            if on_end is not None:
                on_end()

    def _play(self, lineup: tuple, k: int, seed: int, key: tuple):
        """Play run ``k`` of ``lineup`` in steps; Stop or the wall-time cap end it (then None, and the page says so)."""
        from safari_kit.simulation.tournament import tournament

        game, players, bots, games = lineup
        cap = wall_time_cap(self.fair)
        self._stop_requested = False
        self._deadline = time.monotonic() + cap if cap else None
        self.stop_button.disabled = False
        try:
            self._tournament_progress(0, games)
            res = tournament(game, players=players, bots=list(bots), games=games, seed=seed, workers=1,
                             progress=self._tournament_progress, chunk_size=TOURNAMENT_CHUNK)
        except WorkStopped as stopped:
            self._presses[("tournament", *lineup)] -= 1  # the next press plays this run again, whole
            words = (f"Stopped after {stopped.done:,} of {stopped.total:,} games: {stopped.reason}. "
                     f"Nothing is shown for this run; press Run tournament again, or pick fewer games.")
            self.tour_summary.value = f"<p class='safari-tour-stopped' style='color:#a33'>{html.escape(words)}</p>"
            self.show_status(words, kind="bad")
            log.info("a tournament stopped: %s (%s of %s games)", stopped.reason, stopped.done, stopped.total)
            return None
        finally:
            self._deadline = None
            self._stop_requested = False
            self.stop_button.disabled = True
        self._show_tournament(res, k, key)
        return res

    def _start_job(self, message: str, work, on_end=None) -> None:
        """Run ``work`` in a thread beside the kernel's message loop (so Stop is heard); the lab's buttons are
        off until it ends, and every other action is refused meanwhile (:meth:`_refused_while_playing`)."""
        was = {id(b): b.disabled for b in self._buttons}
        for b in self._buttons:
            b.disabled = True
        before = self.status.value
        self.show_status(message)
        shown = self.status.value

        def body() -> None:
            try:
                with low_priority():  # this thread's work yields to the class's clicks on a shared server
                    work()
            except Exception as exc:  # noqa: BLE001 - as guarded does: kept, logged, said plainly
                self.errors.append(f"{type(exc).__name__}: {exc}")
                log.exception("a tournament in the background failed")
                self.show_status(f"Something went wrong ({type(exc).__name__}); the server's log has the "
                                 "details. Press Reset to start again.", kind="error")
            finally:
                if self.status.value == shown:
                    self.status.value = before
                self._job = None
                for b in self._buttons:
                    b.disabled = was.get(id(b), False)
                if on_end is not None:
                    on_end()

        self._job = threading.Thread(target=body, name="safari-kit tournament", daemon=True)
        self._job.start()

    def _show_tournament(self, res, k: int, key: tuple) -> None:
        games = res.config["games"]
        self._tournaments[key] = res
        while len(self._tournaments) > TOURNAMENTS_KEPT:
            self._tournaments.pop(next(iter(self._tournaments)))
        self.tournament_result, self.tournament_run = res, k
        self.tour_summary.value = (  # run k, never the tournament's seed (a huge number, or a secret)
            f"<p class='safari-tour-run' style='margin:4px 0;color:#234'><b>Run {k}</b> of this line-up: "
            f"{games:,} games. " + ("Another screen plays its own games. " if self.secret else
                                    f"Run {k} is the same {self._same_on_screens()}. ")
            + f"Press again for {games:,} new games.</p>" + learner_tournament_html(res))
        self._draw_tournament()
        # issue 27: the live status said "Playing 30 games ... run 2" long after the games ended
        best = res.summary["win_rate"].idxmax()
        self.show_status(f"The tournament is over: run {k}, {games:,} games played. Most wins: "
                         f"{bot_words(res.config['game'], str(best))}. The win rates are below.")

    def _draw_tournament(self) -> None:
        s = self.tournament_result.summary
        players = self.tournament_result.config["players"]
        rates = s["win_rate"].to_numpy()
        # the bars by letter (A, B, ...): the plain names are too long to sit under a bar; the table names them
        svg = bars_svg([bar_letter(i) for i in range(len(s.index))], rates, s["win_ci_low"].to_numpy(),
                       s["win_ci_high"].to_numpy(),
                       reference=1 / players, reference_label=f"fair share 1/{players}",
                       title=f"{self.tournament_result.config['game'].title()}, run {self.tournament_run}: "
                             f"{self.tournament_result.config['games']} games",
                       ylabel="win rate (95% interval)")
        self.figures["tournament"] = svg
        self.tour_out.value = svg
