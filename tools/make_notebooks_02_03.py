"""Write notebooks/02-identification.ipynb and notebooks/03-challenge.ipynb (no outputs).

Run: ``python tools/make_notebooks_02_03.py``. Cells tagged ``solution-replace``
hold the answers; student copies replace them with a stub
(``python -m safari_kit.teaching.student``).
"""
from __future__ import annotations



from nbtools import code, md, write_notebook


def answer(text):
    return code(text, ("solution-replace",))


NB02 = [
    md("""
# 02 · Identification: conditional probability at the table

A clue card is face up. Under each face-down place lies one of the cards you have **not** seen.
What is the chance that a place holds a card sharing the clue's animal? Its name? Which clue type
should you declare, and is it worth revealing a second clue card?

Every number in this notebook is computed from the deck, exactly, as a fraction.

**By the end of this lesson (about 40 minutes) you can**
- explain why a known clue card changes the odds: 14/74, not 1/5 (conditional probability, no replacement);
- count matches for each clue type, names and ink patterns included, and pick the best type;
- say how memory changes a chance (a remembered place is certain; an unknown one is m/N);
- decide when "reveal another" pays off (p₁·p₂ > p/2) and find the break-even point.
"""),
    code("""
from fractions import Fraction
from math import comb

from safari_kit.cards.load import load_cards
from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import Knowledge, Memory
from safari_kit.teaching import check
from safari_kit.witness import WitnessGame

deck = load_cards().witness
tam = next(c for c in deck if c.name == "TAM")   # the first clear TAM card
print(len(deck), "Mugshots; our clue card:", tam)
"""),
    md("""
## 1. Conditional probability: 14/74, not 1/5

Before any card is seen, a random Mugshot is an Elephant with probability 15/75 = 1/5.
But once the TAM Elephant is face up as the clue card, it is **not** under any place:
74 cards are left, and only **14** of them are Elephants.
"""),
    code("""
elephants = sum(c.animal == tam.animal for c in deck)
print("Elephants in the deck:", elephants, "->", Fraction(elephants, 75))
print("Given the clue card:", W.p_match_baseline(tam.id, "animal"))
"""),
    md("**Exercise 02.animal.** P(a face-down card shares the clue's animal), knowing nothing else. Compute it with the deck."),
    answer("answer = Fraction(W.match_count(tam.id, 'animal'), len(deck) - 1)"),
    code("check('02.animal', answer)"),
    md("""
## 2. Names: ink makes them wider

A name is shared when the two names *could* be the same: ink hides letters, so `T?M` could be TAM or TOM,
and `??M` could be TAM, TOM, SAM or KIM. Count the matches for a few clue cards:
"""),
    code("""
for name in ["TAM", "KRIS", "??M"]:
    card = next(c for c in deck if c.name == name)
    print(f"{name:5s}", W.p_match_baseline(card.id, "name"))
"""),
    md("TAM: 12/74 (the 9 other TAMs, and the ink cards T?M, ?AM, ??M). KRIS: 9/74 (the 9 other KRIS cards: the four-letter ink cards AL?? and ?L?? cannot read KRIS). ??M: 42/74 (every TAM, TOM, SAM and KIM, and the other ink cards that could end in M)."),
    md("**Exercise 02.tam-name.** P(a face-down card shares a name with a TAM clue card)."),
    answer("answer = Fraction(W.match_count(tam.id, 'name'), 74)"),
    code("check('02.tam-name', answer)"),
    md("**Exercise 02.kris-name.** The same for a KRIS clue card."),
    answer("answer = Fraction(W.match_count(next(c for c in deck if c.name == 'KRIS').id, 'name'), 74)"),
    code("check('02.kris-name', answer)"),
    md("**Exercise 02.ink-name.** The same for the ink card `??M`."),
    answer("answer = Fraction(W.match_count(next(c for c in deck if c.name == '??M').id, 'name'), 74)"),
    code("check('02.ink-name', answer)"),
    md("""
## 3. Choosing a clue type

Each clue type gives a different chance. With ALEX on top of your archive you may declare **two**
types: the match is the union, |A ∪ C| = |A| + |C| − |A ∩ C|.
"""),
    code("""
for types in W.ALEX_TYPES:
    print(f"{' + '.join(types):16s}", W.p_match_baseline(tam.id, types))
"""),
    md("**Exercise 02.alex-pair.** P(match) when you declare Animal + Color for the TAM clue card."),
    answer("answer = Fraction(W.match_count(tam.id, ('animal', 'color')), 74)"),
    code("check('02.alex-pair', answer)"),
    md("""
## 4. The value of memory

Cards that were revealed earlier and turned face down again are not unknown to a player who remembers them.
Here a game is played for a few turns by bots; then we compare the chances of seat 0 **knowing nothing**
(forgetting every card seen) with seat 0 **remembering everything**.
"""),
    code("""
from safari_kit.simulation.registry import make_bot
import numpy as np

game = WitnessGame(players=3)
state = game.new_initial_state(seed=7)
bots = [make_bot("witness", "greedy") for _ in range(3)]
for p, b in enumerate(bots):
    b.start(game, p, np.random.default_rng(p))
while not (state.current_player == 0 and state.phase == "choose" and state.turn > 6):
    p = state.current_player
    state.apply(bots[p].choose(state.observation(p), state.legal_sequence()))

obs = state.observation(0)
remember = Knowledge.from_observation(obs, Memory(), game=game)
nothing = Knowledge.from_observation(obs, Memory(last_k=0), game=game)
clue = remember.clue[0]
print("clue card:", game.cards[clue])
print("remembering:", remember)
for place in remember.available:
    print(f"place {place}: knowing nothing {W.p_match(nothing, clue, place, 'animal')}, "
          f"remembering {W.p_match(remember, clue, place, 'animal')}")
"""),
    md("A remembered place gives 1 or 0; an unknown place gives m/N over the cards you cannot place, and N is smaller when you remember more."),
    md("**Exercise 02.memory.** The clue is the TAM Elephant. You remember 3 face-down cards, none an Elephant. P(an unknown place holds an Elephant)?"),
    answer("answer = Fraction(W.match_count(tam.id, 'animal'), 74 - 3)"),
    code("check('02.memory', answer)"),
    md("""
## 5. Identify now, or reveal another?

Identify now: win 2 cards with probability p, so E = 2p. Reveal another: win 4 cards only if **both**
identifications succeed, E = 4·p1·p2. Reveal another is better when **p1·p2 > p/2**.
The kit computes both for seat 0's position above (averaging over every possible second clue):
"""),
    code("""
for k, v in W.choice_values(remember).items():
    print(f"{k:15s} E[cards archived] = {v}")
"""),
    md("**Exercise 02.break-even.** Identify now succeeds with p = 14/74. Above which p1·p2 is reveal another better?"),
    answer("answer = Fraction(14, 74) / 2"),
    code("check('02.break-even', answer)"),
    md("""
## 6. The Identification lab

Play against two bots. On your turn the lab shows, for every clue type and every place, the exact chance
with what you remember (and knowing nothing). **Before** each reveal type your guess; the tally compares
your guesses with what happened (a Brier score: lower is better).
"""),
    code("""
from safari_kit.widgets.labs.identification import IdentificationLab

lab = IdentificationLab(seed=1, players=3)
lab
"""),
    md("""
---

## For teachers

**Timing (35–40 min).** Sections 1–2 (the 14/74 surprise): 10 min; names and ink: 8 min; memory: 7 min;
reveal another and the break-even exercise: 8 min; the lab: the rest (it can also be homework).

**What to discuss.**
- *"5 animals, so 1/5"*: ask where the clue card went. Without replacement, knowing one card changes
  the pool: 14 of the 74 unseen cards share its animal.
- Which clue type is best for which card: names are uneven (a TAM shares a name with 12 cards, a KRIS
  with 9, the ink `??M` with 42), so the best type depends on the card.
- Memory turns a guess into a certainty; the lab shows "with what you remember" beside "knowing nothing".
- Reveal another: both identifications must succeed, so it pays only when p₁·p₂ > p/2 — in practice
  when memory makes success likely.

**Common wrong answers.** 1/5 or 15/74 for the animal match (the clue card counted in the pool); 10/74
for the TAM name match (the ink cards forgotten, or the clue card counted); adding p₁ + p₂ for two clues.

**Extensions.** Set the seed for the whole class and compare guesses with a class-wide tally; ask for the
card whose best clue type is *not* animal, texture or color; `make student` hands out copies without the
worked solutions.
"""),
]

NB03 = [
    md("""
# 03 · The Challenge: streaks without replacement, and when to stop

In a Challenge you reveal face-down places one by one. A card sharing **anything** with the challenged
card (animal, texture, color, a possible name) ends it with nothing. After 4 safe reveals you may stop and
archive the challenged card and every safe card. How likely is a streak, and when should you stop?

**By the end of this lesson (about 40 minutes) you can**
- count the cards that share an element with a card by inclusion–exclusion (14+14+14−2−2−2 = 36);
- compute the chance of k safe reveals in a row without replacement, C(S,k)/C(N,k), and compare it with
  the with-replacement guess (S/N)ᵏ;
- state and use the stopping rule "continue while P(next safe) > n/(n+1)" and say why it is optimal here;
- explain why a Challenge is a memory play.
"""),
    code("""
from fractions import Fraction
from math import comb

from safari_kit.cards.load import load_cards
from safari_kit.probability import witness as W
from safari_kit.simulation.challenge_batch import fixed_rule, optimal_rule, simulate_streaks, streak_estimate
from safari_kit.teaching import check

deck = load_cards().witness
tam = next(c for c in deck if c.name == "TAM")
print("Challenged card:", tam)
"""),
    md("""
## 1. How many cards are safe?

14 cards share the animal, 14 the texture, 14 the color; but some share two, so by inclusion–exclusion:
"""),
    code("""
a = W.match_count(tam.id, "animal"); t = W.match_count(tam.id, "texture"); c = W.match_count(tam.id, "color")
at = a + t - W.match_count(tam.id, ("animal", "texture"))
ac = a + c - W.match_count(tam.id, ("animal", "color"))
tc = t + c - W.match_count(tam.id, ("texture", "color"))
print(f"{a} + {t} + {c} - {at} - {ac} - {tc} + (all three: 0) =", a + t + c - at - ac - tc)
print("check:", W.shared_element_count(tam.id))
"""),
    md("**Exercise 03.share-any.** How many of the other 74 cards share an element with the TAM Elephant?"),
    answer("answer = W.shared_element_count(tam.id)"),
    code("check('03.share-any', answer)"),
    md("Names remove more: another TAM, or an ink card that could read TAM, is not safe either."),
    md("**Exercise 03.safe.** How many of the other 74 cards are safe?"),
    answer("answer = W.safe_count(tam.id)"),
    code("check('03.safe', answer)"),
    md("""
## 2. Four in a row, without replacement

With S safe cards among N = 74 unknown, the first reveal is safe with S/74, the second with (S−1)/73, …
P(4 safe) = C(S,4)/C(74,4). The with-replacement guess (S/74)^4 is too optimistic.
"""),
    code("""
S, N = W.safe_count(tam.id), 74
exact = W.p_streak_counts(S, N, 4)
print("without replacement:", exact, "≈", float(exact))
print("with replacement:   ", float(Fraction(S, N) ** 4))
est = streak_estimate(S, N, 4, 200_000, rng=1, rule=fixed_rule(4))
print("simulated archive size (stop at 4):", est, " exact:", float(5 * exact))
"""),
    md("**Exercise 03.four-safe.** P(the first 4 reveals are safe), exactly."),
    answer("answer = Fraction(comb(S, 4), comb(N, 4))"),
    code("check('03.four-safe', answer)"),
    md("""
## 3. Optimal stopping: continue while P(safe) > n/(n+1)

With n cards archived if you stop now, one more reveal gives n+1 with probability p and 0 otherwise:
continue when p·(n+1) > n, i.e. **p > n/(n+1)**. The kit's dynamic programme (`challenge_dp`) finds the best
expected archive; the simulation compares fixed rules with the optimal one on a table with 8 face-down places.
"""),
    code("""
places = 8
print("optimal (DP):", W.challenge_dp(0, S, N, places), "≈", float(W.challenge_dp(0, S, N, places)))
for name, rule in [("stop at 4", fixed_rule(4)), ("stop at 5", fixed_rule(5)), ("stop at 6", fixed_rule(6)),
                   ("optimal rule", optimal_rule)]:
    print(f"{name:13s}", streak_estimate(S, N, places, 200_000, rng=2, rule=rule))
for s in range(4, 8):
    a, n = S - s, N - s
    print(f"{s} safe: P(next safe) = {a}/{n} ≈ {a/n:.3f}  vs  n/(n+1) = {1+s}/{2+s} ≈ {(1+s)/(2+s):.3f}",
          "-> continue" if W.one_step_continue(s, a, n) else "-> stop")
"""),
    md("On a fresh table P(next safe) ≈ 0.39 is far below 5/6: stop as soon as you may. Going on pays only when you *know* safe places (P = 1): see section 4."),
    md("**Exercise 03.threshold.** With 6 safe reveals (7 cards if you stop), above which P(next safe) should you go on?"),
    answer("answer = Fraction(7, 8)"),
    code("check('03.threshold', answer)"),
    md("""
## 4. A challenge as a memory play

A player who remembers where safe cards lie reveals those first, for sure. Remembering 2 safe places:
S and N drop by 2, and only 2 more unknown reveals are needed to reach 4.
"""),
    code("""
for known in [0, 1, 2, 3]:
    s_left, n_left = S - known, N - known
    exact = W.p_streak_counts(s_left, n_left, max(0, 4 - known))
    sim = simulate_streaks(s_left, n_left, 6, 100_000, rng=3, rule=fixed_rule(4), start_safe=known)
    print(f"remember {known} safe place(s): P(reach 4 safe) = {float(exact):.4f}, "
          f"simulated {float((sim > 0).mean()):.4f}, E[archive] optimal = "
          f"{float(W.challenge_dp(known, s_left, n_left, 6)):.3f}")
"""),
    md("**Exercise 03.memory-streak.** You remember 2 places holding safe cards. P(reaching 4 safe reveals)?"),
    answer("answer = Fraction(comb(S - 2, 2), comb(N - 2, 2))"),
    code("check('03.memory-streak', answer)"),
    md("""
## 5. The Challenge lab

On your turn the lab challenges with your clue card. Before each reveal it shows P(next safe), P(k more in a row)
and the expected archive of stopping vs continuing. Click places; after 4 safe reveals a **Stop** button appears.
At the end you see the optimal rule beside what you did. **Next challenge** lets the bots play and starts your next one.
"""),
    code("""
from safari_kit.widgets.labs.challenge import ChallengeLab

lab = ChallengeLab(seed=1, players=3)
lab
"""),
    md("""
---

## For teachers

**Timing (35–40 min).** Inclusion–exclusion and the safe count: 10 min; streaks with and without
replacement: 10 min; optimal stopping: 10 min; memory and the lab: the rest.

**What to discuss.**
- Why (S/N)⁴ overestimates the streak: each safe card used up makes the next safe card rarer.
- The stopping rule: stopping now archives n cards; one more safe card makes n + 1, a failure 0; so continue
  only if P(next safe)·(n+1) > n. Because P(next safe) only falls as safe cards are used up, the one-step
  rule is optimal (a *monotone* stopping problem). The lab shows the exact expected archive of both choices.
- On a fresh table P(next safe) is far below n/(n+1): the rule says "stop at 4". Continuing pays only with
  remembered safe places — a Challenge is a memory play.

**Common wrong answers.** 42 or 30 for the shared count (inclusion–exclusion skipped or done twice);
(S/74)⁴ for four safe reveals; comparing P(next safe) with 1/2 instead of n/(n+1).

**Extensions.** Ask for the best card to challenge with (the one with the most safe cards); simulate streaks
with `simulate_streaks` and compare with the exact value; let learners find a position where continuing
past 4 is right.
"""),
]


def main() -> None:
    write_notebook("02-identification.ipynb", NB02)
    write_notebook("03-challenge.ipynb", NB03)


if __name__ == "__main__":
    main()
