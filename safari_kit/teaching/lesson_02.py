"""Lesson 02 (identification): answers and hints of its exercises.

The questions are in notebooks/02-identification.md. The running example is the
first clear TAM card (an Elephant) as the clue; every answer is computed from
the deck, with :mod:`safari_kit.probability.witness` where it helps, never
typed in.
"""
from __future__ import annotations

from fractions import Fraction

from safari_kit.teaching import deck
from safari_kit.core.i18n import N_
from safari_kit.teaching.exercises import Exercise, Hint, register


def _w():
    from safari_kit.probability import witness as W

    return W


def _others() -> int:
    """The cards that may lie face down: all but the clue card."""
    return len(deck.witness()) - 1


def _share_count(card_id: str, clue_type: str) -> int:
    from safari_kit.cards.names import shared_names

    cards = deck.witness()
    me = next(c for c in cards if c.id == card_id)
    if clue_type == "name":
        return sum(1 for c in cards if c.id != me.id and shared_names(c.name, me.name))
    return sum(1 for c in cards if c.id != me.id and getattr(c, clue_type) == getattr(me, clue_type))


def card_words(card) -> str:
    """A Mugshot as a learner reads it, without its id: "TAM, an Orange Brick Elephant"."""
    words = f"{card.color} {card.texture} {card.animal}"
    return f"{card.name}, {'an' if words[:1].upper() in 'AEIOU' else 'a'} {words}"


def memory_lines(game, knowledge) -> list[str]:
    """What seat 0 knows about each face-down place, in plain words (lesson 02 §4): the card it saw there,
    or that it never saw it; then how many cards it cannot place. (The Knowledge's own text is for
    developers: place ids and card ids.)"""
    lines = []
    for place in knowledge.available:
        if place in knowledge.known:
            lines.append(f"place {place}: you saw {card_words(game.cards[knowledge.known[place]])}")
        else:
            lines.append(f"place {place}: you never saw this card")
    lines.append(f"cards you cannot place (face down somewhere, or still in the deck): {len(knowledge.pool)}")
    return lines


def _name_p(name: str) -> Fraction:
    return Fraction(_w().match_count(deck.first_named(name), "name"), _others())


register(Exercise(
    "02.animal", lambda: Fraction(_share_count(deck.first_named("TAM"), "animal"), _others()),
    hints=[Hint(lambda a: a == Fraction(1, 5),
                N_("1/5 is right for a card before any card is seen. The clue card is out of the pool now: "
                  "how many cards are left, and how many of them share its animal?")),
           Hint(lambda a: a == Fraction(15, 74), N_("The clue card itself is one of the 15; it cannot be face "
                                                   "down too."))],
    general_hint=N_("Count the cards that are still possible (all but the clue card) and those sharing its animal.")))


def name_mistakes(name: str) -> dict[str, int]:
    """What the right count and each common mistake give for the clue card named ``name``, out of the 74
    other cards: the hints of the name exercises fire on exactly these counts (tests/notebooks/
    test_lesson_hints.py recounts them independently).

    ``right``: the other cards whose name could be the same (W2); ``ink forgotten``: only the clear names
    among them; ``clue counted``: the clue card counted in the pool too; ``ink forgotten, clue counted``:
    both mistakes; ``one ink card forgotten``: all but one of the ink cards that could read it;
    ``printed name only``: only the other cards printed exactly the same (``printed name, clue counted``:
    and the clue card); ``ink of another length``: the clear names and the ink cards of another length, as
    if they could read it; ``ink that cannot read it``: the clear names and the ink cards of the same length
    that cannot read it.
    """
    from safari_kit.cards.names import is_ink, shared_names

    cards = deck.witness()
    clue = next(c for c in cards if c.name == name)
    others = [c for c in cards if c.id != clue.id]
    right = sum(1 for c in others if shared_names(c.name, name))
    clear = sum(1 for c in others if shared_names(c.name, name) and not is_ink(c.name))
    ink = right - clear
    unreadable = [c for c in others if is_ink(c.name) and not shared_names(c.name, name)]
    printed = sum(1 for c in others if c.name == name)
    return {"right": right, "ink forgotten": clear, "clue counted": right + 1,
            "ink forgotten, clue counted": clear + 1, "one ink card forgotten": right - 1 if ink > 1 else -1,
            "printed name only": printed, "printed name, clue counted": printed + 1,
            "ink of another length": clear + sum(1 for c in unreadable if len(c.name) != len(name)),
            "ink that cannot read it": clear + sum(1 for c in unreadable if len(c.name) == len(name))}


_CLUE_NOT_IN_POOL = N_("The clue card itself cannot be face down: leave it out of the count.")


def _mistake(name: str, *kinds: str):
    """A hint's test: the answer is what one of ``kinds`` of mistake gives for ``name`` (over 74)."""
    return lambda a: any(a == Fraction(name_mistakes(name)[k], _others()) for k in kinds)


register(Exercise(
    "02.tam-name", lambda: Fraction(_share_count(deck.first_named("TAM"), "name"), _others()),
    hints=[Hint(_mistake("TAM", "ink forgotten"),
                N_("Don't forget the ink cards whose hidden letters could spell TAM.")),
           Hint(_mistake("TAM", "ink forgotten, clue counted"),
                N_("Two things: the clue card is one of the TAMs, so it is not in the pool; and the ink cards "
                  "whose hidden letters could spell TAM count too.")),
           Hint(_mistake("TAM", "clue counted"), _CLUE_NOT_IN_POOL),
           Hint(_mistake("TAM", "one ink card forgotten"),
                N_("One ink card is missing: try every ink pattern of three letters against TAM."))],
    general_hint=N_("Count the other TAMs, then add each ink card whose pattern matches TAM.")))

register(Exercise(
    "02.kris-name", lambda: _name_p("KRIS"),
    hints=[Hint(_mistake("KRIS", "clue counted"),
                N_("The clue card is one of the KRIS cards, so it is not face down.")),
           Hint(_mistake("KRIS", "ink of another length"),
                N_("Which ink names could spell KRIS? A name with three letters never can.")),
           Hint(_mistake("KRIS", "ink that cannot read it"),
                N_("AL?? and ?L?? have four letters, but their second letter is L: they cannot read KRIS."))],
    general_hint=N_("Count the other KRIS cards, then the ink cards whose pattern has the right length and "
                   "letters.")))

register(Exercise(
    "02.ink-name", lambda: _name_p("??M"),
    hints=[Hint(_mistake("??M", "printed name only", "printed name, clue counted"),
                N_("??M could be any three-letter name ending in M: which names are those?")),
           Hint(_mistake("??M", "ink forgotten"),
                N_("Don't forget the other ink cards: T?M and ?AM could also end in M.")),
           Hint(_mistake("??M", "clue counted"), _CLUE_NOT_IN_POOL)],
    general_hint=N_("List the names ??M could be (TAM, TOM, SAM, KIM), count those cards, then add the "
                   "matching ink cards.")))


def _alex_pair() -> Fraction:
    return Fraction(_w().match_count(deck.first_named("TAM"), ("animal", "color")), _others())


def alex_pair_counts() -> dict[str, int]:
    """The counts 02.alex-pair needs, for the TAM clue card (over the 74 other cards): ``animal``, ``color``,
    ``both`` (the other cards with the same animal and color: lesson 02 §3 prints this count), and ``pair
    cell`` (every card of that animal and color, the clue card too)."""
    cards = deck.witness()
    tam = next(c for c in cards if c.id == deck.first_named("TAM"))
    others = [c for c in cards if c.id != tam.id]
    both = sum(1 for c in others if c.animal == tam.animal and c.color == tam.color)
    return {"animal": _share_count(tam.id, "animal"), "color": _share_count(tam.id, "color"), "both": both,
            "pair cell": both + 1}


def _pair_is(count):
    return lambda a: a == Fraction(count(alex_pair_counts()), _others())


register(Exercise(
    "02.alex-pair", _alex_pair,
    hints=[Hint(_pair_is(lambda n: n["animal"] + n["color"]),
                N_("Adding the two counts counts some cards twice: the cards with the same animal AND the "
                  "same color. The cell above prints how many there are. Take them away once.")),
           Hint(_pair_is(lambda n: n["animal"] + n["color"] + n["both"]),
                N_("The cards sharing both were counted twice already: take them away, don't add them.")),
           Hint(_pair_is(lambda n: n["animal"] + n["color"] - n["pair cell"]),
                N_("The clue card itself is one of the cards with that animal and color. It is not among the 74.")),
           Hint(_pair_is(lambda n: n["animal"] + n["color"] - 2 * n["both"]),
                N_("Take the cards sharing both away once, not twice: they are still matches.")),
           Hint(_pair_is(lambda n: n["animal"]),
                N_("A pair matches when EITHER type matches: more cards than one type.")),
           Hint(_pair_is(lambda n: n["both"]),
                N_("A pair matches when EITHER type matches, not only when both do."))],
    general_hint=N_("Count the cards sharing the animal, add those sharing the color, then take away the "
                   "cards sharing both (the cell above prints them).")))


def _memory() -> Fraction:
    # 3 face-down cards remembered, none shares the clue's animal: they leave the pool, the 14 matches stay
    return Fraction(_w().match_count(deck.first_named("TAM"), "animal"), _others() - 3)


register(Exercise(
    "02.memory", _memory,
    hints=[Hint(lambda a: a == Fraction(14, 74), N_("That is knowing nothing. The 3 cards you remember are "
                                                   "not among the unknown ones: how many unknown cards are left?")),
           Hint(lambda a: a == Fraction(11, 71), N_("The remembered cards are not Elephants, so all 14 "
                                                   "Elephants are still unknown."))],
    general_hint=N_("Unknown cards = 74 − 3. Elephants among them: all of them.")))


def _break_even() -> Fraction:
    p = Fraction(_w().match_count(deck.first_named("TAM"), "animal"), _others())
    return p / 2


register(Exercise(
    "02.break-even", _break_even,
    hints=[Hint(lambda a: a == Fraction(14, 74),
                N_("Compare expected cards: 4·P(both) against 2·p. Solve for P(both).")),
           Hint(lambda a: a == Fraction(14, 37), N_("4·P(both) > 2·p means P(both) > p/2, not 2p."))],
    general_hint=N_("Expected cards: identify now 2·p; reveal another 4·P(both succeed). When is the second "
                   "bigger?")))


# ----------------------------------------------------------------------------- §4-§5: the value of memory
# The position of "The value of memory" and "Identify now, or reveal another?": three greedy bots play every
# seat from this seed until seat 0's choice after this many turns. Chosen by find_memory_position(), the first
# recipe whose position shows what the two sections say (memory_claims); tests/notebooks/
# test_lesson_demonstrations.py replays it, so a new dealer or bot cannot silently empty the demonstration.
MEMORY_SEED, MEMORY_TURNS = 4, 3


def memory_position(seed: int = MEMORY_SEED, turns: int = MEMORY_TURNS):
    """(game, state) at seat 0's Identify-or-Challenge choice once more than ``turns`` turns are played.

    Greedy bots (perfect memory) play all three seats, seat 0 too, so seat 0 has seen whatever the table
    showed: mostly the cards a failed turn left face up (W4).
    """
    from safari_kit.simulation.registry import make_bot
    from safari_kit.witness import WitnessGame
    from safari_kit.witness.rules import Phase

    game = WitnessGame(players=3)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot("witness", "greedy") for _ in range(game.players)]
    for seat, bot in enumerate(bots):
        bot.start(game, seat, None)  # a greedy bot draws no chance: its play follows from the deal
    while not (state.current_player == 0 and state.phase == Phase.CHOOSE and state.turn > turns):
        if state.is_terminal():
            raise ValueError(f"the game of seed {seed} ended before turn {turns + 1}")
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), state.legal_sequence()))
    return game, state


def memory_knowledge(game, state) -> tuple:
    """(remembering, knowing nothing): seat 0's Knowledge with perfect memory and with none."""
    from safari_kit.probability.knowledge import Knowledge, Memory

    obs = state.observation(0)
    return (Knowledge.from_observation(obs, Memory(), game=game),
            Knowledge.from_observation(obs, Memory(last_k=0), game=game))


def memory_claims(game, state) -> dict:
    """What lesson 02 §4-§5 say about seat 0's position, as checkable values.

    ``match``/``miss``: remembered places whose card shares / does not share the clue's animal (the text:
    "a remembered place gives 1 or 0"); ``unknown``: the places seat 0 cannot place; ``p_nothing``: the
    animal chance at every place knowing nothing (one value); ``p_unknown``: the chance at an unknown place
    remembering; ``n_nothing``/``n_remember``: the unknown cards (N) each way, ``m_nothing``/``m_remember``
    the clue's animal among them (m); ``identify``/``reveal``:
    {"remembering"/"knowing nothing": expected cards}. Values come from probability.witness.
    """
    W = _w()
    remember, nothing = memory_knowledge(game, state)
    clue = remember.clue[0]
    animal = game.cards[clue].animal
    match = [p for p in remember.available if p in remember.known and game.cards[remember.known[p]].animal == animal]
    miss = [p for p in remember.available if p in remember.known and p not in match]
    unknown = [p for p in remember.available if p in remember.unknown_places]
    p_nothing = {W.p_match(nothing, clue, p, "animal").value for p in remember.available}
    p_unknown = {W.p_match(remember, clue, p, "animal").value for p in unknown}
    return {"clue": game.cards[clue], "match": match, "miss": miss, "unknown": unknown,
            "p_nothing": p_nothing.pop() if len(p_nothing) == 1 else None,
            "p_unknown": p_unknown.pop() if len(p_unknown) == 1 else None,
            "n_nothing": len(nothing.pool), "n_remember": len(remember.pool),
            "m_nothing": sum(1 for c in nothing.pool if game.cards[c].animal == animal),
            "m_remember": sum(1 for c in remember.pool if game.cards[c].animal == animal),
            "identify": {"remembering": W.identify_value(remember).value,
                         "knowing nothing": W.identify_value(nothing).value},
            "reveal": {"remembering": W.reveal_another_value(remember).value,
                       "knowing nothing": W.reveal_another_value(nothing).value}}


def shows_the_value_of_memory(claims: dict) -> bool:
    """The property §4-§5 need: a remembered match (1) and a remembered miss (0) where knowing nothing
    gives one fraction everywhere; unknown places left, over fewer unknown cards when remembering; and
    reveal another better than identify now with memory, worse without."""
    p = claims["p_nothing"]
    return (bool(claims["match"]) and bool(claims["miss"]) and bool(claims["unknown"]) and p is not None
            and 0 < p < 1 and claims["n_remember"] < claims["n_nothing"]
            and claims["reveal"]["remembering"] > claims["identify"]["remembering"]
            and claims["reveal"]["knowing nothing"] < claims["identify"]["knowing nothing"])


def find_memory_position(seeds=range(1, 60), turns=(3, 4, 5, 6)) -> tuple[int, int] | None:
    """The first (seed, turns), fewest turns first, whose position shows the value of memory (how
    MEMORY_SEED and MEMORY_TURNS were chosen)."""
    for t in turns:
        for seed in seeds:
            try:
                game, state = memory_position(seed, t)
            except ValueError:
                continue
            if shows_the_value_of_memory(memory_claims(game, state)):
                return seed, t
    return None
