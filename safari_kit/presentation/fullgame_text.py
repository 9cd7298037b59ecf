"""The Full game lab's words on the page: what a seat picked, its news and TOM looks, the pass screen, the end.

Kept apart from :mod:`safari_kit.widgets.labs.fullgame` (the widgets) and
:mod:`safari_kit.presentation.fullgame_flow` (the turns) so the HTML can be read and tested without widgets
(issue 28). Each function reads a :class:`~safari_kit.presentation.fullgame_flow.FullGameFlow`; whatever a seat's
panel shows comes from that seat's observation only (hot-seat: nobody sees another seat's Case Card or TOM look).
"""
from __future__ import annotations

import html

from safari_kit.core.i18n import _, and_join, ngettext
from safari_kit.presentation.fullgame_flow import bot_words
from safari_kit.presentation.narration import card_label, describe_event, types_label
from safari_kit.presentation.case_words import case_text, case_why

__all__ = ["bot_failure_html", "fold_passes", "news_html", "over_html", "pass_html", "passes_html", "picked_html",
           "record_words", "tom_html"]

PASS_LINES = 12  # lines of the Device passes list on the page


def fold_passes(passes: list[dict]) -> list[str]:
    """The Device passes story in lines: an opening, then its repeat presses folded into one line with a count.

    Repeats never push an opening out: 13 repeat presses are one line ("pressed again 13 times").

    >>> for line in fold_passes([{"time": "10:00:00", "game": 1, "turn": 2, "seat": 0, "repeat": False}]
    ...                         + [{"time": "10:00:05", "game": 1, "turn": 2, "seat": 0, "repeat": True}] * 13):
    ...     print(line)
    10:00:00, game 1, turn 2: Player 0: the table was opened
    10:00:05, game 1, turn 2: Player 0: pressed again 13 times (the table was already open; last at 10:00:05)
    """
    lines: list[str] = []
    run: dict | None = None
    count = 0

    def flush():
        if run is not None:
            times = _("once") if count == 1 else _("{n} times").format(n=count)
            lines.append(_("{time}, game {game}, turn {turn}: Player {seat}: pressed again {times} (the table was "
                           "already open; last at {last})").format(time=run['first'], game=run['game'],
                                                                   turn=run['turn'], seat=run['seat'], times=times,
                                                                   last=run['last']))

    for p in passes:
        key = (p["game"], p["turn"], p["seat"])
        if p["repeat"] and run is not None and run["key"] == key:
            count += 1
            run["last"] = p["time"]
            continue
        flush()
        run, count = None, 0
        if p["repeat"]:
            run, count = {"key": key, "first": p["time"], "last": p["time"], "game": p["game"], "turn": p["turn"],
                          "seat": p["seat"]}, 1
        else:
            lines.append(_("{time}, game {game}, turn {turn}: Player {seat}: the table was opened").format(
                time=p['time'], game=p['game'], turn=p['turn'], seat=p['seat']))
    flush()
    return lines


def record_words(exc: Exception) -> str:
    """A refused record's message for the page: at most a few hundred characters (it never quotes a file)."""
    text = str(exc)
    return text if len(text) <= 300 else text[:297] + "..."


def picked_html(flow) -> str:
    """What the viewer picked so far for a declaration or an ability's targets."""
    if flow.state.phase == "identify" and flow.state.current_player == flow.viewer and flow.ability is None:
        clue = flow.pick.get("clue")
        clue_words = card_label(flow.game, clue) if clue else _("(click a clue card)")
        types = flow.pick.get("types")
        type_words = types_label(tuple(types)) if types else _("(pick a clue type)")
        return ("<div style='color:#345'>"
                + _("Declaring: clue card <b>{card}</b>, clue type <b>{types}</b>, then click a face-down "
                    "place").format(card=html.escape(clue_words), types=html.escape(type_words)) + "</div>")
    if flow.ability is not None:
        spots = ", ".join(str(spot[1]) for spot in flow.spots) or _("none yet")
        return "<div style='color:#345'>" + _("{ability}: picked {spots}").format(
            ability=flow.ability, spots=html.escape(spots)) + "</div>"
    return ""


def news_html(flow) -> str:
    """What happened since the viewer's last turn, from the viewer's observation only."""
    obs = flow.state.observation(flow.viewer)
    start = flow.seen.get(flow.viewer, 0)
    lines = [describe_event(e, flow.game, flow.viewer) for e in obs.log[start:]]
    lines = [x for x in lines if x]
    return ("<details open><summary>" + html.escape(_("Since your last turn")) + "</summary><ul style='margin:2px 0'>"
            + "".join(f"<li>{html.escape(x)}</li>" for x in lines[-30:]) + "</ul></details>" if lines else "")


def tom_html(flow) -> str:
    """The viewer's own TOM looks (only on the viewer's screen)."""
    obs = flow.state.observation(flow.viewer)
    looks = [e for e in obs.log if e.get("kind") == "tom" and "card" in e and e.get("player") == flow.viewer]
    if not looks:
        return ""
    items = "".join("<li>" + _("turn {turn}: place {place} held {card}").format(
        turn=e['turn'], place=e['place'], card=html.escape(flow.face(e['card']))) + "</li>" for e in looks)
    return ("<div style='border-left:4px solid #c90;padding:2px 8px'><b>"
            + html.escape(_("Only for Player {player}: your TOM looks").format(player=flow.viewer))
            + f"</b><ul style='margin:2px 0'>{items}</ul></div>")


def bot_failure_html(flow, text: str, shown: list) -> str:
    """A bot's failure with nobody at the screen: the words and only the public face-up cards."""
    items = "".join("<li>" + _("Place {place}: {card}").format(place=p, card=html.escape(flow.face(cid))) + "</li>"
                    for p, cid in shown)
    return f"<h3>{html.escape(text)}</h3><ul>{items}</ul>"


def pass_html(seat: int) -> str:
    """The hot-seat screen: pass the device to ``seat``; the table stays hidden until they press."""
    return ("<h3>" + html.escape(_("Pass the device to Player {seat}").format(seat=seat)) + "</h3><p>"
            + html.escape(_("Player {seat}: when nobody else is looking, press the button. The table stays hidden "
                            "until then, so nobody sees your Case Card or what your TOM showed you.").format(seat=seat))
            + "</p><p style='color:#555'>"
            + _("Every press is written in the <b>Device passes</b> line below, for everyone to see: if the table is "
                "already open when you get the device, someone looked.") + "</p>")


def passes_html(flow) -> str:
    """The Device passes line: every "I am player N" press, seen by the whole table (fair mode)."""
    if len(flow.humans) < 2 and not flow.passes:
        return ""
    if not flow.passes:
        return ("<div style='color:#555;padding:2px 0'>"
                + _("<b>Device passes</b> (everyone sees this): none yet.") + "</div>")
    lines = fold_passes(flow.passes)
    shown = lines if len(lines) <= PASS_LINES else lines[:1] + lines[-(PASS_LINES - 1):]
    items = [f"<li>{html.escape(x)}</li>" for x in shown]
    if len(shown) < len(lines):  # the first opening always stays; the lines between are counted, not dropped
        items.insert(1, "<li>" + html.escape(_("… {n} more lines (see lab.passes) …").format(
            n=len(lines) - len(shown))) + "</li>")
    more = " " + _("({n} presses)").format(n=len(flow.passes)) if len(flow.passes) > len(shown) else ""
    return ("<details open style='color:#444'><summary>" + _("<b>Device passes</b> (everyone sees this)")
            + f"{more}</summary><ul style='margin:2px 0'>{''.join(items)}</ul></details>")


def over_html(flow) -> tuple[str, str]:
    """The game's end: the scores table (Mugshots, Case points, each Case Card now shown) and the status line."""
    state = flow.state
    scores, cases, sizes, winners = state.scores(), state.case_scores(), state.archive_sizes(), state.winners()
    rows = []
    for p in range(state.players):
        bot = bot_words(flow.bot_specs.get(p, "bot")).lower()
        who = _("Player {player}").format(player=p) + " " + (_("(learner)") if p in flow.humans else f"({bot})")
        case = ""
        if state.case_cards is not None:
            key = state.case_cards[p]
            why = case_why(key, [state.card(c) for c in state.archives[p]])  # the learner's words (issue 30)
            case = f"{html.escape(case_text(key))}<br><span style='color:#666'>{html.escape(why)}</span>"
        mark = " " + _("(winner)") if p in winners else ""
        rows.append(f"<tr><td>{who}{mark}</td><td>{sizes[p]}</td><td>{cases[p]}</td><td><b>{scores[p]}</b></td>"
                    f"<td>{case}</td></tr>")
    how = _("an archive reached 10 Mugshots") if state.end_reason == "archive" else _("the deck ran out")
    names = and_join(_("Player {player}").format(player=w) for w in winners)
    heads = (_("player"), _("Mugshots"), _("Case points"), _("total"), _("Case Card"))
    page = ("<h3>" + html.escape(_("Game over: {how}").format(how=how)) + "</h3><p>"
            + ngettext("Winner: <b>{names}</b>", "Winners: <b>{names}</b>", max(len(winners), 1)).format(names=names)
            + "</p><table style='border-collapse:collapse' border='1' cellpadding='4'><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>" + "".join(rows) + "</table>")
    return page, ngettext("Game over after {turns} turns. Winner: {names}.",
                          "Game over after {turns} turns. Winners: {names}.",
                          max(len(winners), 1)).format(turns=state.turn, names=names)
