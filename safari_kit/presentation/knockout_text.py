"""The Knockout lab's words: chances as a learner reads them, the result of a finished turn, the turn log.

Kept apart from :mod:`safari_kit.widgets.labs.knockout` (the widgets) and
:mod:`safari_kit.presentation.knockout_flow` (the flow of a game) so the sentences can be read and tested
on their own, without widgets (issue 28: moved here from ``safari_kit.widgets.labs.knockout_text``, which
still re-exports it). Every
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

from safari_kit.core.i18n import _, ngettext, series
from safari_kit.presentation.card_words import pal_name
from safari_kit.presentation.numbers import decimal, whole
from safari_kit.presentation.views import ITEM_SHORT, ITEM_UNITS

__all__ = ["ITEM_SHORT", "ITEM_UNITS", "LAB_CSS", "fmt_value", "chance_html", "reduced_html", "result_sentence",
           "who", "value_text", "card_html", "why_html", "tie_words", "tally_html", "plays_table_html",
           "trick_words", "round_words"]

LAB_CSS = """
<style>
.safari-prob table.safari-prob-table{border-collapse:collapse;font-size:13px;margin:4px 0}
.safari-prob th,.safari-prob td{border:1px solid #ccc;padding:3px 7px;text-align:right}
.safari-prob th{background:#f3f3f3}
.safari-prob td.safari-card-name{text-align:left}
.safari-prob td.safari-best{background:#d9f2df;font-weight:bold}
.safari-prob td.safari-picked{outline:2px solid #e67e22}
.safari-prob tr.safari-picked-row td.safari-card-name{font-weight:bold}
.safari-prob .safari-note{color:#555;font-size:12px}
.safari-prob .safari-ko-why{color:#333;font-size:13px;margin-top:2px;line-height:1.45}
.safari-prob .safari-ko-why .safari-nowrap{white-space:nowrap}
.safari-prob tr.safari-ko-winner td{background:#d9f2df;font-weight:bold}
.safari-ko-log ol{margin:2px 0 6px 0}
.safari-ko-tally table{border-collapse:collapse;font-size:12px}
.safari-ko-tally th,.safari-ko-tally td{border:1px solid #ddd;padding:2px 6px;text-align:right}
</style>
"""


def card_html(game, cid: str) -> str:
    """A card's name as a learner reads it: ``Springbok`` (issue 27: no card ids such as K12 in sentences; the
    id stays in the page's data attributes for tests)."""
    return html.escape(pal_name(game.by_id[cid]))


def fmt_value(v: float) -> str:
    """A data value as the lab writes it: ``1,200`` from 100 up, else as short as it is (``88``, ``0.5``), in the
    learner's language (Spanish ``1200``, ``0,5``)."""
    if v >= 100:
        return whole(round(v))
    text = f"{v:g}"
    return decimal(v, len(text.partition(".")[2])) if "e" not in text else text


def who(seat: int, learner: int) -> str:
    return _("You") if seat == learner else _("Player {player}").format(player=seat)


def value_text(game, card: str, item: str) -> str:
    """``88 km/h``: the card's value of ``item`` with its unit."""
    return f"{fmt_value(game.by_id[card].value(item))} {ITEM_UNITS[item]}"


def trick_words(game, trick, item: str | None, learner: int) -> str:
    """The cards already on the table in the turn under way, in the order played (all face up), for the ear:
    what a sighted learner reads in "Played this turn" before choosing. Empty before the first card.

    >>> from safari_kit.knockout import KnockoutGame
    >>> game = KnockoutGame(players=3)
    >>> trick_words(game, ((1, "K01"), (2, "K12")), "top_speed_kmh", 0)
    'Player 1 led African Elephant, naming Top speed: 40 km/h. Player 2 played Springbok: 88 km/h.'
    """
    if not trick or item is None:
        return ""
    words = []
    for k, (seat, card) in enumerate(trick):
        name, value = pal_name(game.by_id[card]), value_text(game, card, item)
        words.append(_("{who} led {card}, naming {item}: {value}.").format(
                         who=who(seat, learner), card=name, item=ITEM_SHORT[item], value=value) if k == 0
                     else _("{who} played {card}: {value}.").format(who=who(seat, learner), card=name, value=value))
    return " ".join(words)


def round_words(turns, learner: int, players: int, scores, round_no: int, out=()) -> str:
    """After "Play to end of round": the turns just played at once (``turns``: entries of
    ``state.completed_turns``), who won how many, the points so far, and ``out``: the seats that went out at
    the round's end (Variation 1).

    >>> round_words([{"winner": 1}, {"winner": 0}, {"winner": 1}], 0, 2, [1, 2], 1)
    'Round 1 played to its end: 3 turns; you won 1, Player 1 won 2. Points so far: you 1, Player 1 2.'
    """
    wins = [sum(1 for t in turns if t["winner"] == seat) for seat in range(players)]

    def named(seat: int) -> str:
        return _("you") if seat == learner else _("Player {player}").format(player=seat)
    text = ngettext("Round {round} played to its end: {n} turn; {wins}. Points so far: {points}.",
                    "Round {round} played to its end: {n} turns; {wins}. Points so far: {points}.", len(turns)).format(
        round=round_no, n=len(turns),
        wins=", ".join((_("you won {n}") if seat == learner else _("{who} won {n}")).format(
            who=named(seat), n=wins[seat]) for seat in range(players)),
        points=", ".join(f"{named(seat)} {scores[seat]}" for seat in range(players)))
    if out:
        text += " " + _("Out of the game now (no turn won in this round): {players}.").format(
            players=", ".join(named(seat) for seat in out))
    return text


def chance_html(p: Fraction, short: bool = False) -> str:
    """A chance as a learner reads it: a short fraction with its decimal, or just the decimal
    (the exact fraction in the tooltip) when the fraction is too long to read.

    ``short``: for a narrow table cell, the decimal alone (the exact fraction in the tooltip) unless
    the fraction is 0 or 1.
    """
    from safari_kit.presentation.chance_html import fraction_html

    p = Fraction(p)
    if short and p.denominator > 1:
        text = "&lt; " + decimal(0.001) if p < Fraction(1, 1000) else decimal(p)
        return _exactly(p) + f"'>{text}</span>"
    if p.denominator <= 1000:
        return fraction_html(p)
    text = "&lt; " + decimal(0.001) if p < Fraction(1, 1000) else f"&asymp; {decimal(p)}"
    return _exactly(p) + f"'>{text}</span>"


def _exactly(p: Fraction) -> str:
    """The start of a span whose tooltip is the exact fraction (the page shows its decimal)."""
    return "<span title='" + html.escape(_("exactly {fraction}").format(fraction=f"{p.numerator}/{p.denominator}"))


def reduced_html(p: Fraction) -> str:
    """The reduced fraction and its decimal, for the hint's last step: ``= 29/50 &asymp; 0.580``.

    Longer fractions than :func:`chance_html` shows (up to a million in the
    denominator); beyond that only ``&asymp;`` the decimal (exact value in the tooltip).
    """
    p = Fraction(p)
    if p.denominator == 1:
        return f"= {p.numerator}"
    x = float(p)
    dec = "&lt; " + decimal(0.001) if x < 0.0005 else f"&asymp; {decimal(x)}"
    if p.denominator <= 10**6:
        return f"= {p.numerator}/{p.denominator} {dec}"
    return _exactly(p) + f"'>{dec}</span>"


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
    name = {c: pal_name(game.by_id[c]) for _, c in plays}
    mine = next((c for seat, c in plays if seat == learner), None)
    won = next(c for seat, c in plays if seat == winner)

    def theirs(seat: int, card: str) -> str:
        return _("Player {player}'s {card} ({value})").format(player=seat, card=name[card],
                                                             value=value_text(game, card, item))

    if mine is None:
        return _("{theirs} won this turn on {item}.").format(theirs=theirs(winner, won), item=short)
    yours = _("your {card} ({value})").format(card=name[mine], value=value_text(game, mine, item))
    if winner == learner:
        others = [(seat, c) for seat, c in plays if seat != learner]
        if not others:
            return _("You won: nobody else played this turn ({item}).").format(item=short)
        seat, best = max(others, key=lambda sc: value[sc[1]])  # max keeps the first of equal values
        if value[best] == value[mine]:
            return _("You won: {theirs} is as high as {yours} on {item}, and a tie goes to the card played first: "
                     "yours.").format(theirs=theirs(seat, best), yours=yours, item=short)
        return _("You won: {yours} beat {theirs} on {item}.").format(yours=yours, theirs=theirs(seat, best),
                                                                     item=short)
    if value[won] == value[mine]:
        return _("You lost: {theirs} is as high as {yours} on {item}, and a tie goes to the card played first: "
                 "theirs.").format(theirs=theirs(winner, won), yours=yours, item=short)
    return _("You lost: {theirs} beat {yours} on {item}.").format(theirs=theirs(winner, won), yours=yours,
                                                                  item=short)


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
                    f"<td class='safari-card-name'>{html.escape(pal_name(game.by_id[c]))}</td>"
                    f"<td>{value_text(game, c, item)}{' &#9733;' if won else ''}</td></tr>")
    return (f"<table class='safari-prob-table' data-step='{step}' data-phase='{phase}' data-best-card='' "
            f"data-best-item='' data-winner='{turn['winner']}'>"
            "<tr><th>#</th><th>" + _("Player") + "</th><th>" + _("Card") + "</th>"
            f"<th>{ITEM_SHORT[item]}</th></tr>{''.join(rows)}</table>")


def tie_words(best_name: str, others: list[str], weaker: bool | None) -> str:
    """Why the ★ took one option of several with the same chance (issue 27: it picked the Black Rhino over the
    Hippo with no word why). ``others``: the other tied cards' names. ``weaker``: True when the ★ card is
    strictly weaker than every other tied card, None when all are as strong as it, False when it is one of the
    weakest (the probability layer breaks a tie by the weakest card, ``card_strength``, then the lower value,
    then deck order).

    >>> tie_words("Black Rhino", ["Hippopotamus"], True).split(": ")[0]
    'Hippopotamus has the same chance. The &#9733; goes to the weaker card, Black Rhino'
    >>> tie_words("Impala", ["Cheetah", "Springbok"], None)
    'Cheetah and Springbok have the same chance. They are as strong as Impala: the &#9733; just takes one.'
    """
    same = ngettext("{names} has the same chance.", "{names} have the same chance.", len(others)).format(
        names=series(others))
    if weaker is None:
        return same + " " + ngettext("It is as strong as {card}: the &#9733; just takes one.",
                                     "They are as strong as {card}: the &#9733; just takes one.",
                                     len(others)).format(card=best_name)
    keep = _("Keep your stronger cards for later turns.")
    if weaker:
        return (same + " " + _("The &#9733; goes to the weaker card, {card}: on its best data item it beats fewer "
                               "cards of the deck.").format(card=best_name) + " " + keep)
    return (same + " " + _("The &#9733; goes to one of the weakest cards, {card}: on its best data item it beats "
                           "the fewest cards of the deck.").format(card=best_name) + " " + keep)


def why_html(game, c, leading: bool, ties: str = "") -> str:
    """The hint under the Knockout lab's table: the ★ option's U, H and k (``c``, a
    :class:`~safari_kit.probability.knockout.WinCount` as the probability layer counted them), then
    P = C(U − H, k) / C(U, k) with the numbers, the reduced fraction and its decimal. ``ties``: the words of
    :func:`tie_words` when other options have the same chance (right under the ★ line)."""
    unit, short = ITEM_UNITS[c.item], ITEM_SHORT[c.item]
    mine = f"{fmt_value(game.by_id[c.card].value(c.item))} {unit}"

    def nowrap(text: str) -> str:
        return f"<span class='safari-nowrap'>{text}</span>"

    naming = (_("&#9733; Best: {card}, {value}, naming {item}.") if leading else
              _("&#9733; Best: {card}, {value} on {item}.")).format(card=card_html(game, c.card), value=mine,
                                                                      item=short)
    head = f"<div>{naming}</div>"
    if ties and c.value != 0:  # right under the ★ line, where the learner looks for why (issue 27)
        head += f"<div class='safari-ko-tie'>{ties}</div>"
    if c.beaten:
        why = ("<div>" + _("A card already played is at least as high as yours on {item} (a tie goes to the earlier "
                           "card): P = 0, whatever the cards after you.").format(item=short) + "</div>")
    else:
        seen = ngettext("{deck} &minus; your {n} card", "{deck} &minus; your {n} cards", c.hand).format(
            deck=c.deck, n=c.hand)
        if c.played:
            seen += " " + _("&minus; {n} played this round").format(n=c.played)
        after = (_("the player after you") if c.later == 1 else
                 _("the {n} players after you").format(n=c.later))
        k_words = (_("<b>k = 0</b>: nobody plays after you.") if c.k == 0
                   else ngettext("<b>k = {k}</b> card is held by {after}.", "<b>k = {k}</b> cards are held by {after}.",
                                 c.k).format(k=c.k, after=after))
        # issue 27: short sentences; every symbol said in words where it appears
        if c.k == 0:
            explain = _("Nobody is left to beat you.")
        elif c.unseen - c.higher < c.k:
            explain = _("Only {n} unseen cards (U &minus; H) are not higher. That is fewer than the {k} cards they "
                        "hold, so one of them surely holds a higher card.").format(n=c.unseen - c.higher, k=c.k)
        else:
            explain = _("C(U &minus; H, k) counts the hands {after} may hold with none of the H higher cards. "
                        "C(U, k) counts all their possible hands.").format(after=after)
        steps = [nowrap(_("P(win) = C(U &minus; H, k) / C(U, k)")),
                 nowrap(f"= C({c.unseen} &minus; {c.higher}, {c.k}) / C({c.unseen}, {c.k})"),
                 nowrap(reduced_html(c.value))]
        unseen = _("<b>U = {u}</b> unseen cards ({seen}).").format(u=c.unseen, seen=seen)
        higher = ngettext("<b>H = {h}</b> of them is higher than {value}.",
                          "<b>H = {h}</b> of them are higher than {value}.", c.higher).format(h=c.higher, value=mine)
        why = (f"<div>{nowrap(unseen)} {nowrap(higher)} {nowrap(k_words)}</div>"
               f"<div class='safari-ko-formula'>{' '.join(steps)}</div>"
               "<div style='color:#666'>" + explain + " "
               + _("C(U, k) means the number of ways to choose k cards out of U.") + "</div>")
    if c.value == 0:
        why += ("<div>" + _("<b>Every option loses this turn</b> (P = 0 for each), so the &#9733; marks your "
                            "<b>weakest card</b> (its best data item ranks lowest of your cards): throw it away now "
                            "and keep your strong cards for later turns.") + "</div>")
    return (f"<div class='safari-note safari-ko-why' data-u='{c.unseen}' data-h='{c.higher}' "
            f"data-k='{c.k}' data-beaten='{int(c.beaten)}'>{head}{why}"
            "<div>" + _("Pick your choice on the table, then press Play.") + "</div></div>")


def tally_html(game, predictions) -> str:
    """Predicted vs actual: the chances of the learner's settled plays (``predictions``) against the turns won."""
    done = [p for p in predictions if p.won is not None]
    if not done:
        return ("<div>" + _("<b>Predicted vs actual</b>: after each of your turns, the chance you were shown "
                            "is compared with what happened.") + "</div>")
    expected = sum((p.p for p in done), Fraction(0))
    won = sum(1 for p in done if p.won)
    best_plays = sum(1 for p in done if p.p == p.best_p)
    rows = []
    for p in done[-7:]:
        item = ITEM_SHORT.get(p.item, p.item)
        how = _("played for you") if p.auto else (_("you led") if p.leading else _("you followed"))
        rows.append(f"<tr><td>{p.round}, {p.turn}</td><td>{html.escape(pal_name(game.by_id[p.card]))}</td>"
                    f"<td>{item}</td><td>{how}</td><td>{decimal(p.p)}</td><td>{decimal(p.best_p)}</td>"
                    "<td>" + (_("won") if p.won else _("lost")) + "</td></tr>")
    heads = (_("Round, turn"), _("Card"), _("Data item"), _("How"), _("Chance shown"), _("Best chance"), _("Result"))
    return ("<div>" + _("<b>Predicted vs actual</b>: {n} turns played; the chances of your plays add up to "
                        "<b>{expected}</b> expected wins, you actually won <b>{won}</b>.").format(
                n=len(done), expected=decimal(expected, 2), won=won) + " "
            + ngettext("You chose the best option {best} time of {n}.",
                       "You chose the best option {best} times of {n}.", best_plays).format(
                best=best_plays, n=len(done))
            + "<table><tr>" + "".join(f"<th>{h}</th>" for h in heads) + f"</tr>{''.join(rows)}</table></div>")
