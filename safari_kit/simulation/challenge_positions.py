"""Starting positions of the Challenge lab, reached by real play, and the lab's optimal policy.

A :class:`Position` is a *recipe*, not a state: a seed, the game's options,
the bots' spec and a number of turns. :func:`reach` builds the game, deals from
the seed and lets bots play every seat (the learner's too, with perfect
memory) for ``turns`` turns; from there the other seats' bots play to the
learner's turn. Nothing is edited by hand: what the learner remembers is what
the learner's seat saw during those turns (mostly the cards a failed turn left
face up, W4/W5).

The lab's choice on a turn is Identify or Challenge (W3; "reveal another" is
the Identification lab's business). :func:`lab_choice_values` gives the
expected number of cards archived by each, from
:mod:`safari_kit.probability.witness`; :func:`play_lab_policy` plays the
learner's seat like the kit's optimal policy restricted to those two choices
(the larger expected value; Identify with the best declaration; a Challenge
revealed and stopped by ``challenge_decision``).

``python -m safari_kit.simulation.challenge_positions`` prints what each
position looks like; the decision-share figure of the lab is printed by
``python tools/challenge_decision_share.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from safari_kit.core.chance import Chance
from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.simulation.registry import make_bot
from safari_kit.simulation.seats import BotSeats
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A
from safari_kit.witness.rules import MIN_SAFE, Phase

__all__ = ["Position", "POSITIONS", "DEFAULT_POSITION", "position", "reach", "to_decision", "facts", "fits_kind",
           "seed_of_kind", "KindNotFound",
           "lab_choice_values", "lab_choice", "finish_turn", "play_identify", "play_lab_policy", "decision_share"]

MAX_ACTIONS = 20_000
#: deals tried by :func:`seed_of_kind` before it gives up. The *Mid-game: stop or go on?* kind fits about 3 deals
#: in 100 (``tools/find_challenge_positions.py --kind-rate``), so 3000 tries all miss with a chance near 1e-40.
MAX_KIND_TRIES = 3000


class KindNotFound(ValueError):
    """No deal of a position's kind was found from a seed within :data:`MAX_KIND_TRIES` tries."""


@dataclass(frozen=True)
class Position:
    """How to reach a starting position by play: ``reach(position)`` replays it."""

    key: str
    title: str  # the chooser's label
    why: str  # one sentence: why this position is interesting
    seed: int
    turns: int = 0  # turns played by bots at every seat (the learner's too) before the lab starts
    players: int = 3
    bot: str = "random"  # the other seats (registry spec)
    learner_bot: str = "greedy"  # who plays the learner's seat during those turns (perfect memory)
    learner: int = 0
    first_player: int | None = None  # W11: None lets the seed pick
    advanced: bool = False
    case_module: bool = False
    claims: dict = field(default_factory=dict)  # what ``why`` says, checked by tests (see :func:`facts`)
    #: what EVERY deal of this position promises (issue 27), checked by :func:`fits_kind`: the lab deals from
    #: any seed (a fair, secret one included) only positions of this kind (:func:`seed_of_kind`); empty: any deal
    kind: dict = field(default_factory=dict)
    kind_why: str = ""  # the learner's sentence for any deal of the kind (``why`` holds only for ``seed``)

    def game(self) -> WitnessGame:
        return WitnessGame(players=self.players, advanced=self.advanced, case_module=self.case_module,
                           first_player=self.first_player)

    def options(self) -> dict:
        """The recipe in plain JSON types (for a report or a test's message)."""
        return {"seed": self.seed, "turns": self.turns, "players": self.players, "bot": self.bot,
                "learner_bot": self.learner_bot, "learner": self.learner, "first_player": self.first_player,
                "advanced": self.advanced, "case_module": self.case_module}


POSITIONS: tuple[Position, ...] = ()  # filled below, once the search has found the seeds


def position(key: str | Position | None) -> Position:
    if isinstance(key, Position):
        return key
    if key is None:
        return DEFAULT_POSITION
    for p in POSITIONS:
        if p.key == key:
            return p
    raise ValueError(f"unknown position {key!r}; choose one of {', '.join(p.key for p in POSITIONS)}")


def _learner_bot(pos: Position, game, seed: int):
    bot = make_bot("witness", pos.learner_bot)
    bot.start(game, pos.learner, Chance(seed).generator("learner-bot", pos.learner))
    return bot


def reach(pos: Position | str | None = None, seed: int | None = None, bot: str | None = None, deck_order=None):
    """(game, state, seats): ``pos.turns`` turns played by bots at every seat, from ``seed`` (default ``pos.seed``).

    ``seats`` (a :class:`~safari_kit.simulation.seats.BotSeats`) plays the other
    seats from here on. The state may be anywhere in a bot's turn, or on a
    failure lying face up; :func:`to_decision` goes on to the learner's choice.

    A position with a ``kind`` deals only positions of that kind: the deal comes from
    ``seed_of_kind(pos, seed)`` (``seed`` itself when its deal fits), so a lesson's promise about the
    position holds on every deal the lab serves, a secret one too (issue 27). ``deck_order`` (a test's
    stacked deck) turns the search off.
    """
    pos = position(pos)
    seed = pos.seed if seed is None else int(seed)
    if pos.kind and deck_order is None:
        seed = seed_of_kind(pos, seed, bot)
    return _reach(pos, seed, bot, deck_order)


def fits_kind(pos: Position, f: dict) -> bool:
    """Do the facts ``f`` (:func:`facts`, at the learner's first choice) make a deal of ``pos``'s kind?

    Keys of ``pos.kind``: a fact's name (that value exactly); ``"better"``: the choice with the larger expected
    archive; ``"risky_place": True``: a face-down place the learner does not remember, safe with a chance strictly
    between 0 and 1 (so the stop-or-go decision is a real one, not a sure thing either way).
    """
    for k, v in pos.kind.items():
        if k == "better":
            if (f["challenge"] > f["identify"]) != (v == "challenge"):
                return False
        elif k == "risky_place":
            risky = f["unknown_places"] > 0 and 0 < f["safe_unknown"] < f["unknown_cards"]
            if risky != bool(v):
                return False
        elif f.get(k) != v:
            return False
    return True


def _candidate(seed: int, key: str, i: int) -> int:
    """The ``i``-th seed tried for ``seed``: the seed itself first, then seeds derived from it (never seed + i)."""
    return seed if i == 0 else Chance(seed).generator("position-kind", key, i).bits(63)


def seed_of_kind(pos: Position | str, seed: int, bot: str | None = None) -> int:
    """The first seed of ``seed``'s sequence whose deal is of ``pos``'s kind (``seed`` itself when it fits).

    The sequence is a pure function of ``seed``: a class seed gives every screen the same deal, a secret seed
    a secret one. Each try replays the recipe to the learner's first choice (a few milliseconds).
    Raises :class:`KindNotFound` after :data:`MAX_KIND_TRIES` misses.
    """
    pos = position(pos)
    if not pos.kind:
        return int(seed)
    for i in range(MAX_KIND_TRIES):
        s = _candidate(int(seed), pos.key, i)
        _game, state, seats = _reach(pos, s, bot, None)
        to_decision(state, seats, pos.learner)
        if not state.is_terminal() and fits_kind(pos, facts(state, pos.learner)):
            return s
    raise KindNotFound(f"position {pos.key!r}: no deal of its kind {pos.kind} in {MAX_KIND_TRIES} deals "
                       f"from this seed")


def _reach(pos: Position, seed: int, bot: str | None, deck_order):
    # ``bot`` overrides the other seats' spec (the lab's ``bot=``); ``deck_order`` puts cards on top of the deck
    game = pos.game()
    state = game.new_initial_state(seed=seed, deck_order=deck_order)
    seats = BotSeats(game, pos.learner, pos.bot if bot is None else bot, seed)
    me = _learner_bot(pos, game, seed)
    n = 0
    while not state.is_terminal() and (state.turn <= pos.turns or state.phase == Phase.FACE_UP):
        p = state.current_player
        if p == pos.learner:
            state.apply(me.choose(state.observation(p), state.legal_sequence()))
        else:
            seats.play_one(state)
        n += 1
        if n > MAX_ACTIONS:  # pragma: no cover
            raise RuntimeError("the bots did not finish their turns")
    return game, state, seats


def to_decision(state, seats, learner: int) -> None:
    """Play on (the other seats' bots, through their failures) to the learner's Identify-or-Challenge choice."""
    while not state.is_terminal():
        if state.current_player == learner:
            if state.phase == Phase.CHOOSE:
                return
            if state.phase == Phase.FACE_UP:
                state.apply(A.TurnFaceDown())
                continue
            raise RuntimeError(f"the learner's turn is in phase {state.phase!r}")
        seats.play_until_learner(state, show_failures=False)


def knowledge(state, learner: int, memory: Memory = PERFECT) -> Knowledge:
    return Knowledge.from_observation(state.observation(learner), memory, game=state.game)


def facts(state, learner: int, memory: Memory = PERFECT) -> dict:
    """What a position's sentence may claim, at the learner's choice.

    ``face_down``: face-down places; ``remembered``: face-down places whose card
    the learner remembers; ``remembered_safe``: those safe for a Challenge of the
    learner's clue; ``remembered_match``: those a declaration of the clue would
    identify; ``identify``/``challenge``: the expected cards archived by each
    choice; ``p4_fresh``: P(4 safe) drawing from the unknown cards alone.
    """
    kn = knowledge(state, learner, memory)
    clue = kn.clue[0]
    t = PW.tables(state.game)
    unsafe = t.unsafe[clue]
    any_match = 0
    for types in PW.SINGLE_TYPES:
        any_match |= t.match[types][clue]
    pos = PW.challenge_position(kn, clue)
    values = lab_choice_values(kn)
    return {"turn": state.turn, "face_down": len(kn.face_down), "remembered": len(kn.known),
            "remembered_safe": sum(1 for c in kn.known.values() if not (unsafe >> c) & 1),
            "remembered_match": sum(1 for c in kn.known.values() if (any_match >> c) & 1),
            "unknown_places": len(pos["unknown_places"]), "safe_unknown": pos["a"], "unknown_cards": pos["n"],
            "identify": values["identify"], "challenge": values["challenge"],
            "p4_fresh": PW.p_streak_counts(pos["a"], pos["n"], MIN_SAFE)}


# ----------------------------------------------------------------------------- the lab's choice and policy
def lab_choice_values(kn) -> dict:
    """{"identify": E[cards archived], "challenge": E[cards archived]} (exact Fractions) for the lab's two choices."""
    values = PW.choice_values(kn, with_reveal_another=False)
    return {"identify": values["identify"].value, "challenge": values["challenge"].value}


def lab_choice(kn) -> str:
    """The choice with the larger expected archive ("identify" on a tie: it is over at once)."""
    v = lab_choice_values(kn)
    return "challenge" if v["challenge"] > v["identify"] else "identify"


def finish_turn(state, learner: int) -> None:
    """Archive in reveal order and end the turn (abilities are not used in this lab)."""
    while not state.is_terminal() and state.current_player == learner and state.phase in (
            Phase.ARCHIVE, Phase.ABILITIES):
        legal = state.legal_actions()
        state.apply(legal[0] if state.phase == Phase.ARCHIVE
                    else next((a for a in legal if isinstance(a, A.EndTurn)), legal[0]))


def play_identify(state, learner: int, memory: Memory = PERFECT) -> dict:
    """Identify with the best declaration (one clue card); returns what happened."""
    kn = knowledge(state, learner, memory)
    place, types, p = PW.best_declaration(kn)
    clue = state.game.cards[kn.clue[0]].id
    state.apply(A.Identify())
    state.apply(A.Declare(clue, types, place))
    event = next(e for e, _, _ in reversed(state.log) if e["kind"] == "identify")
    finish_turn(state, learner)
    return {"place": place, "types": types, "p": p.value, "card": event["card"], "success": bool(event["success"])}


def play_lab_policy(state, learner: int, memory: Memory = PERFECT) -> dict:
    """Play the learner's turn (phase choose) like the lab's optimal policy; returns a summary.

    ``{"choice", "values", "archived", "decision_came_up", "safe"}``; ``decision_came_up``:
    during the challenge, Stop was allowed while a face-down place was left to reveal (the
    stop-or-continue choice of the lab).
    """
    kn = knowledge(state, learner, memory)
    values = lab_choice_values(kn)
    choice = lab_choice(kn)
    out = {"choice": choice, "values": values, "archived": 0, "decision_came_up": False, "safe": 0}
    before = len(state.archives[learner])
    if choice == "identify":
        out.update(play_identify(state, learner, memory))
    else:
        state.apply(A.Challenge())
        while state.phase == Phase.CHALLENGE and state.current_player == learner:
            if state.is_legal(A.StopChallenge()) and state.face_down_places():
                out["decision_came_up"] = True
            out["safe"] = state.safe
            decision = PW.challenge_decision(knowledge(state, learner, memory))
            state.apply(A.RevealNext(decision[1]) if decision[0] == "reveal" else A.StopChallenge())
        finish_turn(state, learner)
    out["archived"] = len(state.archives[learner]) - before
    return out


def decision_share(seeds=range(200), pos: Position | str | None = None, first_only: bool = False) -> dict:
    """Over ``seeds`` replays of ``pos`` (default: the lab's default position), the learner playing the lab's
    optimal policy to the end of each game: how many challenges, and in how many the stop-or-continue
    choice came up."""
    pos = position(pos)
    challenges = came_up = identifies = turns = 0
    archived_challenge = Fraction(0)
    for seed in seeds:
        game, state, seats = reach(pos, seed)
        while True:
            to_decision(state, seats, pos.learner)
            if state.is_terminal():
                break
            r = play_lab_policy(state, pos.learner)
            turns += 1
            if r["choice"] == "challenge":
                challenges += 1
                came_up += r["decision_came_up"]
                archived_challenge += r["archived"]
            else:
                identifies += 1
            if first_only:
                break
    return {"seeds": len(seeds), "turns": turns, "identifies": identifies, "challenges": challenges,
            "decision_came_up": came_up, "share": Fraction(came_up, challenges) if challenges else None,
            "mean_archived_per_challenge": archived_challenge / challenges if challenges else None}

# Found by tools/find_challenge_positions.py (seeds + bot play); tests replay each and check ``claims``.
POSITIONS = (
    Position("stop-or-go", "Mid-game: stop or go on?",
             "There are 7 face-down places, and you remember 5 of them. All 5 are safe for your clue, so your "
             "first 5 reveals are sure. Then you decide: stop with 6 cards, or risk them all on a place that is "
             "safe with chance 26/69 ≈ 0.38.",
             seed=135, turns=2,
             claims={"face_down": 7, "remembered": 5, "remembered_safe": 5, "safe_unknown": 26, "unknown_cards": 69,
                     "better": "challenge"},
             kind={"remembered_safe": 5, "risky_place": True, "better": "challenge"},
             kind_why="You remember 5 face-down places that are safe for your clue. Reveal them first, and you "
                      "will surely reach the moment to stop or go on. The places you do not remember are a real "
                      "risk."),
    Position("fresh", "Fresh table (first turn)",
             "There are 4 face-down places, and you remember none of them. All 4 must be safe before you may "
             "stop. For the TAM Elephant that chance is 31465/1150626 ≈ 0.027. So Identify (14/37 ≈ 0.38 cards "
             "on average) beats Challenge (about 0.14).",
             seed=197, turns=0, first_player=0,
             claims={"face_down": 4, "remembered": 0, "better": "identify", "clue_name": "TAM"}),
    Position("close-call", "Mid-game: a close call",
             "There are 8 face-down places, and you remember 5 of them. 3 are safe for your clue, and 2 match "
             "it. So Identify archives 2 cards for sure. A Challenge gives 3 sure reveals, then one safe with "
             "chance 28/69: on average it archives 140/69 ≈ 2.03 cards.",
             seed=343, turns=2,
             claims={"face_down": 8, "remembered": 5, "remembered_safe": 3, "remembered_match": 2,
                     "safe_unknown": 28, "unknown_cards": 69, "identify": 2, "challenge": Fraction(140, 69),
                     "better": "challenge"}),
    Position("identify-sure", "Mid-game: a sure identification",
             "There are 7 face-down places, and you remember 5 of them. 3 share something with your clue, so "
             "Identify archives 2 cards for sure. Only 2 of the places you remember are safe, so a Challenge is "
             "worth less than 1 card.",
             seed=21, turns=2,
             claims={"face_down": 7, "remembered": 5, "remembered_safe": 2, "remembered_match": 3,
                     "better": "identify"}),
)
DEFAULT_POSITION = POSITIONS[0]
