"""The Knockout lab's panels and log, as HTML and words: the chances of every option on the learner's turn,
the result of a finished turn, the round's end, the turn log and the tally (no widgets).

A mixin of :class:`~safari_kit.presentation.knockout_flow.KnockoutFlow` (issue 28), which holds the state they
read: the game, the learner's seat, the predictions, the best option shown (``_best``), the picks. Every chance
is the probability layer's, of the learner's view; the sentences are :mod:`safari_kit.presentation.knockout_text`'s.
"""
from __future__ import annotations

import html
from fractions import Fraction

from safari_kit.presentation.table_words import ITEM_LABELS
from safari_kit.core.i18n import N_, _, and_join, ngettext
from safari_kit.presentation.card_words import pal_name
from safari_kit.presentation.numbers import decimal
from safari_kit.presentation.knockout_text import (
    ITEM_SHORT, ITEM_UNITS, chance_html, fmt_value, plays_table_html, result_sentence, tally_html, tie_words, why_html,
)
from safari_kit.probability.knockout import BEATEN_FORMULA, WinCount, card_strength, view_of, win_count

__all__ = ["KnockoutPanels"]

_fmt = fmt_value


#: the catalogue's copy of safari_kit.probability.knockout.BEATEN_FORMULA (that layer writes no words for learners)
BEATEN_WORDS = N_("0 (a card played earlier is at least as high)")

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
            chance = f"P {'= ' if Fraction(mine.p).denominator <= 1000 else ''}{chance_html(mine.p)}"
            shown = ("<div class='safari-note'>"
                     + (_("The chance of winning this turn was {chance} for your play.").format(chance=chance)
                        if mine.p == mine.best_p else
                        _("The chance of winning this turn was {chance} for your play (the &#9733; option had "
                          "{best}).").format(chance=chance, best=chance_html(mine.best_p))) + "</div>")
        color = "#1b7f3b" if won else "#a33"
        box = (f"<div class='safari-ko-result' data-result='{'won' if won else 'lost'}' "
               f"style='border-left:5px solid {color};background:{'#eef9ee' if won else '#fdf0ef'};"
               f"padding:6px 8px;margin:4px 0;font-size:14px'>{sentence}</div>")
        after = ""
        if s.is_terminal():
            after = self.game_html()
        go_on = ("<div>" + _("Press <b>Next turn</b> to go on.") + "</div>" if self.paused else "")
        plays = plays_table_html(self.game, t, self.learner, self._step, "over" if s.is_terminal() else "done")
        if self.round_over:  # the round's result first and big; the last turn under it
            go_on = "<div>" + _("Press <b>Next round</b> to start round {round}.").format(round=s.round) + "</div>"
            return (f"{self.round_over_html(t['round'])}{go_on}<div style='margin-top:6px'><b>"
                    + html.escape(_("Last turn of round {round}").format(round=t['round']))
                    + f"</b></div>{box}{shown}{plays}")
        return f"{box}{shown}{plays}{after}{go_on}"

    def round_sentence(self, rnd: int) -> str:
        """The round's result in words: turns won by each player who played, who goes out (Variation 1)."""
        s = self.state
        turns = [t for t in s.completed_turns if t["round"] == rnd]
        played = [seat for seat in range(self.players) if any(seat == p for t in turns for p, _ in t["plays"])]
        wins = {seat: sum(1 for t in turns if t["winner"] == seat) for seat in played}
        mine = (_("You won {won} of its {n} turns.").format(won=wins[self.learner], n=len(turns))
                if self.learner in wins else _("You watched its {n} turns.").format(n=len(turns)))
        others = ", ".join(_("Player {player}").format(player=seat) + f" {wins[seat]}"
                           for seat in played if seat != self.learner)
        text = mine + " " + _("Turns won by the others: {others}.").format(others=others)
        if self.game.elimination:
            out = [seat for seat in played if wins[seat] == 0]
            if not out:
                text += " " + _("Everybody won a turn, so nobody goes out.")
            elif self.learner in out:
                rest = [_("Player {player}").format(player=seat) for seat in out if seat != self.learner]
                text += " " + _("You won no turn, so you are out of the game.")
                if rest:
                    text += " " + ngettext("{names} is out too.", "{names} are out too.", len(rest)).format(
                        names=and_join(rest))
            else:
                names = and_join(_("Player {player}").format(player=seat) for seat in out)
                text += " " + ngettext("{names} won no turn and is out of the game.",
                                       "{names} won no turn and are out of the game.", len(out)).format(names=names)
        return text

    def round_over_html(self, rnd: int) -> str:
        """The end-of-round moment beside the table: "Round 1 is over", the round's result, the points."""
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(self.state.scores()))
        return (f"<div class='safari-ko-round-over' data-round='{rnd}' style='border:2px solid #2b5b9b;"
                f"background:#f4f8ff;padding:6px 10px;margin:4px 0;font-size:15px;line-height:1.45'>"
                "<div style='font-size:19px;font-weight:bold;color:#1f3f73'>"
                + html.escape(_("Round {round} is over").format(round=rnd)) + "</div>"
                f"<div>{html.escape(self.round_sentence(rnd))}</div><div>"
                + html.escape(_("Points so far (one point for each turn won): {scores}.").format(scores=scores))
                + "</div></div>")

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
            cells = [f"<td class='safari-card-name' title='{cid}'>{html.escape(pal_name(pal))}</td>"]
            for it in items:
                marks = []
                if cid == bc and (not leading or it == bi):
                    marks.append("safari-best")
                if cid == self._picked_card and (not leading or it == self._picked_item or self._picked_item is None):
                    marks.append("safari-picked")
                if leading and it == self._picked_item and self._picked_card is None:
                    marks.append("safari-picked")
                star = " &#9733;" if "safari-best" in marks else ""
                formula = formulas[(cid, it)]
                formula = _(formula) if formula == BEATEN_FORMULA else formula  # the one formula in words
                title = f"{ITEM_LABELS[it]}: {_fmt(pal.value(it))} {ITEM_UNITS[it]}; P = {formula}"
                cells.append(f"<td data-item='{it}' class='{' '.join(marks)}' title='{html.escape(title)}'>"
                             f"{chance_html(p[(cid, it)], short=True)}{star}</td>")
            body.append(f"<tr data-card='{cid}'{cls}>{''.join(cells)}</tr>")
        if leading:
            intro = _("<b>You lead.</b> P is the chance that your card wins the turn, for each data item you may "
                      "name. You win unless a player after you holds a strictly higher card.")
        else:
            played = ", ".join(f"{self._name(seat)}: {self._card(c)} "
                               f"({_fmt(self.game.by_id[c].value(s.item))} {ITEM_UNITS[s.item]})"
                               for seat, c in s.trick)
            intro = _("<b>You follow.</b> Named item: <b>{item}</b>. Played so far: {played}. To win, beat every card "
                      "already played (a tie goes to the earlier card). Then hope nobody after you holds a higher one. "
                      "P is your chance to win the turn:").format(item=ITEM_SHORT[s.item], played=played)
        count = win_count(self.game, view_of(s.observation(self.learner)), bc, bi if leading else s.item)
        note = why_html(self.game, count, leading, self.tie_words())
        table = (f"<table class='safari-prob-table' data-step='{self._step}' data-phase="
                 f"'{'lead' if leading else 'follow'}' data-best-card='{bc}' data-best-item='{bi or ''}'>"
                 "<tr><th>" + html.escape(_("Your card")) + f"</th>{head}</tr>{''.join(body)}</table>")
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
                      "< " + decimal(0.001) if p < Fraction(1, 1000) else f"≈ {decimal(p)}")
            # (what is written under the card, what a screen reader says after its name; issue 20)
            words = (_("certain") if p == 1 else _("under {x}").format(x=decimal(0.001)) if p < Fraction(1, 1000)
                     else _("about {x}").format(x=decimal(p)))
            if p == 0:
                notes[("card", cid)] = (_("P = 0 (loses)"), _("it cannot win this turn"))
            elif best.leading:
                notes[("card", cid)] = (f"{ITEM_SHORT[top.item]}: P {chance}",
                                        _("chance to win naming {item} {chance}").format(item=ITEM_SHORT[top.item],
                                                                                        chance=words))
            else:
                notes[("card", cid)] = (f"P {chance}", _("chance to win {chance}").format(chance=words))
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
        name = pal_name(self.game.by_id[bc])
        if not cards:  # only the same card on another data item
            items = _(" or ").join(ITEM_SHORT[o.item] for o in tied)
            return _("Naming {items} with your {card} gives the same chance.").format(items=items, card=name)
        strength = card_strength(self.game, bc)
        others = [card_strength(self.game, c) for c in cards]
        weaker = None if all(x == strength for x in others) else all(strength < x for x in others)
        return tie_words(name, [pal_name(self.game.by_id[c]) for c in cards], weaker)

    def idle_html(self) -> str:
        s = self.state
        phase = "over" if s.is_terminal() else "wait"
        if s.is_terminal():
            text = _("The game is over.")
        elif self.learner in s.out:
            text = _("You are out of the game: no chances to show. Watch how the others play.")
        else:
            text = _("{player} is playing.").format(player=self._name(s.current_player))
        return (f"<table class='safari-prob-table' data-step='{self._step}' data-phase='{phase}' "
                f"data-best-card='' data-best-item=''><tr><td>{text}</td></tr></table>")

    def turn_html(self, t: dict, n: int) -> str:
        plays = []
        for i, (seat, c) in enumerate(t["plays"]):
            v = self.game.by_id[c].value(t["item"])
            lead = (" " + (_("lead and name <b>{item}</b>") if seat == self.learner else
                           _("leads and names <b>{item}</b>")).format(item=ITEM_SHORT[t['item']]) if i == 0 else "")
            plays.append(f"<li>{self._name(seat)}{lead}: {self._card(c)} &mdash; "
                         f"{_fmt(v)} {ITEM_UNITS[t['item']]}</li>")
        won = self._name(t["winner"])
        return ("<div>" + _("<b>Round {round}, turn {n}</b> ({item}):").format(round=t['round'], n=n,
                                                                             item=ITEM_SHORT[t['item']])
                + f" <ol>{''.join(plays)}</ol>" + _("Winner: <b>{name}</b>.").format(name=won) + "</div>")

    def round_html(self, rnd: int) -> str:
        wins = [0] * self.players
        for t in self.state.completed_turns:
            if t["round"] == rnd:
                wins[t["winner"]] += 1
        played = [seat for seat in range(self.players)
                  if any(seat == p for t in self.state.completed_turns if t["round"] == rnd for p, _ in t["plays"])]
        words = ", ".join(f"{self._name(seat)} {wins[seat]}" for seat in played)
        out_now = [self._name(seat) for seat in played if wins[seat] == 0] if self.game.elimination else []
        out = " " + _("Out now (no turn won): {players}.").format(players=", ".join(out_now)) if out_now else ""
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(self.state.scores()))
        return ("<div style='background:#f4f8ff;padding:4px;margin:4px 0'>"
                + _("<b>End of round {round}.</b> Turns won this round: {words}.").format(round=rnd, words=words)
                + out + " " + _("Scores: {scores}.").format(scores=scores) + "</div>")

    def game_html(self) -> str:
        s = self.state
        winners = and_join(self._name(w) for w in s.winners())
        scores = ", ".join(f"{self._name(seat)} {sc}" for seat, sc in enumerate(s.scores()))
        done = [p for p in self.predictions if p.won is not None]
        exp = sum((p.p for p in done), Fraction(0))
        won = sum(1 for p in done if p.won)
        return ("<div class='safari-game-over' style='background:#eef9ee;padding:4px;margin:4px 0'>"
                + _("<b>Game over after round {round}.</b> Scores: {scores}.").format(round=s.round, scores=scores)
                + " " + ngettext("Winner: <b>{names}</b>.", "Winners: <b>{names}</b>.",
                                 max(len(s.winners()), 1)).format(names=winners)
                + " " + _("Your plays added up to {expected} expected turn wins; you won {won}.").format(
                    expected=decimal(exp, 2), won=won) + "</div>")

    def log_html(self) -> str:
        if not self._events:
            return "<div><i>" + html.escape(_("No turn finished yet.")) + "</i></div>"
        recent = self._events[-8:]
        more = ("<div class='safari-note'>" + html.escape(_("({n} earlier entries hidden)").format(
            n=len(self._events) - len(recent))) + "</div>" if len(self._events) > len(recent) else "")
        return "<div>" + _("<b>Turn log</b> (newest last)") + f"{more}{''.join(recent)}</div>"

    def tally_html(self) -> str:
        return tally_html(self.game, self.predictions)
