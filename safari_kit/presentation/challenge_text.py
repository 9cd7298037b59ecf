"""The Challenge lab's words on the page: the decision box, the chances panel, the end-of-turn summary.

Kept apart from :mod:`safari_kit.widgets.labs.challenge` (the widgets) and
:mod:`safari_kit.presentation.challenge_flow` (the turns) so the HTML can be read and tested without widgets
(issue 28). Every function reads a :class:`~safari_kit.presentation.challenge_flow.ChallengeFlow`; every number
comes from :mod:`safari_kit.probability.witness` on the learner's knowledge; nothing here decides a rule.
What the page may show is only what the learner's observation holds: no card under a face-down back.
"""
from __future__ import annotations

import html
from fractions import Fraction

from safari_kit.core.i18n import N_, _, ngettext
from safari_kit.presentation.chance_html import count_html, count_lines, fraction_html
from safari_kit.presentation.challenge_flow import MIN_SAFE
from safari_kit.presentation.narration import card_label, types_label
from safari_kit.presentation.numbers import decimal
from safari_kit.presentation.spoken import count_words
from safari_kit.probability import witness as PW
from safari_kit.simulation import challenge_positions as CP

__all__ = ["STEP_CELL", "STOP_COLUMN", "decide_html", "panel_html", "safe_notes", "summary_html",
           "table_message", "why_html"]

#: the header of the summary's n column: n counts the cards a stop archives, not the safe reveals
STOP_COLUMN = N_("n = cards archived if you stop now")  # said with _(STOP_COLUMN)
#: the Challenge lab's starting positions, by their titles in safari_kit.simulation.challenge_positions (the
#: catalogue's copy: the lab's list says them with _(title); tests/i18n checks the two lists agree)
POSITION_TITLES = (N_("Mid-game: stop or go on?"), N_("Fresh table (first turn)"), N_("Mid-game: a close call"),
                   N_("Mid-game: a sure identification"))
#: the positions' sentences (``why`` and ``kind_why``), the catalogue's copy, said with _(pos.why)
POSITION_WORDS = (
    N_("There are 7 face-down places, and you remember 5 of them. All 5 are safe for your clue, so your first 5 "
       "reveals are sure. Then you decide: stop with 6 cards, or risk them all on a place that is safe with chance "
       "26/69 ≈ 0.38."),
    N_("You remember 5 face-down places that are safe for your clue. Reveal them first, and you will surely reach "
       "the moment to stop or go on. The places you do not remember are a real risk."),
    N_("There are 4 face-down places, and you remember none of them. All 4 must be safe before you may stop. For "
       "the TAM Elephant that chance is 31465/1150626 ≈ 0.027. So Identify (14/37 ≈ 0.38 cards on average) beats "
       "Challenge (about 0.14)."),
    N_("There are 8 face-down places, and you remember 5 of them. 3 are safe for your clue, and 2 match it. So "
       "Identify archives 2 cards for sure. A Challenge gives 3 sure reveals, then one safe with chance 28/69: on "
       "average it archives 140/69 ≈ 2.03 cards."),
    N_("There are 7 face-down places, and you remember 5 of them. 3 share something with your clue, so Identify "
       "archives 2 cards for sure. Only 2 of the places you remember are safe, so a Challenge is worth less than 1 "
       "card."),
)
#: every cell of the end-of-challenge table: padded apart, so its headers never run together (issue 27)
STEP_CELL = "padding:2px 12px 2px 0;text-align:left;vertical-align:bottom"


def table_message(flow) -> str | None:
    """The table's one line: what to do now (None when the game is over)."""
    state = flow.state
    if flow.in_challenge:  # one way to reveal, said as one: the button is a click on the safest place (issue 27)
        return _("{n} safe so far. Click a face-down place to reveal it, or press Reveal one more for the safest "
                 "place.").format(n=state.safe)
    if flow.choosing:
        return _("Your turn: press Identify or Challenge.")
    if state.is_terminal():
        return None
    if state.phase == "face_up":
        return (_("Your turn failed: remember the face-up cards, then press Next turn.")
                if state.current_player == flow.learner else
                _("Player {player} failed: remember the face-up cards, then press Next turn.").format(
                    player=state.current_player))
    return _("Your turn is over: press Next turn.")


def safe_notes(flow) -> dict:
    """P(safe) under each face-down place, count first (the lesson's form)."""
    try:
        pos = flow.position()
    except Exception:  # noqa: BLE001 - the panel reports errors; the notes just stay empty
        return {}
    a, n = pos["pos"]["a"], pos["pos"]["n"]
    notes = {}
    for q, v in pos["per_place"].items():
        v = Fraction(v)
        # (what is written under the place, what a screen reader says after the place's name; issue 20)
        if v == 1:
            notes[("place", q)] = (_("safe\nfor sure"), _("safe for sure"))
        elif v == 0:
            notes[("place", q)] = (_("not safe"), _("not safe for sure"))
        elif n and v == Fraction(a, n):  # an unknown place: S safe among the N unknown cards
            notes[("place", q)] = (f"{a}/{n}\n≈ {decimal(v, 2)}",
                                   _("chance it is safe {chance}").format(chance=count_words(Fraction(a, n), (a, n))))
        else:
            notes[("place", q)] = (count_lines(v), _("chance it is safe {chance}").format(chance=count_words(v)))
    return notes


def why_html(flow, secret: bool, seed: int) -> str:
    """Why this position (its sentence), only on its first turn and only when this deal makes it true;
    on later turns (and other deals) the facts of the turn shown, computed from the learner's view."""
    pos = flow.start_position
    first = not flow.history  # no turn of the learner's finished since the deal
    own = (first and not secret and seed == pos.seed and flow.deck_order is None and bool(pos.why)
           and flow.first_claims_hold)
    f = flow.turn_facts
    out = ["<div style='margin:2px 0 6px 0;color:#234'>"]
    kind = (first and not own and bool(pos.kind_why) and flow.first_facts is not None
            and CP.fits_kind(pos, flow.first_facts))
    why_head = "<b>" + html.escape(_("Why this position:")) + "</b> "
    if own:
        out.append(why_head + html.escape(_(pos.why)))
    elif kind:  # every deal of this position is of its kind (issue 27): its sentence holds on this deal too
        out.append(why_head + html.escape(_(pos.kind_why)))
    elif first and pos.why:
        out.append(_("<b>A new deal of this kind.</b> The bots played the same number of turns. The numbers below "
                     "are for this deal.") if secret else
                   _("<b>A new deal of this kind.</b> The bots played the same number of turns (seed {seed}). The "
                     "numbers below are for this deal.").format(seed=seed))
    if f is not None and not own:
        facts = dict(n=f['face_down'], remembered=f['remembered'], safe=f['remembered_safe'])
        words = (_("At your first turn here: {n} face-down places; you remember {remembered} of them ({safe} safe "
                   "for your clue).").format(**facts) if first else
                 _("At the start of this turn (turn {turn}): {n} face-down places; you remember {remembered} of "
                   "them ({safe} safe for your clue).").format(turn=f['turn'], **facts))
        out.append(("<br>" if first and pos.why else "") + f"<span class='safari-facts'>{words}</span>")
    out.append("</div>")
    return "".join(out)


def box(inner: str, extra: str = "", color: str = "#2a6fb0") -> str:
    return (f"<div class='safari-decide-box {extra}' style='border:2px solid {color};border-radius:8px;"
            f"padding:6px 10px;margin:4px 0;background:#f6f9fd;line-height:1.45'>{inner}</div>")


def decide_html(flow) -> str:
    state = flow.state
    if flow.choosing:
        return box(choice_html(flow))
    if flow.in_challenge:
        return box(stop_or_go_html(flow), "safari-decision-now" if flow.decision_now else "",
                   "#c77700" if flow.decision_now else "#2a6fb0")
    if state.is_terminal():
        return box(f"<p style='margin:0'>{html.escape(flow.over_text())}</p>", color="#888")
    if flow.result:
        return box(f"<p style='margin:0'>{html.escape(flow.result)}</p>", color="#888")
    return ""


def choice_html(flow) -> str:
    kn = flow.knowledge()
    v = flow.choice_values or CP.lab_choice_values(kn)
    clue = flow.game.cards[kn.clue[0]]
    best = PW.best_declaration(kn)
    p4 = PW.p_streak(kn, MIN_SAFE, kn.clue[0]).value
    cpos = PW.challenge_position(kn, kn.clue[0])
    better = flow.better()
    more = " <b style='color:#1b7f3b'>&larr; " + _("more") + "</b>"
    mark = {k: (more if better == k else "") for k in v}
    ident = _("Best: {types} at place {place}. Chance of a match: {chance}. A match archives 2 cards: your clue and "
              "that card.").format(types=types_label(best[1]).lower(), place=best[0],
                                   chance=count_html(PW.p_match(kn, clue.id, best[0], best[1])))
    safe_known = len(cpos["safe_places"])
    chal = (_("Chance that the first 4 reveals are all safe: {chance}.").format(chance=fraction_html(p4))
            + (" " + ngettext("You remember {n} safe place: reveal it first.",
                              "You remember {n} safe places: reveal them first.", safe_known).format(n=safe_known)
               if safe_known else "")
            + " " + _("Then stop or go on by the rule."))
    return ("<p style='margin:0 0 4px 0'>"
            + _("<b>Your turn.</b> Your clue card: <b>{card}</b>. Which choice archives more cards, on "
                "average?").format(card=html.escape(card_label(flow.game, clue.id))) + "</p>"
            "<table class='safari-choice' style='border-collapse:collapse'>"
            "<tr><th style='text-align:left;padding-right:10px'>" + html.escape(_("Choice")) + "</th>"
            "<th style='text-align:left'>" + html.escape(_("Expected cards archived")) + "</th></tr>"
            "<tr data-choice='identify'><td><b>" + html.escape(_("Identify")) + "</b></td>"
            f"<td class='safari-ev-identify'>{count_html(v['identify'])}{mark['identify']}</td></tr>"
            f"<tr class='safari-how'><td colspan='2'><small>{ident}</small></td></tr>"
            "<tr data-choice='challenge'><td><b>" + html.escape(_("Challenge")) + "</b></td>"
            f"<td class='safari-ev-challenge'>{count_html(v['challenge'])}{mark['challenge']}</td></tr>"
            f"<tr class='safari-how'><td colspan='2'><small>{chal}</small></td></tr></table>")


def stop_or_go_html(flow) -> str:
    pos = flow.position()
    s = pos["s"]
    n = 1 + s
    card = card_label(flow.game, flow.game.cards[pos["pos"]["card"]].id)
    head = ("<p style='margin:0 0 4px 0'>"
            + ngettext("<b>Challenge</b> with {card}. Safe so far: <b>{s}</b>. If you stop now you archive <b>n = "
                       "{n}</b> card (the challenged card + {s} safe).",
                       "<b>Challenge</b> with {card}. Safe so far: <b>{s}</b>. If you stop now you archive <b>n = "
                       "{n}</b> cards (the challenged card + {s} safe).", n).format(card=html.escape(card), s=s, n=n)
            + "</p>")
    if flow.decision_now:
        head = ("<p style='margin:0 0 4px 0;font-size:110%'><b>" + html.escape(_("Decide: Stop now, or reveal one "
                                                                                 "more?")) + "</b></p>" + head)
    stop = (_("not allowed yet (fewer than 4 safe)") if pos["stop"] is None
            else _("<b>{cards} cards</b> for sure").format(cards=fraction_html(pos['stop'])))
    cont = "—" if pos["continue"] is None else _("<b>{cards} cards</b> on average").format(
        cards=fraction_html(pos['continue']))
    ev = ("<div class='safari-ev'>"
          + _("Stop now: {stop}. Reveal one more (then play the best way): {go_on}. Chance the next reveal is safe: "
              "<b>{chance}</b>.").format(stop=stop, go_on=cont, chance=fraction_html(pos['p_next'])) + "</div>")
    rule_words = _("The rule: reveal on only while that chance is more than n/(n+1), where n = the cards archived "
                   "if you stop now.")
    if s >= MIN_SAFE:
        go = pos["p_next"] > pos["threshold"]
        rule = ("<div class='safari-rule'>" + rule_words + " "
                + (_("Here n = {n}, so compare {chance} with {n}/{n1} &rarr; <b>reveal on</b>.") if go else
                   _("Here n = {n}, so compare {chance} with {n}/{n1} &rarr; <b>stop</b>.")).format(
                       n=n, n1=n + 1, chance=fraction_html(pos['p_next'])) + "</div>")
    else:
        rule = ("<div class='safari-rule'>" + rule_words + " "
                + _("Before 4 safe reveals you must go on ({n} to go).").format(n=MIN_SAFE - s) + "</div>")
    return head + ev + rule


def memory_html(flow, kn, card: int) -> str:
    if not kn.known:
        return "<p class='safari-memory-none'>" + html.escape(_("You remember no face-down card.")) + "</p>"
    unsafe = PW.tables(flow.game).unsafe[card]
    rows = []
    for place in kn.face_down:
        if place not in kn.known:
            continue
        c = kn.known[place]
        safe = not (unsafe >> c) & 1
        verdict = ("<span style='color:#1b7f3b'>" + html.escape(_("safe")) + "</span>" if safe
                   else "<span style='color:#a33' title='" + html.escape(_("it shares something with your clue"))
                   + "'>" + html.escape(_("not safe")) + "</span>")
        rows.append("<tr><td>" + html.escape(_("Place {place}").format(place=place)) + "</td><td>"
                    f"{html.escape(card_label(flow.game, flow.game.cards[c].id))}</td><td>{verdict}</td></tr>")
    return ("<table class='safari-memory' style='border-collapse:collapse'><tr><th colspan='3' "
            "style='text-align:left'>" + html.escape(_("What you remember (face-down cards you have seen)"))
            + "</th></tr>"
            + "".join(rows) + "</table>")


def panel_html(flow) -> str:
    kn = flow.knowledge()
    if flow.choosing:
        return "<div class='safari-prob-panel'>" + memory_html(flow, kn, kn.clue[0]) + "</div>"
    pos = flow.position()
    p = pos["pos"]
    out = ["<div class='safari-prob-panel'>",
           "<p>" + (ngettext("Unknown cards: {n}. Safe ones among them: {a}. You remember {k} safe place.",
                             "Unknown cards: {n}. Safe ones among them: {a}. You remember {k} safe places.",
                             len(p['safe_places'])) if p["safe_places"]
                    else _("Unknown cards: {n}. Safe ones among them: {a}.")).format(
                        n=p['n'], a=p['a'], k=len(p['safe_places'])) + "</p>",
           "<p class='safari-p-safe'>" + _("Chance the next reveal is safe: <b>{chance}</b>").format(
               chance=count_html(pos['p_next_exact'])) + "</p>"]
    out.append("<p class='safari-places-note'>" + html.escape(_("Under each face-down place on the table: the chance "
                                                                "it is safe.")) + "</p>")
    if pos["streak"]:
        rows = "".join("<tr><td style='padding:0 10px 0 0'>" + html.escape(_("{k} more").format(k=k))
                       + f"</td><td>{count_html(v)}</td></tr>" for k, v in pos["streak_exact"].items())
        out.append("<table class='safari-streak' style='border-collapse:collapse'>"
                   "<tr><th style='text-align:left;padding-right:10px'>" + html.escape(_("Reveal k more")) + "</th>"
                   "<th style='text-align:left'>" + html.escape(_("Chance all k are safe"))
                   + f"</th></tr>{rows}</table>")
    out.append(memory_html(flow, kn, p["card"]))
    out.append("</div>")
    return "".join(out)


def summary_html(flow) -> str:
    last = flow.history[-1]
    v = last.get("values") or {}
    parts = []
    if v:
        chose = last["kind"]
        ok = chose == last["better"]
        n = last['archived']
        words = (ngettext("You chose <b>{choice}</b>. Expected cards: Identify {identify}, Challenge {challenge}. "
                          "You chose the larger one ✔. You archived {n} card.",
                          "You chose <b>{choice}</b>. Expected cards: Identify {identify}, Challenge {challenge}. "
                          "You chose the larger one ✔. You archived {n} cards.", n) if ok else
                 ngettext("You chose <b>{choice}</b>. Expected cards: Identify {identify}, Challenge {challenge}. "
                          "You chose the smaller one ✘. You archived {n} card.",
                          "You chose <b>{choice}</b>. Expected cards: Identify {identify}, Challenge {challenge}. "
                          "You chose the smaller one ✘. You archived {n} cards.", n))
        parts.append(f"<p class='safari-choice-summary' data-agree='{'yes' if ok else 'no'}'>" + words.format(
            choice=_("Identify") if chose == "identify" else _("Challenge") if chose == "challenge"
            else chose.capitalize(), identify=fraction_html(v['identify']), challenge=fraction_html(v['challenge']),
            n=last['archived']) + "</p>")
    if last["kind"] == "challenge":
        parts.append(steps_html(last))
    total_got = sum(h["archived"] for h in flow.history)
    total_best = sum(max(h["values"].values()) if h.get("values") else (h["optimal_value"] or Fraction(0))
                     for h in flow.history)
    parts.append("<p>" + ngettext("Your turns here: {turns}. You archived {n} card in all. Always choosing the "
                                  "larger expected value, then stopping by the rule, expected {best} cards.",
                                  "Your turns here: {turns}. You archived {n} cards in all. Always choosing the "
                                  "larger expected value, then stopping by the rule, expected {best} cards.",
                                  total_got).format(
                               turns=len(flow.history), n=total_got, best=decimal(total_best, 2)) + "</p>")
    return "<div>" + "".join(parts) + "</div>"


def steps_html(last: dict) -> str:
    rows = []
    for k, st in enumerate(last["steps"], 1):
        cont = "—" if st.continue_value is None else fraction_html(st.continue_value)
        did = _("stop") if st.action == "stop" else _("reveal place {place}").format(place=st.place)
        outcome = "" if st.safe is None else (_("safe") if st.safe else _("NOT safe"))
        agree = "yes" if st.agrees else "no"
        mark = "✔" if st.agrees else "✘"
        optimal = _("reveal on") if st.optimal == "continue" else _("stop")
        if st.stop_value is None and st.optimal == "continue":
            optimal += " " + _("(must)")
        cells = (k, st.safe_so_far, st.n_if_stop, fraction_html(st.p_next), fraction_html(st.threshold), cont,
                 optimal, f"{html.escape(did)} {mark}", outcome)
        rows.append(f"<tr class='safari-step' data-agree='{agree}'>"  # a chance is never split over lines
                    + "".join(f"<td style='{STEP_CELL}{';white-space:nowrap' if 3 <= i <= 5 else ''}'>{c}</td>"
                              for i, c in enumerate(cells)) + "</tr>")
    agree = sum(st.agrees for st in last["steps"])
    # each cell padded and the headers wrapped above a line: at 9bdb9c7 the headers ran together (issue 27)
    heads = (_("Step"), _("Safe so far"), _(STOP_COLUMN), _("Chance the next is safe"), "n/(n+1)",
             _("Reveal one more: expected cards"), _("Best"), _("You"), _("Result"))
    head = "".join(f"<th style='{STEP_CELL};border-bottom:1px solid #999;max-width:9em'>{html.escape(h)}</th>"
                   for h in heads)
    return ("<p>" + _("<b>The best stopping rule.</b> Let n be the cards you archive if you stop now: the "
                      "challenged card and every safe card. Reveal on only while the chance the next card is safe is "
                      "more than n/(n+1). Before 4 safe reveals you must go on.") + "</p>"
            f"<table class='safari-steps' style='border-collapse:collapse;line-height:1.35'><tr>{head}</tr>"
            + "".join(rows) + "</table>"
            + "<p>" + ngettext("You followed the rule at {agree} of {steps} steps and archived {n} card. Playing by "
                               "the rule expected {best} cards from the start of this challenge.",
                               "You followed the rule at {agree} of {steps} steps and archived {n} cards. Playing by "
                               "the rule expected {best} cards from the start of this challenge.",
                               last['archived']).format(
                agree=agree, steps=len(last['steps']), n=last['archived'],
                best=fraction_html(last['optimal_value'] or Fraction(0))) + "</p>")
