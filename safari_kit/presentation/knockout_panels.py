"""The Knockout lab's panels and log, as HTML and words: the chances of every option on the learner's turn,
the result of a finished turn, the round's end, the turn log and the tally (no widgets).

A mixin of :class:`~safari_kit.presentation.knockout_flow.KnockoutFlow` (issue 28), which holds the state they
read: the game, the learner's seat, the predictions, the best option shown (``_best``), the picks. Every chance
is the probability layer's, of the learner's view; the sentences are :mod:`safari_kit.presentation.knockout_text`'s.
"""
from __future__ import annotations

import html
from fractions import Fraction

from safari_kit.cards.model import DATA_ITEM_LABELS
from safari_kit.presentation.knockout_text import (
    ITEM_SHORT, ITEM_UNITS, chance_html, fmt_value, plays_table_html, result_sentence, tally_html, tie_words, why_html,
)
from safari_kit.probability.knockout import WinCount, card_strength, view_of, win_count

__all__ = ["KnockoutPanels"]

_fmt = fmt_value


class KnockoutPanels:
    """What the Knockout lab writes beside and under the table (see the module's docstring)."""

    def result_html(self) -> str:
        """Beside the table while a finished turn is shown: the result in words, the chance the lab had
        shown for the play, the plays in order with their values, and the end of round or game."""
        s = self.state
        i, t = self.shown_turn()
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
            after = self.game_html()
        go_on = ("<div>Press <b>Next turn</b> to go on.</div>" if self.paused else "")
        plays = plays_table_html(self.game, t, self.learner, self._step, "over" if s.is_terminal() else "done")
        if self.round_over:  # the round's result first and big; the last turn under it
            go_on = f"<div>Press <b>Next round</b> to start round {s.round}.</div>"
            return (f"{self.round_over_html(t['round'])}{go_on}<div style='margin-top:6px'><b>Last turn of "
                    f"round {t['round']}</b></div>{box}{shown}{plays}")
        return f"{box}{shown}{plays}{after}{go_on}"

    def round_sentence(self, rnd: int) -> str:
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

    def round_over_html(self, rnd: int) -> str:
        """The end-of-round moment beside the table: "Round 1 is over", the round's result, the points."""
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(self.state.scores()))
        return (f"<div class='safari-ko-round-over' data-round='{rnd}' style='border:2px solid #2b5b9b;"
                f"background:#f4f8ff;padding:6px 10px;margin:4px 0;font-size:15px;line-height:1.45'>"
                f"<div style='font-size:19px;font-weight:bold;color:#1f3f73'>Round {rnd} is over</div>"
                f"<div>{html.escape(self.round_sentence(rnd))}</div>"
                f"<div>Points so far (one point for each turn won): {scores}.</div></div>")

    def prob_html(self) -> str:
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
        note = why_html(self.game, count, leading, self.tie_words())
        table = (f"<table class='safari-prob-table' data-step='{self._step}' data-phase="
                 f"'{'lead' if leading else 'follow'}' data-best-card='{bc}' data-best-item='{bi or ''}'>"
                 f"<tr><th>Your card</th>{head}</tr>{''.join(body)}</table>")
        return f"<div>{intro}</div>{table}{note}"

    def hand_notes(self) -> dict:
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

    def why_html(self, c: WinCount, leading: bool) -> str:
        return why_html(self.game, c, leading, self.tie_words())

    def tie_words(self) -> str:
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

    def idle_html(self) -> str:
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

    def turn_html(self, t: dict, n: int) -> str:
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

    def round_html(self, rnd: int) -> str:
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

    def game_html(self) -> str:
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

    def log_html(self) -> str:
        if not self._events:
            return "<div><i>No turn finished yet.</i></div>"
        recent = self._events[-8:]
        more = (f"<div class='safari-note'>({len(self._events) - len(recent)} earlier entries hidden)</div>"
                if len(self._events) > len(recent) else "")
        return f"<div><b>Turn log</b> (newest last){more}{''.join(recent)}</div>"

    def tally_html(self) -> str:
        return tally_html(self.game, self.predictions)
