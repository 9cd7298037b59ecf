"""Write notebooks/00-start-here.ipynb and notebooks/07-rules-tutorial.ipynb (no outputs).

Run: ``python tools/make_notebooks_00_07.py``. Cells tagged ``solution`` hold the
worked answers; ``make student`` removes them.
"""
from __future__ import annotations



from nbtools import code, md, write_notebook


def solution(text):
    return code(text, ("solution",))


NB00 = [
    md("""
# 00 · Start here

Welcome to **safari_kit**: a set of Jupyter lessons where you learn probability by playing two card
games, **Safari Witness** (a memory and deduction game with 75 "Mugshot" cards) and **Safari Knockout**
(a trick-taking game with real African animals and their data). Every chance you meet is computed
*exactly* by the kit, and you can check it by simulation.

**In this notebook (about 20 minutes)**
- find your way around the lessons and the order to take them in;
- learn how a *lab* works: seed, step, reset;
- meet both games in two minutes, on a live table;
- know where to get help.
"""),
    md("""
## The lessons

| Notebook | What you do and learn |
|---|---|
| [00 · Start here](00-start-here.ipynb) | This page: the map, the labs, both games in brief. |
| [01 · Meet the cards](01-meet-the-cards.ipynb) | Explore both decks with pandas: counting, a balanced design, independence. |
| [02 · Identification](02-identification.ipynb) | Conditional probability: why knowing the clue card changes the odds, and what memory is worth. |
| [03 · Challenge](03-challenge.ipynb) | Streaks without replacement, and when to stop pushing your luck (optimal stopping). |
| [04 · Knockout](04-knockout.ipynb) | Ranks and the hypergeometric distribution: choosing a card and a data item, leading versus following. |
| [05 · Simulation lab](05-simulation-lab.ipynb) | Monte Carlo: estimates converge, confidence intervals, bot tournaments. |
| [06 · Cases and abilities](06-cases-and-abilities.ipynb) | Counting sets and matchings for Case Cards; how abilities create or destroy information. |
| [07 · Rules tutorial](07-rules-tutorial.ipynb) | A scripted game of each kind, step by step, every rule explained as it happens, and a quiz. |

**Order.** Take them in number order. If you have never played the games, do **07** right after this
notebook: it teaches the rules in about 20 minutes. Lessons 02–03 are about Safari Witness, 04 about
Safari Knockout; 05 and 06 build on all of them.
"""),
    md("""
## How a lab works: seed, step, reset

A *lab* is a small interactive panel: a card table plus buttons and exact probabilities. Every lab has

- a **Seed** box: the seed fixes the shuffle. The same seed gives the same game on every screen, so a
  teacher can say "everybody use seed 7" and the whole class sees the same cards;
- **step** buttons (Next, Reveal, Play, ...) that make one move at a time;
- a **Reset** button that starts again from the seed in the box.

Behind every lab is a game *engine*. Here it is without a lab: two games made with the same seed are the
same game, card for card.
"""),
    code("""
from safari_kit.witness import WitnessGame
from safari_kit.knockout import KnockoutGame
from safari_kit.widgets import CardTable

game = WitnessGame(players=2)
a = game.new_initial_state(seed=7)
b = game.new_initial_state(seed=7)
c = game.new_initial_state(seed=8)
print("same seed, same game:", a == b)
print("another seed, another game:", a == c)
"""),
    md("""
## Safari Witness in one minute

Four face-down Mugshots lie in the **Unidentified Area**. Each card has an animal, a texture, a color and
a name (some names are partly hidden by ink, like `T?M`). On your turn the top card of the deck is
revealed as your **clue**. Then you either

- **Identify**: declare a clue type (animal, texture, color or name) and turn over a face-down card; if it
  shares that element with your clue, you win both cards into your **Archive**; or
- reveal **another** clue first and identify both (more cards, more risk); or
- **Challenge**: turn over face-down cards that share *nothing* with your clue; after 4 safe ones you may
  stop and win them all.

A failure puts every revealed card back face up for everyone to see, then face down: remembering where
cards are is the heart of the game. The game ends when someone has 10 Mugshots or the deck runs out;
most Mugshots wins.

Here is the live table of a seeded game, from Player 0's seat. Face-down cards are card backs: the table
never receives what you are not allowed to see.
"""),
    code("""
witness = game.new_initial_state(seed=7)
CardTable.for_witness(witness, viewer=witness.current_player)
"""),
    md("""
A *step* is one action. The engine lists the legal ones; we apply the first (Identify) and show the
table again: now it waits for a clue type and a place.
"""),
    code("""
print("legal now:", [str(a) for a in witness.legal_actions()])
witness.apply(witness.legal_actions()[0])
CardTable.for_witness(witness, viewer=witness.current_player)
"""),
    md("""
## Safari Knockout in one minute

Each card is a real animal with four numbers: weight, size, top speed and lifespan. There are 7 rounds;
round 1 deals 7 cards to each player, round 2 deals 6, and so on. In each turn the **lead** plays a card
and names a data item; everybody else plays any card; the highest value of that item wins the turn (on a
tie, the card played first). One point per turn won; most points after 7 rounds wins. In *Variation 1*,
a player who wins no turn in a round is out.
"""),
    code("""
knockout = KnockoutGame(players=3).new_initial_state(seed=7)
print("round", knockout.round, "- cards in each hand:", [len(h) for h in knockout.hands])
CardTable.for_knockout(knockout, viewer=0)
"""),
    md("""
## Getting help

- **The rules, exactly:** [docs/rules.md](../docs/rules.md) states every rule as the kit plays it, with
  numbered rulings (W1–W11 for Witness, K1–K5 for Knockout). The labs and the tutorial cite these numbers.
- **The card data:** [docs/data.md](../docs/data.md).
- **Any function:** put `?` after it in a cell, e.g. `WitnessGame?`, or call `help(...)`.
- **Exercises:** `check("07.tie", my_answer)` tells you whether you are right and gives a hint if not;
  it never gives the answer away. Try again!
- **A lab looks stuck?** Press its Reset button; an error inside a lab is shown in the lab itself.

Next: [07 · Rules tutorial](07-rules-tutorial.ipynb) if you are new to the games, else
[01 · Meet the cards](01-meet-the-cards.ipynb).
"""),
    md("""
## For teachers

- **Timing:** 15–20 minutes; 10 if the class already knows the games.
- **Set-up:** `make lab` opens JupyterLab on this folder. Run all cells before the lesson to check the
  widgets display (if a table shows "No version of module anywidget is registered", restart JupyterLab
  after installing the kit).
- **Discuss:** why a seed makes randomness reproducible (a shared seed = a shared experiment); what
  "hidden information" means and why the table must never receive hidden cards.
- **Common misunderstandings:** "a seed makes the game less random" (each seed is one random shuffle;
  the seed only lets us repeat it); in Knockout, "you must beat the card led" (no: any card may be played).
- **Extensions:** let pairs pick a seed, play a few moves on paper with the real rules, then compare with
  the engine's legal actions. Student copies without solutions: `make student`.
"""),
]


NB07 = [
    md("""
# 07 · Rules tutorial

Learn both games by watching a short **scripted game** of each, one step at a time. At every step the
table shows what just happened, and the text explains the rule that applied, with its ruling number
(W3, W4, ... for Safari Witness; K2, K3, ... for Safari Knockout) linked to
[docs/rules.md](../docs/rules.md). The moves are played by the real game engine, so what you see is
exactly what the rules do.

**Learning goals (20–30 minutes)**
- play a turn of Safari Witness: clue, identification, archive, refill, challenge, the end of the game;
- see what a failed identification makes *public*, and why memory matters;
- play a turn of Safari Knockout: deal, lead, follow, ties, points, elimination;
- answer a short quiz about the rules.

**How to use the tutorial:** press **Next** to play the next step, **Back** to go back one step, and
**Restart** to start again. You sit in seat 0 ("you"); the script plays every seat.
"""),
    code("""
from safari_kit.teaching import check
from safari_kit.widgets.labs import tutorial_scripts as tutorials
from safari_kit.widgets.labs.tutorial import RulesTutorial
"""),
    md("""
## Safari Witness

Two players, Advanced Mode (name abilities on), and a small deck of 9 cards in a fixed order, so the
deck runs out quickly. Watch for:
- **W6** the Unidentified Area is refilled to 4 cards;
- **W3** each turn starts with a clue reveal, then a choice;
- **W4** a successful identification, archiving with a top card of your choice, and a *failed*
  identification with two clue cards: everything goes face up, then face down;
- **W10** TOM's ability: a private look at a face-down card;
- **W5** a Challenge that stops after 4 safe reveals;
- **W7** the end: a refill is needed but the deck is empty.
"""),
    code("""
witness_tutorial = RulesTutorial("witness")
witness_tutorial
"""),
    md("""
The whole script at a glance: each step and the rulings it shows. (The tutorial above plays the same
steps; the engine checks every move.)
"""),
    code("""
script = tutorials.witness_script()
for k, step in enumerate(script.steps, start=1):
    print(f"{k:2}. {step.title}  [{', '.join(step.rulings)}]")
final = script.states()[-1]
print()
print("The game ended because:", final.end_reason, "- archives:", final.archive_sizes(), "- winners:", final.winners())
"""),
    md("""
**Think about it.** In the Challenge you knew four of the six face-down cards: one from your private
TOM look and three that everybody saw when Player 1 failed. Only the fourth reveal was a real gamble.
Lesson 03 computes exactly how much such memory raises the chance of a safe streak.
"""),
    md("""
## Safari Knockout

Three players, Variation 1 (elimination). Watch for:
- **K2** the deal (round r deals 8 − r cards) and the lead moving clockwise every turn;
- **K3** the lead names a data item; followers play any card; a **tie** goes to the card played first
  (the tie here is real data from the deck);
- **K4** one point per turn won;
- **K5** a player who wins no turn in a round is out.
"""),
    code("""
knockout_tutorial = RulesTutorial("knockout")
knockout_tutorial
"""),
    code("""
kscript = tutorials.knockout_script()
for k, step in enumerate(kscript.steps, start=1):
    print(f"{k:2}. {step.title}  [{', '.join(step.rulings)}]")
last = kscript.states()[-1]
print()
print("After the script: round", last.round, "- scores", last.scores(), "- out:", list(last.out))
"""),
    md("""
## Quiz

Answer each question in the `my_answer` cell, then run the `check` cell. A wrong answer gets a hint,
never the answer. Use the tutorials above: step back and forth as much as you like.

**1.** In Safari Knockout, how many cards does each player get in round 3?
"""),
    code("""
my_answer = ...  # your answer here
"""),
    code("""
check("07.round3-cards", my_answer)
"""),
    solution("""
from safari_kit.knockout.game import cards_per_player

my_answer = cards_per_player(3)   # K2: 8 - r cards in round r
check("07.round3-cards", my_answer)
"""),
    md("""
**2.** Here is the first turn of the Knockout tutorial, as the engine recorded it. Which player
(seat number 0, 1 or 2) won it?
"""),
    code("""
from safari_kit.cards.model import DATA_ITEM_LABELS

cards = kscript.make_game()
tied = kscript.states()[kscript.index("follow-tie")]
for seat, card in tied.trick:
    print(f"Player {seat} played {cards.card(card).name}: {DATA_ITEM_LABELS[tied.item]} = {cards.card(card).value(tied.item):g}")
print("Player 2 then played a slower card.")
"""),
    code("""
my_answer = ...  # your answer here
"""),
    code("""
check("07.tie", my_answer)
"""),
    solution("""
tie = tutorials.tie_turns(kscript.states()[-1])[0]
my_answer = tie["plays"][0][0]    # K3: on equal values the card played first wins
check("07.tie", my_answer)
"""),
    md("""
**3.** In a Safari Witness Challenge, after how many safe reveals may you stop and archive?
"""),
    code("""
my_answer = ...  # your answer here
"""),
    code("""
check("07.safe-stop", my_answer)
"""),
    solution("""
from safari_kit.witness.state import MIN_SAFE

my_answer = MIN_SAFE   # W5
check("07.safe-stop", my_answer)
"""),
    md("""
**4.** How many Mugshots does the Unidentified Area hold right after a refill?
"""),
    code("""
my_answer = ...  # your answer here
"""),
    code("""
check("07.refill", my_answer)
"""),
    solution("""
first = script.states()[0]
my_answer = len(first.places)   # W6: refilled to 4 at set-up
check("07.refill", my_answer)
"""),
    md("""
**5.** Player 1 failed an identification with two clue cards. How many *new* places did the
Unidentified Area get? (Step to "Second clue: failure" in the Witness tutorial.)
"""),
    code("""
my_answer = ...  # your answer here
"""),
    code("""
check("07.fail-places", my_answer)
"""),
    solution("""
before = script.states()[script.index("declare-fail") - 1]
after = script.states()[script.index("declare-fail")]
my_answer = len(set(after.places) - set(before.places))   # W4: the clue cards take new places
check("07.fail-places", my_answer)
"""),
    md("""
## For teachers

- **Timing:** 20–30 minutes: about 10 for each tutorial (let learners click through at their own pace),
  5–10 for the quiz. Good as the first lesson after 00 for a class new to the games; for a class that
  knows them, skip to the quiz.
- **What to discuss:**
  - The failed identification: nothing is archived, not even the pair that succeeded, and every card
    becomes public. Who profits from a failure? (Everybody else: see how the Challenge uses it.)
  - TOM gives private information: the table does not change, but *your* knowledge does. Lesson 06
    measures this.
  - A Knockout tie is decided by order of play, not by chance: leading a card that ties a common value is
    safer than it looks.
  - Elimination: round r has only 8 − r turns, so with many players someone *must* be knocked out soon
    (lesson 04's pigeonhole argument).
- **Common wrong answers:** round 3 deals 3 cards (confusing the round number with the hand size) or 6;
  "the later card wins a tie" (it must be strictly higher); 5 safe reveals (counting the challenged
  card); 4 new places after the failure (the identified cards keep their own places).
- **Extensions:** ask learners to write their own two-step script with `tutorials.Step` and check it with
  the engine (`Script.states()` raises on an illegal move); or replay the scripts from another seat with
  `RulesTutorial("witness", viewer=1)` and discuss what Player 1 does *not* know (the TOM look).
- **Rules reference:** every ruling is in [docs/rules.md](../docs/rules.md); the rulebooks leave gaps,
  and the rulings say how the kit closes them.
"""),
]


def main() -> None:
    write_notebook("00-start-here.ipynb", NB00)
    write_notebook("07-rules-tutorial.ipynb", NB07)


if __name__ == "__main__":
    main()
