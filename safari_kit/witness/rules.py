"""Safari Witness's rules vocabulary: the constants, the phases and the log-event kinds.

One place for every name the engine, the probability layer, the bots and the
labs share, so none of them re-derives a ruling or parses a bare string of its
own. ``Phase`` and ``Event`` are string enums: ``Phase.CHOOSE == "choose"``, so
observations and records keep plain JSON strings.
"""
from __future__ import annotations

from enum import Enum
from itertools import combinations

from safari_kit.cards.model import ANIMALS, CLUE_TYPES, COLORS, TEXTURES
from safari_kit.cards.names import NAMES

UNIDENTIFIED_SIZE = 4  # W6: the Unidentified Area is refilled to 4
ARCHIVE_TO_END = 10  # W7: an archive of 10 or more ends the game
MIN_SAFE = 4  # W5: a Challenge may stop after 4 safe reveals
ABILITY_NAMES = ("TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN")  # W10; ALEX is passive
KRIS_ELEMENTS = ANIMALS + TEXTURES + COLORS + NAMES  # W10 KRIS: what may be named
SINGLE_TYPES: tuple[tuple[str, ...], ...] = tuple((t,) for t in CLUE_TYPES)  # W4: one clue type
ALEX_TYPES: tuple[tuple[str, ...], ...] = SINGLE_TYPES + tuple(combinations(CLUE_TYPES, 2))  # W10 ALEX: up to two


class Phase(str, Enum):
    """Where a turn stands; ``legal_actions()`` depends on it."""

    CHOOSE = "choose"  # W3: Identify, Reveal another or Challenge
    IDENTIFY = "identify"  # W4: declarations
    CHALLENGE = "challenge"  # W5: reveals, Stop
    ARCHIVE = "archive"  # W4/W5: the won cards go on the archive one by one
    FACE_UP = "face_up"  # W4/W5: a failed turn's cards lie face up until TurnFaceDown
    ABILITIES = "abilities"  # W10: abilities earned this turn
    ALAN = "alan"  # W10 ALAN: taking archived cards back into the Clue Area
    OVER = "over"  # W7: the game has ended

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as the plain string it equals, in notebooks and doctests
        return repr(self.value)


class Event(str, Enum):
    """The kinds of log event (``event["kind"]``) a Witness state writes."""

    DEAL = "deal"  # a card dealt face down to a new place (W6)
    CLUE = "clue"  # a card revealed into the Clue Area (W3)
    IDENTIFY = "identify"  # a declaration and the card it revealed (W4)
    CHALLENGE = "challenge"  # a Challenge begins (W5)
    CHALLENGE_REVEAL = "challenge_reveal"  # one reveal of a Challenge, safe or not (W5)
    FAIL = "fail"  # a failed turn: the clue cards' new places and every face-up card (W4/W5)
    FACE_DOWN = "face_down"  # the face-up cards turned face down as the next turn starts
    ARCHIVE = "archive"  # cards archived, bottom to top
    TOM = "tom"  # W10 TOM: a look (the card only in the looker's observation)
    SAM = "sam"  # W10 SAM: two places shuffled blindly
    TAM = "tam"  # W10 TAM: a swap of two spots
    KIM = "kim"  # W10 KIM: an archived card sent back face down
    KRIS = "kris"  # W10 KRIS: an element named and a card revealed
    ALAN_TAKE = "alan_take"  # W10 ALAN: an archived card taken into the Clue Area
    END = "end"  # W7: the game ended, with scores and winners

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as the plain string it equals, in notebooks and doctests
        return repr(self.value)


PHASE_HELP = {
    Phase.CHOOSE: "a choice of Identify, Reveal another or Challenge (W3)",
    Phase.IDENTIFY: "a Declare: clue card, clue type(s) and a face-down place (W4)",
    Phase.CHALLENGE: "a place to reveal, or Stop once 4 safe cards are revealed (W5)",
    Phase.ARCHIVE: "which won card goes on your archive next; the last one is on top (W4)",
    Phase.FACE_UP: "TurnFaceDown: the failed turn's cards lie face up until the next turn begins (W4, W5)",
    Phase.ABILITIES: "an ability to use, or End turn (W10)",
    Phase.ALAN: "an archived card to take into the Clue Area, or ALAN: identify now (W10)",
    Phase.OVER: "nothing: the game is over",
}
