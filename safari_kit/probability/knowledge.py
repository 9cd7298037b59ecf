"""What one Safari Witness player knows: a memory model on top of the observation.

:meth:`Knowledge.from_observation` replays the public log of a
:class:`~safari_kit.witness.observation.WitnessObservation` (plus the player's
own TOM looks) and answers, for every face-down place of the Unidentified
Area, one of:

* a known card (seen there, and remembered);
* a mixture after SAM: the place holds each card of its *SAM group* with equal
  probability (2 cards: 1/2 each; a slot may be "an unknown card");
* unknown: any card of the *unknown pool*.

The unknown pool is every card whose position the player cannot pin: the deck
and the unremembered face-down places. Every arrangement of the pool over the
unknown slots and the deck is equally likely, so an unknown slot holds each
pool card with probability 1/|pool|.

Memory filters decide which *sightings* (a card seen at a place: a reveal, a
failed turn's face-up cards, a KRIS reveal, the player's own TOM look, a KIM or
TAM move that names a card) are remembered. Cards face up on the table now are
always known; archives are public and never forgotten.

* ``Memory()`` (default): perfect memory;
* ``Memory(remember_prob=m, seed=s)``: each sighting is remembered with
  probability m, decided by a hash of (seed, player, log position), so the
  same sighting is always remembered or always forgotten;
* ``Memory(last_k=k)``: only the k most recent sightings.

Approximations, stated for teachers: a SAM group that grows by overlapping SAMs
(SAM a,b then SAM b,c) is treated as a uniform shuffle of the group; the exact
law after several overlapping SAMs is not uniform.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from safari_kit.witness.rules import Event

if TYPE_CHECKING:
    from safari_kit.witness.game import WitnessGame

__all__ = ["Memory", "Knowledge", "KnowledgeTracker", "PERFECT"]


_MASK64 = (1 << 64) - 1


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


@dataclass(frozen=True)
class Memory:
    """A memory filter: perfect (no arguments), ``remember_prob=m`` or ``last_k=k``."""

    remember_prob: float | None = None
    last_k: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if self.remember_prob is not None and self.last_k is not None:
            raise ValueError("give remember_prob or last_k, not both")
        if self.remember_prob is not None and not 0 <= self.remember_prob <= 1:
            raise ValueError(f"remember_prob must be in [0, 1], got {self.remember_prob!r}")
        if self.last_k is not None and (not isinstance(self.last_k, int) or self.last_k < 0):
            raise ValueError(f"last_k must be a non-negative integer, got {self.last_k!r}")

    @property
    def perfect(self) -> bool:
        return self.last_k is None and (self.remember_prob is None or self.remember_prob >= 1)

    def keeps(self, sighting: int, player: int, all_sightings: list[int]) -> bool:
        """Is the sighting at log position ``sighting`` remembered?"""
        if self.perfect:
            return True
        if self.last_k is not None:
            if self.last_k == 0:
                return False
            return sighting >= all_sightings[-self.last_k] if len(all_sightings) >= self.last_k else True
        h = _splitmix(_splitmix(_splitmix(self.seed) ^ (player + 1)) ^ (sighting + 1))
        return (h >> 11) / float(1 << 53) < cast(float, self.remember_prob)  # not perfect, no last_k: a float


PERFECT = Memory()

# A place belief inside the tracker: ("card", card_index, sighting) | ("unknown",) | ("group", gid)
_UNKNOWN = ("unknown",)


class KnowledgeTracker:
    """Replays an observation log incrementally (the log only grows); bots keep one per game."""

    def __init__(self, game, player: int):
        self.game = game
        self.player = player
        self.index = game.index
        self.seen = 0
        self.belief: dict[int, tuple] = {}
        self.groups: dict[int, dict] = {}  # gid -> {"places": set, "cards": list[(card, sighting) | None]}
        self.next_gid = 0
        self.sightings: list[int] = []

    # -- helpers
    def _pin(self, place: int, card: int, sight: int) -> None:
        old = self.belief.get(place)
        if old is not None and old[0] == "group":
            self._leave_group(place, old[1], card)
        self.belief[place] = ("card", card, sight)
        self.sightings.append(sight)

    def _leave_group(self, place: int, gid: int, card: int | None) -> None:
        """``place`` leaves its SAM group holding ``card`` (None: an unknown card)."""
        g = self.groups[gid]
        g["places"].discard(place)
        cards = g["cards"]
        for k, entry in enumerate(cards):
            if entry is not None and entry[0] == card:
                cards.pop(k)
                break
        else:
            for k, entry in enumerate(cards):
                if entry is None:
                    cards.pop(k)
                    break
            else:  # inconsistent (should not happen): drop any entry
                if cards:
                    cards.pop()
        if len(g["places"]) == 1:
            (last,) = g["places"]
            entry = cards[0] if cards else None
            self.belief[last] = _UNKNOWN if entry is None else ("card", entry[0], entry[1])
            del self.groups[gid]
        elif not g["places"]:
            del self.groups[gid]

    def _remove(self, place: int) -> None:
        old = self.belief.pop(place, None)
        if old is not None and old[0] == "group":
            self._leave_group(place, old[1], None)

    def _archived(self, cards: set[int]) -> None:
        for place, b in list(self.belief.items()):
            if b[0] == "card" and b[1] in cards:
                del self.belief[place]
        # a won card may have sat in a SAM group place that was revealed: handled at reveal time

    def update(self, log) -> None:
        idx = self.index
        for i in range(self.seen, len(log)):
            e = log[i]
            kind = e["kind"]
            if kind == Event.DEAL:
                self.belief[e["place"]] = _UNKNOWN
            elif kind in (Event.IDENTIFY, Event.CHALLENGE_REVEAL):
                self._pin(e["place"], idx[e["card"]], i)
            elif kind == Event.KRIS:
                if e["archived"]:
                    self._remove(e["place"])
                else:
                    self._pin(e["place"], idx[e["card"]], i)
            elif kind == Event.FAIL:
                for m in e["to_places"]:
                    self._pin(m["place"], idx[m["card"]], i)
            elif kind == Event.ARCHIVE:
                self._archived({idx[c] for c in e["cards"]})
            elif kind == Event.KIM:
                self._pin(e["place"], idx[e["card"]], i)
            elif kind == Event.TOM:
                if "card" in e:
                    self._pin(e["place"], idx[e["card"]], i)
            elif kind == Event.SAM:
                self._sam(*e["places"])
            elif kind == Event.TAM:
                self._tam(e, i)
        self.seen = len(log)

    def _sam(self, a: int, b: int) -> None:
        ba, bb = self.belief.get(a, _UNKNOWN), self.belief.get(b, _UNKNOWN)
        if ba[0] == "group" and bb[0] == "group" and ba[1] == bb[1]:
            return
        places: set[int] = set()
        cards: list = []
        for p, bel in ((a, ba), (b, bb)):
            if bel[0] == "group":
                g = self.groups.pop(bel[1], None)
                if g is not None:
                    places |= g["places"]
                    cards += g["cards"]
            else:
                places.add(p)
                cards.append(None if bel[0] == "unknown" else (bel[1], bel[2]))
        if all(c is None for c in cards):
            for p in places:
                self.belief[p] = _UNKNOWN
            return
        gid = self.next_gid
        self.next_gid += 1
        self.groups[gid] = {"places": places, "cards": cards}
        for p in places:
            self.belief[p] = ("group", gid)

    def _tam(self, e: dict, i: int) -> None:
        first, second = e["first"], e["second"]
        named = e.get("cards", {})
        u_spots = [s for s in (first, second) if s[0] == "U"]
        if len(u_spots) == 2:
            pa, pb = int(first[1:]), int(second[1:])
            ba, bb = self.belief.get(pa, _UNKNOWN), self.belief.get(pb, _UNKNOWN)
            self.belief[pa], self.belief[pb] = bb, ba
            for p, bel, other in ((pa, bb, pb), (pb, ba, pa)):
                if bel[0] == "group":
                    g = self.groups[bel[1]]
                    if other in g["places"] and p not in g["places"]:
                        g["places"].discard(other)
                        g["places"].add(p)
            return
        for s in u_spots:  # an archive card came to this place: everybody knows which
            place = int(s[1:])
            old = self.belief.get(place, _UNKNOWN)
            other = second if s == first else first
            left = named.get(other)  # the card that went from the place to the archive
            if old[0] == "group" and left is not None:
                self._leave_group(place, old[1], self.index[left])
            if s in named:
                self.belief[place] = ("card", self.index[named[s]], i)
                self.sightings.append(i)

    def knowledge(self, obs, memory: Memory = PERFECT) -> "Knowledge":
        self.update(obs.log)
        return Knowledge._build(self, obs, memory)


@dataclass(frozen=True, eq=False)
class Knowledge:
    """One player's knowledge of the table. Card values are indices into ``game.cards``.

    ``known``: face-down place -> card index; ``mixed``: face-down place -> group id;
    ``groups``: group id -> tuple of entries (card index, or None for a pool card);
    ``unknown_places``: face-down places holding a pool card; ``pool``: the unknown cards.
    """

    game: WitnessGame
    player: int
    phase: str
    known: dict
    mixed: dict
    groups: dict
    unknown_places: tuple
    face_up: dict  # place -> card index, visible now
    available: tuple  # face-down places not revealed this turn
    face_down: tuple  # all face-down places, table order
    pool: frozenset
    pool_mask: int
    deck_count: int
    clue: tuple  # card indices in the Clue Area
    unresolved: tuple  # clue cards still to identify this turn
    challenged: int | None
    safe_reveals: int
    archives: tuple
    alex: bool
    memory: Memory = field(default=PERFECT)

    @property
    def unknown_places_set(self) -> frozenset:
        s = self.__dict__.get("_unknown_set")
        if s is None:
            s = frozenset(self.unknown_places)
            object.__setattr__(self, "_unknown_set", s)
        return s

    @classmethod
    def from_observation(cls, obs, memory: Memory | None = None, game=None) -> "Knowledge":
        """Replay ``obs.log`` under ``memory`` (default perfect). ``game`` defaults to the standard deck."""
        game = _default_game() if game is None else game
        return KnowledgeTracker(game, obs.player).knowledge(obs, memory or PERFECT)

    @classmethod
    def _build(cls, tracker: KnowledgeTracker, obs, memory: Memory) -> "Knowledge":
        game = tracker.game
        idx = game.index
        player = obs.player
        sightings = tracker.sightings
        perfect = memory.perfect

        def keep(entry):
            if entry is None:
                return None
            return entry[0] if perfect or memory.keeps(entry[1], player, sightings) else None

        face_up = {p: idx[c] for p, c in obs.unidentified if c is not None}
        face_down = tuple(p for p, c in obs.unidentified if c is None)
        known, mixed, groups, unknown = {}, {}, {}, []
        for p in face_down:
            bel = tracker.belief.get(p, _UNKNOWN)
            if bel[0] == "card":
                c = keep((bel[1], bel[2]))
                if c is None:
                    unknown.append(p)
                else:
                    known[p] = c
            elif bel[0] == "group":
                gid = bel[1]
                if gid not in groups:
                    entries = tuple(keep(x) for x in tracker.groups[gid]["cards"])
                    groups[gid] = entries
                mixed[p] = gid
            else:
                unknown.append(p)
        # a group whose entries are all forgotten is just unknown places
        for gid, entries in list(groups.items()):
            if all(x is None for x in entries):
                del groups[gid]
                for p in [p for p, g in mixed.items() if g == gid]:
                    del mixed[p]
                    unknown.append(p)
        clue = tuple(idx[c] for c in obs.clue_area)
        resolved = {idx[c] for c in obs.identified_clues}
        placed = set(known.values()) | set(face_up.values())
        for entries in groups.values():
            placed |= {x for x in entries if x is not None}
        archived = {idx[c] for a in obs.archives for c in a}
        won = {idx[c] for c in obs.won_this_turn} | {idx[c] for c in obs.archive_order}
        gone = placed | archived | set(clue) | won
        pool = frozenset(i for i in range(len(game.cards)) if i not in gone)
        mask = 0
        for i in pool:
            mask |= 1 << i
        unknown_set = frozenset(unknown)
        return cls(game=game, player=player, phase=obs.phase, known=known, mixed=mixed, groups=groups,
                   unknown_places=tuple(p for p in face_down if p in unknown_set), face_up=face_up,
                   available=tuple(obs.available_places), face_down=face_down, pool=pool, pool_mask=mask,
                   deck_count=obs.deck_count, clue=clue,
                   unresolved=tuple(c for c in clue if c not in resolved),
                   challenged=None if obs.challenged is None else idx[obs.challenged],
                   safe_reveals=obs.safe_reveals, archives=tuple(tuple(idx[c] for c in a) for a in obs.archives),
                   alex=obs.alex, memory=memory)

    # ---------------------------------------------------------------- queries
    def unknown_slots(self) -> int:
        """How many slots a pool card fills: unknown places plus None entries of SAM groups."""
        return len(self.unknown_places) + sum(sum(1 for x in e if x is None) for e in self.groups.values())

    def place_dist(self, place: int) -> dict:
        """{card index or None (= a pool card): probability} for one face-down place."""
        if place in self.known:
            return {self.known[place]: Fraction(1)}
        if place in self.mixed:
            entries = self.groups[self.mixed[place]]
            out: dict = {}
            w = Fraction(1, len(entries))
            for x in entries:
                out[x] = out.get(x, 0) + w
            return out
        if place in self.face_up:
            return {self.face_up[place]: Fraction(1)}
        return {None: Fraction(1)}

    def card_probabilities(self, place: int) -> dict:
        """{card index: probability} over every card (pool cards spread evenly)."""
        out: dict = {}
        for x, w in self.place_dist(place).items():
            if x is None:
                share = w / len(self.pool)
                for c in self.pool:
                    out[c] = out.get(c, 0) + share
            else:
                out[x] = out.get(x, 0) + w
        return out

    def is_consistent(self) -> bool:
        """The pool fills exactly the deck and the unknown slots."""
        return len(self.pool) == self.deck_count + self.unknown_slots()

    def describe(self) -> str:
        """Each face-down place as this player knows it: a card id, "unknown", or a SAM mixture.

        (Not "?": in the lessons "?" is the ink on a card's name, as in T?M.)
        """
        cards = self.game.cards
        parts = []
        for p in self.face_down:
            if p in self.known:
                parts.append(f"{p}: {cards[self.known[p]].id}")
            elif p in self.mixed:
                parts.append(f"{p}: one of " + "/".join("unknown" if x is None else cards[x].id
                                                         for x in self.groups[self.mixed[p]]))
            else:
                parts.append(f"{p}: unknown")
        return f"places [{', '.join(parts)}]; {len(self.pool)} unknown cards, deck {self.deck_count}"

    __repr__ = describe


@lru_cache(maxsize=1)
def _default_game():
    from safari_kit.witness.game import WitnessGame

    return WitnessGame(players=2)
