"""Write notebooks/01-meet-the-cards.ipynb and notebooks/04-knockout.ipynb (no outputs).

Run from the repository root: ``.venv/bin/python tools/make_notebooks_01_04.py``.
Cells tagged ``solution`` are stripped by ``make student``.
"""
from __future__ import annotations



from nbtools import code, md, write_notebook


def exercise(key, question, solution):
    """The three cells of an exercise: your answer, the check, the worked solution (tagged)."""
    return [
        md(f"**Exercise `{key}`.** {question}"),
        code("my_answer = ...  # your answer here"),
        code(f'check("{key}", my_answer)'),
        code(solution + f'\ncheck("{key}", my_answer)', solution=True),
    ]


# --------------------------------------------------------------------------- 01
NB01 = [
    md("""
# 01 — Meet the cards

Before we play, let's get to know the cards: they are **data**. Safari Witness uses
75 *Mugshots* (an animal, a texture, a color and a suspect's name), Safari Knockout
uses 57 *Safari Pals* (real African animals with four numbers each).

**By the end of this lesson you can**

- load both decks into pandas tables and count with `value_counts` and `crosstab`;
- explain what a *balanced design* is and why it makes probabilities easy;
- compute P(Owl), P(Owl and Pink) and check whether "Owl" and "Pink" are independent;
- read an ink name as a *pattern* and count which cards could carry a name;
- describe the Safari Pals' data items: ranges, a log scale, correlation and ties.

Time: about 35 minutes. Run the cells from top to bottom (Shift+Enter).
"""),
    code("""
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import HTML, display

from safari_kit import KnockoutGame, load_cards
from safari_kit.cards import names
from safari_kit.cards.model import DATA_ITEM_LABELS, DATA_ITEMS
from safari_kit.probability.knockout import ties_per_item
from safari_kit.teaching import check
from safari_kit.widgets import CardTable

cards = load_cards()
deck = cards.witness_frame    # the 75 Mugshots, one row per card
pals = cards.knockout_frame   # the 57 Safari Pals
deck.head()
"""),
    md("""
Each row is one card. Here are the first six Mugshots as cards. Every element is
written as a word too, so nobody needs to tell colors apart.
"""),
    code("""
HTML("".join(card._repr_html_() for card in cards.witness[:6]))
"""),
    md("""
## 1. Counting with `value_counts`

`value_counts()` counts how often each value appears in a column. Let's count the
animals, the textures and the colors.
"""),
    code("""
counts = pd.DataFrame({column: deck[column].value_counts().sort_index().to_numpy()
                       for column in ["animal", "texture", "color"]})
counts.index = [f"value {i + 1}" for i in range(len(counts))]
display(deck.animal.value_counts().to_frame())
counts
"""),
    md("""
Every animal, every texture and every color appears on exactly the same number of cards.

## 2. A balanced design: `crosstab`

`pd.crosstab` counts *pairs*: how many cards are an Owl **and** Pink, an Owl **and** Teal, …
"""),
    code("""
animal_color = pd.crosstab(deck.animal, deck.color)
animal_color
"""),
    code("""
print("smallest cell:", animal_color.to_numpy().min(), "  largest cell:", animal_color.to_numpy().max())
print("animal x texture cells:", sorted({int(x) for x in pd.crosstab(deck.animal, deck.texture).to_numpy().ravel()}))
print("texture x color cells: ", sorted({int(x) for x in pd.crosstab(deck.texture, deck.color).to_numpy().ravel()}))
print("most cards sharing animal + texture + color:",
      deck.groupby(["animal", "texture", "color"], observed=True).size().max())
"""),
    md("""
Every cell holds the same number: the deck is a **balanced design** (like a well-planned
experiment, where every combination of conditions is tested equally often). No two cards
share all three of animal, texture and color.

*Think:* why does balance make probabilities easy? (Hint: if every cell is the same size,
what do you need to know to find the chance of a cell?)

## 3. Probabilities are counts divided by counts

Shuffle the 75 Mugshots and draw one. Every card is equally likely, so
P(event) = (cards with the event) / (all cards).
"""),
    *exercise("01.owl", "What is P(a random Mugshot is an Owl)? Give a fraction like `Fraction(3, 75)` or text like `\"3/75\"`.",
              'my_answer = Fraction((deck.animal == "Owl").sum(), len(deck))\nprint(my_answer)'),
    *exercise("01.owl-pink", "What is P(a random Mugshot is an Owl **and** Pink)?",
              'my_answer = Fraction(((deck.animal == "Owl") & (deck.color == "Pink")).sum(), len(deck))\nprint(my_answer)'),
    md("""
### Independent events

Two events are **independent** when knowing one does not change the chance of the other.
A test: P(A and B) = P(A) · P(B).
"""),
    code("""
p_owl = Fraction((deck.animal == "Owl").sum(), len(deck))
p_pink = Fraction((deck.color == "Pink").sum(), len(deck))
p_owl_and_pink = Fraction(((deck.animal == "Owl") & (deck.color == "Pink")).sum(), len(deck))
print(f"P(Owl) = {p_owl},  P(Pink) = {p_pink},  P(Owl) * P(Pink) = {p_owl * p_pink}")
print(f"P(Owl and Pink) = {p_owl_and_pink}  ->  independent: {p_owl * p_pink == p_owl_and_pink}")
"""),
    *exercise("01.pink-given-owl", "Look only at the Owls. What fraction of them is Pink? "
              "Compare it with P(Pink) over the whole deck: what does that tell you?",
              'owls = deck[deck.animal == "Owl"]\nmy_answer = Fraction((owls.color == "Pink").sum(), len(owls))\nprint(my_answer, "= P(Pink):", my_answer == p_pink)'),
    code("""
# Is EVERY animal independent of EVERY color? Compare each cell of the table of shares with P(animal) * P(color).
shares = pd.crosstab(deck.animal, deck.color, normalize=True)
products = np.outer(deck.animal.value_counts(normalize=True).sort_index(), deck.color.value_counts(normalize=True).sort_index())
print("every animal and every color independent:", np.allclose(shares.to_numpy(), products))
"""),
    md("""
Balance makes every animal independent of every color (and of every texture) — by design.
In real data that almost never happens exactly!

## 4. Ink names are patterns

Most Mugshots carry a clear name (TAM, TOM, SAM, KIM, KRIS, ALAN, ALEX). A few have an
**ink blot**: `?` hides one letter, but the length shows. So `T?M` could be TAM or TOM.
"""),
    code("""
deck.name.value_counts().to_frame()
"""),
    code("""
ink = deck[deck.ink].copy()
ink["could be"] = [", ".join(sorted(names.possible_names(pattern))) for pattern in ink.name]
ink
"""),
    md("""
Two cards *share a name* when some name fits both patterns:
"""),
    code("""
for a, b in [("T?M", "??M"), ("?AM", "T?M"), ("AL??", "??M"), ("?L??", "ALEX")]:
    print(f"{a} and {b} share: {sorted(names.shared_names(a, b)) or 'nothing'}")
"""),
    *exercise("01.could-be-tam", "How many of the 75 Mugshots **could** carry the name TAM?",
              'my_answer = sum("TAM" in names.possible_names(pattern) for pattern in deck.name)\nprint(my_answer)'),
    code("""
could = pd.Series({name: sum(name in names.possible_names(p) for p in deck.name) for name in names.NAMES},
                  name="cards that could carry it")
could.to_frame()
"""),
    md("""
The names are *not* balanced like the animals: a name that more ink cards can hide behind
is a bigger target. You will use this in lesson 02.

## 5. Safari Pals: four data items

Each Safari Pal has a weight (kg), a size (cm), a top speed (km/h) and a lifespan in the
wild (years). Here is a hand of seven Safari Pals, drawn by the card table: each bar shows
the value against the whole deck's range.
"""),
    code("""
state = KnockoutGame(players=4).new_initial_state(seed=1)
CardTable.for_knockout(state, viewer=0, selectable=[], message="Player 0's hand in round 1: seven Safari Pals")
"""),
    code("""
print("A hand as text:")
for card_id in state.hand(0):
    print(" ", cards.pal(card_id))
pals.describe().loc[["min", "50%", "max"]]
"""),
    md("""
Look at the weights: from a few hundred grams to several tonnes. On an ordinary axis the
elephant squashes every other animal into one corner. A **log scale** gives each power of
ten (1, 10, 100, 1000 kg) the same space.
"""),
    code("""
rng = np.random.default_rng(0)   # a little vertical jitter so that equal values don't hide each other
fig, axes = plt.subplots(len(DATA_ITEMS), 1, figsize=(8, 6.5))
for ax, item in zip(axes, DATA_ITEMS):
    ax.scatter(pals[item], rng.uniform(-1, 1, len(pals)), s=16, alpha=0.7)
    ax.set_yticks([])
    ax.set_xlabel(DATA_ITEM_LABELS[item] + (" — log scale" if item == "weight_kg" else ""))
    if item == "weight_kg":
        ax.set_xscale("log")
fig.suptitle("The 57 Safari Pals, one dot each")
fig.tight_layout()
plt.show()
"""),
    code("""
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3))
left.hist(pals.weight_kg, bins=20)
left.set_title("weight, ordinary axis")
right.hist(pals.weight_kg, bins=np.logspace(np.log10(pals.weight_kg.min()), np.log10(pals.weight_kg.max()), 20))
right.set_xscale("log")
right.set_title("weight, log scale")
for ax in (left, right):
    ax.set_xlabel("kg")
fig.tight_layout()
plt.show()
"""),
    *exercise("01.weight-orders", "How many *orders of magnitude* (powers of ten) does weight span? "
              "Compute log10(heaviest / lightest); one decimal is enough.",
              "my_answer = np.log10(pals.weight_kg.max() / pals.weight_kg.min())\nprint(round(my_answer, 2))"),
    md("""
### Do heavy animals tend to be big? Correlation

The **correlation** (from −1 to 1) measures how closely two columns follow a straight line.
"""),
    code("""
r_raw = pals.weight_kg.corr(pals.size_cm)
r_log = np.log10(pals.weight_kg).corr(np.log10(pals.size_cm))
r_rank = pals.weight_kg.rank().corr(pals.size_cm.rank())
print(f"correlation of weight and size:            {r_raw:.2f}")
print(f"... of log10(weight) and log10(size):      {r_log:.2f}")
print(f"... of their ranks (1st, 2nd, ... largest): {r_rank:.2f}")

fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(pals.weight_kg, pals.size_cm, s=16)
for _, row in pals.nlargest(3, "weight_kg").iterrows():
    ax.annotate(row["name"], (row.weight_kg, row.size_cm), fontsize=8)
ax.set_xscale("log"); ax.set_yscale("log")
ax.set_xlabel("weight (kg, log)"); ax.set_ylabel("size (cm, log)")
plt.show()
"""),
    md("""
On the raw numbers a few giants dominate the correlation; on logs (or ranks) the link is much
clearer. In Knockout only the *order* of the cards matters (higher wins), so ranks are the
natural way to look at the data.

### Ties

Real animals sometimes share a value: both zebras run at the same top speed. In Knockout a
tie goes to the card played first (lesson 04). Which items tie most?
"""),
    code("""
ties = ties_per_item(cards.knockout)
by_name = pals.set_index("id").name
speed = ties["top_speed_kmh"]
for group in speed.groups:
    value = pals.set_index("id").loc[group[0], "top_speed_kmh"]
    print(f"{value:g} km/h: " + ", ".join(by_name[c] for c in group))
"""),
    *exercise("01.speed-tie", "Draw two *different* Safari Pals at random. What is P(they have the same top speed)?",
              "from math import comb\n"
              "my_answer = Fraction(sum(comb(len(g), 2) for g in speed.groups), comb(len(pals), 2))\nprint(my_answer)"),
    code("""
pd.DataFrame({"tied groups": [len(t.groups) for t in ties.values()],
              "cards in a tie": [t.cards_in_ties for t in ties.values()],
              "P(two random cards tie)": [t.p_tie.text() for t in ties.values()]},
             index=[DATA_ITEM_LABELS[i] for i in ties])
"""),
    md("""
## What you learned

- `value_counts` and `crosstab` count; a probability is a count divided by a count.
- The Mugshots are a balanced design: 15 of each element, the same number in every pair cell,
  so every animal is independent of every color.
- Ink names are patterns; some names hide behind more cards than others.
- The Safari Pals' weights span several powers of ten: plot them on a log scale. Ranks show
  the link between weight and size better than raw numbers. Ties are rare for weight and
  common for speed and lifespan.

Next: lesson 02 (identification) uses these counts when a card is already on the table.

---

## For teachers

**Timing (35–40 min).** Sections 1–2: 10 min; section 3 with the three exercises: 10 min;
ink names: 5–8 min; Safari Pals: 10–12 min.

**What to discuss.**
- Why balance makes probabilities easy: every cell has the same size, so a chance is just
  "cells wanted / all cells"; compare with an unbalanced real data set (e.g. a class survey).
- Independence is a property of the deck, not of the words: P(Owl and Pink) = P(Owl)·P(Pink)
  here only because the designers balanced the deck. Ask for a pair of events that is *not*
  independent (e.g. "Owl" and "Elephant": mutually exclusive, so very dependent).
- Log scales: ask where the median animal sits on each plot of weight.
- Correlation on raw values vs logs vs ranks: which one answers "do heavier animals tend to be bigger?"

**Common wrong answers.**
- P(Owl) = 1/15 (dividing by the Owls instead of the deck) or "1/5 because 5 animals" (right
  number, but ask why: it only works because the animals are balanced).
- P(Owl and Pink) = 1/5 + 1/5 (adding for AND), or 3/15 (dividing by the Owls: that is P(Pink | Owl)).
- TAM count 10: forgetting the ink cards; 11 or 12: missing one of the patterns `??M`, `T?M`, `?AM`.
- Weight orders: giving the ratio itself instead of its log10.
- Speed ties: counting cards in ties instead of tied *pairs*.

**Extensions.** Which ink card could carry the most names? Build `pd.crosstab(deck.name, deck.animal)`:
is the name balanced against the animal? Find the pair of data items with the highest rank correlation.
"""),
]


# --------------------------------------------------------------------------- 04
NB04 = [
    md("""
# 04 — Knockout: ranks, order statistics, choosing well

In Safari Knockout each player holds Safari Pals. The **lead** plays a card and names a data
item (weight, size, top speed or lifespan); everyone else then plays a card; the **highest value
of the named item wins the turn**, and on a tie the card played first wins.

**By the end of this lesson you can**

- rank a card on each data item and find its best item;
- compute the chance that a lead wins: P = C(N−1−H, k) / C(N−1, k) (a *hypergeometric* chance);
- explain why *following* is a different question from *leading* (you have more information);
- say when ties matter, and use the pigeonhole principle for Variation 1 (elimination);
- simulate thousands of games to see how long they last.

Time: about 40 minutes.
"""),
    code("""
import math
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from safari_kit import load_cards
from safari_kit.cards.model import DATA_ITEM_LABELS, DATA_ITEMS
from safari_kit.knockout import KnockoutGame
from safari_kit.probability import knockout as pk
from safari_kit.simulation import RandomBot, play_game
from safari_kit.simulation.knockout_batch import simulate_knockout
from safari_kit.teaching import check
from safari_kit.teaching import lesson_04
from safari_kit.widgets.labs.knockout import KnockoutLab

game = KnockoutGame(players=4)              # 4 players, the shipped deck of 57 Safari Pals
pals = load_cards().knockout_frame.set_index("id")
name = pals.name
N = len(game.cards)
print(f"{N} cards; round 1 deals 7 to each of the 4 players")
"""),
    md("""
## 1. Ranks: where does a card stand?

Only the **order** matters in Knockout, not the size of the gap. A card's *rank* on an item is
1 + the number of cards strictly higher. The Lion (K23) for example:
"""),
    code("""
print(pals.loc["K23"].to_dict())
pk.card_ranks(game, "K23")
"""),
    *exercise("04.best-item", "Which data item gives the **Impala** (`K10`) its best rank? "
              "Answer with an item name such as `\"weight_kg\"` or `\"lifespan\"`.",
              'ranks = pk.card_ranks(game, "K10")\nprint(ranks)\nmy_answer = min(ranks, key=ranks.get)'),
    code("""
ranks = pd.DataFrame({item: pk.item_ranks(game, item) for item in game.items})
ranks.insert(0, "name", name)
ranks["best item"] = ranks[list(game.items)].idxmin(axis=1)
print("How often each item is a card's best item:")
print(ranks["best item"].value_counts().to_string())
ranks.head(10)
"""),
    md("""
## 2. Leading with one card: the hypergeometric chance

Suppose you know only **your own card**. It has **H** cards above it (so its rank is H + 1).
The other N − 1 = 56 cards are shuffled, and your opponents hold **k** of them (3 opponents × 7 = 21
in round 1). Opponents play their best card, so you win exactly when **none** of their k cards
is one of the H higher ones. Counting hands:

$$P(\\text{win}) = \\frac{\\binom{N-1-H}{k}}{\\binom{N-1}{k}}$$

(the hands that avoid the H higher cards, out of all possible hands).
"""),
    code("""
p = pk.p_win_leading_card_only(game, "K23", "weight_kg", k=21)
print(p.label)
print(p.formula, "=", p.text())
"""),
    md("""
The Lion is heavy, but H of the other cards are heavier still (see the formula): with 21 cards in
your opponents' hands, one of them is almost surely there. The same Lion on each item:
"""),
    code("""
lion = {item: pk.p_win_leading_card_only(game, "K23", item, k=21) for item in game.items}
pd.DataFrame({"H (cards higher)": [pk.card_ranks(game, "K23")[i] - 1 for i in lion],
              "formula": [p.formula for p in lion.values()],
              "P(win)": [p.text() for p in lion.values()]}, index=list(lion))
"""),
    code("""
# Every card of the deck leading on top speed: how fast does P fall with the rank?
speed_rank = pk.item_ranks(game, "top_speed_kmh")
table = pd.DataFrame({
    "rank": speed_rank,
    "P(win), 2 players (k=7)": {c: float(pk.p_win_leading_card_only(game, c, "top_speed_kmh", 7)) for c in speed_rank},
    "P(win), 4 players (k=21)": {c: float(pk.p_win_leading_card_only(game, c, "top_speed_kmh", 21)) for c in speed_rank},
    "P(win), 7 players (k=42)": {c: float(pk.p_win_leading_card_only(game, c, "top_speed_kmh", 42)) for c in speed_rank},
}).sort_values("rank")
ax = table.set_index("rank").iloc[:, :].plot(marker="o", figsize=(7, 3.5))
ax.set_xlim(0, 25); ax.set_ylabel("P(win the turn)"); ax.set_title("Leading on top speed, knowing only your card")
plt.show()
table.head(8).assign(name=lambda t: name[t.index])
"""),
    md("""
Even the third-fastest animal is far from safe with 4 players: the more cards your opponents
hold, the likelier one of the few faster cards is among them.
"""),
    *exercise("04.lead-one-card", "You lead with the **Impala** (`K10`) naming **top speed**, knowing only your own card; "
              "your 3 opponents hold 21 cards. What is P(you win the turn)? (Use `pk.card_ranks` to find H, then the formula.)",
              'H = pk.card_ranks(game, "K10")["top_speed_kmh"] - 1\n'
              "my_answer = Fraction(math.comb(N - 1 - H, 21), math.comb(N - 1, 21))\n"
              "print(H, my_answer, pk.p_win_leading_card_only(game, 'K10', 'top_speed_kmh', 21))"),
    md("""
## 3. Your whole hand: leading versus following

In a real game you know your **whole hand** (7 cards), so the unseen pool is smaller: N = 57 − 7 = 50.
`best_play` tries every card with every item and picks the best. Here is seat 0's first lead of a game:
"""),
    code("""
state = game.new_initial_state(seed=8)
view = pk.view_of(state.observation(0))      # what seat 0 knows: its hand, what has been played, hand sizes
best = pk.best_play(game, view)
lead_table = pd.DataFrame(best.rows()).pivot(index="card", columns="item", values="p_float")[list(game.items)]
lead_table.insert(0, "name", name[lead_table.index])
print("Best lead:", name[best.card], "naming", best.action.item, "with P =", best.p.text())
lead_table.round(3)
"""),
    md("""
Now imagine the **same hand**, but this time the player before you led. They played the
Common Warthog (`K36`) naming **top speed**, and two players (7 cards each) are still to play after you.
You now *know* one card, and only 14 cards can still beat you. The question has changed:
"""),
    code("""
warthog = "K36"
assert warthog not in view.hand
follow_view = pk.KnockoutView(hand=view.hand, later=(7, 7), trick=(warthog,), item="top_speed_kmh")
compare = pd.DataFrame({
    "name": name[list(view.hand)].to_numpy(),
    "speed (km/h)": pals.loc[list(view.hand), "top_speed_kmh"].to_numpy(),
    "P leading on speed (k=21)": [float(pk.p_win_leading(game, view, c, "top_speed_kmh")) for c in view.hand],
    "P following the Warthog (k=14)": [float(pk.p_win_following(game, follow_view, c)) for c in view.hand],
}, index=list(view.hand))
print("The Warthog runs", pals.loc[warthog, "top_speed_kmh"], "km/h")
compare.round(3)
"""),
    md("""
Cards slower than (or as fast as) the Warthog drop to 0: they have already lost. Faster cards
get *better* chances than when leading, because fewer unknown cards are still to come.
Information changes probabilities!
"""),
    *exercise("04.follow", "You hold the Impala, the Klipspringer and the African Wild Dog "
              "(`K10`, `K20`, `K30`). The Common Warthog (`K36`) led, naming top speed; one player "
              "with 3 cards plays after you; no other card was played this round. "
              "What is P(you win) if you play the Impala?",
              "situation = pk.KnockoutView(hand=('K10', 'K20', 'K30'), later=(3,), trick=('K36',), item='top_speed_kmh')\n"
              "p = pk.p_win_following(game, situation, 'K10')\nprint(p.formula, '=', p.text())\nmy_answer = p.value"),
    md("""
## 4. Ties: the first card wins

The rule (K3): on equal values the card played **first** wins — a later card must be strictly
higher. How likely are ties? For two random cards:
"""),
    code("""
ties = pk.ties_per_item(game)
pd.DataFrame({"tied groups": [len(t.groups) for t in ties.values()],
              "largest group": [max(len(g) for g in t.groups) for t in ties.values()],
              "P(two random cards tie)": [t.p_tie.text() for t in ties.values()]},
             index=[DATA_ITEM_LABELS[i] for i in ties])
"""),
    md("""
A tie only *decides* a turn when the two tied cards are also the **highest** cards of the turn.
Let's count, in 200 games between random players, how many turns the tie rule decided
(a turn where the top value appears more than once).
"""),
    code("""
decided_by_tie, turns = 0, 0
for seed in range(200):
    _, final = play_game(game, [RandomBot() for _ in range(4)], seed=seed, keep_state=True)
    for turn in final.completed_turns:
        values = [game.by_id[card].value(turn["item"]) for _, card in turn["plays"]]
        turns += 1
        decided_by_tie += values.count(max(values)) > 1
print(f"{decided_by_tie} of {turns} turns ({decided_by_tie / turns:.1%}) were decided by the tie rule")
"""),
    md("""
Rare, but not never: when you follow with a card *equal* to the best one played, you lose.

## 5. Variation 1 (elimination) and the pigeonhole principle

With Variation 1, a player who wins **no** turn in a round is out. Round r deals 8 − r cards,
so it has 8 − r turns, and each turn has one winner: at most 8 − r players can win one.
If there are more players than turns, somebody *must* go out — like pigeons and holes.
"""),
    code("""
pd.DataFrame({"turns in the round": [pk.turns_in_round(r) for r in range(1, 8)],
              **{f"{n} players: certainly out": [pk.pigeonhole_out(n, r) for r in range(1, 8)] for n in (3, 4, 5)}},
             index=pd.Index(range(1, 8), name="round"))
"""),
    *exercise("04.pigeonhole", "With **6** players and Variation 1, after which round is at least one player "
              "*certainly* out, whatever happens?",
              "my_answer = next(r for r in range(1, 8) if pk.pigeonhole_out(6, r) > 0)\nprint(my_answer)"),
    md("""
The pigeonhole only gives a *guarantee*. In real games players go out much earlier. Let's
simulate 20,000 games with 4 players, with and without Variation 1 (numpy plays them all at once).
"""),
    code("""
plain = simulate_knockout(20_000, players=4, elimination=False, seed=1)
elim_random = simulate_knockout(20_000, players=4, elimination=True, seed=1)
elim_smart = simulate_knockout(20_000, players=4, elimination=True, lead="greedy", follow="best", seed=1)
rounds = np.arange(1, 8)
width = 0.28
fig, ax = plt.subplots(figsize=(7, 3.5))
for i, (label, res) in enumerate([("no elimination", plain), ("Variation 1, random players", elim_random),
                                  ("Variation 1, rank-greedy players", elim_smart)]):
    ax.bar(rounds + (i - 1) * width, res.rounds_distribution(), width, label=label)
ax.set_xlabel("rounds played"); ax.set_ylabel("share of games"); ax.legend(fontsize=8)
ax.set_title("How long does a 4-player game last?")
plt.show()
for label, res in [("no elimination", plain), ("Variation 1, random", elim_random), ("Variation 1, greedy", elim_smart)]:
    print(f"{label:22s} average rounds: {res.rounds.mean():.2f}")
"""),
    md("""
## 6. The Knockout lab: play a seat yourself

You are **seat 0** against three bots that always play the card with the best chance for this
turn. Before each of your plays the lab shows, for every card in your hand (and every data item
when you lead), the exact chance of winning the turn; the best option has a ★.

- **Leading:** click a card on the table, then a data item (the buttons).
- **Following:** click a card.
- *Play to end of round* plays the rest of the round for you with the best options.
- Tick *Variation 1: elimination* to play with elimination; *New game* deals another game.
- At the bottom, compare the chances you were shown with the turns you actually won.

Use the same seed as your neighbour to compare your choices.
"""),
    code("""
lab = KnockoutLab(seed=2)
lab
"""),
    md("""
The lab's numbers come from the same functions you used above. Its first position (seed 2), as numbers:
"""),
    code("""
lab.reset(2)
first = lab.best
print("Your hand:", ", ".join(name[c] for c in lab.state.hand(lab.learner)))
print("Best first play:", name[first.card], "naming", first.action.item, "- P(win) =", first.p.text())
print("formula:", first.p.formula)
"""),
    md("""
*Try:* play a whole round choosing the ★ each time, then a round following your own hunches. Which way
did the "expected wins" in the tally come closer to what you actually won? Why can a good choice still lose?

## What you learned

- A card's *rank* on an item is what matters; each card has a best item.
- Leading: P(win) = C(N−1−H, k)/C(N−1, k) — none of the opponents' k cards may be among the H higher ones.
  More opponents (bigger k) make every card weaker.
- Following is a different question: the cards played are known, only the players after you matter.
- Ties go to the first card; they decide only a few percent of turns.
- Elimination: round r has 8 − r turns, so with 4 players someone is certainly out after round 5;
  in practice games end much earlier.

---

## For teachers

**Timing (40 min).** Ranks: 5 min; leading formula + exercise: 10 min; leading vs following: 8 min;
ties: 4 min; elimination and simulation: 6 min; lab: 7+ min (or as homework).

**What to discuss.**
- The formula is *hypergeometric* (drawing without replacement). Compare with the "with replacement"
  guess ((N−1−H)/(N−1))^k: why is the true chance different, and which way?
- "Opponents play their best card" is an assumption. When is it wrong? (A player may save a strong card
  for later turns.) The lab's bots only think about the current turn: is that a good strategy over a round?
- Following vs leading: more information never hurts the decision, but it can reveal that you have already lost.
- The pigeonhole argument gives a certainty from counting alone — no probability needed.

**Common wrong answers.**
- Leading: using (N−1−H)/(N−1) (one opponent card only) or raising it to the power k (with replacement);
  using C(N−H, k)/C(N, k) (forgetting that your own card is not in an opponent's hand).
- Best item: choosing the item with the biggest *number* (weight in kg is large but the Impala is only mid-table).
- Following: reusing the leading chance; forgetting that a card equal to the one played already loses.
- Pigeonhole with 6 players: answering round 2 (6 turns for 6 players: everyone could still win one).

**Extensions.** With `pk.expected_turns_won(game, view)`, find the best *order* to play a whole hand
against random opponents. Use `KnockoutLab(players=6, elimination=True, bot="random")` and check the
pigeonhole bound in play. Lesson 05 estimates these exact chances by simulation.
"""),
]


def main() -> None:
    write_notebook("01-meet-the-cards.ipynb", NB01)
    write_notebook("04-knockout.ipynb", NB04)


if __name__ == "__main__":
    main()
