"""Why a move is refused, in the learner's language (issue 30): the engines' reasons, said from the catalogue.

The rules engines (``safari_kit.witness.explain``, ``safari_kit.knockout.state``) write their reasons in English
and import no gettext (a lower layer). This module keeps the catalogue's copy of each reason as a pattern and
a sentence: :func:`engine_words` finds the reason's pattern and says its sentence in the learner's language, with
the reason's values (a place, a player, a count) put in. A test asks the engines for every reason a random game
gives and checks that each has its pattern here, so a reason added to an engine without its copy fails the suite
(it would reach a Spanish learner in English). In English nothing changes: the engine's own words are shown.

Where the engine's words hold what a learner should not read (a card's id such as W12, Python's lists, an
action's class name), the catalogue's sentence leaves it out.

>>> from safari_kit.core.i18n import language
>>> with language("es"):
...     engine_words("place 3 was revealed earlier this turn; pick a face-down place not yet revealed (W4)")
'el lugar 3 ya se reveló en este turno; elige un lugar boca abajo que no se haya revelado'
>>> engine_words("place 3 was revealed earlier this turn; pick a face-down place not yet revealed (W4)")
'place 3 was revealed earlier this turn; pick a face-down place not yet revealed (W4)'
"""
from __future__ import annotations

import re

from safari_kit.core.i18n import SOURCE_LANGUAGE, N_, Words, _, current_language, ngettext, pgettext

__all__ = ["engine_words", "PHASE_EXPECTS", "REASONS", "RULE_REF"]

#: a rule's number in an engine's sentence, "(W4)", "(W3 b)": a learner's sentence leaves it out
RULE_REF = re.compile(r"\s*\((?:[WK]\d+[a-z ]*)\)")

#: what the Witness game expects in each phase: safari_kit.witness.rules.PHASE_HELP without its rule numbers
#: (a test compares them), said in the learner's language
PHASE_EXPECTS = Words({
    "choose": N_("a choice of Identify, Reveal another or Challenge"),
    "identify": N_("a Declare: clue card, clue type(s) and a face-down place"),
    "challenge": N_("a place to reveal, or Stop once 4 safe cards are revealed"),
    "archive": N_("which won card goes on your archive next; the last one is on top"),
    "face_up": N_("TurnFaceDown: the failed turn's cards lie face up until the next turn begins (W4, W5)"),
    "abilities": N_("an ability to use, or End turn"),
    "alan": N_("an archived card to take into the Clue Area, or ALAN: identify now"),
    "over": N_("nothing: the game is over"),
})


def _expects(text: str) -> str:
    """A phase's help as the engine wrote it (rule numbers gone), in the learner's language."""
    for phase in PHASE_EXPECTS:
        if _english(phase) == text:
            return PHASE_EXPECTS[phase]
    return text


def _english(phase: str) -> str:
    return dict.__getitem__(PHASE_EXPECTS, phase)


def _game_over(reason: str) -> str:
    # TRANSLATORS: the reason is the engine's word: "archive" (an archive reached 10) or "deck" (it ran out)
    said = {"archive": pgettext("game over", "archive"), "deck": pgettext("game over", "deck")}.get(reason, reason)
    return _("the game is over (it ended by {reason}); no action is legal").format(reason=said)


def _safe_so_far(n: str) -> str:
    count = int(n)
    return ngettext("only {n} safe reveal so far; a Challenge may stop after 4",
                    "only {n} safe reveals so far; a Challenge may stop after 4", count).format(n=count)


_PLACE = r"(?P<place>-?\d+|'[^']*'|None)"
#: (the engine's sentence without its rule numbers, as a regular expression; the catalogue's sentence, or a
#: function of the sentence's named parts writing it). Values are put in by name; nothing else is read.
REASONS: tuple[tuple[str, object], ...] = (
    # safari_kit.witness.explain
    (r"the game is over \(it ended by (?P<reason>\w+)\); no action is legal", _game_over),
    (r"the game now expects (?P<expects>.+), not \w+", N_("the game now expects {expects}")),
    (r"not among the \d+ legal actions now \((?P<expects>.+)\)",
     N_("that is not allowed now: the game expects {expects}")),
    (rf"there is no place {_PLACE} in the Unidentified Area \(places: .*\)",
     N_("there is no place {place} in the Unidentified Area")),
    (r"place (?P<place>\d+) was revealed earlier this turn; pick a face-down place not yet revealed",
     N_("place {place} was revealed earlier this turn; pick a face-down place not yet revealed")),
    (r"the deck is empty, so no card can be revealed", N_("the deck is empty, so no card can be revealed")),
    (r".+ is not in the Clue Area \(it holds .*\)", N_("that card is not in the Clue Area")),
    (r"\S+ was already identified this turn", N_("that clue card was already identified this turn")),
    (r"declare one clue type \(two with ALEX\)", N_("declare one clue type (two with ALEX)")),
    (r"unknown clue type .+; expected one of .+",
     N_("that is not a clue type: pick animal, texture, color or name")),
    (r"the two declared clue types must differ", N_("the two declared clue types must differ")),
    (r"two clue types need ALEX \(ALEX, AL\?\? or \?L\?\?\) on top of your archive in Advanced Mode",
     N_("two clue types need ALEX (ALEX, AL?? or ?L??) on top of your archive in Advanced Mode")),
    (r"write the two types in the order .+", N_("write the two types in the order animal, texture, color, name")),
    (r"only (?P<n>\d+) safe reveal\(s\) so far; a Challenge may stop after 4", _safe_so_far),
    (r".+ is not among the cards still to archive \(.*\)", N_("that card is not among the cards still to archive")),
    (r"no (?P<name>[A-Z]+) ability was earned this turn \(pending: .*\)",
     N_("no {name} ability was earned this turn")),
    (r"(?P<name>[A-Z]+) is not usable any more: the successes earned this turn \(.*\) are spent on .*",
     N_("{name} cannot be used any more: this turn's successes are already spent")),
    (r".+ is not in your Archive Area", N_("that card is not in your Archive Area")),
    (r"you cannot take more cards than there are face-down places to identify against",
     N_("you cannot take more cards than there are face-down places to identify against")),
    (r"take at least one archived card into the Clue Area first",
     N_("take at least one archived card into the Clue Area first")),
    (r"place (?P<place>\d+) is face up; pick a face-down place",
     N_("place {place} is face up; pick a face-down place")),
    (r"TAM swaps two different spots", N_("TAM swaps two different spots")),
    (r".+ is not a spot on the table; use 'U<place>' or 'A<player>\.<position>'",
     N_("that is not a spot on the table")),
    (r"write the two spots in table order \(Unidentified places first, then archives\)",
     N_("write the two spots in table order (Unidentified places first, then archives)")),
    (r"SAM shuffles two different places", N_("SAM shuffles two different places")),
    (r"write the two places in table order", N_("write the two places in table order")),
    (r".+ is not in any Archive Area", N_("that card is not in any Archive Area")),
    (r"unknown element .+; name an animal, texture, color or name",
     N_("that is not an element: name an animal, texture, color or name")),
    (r"your Archive Area is empty: ALAN has nothing to take",
     N_("your Archive Area is empty: ALAN has nothing to take")),
    (r"no face-down place is left to identify against", N_("no face-down place is left to identify against")),
    # safari_kit.knockout.state
    (r"the game is over", N_("the game is over")),
    (r"card \S+ is not in the hand of player (?P<seat>\d+), who is to play",
     N_("that card is not in the hand of player {seat}, who is to play")),
    (r"player (?P<seat>\d+) follows, and only the lead names a data item: play with item=None",
     N_("player {seat} follows, and only the lead names a data item")),
    (r"player (?P<seat>\d+) leads this turn and must name a data item: one of .+",
     N_("player {seat} leads this turn and must name a data item")),
)
_COMPILED = tuple((re.compile(pattern), said) for pattern, said in REASONS)


def match(text: str) -> tuple[object, dict[str, str]] | None:
    """The catalogue's sentence (or its writer) and the values of an engine's reason ``text`` (rule numbers
    removed first); None when no pattern fits."""
    text = RULE_REF.sub("", str(text)).strip()
    for pattern, said in _COMPILED:
        found = pattern.fullmatch(text)
        if found is not None:
            return said, found.groupdict()
    return None


def engine_words(text: str) -> str:
    """An engine's reason in the learner's language (English: the engine's own words, unchanged); a reason
    with no pattern here stays English (the test of this module finds those)."""
    if current_language() == SOURCE_LANGUAGE:
        return text
    found = match(text)
    if found is None:
        return text
    said, values = found
    if callable(said):
        return said(**values)
    if "expects" in values:
        values["expects"] = _expects(values["expects"])
    return _(str(said)).format(**values)
