"""The scripted games of the rules tutorial (lesson 07), as data.

A :class:`Script` is a game set up exactly (Witness: a small deck in a fixed
order, ``WitnessGame(cards=...)`` + ``deck_order``; Knockout: the 7 deals given
with ``deals=``) and a list of :class:`Step` s. Each step applies zero or more
engine actions and carries the explanation of what just happened, with the
rulings (W3, K3, …) it illustrates. Nothing here decides a rule: the engine
applies every action (an illegal one raises), and
:func:`engine_rulings` reads back, from the engine's own log and state, which
rulings it applied in a step, so tests can check each explanation against the
engine.

Explanations are templates: ``{W72}`` becomes the words for card W72 ("the
Violet Pig (Wavy, named TOM)"), ``{K08.top_speed_kmh}`` a value with its unit.
They only ever name cards the learner's seat (seat 0) may see at that step.

>>> script = witness_script()
>>> states = script.states()
>>> len(states) == len(script.steps)
True
>>> states[-1].end_reason
'deck'
"""
from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from safari_kit.core.i18n import N_, _
from safari_kit.presentation.card_words import mugshot_elements, pal_name

#: One line per ruling a step names, in a learner's words: the ruling's name and its gist. A click opens the
#: ruling's section of the learners' rules page (safari_kit.tutorial.learner_rules, in step with docs/rules.md).
RULINGS: dict[str, tuple[str, str]] = {
    "W2": (N_("Names and ink"), N_("A ? is a letter hidden by ink. Two cards share a name when one name fits both.")),
    "W3": (N_("A turn"), N_("Turn over the top card of the deck: it is your clue card. Then identify, or turn over one "
                     "more and identify, or challenge.")),
    "W4": (N_("Identify"), N_("Pair each clue card with a face-down card sharing the clue type you say. All match: you "
                       "win them. One fails: everyone sees them.")),
    "W5": (N_("Challenge"), N_("Turn over face-down cards one by one. A card sharing anything with the challenged card "
                        "fails. After 4 safe cards you may stop and win.")),
    "W6": (N_("Refill"), N_("When the Unidentified Area has fewer than 4 cards, cards from the deck fill it up to 4.")),
    "W7": (N_("The end"), N_("The game ends when someone has 10 cards, or when a card must come from an empty deck.")),
    "W8": (N_("Who wins"), N_("You score 1 point for each card you won. The highest total wins.")),
    "W10": (N_("Advanced Mode"), N_("A pair that succeeds by name earns that name's power. TOM lets you peek at a "
                             "face-down card.")),
    "K2": (N_("Rounds"), N_("Round 1 deals 7 cards each, round 2 deals 6, and so on. The dealer and the lead move one "
                     "seat clockwise.")),
    "K3": (N_("A turn"), N_("The lead plays a card and names a data item. The others play any card. Highest number "
                     "wins. A tie goes to the first card.")),
    "K4": (N_("Points"), N_("You get 1 point for each turn you win, added up over the whole game.")),
    "K5": (N_("Knockout"), N_("After a round, anyone who won no turn in it is out for the rest of the game.")),
}

#: The line under each tutorial, in a learner's words (issue 27: it said "2 players, Advanced Mode, a 9-card
#: deck in a fixed order", three terms a new player had not met): what is special about this scripted game.
WITNESS_INTRO = (N_("A game for 2 players: you are Player 0. It uses Advanced Mode: a pair that succeeds by name "
                 "gives you that name's power. The deck has only 9 cards, always in the same order, so the game "
                 "is short."))
KNOCKOUT_INTRO = (N_("A game for 3 players: you are Player 0. It uses Variation 1: a player who wins no turn in a "
                  "round is out of the game."))

# ----------------------------------------------------------------------------- data structures
@dataclass(frozen=True)
class Step:
    """One step of a scripted game: the actions it applies and what they show."""

    key: str
    title: str
    rulings: tuple[str, ...]
    text: str
    actions: tuple = ()


@dataclass(frozen=True)
class Script:
    """A scripted game: how to set it up exactly, and its steps (step 0 is the set-up)."""

    game: str  # "witness" or "knockout"
    title: str
    make_game: Callable[[], Any]
    setup: dict
    steps: tuple[Step, ...]
    viewer: int = 0
    intro: str = ""
    words: dict = field(default_factory=dict, compare=False)

    def new_state(self):
        """The state before step 0's explanation (the dealt position), from the same set-up every time."""
        return self.make_game().new_initial_state(**self.setup)

    def states(self) -> list:
        """The state after each step (``states()[0]`` is the set-up), replayed through the engine."""
        state = self.new_state()
        out = []
        for step in self.steps:
            for action in step.actions:
                state.apply(action)  # raises IllegalActionError if the script and the rules disagree
            out.append(state.clone())
        return out

    def actions(self) -> list:
        return [a for step in self.steps for a in step.actions]

    def step(self, key: str) -> Step:
        return next(s for s in self.steps if s.key == key)

    def index(self, key: str) -> int:
        return next(i for i, s in enumerate(self.steps) if s.key == key)

    def explain(self, k: int) -> str:
        """Step ``k``'s explanation with its card placeholders filled in, in the learner's language."""
        return fill(_(self.steps[k].text), self.words)


class _Words:
    """How a card is named in an explanation: ``{W01}`` and ``{W01.name}``, ``{K08.top_speed_kmh}``."""

    def __init__(self, card, text: str | Callable[[Any], str], units: dict | None = None):
        # text: the card's words, or a function writing them when said (the script is cached: the words are
        # said in the language of the learner reading them, issue 30)
        self._card, self._text, self._units = card, text, units or {}

    def __format__(self, spec: str) -> str:
        return self._text(self._card) if callable(self._text) else self._text

    def __getattr__(self, attr: str):
        value = getattr(self._card, attr)
        if attr in self._units:
            return f"{float(value):g} {_(self._units[attr])}"
        return value


def fill(template: str, words: dict) -> str:
    """Fill a step template with card words (``string.Formatter``: only names, no expressions)."""
    return string.Formatter().vformat(template, (), words)


def template_cards(template: str) -> set[str]:
    """The card ids a template names."""
    ids = set()
    for _text, field_name, _spec, _conv in string.Formatter().parse(template):
        if field_name:
            ids.add(field_name.split(".")[0])
    return ids


# ----------------------------------------------------------------------------- Safari Witness
#: The 9 Mugshots of the Witness tutorial, in deck order: places 1-4, then the clue cards and refills.
WITNESS_DECK = ("W16", "W33", "W53", "W44",  # set-up: places 1, 2, 3, 4
                "W72",  # your first clue
                "W41",  # refill after your archive: place 5
                "W38", "W66",  # Player 1's two clue cards
                "W49")  # your second clue: the challenged card


def _mugshot_words(card) -> str:
    return _("the {color} {animal} ({texture}, named {name})").format(**mugshot_elements(card))


def _witness_game():
    from safari_kit.cards.load import load_cards
    from safari_kit.witness import WitnessGame

    by_id = {c.id: c for c in load_cards().witness}
    return WitnessGame(players=2, advanced=True, first_player=0, cards=[by_id[i] for i in WITNESS_DECK])


@lru_cache(maxsize=1)
def witness_script() -> Script:
    """Safari Witness, 2 players, Advanced Mode, a 9-card deck so the game ends quickly (W7)."""
    from safari_kit.witness import actions as A

    game = _witness_game()
    words = {c.id: _Words(c, _mugshot_words) for c in game.cards}
    steps = (
        Step("setup", N_("Set-up: 4 face-down cards, and your first clue"), ("W6", "W3"),
             N_("4 Mugshots are dealt face down to the Unidentified Area. This area always holds at least 4 cards "
             "(W6). This tutorial uses a small deck of 9 cards, always in the same order, so the game is short. "
             "It is your turn: you are Player 0. The top card of the deck is turned over into the Clue Area. "
             "Your clue is {W72} (W3).")),
        Step("identify", N_("You choose: Identify"), ("W3",),
             N_("Now you choose one of three options (W3): identify now; turn over one more clue, then identify; "
             "or challenge. You choose to identify with your one clue card."),
             (A.Identify(),)),
        Step("declare-success", N_("A successful identification by name"), ("W4", "W2"),
             N_("You say the clue type Name and turn over place 1: it is {W16}. Your clue is named "
             "{W72.name} too, so the two cards share a name (W2): success (W4). Every clue card has now "
             "succeeded, so you win both cards."),
             (A.Declare("W72", ("name",), 1),)),
        Step("archive", N_("Archive in your order, refill"), ("W4", "W6", "W10"),
             N_("You put both cards on your archive, your pile of won cards (W4). They go one at a time, in the "
             "order you choose, and the last one is on top. First {W72}, then {W16} on top. The order "
             "matters later: ALEX works from the top, and KIM, TAM or ALAN can take the top card away. Your "
             "archive now holds 2 Mugshots. The Unidentified Area fell to 3 cards. So the deck refills it to "
             "4: a new face-down place 5 (W6). You succeeded by saying a name, in Advanced Mode. So you earn "
             "that name's power: TOM (W10)."),
             (A.ArchiveCard("W72"),)),
        Step("tom", N_("TOM: a private look"), ("W10", "W3"),
             N_("TOM lets you look at one face-down card in secret. The card stays where it is. You look at "
             "place 4: it is {W44}. Only you know this: for Player 1, place 4 is still a mystery (W10). "
             "Remember it! Your turn is over. Player 1's turn starts with a new clue: {W38} (W3)."),
             (A.UseTom(4),)),
        Step("reveal-another", N_("Player 1 reveals another clue"), ("W3",),
             N_("Player 1 chooses the second option: turn over one more card into the Clue Area, then identify "
             "(W3). The second clue is {W66}. Now both clue cards must be identified, one after the other. "
             "There are more cards to win, but twice the risk."),
             (A.RevealAnother(),)),
        Step("declare-second", N_("First clue: success"), ("W4",),
             N_("Player 1 says Animal for {W38} and turns over place 2: {W33}. Same animal: this pair "
             "succeeds (W4). But the turn is not won yet: the second clue card still has to succeed."),
             (A.Declare("W38", ("animal",), 2),)),
        Step("declare-fail", N_("Second clue: failure, everything goes back face up"), ("W4",),
             N_("Player 1 says Color for {W66} and turns over place 3: {W53}. The colors differ: the "
             "identification fails, and the turn ends at once (W4). Nothing is archived, not even the pair "
             "that succeeded. Every card turned over this turn goes to the Unidentified Area face up. So "
             "everybody sees them. {W33} and {W53} stay at places 2 and 3. The clue cards take new places. "
             "{W38} goes to place 6 and {W66} to place 7. Look at the table: all four lie face up for everybody. "
             "This is the moment to remember them!"),
             (A.Declare("W66", ("color",), 3),)),
        Step("face-down", N_("The cards are turned face down"), ("W4", "W3"),
             N_("Player 1 turns the four cards face down: that ends the failed turn (W4). The Unidentified Area "
             "now holds 6 face-down cards. If you remembered, you know 5 of them. They are the four that lay "
             "face up, and the one your TOM look showed you. Your turn starts: your clue is {W49} (W3)."),
             (A.TurnFaceDown(),)),
        Step("challenge", N_("You choose: Challenge"), ("W5", "W3"),
             N_("You choose the third option, Challenge (W3). The challenged Mugshot is your clue, {W49}. You "
             "will turn over face-down cards one at a time. A card is safe when it shares nothing with {W49}. "
             "No animal, texture or color in common, and no name that could fit both. After 4 safe cards you "
             "may stop and archive them all. The first unsafe card fails the whole Challenge (W5). Memory "
             "helps: you know 5 of the 6 face-down cards."),
             (A.Challenge(),)),
        Step("safe-1", N_("Reveal 1: the card you peeked at"), ("W5",),
             N_("You turn over place 4. With TOM you saw it earlier: {W44}. It shares nothing with {W49}: safe, "
             "1 so far (W5)."),
             (A.RevealNext(4),)),
        Step("safe-2", N_("Reveal 2: a card everybody saw"), ("W5",),
             N_("Place 2 was face up during Player 1's failed turn: {W33}. Safe, 2 so far (W5)."),
             (A.RevealNext(2),)),
        Step("safe-3", N_("Reveal 3: another remembered card"), ("W5",),
             N_("Place 6 holds {W38}, Player 1's first clue card. Safe, 3 so far (W5)."),
             (A.RevealNext(6),)),
        Step("safe-4", N_("Reveal 4: the one card you never saw"), ("W5",),
             N_("Now you turn over place 5, the only face-down card you have never seen. In a full deck this "
             "would be a gamble. But in this 9-card deck you have seen every other card. So it can only be "
             "the one card left. That card shares nothing with the challenged card: the chance is 1, a sure "
             "thing. It is {W41}: safe! That makes 4 safe cards, so you may stop now (W5). You could go "
             "on for more cards. But the two cards left are the unsafe ones you remember."),
             (A.RevealNext(5),)),
        Step("stop", N_("Stop after 4 safe reveals"), ("W5",),
             N_("You stop. The challenged card and the 4 safe cards are won: 5 Mugshots (W5). Next you choose "
             "the order in which they go on your archive."),
             (A.StopChallenge(),)),
        Step("end", N_("Archive, refill... and the deck is empty"), ("W5", "W6", "W7", "W8"),
             N_("You put the 4 safe cards on your archive one by one, and {W49} last, on top (W4, W5). Your "
             "archive now holds 7 cards. The Unidentified Area holds only 2 cards, so it must be refilled "
             "(W6). But the deck is empty, so the game ends at once (W7). You score one point for each card "
             "in your archive: you win (W8)."),
             (A.ArchiveCard("W44"), A.ArchiveCard("W33"), A.ArchiveCard("W38"), A.ArchiveCard("W41"))),
    )
    return Script("witness", N_("Safari Witness: a scripted game"), _witness_game,
                  {"seed": 0, "deck_order": list(WITNESS_DECK)}, steps, viewer=0,
                  intro=WITNESS_INTRO,
                  words=words)


# ----------------------------------------------------------------------------- Safari Knockout
#: Round 1: the three hands as dealt (one card at a time, from the dealer's left: seat 0).
KNOCKOUT_HANDS = (
    ("K08", "K02", "K42", "K01", "K09", "K05", "K14"),  # you: Grevy's Zebra and big animals
    ("K07", "K03", "K04", "K53", "K06", "K23", "K18"),  # Player 1: Plains Zebra and big animals
    ("K34", "K35", "K37", "K51", "K33", "K39", "K32"),  # Player 2: small animals
)
#: Every play of round 1 (turn by turn) and the first turn of round 2.
KNOCKOUT_PLAYS = (
    ("K08", "top_speed_kmh"), ("K07", None), ("K37", None),  # turn 1 (you lead): a real tie, the lead wins (K3)
    ("K03", "weight_kg"), ("K34", None), ("K01", None),  # turn 2 (Player 1 leads)
    ("K35", "weight_kg"), ("K05", None), ("K04", None),  # turn 3 (Player 2 leads)
    ("K02", "size_cm"), ("K53", None), ("K39", None),  # turn 4
    ("K23", "top_speed_kmh"), ("K51", None), ("K09", None),  # turn 5: another tie, won by the lead
    ("K33", "weight_kg"), ("K14", None), ("K06", None),  # turn 6
    ("K42", "lifespan_years"), ("K18", None), ("K32", None),  # turn 7
)

_UNITS = {"weight_kg": "kg", "size_cm": "cm", "top_speed_kmh": "km/h", "lifespan_years": N_("years")}


def _knockout_game():
    from safari_kit.knockout import KnockoutGame

    return KnockoutGame(players=3, elimination=True)


def knockout_deals(game) -> list[list[str]]:
    """Round 1 deals ``KNOCKOUT_HANDS`` (seat 0 first); rounds 2-7 deal the deck rotated by 7·(r-1) cards."""
    ids = list(game.card_ids)
    first = [c for trio in zip(*KNOCKOUT_HANDS) for c in trio]
    first += [c for c in ids if c not in first]
    return [first] + [ids[7 * r:] + ids[:7 * r] for r in range(1, 7)]


def round2_first_turn(game) -> tuple:
    """Round 2's first turn: each player still in plays the first card of their hand (Player 1 leads)."""
    from safari_kit.knockout.actions import Play

    state = game.new_initial_state(seed=0, deals=knockout_deals(game))
    for card, item in KNOCKOUT_PLAYS:
        state.apply(Play(card, item))
    plays = []
    for k in range(len(state.active)):
        seat = state.current_player
        card = state.hand(seat)[0]
        action = Play(card, "size_cm" if k == 0 else None)
        state.apply(action)
        plays.append(action)
    return tuple(plays)


@lru_cache(maxsize=1)
def knockout_script() -> Script:
    """Safari Knockout, 3 players, Variation 1 (elimination), round 1 and the start of round 2."""
    from safari_kit.knockout.actions import Play

    game = _knockout_game()
    words = {c.id: _Words(c, pal_name, _UNITS) for c in game.cards}
    P = [Play(c, i) for c, i in KNOCKOUT_PLAYS]
    steps = (
        Step("deal", N_("Round 1: the deal"), ("K2",),
             N_("There are 3 players and 7 rounds. Round 1 deals 7 cards to each player, round 2 deals 6, and "
             "so on (K2). Player 2 deals, one card at a time, starting on the dealer's left. The player on "
             "the dealer's left leads the first turn: that is you, Player 0. You see only your own hand. This "
             "game uses Variation 1: whoever wins no turn in a round is out (K5).")),
        Step("lead", N_("You lead and name a data item"), ("K3",),
             N_("The lead plays a card and names one data item. You play {K08} and name top speed: "
             "{K08.top_speed_kmh} (K3)."),
             (P[0],)),
        Step("follow-tie", N_("Player 1 follows with an equal value"), ("K3",),
             N_("Player 1 sees your card and may play any card: nobody has to beat it. Player 1 plays "
             "{K07}, top speed {K07.top_speed_kmh}: exactly as fast as your zebra. Real data has ties! "
             "To beat an earlier card, a later card must be higher, not equal (K3)."),
             (P[1],)),
        Step("tie-won", N_("The tie goes to the card played first; one point"), ("K3", "K4"),
             N_("Player 2 plays {K37} ({K37.top_speed_kmh}). The highest top speed is "
             "{K08.top_speed_kmh}, shared by both zebras. Between equal values, the card played first wins. "
             "So you win the turn (K3) and score one point (K4)."),
             tuple(P[2:3])),
        Step("turn-2", N_("Turn 2: the lead moves clockwise"), ("K2", "K3", "K4"),
             N_("The lead moves one seat clockwise every turn, whoever won: now Player 1 leads (K2). Player 1 "
             "plays {K03} and names weight ({K03.weight_kg}). Player 2 plays {K34}. You play {K01} "
             "({K01.weight_kg}) and win the turn: another point (K3, K4)."),
             tuple(P[3:6])),
        Step("turns-3-6", N_("Turns 3 to 6"), ("K3", "K4"),
             N_("Four more turns. In turn 5, Player 1 leads {K23} and names top speed ({K23.top_speed_kmh}). You "
             "play {K09}, exactly as fast: another tie. Again the card played first wins, this time Player "
             "1's (K3). Look at the scores: Player 2 has not won a single turn yet (K4)."),
             tuple(P[6:18])),
        Step("elimination", N_("End of round 1: Player 2 is out"), ("K5", "K2", "K4"),
             N_("In the last turn of the round, you lead {K42}, name lifespan ({K42.lifespan_years}) and win. "
             "Round 1 is over. Player 2 won no turn in it. So Player 2 is out for the rest of the game (K5). "
             "The points won so far still count (K4). Round 2 deals 6 cards to each player still in. The deal "
             "moves one seat clockwise, to you. The next player on your left who is still in leads: Player 1 "
             "(K2). Player 2's seat is skipped from now on."),
             tuple(P[18:21])),
        Step("round-2", N_("Round 2, turn 1: two players left"), ("K3", "K4", "K5"),
             N_("Player 1 leads and names size; you follow. Only two cards are played now: Player 2 is out "
             "and skipped (K5). The turn goes to the higher size (K3) and its point is added to the total "
             "(K4). The game goes on like this to round 7: the highest total wins."),
             round2_first_turn(game)),
    )
    return Script("knockout", N_("Safari Knockout: a scripted game"), _knockout_game,
                  {"seed": 0, "deals": knockout_deals(game)}, steps, viewer=0,
                  intro=KNOCKOUT_INTRO, words=words)


def script(game: str) -> Script:
    """The tutorial script of ``game`` ("witness" or "knockout")."""
    if game == "witness":
        return witness_script()
    if game == "knockout":
        return knockout_script()
    raise ValueError(f"game must be 'witness' or 'knockout', got {game!r}")


# ----------------------------------------------------------------------------- what the engine did
_WITNESS_EVENT_RULINGS = {"deal": "W6", "clue": "W3", "identify": "W4", "fail": "W4", "face_down": "W4",
                          "challenge": "W5", "challenge_reveal": "W5", "end": "W7",
                          "tom": "W10", "tam": "W10", "sam": "W10", "kim": "W10", "kris": "W10",
                          "alan_take": "W10"}


def engine_rulings(before, after) -> set[str]:
    """The rulings the engine applied between two states of one game (``before=None``: the set-up).

    Read from the engine only: Witness from the new log events (and the phase),
    Knockout from rounds, completed turns, scores and who is out.
    """
    if hasattr(after, "log"):
        return _witness_rulings(before, after)
    return _knockout_rulings(before, after)


def _witness_rulings(before, after) -> set[str]:
    start = 0 if before is None else len(before.log)
    found = set()
    events = [e for e, _, _ in after.log[start:]]
    for e in events:
        kind = e["kind"]
        if kind == "archive":
            challenge = any(x["kind"] == "challenge" and x["turn"] == e["turn"] for x, _, _ in after.log)
            found.add("W5" if challenge else "W4")
        elif kind in _WITNESS_EVENT_RULINGS:
            found.add(_WITNESS_EVENT_RULINGS[kind])
        if kind == "identify" and e["success"] and "name" in e["types"]:
            found.add("W2")
        if kind == "end":
            found.add("W8")
            if e["reason"] == "deck" and any(x["kind"] == "archive" for x in events):
                found.add("W6")  # the refill after an archive needed a card from the empty deck
    if before is not None and before.phase == "choose" and after.history[len(before.history):][:1]:
        found.add("W3")  # the choice of Identify / Reveal another / Challenge
    if after.phase == "archive" and after.challenged is not None:
        found.add("W5")  # a Challenge stopped after enough safe reveals
    if after.pending and after.phase == "abilities":
        found.add("W10")
    return found


def _knockout_rulings(before, after) -> set[str]:
    found = set()
    if before is None or after.round != before.round:
        found.add("K2")
    done_before = 0 if before is None else before.turns_played
    new_turns = after.completed_turns[done_before:]
    played = len(after.history) - (0 if before is None else len(before.history))
    if played:
        found.add("K3")
    if new_turns:
        found.add("K4")
        if not after.is_terminal():
            found.add("K2")  # the lead moved on (or a new round was dealt)
    if before is not None and after.out != before.out:
        found.add("K5")
    if after.out:  # a step after an elimination shows it by skipping the seats that are out
        found.add("K5")
    return found


def tie_turns(state) -> list[dict]:
    """The completed turns whose winning value was equalled by a later card (K3 ties decided by order)."""
    game = state.game
    out = []
    for t in state.completed_turns:
        values = [game.by_id[c].value(t["item"]) for _, c in t["plays"]]
        best = max(values)
        if values.count(best) > 1:
            out.append(t)
    return out
