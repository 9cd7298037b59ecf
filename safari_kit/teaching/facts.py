"""The numbers a lesson's prose states, each tied to the kit's own computation (issue 12, part 3).

A lesson's text (``notebooks/NN-*.md``, outside the code cells) states numbers:
probabilities, counts, expected values, coverages. Each one is a *fact* here: a
snippet of the lesson's wording with ``{}`` where a number goes, and a function
that computes those numbers with the kit. ``tests/notebooks/test_prose_facts.py``
renders every fact and checks that the lesson says exactly that, and that no
other number is left in the prose: a number that is not computed must be named
as :class:`Given` (a seed, a rule of the game, a count chosen for an example),
with the reason.

So when the deck, a rule or a function changes, the facts change and the text
no longer matches; when someone edits a number in the text, it no longer
matches its fact. Both fail the test, which names the fact.

>>> f = Fact("02", "only **14** of them are Elephants", lambda: (14,))
>>> f.render()
'only 14 of them are Elephants'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Callable

__all__ = ["Fact", "Given", "FACTS", "GIVEN", "prose", "render_value", "check_text", "facts_of"]


def render_value(x) -> str:
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, float):
        raise TypeError("format floats in the fact's function (the text's rounding), e.g. f'{x:.3f}'")
    return str(x)


def _plain(snippet: str) -> str:
    return re.sub(r"\s+", " ", snippet.replace("**", "").replace("*", "")).strip()


@dataclass(frozen=True)
class Fact:
    """``text`` as the lesson writes it, with ``{}`` for each computed number; ``compute()`` gives them."""

    lesson: str
    text: str
    compute: Callable[[], tuple]

    def render(self) -> str:
        values = self.compute()
        return _plain(self.text.format(*(render_value(v) for v in values)))


@dataclass(frozen=True)
class Given:
    """A number the lesson states that is not computed (a seed, a choice for an example), and why."""

    lesson: str
    text: str
    why: str

    def render(self) -> str:
        return _plain(self.text)


# ----------------------------------------------------------------------------- reading a lesson's prose
_BEFORE = [
    r"\$\$.*?\$\$",  # display formulas (symbols only)
    r"^#+ [^\n]*$",  # headings: section numbers, lesson titles
    r"\bTiming \(about \d+ min\)\.[^\n]*(?:\n(?!\n|- )[^\n]*)*",  # timings: test_lesson_timings.py
]
_AFTER = [
    r"\]\([^)]*\)",  # link targets
    r"\b(?:lessons?|notebook|Lessons?) 0\d(?:–0\d)?\b",  # a reference to a lesson
    r"\b0\d · ",  # a lesson's name in a link
    r"\b0\d (?=about|and|build|right after|estimates)",
    r"\b[WK]\d+(?:–[WK]\d+)?\b",  # rulings and card ids
    r"\(about \d+ minutes\)|about \d+ minutes",  # timings: tests/notebooks/test_lesson_timings.py
    r"\bseed \d+\b",  # a seed names a shuffle, it is not a result
    r"\bVariation 1\b",  # a rule's name
    r"\blog10\b|\blog₂",
    r"\bseats? \d\b",  # a seat names a player
    r"n/\(n\+1\)|\(n\+1\)|\bn ?\+ ?1\b|\bp/2\b|1/√n|p\(1 − p\)",  # symbolic formulas
    r"\bruns? \d+(?! times)\b",  # a run's number names a press of Simulate (lesson 05)
]


def prose(text: str) -> str:
    """A lesson's prose as facts are written against: no code cells, no inline code with digits or
    brackets, no emphasis, whitespace collapsed, and structural numbers (headings, lesson and ruling
    references, timings, seeds) removed."""
    if text.startswith("---"):
        text = text.split("---\n", 2)[2]
    lines, in_code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not in_code and line.strip() != "+++":
            lines.append(line)
    out = "\n".join(lines)
    out = re.sub(r"`([^`]*)`", lambda m: "" if re.search(r"[\d(]", m.group(1)) else m.group(1), out)
    for pattern in _BEFORE:
        out = re.sub(pattern, " ", out, flags=re.M | re.S)
    out = _plain(out)
    for pattern in _AFTER:
        out = re.sub(pattern, " ", out)
    return _plain(out)


def facts_of(lesson: str) -> list:
    return [f for f in (*FACTS, *GIVEN) if f.lesson == lesson]


def check_text(lesson: str, text: str) -> list[str]:
    """Problems with a lesson's text: facts it does not state as computed, and numbers no fact covers."""
    body = prose(text)
    problems = []
    covered = body
    for f in facts_of(lesson):
        try:
            snippet = f.render()
        except Exception as e:  # noqa: BLE001  (a fact that cannot be computed is a problem to report)
            problems.append(f"{lesson}: fact {f.text!r} could not be computed: {e!r}")
            continue
        if snippet not in body:
            problems.append(f"{lesson}: the text does not say {snippet!r}")
        covered = covered.replace(snippet, " ")
    for m in re.finditer(r"\d+(?:[.,]\d+)*", covered):
        a, b = max(0, m.start() - 40), m.end() + 40
        problems.append(f"{lesson}: the number {m.group(0)!r} is not tied to a fact: ...{covered[a:b]}...")
    return problems


# ----------------------------------------------------------------------------- computations
def _w():
    from safari_kit.probability import witness as W

    return W


def _deck():
    from safari_kit.teaching import deck

    return deck


def _tam() -> str:
    return _deck().first_named("TAM")


def _n_witness() -> int:
    return len(_deck().witness())


def _n_pals() -> int:
    return len(_deck().knockout())


def _others() -> int:
    return _n_witness() - 1


def _count(pred) -> int:
    return sum(1 for c in _deck().witness() if pred(c))


def _could_be(name: str) -> int:
    from safari_kit.cards.names import possible_names

    return _count(lambda c: name in possible_names(c.name))


def _ink_fitting(name: str) -> int:
    from safari_kit.cards.names import is_ink, possible_names

    return _count(lambda c: is_ink(c.name) and name in possible_names(c.name))


def _inks() -> int:
    from safari_kit.cards.names import is_ink

    return _count(lambda c: is_ink(c.name))


def _name_match(name: str) -> int:
    return _w().match_count(_deck().first_named(name), "name")


def _per_element() -> int:
    """Cards per animal (= per texture, per color: W1 balance)."""
    cards = _deck().witness()
    sizes = {sum(1 for c in cards if getattr(c, kind) == getattr(cards[0], kind)) for kind in
             ("animal", "texture", "color")}
    assert len(sizes) == 1
    return sizes.pop()


def _pair_cell() -> int:
    cards = _deck().witness()
    cells = {sum(1 for c in cards if c.animal == a.animal and c.color == a.color) for a in cards}
    assert len(cells) == 1
    return cells.pop()


def _owl() -> Fraction:
    return Fraction(_count(lambda c: c.animal == "Owl"), _n_witness())


def _owl_pink_count() -> int:
    return _count(lambda c: c.animal == "Owl" and c.color == "Pink")


def _animals() -> int:
    return len({c.animal for c in _deck().witness()})


def _safe() -> int:
    return _w().safe_count(_tam())


@lru_cache(maxsize=None)
def _inclusion_exclusion() -> tuple[int, int, int, int, int, int, int]:
    W, tam = _w(), _tam()
    a, t, c = (W.match_count(tam, k) for k in ("animal", "texture", "color"))
    at = a + t - W.match_count(tam, ("animal", "texture"))
    ac = a + c - W.match_count(tam, ("animal", "color"))
    tc = t + c - W.match_count(tam, ("texture", "color"))
    return a, t, c, at, ac, tc, W.shared_element_count(tam)


def _position_facts(key: str) -> dict:
    from safari_kit.simulation import challenge_positions as cp

    pos = cp.position(key)
    game, state, seats = cp.reach(pos)
    cp.to_decision(state, seats, pos.learner)
    return cp.facts(state, pos.learner)


def _rules():
    from safari_kit.knockout.game import cards_per_player
    from safari_kit.knockout.rules import ROUNDS
    from safari_kit.witness.rules import ARCHIVE_TO_END, MIN_SAFE

    return {"rounds": ROUNDS, "deal": cards_per_player, "archive_to_end": ARCHIVE_TO_END, "min_safe": MIN_SAFE}


def _p_next_nothing_remembered() -> Fraction:
    """P(next safe) after 4 safe reveals with nothing remembered (lesson 03 §3, 8 places): (S − 4)/(N − 4).
    Not "a fresh table": that has only 4 face-down places, so no fifth reveal."""
    s = _rules()["min_safe"]
    return Fraction(_safe() - s, _others() - s)


def _approx(x, digits: int) -> str:
    return f"{float(x):.{digits}f}"


# ----------------------------------------------------------------------------- the facts, lesson by lesson
FACTS: tuple[Fact, ...] = (
    # 00 · Start here
    Fact("00", 'a memory and deduction game with {} "Mugshot" cards', lambda: (_n_witness(),)),
    Fact("00", "after {} safe ones you may stop", lambda: (_rules()["min_safe"],)),
    Fact("00", "someone has {} Mugshots or the deck runs out", lambda: (_rules()["archive_to_end"],)),
    Fact("00", "There are {} rounds; round 1 deals {} cards to each player, round 2 deals {}, and so on",
         lambda: (_rules()["rounds"], _rules()["deal"](1), _rules()["deal"](2))),
    Fact("00", "most points after {} rounds wins", lambda: (_rules()["rounds"],)),
    # 01 · Meet the cards
    Fact("01", "Safari Witness uses {} Mugshots", lambda: (_n_witness(),)),
    Fact("01", "Safari Knockout uses {} Safari Pals", lambda: (_n_pals(),)),
    Fact("01", "Shuffle the {} Mugshots and draw one", lambda: (_n_witness(),)),
    Fact("01", "How many of the {} Mugshots could carry the name TAM?", lambda: (_n_witness(),)),
    Fact("01", "a balanced design: {} of each element, the same number in every pair cell", lambda: (_per_element(),)),
    Fact("01", 'P(Owl) = {} (dividing by the Owls instead of the deck) or "{} because {} animals"',
         lambda: (Fraction(1, _per_element()), _owl(), _animals())),
    Fact("01", "P(Owl and Pink) = {} + {} (adding for AND), or {}/{} (dividing by the Owls",
         lambda: (_owl(), Fraction(_per_element(), _n_witness()), _owl_pink_count(), _per_element())),
    Fact("01", "TAM count {}: forgetting the ink cards; {} or {}: missing two or one of the {} ink patterns that "
               "could read TAM (??M, T?M, ?AM; {} + {} = {})",
         lambda: (_could_be("TAM") - _ink_fitting("TAM"), _could_be("TAM") - 2, _could_be("TAM") - 1,
                  _ink_fitting("TAM"), _could_be("TAM") - _ink_fitting("TAM"), _ink_fitting("TAM"),
                  _could_be("TAM"))),
    # 02 · Identification
    Fact("02", "changes the odds, and why the answer is not {} (conditional probability", lambda: (_owl(),)),
    Fact("02", "an Elephant with probability {}/{} = {}",
         lambda: (_per_element(), _n_witness(), Fraction(_per_element(), _n_witness()))),
    Fact("02", "{} cards are left, and one of the Elephants is not among them", lambda: (_others(),)),
    Fact("02", "TOM: {}/{} (the {} other TOMs, and the ink cards T?M and ??M)",
         lambda: (_name_match("TOM"), _others(), _count(lambda c: c.name == "TOM") - 1)),
    Fact("02", "KIM: {}/{} (the {} other KIMs, and ??M)",
         lambda: (_name_match("KIM"), _others(), _count(lambda c: c.name == "KIM") - 1)),
    Fact("02", "T?M: {}/{} (every TAM and TOM, and the other ink cards that could read TAM or TOM, ?AM and ??M)",
         lambda: (_name_match("T?M"), _others())),
    Fact("02", "You remember {} face-down cards, none an Elephant", lambda: (3,)),
    Fact("02", "win {} cards with probability p, so E = {}p", lambda: (2, 2)),
    Fact("02", "you win {} cards only if both identifications succeed: E = {}·P(both)", lambda: (4, 4)),
    Fact("02", "{} cards are unknown (all but the two clue cards) and {} of them are Elephants, so p₁ = {}/{}; "
               "given that the first place held an Elephant, {} of the other {} are, so p₂ = {}/{}. "
               "P(both) = ({}·{})/({}·{}) = {} ≈ {}, a little less than the with-replacement guess ({}/{})² ≈ {}",
         lambda: _worked_reveal_another()),
    Fact("02", '"{} animals, so {}"', lambda: (_animals(), _owl())),
    Fact("02", "{} of the {} unseen cards share its animal", lambda: (_w().match_count(_tam(), "animal"), _others())),
    Fact("02", "a TAM shares a name with {} cards, a KRIS with {}, the ink ??M with {}",
         lambda: (_name_match("TAM"), _name_match("KRIS"), _name_match("??M"))),
    Fact("02", "({}/{} then {}/{} in the worked example)",
         lambda: _worked_reveal_another()[2:4] + _worked_reveal_another()[6:8]),
    Fact("02", "{} or {}/{} for the animal match (the clue card counted in the pool)",
         lambda: (_owl(), _per_element(), _others())),
    Fact("02", "{}/{} for the TAM name match (the ink cards forgotten and the clue card counted: forgetting only "
               "the ink cards gives {}/{}, counting only the clue card {}/{}); {}/{} for ??M (the other ink cards "
               "forgotten)", lambda: _name_mistakes_02()),
    Fact("02", "saw {} at one place (a sure match for the {} clue) and {} at another (a sure miss). "
               "Knowing nothing, every place shows the same {}/{}",
         lambda: (_a(_k02()["match"]), _k02()["clue"], _a(_k02()["miss"]), _k02()["m_nothing"], _k02()["n_nothing"])),
    Fact("02", "The best declaration gives p, so identify now is worth E = {}·p", lambda: (2,)),
    Fact("02", "N is smaller when you remember more: {}/{} instead of {}/{}, because the {} remembered cards are not "
               "among the unknown ones (and {} of them is {}, so m drops too)",
         lambda: (_k02()["m_remember"], _k02()["n_remember"], _k02()["m_nothing"], _k02()["n_nothing"],
                  _k02()["remembered"], _k02()["matches"], _a(_k02()["clue"]))),
    Fact("02", "multiplying two chances computed each alone, ({}/{})²", lambda: _worked_reveal_another()[2:4]),
    # 03 · Challenge
    Fact("03", "After {} safe reveals you may stop and archive the challenged card", lambda: (_rules()["min_safe"],)),
    Fact("03", "{} cards share the animal, {} the texture, {} the color", lambda: _inclusion_exclusion()[:3]),
    Fact("03", "How many of the other {} cards share an element", lambda: (_others(),)),
    Fact("03", "How many of the other {} cards are safe?", lambda: (_others(),)),
    Fact("03", "With S safe cards among N = {} unknown, the first reveal is safe with S/{}, the second with "
               "(S−1)/{}, … P({} safe) = C(S,{})/C({},{}). The with-replacement guess (S/{})^{} is too optimistic",
         lambda: (_others(), _others(), _others() - 1, 4, 4, _others(), 4, _others(), 4)),
    Fact("03", "P(the first {} reveals are safe)", lambda: (_rules()["min_safe"],)),
    Fact("03", "with probability p and {} otherwise", lambda: (0,)),
    Fact("03", "on a table with {} face-down places. With nothing remembered, P(next safe) ≈ {} after {} safe "
               "reveals is far below {}",
         lambda: (8, _approx(_p_next_nothing_remembered(), 2), _rules()["min_safe"], Fraction(5, 6))),
    Fact("03", "(P = {}): see section {}", lambda: (1, _section("03", "A challenge as a memory play"))),
    Fact("03", "With {} safe reveals ({} cards if you stop)", lambda: (6, 7)),
    Fact("03", "Remembering {} safe places: S and N drop by {}, and only {} more unknown reveals are needed to "
               "reach {}", lambda: (2, 2, 4 - 2, 4)),
    Fact("03", "You remember {} places holding safe cards. P(reaching {} safe reveals)?", lambda: (2, 4)),
    Fact("03", "(Identify: {} × P(match) of the best declaration", lambda: (2,)),
    Fact("03", "the optimal-stopping value from section {}", lambda: (_section("03", "Optimal stopping"),)),
    Fact("03", "a Challenge on a fresh table is worth about {} cards",
         lambda: (_approx(_w().challenge_dp(0, _safe(), _others(), 4), 2),)),
    Fact("03", "After {} safe reveals, while a face-down place is left", lambda: (_rules()["min_safe"],)),
    Fact("03", "a sure reveal (P = {})", lambda: (1,)),
    Fact("03", "you remember {} safe places, so you reach the decision for sure",
         lambda: (_position_facts("stop-or-go")["remembered_safe"],)),
    Fact("03", "so P({} safe) is the small chance of section {}", lambda: (4, _section("03", "Four in a row"))),
    Fact("03", "a sure identification ({} cards) against a Challenge worth {} ≈ {}",
         lambda: (_position_facts("close-call")["identify"], _position_facts("close-call")["challenge"],
                  _approx(_position_facts("close-call")["challenge"], 2))),
    Fact("03", "a failure {}", lambda: (0,)),
    Fact("03", "(S/{})⁴ for four safe reveals", lambda: (_others(),)),
    Fact("03", 'the rule says "stop at {}"', lambda: (_rules()["min_safe"],)),
    Fact("03", "(reveal the {} remembered places, then stop at {}: {} < {})", lambda: _stop_or_go_decision()),
    Fact("03", "{} or {} for the shared count", lambda: _wrong_shared_counts()),
    Fact("03", "comparing P(next safe) with {}/{} instead of", lambda: (1, 2)),
    Fact("03", "continuing past {} is right", lambda: (_rules()["min_safe"],)),
    # 04 · Knockout: see _FACTS_04 below
    # 05 · Simulation lab: see below
    # 06 · Cases and abilities: see below
    # 07 · Rules tutorial: see below
)



def _p_animal() -> Fraction:
    return Fraction(_w().match_count(_tam(), "animal"), _others())


def _p_four() -> Fraction:
    """Lesson 05's challenge question: 4 safe reveals in a row for the TAM Elephant on a fresh table."""
    return _w().p_streak_counts(_safe(), _others(), _rules()["min_safe"])


def _coverage(p: Fraction, n: int, method: str) -> float:
    """Exact coverage of a 95% interval from n trials, summing the binomial chances of every count
    whose interval holds p (computed here, independently of the Simulation lab's own function)."""
    from safari_kit.probability.distributions import Estimate

    x = float(p)
    total = 0.0
    for k in range(n + 1):
        lo, hi = Estimate(k, n).ci(0.95, method)
        if lo <= x <= hi:
            total += comb(n, k) * x ** k * (1 - x) ** (n - k)
    return total


def _coverage_pct(p: Fraction, n: int, method: str) -> str:
    return f"{100 * _coverage(p, n, method):.1f}"


def _worked_reveal_another() -> tuple:
    """Lesson 02 §5: fresh table, clue the TAM Elephant, second clue another Elephant, animal declared twice."""
    unknown = _n_witness() - 2
    hits = _w().match_count(_tam(), "animal") - 1
    p1, p2 = Fraction(hits, unknown), Fraction(hits - 1, unknown - 1)
    return (unknown, hits, hits, unknown, hits - 1, unknown - 1, hits - 1, unknown - 1,
            hits, hits - 1, unknown, unknown - 1, p1 * p2, _approx(p1 * p2, 4), hits, unknown, _approx(p1 * p1, 4))


def _name_mistakes_02() -> tuple:
    """Lesson 02's wrong answers for the name matches, counted here from the card names (W2): the TAM clue's
    other TAMs (ink forgotten), those and the clue card, all sharers and the clue card; for ??M the clear
    names alone."""
    from safari_kit.cards.names import is_ink, shared_names

    def sharers(name: str, ink: bool) -> int:
        clue = _deck().first_named(name)
        return _count(lambda c: c.id != clue and bool(shared_names(c.name, name)) and (ink or not is_ink(c.name)))

    n = _others()
    tam_clear, tam_all = sharers("TAM", False), sharers("TAM", True)
    return tam_clear + 1, n, tam_clear, n, tam_all + 1, n, sharers("??M", False), n


@lru_cache(maxsize=None)
def _k02() -> dict:
    """Lesson 02 §4: seat 0's position (lesson_02.memory_position), what it remembers and the animal chances."""
    from safari_kit.teaching import lesson_02 as L

    game, state = L.memory_position()
    claims = L.memory_claims(game, state)
    assert L.shows_the_value_of_memory(claims)
    remember, _ = L.memory_knowledge(game, state)
    (match,), (miss,) = claims["match"], claims["miss"]
    remembered = len(remember.known)
    matches = len(claims["match"])
    # the remembered cards leave the unknown ones; the remembered Elephant takes one m with it
    assert claims["n_remember"] == claims["n_nothing"] - remembered
    assert claims["m_remember"] == claims["m_nothing"] - matches
    return {"clue": claims["clue"].animal, "match": game.cards[remember.known[match]].animal,
            "miss": game.cards[remember.known[miss]].animal, "remembered": remembered, "matches": matches,
            **{k: claims[k] for k in ("m_nothing", "n_nothing", "m_remember", "n_remember")}}


def _a(noun: str) -> str:
    """'an Elephant', 'a Bear'."""
    return ("an " if noun[:1].upper() in "AEIOU" else "a ") + noun


def _wrong_shared_counts() -> tuple[int, int]:
    """14+14+14 with the overlaps not subtracted, and subtracted twice."""
    a, t, c, at, ac, tc, _ = _inclusion_exclusion()
    return a + t + c, a + t + c - 2 * (at + ac + tc)


def _stop_or_go_decision() -> tuple:
    """Lesson 03's default lab position: reveal the remembered safe places, then stop (a/n < n/(n+1))."""
    f = _position_facts("stop-or-go")
    known = f["remembered_safe"]
    a, n = f["safe_unknown"], f["unknown_cards"]
    s = known  # safe reveals after the remembered places
    assert not _w().one_step_continue(s, a, n)
    return known, 1 + s, f"{a}/{n}", Fraction(1 + s, 2 + s)


GIVEN: tuple[Given, ...] = (
    Given("02", "A remembered place gives 1 or 0", "a remembered card matches or it does not: certainty"),
    Given("01", "(1, 10, 100, 1000 kg)", "powers of ten, the meaning of a log scale"),
    Given("01", "(from −1 to 1)", "the range of a correlation, by definition"),
)


def _section(lesson: str, title: str) -> int:
    """The number of the lesson's section whose heading starts with ``title`` ("## 3. Title"): a
    reference such as "see section 3" is tied to the heading it points to."""
    from pathlib import Path

    path = next((Path(__file__).resolve().parents[2] / "notebooks").glob(f"{lesson}-*.md"))
    found = re.findall(rf"^## (\d+)\. {re.escape(title)}", path.read_text(encoding="utf-8"), flags=re.M)
    assert len(found) == 1, (lesson, title, found)
    return int(found[0])


# ----------------------------------------------------------------------------- lesson 04 · Knockout
def _ko():
    from safari_kit.knockout import KnockoutGame
    from safari_kit.probability import knockout as pk

    return KnockoutGame(players=4), pk


@lru_cache(maxsize=None)
def _k04() -> dict:
    """The Knockout numbers lesson 04 states, from the engine's rules and the probability module."""
    from safari_kit.knockout.rules import ROUNDS, cards_per_player
    from safari_kit.teaching import lesson_04

    game, pk = _ko()
    rounds = range(1, ROUNDS + 1)
    N, players = len(game.cards), game.players
    first = rounds[0]
    hand = cards_per_player(first)
    opponents = players - 1
    k = opponents * hand
    # round r deals c − r cards and has c − r turns (K2)
    (c,) = {cards_per_player(r) + r for r in rounds} | {pk.turns_in_round(r) + r for r in rounds}
    # a card's rank is (a constant) + the number of cards strictly higher
    offsets = set()
    for item in game.items:
        values = {card.id: card.value(item) for card in game.cards}
        for card in game.cards:
            higher = sum(1 for x in values.values() if x > values[card.id])
            offsets.add(pk.card_ranks(game, card.id)[item] - higher)
    (rank_offset,) = offsets
    # knowing only your own card, and knowing your hand (the lab's first position, seed 1)
    only_view = pk.KnockoutView(hand=("K12",), later=(hand,) * opponents)
    seen_card = N - len(pk.unseen_pool(game, only_view))
    lab_view = pk.view_of(game.new_initial_state(seed=1).observation(0))
    seen_hand = N - len(pk.unseen_pool(game, lab_view))
    assert seen_hand == len(lab_view.hand) == hand and lab_view.k == k
    spring, speed = "K12", "top_speed_kmh"
    H = pk.card_ranks(game, spring)[speed] - rank_offset
    only = pk.p_win_leading_card_only(game, spring, speed, k=k)
    count = pk.win_count(game, lab_view, spring, speed)
    lab = pk.p_win_leading(game, lab_view, spring, speed)
    assert count.higher == H == 1 and count.k == k and pk.best_play(game, lab_view).card == spring
    assert only.value == Fraction(N - seen_card - k, N - seen_card) and lab.value == count.value  # H = 1: (U − k)/U
    # following the Warthog with seat 0's hand of lesson_04.HAND_SEED: two players after you
    hand8 = pk.view_of(game.new_initial_state(seed=lesson_04.HAND_SEED).observation(0)).hand
    follow = pk.KnockoutView(hand=hand8, later=(hand, hand), trick=("K36",), item=speed)
    assert (lesson_04.FOLLOWED, lesson_04.FOLLOW_LATER_HANDS) == ("K36", (hand, hand))
    warthog = game.by_id["K36"].value(speed)
    slow = [pk.p_win_following(game, follow, x).value for x in hand8 if game.by_id[x].value(speed) <= warthog]
    (lost,) = set(slow)
    # the best lead of that hand, leading and following (as the lesson's table prints them, 3 decimals)
    best = pk.best_play(game, pk.view_of(game.new_initial_state(seed=lesson_04.HAND_SEED).observation(0)))
    assert best.action.item == speed and game.by_id[best.card].value(speed) > warthog
    best_follow = pk.p_win_following(game, follow, best.card).value
    assert best_follow > best.p.value
    # the Impala's biggest number and its rank on that item
    impala = game.by_id[lesson_04.LEAD_CARD]
    biggest = max(game.items, key=impala.value)
    assert biggest != lesson_04.best_item_answer()
    # the claims around the numbers: the Lion leading on weight is almost surely beaten; the third-fastest
    # animal is far from safe
    lion = pk.p_win_leading_card_only(game, "K23", "weight_kg", k=k).value
    ranked = sorted(game.cards, key=lambda x: -x.value(speed))
    third = pk.p_win_leading_card_only(game, ranked[2].id, speed, k=k).value
    assert lion < Fraction(1, 100) and third < Fraction(1, 2)
    pigeon_players = __import__("inspect").signature(lesson_04.pigeonhole_answer).parameters["players"].default
    assert lesson_04.LEAD_K == k and len(lesson_04.FOLLOW_LATER) == 1
    return {
        "N": N, "players": players, "opponents": opponents, "first": first, "hand": hand, "k": k, "c": c,
        "rank_offset": rank_offset, "seen_card": seen_card, "U_card": N - seen_card, "seen_hand": seen_hand,
        "U_hand": N - seen_hand, "H": H, "only": only.value, "lab": lab.value,
        "U_follow": len(pk.unseen_pool(game, follow)), "trick": len(follow.trick), "k_follow": follow.k,
        "lost": lost, "lead_k": lesson_04.LEAD_K, "follow_later": lesson_04.FOLLOW_LATER[0],
        "pigeon_players": pigeon_players, "out": _pigeonhole_round(players),
        "pigeon": _pigeonhole_round(pigeon_players),
        "best_name": game.by_id[best.card].name.split()[-1], "best_lead": _approx(best.p.value, 3),
        "best_follow": _approx(best_follow, 3), "impala_value": f"{impala.value(biggest):g}",
        "impala_unit": biggest.rsplit("_", 1)[-1], "impala_item": biggest.split("_")[0],
        "impala_rank": pk.card_ranks(game, impala.id)[biggest],
    }


def _pigeonhole_round(players: int) -> int:
    """The first round after which someone is certainly out with Variation 1 (K5)."""
    from safari_kit.knockout.rules import ROUNDS

    _, pk = _ko()
    return next(r for r in range(1, ROUNDS + 1) if pk.pigeonhole_out(players, r) > 0)


def _wrong_pigeonhole() -> tuple:
    """Lesson 04's wrong answer: the round before, where the turns still suffice for every player."""
    _, pk = _ko()
    n = _k04()["pigeon_players"]
    r = _k04()["pigeon"] - 1
    assert pk.turns_in_round(r) >= n
    return n, r, pk.turns_in_round(r), n


def _f4(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k04()[key] for key in keys)


def _springbok_card() -> tuple:
    d = _k04()
    U, k, H = d["U_card"], d["k"], d["H"]
    return (d["seen_card"], U, U, H, k, U, k, f"{U - k}/{U}", d["only"], _approx(d["only"], 3))


def _springbok_hand() -> tuple:
    d = _k04()
    U, k, H = d["U_hand"], d["k"], d["H"]
    return (d["hand"] - d["seen_card"], d["N"], d["seen_hand"], U, H, U, H, k, U, k, f"{U - k}/{U}",
            _approx(d["lab"], 2))


FACTS += (
    Fact("04", "A card's rank on an item is {} + the number of cards strictly higher", _f4("rank_offset")),
    Fact("04", "the N = {} cards of the deck minus the cards you have seen", _f4("N")),
    Fact("04", "Then every other card is unseen: U = N − {} = {}, and H is simply the number of cards above yours "
               "in the deck (its rank is H + {}). Your opponents hold k of the {} ({} opponents × {} = {} in "
               "round {}). With U = N − {} the formula reads",
         _f4("seen_card", "U_card", "rank_offset", "U_card", "opponents", "hand", "k", "first", "seen_card")),
    Fact("04", "with {} cards in your opponents' hands, one of them is almost surely there", _f4("k")),
    Fact("04", "Even the third-fastest animal is far from safe with {} players", _f4("players")),
    Fact("04", "knowing only your own card; your {} opponents hold {} cards. What is P(you win the turn)? "
               "(Use pk.card_ranks to find H, then the formula with U = N − {}.)",
         _f4("opponents", "lead_k", "seen_card")),
    Fact("04", "In a real game you know your whole hand ({} cards), so the unseen pool is smaller: U = {} − {} = {}",
         _f4("hand", "N", "seen_hand", "U_hand")),
    Fact("04", "The Knockout lab (section {}) opens on this position ( ): you lead with the Springbok () naming top "
               "speed. Only one card of the deck is faster, so H = {}, and k = {}.",
         lambda: (_section("04", "The Knockout lab"), _k04()["H"], _k04()["k"])),
    Fact("04", "Knowing only the Springbok: U = N − {} = {}, so P = C({} − {}, {})/C({}, {}) = {} (= {} = {})",
         _springbok_card),
    Fact("04", "Counting your hand: your other {} cards are seen too, so U = {} − {} = {}. The faster card is not "
               "in your hand, so H = {} still: P = C({} − {}, {})/C({}, {}) = {} (= {}), the number the lab shows",
         _springbok_hand),
    Fact("04", "With H = {} the count is simply (U − k)/U", _f4("H")),
    Fact("04", "Your {} slow cards are not in their hands, so the faster card is more likely to be there "
               "({} of {} rather than {} of {})",
         lambda: (_k04()["hand"] - _k04()["seen_card"],) + _f4("k", "U_hand", "k", "U_card")()),
    Fact("04", "two players ({} cards each) are still to play after you. You now know one more card "
               "(so U = {} − {} − {} = {}), and only the {} cards of the two players after you can still beat "
               "you (k = {})", _f4("hand", "N", "hand", "trick", "U_follow", "k_follow", "k_follow")),
    Fact("04", "Cards slower than (or as fast as) the Warthog are at {}", _f4("lost")),
    Fact("04", "(the best lead, the {}, goes from {} to {}), because only the {} cards still to come can beat it "
               "instead of {}", _f4("best_name", "best_lead", "best_follow", "k_follow", "k")),
    Fact("04", "the Impala's is its {}, {} {}, yet its rank on {} is only {} of {}",
         _f4("impala_item", "impala_value", "impala_unit", "impala_item", "impala_rank", "N")),
    Fact("04", "one player with {} cards plays after you", _f4("follow_later")),
    Fact("04", "Round r deals {} − r cards, so it has {} − r turns, and each turn has one winner: at most {} − r "
               "players can win one", _f4("c", "c", "c")),
    Fact("04", "With {} players and , after which round is at least one player certainly out",
         _f4("pigeon_players")),
    Fact("04", "games with {} players, with and without", _f4("players")),
    Fact("04", "U counts the cards you have not seen: {} − {} = {} knowing only your card (C(N−{}−H, k)/C(N−{}, k)), "
               "{} − {} = {} knowing your hand (the lab)",
         _f4("N", "seen_card", "U_card", "seen_card", "seen_card", "N", "seen_hand", "U_hand")),
    Fact("04", "Elimination: round r has {} − r turns, so with {} players someone is certainly out after round {}",
         _f4("c", "players", "out")),
    Fact("04", "Knowing only your card, U = N − {} = {}; the lab knows your hand, U = {} − {} = {} (and cards played "
               "this round are seen too). The Springbok step in section {} shows one position both ways",
         lambda: _f4("seen_card", "U_card", "N", "seen_hand", "U_hand")() + (_section("04", "Your whole hand"),)),
    Fact("04", "taking U = {}, C({}−H, k)/C({}, k) (forgetting that your own card is seen", _f4("N", "N", "N")),
    Fact("04", "keeping U = {} (the other cards of your hand are seen too, U = {} − {} = {})",
         _f4("U_card", "N", "seen_hand", "U_hand")),
    Fact("04", "Pigeonhole with {} players: answering round {} ({} turns for {} players: everyone could still win one)",
         _wrong_pigeonhole),
)
GIVEN += (
    Given("04", "in 200 games between random players", "a sample size: enough turns to see a rare tie, and quick"),
    Given("04", "Let's simulate 20,000", "a sample size: numpy plays them at once, and the bars are smooth"),
)


# ----------------------------------------------------------------------------- lesson 05 · Simulation lab
# The Simulation lab's defaults the lesson describes (tests/notebooks/test_prose_facts.py checks them against
# SimulationLab: this layer cannot import the widgets): N trials per Simulate, n trials per interval, the
# smallest n per interval the lab offers.
LAB_05 = {"trials": 1_000, "size": 100, "small": 20}


def _l05():
    from safari_kit.teaching import lesson_05

    return lesson_05


def _pct(x) -> str:
    return f"{100 * float(x):.0f}"


def _se(p, n: int) -> float:
    return _l05().se_at(p, n)


def _z95() -> str:
    from safari_kit.probability.distributions import Estimate

    lo, hi = Estimate(50, 100).ci(float(_l05().LEVEL), "normal")
    return f"{(hi - lo) / 2 / Estimate(50, 100).se:.2f}"


def _precision(x: int) -> tuple[int, int]:
    """How many times the trials to divide the standard error by x (lesson 05: 100 times more trials, only
    10 times more precise; each extra digit costs 100×)."""
    n = LAB_05["trials"]
    more = _l05().trials_for_se(_p_animal(), _se(_p_animal(), n) / x) / n
    return round(more), x


def _slope() -> str:
    from math import log

    n = LAB_05["trials"]
    s = log(_se(_p_animal(), 100 * n) / _se(_p_animal(), n)) / log(100)
    return str(Fraction(s).limit_denominator(10)).replace("-", "−")


def _binom(n: int, p: float) -> list[float]:
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def _easily(n: int) -> tuple:
    """The extreme estimates after n trials that each come up at least 1 time in 20 (identify by animal)."""
    likely = [k for k, q in enumerate(_binom(n, float(_p_animal()))) if q >= 1 / 20]
    return n, f"{min(likely) / n:g}", f"{max(likely) / n:g}"


def _round_of_intervals() -> tuple:
    """A round of 100 intervals (identify by animal, n = 100): its mean coverage, and the central 19 rounds in 20
    of Binomial(100, coverage), computed here independently of the lab's typical_range."""
    level, rounds = _l05().LEVEL, _l05().INTERVALS
    cover = _coverage(_p_animal(), LAB_05["size"], "normal")
    cdf, tail, lo, hi = 0.0, (1 - float(level)) / 2, None, rounds
    for j, q in enumerate(_binom(rounds, cover)):
        cdf += q
        if lo is None and cdf > tail:
            lo = j
        if cdf >= 1 - tail:
            hi = j
            break
    return rounds, LAB_05["size"], _coverage_pct(_p_animal(), LAB_05["size"], "normal"), rounds, \
        level.numerator, level.denominator, lo, hi


def _rare_round(at_most: int) -> int:
    """About once in how many rounds a round covers at_most times or fewer (two significant figures)."""
    cover = _coverage(_p_animal(), LAB_05["size"], "normal")
    once_in = 1 / sum(_binom(_l05().INTERVALS, cover)[: at_most + 1])
    return int(round(once_in, -1))


def _zero_interval() -> tuple:
    from safari_kit.probability.distributions import Estimate

    est = Estimate(0, LAB_05["small"])
    lo, hi = est.ci(float(_l05().LEVEL), "normal")
    assert lo == hi == est.mean
    return f"{est.mean:g}", f"{(hi - lo) / 2:g}"


def _close_to_level() -> tuple:
    """Lesson 05 §4: at n = 100 both intervals come close to 95% (within 2 points)."""
    level = _pct(_l05().LEVEL)
    simple = _coverage_pct(_p_animal(), LAB_05["size"], "normal")
    wilson = _coverage_pct(_p_animal(), LAB_05["size"], "wilson")
    assert all(abs(float(x) - float(level)) < 2 for x in (simple, wilson))
    return LAB_05["size"], level, simple, wilson


def _conf() -> Callable[[], tuple]:
    return lambda: (_pct(_l05().LEVEL),)


FACTS += (
    Fact("05", "{} times more trials, only {} times more precise", lambda: _precision(10)),
    Fact("05", 'understand what "{}% confidence" means by making {} intervals',
         lambda: (_pct(_l05().LEVEL), _l05().INTERVALS)),
    Fact("05", "Now simulate: {} trials", lambda: (f"{LAB_05['trials']:,}",)),
    Fact("05", "with its {}% band", _conf()),
    Fact("05", "Below: {} confidence intervals, each made from its own fresh trials", lambda: (_l05().INTERVALS,)),
    Fact("05", "with N = {} at is the same on every screen", lambda: (f"{LAB_05['trials']:,}",)),
    Fact("05", "after {} trials it can easily be {} or {}", lambda: _easily(10)),
    Fact("05", "√{} ≈ {} times smaller",
         lambda: (10, round(_se(_p_animal(), LAB_05["trials"]) / _se(_p_animal(), 10 * LAB_05["trials"])))),
    Fact("05", "Multiply n by {} and the error is divided by only √{} = {}",
         lambda: (_precision(10)[0], _precision(10)[0], _precision(10)[1])),
    Fact("05", "a straight line with slope {}", lambda: (_slope(),)),
    Fact("05", "Exercise . You run {} times as many trials", lambda: (_l05().RATIO_FACTOR,)),
    Fact("05", "For identify by animal, p = {}/{} (= {})",
         lambda: (_w().match_count(_tam(), "animal"), _others(), _p_animal())),
    Fact("05", "the standard error is at most {}?", lambda: (f"{_l05().TARGET_SE:g}",)),
    Fact("05", 'An interval "estimate ± {} × SE" is made so that, before you run the trials, there is about a {}% '
               "chance it will contain the true value. One interval either contains it or not; but if {} classes "
               "each made one, about {} of them would be right",
         lambda: (_z95(), _pct(_l05().LEVEL), _l05().INTERVALS, _l05().INTERVALS * _l05().LEVEL)),
    Fact("05", "One round of {} intervals is itself random", lambda: (_l05().INTERVALS,)),
    Fact("05", "With {} trials per interval both intervals come close to {}%: {}% (simple) and {}% (Wilson) for "
               "identify by animal", _close_to_level),
    Fact("05", 'The simple interval "estimate ± {} × SE" gets into trouble', lambda: (_z95(),)),
    Fact("05", "For the challenge question ({} safe cards in a row, p ≈ {}%) with {} trials per interval it covers "
               "the truth only {}% of the time, while Wilson's interval covers it {}% of the time",
         lambda: (_rules()["min_safe"], f"{100 * float(_p_four()):.1f}", LAB_05["small"],
                  _coverage_pct(_p_four(), LAB_05["small"], "normal"),
                  _coverage_pct(_p_four(), LAB_05["small"], "wilson"))),
    Fact("05", "With {} trials there is a {}% chance of seeing no success at all, and then the simple interval is "
               '"{} ± {}"', lambda: (LAB_05["small"], f"{100 * (1 - float(_p_four())) ** LAB_05['small']:.1f}")
         + _zero_interval()),
    Fact("05", "question Challenge, n per interval {}", lambda: (LAB_05["small"],)),
    Fact("05", "makes a new round of {} intervals from fresh trials. For identify by animal with n = {} a round "
               "covers on average {} times out of {}, and in {} rounds out of {} between {} and {} times",
         _round_of_intervals),
    Fact("05", "So a round with {} or fewer happens about once in {} rounds",
         lambda: (_RARE_ROUND, _rare_round(_RARE_ROUND))),
    Fact("05", "is much closer to {}% than one round usually is",
         lambda: (_coverage_pct(_p_animal(), LAB_05["size"], "normal"),)),
    Fact("05", "You make {} independent {}% intervals", lambda: (_l05().INTERVALS, _pct(_l05().LEVEL))),
    Fact("05", "each extra digit costs {}×", lambda: (_precision(10)[0],)),
    Fact("05", '"{}% confidence" is about the method', _conf()),
    Fact("05", "(the challenge question at n = {})", lambda: (LAB_05["small"],)),
    Fact("05", "At n = {} both are close to {}%", lambda: _close_to_level()[:2]),
    Fact("05", '"{} times the trials, {} times more precise" (it is {}). "{} trials for SE {}"',
         lambda: (_l05().RATIO_FACTOR, _l05().RATIO_FACTOR, _precision_of(_l05().RATIO_FACTOR),
                  f"{round(1 / _l05().TARGET_SE ** 2):,}", f"{_l05().TARGET_SE:g}")),
    Fact("05", '"A {}% interval contains the true value with {}% probability"',
         lambda: (_pct(_l05().LEVEL), _pct(_l05().LEVEL))),
)
GIVEN += (
    Given("05", "√10", "the cell pools ten runs: the lab's first and nine more presses"),
    Given("05", "after 10 trials", "an early point of the running estimate, where it still jumps"),
    Given("05", "a 2-player tournament", "the cell's line-up: one memory bot against the greedy bot"),
    Given("05", "50% would mean", "one of two players: as good as the other, by symmetry (seats rotate)"),
    Given("05", "(m = 1)", "remembering with probability 1 is remembering every card"),
    Given("05", "Are 30 games enough", "the cell's small tournaments, chosen to run quickly"),
    Given("05", "for m = 0, 0.25, …, 1", "an extension: memory from none to perfect in quarter steps"),
    Given("05", "a round with 86 or fewer", "a rare round chosen as the example (the lab once opened on one)"),
    Given("05", "its lower end falls below 0", "no probability is smaller than 0: the bound a simple interval crosses"),
    Given("05", 'they said "about 0.3", the event happened about 3 times in 10',
          "an illustration of calibration: a guess of 3/10 met by the event 3 times in 10"),
    Given("05", "the outcome is 1 if the event happened and 0 if not", "the outcome's coding in the Brier score"),
)
FACTS += (
    Fact("05", "Lower is better: {} is a perfect prophet", lambda: (_brier_of_perfect_guesses(),)),
)


def _brier_of_perfect_guesses() -> int:
    """The Brier score of guessing 1 for what happens and 0 for what does not (lesson 05 §6)."""
    from safari_kit.teaching.class_tables import brier

    return int(brier([(Fraction(1), 1), (Fraction(0), 0)]))
_RARE_ROUND = 86  # the Given above


def _precision_of(factor: int) -> int:
    """By how much the standard error falls when the trials are multiplied by factor."""
    n = LAB_05["trials"]
    return round(_se(_p_animal(), n) / _se(_p_animal(), factor * n))


# ----------------------------------------------------------------------------- lesson 07 · Rules tutorial
@lru_cache(maxsize=None)
def _k07() -> dict:
    """The rules tutorial's numbers: its scripts (played by the engines) and the rules they show."""
    from safari_kit.knockout.rules import ROUNDS, cards_per_player
    from safari_kit.teaching import lesson_07
    from safari_kit.teaching import tutorials as T
    from safari_kit.witness.state import UNIDENTIFIED_SIZE

    log = [e for e, _, _ in T.witness_script().states()[-1].log]
    fail = next(e for e in log if e["kind"] == "fail")
    tom = next(e for e in log if e["kind"] == "tom")
    witness_players = T.witness_script().new_state().game.players
    (other,) = set(range(witness_players)) - {tom["player"]}
    knockout_players = T.knockout_script().new_state().game.players
    (c,) = {cards_per_player(r) + r for r in range(1, ROUNDS + 1)}
    r = lesson_07.QUIZ_ROUND
    return {"deck": len(T.WITNESS_DECK), "refill": UNIDENTIFIED_SIZE, "failed": fail["player"],
            "face_up": len(fail["face_up"]), "c": c, "round": r, "wrong_deal": cards_per_player(r - 1),
            "seats": tuple(range(knockout_players)), "other": other, "min_safe": _rules()["min_safe"]}


def _f7(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k07()[key] for key in keys)


FACTS += (
    Fact("07", "a small deck of {} cards in a fixed order", _f7("deck")),
    Fact("07", "four that everybody saw when Player {} failed", _f7("failed")),
    Fact("07", "in this {}-card deck it could only be one card", _f7("deck")),
    Fact("07", "In a full {}-card deck it would have been the real gamble", lambda: (_n_witness(),)),
    Fact("07", "(round r deals {} − r cards)", _f7("c")),
    Fact("07", "how many cards does each player get in round {}?", _f7("round")),
    Fact("07", "Which player (seat number {}, {} or {}) won it?", lambda: _k07()["seats"]),
    Fact("07", "Player {} failed an identification with two clue cards", _f7("failed")),
    Fact("07", "round r has only {} − r turns", _f7("c")),
    Fact("07", "round {} deals {} cards (confusing the round number with the hand size) or {}",
         _f7("round", "round", "wrong_deal")),
    Fact("07", "{} safe reveals (counting the challenged card)", lambda: (_k07()["min_safe"] + 1,)),
    Fact("07", "{} new places after the failure (the identified cards keep their own places)", _f7("face_up")),
    Fact("07", "discuss what Player {} does not know (the TOM look)", _f7("other")),
)


# ----------------------------------------------------------------------------- lesson 06 · Cases and abilities
def _case_points(case: str, cards) -> int:
    from safari_kit.witness.cases import case_points

    return case_points(case, cards)[0]


@lru_cache(maxsize=None)
def _k06() -> dict:
    """Lesson 06's numbers: the Case Cards' scores (case_points on archives built from the deck), the set
    chances (probability.cases), the names example and the scripted TOM/SAM game (lesson_06)."""
    from safari_kit.cards.names import is_ink
    from safari_kit.probability.cases import p_complete_set
    from safari_kit.teaching import lesson_06 as L
    from safari_kit.witness.cases import distinct_names

    deck = list(_deck().witness())
    colors = sorted({c.color for c in deck})
    one_each = [next(c for c in deck if c.color == col) for col in colors]
    set_points = _case_points("set_colors", one_each)
    assert _case_points("set_colors", one_each[:-1]) == 0
    # names: the fewest different names that score, and the points for each count up to all of them
    by_name: dict = {}
    for c in deck:
        if not is_ink(c.name):
            by_name.setdefault(c.name, c)
    clear = list(by_name.values())
    scores = {n: _case_points("names", clear[:n]) for n in range(1, len(clear) + 1)}
    scoring = [n for n, pts in scores.items() if pts]
    m = 10
    p_m = p_complete_set("color", [], deck, m).value
    assert p_m == L._p_colors_10() and 1 - p_m > Fraction(1, 4)  # "miss a color quite often"
    p_few = p_complete_set("color", [], deck, len(colors)).value
    assert p_few < Fraction(1, 20)  # "that is rare"
    # the scripted game
    game, steps, cards = L._script(6)
    log = [e for e, _, _ in steps["after_tom"].log]
    fail = next(e for e in log if e["kind"] == "fail")
    failed = next(e for e in log if e["kind"] == "identify" and not e["success"])
    sam = next(e for e in log if e["kind"] == "sam")
    sam_turn = next(e for e in log if e["kind"] == "identify" and e["turn"] == sam["turn"])
    tom = next(e for e in log if e["kind"] == "tom")
    tom_turn = next(e for e in log if e["kind"] == "identify" and e["turn"] == tom["turn"])
    x_place = failed["place"]
    assert failed["card"] == cards["X"] and x_place in sam["places"] and len(fail["face_up"]) == 2
    (other,) = set(range(game.players)) - {tom["player"]}
    before = L._knowledge("before_tom", tom["player"])
    candidates = sum(1 for q in before.card_probabilities(tom["place"]).values() if q)
    after_sam = L.place_entropy(L._knowledge("after_sam", sam["player"]), x_place)
    assert after_sam == L.place_entropy(L._knowledge("after_sam", fail["player"]), x_place)
    assert L.place_entropy(L._knowledge("after_tom", other), tom["place"]) > 6 - 0.5
    p_still = L._p_x_still_at_2()
    greedy = L.greedy_names(L.names_example())[0]
    return {
        "colors": len(colors), "set_points": set_points, "m": m, "names_points": [scores[n] for n in scoring],
        "names_counts": scoring, "players": game.players, "fail_turn": failed["turn"], "fail_player": failed["player"],
        "x_place": x_place, "sam_turn": sam_turn["turn"], "sam_player": sam["player"], "tom_turn": tom_turn["turn"],
        "tom_player": tom["player"], "tom_place": tom["place"], "other": other,
        "sure": L.entropy_bits({0: Fraction(1)}), "coin": L.entropy_bits({0: Fraction(1, 2), 1: Fraction(1, 2)}),
        "bits_before": round(L.place_entropy(before, tom["place"])), "candidates": round(candidates, -1),
        "after_sam": after_sam, "after_tom": L.place_entropy(L._knowledge("after_tom", tom["player"]), tom["place"]),
        "p_still": p_still, "greedy": greedy, "best": distinct_names(L.names_example())[0],
    }


def _f6(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k06()[key] for key in keys)


def _g(x: float) -> str:
    return f"{x:g}"


FACTS += (
    Fact("06", "compute the chance of collecting a set ({} different colors)", _f6("colors")),
    Fact("06", 'The card "set of colors" gives {} points for a Mugshot of each of the {} colors in your archive',
         _f6("set_points", "colors")),
    Fact("06", "what is the chance they show all {} colors? Each color is on {} of the {} cards",
         lambda: (_k06()["colors"], _per_element(), _n_witness())),
    Fact("06", "With exactly {} cards you need one of each color", _f6("colors")),
    Fact("06", "but even {} cards miss a color quite often", _f6("m")),
    Fact("06", "What is P({} random Mugshots show all {} colors)?", _f6("m", "colors")),
    Fact("06", 'The "names" Case Card gives {}/{}/{} points for {}/{}/{} different names',
         lambda: (*_k06()["names_points"], *_k06()["names_counts"])),
    Fact("06", "We script a short Advanced game ({} players). Turn {}: Player {} fails an identification, so "
               "everybody sees a card X at place {} and the clue card at a new place. Turn {}: Player {} wins with a "
               "SAM name and shuffles those two known places with SAM. Turn {}: Player {} wins with a TOM name and "
               "looks at place {} with TOM",
         _f6("players", "fail_turn", "fail_player", "x_place", "sam_turn", "sam_player", "tom_turn", "tom_player",
             "tom_place")),
    Fact("06", "{} bits = I know the card; {} bit = a fair coin between two cards",
         lambda: (_g(_k06()["sure"]), _g(_k06()["coin"]))),
    Fact("06", "(about {} for {} cards)", _f6("bits_before", "candidates")),
    Fact("06", "are uncertain again: {} bit of uncertainty each", lambda: (_g(_k06()["after_sam"]),)),
    Fact("06", "After TOM, place {} drops from about {} bits to {} for Player {} only: Player {} still knows nothing",
         lambda: (_k06()["tom_place"], _k06()["bits_before"], _g(_k06()["after_tom"]), _k06()["tom_player"],
                  _k06()["other"])),
    Fact("06", "what is the probability that place {} still holds X?", _f6("x_place")),
    Fact("06", "P({} colors in {} cards)", _f6("colors", "m")),
    Fact("06", '("{} is double {}")', lambda: (_k06()["m"], _k06()["m"] // 2) if _k06()["m"] % 2 == 0 else ()),
    Fact("06", "Counting names greedily ({} instead of {} in the example)", _f6("greedy", "best")),
    Fact("06", "SAM swaps only with probability {}", lambda: (1 - _k06()["p_still"],)),
)
GIVEN += (
    Given("06", "You are Player 0 against two greedy bots", "the lab's learner seat (humans=(0,) in the cell)"),
    Given("06", "press the Player 1 and Player 2 toggles beside Learners",
          "the lab's two bot seats (players=3, humans=(0,) in the cell): the Learners toggles are named Player 0, "
          "Player 1, … (FullGameLab._draw_learner_picker)"),
    Given("06", "close to 1", "a wrong answer: taking ten cards for a near certainty"),
    Given("06", '"SAM swaps the cards", so P(X still at place 2) = 0',
          "a wrong answer: believing that SAM always swaps (place 2: the exercise's place, tied above)"),
)
