"""The Simulation lab's Tournament tab: its widgets, and a tournament played in steps that Stop and the
wall-time cap can end, in a thread beside the kernel's message loop when a click starts it.

A mixin of :class:`~safari_kit.widgets.labs.simulation.SimulationLab` (issue 28: the lab was 908 lines). What a
tournament's run is and what the page says of it live in :mod:`safari_kit.presentation.simulation_runs` (no
widgets); the limits (:class:`~safari_kit.widgets.labs.limits.WorkStopped`, the wall-time cap, the low priority)
in :mod:`safari_kit.widgets.labs.limits`. Bots come from :mod:`safari_kit.simulation.registry`, games from
:func:`safari_kit.simulation.tournament.tournament` (imported when a tournament is played: pandas).
"""
from __future__ import annotations

import html
import logging
import threading
import time

import ipywidgets as W

from safari_kit.core.i18n import N_, _, language
from safari_kit.presentation.numbers import whole
from safari_kit.presentation.simulation_runs import bot_words, stopped_words
from safari_kit.widgets.labs.base import Progress, guarded
from safari_kit.widgets.labs.limits import WorkStopped, bounded_int, low_priority, pin_range, wall_time_cap
from safari_kit.widgets.labs.simulation_draws import tournament_seed

__all__ = ["TournamentTab", "TOURNAMENT_GAMES", "BOT_CHOICES", "PLAYERS", "TOURNAMENT_CHUNK"]

log = logging.getLogger("safari_kit.widgets")

TOURNAMENT_GAMES = (10, 20, 30, 50, 100, 200, 500)
BOT_CHOICES = {
    "witness": ("random", "greedy", "memory:0", "memory:0.25", "memory:0.5", "memory:0.75", "lastk:2", "lastk:6"),
    "knockout": ("random", "greedy", "highcard", "highcard:best"),
}
PLAYERS = (2, 5)  # tournament seats: the slider's range, kept on the server
TOURNAMENT_CHUNK = 10  # games per chunk: a progress step every 10 games (results depend on it, never on workers)


class TournamentTab:
    """The Tournament tab of the Simulation lab (a mixin: the lab provides the status line, the seed, the
    buttons, ``runs`` and ``_busy``)."""

    def _tournament_tab(self, tournament_game: str) -> W.VBox:
        """Build the tab's widgets (the lab wires the Run tournament button) and return the tab."""
        self.game_box = W.ToggleButtons(options=[("Safari Witness", "witness"), ("Safari Knockout", "knockout")],
                                        value=tournament_game, description=_("Game"))
        self.players_slider = W.IntSlider(value=3, min=PLAYERS[0], max=PLAYERS[1], description=_("Players"),
                                          continuous_update=False)
        pin_range(self.players_slider, *PLAYERS)
        self.games_slider = W.SelectionSlider(options=TOURNAMENT_GAMES,
                                              value=100 if tournament_game == "knockout" else 30,
                                              description=_("Games"), continuous_update=False)
        self.seat_boxes = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.tour_button = W.Button(description=_("Run tournament"), button_style="primary",
                                    tooltip=_("Play fresh games (run 1, 2, 3, ...: the same games in every "
                                              "classroom)"))
        self.progress = Progress(_("Games"))
        # long work (a tournament) runs in steps of TOURNAMENT_CHUNK games; Stop and the wall-time cap end it
        self.stop_button = W.Button(description=_("Stop"), button_style="danger", disabled=True,
                                    tooltip=_("Stop the games being played"),
                                    layout=W.Layout(width="auto", min_width="70px"))
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
        return W.VBox([
            self.game_box, W.HBox([self.players_slider, self.games_slider]),
            W.HTML(_("Bots (seats rotate every game, so nobody keeps the first seat):")), self.seat_boxes,
            W.HBox([self.tour_button, self.progress.widget, self.stop_button]), self.tour_summary, self.tour_out])

    def _tournament_progress(self, done: int, total: int) -> None:
        """A step of a tournament (every TOURNAMENT_CHUNK games): move the bars, then end it if Stop was pressed
        or the wall-time cap is reached (:class:`WorkStopped`, caught by :meth:`_play`)."""
        self.progress.update(done, total)
        if self._resetting:  # Reset's bar: its 3 first steps, then the games
            self.reset_progress.bar.value = 3 + int(done)
            self.reset_progress.label.value = _("the tournament: {done} / {total} games").format(
                done=whole(done), total=whole(total))
        if done < total:
            if self._stop_requested:
                raise WorkStopped(N_("you pressed Stop"), done, total)  # said by stopped_words, translated
            if self._deadline is not None and time.monotonic() > self._deadline:
                raise WorkStopped(_("one run may take at most {seconds} seconds on this server").format(
                    seconds=f"{wall_time_cap(self.fair):g}"), done, total)

    def stop(self) -> None:
        """Stop the tournament being played, at its next step (the Stop button)."""
        if self._deadline is not None or self._job is not None:
            self._stop_requested = True

    def _refused_while_playing(self) -> bool:
        """While a tournament plays beside the message loop, every other action waits (a click on a disabled
        button still reaches the server): say so and refuse."""
        if self._job is None:
            return False
        self.show_status(_("Games are being played: wait for them, or press Stop."), kind="bad")
        return True

    def _games(self) -> int:
        """The Games slider's value, if it is one the lab offers (the page cannot add options; Python can)."""
        games = int(self.games_slider.value)
        return games if games in self.games_slider.options else TOURNAMENT_GAMES[0]

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
                                    description=_("Bot {n}").format(n=s + 1),
                                    layout=W.Layout(width="390px", max_width="100%"),
                                    style={"description_width": "initial"}))
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
                if spec not in [v for _words, v in box.options]:
                    box.options = tuple(box.options) + ((bot_words(self.game_box.value, spec), spec),)
                box.value = spec
        if games is not None:
            if games not in TOURNAMENT_GAMES:
                self.games_slider.options = tuple(sorted(set(TOURNAMENT_GAMES) | {int(games)}))
            self.games_slider.value = int(games)
        game, players, games = self.game_box.value, bounded_int(self.players_slider.value, *PLAYERS, 3), self._games()
        lineup = (game, players, tuple(self.bots[:players]), games)
        k = self.runs.press("tournament", *lineup)
        seed = tournament_seed(self.seed, k)
        key = (seed, *lineup, TOURNAMENT_CHUNK)
        message = _("Playing {games} games, run {k} of this line-up (the bar counts them)...").format(games=games, k=k)
        res = self.runs.kept_tournament(key)
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
            self.runs.unpress("tournament", *lineup)  # the next press plays this run again, whole
            words = stopped_words(stopped)
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
            try:  # a new thread starts in no language: it speaks the lab's (issue 30)
                with language(getattr(self, "language", None)), low_priority():  # yields to the class's clicks
                    work()
            except Exception as exc:  # noqa: BLE001 - as guarded does: kept, logged, said plainly
                self.errors.append(f"{type(exc).__name__}: {exc}")
                log.exception("a tournament in the background failed")
                with language(getattr(self, "language", None)):
                    self.show_status(_("Something went wrong ({problem}); the server's log has the details. "
                                       "Press Reset to start again.").format(problem=type(exc).__name__),
                                     kind="error")
            finally:
                if self.status.value == shown:
                    self.status.value = before
                self._job = None
                for b in self._buttons:
                    b.disabled = was.get(id(b), False)
                if on_end is not None:
                    with language(getattr(self, "language", None)):
                        on_end()

        self._job = threading.Thread(target=body, name="safari-kit tournament", daemon=True)
        self._job.start()

    def _show_tournament(self, res, k: int, key: tuple) -> None:
        self.tour_summary.value, self.tour_out.value, status = self.runs.show_tournament(res, k, key, self._screens())
        self.show_status(status)
