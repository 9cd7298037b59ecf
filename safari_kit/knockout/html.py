"""HTML tables for notebooks: a Knockout state (public table + the current player's hand) and an observation."""
from __future__ import annotations

from html import escape

from safari_kit.cards.model import DATA_ITEM_LABELS

_STYLE = "border-collapse:collapse;font-family:sans-serif;font-size:13px"
_CELL = "border:1px solid #ccc;padding:2px 6px;text-align:left"


def _card(game, card_id: str, item: str | None = None) -> str:
    c = game.by_id[card_id]
    if item is None:
        return escape(f"{c.name} ({c.id})")
    return escape(f"{c.name} ({c.id}): {getattr(c, item):g}")


def _label(item: str | None) -> str:
    return "—" if item is None else escape(DATA_ITEM_LABELS.get(item, item))


def _table(rows) -> str:
    body = "".join(f"<tr><th style='{_CELL}'>{escape(k)}</th><td style='{_CELL}'>{v}</td></tr>" for k, v in rows)
    return f"<table style='{_STYLE}'>{body}</table>"


def _players_table(game, scores, round_wins, out, hand_sizes, dealer, lead, current) -> str:
    head = "".join(f"<th style='{_CELL}'>{h}</th>" for h in
                   ("seat", "score", "won this round", "cards in hand", "role"))
    rows = []
    for s in range(game.players):
        role = []
        if s == dealer:
            role.append("dealer")
        if s == lead:
            role.append("lead")
        if s == current:
            role.append("<b>to play</b>")
        if s in out:
            role.append("out")
        cells = (str(s), str(scores[s]), str(round_wins[s]), str(hand_sizes[s]), ", ".join(role))
        rows.append("<tr>" + "".join(f"<td style='{_CELL}'>{c}</td>" for c in cells) + "</tr>")
    return f"<table style='{_STYLE}'><tr>{head}</tr>{''.join(rows)}</table>"


def _trick(game, trick, item) -> str:
    if not trick:
        return "(no card yet)"
    return "<br>".join(f"seat {s}: {_card(game, c, item)}" for s, c in trick)


def state_html(state) -> str:
    """The public table plus the hand of the player to act (not the other hands)."""
    game = state.game
    status = ("<b>game over</b>: winner(s) " + ", ".join(map(str, state.winners()))
              if state.is_terminal() else f"player {state.current_player} to play")
    parts = [
        f"<div><b>Safari Knockout</b> — round {state.round} of 7, {state.cards_per_player} cards each, "
        f"turn {state.turn + (0 if state.is_terminal() else 1)}; {status}</div>",
        _table([("named item", _label(state.item)),
                ("cards played this turn", _trick(game, state.trick, state.item))]),
        _players_table(game, state.scores(), state.round_wins(), state.out,
                       [len(h) for h in state.hands], state.dealer, state.lead, state.current_player),
    ]
    if not state.is_terminal():
        hand = state.hand(state.current_player)
        parts.append(f"<div>Hand of player {state.current_player} (the player to act; other hands are "
                     f"hidden — use <code>full_view()</code>):<br>"
                     + "<br>".join(_card(game, c) for c in hand) + "</div>")
    return "<div>" + "".join(parts) + "</div>"


def observation_html(obs) -> str:
    """One player's view: their hand, the table, the scores."""
    status = ("game over; winner(s) " + ", ".join(map(str, obs.winners))) if obs.terminal else (
        "your turn" + (" — you lead: play a card and name a data item" if obs.leading else "")
        if obs.my_turn else f"player {obs.current_player} to play")
    trick = "<br>".join(f"seat {s}: {escape(c)}" for s, c in obs.trick) or "(no card yet)"
    hand = ", ".join(escape(c) for c in obs.hand) or "(empty)"
    rows = [("player", str(obs.player)), ("round", f"{obs.round} of {obs.rounds}"), ("status", escape(status)),
            ("named item", _label(obs.item)), ("cards played this turn", trick), ("your hand", hand),
            ("scores", escape(str(list(obs.scores)))), ("cards in each hand", escape(str(list(obs.hand_sizes)))),
            ("out", escape(str(list(obs.out))) if obs.elimination else "(no elimination)")]
    return "<div><b>Safari Knockout — what player " + str(obs.player) + " sees</b>" + _table(rows) + "</div>"
