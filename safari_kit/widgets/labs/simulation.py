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

Tab 2, **Tournament** (:mod:`~safari_kit.widgets.labs.simulation_tournament`): bots play
:func:`safari_kit.simulation.tournament.tournament` in this process, with a progress bar and Stop; a bar plot
shows the win rates with their 95% intervals. Run k of a line-up uses the tournament seed
:func:`tournament_seed` (seed, k) (run 1: the lab's seed itself, so it is ``tournament(..., seed=seed)`` in
Python), and the lab says which run it shows; one already played at this seed is shown again at once.

The pictures are small SVG charts (:mod:`safari_kit.presentation.charts`); while anything runs the lab's
buttons are disabled, and what takes longer (a tournament: up to ~20 s on 2 cores; Reset, which replays one)
moves a progress bar (Reset's above the tabs). Everything is drawn from one seeded ``numpy`` generator per run,
so the same seed and presses give the same pictures on every screen. The lab never decides whether a trial
succeeded: the probability layer's Monte Carlo functions do, in batches. What was drawn and every word about
it are kept and written by :mod:`safari_kit.presentation.simulation_runs` (no widgets, issue 28).

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
opens is the learner's first when they had joined: the chooser hands the built lab the recorder with
``opening=True``. Runs drawn before a learner joins (the opening run too) are not kept. A Simulate run is never
stopped part way (Stop ends only tournaments), so a run is recorded whole or, if it fails or is refused, not at
all; rounds of intervals and tournaments are not recorded (the class tables pool Simulate runs).

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
from contextlib import contextmanager

import ipywidgets as W
import numpy as np

from safari_kit.core.i18n import N_, _

from safari_kit.presentation.charts import bars_svg, convergence_svg, coverage_svg  # noqa: F401 - as before
from safari_kit.presentation.simulation_runs import (  # noqa: F401 - the lab's public helpers, as before
    INTERVAL_WORDS, PICTURE_WORDS, TOURNAMENTS_KEPT, SimulationRuns, bar_letter, bot_words, learner_tournament_html,
    outside_words, pooled_path as _pooled_path, same_on_screens, stopped_words, tournament_html,
)
from safari_kit.widgets.labs.base import Lab, Progress, guarded, learner_owns_the_server, python_in_browser
from safari_kit.widgets.labs.limits import Pacer, bounded_int, in_kernel, low_priority, pin_range
from safari_kit.widgets.labs.simulation_tournament import (  # noqa: F401 - as before
    BOT_CHOICES, PLAYERS, TOURNAMENT_CHUNK, TOURNAMENT_GAMES, TournamentTab,
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
COVERAGE_COUNTS = (20, 200)  # intervals per round: the slider's range, kept on the server (issue 19)
log = logging.getLogger("safari_kit.widgets")


# ----------------------------------------------------------------------------- the lab
class SimulationLab(TournamentTab, Lab):
    """Monte Carlo versus exact answers, and tournaments of bots.

    ``lab.results`` (convergence), ``lab.coverage`` and ``lab.tournament_result``
    hold the last numbers; ``lab.figures`` the last pictures (SVG text).

    Every press draws fresh trials, reproducibly: press k of Simulate with a
    question and N uses the generator keyed by (seed, "run", question, N, k), so the
    k-th press is the same draw in every classroom. ``lab.history[question]``
    keeps the runs of each question since the last reset; with **Pool my runs**
    the summary and the plot pool them all.
    """

    title = N_("Simulation lab")
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
        self.header.value = f"<h3 style='margin:2px 12px 2px 0;white-space:nowrap'>{html.escape(_(self.title))}</h3>"
        if self.secret:
            seed_words = (_("a seed drawn in your browser") if python_in_browser()
                          else _("a seed drawn on your own server") if learner_owns_the_server()
                          else _("a secret seed drawn on the server"))
            self.deal_note.value = ("<span style='color:#555'>"
                                    + _("Your own draws: the questions, trials and games here come from {seed}. "
                                        "No two screens show the same runs. Reset draws again.").format(
                                        seed=seed_words) + "</span>")
        self._questions: dict[str, Question] = {}
        #: what was drawn since the last reset and its words (results, coverage, figures, history, tournaments)
        self.runs = SimulationRuns()
        self._resetting = False
        self._busy_depth = 0
        self._was_disabled: dict = {}
        self._quiet = False
        # the page's presses at a human pace on the class server (issue 26; see :class:`Pacer`); elsewhere
        # (a notebook, a test, a script) nothing waits
        self._pacer = Pacer() if fair and in_kernel() else Pacer(0, 0)

        # tab 1: convergence
        # labels as wide as their words (issue 30: fixed widths cut longer languages)
        self.question_box = W.Dropdown(description=_("Question"), layout=W.Layout(width="430px", max_width="100%"),
                                       style={"description_width": "initial"})
        self.question_box.observe(self._on_question, names="value")
        self.trials_slider = W.SelectionSlider(options=TRIAL_CHOICES, value=trials if trials in TRIAL_CHOICES else 1000,
                                               description=_("Trials N"), continuous_update=False,
                                               style={"description_width": "initial"})
        self.run_button = W.Button(description=_("Simulate"), button_style="primary",
                                   tooltip=_("Draw N fresh trials (run 1, 2, 3, ...: the same runs in every "
                                             "classroom)"))
        self.run_button.on_click(lambda _b: self._from_page(self.run))
        # as wide as its words: "Juntar mis tandas" (Spanish) was cut in a fixed 130px
        self.pool_box = W.Checkbox(value=False, description=_("Pool my runs"), indent=False,
                                   layout=W.Layout(width="auto", min_width="130px"))
        self.pool_box.observe(self._on_pool, names="value")
        self.about, self.summary, self.plot_out = W.HTML(), W.HTML(), W.HTML()
        self.plot_out.add_class("safari-sim-plot")
        self.cov_size = W.SelectionSlider(options=COVERAGE_SIZES, value=100, description=_("n per interval"),
                                          continuous_update=False, style={"description_width": "initial"})
        self.cov_count = W.IntSlider(value=100, min=COVERAGE_COUNTS[0], max=COVERAGE_COUNTS[1], step=10,
                                     description=_("Intervals"), continuous_update=False,
                                     style={"description_width": "initial"})
        pin_range(self.cov_count, *COVERAGE_COUNTS)  # a page's {"max": 1000000} is put back
        self.cov_method = W.Dropdown(options=[(_("simple: mean ± 1.96·SE"), "normal"), (_("Wilson's"), "wilson")],
                                     value="normal", description=_("Interval"), layout=W.Layout(width="260px"),
                                     style={"description_width": "initial"})
        self.cov_method.observe(self._on_method, names="value")
        self.cov_button = W.Button(description=_("Run the intervals"), layout=W.Layout(width="auto", min_width="148px"),
                                   tooltip=_("A new round of intervals, each from its own fresh trials"))
        self.cov_button.on_click(lambda _b: self._from_page(self.run_coverage))
        self.cov_summary, self.cov_out = W.HTML(), W.HTML()
        self.cov_out.add_class("safari-sim-coverage")
        convergence = W.VBox([
            W.HBox([self.question_box, self.trials_slider, self.run_button, self.pool_box],
                   layout=W.Layout(flex_flow="row wrap", align_items="center")), self.about,
            self.summary, self.plot_out,
            W.HTML(_(INTERVAL_WORDS)),
            W.HBox([self.cov_size, self.cov_count, self.cov_method, self.cov_button],
                   layout=W.Layout(flex_flow="row wrap", align_items="center")),
            self.cov_summary, self.cov_out])

        tournament_tab = self._tournament_tab(tournament_game)  # tab 2: tournament
        self.tour_button.on_click(lambda _b: self.run_tournament(background=in_kernel()))

        self.tabs = W.Tab(children=[convergence, tournament_tab])
        self.tabs.set_title(0, _("Convergence"))
        self.tabs.set_title(1, _("Tournament"))
        # Reset's progress, above the tabs (seen from either tab); hidden while nothing long runs
        self.reset_progress = Progress(_("Reset"))
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
        with self._busy(_("Working: new questions, runs and tournament...")):
            self._resetting = True
            bar = self.reset_progress
            bar.widget.layout.display = None
            bar.bar.value = 0  # before the new max: a smaller max would first clamp the old value
            bar.update(0, 3 + (self._games() if self._run_tournament_on_reset else 0))
            bar.label.value = _("questions...")
            try:
                self._questions = questions(self.seed)
                current = self.question_box.value or self._question_default
                self._quiet = True
                try:
                    self.question_box.options = [(q.label, k) for k, q in self._questions.items()]
                    self.question_box.value = current if current in self._questions else "identify-animal"
                finally:
                    self._quiet = False
                self.runs.clear()
                self._reset_step(1, _("a run of Simulate..."))
                self._drawn_by_lab = N_("as it opened")  # issue 27: say so (a learner's first press said "Run 2")
                try:
                    self.run()
                finally:
                    self._drawn_by_lab = None
                self._reset_step(2, _("a round of intervals..."))
                self.run_coverage()
                self._reset_step(3, _("the tournament..."))
                if self._run_tournament_on_reset and not background:
                    self.run_tournament()
            finally:
                if not background:
                    self._end_reset()
        self.show_status(_("Each press of a button draws new trials or games: run 1, run 2, and so on.") + " "
                         + (_("Another screen draws its own runs.") if self.secret
                            else _("Run 2 here is run 2 {screens}.").format(screens=self._screens())))
        if background:  # after the buttons are restored: the job disables them until it ends
            self.run_tournament(background=True, on_end=self._end_reset)

    def _end_reset(self) -> None:
        self._resetting = False
        self.reset_progress.widget.layout.display = "none"

    def _reset_step(self, done: int, what: str) -> None:
        self.reset_progress.bar.value = done
        self.reset_progress.label.value = what

    @property
    def question(self) -> Question:
        return self._questions[self.question_box.value]

    def _rng(self, *key) -> np.random.Generator:
        """The numpy generator of one run (:func:`~safari_kit.widgets.labs.simulation_draws.draw_rng`)."""
        return draw_rng(self.seed, *key)

    def _screens(self) -> str | None:
        """Where run k is the same draw, in the learner's words (None: a secret seed, never said)."""
        return same_on_screens(self.secret, self.fair, self.seed)

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
            self._drawn_by_lab = N_("when you chose this question")
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
            k = self.runs.press("run", q.key, n)
            path = running_estimate(q, n, self._rng("run", q.key, n, k))
            run = self.runs.add_run(q.key, n, k, path, self._drawn_by_lab)
            self._show_convergence()
            self._record_run(q, run)
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

    def _show_convergence(self) -> None:
        """Summary and picture of the question's last run (or of all its runs pooled), from ``self.history``."""
        q = self.question
        view = self.runs.convergence(q, count_words(q), bool(self.pool_box.value), self._screens())
        self.about.value = view.about
        self.summary.value = view.summary
        self.live.say(view.spoken)  # what a screen reader is told
        self.plot_out.value = view.plot

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
            k = self.runs.press("coverage", q.key, *self._coverage_size())
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
        cov = exact_coverage(q.exact, size, method)
        self.cov_summary.value, self.cov_out.value = self.runs.count_round(q, k, size, count, method, c, cov,
                                                                           typical_range(count, cov))
        return c


# what was drawn and shown, read (and a few set) on the lab as before the split (tests, lessons): the runs' own
for _name in ("results", "coverage", "figures", "history", "tournament_result", "tournament_run"):
    setattr(SimulationLab, _name, property(lambda self, n=_name: getattr(self.runs, n),
                                           lambda self, value, n=_name: setattr(self.runs, n, value)))
