"""Does each ruling's learner text say what docs/rules.md says? The checks, and their limits.

Why: the learners' pages (:mod:`safari_kit.tutorial.learner_rules`) restate every ruling of docs/rules.md
(W1-W11, K1-K5) in plain words. Plain words drift: a number changed on one page and not the other, a name
of a power forgotten. No program can judge two texts' meaning, so this module checks what can be checked, for
every ruling, in both directions:

1. **a learner text exists** for every ruling docs/rules.md states (and for no ruling it does not state);
2. **numbers**: every number of the docs' ruling (code spans, test names and ruling references such as "W7"
   left out) is in the learner text, unless :data:`LEFT_OUT` says why a learner does not need it; and every
   number of the learner text is in the docs' ruling, unless :data:`ADDED` says where it comes from (an
   example, a count the docs write in words). A number changed on either side fails;
3. **names**: the names (TAM ... ALEX), ink patterns (``T?M``) and elements (Owl, Wavy, Teal) the docs'
   ruling names are named in the learner text;
4. **key facts**: for each ruling, a few phrases that carry its meaning (:data:`FACTS`), each as the docs say
   it and as the learner text says it: both must be found, so a fact reworded on one side only fails.

Limits, said plainly: a sentence can keep all its numbers and names and still say something false ("fewer
than 4" turned into "more than 4" passes check 2, not check 4, and only where 4 is a key fact); the facts are
chosen by hand; words-for-numbers ("four") are not compared. The check catches drift and omissions, not
every wrong sentence: a person still reads both texts when either changes (docs/teachers.md).

>>> problems("W6")
[]
"""
from __future__ import annotations

import re

from safari_kit.cards.vocabulary import ANIMALS, COLORS, TEXTURES
from safari_kit.tutorial import learner_rules, rulebook

_CODE = re.compile(r"`[^`]*`")
_REF = re.compile(r"\b[WK]\d+\b|\bissue \d+\b")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")
_ORDERED = re.compile(r"^\s*\d+\.\s", re.M)
_NAMES = re.compile(r"(?<![\w?])(?:TAM|TOM|SAM|KIM|KRIS|ALAN|ALEX|[A-Z?]*\?[A-Z?]*)(?![\w?])")
_ELEMENTS = re.compile(r"\b(?:" + "|".join(map(re.escape, (*ANIMALS, *TEXTURES, *COLORS))) + r")\b")

#: numbers of a docs ruling a learner's text leaves out, and why
LEFT_OUT: dict[str, dict[str, str]] = {
    "W4": {"24": "how many archive orders a test tries: a test's detail"},
    "W10": {"0": "the code's numbering of archive positions (0 = bottom)"},
    "W11": {"0": "seat numbers as the code counts them (0 .. n-1)", "1": "the same (n-1)"},
    "K2": {"0": "seat numbers as the code counts them (0 .. n-1)"},
}
#: numbers of a learner text the docs ruling does not write in digits, and where they come from
ADDED: dict[str, dict[str, str]] = {
    "W2": {"3": "T?M has 3 letters, AL?? 4: counted from the names shown", "4": "the same"},
    "W8": {"1": "'One point per archived Mugshot' in the docs"},
    "K2": {"6": "round 2 deals 8 - 2 = 6 cards: an example of 8 - r"},
    "K4": {"1": "'One point per turn won' in the docs"},
    "K5": {"1": "'When one player is left'", "2": "round 2: an example of 8 - r",
           "6": "8 - 2 = 6 turns in round 2: the example"},
}
#: (as docs/rules.md says it, as the learner text says it): the facts that carry each ruling's meaning
FACTS: dict[str, list[tuple[str, str]]] = {
    "W1": [("75 mugshots", "there are 75 mugshots"), ("is on 15 cards", "is on 15 cards"),
           ("on exactly 3 cards", "exactly 3 cards have both"), ("10 per name", "10 cards for each name"),
           ("no two cards share animal + texture + color", "no two cards have the same animal, texture and color")],
    "W2": [("hides one letter", "one letter hidden"), ("share a name when some name matches both",
                                                        "share a name when one name fits both")],
    "W3": [("top card of the deck revealed", "turn over the top card of the deck"),
           ("only while the deck has a card", "only do this while the deck still has a card")],
    "W4": [("not revealed earlier this turn", "not turned over this turn"), ("last on top", "the last one goes on top"),
           ("nothing is archived", "you win nothing"), ("abilities earned earlier in the failed turn are lost",
                                                        "powers you earned earlier in that turn are lost"),
           ("take new places at the end of the unidentified area", "new places at the end of the unidentified area")],
    "W5": [("after 4 or more safe reveals", "after 4 or more safe cards"),
           ("could carry the challenged name is unsafe", "could have the challenged card's name is not safe"),
           ("the player must stop then", "you must stop")],
    "W6": [("fewer than 4 cards", "fewer than 4"), ("each card on a new place", "each new card gets a new place")],
    "W7": [("10 or more mugshots", "10 cards or more"), ("must come from an empty deck", "the deck is empty")],
    "W8": [("the highest total wins", "the highest total wins"),
           ("a tie goes to the player with more mugshots", "a tie goes to the player with more cards")],
    "W9": [("the 8 case cards", "there are 8 case cards"), ("scored with the best choice", "makes the best choice"),
           ("5/6/7 different names score 2/3/4", "5, 6 or 7 different names score 2, 3 or 4 points"),
           ("two disjoint sets 5", "two separate sets score 5 points")],
    "W10": [("probability 1/2", "a chance of 1 in 2"), ("alex is passive", "alex works by itself"),
            ("each name success earns one use", "each success of that kind gives one use")],
    "W11": [("2 to 7 players", "2 to 7 players"), ("clockwise", "clockwise"), ("the seed picks one", "at random")],
    "K1": [("57 real african animals", "57 safari pals cards"), ("higher wins", "higher wins"),
           ("both zebras run 64 km/h", "both zebras run at 64 km/h"),
           ("at least 7 × players cards", "at least 7 cards for each player")],
    "K2": [("there are 7 rounds", "the game has 7 rounds"), ("deals 8 − r cards", "8 minus the round's number"),
           ("freshly shuffled full deck", "from the whole deck, freshly shuffled"),
           ("starting with the player on the dealer's left", "starting with the player on the dealer's left"),
           ("whoever won", "whoever won")],
    "K3": [("on equal values the card played first wins", "the card played first wins"),
           ("strictly higher", "strictly higher"), ("only the lead names one", "only the lead names a data item")],
    "K4": [("one point per turn won", "1 point for each turn you win"), ("shares the win", "share the win")],
    "K5": [("who won no turn in it is out", "who won no turn in it is out"),
           ("when one player is left the game ends at once", "when only one player is left, the game ends at once"),
           ("a player who is out can win", "a player who is out can still win")],
}


def _plain(text: str) -> str:
    """Lower case, no Markdown marks (bold, italics, code), one space between words."""
    return re.sub(r"\s+", " ", re.sub(r"[*`]", "", text)).lower()


def docs_numbers(code: str) -> set[str]:
    text = _REF.sub("", _CODE.sub("", rulebook.ruling_markdown(code)))
    return set(_NUMBER.findall(text))


def learner_numbers(code: str) -> set[str]:
    return set(_NUMBER.findall(_ORDERED.sub("", learner_rules.ruling_markdown(code))))


def docs_names(code: str) -> set[str]:
    text = rulebook.ruling_markdown(code)
    return set(_NAMES.findall(text)) | set(_ELEMENTS.findall(_CODE.sub("", text)))


def problems(code: str, docs: str | None = None, learner: str | None = None) -> list[str]:
    """What the learner text of ruling ``code`` fails to say as docs/rules.md says it ([] when it agrees).

    ``docs`` / ``learner`` replace the two texts (the tests' controls); by default both are read."""
    docs = rulebook.ruling_markdown(code) if docs is None else docs
    try:
        learner = learner_rules.ruling_markdown(code) if learner is None else learner
    except KeyError as exc:
        return [str(exc.args[0])]
    out = []
    d_nums = set(_NUMBER.findall(_REF.sub("", _CODE.sub("", docs))))
    l_nums = set(_NUMBER.findall(_ORDERED.sub("", learner)))
    for n in sorted(d_nums - l_nums - set(LEFT_OUT.get(code, {})), key=float):
        out.append(f"{code}: docs/rules.md says {n}, the learner text never does (or list it in LEFT_OUT with why)")
    for n in sorted(l_nums - d_nums - set(ADDED.get(code, {})), key=float):
        out.append(f"{code}: the learner text says {n}, docs/rules.md's ruling does not (or list it in ADDED)")
    names = set(_NAMES.findall(docs)) | set(_ELEMENTS.findall(_CODE.sub("", docs)))
    for name in sorted(names):
        if not re.search(rf"(?<![\w?]){re.escape(name)}(?![\w?])", learner):
            out.append(f"{code}: docs/rules.md names {name}, the learner text does not")
    d_plain, l_plain = _plain(docs), _plain(learner)
    for said_docs, said_learner in FACTS.get(code, []):
        if said_docs not in d_plain:
            out.append(f"{code}: docs/rules.md no longer says {said_docs!r}: check the learner text still agrees, "
                       f"then update FACTS")
        if said_learner not in l_plain:
            out.append(f"{code}: the learner text does not say {said_learner!r} (docs/rules.md: {said_docs!r})")
    return out


def all_problems() -> list[str]:
    """Every disagreement, for every ruling of docs/rules.md, and learner texts of rulings the docs lack."""
    docs = set(rulebook._rulings())
    learner = set(learner_rules.rulings())
    out = [f"{code}: a learner text for a ruling docs/rules.md does not state" for code in sorted(learner - docs)]
    for code in sorted(docs, key=lambda c: (c[0], int(c[1:]))):
        out.extend(problems(code))
    return out


if __name__ == "__main__":
    found = all_problems()
    print("\n".join(found) if found else f"all {len(rulebook._rulings())} rulings agree")
    raise SystemExit(1 if found else 0)
