"""Safari Witness actions: every choice the rules leave to a player (W3–W5, W10).

Each action is a small frozen dataclass. ``WitnessState.legal_actions()`` lists
exactly the ones allowed now; ``apply`` refuses anything else.

Places in the Unidentified Area are named by stable integer *place ids*: a
place keeps its id while its card stays there, so a learner (or a bot's memory)
can say "the card I saw at place 7". A *spot* names any card position a TAM
swap may touch: ``"U7"`` is Unidentified place 7, ``"A1.3"`` is position 3
(0 = bottom) of player 1's Archive Area.
"""
from __future__ import annotations

from dataclasses import dataclass

from safari_kit.core.actions import RecordableAction


@dataclass(frozen=True, slots=True)
class Identify(RecordableAction):
    """W3 (a): identify with the one Clue Mugshot revealed this turn."""

    def __str__(self) -> str:
        return "Identify"


@dataclass(frozen=True, slots=True)
class RevealAnother(RecordableAction):
    """W3 (b): reveal one more card into the Clue Area, then identify with both."""

    def __str__(self) -> str:
        return "Reveal another"


@dataclass(frozen=True, slots=True)
class Challenge(RecordableAction):
    """W3 (c) / W5: challenge with the Clue Mugshot revealed this turn."""

    def __str__(self) -> str:
        return "Challenge"


@dataclass(frozen=True, slots=True)
class Declare(RecordableAction):
    """W4: one identification: a Clue Mugshot, the declared clue type(s), a place to reveal.

    ``types`` holds one clue type, or two while ALEX is on top of the
    player's archive (W10).
    """

    clue: str
    types: tuple[str, ...]
    place: int

    def __str__(self) -> str:
        return f"Declare {'+'.join(self.types)} for {self.clue} at place {self.place}"


@dataclass(frozen=True, slots=True)
class RevealNext(RecordableAction):
    """W5: reveal the next face-down place in a Challenge."""

    place: int

    def __str__(self) -> str:
        return f"Reveal place {self.place}"


@dataclass(frozen=True, slots=True)
class StopChallenge(RecordableAction):
    """W5: stop after 4 or more safe reveals and archive."""

    def __str__(self) -> str:
        return "Stop and archive"


@dataclass(frozen=True, slots=True)
class ArchiveCard(RecordableAction):
    """W4/W5: put one won card on your archive next; the last card put is on top.

    The player orders the whole group this way, one card at a time (the last
    card left goes on by itself). The order matters once KIM, TAM or ALAN
    takes the top card away, and for ALEX (W10).
    """

    card: str

    def __str__(self) -> str:
        return f"Archive {self.card} next"


@dataclass(frozen=True, slots=True)
class TurnFaceDown(RecordableAction):
    """W4/W5: the failed turn is over; the cards lying face up are turned face down.

    Until then every player sees them (the moment to remember them). Bots take
    this action at once; a lab waits for the learner.
    """

    def __str__(self) -> str:
        return "Turn the cards face down"


@dataclass(frozen=True, slots=True)
class UseTam(RecordableAction):
    """W10 TAM: swap the cards at two spots (Unidentified places or archive positions)."""

    first: str
    second: str

    def __str__(self) -> str:
        return f"TAM: swap {self.first} and {self.second}"


@dataclass(frozen=True, slots=True)
class UseTom(RecordableAction):
    """W10 TOM: look privately at one face-down Unidentified place."""

    place: int

    def __str__(self) -> str:
        return f"TOM: look at place {self.place}"


@dataclass(frozen=True, slots=True)
class UseSam(RecordableAction):
    """W10 SAM: shuffle two face-down Unidentified places blindly."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"SAM: shuffle places {self.first} and {self.second}"


@dataclass(frozen=True, slots=True)
class UseKim(RecordableAction):
    """W10 KIM: send one archived card (any player's) face down to a new place."""

    card: str

    def __str__(self) -> str:
        return f"KIM: return {self.card} to the Unidentified Area"


@dataclass(frozen=True, slots=True)
class UseKris(RecordableAction):
    """W10 KRIS: name an element, reveal a place; archive the card if it has the element."""

    element: str
    place: int

    def __str__(self) -> str:
        return f"KRIS: {self.element} at place {self.place}"


@dataclass(frozen=True, slots=True)
class UseAlan(RecordableAction):
    """W10 ALAN: start an extra identification with cards from your own archive."""

    def __str__(self) -> str:
        return "ALAN: extra identification"


@dataclass(frozen=True, slots=True)
class AlanTake(RecordableAction):
    """W10 ALAN: move one of your archived cards into the Clue Area."""

    card: str

    def __str__(self) -> str:
        return f"ALAN: take {self.card}"


@dataclass(frozen=True, slots=True)
class AlanDone(RecordableAction):
    """W10 ALAN: stop taking cards and identify with them."""

    def __str__(self) -> str:
        return "ALAN: identify now"


@dataclass(frozen=True, slots=True)
class EndTurn(RecordableAction):
    """W10: use no more abilities this turn (each ability is optional)."""

    def __str__(self) -> str:
        return "End turn"


ACTION_TYPES = {cls.__name__: cls for cls in (
    Identify, RevealAnother, Challenge, Declare, RevealNext, StopChallenge, ArchiveCard, TurnFaceDown,
    UseTam, UseTom, UseSam, UseKim, UseKris, UseAlan, AlanTake, AlanDone, EndTurn,
)}
ABILITY_ACTIONS = {"TAM": UseTam, "TOM": UseTom, "SAM": UseSam, "KIM": UseKim, "KRIS": UseKris, "ALAN": UseAlan}
