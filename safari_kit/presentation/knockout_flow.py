"""The Knockout lab's flow without widgets: one seat of Safari Knockout against bots, the picks of a play, the
pause on a finished turn and on a round's end, the predictions and every word and panel the lab shows.

:class:`~safari_kit.widgets.labs.knockout.KnockoutLab` is the layout around this state machine (issue 28: the
lab had tangled the two in 791 lines). Here the bots (:mod:`safari_kit.simulation.registry`) play to the
learner's turn; a play is picked (a card, and a data item when leading, in any order) and then played; the
players after the learner finish the turn and the flow pauses on it (:attr:`KnockoutFlow.paused`) until Next
turn, and on a round's end (:attr:`KnockoutFlow.round_over`) until Next round, keeping the state before the
round's last play (the engine deals the next round in the same ``apply``) so the table can show the round as it
ended. Each action returns a :class:`Said` (the status line, its kind, the words for a screen reader).

Hidden information: every chance is :func:`~safari_kit.probability.knockout.best_play` of the learner's view
(:func:`~safari_kit.probability.knockout.view_of` of ``state.observation(learner)``), never another hand; a
settled play is handed to ``on_play`` (the class record: chances, outcome, item; no card).

The words are :mod:`safari_kit.presentation.knockout_text`'s. Nothing here imports a widget package
(``tests/presentation/test_knockout_flow.py``).
"""
from __future__ import annotations

import html
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, NamedTuple

from safari_kit.core.chance import Chance
from safari_kit.knockout import KnockoutGame, Play
from safari_kit.presentation import views as V
from safari_kit.core.i18n import _
from safari_kit.presentation.card_words import pal_name
from safari_kit.presentation.knockout_panels import KnockoutPanels
from safari_kit.presentation.knockout_text import (
    ITEM_SHORT, fmt_value, result_sentence, round_words, trick_words,
)
from safari_kit.probability.knockout import best_play, view_of
from safari_kit.simulation.registry import make_bot

__all__ = ["KnockoutFlow", "Prediction", "Said"]


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


class Said(NamedTuple):
    """What an action says: the status line, its kind (info, good, bad) and, when they differ, the spoken words."""

    text: str
    kind: str = "info"
    spoken: str | None = None


_fmt = fmt_value


class KnockoutFlow(KnockoutPanels):
    """Seat ``learner`` of a ``players``-player Knockout game against bots (``bot``: a registry spec)."""

    def __init__(self, players: int = 4, learner: int = 0, bot: str = "greedy",
                 on_play: Callable[[dict], None] | None = None):
        if not isinstance(learner, int) or not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}, got {learner!r}")
        make_bot("knockout", bot)   # check the spec now (raises BotSpecError)
        self.players = int(players)
        self.learner = learner
        self.bot_spec = bot
        #: called with a settled play's fields for the class record (issue 21), or None
        self.on_play = on_play
        self.game: KnockoutGame | None = None
        self.state = None
        self.predictions: list[Prediction] = []
        self._step = 0

    def reset(self, seed: int, elimination: bool = False) -> None:
        """Deal from ``seed``; the bots play to the learner's first turn."""
        self.game = KnockoutGame(players=self.players, elimination=bool(elimination))
        self.state = self.game.new_initial_state(seed=seed)
        chance = Chance(seed)
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
        self.advance()

    # ------------------------------------------------------------------ the learner's actions
    def _not_now(self) -> Said | None:
        if not self.my_turn():
            return Said(_("This turn is over: press Next turn.") if self.paused else _("Wait: it is not your turn."),
                        "bad")
        return None

    def pick(self, target: dict) -> Said:
        """A card or a data item picks it for the coming play (in any order; a new pick replaces the old one);
        nothing is played until Play. A refusal is a 'bad' :class:`Said` and changes nothing."""
        refused = self._not_now()
        if refused:
            return refused
        kind, tid = target.get("kind"), target.get("id")
        leading = not self.state.trick
        if kind == "card":
            self._picked_card = tid
        elif kind == "item" and leading:
            self._picked_item = tid
        else:
            return Said(_("Pick a card from your hand."), "bad")
        return Said(self.pick_words())

    def play(self) -> Said:
        """Play the picked card (naming the picked item when leading); the turn is finished and paused on."""
        refused = self._not_now()
        if refused:
            return refused
        card, item = self._picked_card, self._picked_item
        leading = not self.state.trick
        if card is None or (leading and item is None):
            return Said(self.pick_words(), "bad")
        self._picked_card = self._picked_item = None
        done = len(self.state.completed_turns)
        self._play_learner(card, item if leading else None, self._best)
        self._finish_turn(done)
        said = None
        if self._pause is not None or self.state.is_terminal():  # the turn's result, as written beside the table
            i, t = self.shown_turn()
            said = result_sentence(self.game, t, self.learner) + (" " + _("Press Next turn.") if self.paused else "")
            if self.round_over:  # the round's end: its result after the last turn's
                said = f"{result_sentence(self.game, t, self.learner)} {self.status_text()}"
        return Said(self.status_text(), "info", said)

    def next_turn(self) -> Said | None:
        """Leave the finished turn: the bots play until the learner's next turn (None: nothing was paused)."""
        if not self.paused:
            return None
        self._pause = None
        self.advance()
        return Said(self.status_text(), "info", self.spoken_status())

    def end_round(self) -> Said:
        """Play to end of round: the learner's seat plays the best option, and the flow pauses on the round's end."""
        s = self.state
        if s.is_terminal():
            return Said(_("The game is over: press New game to play again."), "bad")
        self._picked_card = self._picked_item = None
        self._pause = None
        done, round_no, out = len(s.completed_turns), s.round, set(s.out)
        self.advance(to_round_end=True)
        played = [t for t in s.completed_turns[done:] if t["round"] == round_no]
        went_out = [seat for seat in s.out if seat not in out]
        if played and not s.is_terminal():  # pause on the round's end: round 2 waits for Next round
            self._pause = len(s.completed_turns) - 1
        summary = round_words(played, self.learner, s.players, s.scores(), round_no, went_out)
        if self.round_over:  # the round's result was just said: only what to press now
            return Said(self.status_text(), "info", _("{summary} Press Next round to start round {round}.").format(
                summary=summary, round=s.round))
        return Said(self.status_text(), "info", f"{summary} {self.spoken_status()}")

    # ------------------------------------------------------------------ what the page shows
    def refresh(self) -> str:
        """Before a redraw: count it (``data-step``), work out the best option on the learner's turn, and say what
        the page shows: ``"mine"`` (the learner's turn), ``"finished"`` (a finished turn) or ``"idle"``."""
        self._step += 1
        s = self.state
        if self.my_turn():
            self._best = best_play(self.game, view_of(s.observation(self.learner)))
            return "mine"
        self._best = None
        if self._pause is not None or (s.is_terminal() and self._last_mine() is not None):
            return "finished"
        return "idle"

    def pick_marks(self) -> list[dict]:
        marks = []
        if self._picked_card is not None:
            marks.append({"kind": "card", "id": self._picked_card})
        if self._picked_item is not None:
            marks.append({"kind": "item", "id": self._picked_item})
        return marks

    def ready(self) -> bool:
        """Whether Play can be pressed: the learner's turn, with the picks complete."""
        return (self.my_turn() and self._picked_card is not None
                and (bool(self.state.trick) or self._picked_item is not None))

    def finished_turn(self) -> dict:
        """The table's words at the end of the learner's turn (or round): ``message``, ``phase_words`` and
        ``busy_words`` (said for a click on the table); ``round_end``: (state before, state after) the round's last
        play when the round is over (the table shows the round as it ended), else None; ``turn``: the turn."""
        s = self.state
        i, t = self.shown_turn()
        sentence = result_sentence(self.game, t, self.learner)
        number = sum(1 for u in s.completed_turns[:i + 1] if u["round"] == t["round"])
        go_on = " " + _("Press Next turn.") if self.paused else ""
        busy = (_("This turn is over: press Next turn (beside the table) to go on.") if self.paused
                else _("The game is over: press New game to play again."))
        words = _("Round {round}, turn {number} is over: {name} won it.").format(
            round=t['round'], number=number, name=self._name(t['winner']))
        round_end = None
        if self.round_over:
            go_on = " " + _("Press Next round to start round {round}.").format(round=s.round)
            busy = _("Round {round} is over: press Next round (beside the table) to go on.").format(round=t['round'])
            words = _("Round {round} is over. {round_sentence}").format(
                round=t['round'], round_sentence=self.round_sentence(t['round']))
            sentence = _("Round {round} is over. Last turn: {sentence}").format(round=t['round'], sentence=sentence)
            round_end = self._round_end
        return {"message": sentence + go_on, "phase_words": words, "busy_words": busy, "round_end": round_end,
                "turn": t}

    def turn_view(self, view: dict, t: dict) -> dict:
        """The table's view with every card of the finished turn ``t`` face up where it was played, its named
        item (all public: the whole table saw these cards)."""
        view = dict(view)
        ranges = V.deck_ranges(self.game.cards)
        faces = dict(view.get("cards", {}))
        for _seat, c in t["plays"]:
            faces.setdefault(c, V.pal_face(self.game.by_id[c], ranges, self.game.items))
        view.update(cards=faces, trick=[{"player": seat, "card": c} for seat, c in t["plays"]],
                    item=t["item"], item_label=ITEM_SHORT[t["item"]], my_turn=False, leading=False,
                    seats=[dict(p, to_play=False) for p in view.get("seats", [])])
        return view

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

    def my_turn(self) -> bool:
        s = self.state
        return not s.is_terminal() and s.current_player == self.learner and not self.paused

    def _name(self, seat: int) -> str:
        return _("You") if seat == self.learner else _("Player {seat}").format(seat=seat)

    def _card(self, cid: str) -> str:
        return html.escape(pal_name(self.game.by_id[cid]))  # issue 27: no card ids (K12) in a learner's sentences

    def _bot_step(self) -> None:
        s = self.state
        seat = s.current_player
        action = self.bots[seat].choose(s.observation(seat), s.legal_actions())
        self._apply(action)
        self._collect()

    def advance(self, to_round_end: bool = False) -> None:
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
            self._events.append(self.turn_html(t, number))
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
                self._events.append(self.round_html(t["round"]))
        self._turns_seen = len(turns)
        if self.state.is_terminal() and not any("safari-game-over" in e for e in self._events):
            self._events.append(self.game_html())

    def _record_play(self, pr: Prediction) -> None:
        """Record a settled play for the class experiment (issue 21): the chance the lab showed for it, the best
        chance in the hand, the item named and whether it won. A play by "Play to end of round" (``auto``) is
        the lab's choice of the best option, not the learner's prediction: it is not recorded."""
        if not pr.auto and self.on_play is not None:
            self.on_play(dict(chance=pr.p, outcome=1 if pr.won else 0, best=pr.best_p, item=pr.item))

    def _round_over(self, rnd: int) -> bool:
        s = self.state
        return s.is_terminal() or s.round != rnd

    def spoken_status(self) -> str:
        """The status line for the ear: on the learner's turn, first the cards already played in it (a
        sighted learner sees them on the table before choosing)."""
        s = self.state
        if self.my_turn() and s.trick:
            return f"{trick_words(self.game, s.trick, s.item, self.learner)} {self.status_text()}"
        return self.status_text()

    def _last_mine(self) -> int | None:
        """Index of the last completed turn if the learner played in it (the game's last turn, at the end)."""
        turns = self.state.completed_turns
        if turns and any(seat == self.learner for seat, _ in turns[-1]["plays"]):
            return len(turns) - 1
        return None

    def shown_turn(self) -> tuple[int, dict]:
        i = self._pause if self._pause is not None else self._last_mine()
        return i, self.state.completed_turns[i]

    def pick_words(self) -> str:
        """What the learner has picked and what is left to do, in one line."""
        s, card, item = self.state, self._picked_card, self._picked_item
        name = pal_name(self.game.by_id[card]) if card else None
        if s.trick:
            counts = _("{item} counts this turn.").format(item=ITEM_SHORT[s.item])
            if card is None:
                return _("Your turn: pick a card, then press Play. {counts}").format(counts=counts)
            return _("{name} picked: press Play to play it (or pick another card). {counts}").format(
                name=name, counts=counts)
        if card is None and item is None:
            return _("You lead: pick a card and a data item (in any order), then press Play.")
        if card is None:
            return _("{item} picked: now pick the card to play, then press Play.").format(item=ITEM_SHORT[item])
        if item is None:
            return _("{name} picked: now pick the data item to name, then press Play.").format(name=name)
        return (_("{name}, naming {item}: press Play (or pick another card or data item to change your mind).").format(
            name=name, item=ITEM_SHORT[item]))

    def status_text(self) -> str:
        s = self.state
        if self.round_over:
            rnd = self.round_over
            return _("Round {rnd} is over. {round_sentence} Press Next round to start round {round}.").format(
                rnd=rnd, round_sentence=self.round_sentence(rnd), round=s.round)
        if self._pause is not None:
            t = s.completed_turns[self._pause]
            return (_("You won this turn (see below and on the table). Press Next turn to go on.")
                    if t["winner"] == self.learner else
                    _("You lost this turn (see below and on the table). Press Next turn to go on."))
        if s.is_terminal():
            return _("Game over: see the last turn and the scores beside the table. Press New game for "
                     "another deal.")
        if self.learner in s.out:
            return _("You are out (you won no turn in a round). Press 'Play to end of round' to watch round "
                     "{round}.").format(round=s.round)
        if self.my_turn():
            return self.pick_words()
        return _("The bots are playing.")
