"""The Identification lab's panels as HTML and words: the chances beside the table (hidden until the guess for a
joined learner), the table of every clue type at every place, the expected cards of each choice, and the tally of
guesses against outcomes with its miss (Brier) scores. No widgets.

A mixin of :class:`~safari_kit.presentation.identification_flow.IdentificationFlow` (issue 28), which holds the
state they read. Every chance is computed from the learner's own knowledge
(:meth:`~safari_kit.presentation.identification_flow.IdentificationFlow.knowledge_now`), with what they remember
and knowing nothing (:data:`NOTHING`).
"""
from __future__ import annotations

import html
from fractions import Fraction

from safari_kit.core.i18n import _, ngettext
from safari_kit.presentation.numbers import decimal
from safari_kit.presentation.chance_html import count_html, count_lines, count_of
from safari_kit.presentation.narration import card_label, types_label
from safari_kit.presentation.spoken import chance_words
from safari_kit.probability import witness as PW
from safari_kit.probability.distributions import Exact
from safari_kit.probability.knowledge import Memory
from safari_kit.witness import actions as A

__all__ = ["IdentificationPanels", "NOTHING", "brier", "with_count"]

#: knowing nothing: only what is face up now and the archives
NOTHING = Memory(last_k=0)


def brier(pairs) -> float | None:
    """Mean of (forecast − outcome)² over ``(forecast, outcome)`` pairs; None for no pairs."""
    pairs = [(float(p), 1.0 if o else 0.0) for p, o in pairs]
    if not pairs:
        return None
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)


def with_count(value: Fraction, count):
    """An exact value with its count, for :func:`count_html` (count first in the tally too)."""
    return Exact(value, count=tuple(count)) if count else value


class IdentificationPanels:
    """What the Identification lab writes beside and under the table (see the module's docstring)."""

    def panel_html(self, picked_types, show_exact: bool, joined: bool) -> tuple[str, str, dict]:
        """(the side panel, the table of every chance, the chances drawn under the places).

        ``picked_types``: the clue type picked; ``show_exact``: the "Show the exact chances" box; ``joined``: the
        learner joined the class experiment. Drawing an exact chance sets :attr:`chance_shown`."""
        state = self.state
        parts = ["<div class='safari-prob-panel'>"]
        if self.last_result:
            parts.append("<p class='safari-last'><b>" + html.escape(_("Last reveal:")) + "</b> "
                         f"{html.escape(self.last_result)}</p>")
        if state.phase == "face_up":
            parts.append("<p>" + _("<b>Remember the face-up cards</b> (framed in orange on the table), "
                                   "then press <b>Next turn</b>.") + "</p></div>")
            return "".join(parts), "", {}
        if not self.my_turn or state.phase not in ("choose", "identify"):
            parts.append("<p>" + html.escape(_("The chances appear on your turn.")) + "</p></div>")
            return "".join(parts), "", {}
        kn, kn0 = self.knowledge_now(), self.knowledge_now(NOTHING)
        clue = self.clue_for_panel(kn)
        if clue is None:
            return "".join(parts) + "</div>", "", {}
        clue_id = self.game.cards[clue].id
        unresolved = list(kn.unresolved) if state.phase == "identify" else []
        if len(unresolved) > 1:
            parts.append("<p>" + (_("<b>Identifying now</b> (first of your two clue cards; click the other one on "
                                    "the table to switch): {card}") if clue == unresolved[0] else
                                  _("<b>Identifying now</b> (second of your two clue cards; click the other one on "
                                    "the table to switch): {card}")).format(
                                        card=html.escape(card_label(self.game, clue_id))) + "</p>")
        else:
            parts.append("<p><b>" + html.escape(_("Clue card:"))
                         + f"</b> {html.escape(card_label(self.game, clue_id))}</p>")
        if not show_exact:
            words = (_("The exact chances are hidden until you guess, so the class sees your own guesses. Type your "
                       "guess, press Reveal, then compare in the tally.") if joined else
                     _("Exact chances hidden: make your guess, reveal, then compare in the tally."))
            parts.append(f"<p class='safari-guess-first'><i>{html.escape(words)}</i></p></div>")
            return "".join(parts), "", {}
        self.chance_shown = True  # what follows shows exact chances: a guess made now was made seeing them
        if joined:
            parts.append("<p class='safari-guess-first'><small>"
                         + html.escape(_("You can see the exact chances, so your next guess will not count for "
                                         "the class.")) + "</small></p>")
        places = list(kn.available)
        type_choices = state.type_choices()
        picked_types = picked_types if state.phase == "identify" else None
        best = PW.best_declaration(kn, clue, places, type_choices) if places else None
        notes = {}
        if picked_types:
            for p in places:
                v = self.p_match(kn, clue, p, picked_types)
                notes[("place", p)] = (count_lines(v), chance_words(picked_types, count_of(v), v.value))
            parts.append("<p>" + _("Under each place: the chance it matches your clue by <b>{types}</b>. It uses what "
                                   "you remember; {n} cards are still unknown to you.").format(
                                       types=html.escape(types_label(picked_types)), n=len(kn.pool)) + "</p>")
            if self.picked_place is not None:
                v = self.p_match(kn, clue, self.picked_place, picked_types)
                v0 = self.p_match(kn0, clue, self.picked_place, picked_types)
                parts.append("<p>" + _("Place {place}: chance <b>{chance}</b>").format(
                                 place=self.picked_place, chance=count_html(v))
                             + " <small style='color:#555'>"
                             + _("(knowing nothing: {chance})").format(chance=count_html(v0)) + "</small></p>")
        if best:
            parts.append("<p>" + _("Best choice: <b>{types} at place {place}</b>, chance {chance}.").format(
                types=html.escape(types_label(best[1])), place=best[0],
                chance=count_html(self.p_match(kn, clue, best[0], best[1]))) + "</p>")
        parts.append(self._ev_html(kn, kn0))
        parts.append("</div>")
        return "".join(parts), self._every_chance_html(kn, kn0, clue, places, type_choices, picked_types, best), notes

    def _every_chance_html(self, kn, kn0, clue, places, type_choices, picked_types, best) -> str:
        head = "".join("<th>" + html.escape(_("Place {place}").format(place=p)) + "<br>"
                       f"<small>{html.escape(self._place_words(kn, p))}</small></th>" for p in places)
        rows = []
        for types in type_choices:
            cells = []
            for p in places:
                v = self.p_match(kn, clue, p, types)
                v0 = self.p_match(kn0, clue, p, types)
                cls = ["safari-prob-cell"]
                if picked_types == types and p == self.picked_place:
                    cls.append("safari-picked")
                if best and best[0] == p and best[1] == types:
                    cls.append("safari-best")
                style = "background:#fff3c4;" if "safari-picked" in cls else ""
                style += "font-weight:bold;" if "safari-best" in cls else ""
                cells.append(f"<td class='{' '.join(cls)}' data-types='{'+'.join(types)}' data-place='{p}' "
                             f"style='{style}padding:2px 6px'>{count_html(v)}"
                             "<br><small style='color:#5c5c5c'>"
                             + _("knowing nothing: {chance}").format(chance=count_html(v0)) + "</small></td>")
            rows.append(f"<tr><th style='text-align:left'>{html.escape(types_label(types))}</th>{''.join(cells)}</tr>")
        return ("<details class='safari-prob-details'><summary>"
                + _("<b>Every clue type at every place</b> (with what you remember, and knowing nothing)")
                + "</summary><p>"
                + _("The chance that the card at each place matches your clue. The first number uses what you "
                    "remember ({n} cards unknown to you). The small one is <small>knowing nothing</small> ({n0} "
                    "cards).").format(n=len(kn.pool), n0=len(kn0.pool)) + "</p>"
                "<table class='safari-prob-table' style='border-collapse:collapse'>"
                f"<tr><th></th>{head}</tr>{''.join(rows)}</table></details>")

    def _place_words(self, kn, p) -> str:
        if p in kn.known:
            return _("remembered: {card}").format(card=card_label(self.game, self.game.cards[kn.known[p]].id))  # #27
        if p in kn.mixed:
            return _("one of a SAM pair")
        return _("unknown")

    def _ev_html(self, kn, kn0) -> str:
        state = self.state
        out = ["<div class='safari-ev'>"]
        if state.phase == "choose":
            vals = PW.choice_values(kn, with_reveal_another=state.is_legal(A.RevealAnother()))
            vals0 = PW.choice_values(kn0, with_reveal_another=state.is_legal(A.RevealAnother()))
            out.append("<p>" + _("<b>Expected cards archived</b>, on average. One clue card: 2 × its chance of a "
                                 "match. Two clue cards: 4 × the chance both match.") + "</p><ul>")
            for key, words in (("identify", _("Identify now")), ("reveal_another", _("Reveal another"))):
                if key in vals:
                    out.append(f"<li>{words}: {count_html(vals[key].value)} "
                               "<small style='color:#5c5c5c'>"
                               + _("(knowing nothing: {chance})").format(chance=count_html(vals0[key].value))
                               + "</small></li>")
            out.append("</ul>")
            if "reveal_another" in vals:
                better = vals["reveal_another"].value > vals["identify"].value
                out.append("<p>" + _("Reveal another is worth it when P(both succeed) &gt; p/2. Here p is the chance "
                                     "of a match now, and P(both succeed) is the chance both match. P(both) = p₁·p₂, "
                                     "where p₂ is the chance of the second match <i>given that the first "
                                     "succeeded</i>. It is not the two chances multiplied as if each were alone: "
                                     "both places hide cards from the same deck.") + " "
                           + (_("With what you remember, <b>Reveal another</b> is better on average.") if better else
                              _("With what you remember, <b>Identify now</b> is better on average.")) + "</p>")
        elif len(kn.unresolved) >= 2:
            plan = PW.best_two_clue_plan(kn, kn.unresolved[0], kn.unresolved[1])
            if plan:
                (p1, t1), (p2, t2), both = plan
                out.append("<p>" + _("Two clue cards: the best plan is {types1} at place {place1}, then {types2} at "
                                     "place {place2}. P(both succeed), the chance both match, is {chance}. So you "
                                     "expect 4 × that = {cards} cards.").format(
                    types1=html.escape(types_label(t1)), place1=p1, types2=html.escape(types_label(t2)), place2=p2,
                    chance=count_html(both.value), cards=count_html(4 * both.value)) + "</p>")
        out.append("</div>")
        return "".join(out)

    def tally_html(self) -> str:
        preds = self.predictions
        if not preds:
            return ("<div class='safari-tally-summary'>"
                    + html.escape(_("No reveal yet. Type a guess before each reveal and see how well you predict."))
                    + "</div>")
        rows = []
        for k, r in enumerate(preds, 1):
            guess = "—" if r.guess is None else decimal(r.guess, 2)
            rows.append(f"<tr><td>{k}</td><td>{r.turn}</td><td>{html.escape(types_label(r.types))}</td>"
                        f"<td>{r.place}</td><td>{guess}</td><td>{count_html(with_count(r.exact, r.exact_count))}</td>"
                        f"<td>{count_html(with_count(r.nothing, r.nothing_count))}</td>"
                        "<td>" + html.escape(_("✔ match") if r.success else _("✘ no")) + "</td></tr>")
        heads = ("#", _("Turn"), _("Type"), _("Place"), _("Your guess"), _("Exact P"), _("Knowing nothing"),
                 _("Outcome"))
        return ("<table class='safari-tally-table' style='border-collapse:collapse'>"
                "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>" + "".join(rows) + "</table>"
                + f"<div class='safari-tally-summary'>{html.escape(self.tally_text())}</div>")

    def tally_summary(self) -> dict:
        """Numbers of the tally: counts, means, Brier scores (guesses: only the reveals with a guess)."""
        preds = self.predictions
        guessed = [r for r in preds if r.guess is not None]
        n = len(preds)
        return {
            "reveals": n,
            "successes": sum(r.success for r in preds),
            "fraction_success": (sum(r.success for r in preds) / n) if n else None,
            "mean_exact": (float(sum(r.exact for r in preds)) / n) if n else None,
            "guesses": len(guessed),
            "mean_guess": (sum(r.guess for r in guessed) / len(guessed)) if guessed else None,
            "success_when_guessed": (sum(r.success for r in guessed) / len(guessed)) if guessed else None,
            "brier_guess": brier((r.guess, r.success) for r in guessed),
            "brier_exact_same": brier((r.exact, r.success) for r in guessed),
            "brier_exact": brier((r.exact, r.success) for r in preds),
        }

    def tally_text(self) -> str:
        s = self.tally_summary()
        text = ngettext("{n} reveal: {matched} matched ({share}); the exact chances averaged {mean}.",
                        "{n} reveals: {matched} matched ({share}); the exact chances averaged {mean}.",
                        s["reveals"]).format(n=s["reveals"], matched=s["successes"],
                                             share=decimal(s["fraction_success"], 2), mean=decimal(s["mean_exact"]))
        if s["guesses"]:
            text += " " + ngettext(
                "Your {n} guess averaged {mean}; {share} of those reveals matched. Miss score: yours {yours}, the "
                "exact chances' {exact}.",
                "Your {n} guesses averaged {mean}; {share} of those reveals matched. Miss score: yours {yours}, the "
                "exact chances' {exact}.", s["guesses"]).format(
                    n=s["guesses"], mean=decimal(s["mean_guess"]), share=decimal(s["success_when_guessed"], 2),
                    yours=decimal(s["brier_guess"]), exact=decimal(s["brier_exact_same"]))
            text += " " + _("Lower is better. (The miss score, or Brier score, is the average of (guess − outcome)², "
                            "with outcome 1 for a match and 0 for none.)")
        return text
