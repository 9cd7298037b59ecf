"""Simulation lab: Monte Carlo estimates converging on exact answers, and bot tournaments.

Tab 1, **Convergence**: pick a question with an exact answer (computed by
:mod:`safari_kit.probability`), simulate N trials with the probability module's
own Monte Carlo twin of that question (``mc_p_match``, ``mc_p_streak``,
``mc_complete_set``, ``estimate_p_win``) and watch

* the running estimate with its 95% confidence band close in on the exact line;
* the standard error shrink like 1/sqrt(n) (a straight line of slope -1/2 on log-log axes);
* 100 independent 95% intervals: about 95 of them cover the exact value.

Tab 2, **Tournament**: bots from :mod:`safari_kit.simulation.registry` play
:func:`safari_kit.simulation.tournament.tournament` (in this process, with a
progress bar); a bar plot shows the win rates with their 95% intervals.

Everything is drawn from one seeded ``numpy`` generator per run, so the same
seed gives the same pictures on every screen. The lab never decides whether a
trial succeeded: the Monte Carlo functions of the probability layer do, in
batches; the lab only adds the batches up.

>>> lab = SimulationLab(seed=1)
>>> lab.results["question"]
'identify-animal'
>>> abs(lab.results["estimate"].mean - float(lab.results["exact"])) < 0.05
True
"""
from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import Callable

import ipywidgets as W
import numpy as np

from safari_kit.core.chance import Chance
from safari_kit.probability.distributions import Estimate, Exact
from safari_kit.widgets.labs.base import Lab, Progress, fraction_html, guarded

__all__ = ["SimulationLab", "Question", "questions", "running_estimate", "coverage_run",
           "TRIAL_CHOICES", "COVERAGE_SIZES", "BOT_CHOICES"]

TRIAL_CHOICES = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
COVERAGE_SIZES = (20, 50, 100, 200, 500, 1_000)
TOURNAMENT_GAMES = (10, 20, 30, 50, 100, 200, 500)
BOT_CHOICES = {
    "witness": ("random", "greedy", "memory:0", "memory:0.25", "memory:0.5", "memory:0.75", "lastk:2", "lastk:6"),
    "knockout": ("random", "greedy", "highcard", "highcard:best"),
}
TOURNAMENT_CHUNK = 10  # games per chunk: a progress step every 10 games (results depend on it, never on workers)


# ----------------------------------------------------------------------------- questions
@dataclass(frozen=True)
class Question:
    """A question with an exact answer and a Monte Carlo twin.

    ``exact``: the :class:`Exact` value; ``sample(n, rng)``: an :class:`Estimate`
    from n fresh trials drawn with the numpy generator ``rng``; ``about``: one
    sentence for the learner; ``formula``: the board formula.
    """

    key: str
    label: str
    about: str
    exact: Exact
    sample: Callable[[int, np.random.Generator], Estimate]

    @property
    def formula(self) -> str:
        return self.exact.formula


def _witness_start(seed: int):
    from safari_kit.probability.knowledge import Knowledge
    from safari_kit.witness import WitnessGame

    game = WitnessGame(players=3)
    state = game.new_initial_state(seed=seed)
    obs = state.observation(state.current_player)
    return game, state, Knowledge.from_observation(obs, game=game)


def questions(seed: int = 1) -> dict[str, Question]:
    """The lab's questions for the position dealt by ``seed`` (every exact value from the probability layer)."""
    from safari_kit.cards.model import DATA_ITEM_LABELS
    from safari_kit.knockout import KnockoutGame
    from safari_kit.probability import cases as PC
    from safari_kit.probability import knockout as PK
    from safari_kit.probability import witness as PW

    game, state, kn = _witness_start(seed)
    clue = kn.clue[0]
    card = game.cards[clue]
    place = kn.available[0]
    out: dict[str, Question] = {}

    exact = PW.p_match(kn, clue, place, ("animal",))
    out["identify-animal"] = Question(
        "identify-animal", "Identify by animal, knowing nothing",
        f"The clue card is a {card.color} {card.animal} ({card.id}). Declare 'animal' at place {place}: "
        "does the face-down card there share its animal?",
        exact, lambda n, rng: PW.mc_p_match(kn, clue, place, ("animal",), n=n, rng=rng))

    exact = PW.p_streak(kn, 4)
    out["challenge-4"] = Question(
        "challenge-4", "Challenge: 4 safe reveals in a row",
        f"Challenge with the clue card {card.id} ({card.color} {card.animal}, {card.texture}, {card.name}): "
        "are the 4 face-down cards all safe (no shared animal, texture, color or name)?",
        exact, lambda n, rng: PW.mc_p_streak(kn, 4, n=n, rng=rng))

    deck = list(game.cards)
    exact = PC.p_complete_set("color", [], deck, 10, game=game)
    out["case-colors"] = Question(
        "case-colors", "Case Card: 5 colors among 10 cards",
        "Archive 10 random Mugshots: do they show all 5 colors (a set for the 'set of colors' Case Card)?",
        exact, lambda n, rng: PC.mc_complete_set("color", [], deck, 10, n=n, rng=rng, game=game))

    kgame = KnockoutGame(players=3)
    kstate = kgame.new_initial_state(seed=seed)
    kobs = kstate.observation(kstate.current_player)
    options = [(PK.p_win_leading(kgame, kobs, c, item), c, item) for c in kobs.hand for item in kgame.items]
    p, kcard, kitem = min(options, key=lambda o: (abs(float(o[0]) - 0.5), o[1], o[2]))
    pal = kgame.by_id[kcard]
    out["knockout-lead"] = Question(
        "knockout-lead", "Knockout: win leading",
        f"Safari Knockout, 3 players: you lead {pal.name} ({kcard}) and name {DATA_ITEM_LABELS[kitem]}. "
        "Do you win the turn when the others play their best card?",
        p, lambda n, rng: PK.estimate_p_win(kgame, kobs, kcard, kitem, n=n, rng=rng))
    return out


def _checkpoints(n: int, points: int = 60) -> list[int]:
    xs = np.unique(np.geomspace(1, n, points).astype(int))
    xs = [int(x) for x in xs if x >= 1]
    if xs[-1] != n:
        xs.append(n)
    return xs


def running_estimate(question: Question, n: int, rng) -> dict:
    """Simulate n trials in growing batches; the running estimate at each checkpoint.

    Returns ``{"n": [...], "estimates": [Estimate, ...]}``: ``estimates[i]``
    pools all trials up to ``n[i]``.
    """
    rng = np.random.default_rng(rng)
    xs = _checkpoints(int(n))
    done, successes, ests = 0, 0.0, []
    for x in xs:
        batch = question.sample(x - done, rng)
        successes += batch.successes
        done = x
        ests.append(Estimate(int(round(successes)), done))
    return {"n": xs, "estimates": ests}


def coverage_run(question: Question, size: int, intervals: int, rng, method: str = "normal") -> dict:
    """``intervals`` independent estimates of ``size`` trials each and their 95% intervals.

    Returns ``{"intervals": [(lo, hi, covers)], "covered": k, "total": intervals}``.
    """
    rng = np.random.default_rng(rng)
    exact = float(question.exact)
    rows = []
    for _ in range(int(intervals)):
        est = question.sample(int(size), rng)
        lo, hi = est.ci(0.95, method)
        rows.append((lo, hi, lo <= exact <= hi))
    covered = sum(1 for r in rows if r[2])
    return {"intervals": rows, "covered": covered, "total": len(rows), "size": int(size), "method": method}


# ----------------------------------------------------------------------------- pictures
def _png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return buf.getvalue()


def _show(output: W.Output, fig) -> None:
    """Put a figure into an Output widget as a PNG (set directly: nothing is printed outside a kernel)."""
    import base64

    png = _png(fig)
    output.outputs = ({"output_type": "display_data", "metadata": {},
                       "data": {"image/png": base64.b64encode(png).decode("ascii"),
                                "text/plain": "<plot>"}},)


# ----------------------------------------------------------------------------- the lab
class SimulationLab(Lab):
    """Monte Carlo versus exact answers, and tournaments of bots.

    ``lab.results`` (convergence), ``lab.coverage`` and ``lab.tournament_result``
    hold the last numbers; ``lab.figures`` the last matplotlib figures.
    """

    title = "Simulation lab"
    secret_deals = False  # everything it deals is shown: the seed stays visible, even in the app

    def __init__(self, seed: int | None = 1, question: str = "identify-animal", trials: int = 1_000,
                 tournament_game: str = "knockout", run_tournament: bool = True, *, fair: bool = False):
        super().__init__(seed, fair=fair)  # no hidden cards here: fair mode changes nothing
        self._questions: dict[str, Question] = {}
        self.results: dict = {}
        self.coverage: dict = {}
        self.tournament_result = None
        self.figures: dict = {}
        self._runs = 0

        # tab 1: convergence
        self.question_box = W.Dropdown(description="Question", layout=W.Layout(width="430px"),
                                       style={"description_width": "70px"})
        self.question_box.observe(self._on_question, names="value")
        self.trials_slider = W.SelectionSlider(options=TRIAL_CHOICES, value=trials if trials in TRIAL_CHOICES else 1000,
                                               description="Trials N", continuous_update=False,
                                               style={"description_width": "70px"})
        self.run_button = W.Button(description="Simulate", button_style="primary")
        self.run_button.on_click(lambda _b: self.run())
        self.about = W.HTML()
        self.summary = W.HTML()
        self.plot_out = W.Output()
        self.cov_size = W.SelectionSlider(options=COVERAGE_SIZES, value=100, description="n per interval",
                                          continuous_update=False, style={"description_width": "95px"})
        self.cov_count = W.IntSlider(value=100, min=20, max=200, step=10, description="Intervals",
                                     continuous_update=False, style={"description_width": "70px"})
        self.cov_method = W.Dropdown(options=[("mean ± 1.96·SE", "normal"), ("Wilson", "wilson")], value="normal",
                                     description="Interval", layout=W.Layout(width="260px"),
                                     style={"description_width": "60px"})
        self.cov_button = W.Button(description="Run the intervals")
        self.cov_button.on_click(lambda _b: self.run_coverage())
        self.cov_summary = W.HTML()
        self.cov_out = W.Output()
        convergence = W.VBox([
            W.HBox([self.question_box, self.trials_slider, self.run_button]), self.about, self.summary,
            self.plot_out,
            W.HTML("<b>Do 95% intervals really cover the truth 95% of the time?</b>"),
            W.HBox([self.cov_size, self.cov_count, self.cov_method, self.cov_button]),
            self.cov_summary, self.cov_out])

        # tab 2: tournament
        self.game_box = W.ToggleButtons(options=[("Safari Witness", "witness"), ("Safari Knockout", "knockout")],
                                        value=tournament_game, description="Game")
        self.players_slider = W.IntSlider(value=3, min=2, max=5, description="Players", continuous_update=False)
        self.games_slider = W.SelectionSlider(options=TOURNAMENT_GAMES,
                                              value=100 if tournament_game == "knockout" else 30,
                                              description="Games", continuous_update=False)
        self.seat_boxes = W.HBox()
        self.tour_button = W.Button(description="Run tournament", button_style="primary")
        self.tour_button.on_click(lambda _b: self.run_tournament())
        self.progress = Progress("Games")
        self.tour_summary = W.HTML()
        self.tour_out = W.Output()
        self.game_box.observe(self._on_lineup_change, names="value")
        self.players_slider.observe(self._on_lineup_change, names="value")
        tournament_tab = W.VBox([
            self.game_box, W.HBox([self.players_slider, self.games_slider]),
            W.HTML("Bots (seats rotate every game, so nobody keeps the first seat):"), self.seat_boxes,
            W.HBox([self.tour_button, self.progress.widget]), self.tour_summary, self.tour_out])

        self.tabs = W.Tab(children=[convergence, tournament_tab])
        self.tabs.set_title(0, "Convergence")
        self.tabs.set_title(1, "Tournament")
        self.body.children = [self.tabs]
        self._question_default = question
        self._run_tournament_on_reset = run_tournament
        self._build_seats()
        self.reset(self.seed)

    # ------------------------------------------------------------------ reset
    @guarded
    def _reset(self) -> None:
        self._questions = questions(self.seed)
        current = self.question_box.value or self._question_default
        self._quiet = True
        try:
            self.question_box.options = [(q.label, k) for k, q in self._questions.items()]
            self.question_box.value = current if current in self._questions else "identify-animal"
        finally:
            self._quiet = False
        self._runs = 0
        self.run()
        self.run_coverage()
        if self._run_tournament_on_reset:
            self.run_tournament()
        self.show_status(f"Seed {self.seed}: every run below is reproducible from it.")

    @property
    def question(self) -> Question:
        return self._questions[self.question_box.value]

    def _rng(self, *key) -> np.random.Generator:
        return Chance(self.seed).generator("simulation-lab", *key)

    @guarded
    def _on_question(self, change) -> None:
        if self._quiet or not change["new"]:
            return
        self.run()
        self.run_coverage()

    # ------------------------------------------------------------------ convergence
    @guarded
    def run(self, trials: int | None = None) -> dict:
        """Simulate ``trials`` (default: the slider) trials of the chosen question and redraw."""
        if trials is not None:
            if trials not in TRIAL_CHOICES:
                raise ValueError(f"trials must be one of {TRIAL_CHOICES}, got {trials!r}")
            self.trials_slider.value = trials
        q = self.question
        n = int(self.trials_slider.value)
        run = running_estimate(q, n, self._rng(q.key, n))
        final = run["estimates"][-1]
        lo, hi = final.ci()
        exact = float(q.exact)
        self.results = {"question": q.key, "exact": q.exact, "n": run["n"], "estimates": run["estimates"],
                        "estimate": final, "ci": (lo, hi), "covers": lo <= exact <= hi}
        self.about.value = f"<p style='margin:4px 0'>{html.escape(q.about)}</p>"
        covers = "covers" if lo <= exact <= hi else "misses"
        self.summary.value = (
            f"<table style='border-collapse:collapse'>"
            f"<tr><td style='padding:2px 8px'><b>Exact</b></td><td>{fraction_html(q.exact.value, 4)}"
            f" <span style='color:#666'>= {html.escape(q.formula)}</span></td></tr>"
            f"<tr><td style='padding:2px 8px'><b>Simulated</b></td><td>{int(final.successes):,} successes in "
            f"{final.n:,} trials: {final.mean:.4f} ± {final.se:.4f} (SE)</td></tr>"
            f"<tr><td style='padding:2px 8px'><b>95% interval</b></td><td>{lo:.4f} to {hi:.4f}: "
            f"it {covers} the exact value</td></tr></table>")
        self._draw_convergence()
        self._runs += 1
        return self.results

    def _draw_convergence(self) -> None:
        from matplotlib.figure import Figure

        r = self.results
        xs = np.array(r["n"], dtype=float)
        means = np.array([e.mean for e in r["estimates"]])
        ses = np.array([e.se for e in r["estimates"]])
        exact = float(r["exact"])
        fig = Figure(figsize=(10, 3.4))
        ax, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        ax.fill_between(xs, means - 1.96 * ses, means + 1.96 * ses, color="#9ecae1", alpha=0.6,
                        label="95% confidence band")
        ax.plot(xs, means, color="#08519c", lw=1.5, label="running estimate")
        ax.axhline(exact, color="#d94801", ls="--", lw=1.5, label=f"exact {exact:.4f}")
        ax.set_xscale("log")
        ax.set_xlabel("trials n (log scale)")
        ax.set_ylabel("estimate of the probability")
        ax.set_ylim(max(0.0, min(means.min(), exact) - 0.15), min(1.0, max(means.max(), exact) + 0.15))
        ax.set_title("The estimate settles on the exact value")
        ax.legend(loc="upper right", fontsize=8)
        keep = ses > 0
        if keep.any():
            ax2.loglog(xs[keep], ses[keep], "o", ms=3, color="#08519c", label="standard error")
            anchor = xs[keep][-1], ses[keep][-1]
            ref = anchor[1] * np.sqrt(anchor[0] / xs[keep])
            ax2.loglog(xs[keep], ref, "-", color="#d94801", lw=1, label="slope −1/2: c/√n")
        ax2.set_xlabel("trials n")
        ax2.set_ylabel("standard error")
        ax2.set_title("SE shrinks like 1/√n")
        ax2.legend(fontsize=8)
        fig.tight_layout()
        self.figures["convergence"] = fig
        _show(self.plot_out, fig)

    # ------------------------------------------------------------------ coverage
    @guarded
    def run_coverage(self, size: int | None = None, intervals: int | None = None, method: str | None = None) -> dict:
        """Make ``intervals`` independent 95% intervals of ``size`` trials each and count the covering ones."""
        if size is not None:
            if size not in COVERAGE_SIZES:
                raise ValueError(f"size must be one of {COVERAGE_SIZES}, got {size!r}")
            self.cov_size.value = size
        if intervals is not None:
            self.cov_count.value = int(intervals)
        if method is not None:
            self.cov_method.value = method
        q = self.question
        size, count, method = int(self.cov_size.value), int(self.cov_count.value), self.cov_method.value
        self.coverage = coverage_run(q, size, count, self._rng("coverage", q.key, size, count), method)
        self.coverage["question"] = q.key
        c = self.coverage
        self.cov_summary.value = (
            f"<p style='margin:4px 0'><b>{c['covered']} of {c['total']}</b> intervals "
            f"({100 * c['covered'] / c['total']:.0f}%) cover the exact value "
            f"{float(q.exact):.4f}. Each interval used {size} trials.</p>")
        self._draw_coverage()
        return self.coverage

    def _draw_coverage(self) -> None:
        from matplotlib.figure import Figure

        c = self.coverage
        exact = float(self.question.exact)
        fig = Figure(figsize=(10, 2.8))
        ax = fig.subplots()
        for i, (lo, hi, ok) in enumerate(c["intervals"]):
            ax.plot([i, i], [lo, hi], color="#2c7fb8" if ok else "#e6550d", lw=1.6 if ok else 2.2)
        ax.axhline(exact, color="black", ls="--", lw=1, label="exact value")
        ax.set_xlabel("interval number")
        ax.set_ylabel("95% interval")
        ax.set_title(f"{c['covered']} of {c['total']} intervals cover the exact value (misses in orange)")
        ax.legend(loc="upper right", fontsize=8)
        fig.tight_layout()
        self.figures["coverage"] = fig
        _show(self.cov_out, fig)

    # ------------------------------------------------------------------ tournament
    def _build_seats(self) -> None:
        game = self.game_box.value
        choices = BOT_CHOICES[game]
        old = [b.value for b in self.seat_boxes.children]
        defaults = (("greedy", "random", "memory:0.5", "memory:0.25", "memory:0.75") if game == "witness"
                    else ("greedy", "random", "highcard", "highcard:best", "random"))
        boxes = []
        for s in range(int(self.players_slider.value)):
            value = old[s] if s < len(old) and old[s] in choices else defaults[s]
            boxes.append(W.Dropdown(options=choices, value=value, description=f"Bot {s + 1}",
                                    layout=W.Layout(width="190px"), style={"description_width": "45px"}))
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
    def run_tournament(self, game: str | None = None, bots=None, games: int | None = None):
        """Play a tournament (in this process) with the chosen game, bots and number of games; plot win rates."""
        from safari_kit.simulation.tournament import tournament

        if game is not None:
            self.game_box.value = game
        if bots is not None:
            bots = bots.split(",") if isinstance(bots, str) else list(bots)
            self.players_slider.value = len(bots)
            for box, spec in zip(self.seat_boxes.children, bots):
                spec = spec.strip()
                if spec not in box.options:
                    box.options = tuple(box.options) + (spec,)
                box.value = spec
        if games is not None:
            if games not in TOURNAMENT_GAMES:
                self.games_slider.options = tuple(sorted(set(TOURNAMENT_GAMES) | {int(games)}))
            self.games_slider.value = int(games)
        self.progress.update(0, int(self.games_slider.value))
        res = tournament(self.game_box.value, players=int(self.players_slider.value), bots=self.bots,
                         games=int(self.games_slider.value), seed=self.seed, workers=1,
                         progress=self.progress.update, chunk_size=TOURNAMENT_CHUNK)
        self.tournament_result = res
        self.tour_summary.value = res._repr_html_()
        self._draw_tournament()
        return res

    def _draw_tournament(self) -> None:
        from matplotlib.figure import Figure

        s = self.tournament_result.summary
        players = self.tournament_result.config["players"]
        labels = [str(x) for x in s.index]
        rates = s["win_rate"].to_numpy()
        lo = rates - s["win_ci_low"].to_numpy()
        hi = s["win_ci_high"].to_numpy() - rates
        fig = Figure(figsize=(7, 3))
        ax = fig.subplots()
        ax.bar(labels, rates, yerr=[lo, hi], capsize=6, color="#74a9cf", edgecolor="#045a8d")
        ax.axhline(1 / players, color="#d94801", ls="--", lw=1, label=f"fair share 1/{players}")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% interval)")
        ax.set_title(f"{self.tournament_result.config['game'].title()}: "
                     f"{self.tournament_result.config['games']} games")
        ax.legend(fontsize=8)
        fig.tight_layout()
        self.figures["tournament"] = fig
        _show(self.tour_out, fig)
