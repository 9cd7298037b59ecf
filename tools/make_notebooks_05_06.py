"""Write notebooks/05-simulation-lab.ipynb and notebooks/06-cases-and-abilities.ipynb (no outputs).

Run: ``.venv/bin/python tools/make_notebooks_05_06.py``. Solution cells carry the tag "solution".
"""
from __future__ import annotations



from nbtools import code, md, write_notebook


def exercise(key, prompt, stub, solution):
    return [md(prompt), code(f"my_answer = {stub}  # your answer here"), code(f'check("{key}", my_answer)'),
            code(solution, solution=True)]


NB05 = [
    md("""
# 05 — The simulation lab: Monte Carlo, the law of large numbers, confidence

In lessons 02–04 you worked out **exact** probabilities by counting. Today we check them a different way:
we let the computer play the situation thousands of times and count how often it happens.
This is called **Monte Carlo simulation** (after the casino).

**Learning goals**
- estimate a probability by simulation and watch the estimate settle on the exact value (the *law of large numbers*);
- see that the error of an estimate shrinks like 1/√n: 100 times more trials, only 10 times more precise;
- understand what "95% confidence" means by making 100 intervals and counting how many catch the truth;
- run tournaments between bots and answer: *how good must your memory be to beat a greedy player?*
"""),
    code("""
from safari_kit.teaching import check
from safari_kit.widgets.labs.simulation import SimulationLab, questions, running_estimate, coverage_run
from safari_kit.simulation.tournament import tournament
import numpy as np
"""),
    md("""
## 1. Four questions we already know the answer to

Each question below has an exact answer from the probability module (the fraction and the formula you
could write on the board). The seed decides which cards are on the table, so everyone in the class sees
the same position.
"""),
    code("""
qs = questions(seed=1)
for key, q in qs.items():
    print(f"{q.label:40s} exact = {float(q.exact):.4f}   [{q.formula[:60]}]")
"""),
    md("""
Now simulate: 1,000 trials of "identify by animal, knowing nothing". Each trial shuffles the unknown cards
and looks at the face-down place. The fraction of successes is our **estimate**.
"""),
    code("""
q = qs["identify-animal"]
est = q.sample(1000, np.random.default_rng(1))
print("exact   ", q.exact)
print("estimate", est)
"""),
    md("""
## 2. The lab

Pick a question, choose the number of trials N and press **Simulate**. Left: the running estimate after
n trials (blue) with its 95% band, and the exact value (orange dashes). Right: the standard error against n,
both axes on a log scale. Below: 100 confidence intervals, each made from its own fresh trials.
"""),
    code("""
lab = SimulationLab(seed=1)
lab
"""),
    code("""
r = lab.results
print(f"{r['question']}: exact {float(r['exact']):.4f}, estimate after {r['estimate'].n} trials: {r['estimate']}")
print(f"{lab.coverage['covered']} of {lab.coverage['total']} intervals covered the exact value")
"""),
    md("""
**Law of large numbers.** Early on the estimate jumps around: after 10 trials it can easily be 0 or 0.4.
As n grows it wanders less and less, and it closes in on the exact value. It never *has* to hit it exactly,
but the band around it gets narrower.

## 3. Why the error shrinks like 1/√n

For a probability p estimated from n trials, the **standard error** is √(p(1 − p)/n). Multiply n by 100 and
the error is divided by only √100 = 10. On log–log axes, 1/√n is a straight line with slope −1/2: that is
what the right-hand plot shows. Let's read the errors from the simulation itself:
"""),
    code("""
run = running_estimate(q, 10_000, np.random.default_rng(2))
for n, e in zip(run["n"], run["estimates"]):
    if n in (10, 100, 1000, 10_000) or n == run["n"][-1]:
        print(f"n = {n:6d}   estimate {e.mean:.4f}   standard error {e.se:.4f}")
"""),
    *exercise("05.se-ratio", "**Exercise 1.** You run 4 times as many trials. The standard error is divided by what number?",
              "None", "my_answer = 2  # SE is proportional to 1/sqrt(n), and sqrt(4) = 2\ncheck(\"05.se-ratio\", my_answer)"),
    *exercise("05.trials-for-se", "**Exercise 2.** For *identify by animal* (p = 7/37), about how many trials do you need so that the standard error is at most 0.01?",
              "None", "p = float(qs['identify-animal'].exact)\nmy_answer = round(p * (1 - p) / 0.01**2)\ncheck(\"05.trials-for-se\", my_answer)"),
    md("""
## 4. What "95% confident" means

An interval "estimate ± 1.96 × SE" is made so that, **before** you run the trials, there is about a 95% chance
it will contain the true value. One interval either contains it or not; but if 100 classes each made one,
about 95 of them would be right. The lab does exactly that:
"""),
    code("""
cov = coverage_run(qs["identify-animal"], size=100, intervals=100, rng=np.random.default_rng(3))
print(f"{cov['covered']} of {cov['total']} intervals (100 trials each) cover the exact value")
cov = coverage_run(qs["challenge-4"], size=100, intervals=100, rng=np.random.default_rng(3))
print(f"challenge-4: {cov['covered']} of {cov['total']} cover it with the simple interval")
cov = coverage_run(qs["challenge-4"], size=100, intervals=100, rng=np.random.default_rng(3), method="wilson")
print(f"challenge-4: {cov['covered']} of {cov['total']} cover it with Wilson's interval")
"""),
    md("""
For a rare event (4 safe cards in a row, about 3%) the simple interval often misses: with 100 trials you
may see no success at all, and then "0 ± 0" is a silly interval. Wilson's interval fixes that. Try it in the
lab with the **Interval** menu.
"""),
    *exercise("05.misses", "**Exercise 3.** You make 100 independent 95% intervals. How many do you expect to *miss* the exact value?",
              "None", "my_answer = 5\ncheck(\"05.misses\", my_answer)"),
    md("""
## 5. Tournaments: random vs greedy vs memory

Bots play whole games against each other. The **greedy** bot uses the exact probabilities of lessons 02–03 and
remembers every card it has seen. A **memory:m** bot plays the same way but remembers each card it sees only with
probability m. Seats rotate every game, so nobody profits from going first.

In the lab, open the **Tournament** tab. Here is a small Safari Knockout tournament from the lab's default
state, and then a Witness one:
"""),
    code("""
print(lab.tournament_result.table())
"""),
    code("""
res = tournament("witness", players=2, bots="greedy,random", games=20, seed=1, workers=1)
print(res.table())
"""),
    md("""
**How good must your memory be to beat a greedy player?** Each line below is a 2-player tournament of
a memory-limited bot against the greedy bot. 50% would mean "as good as greedy". We keep the number of games
small so it runs quickly; the intervals show how unsure we still are.
"""),
    code("""
for m in (0.0, 0.5, 1.0):
    r = tournament("witness", players=2, bots=f"memory:{m},greedy", games=30, seed=5, workers=1)
    row = r.summary.iloc[0]
    print(f"memory {m:.1f}: win rate {row.win_rate:.2f}  (95% interval {row.win_ci_low:.2f}–{row.win_ci_high:.2f})")
"""),
    md("""
With perfect memory (m = 1) the bot *is* a greedy player, so it should win about half the time. Does
forgetting cost a lot? Are 30 games enough to tell? (Look at the widths of the intervals.) In the lab you can
try more games, more players, or the `lastk` bots that remember only the last few cards.

---
## For teachers

**Timing** (about 35 minutes): questions and first simulation 5 min; the lab and the law of large numbers
10 min; 1/√n and exercises 1–2 10 min; coverage and exercise 3 5 min; tournaments 5 min (longer as homework).

**What to discuss**
- An estimate is a random number: run the lab with two seeds and compare. The exact value does not change.
- 1/√n is why simulation is cheap for a rough answer and expensive for a precise one: each extra digit costs 100×.
- "95% confidence" is about the method, not one interval. Coverage of the simple interval is poor for rare events
  and small n (the challenge question): a good moment for Wilson's interval.
- Tournaments: a win rate is itself an estimate, with an interval. Seats rotate to cancel the first-player advantage.

**Common wrong answers**
- "4 times the trials, 4 times more precise" (it is 2). "10,000 trials for SE 0.01" (forgets p(1 − p)).
- "A 95% interval contains the true value with 95% probability" after it has been computed (it either does or not).
- Reading a difference between two bots as real when the intervals overlap a lot.

**Extensions**: simulate a question from lesson 04 in the lab (*Knockout: win leading*); write your own bot class
and pass it to `tournament(..., workers=1)`; plot win rate against m for m = 0, 0.25, …, 1 with more games.
"""),
]


NB06 = [
    md("""
# 06 — Cases and abilities: counting sets, matching, information

**Learning goals**
- compute the chance of collecting a *set* (5 different colors) with the Case Cards;
- see why names are scored with a **matching** (each ink card counts once, no name twice), and a small
  example where the greedy way of counting loses a point;
- measure **information**: TOM turns an unknown place into a known one (uncertainty drops to zero);
  SAM turns a known pair into a coin flip (uncertainty goes up to one bit).
"""),
    code("""
from safari_kit.teaching import check
from safari_kit.cards import load_cards
from safari_kit.probability.cases import p_complete_set, mc_complete_set
from safari_kit.probability.knowledge import Knowledge
from safari_kit.witness.cases import CASE_CARDS, distinct_names
from safari_kit.teaching.lesson_06 import greedy_names, names_example, scripted_tom_sam, place_entropy
from safari_kit.widgets.labs.fullgame import FullGameLab

deck = list(load_cards().witness)
for case in CASE_CARDS:
    print(f"{case.key:15s} {case.text}")
"""),
    md("""
## 1. Collecting a set of 5 colors

The card "set of colors" gives 2 points for a Mugshot of each of the 5 colors in your archive. If you archive
m random cards, what is the chance they show all 5 colors? Each color is on 15 of the 75 cards. The probability
module counts it exactly (a multivariate hypergeometric sum), and we can check by simulation:
"""),
    code("""
for m in (5, 8, 10, 15):
    exact = p_complete_set("color", [], deck, m)
    est = mc_complete_set("color", [], deck, m, n=20_000, rng=1)
    print(f"m = {m:2d}: exact {float(exact):.4f}   simulated {est}")
"""),
    md("""
With exactly 5 cards you need one of each color: that is rare. The chance climbs quickly with more cards,
but even 10 cards miss a color quite often.
"""),
    *exercise("06.colors-10", "**Exercise 1.** What is P(10 random Mugshots show all 5 colors)? (A decimal is fine.)",
              "None", "my_answer = p_complete_set(\"color\", [], deck, 10).value\ncheck(\"06.colors-10\", my_answer)"),
    md("""
## 2. Counting names: why a matching?

The "names" Case Card gives 2/3/4 points for 5/6/7 different names. Ink cards hide letters: `T?M` could be TAM
or TOM, `?AM` could be TAM or SAM. Each ink card counts as **one** name, and no name may count twice.

Here is an archive with the clear names SAM, KIM, KRIS and ALAN and the inks `T?M` and `?AM`:
"""),
    code("""
cards = names_example()
print([c.name for c in cards])
greedy = greedy_names(cards)
best = distinct_names(cards)
print("greedy:  ", greedy[0], "names, inks as", greedy[1])
print("matching:", best[0], "names, inks as", best[1])
"""),
    md("""
Greedy counting lets `T?M` grab the first free name it fits, TAM. Then `?AM` is stuck: TAM is taken and SAM is
already in the archive. The **maximum matching** is smarter: `T?M` becomes TOM, which leaves TAM for `?AM`.
One more name, one more point. (This is the same problem as giving each student a different project they like:
sometimes you must move somebody to make room.)
"""),
    *exercise("06.names", "**Exercise 2.** How many different names does the rules' matching find in `names_example()`?",
              "None", "my_answer = distinct_names(names_example())[0]\ncheck(\"06.names\", my_answer)"),
    md("""
## 3. Information: TOM reveals, SAM destroys

We script a short Advanced game (2 players). Turn 1: Player 0 fails an identification, so everybody sees a card
X at place 2 and the clue card at a new place. Turn 2: Player 1 wins with a SAM name and **shuffles those two known
places** with SAM. Turn 3: Player 0 wins with a TOM name and **looks at place 4** with TOM.

We measure uncertainty with **entropy** in bits: 0 bits = I know the card; 1 bit = a fair coin between two cards;
an unknown place among N equally likely cards has log₂ N bits (about 6 for 70 cards).
"""),
    code("""
game, steps, cards = scripted_tom_sam()
def knowledge(step, player):
    return Knowledge.from_observation(steps[step].observation(player), game=game)

for step in ("before_sam", "after_sam", "before_tom", "after_tom"):
    for player in (0, 1):
        kn = knowledge(step, player)
        bits = {p: round(place_entropy(kn, p), 2) for p in kn.face_down}
        print(f"{step:10s} player {player}: entropy per place {bits}")
"""),
    code("""
kn = knowledge("after_sam", 0)
x = game.index[cards["X"]]
print("Where is X now? place 2:", {game.cards[c].id if c is not None else "unknown": str(w)
                                    for c, w in kn.place_dist(2).items()})
"""),
    md("""
After SAM, both places that everyone knew become 50/50: **1 bit** of uncertainty each, for *both* players,
even for the one who used SAM (nobody sees the coin). After TOM, place 4 drops from about 6 bits to **0** for
Player 0 only: Player 1 still knows nothing about it. TOM is private information; SAM is public confusion.
"""),
    *exercise("06.sam", "**Exercise 3.** After the SAM, what is the probability that place 2 still holds X?",
              "None", "my_answer = knowledge(\"after_sam\", 0).place_dist(2)[game.index[cards[\"X\"]]]\ncheck(\"06.sam\", my_answer)"),
    md("""
## 4. Play a whole game with the Case Module and Advanced Mode

Now play! You are Player 0 against two greedy bots. Your Case Card is shown on the table; abilities appear as
buttons after a name success. For a class at one screen, set *Learners* to `0,1,2` and press **New game**: a
"pass the device" screen hides the table between players.
"""),
    code("""
game_lab = FullGameLab(seed=3, players=3, case_module=True, advanced=True, humans=(0,), bots="greedy")
game_lab
"""),
    md("""
---
## For teachers

**Timing** (about 35 minutes): Case Cards and sets 8 min; names and matching 10 min; TOM/SAM information 10 min;
playing 10+ minutes (or as homework).

**What to discuss**
- Sets: "at least one of each" is easier through the complement (inclusion–exclusion over the missing colors),
  which is what `p_complete_set_inclusion_exclusion` computes; both give the same number.
- Matching vs greedy: greedy decisions that look fine locally can block a better global answer. The fix is an
  augmenting path: move `T?M` from TAM to TOM.
- Information: entropy as "how many yes/no questions you still need". TOM is private (only the player's knowledge
  changes); SAM adds uncertainty for everyone, including the player who used it.

**Common wrong answers**
- P(5 colors in 10 cards) close to 1 ("10 is double 5"); or computing with replacement.
- Counting names greedily (5 instead of 6 in the example), or counting an ink card as two names.
- "SAM swaps the cards", so P(X still at place 2) = 0: SAM swaps only with probability 1/2.

**Extensions**: the "names" goal with `p_names`; compare the Case Cards by simulating many games
(`tournament("witness", case_module=True, ...)`); which ability helps the greedy bot most?
"""),
]


if __name__ == "__main__":
    write_notebook("05-simulation-lab.ipynb", NB05)
    write_notebook("06-cases-and-abilities.ipynb", NB06)
