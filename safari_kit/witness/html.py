"""Readable HTML tables of a Witness state or observation for notebooks (``_repr_html_``)."""
from __future__ import annotations

from html import escape


def _card(game, cid: str | None) -> str:
    if cid is None:
        return '<span title="face down" style="font-family:monospace">[back]</span>'
    c = game.cards[game.index[cid]] if game is not None else None
    if c is None:
        return escape(cid)
    return (f'<span title="{escape(str(c))}"><b>{escape(c.name)}</b> '
            f'{escape(c.animal)}, {escape(c.texture)}, {escape(c.color)} <small>({escape(c.id)})</small></span>')


def _table(game, title: str, obs) -> str:
    rows = [f"<tr><th>Turn</th><td>{obs.turn} &mdash; player {obs.current_player} to act "
            f"({escape(obs.phase)})</td></tr>"
            if obs.current_player is not None else
            f"<tr><th>Game over</th><td>ended by {escape(str(obs.end_reason))}; "
            f"winners {list(obs.winners or [])}</td></tr>",
            f"<tr><th>Deck</th><td>{obs.deck_count} cards</td></tr>",
            "<tr><th>Unidentified Area</th><td>" + "<br>".join(
                f"place {p}: {_card(game, c)}" for p, c in obs.unidentified) + "</td></tr>",
            "<tr><th>Clue Area</th><td>"
            + ("<br>".join(_card(game, c) for c in obs.clue_area) or "empty") + "</td></tr>"]
    for p, archive in enumerate(obs.archives):
        top = _card(game, archive[-1]) if archive else "empty"
        rows.append(f"<tr><th>Archive of player {p}</th><td>{len(archive)} card(s); top: {top}</td></tr>")
    rows.append(f"<tr><th>Scores</th><td>{list(obs.scores)}</td></tr>")
    if obs.case_card:
        rows.append(f"<tr><th>Case Card (player {obs.player})</th><td>{escape(obs.case_card)}</td></tr>")
    return f"<div><b>{escape(title)}</b><table>{''.join(rows)}</table></div>"


def observation_html(obs) -> str:
    return _table(None, f"Safari Witness, as player {obs.player} sees it", obs)


def state_html(state) -> str:
    """The public table, as the player to act sees it (face-down cards stay backs)."""
    seat = state.current if state.current_player is not None else 0
    return _table(state.game, f"Safari Witness (the public table, seen by player {seat})", state.observation(seat))
