"""The Rules tutorial's quiz: a few "what happens next?" questions in each scripted game, answered by the engine.

A :class:`Question` is asked at one step of a script (below that step's explanation) about the step that
follows it, before its explanation is shown: will the Unidentified Area be refilled, which remembered place
is safe to reveal, may the Challenge stop, who wins this turn, who is out. Nothing in a question is typed in
by hand but its wording: the correct choice is read from the engine (the next step's state replayed by
:meth:`Script.states`, or ``legal_actions()`` of the position asked about), and the cards, values, places
and counts in the words come from the position too. The one-sentence "why" is the ruling's own line from
:data:`~safari_kit.tutorial.tutorials.RULINGS`, or a sentence built from the engine's comparison of the cards.

A question names only what the learner's seat knows at the step it is asked at: cards it has seen (its own
TOM look, the cards everybody saw face up, the cards on the table), never the card a face-down place turns out
to be. That is why two questions are conditional ("if Player 2's card is lower"): the next card is not known
yet. ``Question.cards`` lists the cards a question names, so tests check them against the seat's observation.

The quiz is asked from the script's learner's seat (seat 0: "you"); :func:`questions` raises if the script no
longer fits a question (a step renamed, a choice set without exactly one right answer), so a changed script
fails its tests rather than asking a wrong question.

>>> from safari_kit.tutorial.tutorials import knockout_script
>>> [q.id for q in questions(knockout_script())]
['knockout-q1', 'knockout-q2', 'knockout-q3']
>>> q = questions(knockout_script())[1]
>>> q.choices, q.answer
(('You', 'Player 1', 'Player 2'), 'You')
"""
from __future__ import annotations

from dataclasses import dataclass

from safari_kit.core.i18n import _, and_join, ngettext
from safari_kit.presentation.card_words import mugshot_elements
from safari_kit.tutorial.tutorials import RULINGS, Script

__all__ = ["Question", "questions", "questions_by_step", "known_places", "visible_cards"]


@dataclass(frozen=True)
class Question:
    """One multiple-choice question: asked at step ``step`` (0-based) about what step ``step + 1`` does."""

    id: str  # stable, e.g. "witness-q2": the class records pool answers by it
    step: int
    text: str
    choices: tuple[str, ...]  # the buttons' words, short: also the answer recorded
    correct: int  # index into choices, read from the engine
    why: str  # one sentence: the ruling behind the correct choice
    rulings: tuple[str, ...]
    cards: frozenset[str]  # the card ids the question's words name (all known to the learner at ``step``)

    def __post_init__(self):
        if not 2 <= len(self.choices) <= 4 or not 0 <= self.correct < len(self.choices):
            raise ValueError(f"question {self.id}: {len(self.choices)} choices, correct {self.correct}")

    @property
    def answer(self) -> str:
        return self.choices[self.correct]


def _ruling_line(code: str) -> str:
    """A ruling's one line (tutorials.RULINGS) as the why of a question: "... from the deck (W6)."."""
    return _("{ruling} ({code}).").format(ruling=_(RULINGS[code][1]).rstrip("."), code=code)


def _one(question_id: str, flags: list[bool]) -> int:
    """The index of the one choice the engine says is right; anything else means the script changed."""
    right = [i for i, ok in enumerate(flags) if ok]
    if len(right) != 1:
        raise ValueError(f"question {question_id}: the engine makes {len(right)} of its choices right, not 1")
    return right[0]


def _seat(seat: int, viewer: int) -> str:
    return _("You") if seat == viewer else _("Player {seat}").format(seat=seat)


# ----------------------------------------------------------------------------- what a seat knows
def visible_cards(state, viewer: int) -> set[str]:
    """The card ids ``viewer`` has seen by this state: from its own observation (Witness: everything its log
    shows, its TOM look included; Knockout: its hand, the trick and every finished turn)."""
    obs = state.observation(viewer)
    if hasattr(state, "log"):
        ids = set(state.game.index)
        return {c for c in obs.card_ids() if c in ids}
    d = obs.to_dict()
    return set(d["hand"]) | {c for _, c in d["trick"]} | {c for t in d["turns"] for _, c in t["plays"]}


def known_places(state, viewer: int) -> dict[int, str]:
    """Witness: the face-down places whose card ``viewer`` has seen (revealed there, or looked at with TOM),
    read from the viewer's own observation log; a place keeps its card until it leaves the table."""
    known: dict[int, str] = {}
    for e in state.observation(viewer).log:
        kind = e["kind"]
        if kind in ("identify", "challenge_reveal") or (kind == "tom" and "card" in e):
            known[e["place"]] = e["card"]
        elif kind == "fail":
            known.update((m["place"], m["card"]) for m in e["to_places"])
    return {p: c for p, c in known.items() if p in state.places}


# ----------------------------------------------------------------------------- Safari Witness
def _witness(script: Script, states: list) -> list[Question]:
    from safari_kit.presentation.narration import shared_words
    from safari_kit.witness import actions as A
    from safari_kit.witness.rules import MIN_SAFE, UNIDENTIFIED_SIZE

    words, viewer = script.words, script.viewer
    out = []

    # q1: the refill (W6), asked when your identification succeeded, before you archive
    k = script.index("declare-success")
    before, after = states[k], states[k + 1]
    left, deck = len(before.places), len(before.deck)
    outcomes = (UNIDENTIFIED_SIZE, left)
    out.append(Question(
        "witness-q1", k,
        _("The Unidentified Area is down to {left} face-down cards, and the deck holds {deck}. What happens to the "
          "Unidentified Area when you archive your cards?").format(left=left, deck=deck),
        (_("Refilled to {n} from the deck").format(n=UNIDENTIFIED_SIZE),
         _("It stays at {left} cards").format(left=left)),
        _one("witness-q1", [n == len(after.places) for n in outcomes]),
        _ruling_line("W6"), ("W6",), frozenset()))

    # q2: which remembered place is safe for your Challenge (W5): the one you reveal next, among the unsafe
    # places you know; each choice's safety is what the engine says when that place is revealed
    k = script.index("challenge")
    before = states[k]
    game = before.game
    challenged = game.cards[before.challenged].id
    first = script.steps[k + 1].actions[0].place
    known = known_places(before, viewer)
    if first not in known:
        raise ValueError(f"witness-q2: the learner has not seen place {first}, the place the script reveals")

    def safe(place: int) -> bool:
        trial = before.clone()
        trial.apply(A.RevealNext(place))  # an unsafe reveal logs the reveal, then the failure
        reveal = next(e for e, _, _ in trial.log[len(before.log):] if e["kind"] == "challenge_reveal")
        return bool(reveal["safe"])

    places = sorted([first] + [p for p in known if p != first and not safe(p)])
    cards = {p: game.cards[game.index[known[p]]] for p in places}
    flags = [safe(p) for p in places]
    right = _one("witness-q2", flags)
    shares = [_("place {place} shares {what}").format(place=p, what=and_join(shared_words(game, challenged, known[p])))
              for p in places if p != places[right]]
    safe_card = cards[places[right]]
    out.append(Question(
        "witness-q2", k,
        _("You challenge {card}. You have seen the cards at these places: which one is safe to reveal?").format(
            card=words[challenged]),
        tuple(_("Place {place}: {color} {animal}, {texture}, {name}").format(
            place=p, **mugshot_elements(c)) for p, c in cards.items()),
        right,
        _("A safe card shares nothing with the challenged card. The {color} {animal} at place {place} shares nothing "
          "with it. But {shares} (W5).").format(**mugshot_elements(safe_card), place=places[right],
                                                 shares=_(", and ").join(shares)), ("W5",),
        frozenset({challenged, *(known[p] for p in places)})))

    # q3: may the Challenge stop yet (W5)? read from legal_actions() of the position
    k = script.index("safe-3")
    before = states[k]
    n = before.observation(viewer).safe_reveals
    may_stop = any(isinstance(a, A.StopChallenge) for a in before.legal_actions())
    out.append(Question(
        "witness-q3", k,
        ngettext("Your Challenge has {n} safe reveal so far. May you stop now and win the revealed cards?",
                 "Your Challenge has {n} safe reveals so far. May you stop now and win the revealed cards?",
                 n).format(n=n),
        (_("Yes: stop now"), _("No: reveal another card first")),
        _one("witness-q3", [may_stop, not may_stop]),
        _("A Challenge may stop only after {min} safe reveals, and you have {n} so far (W5).").format(
            min=MIN_SAFE, n=n),
        ("W5",), frozenset()))

    # q4: the end (W7): the refill after your archive needs a card the deck has not got
    k = script.index("stop")
    before, after = states[k], states[k + 1]
    left, deck = len(before.places), len(before.deck)
    nxt = (viewer + 1) % before.players
    out.append(Question(
        "witness-q4", k,
        (_("After your archive the Unidentified Area holds {left} cards, fewer than {size}, and the deck is empty. "
           "What happens?") if deck == 0 else
         _("After your archive the Unidentified Area holds {left} cards, fewer than {size}, and the deck holds "
           "{deck}. What happens?")).format(left=left, size=UNIDENTIFIED_SIZE, deck=deck),
        (_("The game ends"), _("Player {seat} takes the next turn").format(seat=nxt)),
        _one("witness-q4", [after.is_terminal(), not after.is_terminal() and after.current_player == nxt]),
        _ruling_line("W7"), ("W7", "W6"), frozenset()))
    return out


# ----------------------------------------------------------------------------- Safari Knockout
def _knockout(script: Script, states: list) -> list[Question]:
    from safari_kit.presentation.views import ITEM_SHORT

    words, viewer = script.words, script.viewer
    out = []

    def play_words(state, seat: int, card: str, item: str) -> str:
        if seat == viewer:
            return _("your {card} ({value})").format(card=words[card], value=getattr(words[card], item))
        return _("Player {seat}'s {card} ({value})").format(seat=seat, card=words[card],
                                                             value=getattr(words[card], item))

    # q1: must a follower beat the lead (K3)? the engine's legal_actions() for the next seat
    k = script.index("lead")
    before = states[k]
    seat, item = before.current_player, before.item
    lead_seat, lead_card = before.trick[0]
    legal = {a.card for a in before.legal_actions()}
    any_card = legal == set(before.hand(seat))
    value = getattr(words[lead_card], item)
    out.append(Question(
        "knockout-q1", k,
        _("You led {card} and named {item}: {value}. Player {seat} plays next. Must Player {seat} beat {value}?"
          ).format(card=words[lead_card], item=ITEM_SHORT[item].lower(), value=value, seat=seat),
        (_("No: any card may be played"), _("Yes: a higher card, if they have one")),
        _one("knockout-q1", [any_card, not any_card]),
        _ruling_line("K3"), ("K3",), frozenset({lead_card})))

    # q2: who wins the turn (K3: equal values go to the card played first), if the last card is lower
    k = script.index("follow-tie")
    before, after = states[k], states[k + 1]
    item, last = before.item, before.current_player
    game = before.game
    trick = list(before.trick)
    best = max(game.by_id[c].value(item) for _, c in trick)
    first_best = next((s, c) for s, c in trick if game.by_id[c].value(item) == best)
    tied = sum(1 for _, c in trick if game.by_id[c].value(item) == best) > 1
    winner = after.completed_turns[len(before.completed_turns)]["winner"]
    seats = list(before.active)
    shown = "; ".join(play_words(before, s, c, item) for s, c in trick)
    rule = (_("Between equal values the card played first wins, and {play} came first (K3).") if tied
            else _("The highest value wins, and {play} came first (K3)."))
    out.append(Question(
        "knockout-q2", k,
        _("{item} so far: {shown}. Player {last} plays last. If Player {last}'s card is lower, who wins this turn?"
          ).format(item=ITEM_SHORT[item], shown=shown, last=last),
        tuple(_seat(s, viewer) for s in seats),
        _one("knockout-q2", [s == winner for s in seats]),
        rule.format(play=play_words(before, *first_best, item)),
        ("K3",), frozenset(c for _, c in trick)))

    # q3: elimination (K5): the seat that won no turn in this round, if it wins none in the last turn
    k = script.index("turns-3-6")
    before, after = states[k], states[k + 1]
    wins = before.round_wins()
    zero = [s for s in before.active if wins[s] == 0]
    if len(zero) != 1:
        raise ValueError(f"knockout-q3: {len(zero)} players have won no turn in round {before.round}, not 1")
    seat = zero[0]
    left = before.cards_per_player - sum(1 for t in before.completed_turns if t["round"] == before.round)
    out.append(Question(
        "knockout-q3", k,
        # the last turn is said in words ("One turn is"), so it is its own sentence; {left} is 2 or more
        (_("One turn is left in round {round}, and Player {seat} has won no turn in it. If Player {seat} wins no "
           "turn now either, what happens to Player {seat}?") if left == 1 else
         ngettext("{left} turn are left in round {round}, and Player {seat} has won no turn in it. If Player {seat} "
                  "wins no turn now either, what happens to Player {seat}?",
                  "{left} turns are left in round {round}, and Player {seat} has won no turn in it. If Player {seat} "
                  "wins no turn now either, what happens to Player {seat}?", left)).format(
            left=left, round=before.round, seat=seat),
        (_("Player {seat} is out of the game").format(seat=seat),
         _("Player {seat} plays on in round {round}").format(seat=seat, round=before.round + 1)),
        _one("knockout-q3", [seat in after.out, seat not in after.out]),
        _ruling_line("K5"), ("K5",), frozenset()))
    return out


# ----------------------------------------------------------------------------- entry points
def questions(script: Script) -> tuple[Question, ...]:
    """The quiz of ``script``, in step order, read from the engine's replay of the script."""
    build = _witness if script.game == "witness" else _knockout
    return tuple(build(script, script.states()))


def questions_by_step(script: Script) -> dict[int, Question]:
    """The quiz by the step it is asked at (one question at most per step)."""
    out: dict[int, Question] = {}
    for q in questions(script):
        if q.step in out:
            raise ValueError(f"two questions at step {q.step}: {out[q.step].id} and {q.id}")
        out[q.step] = q
    return out
