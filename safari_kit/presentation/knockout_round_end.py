"""The Knockout table as a round ended, for the pause on "Round 1 is over" (issue 27).

The engine deals the next round in the same ``apply`` that completes a round's last turn (K2), so no engine
state shows a round that has just ended: the state after the last play holds round 2's new hands, its chip
("Round 2 of 7") and an empty list of this round's turns. A lab that pauses on the round's end must still show
the round that ended: its last turn's cards on the table, the turns each player won, its chip, its dealer and
lead. :func:`round_end_view` builds that view from the state *before* the round's last play (round 1's own
view) and the turn that play completed (public: every player saw those cards), and nothing else of the state
after it but who goes out (the round's own result, K5). So nothing of the next round reaches the page: no
other hand (never in a view anyway), and not the viewer's new hand either (it is drawn when the next round
is shown).

>>> from safari_kit.knockout import KnockoutGame, Play
>>> state = KnockoutGame(players=3).new_initial_state(seed=2)
>>> before = None
>>> while state.round == 1:
...     before = state.clone()
...     state.apply(Play(state.hand(state.current_player)[0], None if state.trick else "weight_kg"))
>>> view = round_end_view(before, state, 0)
>>> view["round"], view["hand"], len(view["turns_this_round"]), len(view["trick"])
(1, [], 7, 3)
>>> set(view["cards"]) & set(state.hand(0)) <= {p["card"] for t in view["turns_this_round"] for p in t["plays"]}
True
"""
from __future__ import annotations

from safari_kit.presentation.views import ITEM_SHORT, deck_ranges, knockout_view, pal_face

__all__ = ["round_end_view", "RoundEndError"]


class RoundEndError(ValueError):
    """``before`` and ``after`` are not the two sides of one round's last play."""


def round_end_view(before, after, viewer: int) -> dict:
    """What ``viewer`` sees of the table as ``before``'s round ended: that round's chip, dealer and lead, its
    turns (the last one's cards where they were played), each seat's points and turns won at its end, the
    viewer's hand as it was then (empty: every card was played), and who goes out (from ``after``).

    ``before``: the state just before the round's last play; ``after``: the state after it (the next round
    dealt, or the game over). Raises :class:`RoundEndError` when ``after`` does not follow ``before`` by the
    play that completed ``before``'s round.
    """
    done = len(before.completed_turns)
    turns = after.completed_turns
    if (len(turns) != done + 1 or turns[done]["round"] != before.round
            or (after.round == before.round and not after.is_terminal())):
        raise RoundEndError(f"after must be the state one play after before, that play ending round "
                            f"{before.round}; got {len(turns) - done} more completed turns, round {after.round}")
    t = turns[done]
    game = before.game
    view = knockout_view(before, viewer)
    last_seat, last_card = t["plays"][-1]
    ranges = deck_ranges(game.cards)
    faces = dict(view["cards"])
    for _, c in t["plays"]:
        faces.setdefault(c, pal_face(game.by_id[c], ranges, game.items))
    hand = [c for c in view["hand"] if not (viewer == last_seat and c == last_card)]
    turn = {"number": len(view["turns_this_round"]) + 1, "item": t["item"], "item_label": ITEM_SHORT[t["item"]],
            "plays": [{"player": s, "card": c} for s, c in t["plays"]], "winner": t["winner"]}
    out = set(after.out)
    seats = []
    for seat in view["seats"]:
        p = seat["player"]
        won = int(p == t["winner"])
        seats.append(dict(seat, score=seat["score"] + won, round_wins=seat["round_wins"] + won,
                          hand_size=seat["hand_size"] - int(p == last_seat), out=p in out, to_play=False))
    shown = set(hand) | {p["card"] for u in [*view["turns_this_round"], turn] for p in u["plays"]}
    view.update(
        hand=hand, trick=list(turn["plays"]), item=t["item"], item_label=turn["item_label"],
        turns_this_round=[*view["turns_this_round"], turn], last_turn=None, seats=seats,
        scores=[s["score"] for s in seats], out=sorted(out), you_are_out=viewer in out,
        current_player=None, my_turn=False, leading=False, phase="round_over",
        cards={c: f for c, f in faces.items() if c in shown},
    )
    return view
