"""Knockout lab: play one seat of Safari Knockout against bots, with the exact chance of every option.

How a browser test can drive it (JupyterLab + Playwright, see tests/browser/helpers.py):

- The lab's outer box has the CSS classes ``safari-lab safari-knockout-lab``.
- The probability panel is the HTML widget with class ``safari-prob``. Its
  ``<table class="safari-prob-table">`` carries ``data-step`` (a counter that
  grows with every redraw, so a test can wait for it to change after a click),
  ``data-best-card`` and ``data-best-item`` (the best option, item empty when
  following) and ``data-phase`` (``lead``, ``follow``, ``done``, ``wait`` or
  ``over``). Each option row has ``data-card="K12"``; each cell ``data-item``; the best
  cell has the class ``safari-best``. Under it, the hint ``.safari-ko-why``
  explains the best option: ``data-u``, ``data-h``, ``data-k`` (U unseen
  cards, H of them higher, k cards held by the players after you, as
  :func:`~safari_kit.probability.knockout.win_count` counts them) and
  ``data-beaten`` (1 when a card already played is at least as high).
- A play is two steps, so that no single click plays by accident (issue 17: a
  data item clicked first used to play the next card clicked): *pick* a card of
  the hand (``data-key='card:"K12"'``, class ``st-selectable``) and, when
  leading, a data item (buttons ``data-key='item:"weight_kg"'``), in any order,
  each pick replacing the last (the picks are highlighted, ``st-highlight``);
  then press **Play** beside the table (``button.safari-play-button``, enabled
  once the picks are complete). Keyboard: Enter on a card or an item picks it,
  Tab goes on to Play.
- After the play the lab finishes the turn (the players after you) and *pauses
  on it*: the table shows every card of the turn where it was played, its named
  item and the result in words; beside the table ``.safari-ko-result``
  (``data-result`` ``won`` or ``lost``) says it, e.g. "You lost: Player 2's
  Cheetah (112 km/h) beat your Springbok (88 km/h) on Top speed.", with the
  chance the lab had shown and the plays in order (``data-phase='done'``,
  ``data-winner``). **Next turn** (``button.safari-next``, orange while it is
  the one thing to press) lets the bots play on to your next turn. Example::

      best = page.locator(".safari-prob-table").get_attribute("data-best-card")
      page.locator(f".safari-table [data-key='card:\\"{best}\\"']").click()
      item = page.locator(".safari-prob-table").get_attribute("data-best-item")
      if item:
          page.locator(f".safari-table [data-key='item:\\"{item}\\"']").click()
      page.locator(".safari-play-button").click()   # then .safari-prob-table[data-phase='done']
      page.locator(".safari-next").click()          # then data-phase 'lead' or 'follow' again

- After the last turn of a round (played by the learner, or by "Play to end of round") the lab pauses on
  the round's end (issue 27): ``lab.round_over`` is the round's number, the panel opens with
  ``.safari-ko-round-over`` ("Round 1 is over", the turns each player won, the points, who goes out under
  Variation 1), the table's words say it, and ``.safari-next`` reads **Next round**; nothing of the next round
  is played until it is pressed. The table still shows the round that ended (its chip "Round 1 of 7", its
  turns, the last turn's cards, an empty hand: :func:`~safari_kit.presentation.knockout_round_end.round_end_view`);
  the next round's hand is drawn only on Next round.
- Other buttons (ipywidgets ``.widget-button``) by their text: "Play to end of
  round" (no pauses: the turn log has every turn), "New game", "Reset"; the
  checkbox "Variation 1: elimination".
- The turn log is the HTML widget with class ``safari-ko-log``, the running
  comparison of predicted chances with outcomes ``safari-ko-tally``.

From Python (tests, notebooks): ``lab.table.click = {"kind": "card", "id": "K12", "seq": n}``
is exactly what a click in the page sends; ``lab.play_button.click()``, ``lab.next_button.click()``,
``lab.end_round_button.click()``, ``lab.new_game_button.click()``, ``lab.elimination_box.value = True``.
Hidden information stays hidden: the synced state holds the learner's hand, the cards played (public) and
the chances computed from the learner's view, never another hand.

The class experiment (issue 21): once the learner joined, each card they play is recorded when its turn is
settled, as a :class:`~safari_kit.teaching.class_records.KnockoutPlay` (the chance shown for it, whether it won,
the best chance in the hand, the data item named; no card). Plays made by "Play to end of round" are the
lab's, not the learner's, and are not recorded.

The lab decides no rule and computes no probability: the engine
(:mod:`safari_kit.knockout`) plays the game, the bots come from
:mod:`safari_kit.simulation.registry`, and every chance shown is
:func:`safari_kit.probability.knockout.best_play` of the learner's view
(:func:`~safari_kit.probability.knockout.view_of` of its observation).

>>> lab = KnockoutLab(seed=1)
>>> lab.best.action, lab.best.p
(Play(card='K12', item='top_speed_kmh'), 29/50 ≈ 0.5800)
>>> lab.table.click = {"kind": "card", "id": "K12", "seq": 1}
>>> lab.table.click = {"kind": "item", "id": "top_speed_kmh", "seq": 2}
>>> lab.history, lab.picked                # picked, not played yet
((), ('K12', 'top_speed_kmh'))
>>> lab.play_button.click()
>>> lab.history[0], lab.predictions[0].p
(Play(card='K12', item='top_speed_kmh'), Fraction(29, 50))
>>> lab.paused, lab.prob.value.count("You lost: Player 2's Cheetah (112 km/h) beat your Springbok (88 km/h)")
(True, 1)
>>> lab.next_button.click()
>>> lab.paused, lab.errors
(False, [])
"""
from __future__ import annotations

import html
from dataclasses import dataclass, replace
from fractions import Fraction

import ipywidgets as W

from safari_kit.cards.model import DATA_ITEM_LABELS
from safari_kit.core.chance import Chance
from safari_kit.knockout import KnockoutGame, Play
from safari_kit.presentation import views as V
from safari_kit.presentation.knockout_round_end import round_end_view
from safari_kit.probability.knockout import WinCount, best_play, card_strength, view_of, win_count
from safari_kit.simulation.registry import make_bot
from safari_kit.widgets.labs.base import Lab, guarded
from safari_kit.widgets.labs.knockout_text import (
    ITEM_SHORT, ITEM_UNITS, LAB_CSS as _CSS, chance_html, fmt_value, plays_table_html, reduced_html, result_sentence,
    round_words, tally_html, tie_words, trick_words, why_html,
)
from safari_kit.widgets.table import CardTable

__all__ = ["KnockoutLab", "Prediction", "chance_html", "reduced_html", "result_sentence"]



@dataclass(frozen=True)
class Prediction:
    """One play of the learner's seat: the chance the lab showed for it, and what happened."""

    round: int
    turn: int            # turn number within the round (1-based)
    card: str
    item: str
    p: Fraction          # P(win the turn) of the option played
    best_p: Fraction     # the best option's P at that moment
    leading: bool
    auto: bool           # played by "Play to end of round" (the best option), not clicked
    won: bool | None = None   # None until the turn is complete


_fmt = fmt_value


class _Table(CardTable):
    """The lab's card table: while a finished turn is shown, a click on it is answered with ``busy_words``
    (press Next turn) rather than the engine's reason, which would be about the next turn."""

    busy_words: str | None = None

    def _refusal(self, target: dict) -> str:
        return self.busy_words or super()._refusal(target)


class KnockoutLab(Lab):
    """Play seat ``learner`` of a ``players``-player Knockout game against bots.

    Before each of your plays the panel shows, for every card of your hand
    (and, when you lead, every data item), the exact chance of winning the turn,
    with the best option marked. Click a card on the table (and a data item
    when you lead). Bots (``bot``: a registry spec such as ``"greedy"``,
    ``"random"``, ``"highcard"``) play automatically; their plays appear in
    order in the turn log. "Play to end of round" plays the rest of the round
    for you with the best option (or lets the others play the round while you
    are out); "New game" deals a new game (next seed; in fair mode a fresh
    secret deal, see :class:`~safari_kit.widgets.labs.base.Lab`). The checkbox
    switches Variation 1 (elimination) and starts again.
    """

    title = "Knockout lab: which card wins the turn?"
    record_lab = "knockout"

    def __init__(self, seed: int | None = 1, players: int = 4, elimination: bool = False,
                 learner: int = 0, bot: str = "greedy", *, fair: bool = False):
        super().__init__(seed, fair=fair)
        if not isinstance(learner, int) or not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}, got {learner!r}")
        make_bot("knockout", bot)   # check the spec now (raises BotSpecError)
        self.players = int(players)
        self.learner = learner
        self.bot_spec = bot
        self.layout.add_class("safari-knockout-lab")
        self.elimination_box = W.Checkbox(value=bool(elimination), description="Variation 1: elimination",
                                          indent=False, layout=W.Layout(width="230px"))
        self.elimination_box.observe(self._on_elimination, names="value")
        self.play_button = W.Button(description="Play", disabled=True, layout=W.Layout(width="80px"),
                                    tooltip="Play the card you picked (and name the data item you picked)")
        self.play_button.add_class("safari-play-button")
        self.play_button.on_click(self._on_play)
        self.next_button = W.Button(description="Next turn", disabled=True, layout=W.Layout(width="100px"),
                                    tooltip="The other players play until your next turn")
        self.next_button.add_class("safari-next")
        self.next_button.on_click(self._on_next)
        self.end_round_button = W.Button(description="Play to end of round", layout=W.Layout(width="auto"),
                                         tooltip="Play the rest of this round with the best option for you")
        self.end_round_button.on_click(self._on_end_round)
        self.new_game_button = W.Button(description="New game",
                                        tooltip="Deal a new game" + ("" if self.fair else " (next seed)"))
        self.new_game_button.on_click(self._on_new_game)
        self.table = _Table(game="knockout")
        self.table.on_click(self._on_table_click)
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.log = W.HTML()
        self.log.add_class("safari-ko-log")
        self.tally = W.HTML()
        self.tally.add_class("safari-ko-tally")
        self.elimination_box.layout.width = "auto"
        self.new_game_button.layout.width = "110px"
        controls = W.VBox([W.HBox([self.play_button, self.next_button, self.end_round_button]),
                           W.HBox([self.new_game_button, self.elimination_box])])
        self.arrange(main=[self.table], side=[controls, self.prob], below=[self.log, self.tally])
        self.game: KnockoutGame | None = None
        self.state = None
        self.predictions: list[Prediction] = []
        self._step = 0
        self.reset(self.seed)

    # ------------------------------------------------------------------ setup
    @guarded
    def _reset(self) -> None:
        self.game = KnockoutGame(players=self.players, elimination=bool(self.elimination_box.value))
        self.state = self.game.new_initial_state(seed=self.seed)
        chance = Chance(self.seed)
        self.bots = {}
        for seat in range(self.players):
            if seat != self.learner:
                bot = make_bot("knockout", self.bot_spec)
                bot.start(self.game, seat, chance.generator("bot", seat))
                self.bots[seat] = bot
        self.predictions = []
        self._picked_card: str | None = None
        self._picked_item: str | None = None
        self._pause: int | None = None   # index in completed_turns of the finished turn shown, until Next turn
        self._round_end: tuple | None = None  # (state before, state after) the play that ended the last round
        self._best = None
        self._events: list[str] = []
        self._turns_seen = 0
        self._advance()
        self._redraw()
        self.show_status(self._status_text())

    @property
    def history(self) -> tuple:
        """Every action of the game so far (the learner's and the bots'), in order."""
        return self.state.history

    @property
    def best(self):
        """The :class:`~safari_kit.probability.knockout.BestPlay` shown now (None when not your turn)."""
        return self._best

    @property
    def paused(self) -> bool:
        """True while the lab shows the learner's finished turn and waits for Next turn."""
        return self._pause is not None

    @property
    def round_over(self) -> int | None:
        """The round just ended while the lab pauses on it (issue 27: the end of a round went by in one small
        line while round 2's cards came on the table), else None. Set after the round's last turn (the
        learner's play, or "Play to end of round"); the bots start the next round only on Next round."""
        if self._pause is None or self.state.is_terminal():
            return None
        rnd = self.state.completed_turns[self._pause]["round"]
        return rnd if self.state.round != rnd else None

    @property
    def picked(self) -> tuple[str | None, str | None]:
        """The card and the data item picked so far for the coming play (not played until Play)."""
        return self._picked_card, self._picked_item

    def _my_turn(self) -> bool:
        s = self.state
        return not s.is_terminal() and s.current_player == self.learner and not self.paused

    def _name(self, seat: int) -> str:
        return "You" if seat == self.learner else f"Player {seat}"

    def _card(self, cid: str) -> str:
        return html.escape(self.game.by_id[cid].name)  # issue 27: no card ids (K12) in a learner's sentences

    # ------------------------------------------------------------------ playing
    def _bot_step(self) -> None:
        s = self.state
        seat = s.current_player
        action = self.bots[seat].choose(s.observation(seat), s.legal_actions())
        self._apply(action)
        self._collect()

    def _advance(self, to_round_end: bool = False) -> None:
        """Bots play until it is the learner's turn (or the game is over).

        ``to_round_end``: also play the learner's seat, with the best option,
        until the round ends. While the learner is out (Variation 1) nothing is
        played without ``to_round_end``, so each round's summary can be read
        before the next round is watched.
        """
        s = self.state
        start_round = s.round
        while not s.is_terminal():
            if self.learner in s.out and not to_round_end:
                break
            if to_round_end and s.round != start_round:
                break
            if s.current_player == self.learner:
                if not to_round_end:
                    break
                best = best_play(self.game, view_of(s.observation(self.learner)))
                self._play_learner(best.action.card, best.action.item, best, auto=True)
                continue
            self._bot_step()

    def _play_learner(self, card: str, item: str | None, best, auto: bool = False) -> None:
        s = self.state
        leading = not s.trick
        named = item if leading else s.item
        p = next(o.p.value for o in best.table if o.card == card and o.item == named)
        rnd, turn = s.round, s.turn + 1
        self._apply(Play(card, item if leading else None))
        self.predictions.append(Prediction(rnd, turn, card, named, p, best.p.value, leading, auto))
        self._collect()

    def _apply(self, action) -> None:
        """Apply one play, keeping the state before a play that ends a round (issue 27): the engine deals the
        next round in the same ``apply``, and the pause on "Round 1 is over" shows the table as round 1 ended
        (:func:`~safari_kit.presentation.knockout_round_end.round_end_view`), not round 2's new hand. Only the
        last card of a turn can end a round, so only then is the state cloned."""
        s = self.state
        before = s.clone() if len(s.trick) == len(s.active) - 1 else None
        s.apply(action)
        if before is not None and s.round != before.round:
            self._round_end = (before, s.clone())

    def _finish_turn(self, done: int) -> None:
        """After the learner's play: the players after the learner play, until the turn is complete; then pause
        on it (the table shows the whole turn and its result until Next turn). ``done``: the number of
        completed turns before the learner played."""
        s = self.state
        while not s.is_terminal() and len(s.completed_turns) == done and s.current_player != self.learner:
            self._bot_step()
        if len(s.completed_turns) > done and not s.is_terminal():  # at the end there is no next turn to wait for
            self._pause = done

    def _collect(self) -> None:
        """Write every newly completed turn into the log and settle pending predictions."""
        turns = self.state.completed_turns
        for i in range(self._turns_seen, len(turns)):
            t = turns[i]
            number = sum(1 for u in turns[:i + 1] if u["round"] == t["round"])
            self._events.append(self._turn_html(t, number))
            mine = [c for seat, c in t["plays"] if seat == self.learner]
            if mine:
                for j in range(len(self.predictions) - 1, -1, -1):
                    pr = self.predictions[j]
                    if pr.card == mine[0] and pr.won is None:
                        self.predictions[j] = replace(pr, won=t["winner"] == self.learner)
                        self._record_play(self.predictions[j])
                        break
            last_of_round = i + 1 == len(turns) or turns[i + 1]["round"] != t["round"]
            if last_of_round and self._round_over(t["round"]):
                self._events.append(self._round_html(t["round"]))
        self._turns_seen = len(turns)
        if self.state.is_terminal() and not any("safari-game-over" in e for e in self._events):
            self._events.append(self._game_html())

    def _record_play(self, pr: Prediction) -> None:
        """Record a settled play for the class experiment (issue 21): the chance the lab showed for it, the best
        chance in the hand, the item named and whether it won. A play by "Play to end of round" (``auto``) is
        the lab's choice of the best option, not the learner's prediction: it is not recorded."""
        if not pr.auto:
            self.record("knockout_play", chance=pr.p, outcome=1 if pr.won else 0, best=pr.best_p, item=pr.item)

    def _round_over(self, rnd: int) -> bool:
        s = self.state
        return s.is_terminal() or s.round != rnd

    # ------------------------------------------------------------------ callbacks
    @guarded
    def _on_table_click(self, target: dict) -> None:
        """A card or a data item picks it for the coming play (in any order; a new pick replaces the old one);
        nothing is played until Play."""
        if not self._my_turn():
            self.show_status("This turn is over: press Next turn." if self.paused
                             else "Wait: it is not your turn.", kind="bad")
            return
        kind, tid = target.get("kind"), target.get("id")
        leading = not self.state.trick
        if kind == "card":
            self._picked_card = tid
        elif kind == "item" and leading:
            self._picked_item = tid
        else:
            self.show_status("Pick a card from your hand.", kind="bad")
            return
        self._redraw()
        self.show_status(self._pick_words())

    @guarded
    def _on_play(self, _button=None) -> None:
        """Play the picked card (naming the picked item when leading); the turn is finished and shown."""
        if not self._my_turn():
            self.show_status("This turn is over: press Next turn." if self.paused
                             else "Wait: it is not your turn.", kind="bad")
            return
        card, item = self._picked_card, self._picked_item
        leading = not self.state.trick
        if card is None or (leading and item is None):
            self.show_status(self._pick_words(), kind="bad")
            return
        self._picked_card = self._picked_item = None
        done = len(self.state.completed_turns)
        self._play_learner(card, item if leading else None, self._best)
        self._finish_turn(done)
        self._redraw()
        said = None
        if self._pause is not None or self.state.is_terminal():  # the turn's result, as written beside the table
            i, t = self._shown_turn()
            said = result_sentence(self.game, t, self.learner) + (" Press Next turn." if self.paused else "")
            if self.round_over:  # the round's end: its result after the last turn's
                said = f"{result_sentence(self.game, t, self.learner)} {self._status_text()}"
        self.show_status(self._status_text(), spoken=said)

    @guarded
    def _on_next(self, _button=None) -> None:
        """Leave the finished turn: the bots play until the learner's next turn."""
        if not self.paused:
            return
        self._pause = None
        self._advance()
        self._redraw()
        self.show_status(self._status_text(), spoken=self._spoken_status())

    @guarded
    def _on_end_round(self, _button=None) -> None:
        s = self.state
        if s.is_terminal():
            self.show_status("The game is over: press New game to play again.", kind="bad")
            return
        self._picked_card = self._picked_item = None
        self._pause = None
        done, round_no, out = len(s.completed_turns), s.round, set(s.out)
        self._advance(to_round_end=True)
        played = [t for t in s.completed_turns[done:] if t["round"] == round_no]
        went_out = [seat for seat in s.out if seat not in out]
        if played and not s.is_terminal():  # pause on the round's end: round 2 waits for Next round
            self._pause = len(s.completed_turns) - 1
        self._redraw()
        summary = round_words(played, self.learner, s.players, s.scores(), round_no, went_out)
        if self.round_over:  # the round's result was just said: only what to press now
            self.show_status(self._status_text(), spoken=f"{summary} Press Next round to start round {s.round}.")
        else:
            self.show_status(self._status_text(), spoken=f"{summary} {self._spoken_status()}")

    def _spoken_status(self) -> str:
        """The status line for the ear: on the learner's turn, first the cards already played in it (a
        sighted learner sees them on the table before choosing)."""
        s = self.state
        if self._my_turn() and s.trick:
            return f"{trick_words(self.game, s.trick, s.item, self.learner)} {self._status_text()}"
        return self._status_text()

    @guarded
    def _on_new_game(self, _button=None) -> None:
        self.reset(self.seed + 1)

    @guarded
    def _on_elimination(self, _change=None) -> None:
        self.reset(self.seed)

    # ------------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        self._step += 1
        s = self.state
        if self._my_turn():
            self._best = best_play(self.game, view_of(s.observation(self.learner)))
            marks = []
            if self._picked_card is not None:
                marks.append({"kind": "card", "id": self._picked_card})
            if self._picked_item is not None:
                marks.append({"kind": "item", "id": self._picked_item})
            self.table.busy_words = None
            self.table.show(s, self.learner, message=self._pick_words(), highlight=marks)
            self.table.set_notes(self._hand_notes())
            self.prob.value = _CSS + self._prob_html()
        elif self._pause is not None or (s.is_terminal() and self._last_mine() is not None):
            self._best = None
            self._show_finished_turn()
            self.table.set_notes({})
            self.prob.value = _CSS + self._result_html()
        else:
            self._best = None
            self.table.busy_words = None
            self.table.show(s, self.learner, selectable=[])
            self.table.set_notes({})
            self.prob.value = _CSS + self._idle_html()
        ready = self._my_turn() and self._picked_card is not None and (bool(s.trick) or self._picked_item is not None)
        self.play_button.disabled = not ready
        self.play_button.button_style = "warning" if ready else ""  # the one thing to press now
        self.next_button.disabled = not self.paused
        self.next_button.button_style = "warning" if self.paused else ""
        self.next_button.description = "Next round" if self.round_over else "Next turn"
        self.next_button.tooltip = (f"Start round {s.round}" if self.round_over
                                    else "The other players play until your next turn")
        self.log.value = self._log_html()
        self.tally.value = self._tally_html()

    def _last_mine(self) -> int | None:
        """Index of the last completed turn if the learner played in it (the game's last turn, at the end)."""
        turns = self.state.completed_turns
        if turns and any(seat == self.learner for seat, _ in turns[-1]["plays"]):
            return len(turns) - 1
        return None

    def _shown_turn(self) -> tuple[int, dict]:
        i = self._pause if self._pause is not None else self._last_mine()
        return i, self.state.completed_turns[i]

    def _show_finished_turn(self) -> None:
        """The table at the end of the learner's turn: every card of it face up where the turn was played,
        its named item, and the result in words (all public: the whole table saw these cards)."""
        s = self.state
        i, t = self._shown_turn()
        sentence = result_sentence(self.game, t, self.learner)
        number = sum(1 for u in s.completed_turns[:i + 1] if u["round"] == t["round"])
        go_on = " Press Next turn." if self.paused else ""
        self.table.busy_words = ("This turn is over: press Next turn (beside the table) to go on." if self.paused
                                 else "The game is over: press New game to play again.")
        words = f"Round {t['round']}, turn {number} is over: {self._name(t['winner'])} won it."
        if self.round_over:
            go_on = f" Press Next round to start round {s.round}."
            self.table.busy_words = f"Round {t['round']} is over: press Next round (beside the table) to go on."
            words = f"Round {t['round']} is over. {self._round_sentence(t['round'])}"
            sentence = f"Round {t['round']} is over. Last turn: {sentence}"
            # the table as the round ended (its chip, its turns, the last turn's cards), not the next round's
            # new hand (issue 27): that is drawn on Next round
            before, after = self._round_end
            with self.table.hold_sync():
                self.table.show(before, self.learner, selectable=[], message=sentence + go_on, phase_words=words)
                self.table.view = dict(round_end_view(before, after, self.learner), phase_words=words)
            return
        with self.table.hold_sync():
            self.table.show(s, self.learner, selectable=[], message=sentence + go_on, phase_words=words)
            view = dict(self.table.view)
            ranges = V.deck_ranges(self.game.cards)
            faces = dict(view.get("cards", {}))
            for _, c in t["plays"]:
                faces.setdefault(c, V.pal_face(self.game.by_id[c], ranges, self.game.items))
            view.update(cards=faces, trick=[{"player": seat, "card": c} for seat, c in t["plays"]],
                        item=t["item"], item_label=ITEM_SHORT[t["item"]], my_turn=False, leading=False,
                        seats=[dict(p, to_play=False) for p in view.get("seats", [])])
            self.table.view = view

    def _pick_words(self) -> str:
        """What the learner has picked and what is left to do, in one line."""
        s, card, item = self.state, self._picked_card, self._picked_item
        name = self.game.by_id[card].name if card else None
        if s.trick:
            counts = f"{ITEM_SHORT[s.item]} counts this turn."
            if card is None:
                return f"Your turn: pick a card, then press Play. {counts}"
            return f"{name} picked: press Play to play it (or pick another card). {counts}"
        if card is None and item is None:
            return "You lead: pick a card and a data item (in any order), then press Play."
        if card is None:
            return f"{ITEM_SHORT[item]} picked: now pick the card to play, then press Play."
        if item is None:
            return f"{name} picked: now pick the data item to name, then press Play."
        return (f"{name}, naming {ITEM_SHORT[item]}: press Play "
                "(or pick another card or data item to change your mind).")

    def _status_text(self) -> str:
        s = self.state
        if self.round_over:
            rnd = self.round_over
            return f"Round {rnd} is over. {self._round_sentence(rnd)} Press Next round to start round {s.round}."
        if self._pause is not None:
            t = s.completed_turns[self._pause]
            won = "You won" if t["winner"] == self.learner else "You lost"
            return f"{won} this turn (see below and on the table). Press Next turn to go on."
        if s.is_terminal():
            return "Game over: see the last turn and the scores beside the table. Press New game for another deal."
        if self.learner in s.out:
            return f"You are out (you won no turn in a round). Press 'Play to end of round' to watch round {s.round}."
        if self._my_turn():
            return self._pick_words()
        return "The bots are playing."

    def _result_html(self) -> str:
        """Beside the table while a finished turn is shown: the result in words, the chance the lab had
        shown for the play, the plays in order with their values, and the end of round or game."""
        s = self.state
        i, t = self._shown_turn()
        won = t["winner"] == self.learner
        sentence = html.escape(result_sentence(self.game, t, self.learner), quote=False)
        mine = next((p for p in reversed(self.predictions)
                     if p.round == t["round"] and any(seat == self.learner and c == p.card for seat, c in t["plays"])),
                    None)
        shown = ""
        if mine is not None:
            shown = (f"<div class='safari-note'>The chance of winning this turn was "
                     f"P {'= ' if Fraction(mine.p).denominator <= 1000 else ''}{chance_html(mine.p)} for your play"
                     + ("" if mine.p == mine.best_p else
                        f" (the &#9733; option had {chance_html(mine.best_p)})") + ".</div>")
        color = "#1b7f3b" if won else "#a33"
        box = (f"<div class='safari-ko-result' data-result='{'won' if won else 'lost'}' "
               f"style='border-left:5px solid {color};background:{'#eef9ee' if won else '#fdf0ef'};"
               f"padding:6px 8px;margin:4px 0;font-size:14px'>{sentence}</div>")
        after = ""
        if s.is_terminal():
            after = self._game_html()
        go_on = ("<div>Press <b>Next turn</b> to go on.</div>" if self.paused else "")
        plays = plays_table_html(self.game, t, self.learner, self._step, "over" if s.is_terminal() else "done")
        if self.round_over:  # the round's result first and big; the last turn under it
            go_on = f"<div>Press <b>Next round</b> to start round {s.round}.</div>"
            return (f"{self._round_over_html(t['round'])}{go_on}<div style='margin-top:6px'><b>Last turn of "
                    f"round {t['round']}</b></div>{box}{shown}{plays}")
        return f"{box}{shown}{plays}{after}{go_on}"

    def _round_sentence(self, rnd: int) -> str:
        """The round's result in words: turns won by each player who played, who goes out (Variation 1)."""
        s = self.state
        turns = [t for t in s.completed_turns if t["round"] == rnd]
        played = [seat for seat in range(self.players) if any(seat == p for t in turns for p, _ in t["plays"])]
        wins = {seat: sum(1 for t in turns if t["winner"] == seat) for seat in played}
        mine = (f"You won {wins[self.learner]} of its {len(turns)} turns." if self.learner in wins
                else f"You watched its {len(turns)} turns.")
        others = ", ".join(f"Player {seat} {wins[seat]}" for seat in played if seat != self.learner)
        text = f"{mine} Turns won by the others: {others}."
        if self.game.elimination:
            out = [seat for seat in played if wins[seat] == 0]
            if not out:
                text += " Everybody won a turn, so nobody goes out."
            elif self.learner in out:
                rest = [f"Player {seat}" for seat in out if seat != self.learner]
                text += " You won no turn, so you are out of the game."
                if rest:
                    text += f" {' and '.join(rest)} {'is' if len(rest) == 1 else 'are'} out too."
            else:
                names = " and ".join(f"Player {seat}" for seat in out)
                text += f" {names} won no turn and {'is' if len(out) == 1 else 'are'} out of the game."
        return text

    def _round_over_html(self, rnd: int) -> str:
        """The end-of-round moment beside the table: "Round 1 is over", the round's result, the points."""
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(self.state.scores()))
        return (f"<div class='safari-ko-round-over' data-round='{rnd}' style='border:2px solid #2b5b9b;"
                f"background:#f4f8ff;padding:6px 10px;margin:4px 0;font-size:15px;line-height:1.45'>"
                f"<div style='font-size:19px;font-weight:bold;color:#1f3f73'>Round {rnd} is over</div>"
                f"<div>{html.escape(self._round_sentence(rnd))}</div>"
                f"<div>Points so far (one point for each turn won): {scores}.</div></div>")

    def _prob_html(self) -> str:
        s, best = self.state, self._best
        leading = best.leading
        items = self.game.items if leading else (s.item,)
        rows = best.rows()
        p = {(r["card"], r["item"]): r["p"] for r in rows}
        formulas = {(r["card"], r["item"]): r["formula"] for r in rows}
        bc, bi = best.action.card, best.action.item
        head = "".join(f"<th data-item='{it}'>{ITEM_SHORT[it]}</th>" for it in items)
        body = []
        for cid in s.hand(self.learner):
            pal = self.game.by_id[cid]
            cls = " class='safari-picked-row'" if cid == self._picked_card else ""
            cells = [f"<td class='safari-card-name' title='{cid}'>{html.escape(pal.name)}</td>"]
            for it in items:
                marks = []
                if cid == bc and (not leading or it == bi):
                    marks.append("safari-best")
                if cid == self._picked_card and (not leading or it == self._picked_item or self._picked_item is None):
                    marks.append("safari-picked")
                if leading and it == self._picked_item and self._picked_card is None:
                    marks.append("safari-picked")
                star = " &#9733;" if "safari-best" in marks else ""
                title = (f"{DATA_ITEM_LABELS[it]}: {_fmt(pal.value(it))} {ITEM_UNITS[it]}; "
                         f"P = {formulas[(cid, it)]}")
                cells.append(f"<td data-item='{it}' class='{' '.join(marks)}' title='{html.escape(title)}'>"
                             f"{chance_html(p[(cid, it)], short=True)}{star}</td>")
            body.append(f"<tr data-card='{cid}'{cls}>{''.join(cells)}</tr>")
        if leading:
            intro = ("<b>You lead.</b> P is the chance that your card wins the turn, for each data item you may "
                     "name. You win unless a player after you holds a strictly higher card.")
        else:
            played = ", ".join(f"{self._name(seat)}: {self._card(c)} "
                               f"({_fmt(self.game.by_id[c].value(s.item))} {ITEM_UNITS[s.item]})"
                               for seat, c in s.trick)
            intro = (f"<b>You follow.</b> Named item: <b>{ITEM_SHORT[s.item]}</b>. Played so far: {played}. "
                     "To win, beat every card already played (a tie goes to the earlier card). "
                     "Then hope nobody after you holds a higher one. P is your chance to win the turn:")
        count = win_count(self.game, view_of(s.observation(self.learner)), bc, bi if leading else s.item)
        note = why_html(self.game, count, leading, self._tie_words())
        table = (f"<table class='safari-prob-table' data-step='{self._step}' data-phase="
                 f"'{'lead' if leading else 'follow'}' data-best-card='{bc}' data-best-item='{bi or ''}'>"
                 f"<tr><th>Your card</th>{head}</tr>{''.join(body)}</table>")
        return f"<div>{intro}</div>{table}{note}"

    def _hand_notes(self) -> dict:
        """Under each card of the hand: its best chance to win this turn (and the item to name, when leading)."""
        best = self._best
        notes = {}
        for cid in self.state.hand(self.learner):
            opts = [o for o in best.table if o.card == cid]
            if not opts:
                continue
            top = max(opts, key=lambda o: o.p.value)
            p = Fraction(top.p.value)
            chance = ("= 0" if p == 0 else "= 1" if p == 1 else
                      "< 0.001" if p < Fraction(1, 1000) else f"≈ {float(p):.3f}")
            # (what is written under the card, what a screen reader says after its name; issue 20)
            words = ("certain" if p == 1 else "under 0.001" if p < Fraction(1, 1000) else f"about {float(p):.3f}")
            if p == 0:
                notes[("card", cid)] = ("P = 0 (loses)", "it cannot win this turn")
            elif best.leading:
                notes[("card", cid)] = (f"{ITEM_SHORT[top.item]}: P {chance}",
                                        f"chance to win naming {ITEM_SHORT[top.item]} {words}")
            else:
                notes[("card", cid)] = (f"P {chance}", f"chance to win {words}")
        return notes

    def _why_html(self, c: WinCount, leading: bool) -> str:
        return why_html(self.game, c, leading, self._tie_words())

    def _tie_words(self) -> str:
        """Why the ★ took its option when others have the same chance (issue 27), or "": the probability layer
        breaks a tie by the weakest card (:func:`~safari_kit.probability.knockout.card_strength`), then the
        lower value, deck order and item order."""
        best = self._best
        top = best.p.value
        bc, bi = best.action.card, best.action.item
        tied = [o for o in best.table if o.p.value == top and not (o.card == bc and (not best.leading or o.item == bi))]
        if not tied:
            return ""
        cards = list(dict.fromkeys(o.card for o in tied if o.card != bc))
        name = self.game.by_id[bc].name
        if not cards:  # only the same card on another data item
            items = " or ".join(ITEM_SHORT[o.item] for o in tied)
            return f"Naming {items} with your {name} gives the same chance."
        strength = card_strength(self.game, bc)
        others = [card_strength(self.game, c) for c in cards]
        weaker = None if all(x == strength for x in others) else all(strength < x for x in others)
        return tie_words(name, [self.game.by_id[c].name for c in cards], weaker)

    def _idle_html(self) -> str:
        s = self.state
        phase = "over" if s.is_terminal() else "wait"
        if s.is_terminal():
            text = "The game is over."
        elif self.learner in s.out:
            text = "You are out of the game: no chances to show. Watch how the others play."
        else:
            text = f"{self._name(s.current_player)} is playing."
        return (f"<table class='safari-prob-table' data-step='{self._step}' data-phase='{phase}' "
                f"data-best-card='' data-best-item=''><tr><td>{text}</td></tr></table>")

    def _turn_html(self, t: dict, n: int) -> str:
        plays = []
        for i, (seat, c) in enumerate(t["plays"]):
            v = self.game.by_id[c].value(t["item"])
            verb = "lead" if seat == self.learner else "leads"
            lead = (f" {verb} and name{'' if seat == self.learner else 's'} <b>{ITEM_SHORT[t['item']]}</b>"
                    if i == 0 else "")
            plays.append(f"<li>{self._name(seat)}{lead}: {self._card(c)} &mdash; "
                         f"{_fmt(v)} {ITEM_UNITS[t['item']]}</li>")
        won = self._name(t["winner"])
        return (f"<div><b>Round {t['round']}, turn {n}</b> ({ITEM_SHORT[t['item']]}): "
                f"<ol>{''.join(plays)}</ol>Winner: <b>{won}</b>.</div>")

    def _round_html(self, rnd: int) -> str:
        wins = [0] * self.players
        for t in self.state.completed_turns:
            if t["round"] == rnd:
                wins[t["winner"]] += 1
        played = [seat for seat in range(self.players)
                  if any(seat == p for t in self.state.completed_turns if t["round"] == rnd for p, _ in t["plays"])]
        words = ", ".join(f"{self._name(seat)} {wins[seat]}" for seat in played)
        out_now = [self._name(seat) for seat in played if wins[seat] == 0] if self.game.elimination else []
        out = f" Out now (no turn won): {', '.join(out_now)}." if out_now else ""
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(self.state.scores()))
        return (f"<div style='background:#f4f8ff;padding:4px;margin:4px 0'><b>End of round {rnd}.</b> "
                f"Turns won this round: {words}.{out} Scores: {scores}.</div>")

    def _game_html(self) -> str:
        s = self.state
        winners = " and ".join(self._name(w) for w in s.winners())
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(s.scores()))
        done = [p for p in self.predictions if p.won is not None]
        exp = sum((p.p for p in done), Fraction(0))
        won = sum(1 for p in done if p.won)
        return (f"<div class='safari-game-over' style='background:#eef9ee;padding:4px;margin:4px 0'>"
                f"<b>Game over after round {s.round}.</b> Scores: {scores}. "
                f"Winner{'s' if len(s.winners()) > 1 else ''}: <b>{winners}</b>. "
                f"Your plays added up to {float(exp):.2f} expected turn wins; you won {won}.</div>")

    def _log_html(self) -> str:
        if not self._events:
            return "<div><i>No turn finished yet.</i></div>"
        recent = self._events[-8:]
        more = (f"<div class='safari-note'>({len(self._events) - len(recent)} earlier entries hidden)</div>"
                if len(self._events) > len(recent) else "")
        return f"<div><b>Turn log</b> (newest last){more}{''.join(recent)}</div>"

    def _tally_html(self) -> str:
        return tally_html(self.game, self.predictions)
