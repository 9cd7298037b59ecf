"""The Knockout lab's words: chances as a learner reads them, the result of a finished turn, the turn log.

Kept apart from :mod:`safari_kit.widgets.labs.knockout` (the widgets and the
flow of a game) so the sentences can be read and tested on their own. Every
number comes from the game's card data (names, values, units) or from the
probability layer; nothing here decides a rule: who won a turn is the engine's
``completed_turns`` record, and these functions only put it into words.

>>> from safari_kit.knockout import KnockoutGame
>>> game = KnockoutGame(players=2)
>>> turn = {"round": 1, "item": "top_speed_kmh", "plays": [[0, "K12"], [1, "K01"]], "winner": 0}
>>> print(result_sentence(game, turn, learner=0))
You won: your Springbok (88 km/h) beat Player 1's African Elephant (40 km/h) on Top speed.
>>> print(result_sentence(game, dict(turn, winner=1, plays=[[1, "K01"], [0, "K12"]], item="weight_kg"), 0))
You lost: Player 1's African Elephant (4,500 kg) beat your Springbok (39 kg) on Weight.
"""
from __future__ import annotations

import html
from fractions import Fraction

from safari_kit.presentation.views import ITEM_SHORT, ITEM_UNITS

__all__ = ["ITEM_SHORT", "ITEM_UNITS", "fmt_value", "chance_html", "reduced_html", "result_sentence",
           "who", "value_text"]


def fmt_value(v: float) -> str:
    """A data value as the lab writes it: ``1,200`` from 100 up, else as short as it is (``88``, ``0.5``)."""
    return f"{v:,.0f}" if v >= 100 else f"{v:g}"


def who(seat: int, learner: int) -> str:
    return "You" if seat == learner else f"Player {seat}"


def value_text(game, card: str, item: str) -> str:
    """``88 km/h``: the card's value of ``item`` with its unit."""
    return f"{fmt_value(game.by_id[card].value(item))} {ITEM_UNITS[item]}"


def chance_html(p: Fraction, short: bool = False) -> str:
    """A chance as a learner reads it: a short fraction with its decimal, or just the decimal
    (the exact fraction in the tooltip) when the fraction is too long to read.

    ``short``: for a narrow table cell, the decimal alone (the exact fraction in the tooltip) unless
    the fraction is 0 or 1.
    """
    from safari_kit.widgets.labs.base import fraction_html

    p = Fraction(p)
    if short and p.denominator > 1:
        text = "&lt; 0.001" if p < Fraction(1, 1000) else f"{float(p):.3f}"
        return f"<span title='exactly {p.numerator}/{p.denominator}'>{text}</span>"
    if p.denominator <= 1000:
        return fraction_html(p)
    text = "&lt; 0.001" if p < Fraction(1, 1000) else f"&asymp; {float(p):.3f}"
    return f"<span title='exactly {p.numerator}/{p.denominator}'>{text}</span>"


def reduced_html(p: Fraction) -> str:
    """The reduced fraction and its decimal, for the hint's last step: ``= 29/50 &asymp; 0.580``.

    Longer fractions than :func:`chance_html` shows (up to a million in the
    denominator); beyond that only ``&asymp;`` the decimal (exact value in the tooltip).
    """
    p = Fraction(p)
    if p.denominator == 1:
        return f"= {p.numerator}"
    x = float(p)
    dec = "&lt; 0.001" if x < 0.0005 else f"&asymp; {x:.3f}"
    if p.denominator <= 10**6:
        return f"= {p.numerator}/{p.denominator} {dec}"
    return f"<span title='exactly {p.numerator}/{p.denominator}'>{dec}</span>"


def result_sentence(game, turn: dict, learner: int) -> str:
    """The result of a finished turn for seat ``learner``, in words, from the engine's record of the turn.

    ``turn``: one entry of ``state.completed_turns`` (round, item, plays in order, winner). Says who won,
    with which card and value, against the learner's card (or, when the learner won, against the best of
    the others), and names a tie when the earlier card won it (K3). A learner who did not play (out, with
    elimination) is told who won.
    """
    item, plays, winner = turn["item"], [tuple(p) for p in turn["plays"]], turn["winner"]
    short = ITEM_SHORT[item]
    value = {c: game.by_id[c].value(item) for _, c in plays}
    name = {c: game.by_id[c].name for _, c in plays}
    mine = next((c for seat, c in plays if seat == learner), None)
    won = next(c for seat, c in plays if seat == winner)

    def theirs(seat: int, card: str) -> str:
        return f"Player {seat}'s {name[card]} ({value_text(game, card, item)})"

    if mine is None:
        return f"{theirs(winner, won)} won this turn on {short}."
    yours = f"your {name[mine]} ({value_text(game, mine, item)})"
    if winner == learner:
        others = [(seat, c) for seat, c in plays if seat != learner]
        if not others:
            return f"You won: nobody else played this turn ({short})."
        seat, best = max(others, key=lambda sc: value[sc[1]])  # max keeps the first of equal values
        if value[best] == value[mine]:
            return (f"You won: {theirs(seat, best)} is as high as {yours} on {short}, "
                    "and a tie goes to the card played first: yours.")
        return f"You won: {yours} beat {theirs(seat, best)} on {short}."
    if value[won] == value[mine]:
        return (f"You lost: {theirs(winner, won)} is as high as {yours} on {short}, "
                "and a tie goes to the card played first: theirs.")
    return f"You lost: {theirs(winner, won)} beat {yours} on {short}."


def plays_table_html(game, turn: dict, learner: int, step: int, phase: str = "done") -> str:
    """The finished turn's plays in order with their values; the winner's row marked (★).

    ``phase``: the table's ``data-phase`` (``done`` while the lab waits for Next turn, ``over`` at the end).
    """
    item = turn["item"]
    rows = []
    for i, (seat, c) in enumerate(turn["plays"]):
        won = seat == turn["winner"]
        rows.append(f"<tr data-card='{c}' class='{'safari-ko-winner' if won else ''}'>"
                    f"<td>{i + 1}</td><td class='safari-card-name'>{who(seat, learner)}</td>"
                    f"<td class='safari-card-name'>{html.escape(game.by_id[c].name)}</td>"
                    f"<td>{value_text(game, c, item)}{' &#9733;' if won else ''}</td></tr>")
    return (f"<table class='safari-prob-table' data-step='{step}' data-phase='{phase}' data-best-card='' "
            f"data-best-item='' data-winner='{turn['winner']}'>"
            f"<tr><th>#</th><th>Player</th><th>Card</th><th>{ITEM_SHORT[item]}</th></tr>{''.join(rows)}</table>")
