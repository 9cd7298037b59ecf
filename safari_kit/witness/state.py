"""One playthrough of Safari Witness: the table, the turn in progress, and the log.

``legal_actions()`` is the single source of truth at every decision point and
``apply(action)`` performs one; an illegal action raises
:class:`~safari_kit.core.errors.IllegalActionError` before anything changes.
Automatic steps (turning cards face down, revealing the turn's clue, refilling,
ending the game) happen inside ``apply`` as the rulings say (W3–W7).

Cards are held as indices into ``game.cards``; ids appear only at the edges
(actions, observations, records).

One concern, and why it is long (issue 28 allows three modules over 600 lines):
this is the rules' state machine and nothing else. Everything that can live
outside it already does: the rules' constants and phase help in
:mod:`~safari_kit.witness.rules`, the reasons a move is refused in
:mod:`~safari_kit.witness.explain`, what a seat sees in
:mod:`~safari_kit.witness.observation`, the HTML in
:mod:`~safari_kit.witness.html`. What is left is one ``_do_<Action>`` method per
action (each a ruling, W3–W11, abilities included) over the one private table
they all change, and the legal-action list they all share (kept fast for the
simulations: the phases as module names, :class:`DeclareGrid` built on demand).
Split into mixins, every method would reach into the others' private fields.
"""
from __future__ import annotations

from collections.abc import Sequence as SequenceABC
from itertools import combinations
from typing import Sequence

from safari_kit.cards.names import NAMES, matches
from safari_kit.core.chance import Chance
from safari_kit.core.errors import IllegalActionError
from safari_kit.core.records import make_record, write_record
from safari_kit.witness import actions as A
from safari_kit.witness.cases import CASE_CARDS, case_points
from safari_kit.witness.explain import why_illegal
from safari_kit.witness.observation import observe
from safari_kit.witness.rules import (ABILITY_NAMES, ALEX_TYPES, ARCHIVE_TO_END, KRIS_ELEMENTS, MIN_SAFE,
                                      PHASE_HELP, SINGLE_TYPES, UNIDENTIFIED_SIZE, Event, Phase)

__all__ = ["WitnessState", "DeclareGrid", "Phase", "Event", "PHASE_HELP", "MIN_SAFE", "UNIDENTIFIED_SIZE",
           "ARCHIVE_TO_END", "ABILITY_NAMES", "KRIS_ELEMENTS"]  # the rules' names, re-exported for old imports

# Enum attribute lookups cost ~100 ns each in the hot path: the members as plain module names.
_P_CHOOSE = Phase.CHOOSE
_P_IDENTIFY = Phase.IDENTIFY
_P_CHALLENGE = Phase.CHALLENGE
_P_ARCHIVE = Phase.ARCHIVE
_P_FACE_UP = Phase.FACE_UP
_P_ABILITIES = Phase.ABILITIES
_P_ALAN = Phase.ALAN
_P_OVER = Phase.OVER
_E_DEAL = Event.DEAL
_E_CLUE = Event.CLUE
_E_IDENTIFY = Event.IDENTIFY
_E_CHALLENGE = Event.CHALLENGE
_E_CHALLENGE_REVEAL = Event.CHALLENGE_REVEAL
_E_FAIL = Event.FAIL
_E_FACE_DOWN = Event.FACE_DOWN
_E_ARCHIVE = Event.ARCHIVE
_E_TOM = Event.TOM
_E_SAM = Event.SAM
_E_TAM = Event.TAM
_E_KIM = Event.KIM
_E_KRIS = Event.KRIS
_E_ALAN_TAKE = Event.ALAN_TAKE
_E_END = Event.END
_CHOOSE = (A.Identify(), A.RevealAnother(), A.Challenge())
_CHOOSE_EMPTY_DECK = (A.Identify(), A.Challenge())


class WitnessState:
    """A Safari Witness playthrough. Make one with ``WitnessGame.new_initial_state``."""

    def __init__(self, game, seed: int | None = None, deck_order: Sequence[str] | None = None):
        self.game = game
        chance = Chance(seed)
        self.seed = chance.seed
        n_players = game.options.players
        n_cards = len(game.cards)
        prefix = self._check_deck_order(game, deck_order)
        self.deck_order_given = tuple(game.cards[i].id for i in prefix) if deck_order is not None else None
        chosen = set(prefix)
        rest = [i for i in range(n_cards) if i not in chosen]
        shuffled = [rest[k] for k in chance.generator("deck").permutation(len(rest))]
        self.deck: list[int] = (prefix + shuffled)[::-1]  # top of the deck is the end of the list
        first = game.options.first_player
        if first is None:
            first = int(chance.generator("first_player").integers(n_players))
        self.first_player = first
        self.case_cards: tuple[str, ...] | None
        if game.options.case_module:
            order = chance.generator("cases").permutation(len(CASE_CARDS))[:n_players]
            self.case_cards = tuple(CASE_CARDS[k].key for k in order)
        else:
            self.case_cards = None
        self.current = first
        self.turn = 0
        self.places: list[int] = []  # place ids, in table order
        self.card_at: dict[int, int] = {}
        self.face_up: set[int] = set()  # places whose card everybody sees now
        self.turn_revealed: set[int] = set()  # places revealed earlier this turn (W4)
        self.next_place = 1
        self.clue: list[int] = []  # the Clue Area, in the order cards entered it
        self.resolved: list[int] = []  # clue cards already identified in this identification
        self.won: list[int] = []  # cards won so far, in reveal order
        self.name_wins: list[frozenset[str]] = []  # names shared by name successes (W10)
        self.pending: list[frozenset[str]] = []  # abilities earned this turn, one set per name success
        self.used: list[str] = []  # abilities used this turn (each spends one success, W10)
        self.stacking: list[int] = []  # won cards already put on the archive, in order (W4)
        self.challenged: int | None = None
        self.safe = 0
        self.sam_count = 0
        self.archives: list[list[int]] = [[] for _ in range(n_players)]
        self.phase = _P_CHOOSE
        self.end_reason: str | None = None
        self.history: list = []
        self.log: list[tuple[dict, int | None, dict | None]] = []
        self._legal: Sequence | None = None  # a list, a tuple or a DeclareGrid
        self._legal_set: frozenset | None = None
        self._refill()
        self._start_turn()

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def _check_deck_order(game, deck_order) -> list[int]:
        if deck_order is None:
            return []
        if isinstance(deck_order, str):
            raise ValueError("deck_order must be a list of card ids, not a single string")
        prefix, seen = [], set()
        for pos, cid in enumerate(deck_order):
            if cid not in game.index:
                raise ValueError(f"deck_order[{pos}]: unknown card id {cid!r}")
            if cid in seen:
                raise ValueError(f"deck_order[{pos}]: card id {cid!r} appears twice")
            seen.add(cid)
            prefix.append(game.index[cid])
        return prefix

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return self.game.options.players

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.phase == _P_OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == _P_OVER

    def card(self, index: int):
        return self.game.cards[index]

    def card_id(self, index: int) -> str:
        return self.game.cards[index].id

    def available_places(self) -> list[int]:
        """Face-down places not revealed earlier this turn: where an identification may look."""
        return [p for p in self.places if p not in self.face_up and p not in self.turn_revealed]

    def face_down_places(self) -> list[int]:
        return [p for p in self.places if p not in self.face_up]

    def alex_on_top(self, player: int | None = None) -> bool:
        """W10: ALEX is passive while a card that can be ALEX (ALEX, AL??, ?L??) tops the archive."""
        archive = self.archives[self.current if player is None else player]
        return bool(archive) and "ALEX" in self.game.cards[archive[-1]].possible_names

    def type_choices(self) -> tuple[tuple[str, ...], ...]:
        """The clue-type declarations allowed now: one type, or up to two with ALEX (W10)."""
        if self.game.options.advanced and self.alex_on_top():
            return ALEX_TYPES
        return SINGLE_TYPES

    def archive_sizes(self) -> list[int]:
        return [len(a) for a in self.archives]

    def case_scores(self) -> list[int]:
        if self.case_cards is None:
            return [0] * self.players
        return [case_points(case, [self.game.cards[i] for i in archive])[0]
                for case, archive in zip(self.case_cards, self.archives)]

    def scores(self) -> list[int]:
        """W8: one point per archived Mugshot plus Case points (W9)."""
        return [a + c for a, c in zip(self.archive_sizes(), self.case_scores())]

    def returns(self) -> list[float]:
        """Final scores once the game is over (zeros before)."""
        return [float(s) for s in self.scores()] if self.is_terminal() else [0.0] * self.players

    def winners(self) -> list[int]:
        """W8: highest total; with the Case Module a tie goes to more Mugshots; a remaining tie is shared."""
        scores = self.scores()
        keys: list[tuple[int, ...]]
        if self.case_cards is not None:
            keys = [(s, a) for s, a in zip(scores, self.archive_sizes())]
        else:
            keys = [(s,) for s in scores]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list:
        """Every action allowed now, in a stable order (the single source of truth)."""
        return list(self.legal_sequence())

    def legal_sequence(self) -> Sequence:
        """``legal_actions()`` without building a list: indexable, sized, iterable.

        Bots and simulators use it to pick the k-th legal action cheaply; an
        identification offers clue x type x place actions, built only on demand.
        """
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def is_legal(self, action) -> bool:
        """Is ``action`` among ``legal_actions()``? Large phases test membership by parts."""
        try:
            return self._is_legal(action)
        except TypeError:  # an unhashable field (a list or dict where an id, place or tuple belongs)
            return False

    def _is_legal(self, action) -> bool:
        phase = self.phase
        if phase == _P_IDENTIFY:
            return action in self.legal_sequence()
        if phase == _P_CHALLENGE and type(action) is A.RevealNext:
            return action.place in self.card_at and action.place not in self.face_up
        if phase == _P_ABILITIES and type(action) is A.UseTam:
            spots = self.spots()
            return (action.first in spots and action.second in spots
                    and spots.index(action.first) < spots.index(action.second) and "TAM" in self.usable_abilities())
        if phase == _P_ABILITIES and type(action) is A.UseKris:
            return ("KRIS" in self.usable_abilities() and action.element in KRIS_ELEMENTS
                    and action.place in self.card_at and action.place not in self.face_up)
        legal = self.legal_sequence()
        if len(legal) <= 6:
            return action in legal
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        return action in self._legal_set

    def _declare_parts(self) -> tuple[list[str], tuple[tuple[str, ...], ...], list[int]]:
        ids = self.game.cards
        clues = [ids[c].id for c in self.clue if c not in self.resolved]
        return clues, self.type_choices(), self.available_places()

    def usable_abilities(self) -> set[str]:
        """W10: the abilities still usable: some assignment of successes to abilities allows each.

        Every name success earned a set of abilities (the names it shared); each
        use spends one success. An ability is usable when the abilities used so
        far plus this one can be matched to distinct successes whose sets allow
        them (a bipartite matching, not a greedy choice).
        """
        if not self.pending or len(self.used) >= len(self.pending):
            return set()
        candidates = set().union(*self.pending)
        return {name for name in candidates if _assignable(self.used + [name], self.pending)}

    def _compute_legal(self) -> Sequence:
        phase = self.phase
        if phase == _P_CHOOSE:
            return _CHOOSE if self.deck else _CHOOSE_EMPTY_DECK
        if phase == _P_IDENTIFY:
            return DeclareGrid(*self._declare_parts(), self.game.declare_cache)
        if phase == _P_CHALLENGE:
            places = self.face_down_places()
            cache = self.game.reveal_cache
            out = [cache.get(p) or cache.setdefault(p, A.RevealNext(p)) for p in places]
            if self.safe >= MIN_SAFE or not places:
                out.append(A.StopChallenge())
            return out
        if phase == _P_ARCHIVE:
            archive = self.game.archive_actions
            return [archive[c] for c in self.won]
        if phase == _P_FACE_UP:
            return [_TURN_FACE_DOWN]
        if phase == _P_ABILITIES:
            return self._ability_actions() + [A.EndTurn()]
        if phase == _P_ALAN:
            out = []
            if len(self.clue) < len(self.available_places()):
                out = [A.AlanTake(self.game.cards[c].id) for c in self.archives[self.current]]
            if self.clue:
                out.append(A.AlanDone())
            return out
        return []

    def spots(self) -> list[str]:
        spots = [f"U{p}" for p in self.places]
        for player, archive in enumerate(self.archives):
            spots += [f"A{player}.{i}" for i in range(len(archive))]
        return spots

    def _ability_actions(self) -> list:
        names = self.usable_abilities()
        out: list = []
        down = self.face_down_places()
        if "TAM" in names:
            out += [A.UseTam(a, b) for a, b in combinations(self.spots(), 2)]
        if "TOM" in names:
            out += [A.UseTom(p) for p in down]
        if "SAM" in names:
            out += [A.UseSam(a, b) for a, b in combinations(down, 2)]
        if "KIM" in names:
            out += [A.UseKim(self.game.cards[c].id) for archive in self.archives for c in archive]
        if "KRIS" in names:
            out += [A.UseKris(e, p) for e in KRIS_ELEMENTS for p in down]
        if "ALAN" in names and self.archives[self.current] and self.available_places():
            out.append(A.UseAlan())
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, action) -> None:
        """Perform one legal action; an illegal one raises and changes nothing."""
        if not self.is_legal(action):
            raise IllegalActionError(action, self.why_illegal(action))
        self._legal = self._legal_set = None
        self.history.append(action)
        getattr(self, "_do_" + type(action).__name__)(action)

    def why_illegal(self, action) -> str:
        """A sentence saying why ``action`` is not legal now (for errors and widgets)."""
        return why_illegal(self, action)

    # W3 -------------------------------------------------------------------
    def _do_Identify(self, action) -> None:
        self._begin_identification()

    def _do_RevealAnother(self, action) -> None:
        card = self.deck.pop()
        self.clue.append(card)
        self._log({"kind": _E_CLUE, "card": self.card_id(card)})
        self._begin_identification()

    def _do_Challenge(self, action) -> None:
        self.challenged = self.clue[0]
        self.safe = 0
        self.won = [self.challenged]
        self.phase = _P_CHALLENGE
        self._log({"kind": _E_CHALLENGE, "card": self.card_id(self.challenged)})

    # W4 -------------------------------------------------------------------
    def _begin_identification(self) -> None:
        self.resolved, self.won, self.name_wins = [], [], []
        self.phase = _P_IDENTIFY

    def _do_Declare(self, action) -> None:
        game = self.game
        clue = game.index[action.clue]
        place = action.place
        target = self.card_at[place]
        self._reveal(place, target)
        hit = [t for t in action.types if target in game.shares[t][clue]]
        self._log({"kind": _E_IDENTIFY, "clue": action.clue, "types": list(action.types), "place": place,
                   "card": self.card_id(target), "success": bool(hit)})
        if not hit:
            self._fail()
            return
        if "name" in hit:
            abilities = frozenset(game.shared_names(clue, target)) & frozenset(ABILITY_NAMES)
            if abilities:
                self.name_wins.append(abilities)
        self.resolved.append(clue)
        self.won += [clue, target]
        if len(self.resolved) == len(self.clue):
            self._take_won_places()
            self.clue = []
            self._begin_archive()

    def _reveal(self, place: int, card: int) -> None:
        self.face_up.add(place)
        self.turn_revealed.add(place)

    def _take_won_places(self) -> None:
        self.won = list(dict.fromkeys(self.won))  # each card once, in reveal order
        won = set(self.won)
        keep = []
        for p in self.places:
            if self.card_at[p] in won and p in self.face_up:
                del self.card_at[p]
                self.face_up.discard(p)
            else:
                keep.append(p)
        self.places = keep

    def _fail(self) -> None:
        """W4/W5 failure: revealed cards stay face up; clue cards take new face-up places.

        The state then waits in phase ``face_up``: every observation shows the
        cards until the player who failed turns them face down (TurnFaceDown),
        which starts the next turn. Abilities earned earlier this turn are lost.
        """
        moved = []
        for card in self.clue:
            place = self._new_place(card)
            self.face_up.add(place)
            moved.append({"card": self.card_id(card), "place": place})
        self.clue = []
        self.won = []
        self.pending, self.used, self.name_wins = [], [], []
        self._log({"kind": _E_FAIL, "to_places": moved,
                   "face_up": [{"place": p, "card": self.card_id(self.card_at[p])}
                               for p in sorted(self.face_up)]})  # place ids grow in table order
        self.phase = _P_FACE_UP

    def _do_TurnFaceDown(self, action) -> None:
        self._end_turn()

    # W5 -------------------------------------------------------------------
    def _do_RevealNext(self, action) -> None:
        place = action.place
        card = self.card_at[place]
        self._reveal(place, card)
        safe = card not in self.game.unsafe[self.challenged]
        self._log({"kind": _E_CHALLENGE_REVEAL, "place": place, "card": self.card_id(card), "safe": safe})
        if not safe:
            self._fail()
            return
        self.safe += 1
        self.won.append(card)

    def _do_StopChallenge(self, action) -> None:
        self._take_won_places()
        self.clue = []
        self._begin_archive()

    def _begin_archive(self) -> None:
        self.phase = _P_ARCHIVE
        self.stacking = []
        if len(self.won) <= 1:
            self._finish_archive()

    # archiving, refill, end (W4, W6, W7) ------------------------------------
    def _do_ArchiveCard(self, action) -> None:
        card = self.game.index[action.card]
        self.won.remove(card)
        self.stacking.append(card)
        if len(self.won) <= 1:  # the last card left has no choice
            self._finish_archive()

    def _finish_archive(self) -> None:
        order = self.stacking + self.won
        self.won, self.stacking = [], []
        self._archive(order)
        if self.phase == _P_OVER:
            return
        if self.game.options.advanced:
            self.pending += self.name_wins
        self.name_wins = []
        if self.usable_abilities():
            self.phase = _P_ABILITIES
        else:
            self._end_turn()

    def _archive(self, cards: list[int]) -> None:
        archive = self.archives[self.current]
        archive.extend(cards)
        self._log({"kind": _E_ARCHIVE, "cards": [self.card_id(c) for c in cards]})
        if len(archive) >= ARCHIVE_TO_END:
            self._end("archive")
            return
        self._refill()

    def _refill(self) -> None:
        while len(self.places) < UNIDENTIFIED_SIZE:
            if not self.deck:
                self._end("deck")
                return
            card = self.deck.pop()
            place = self._new_place(card)
            self._log({"kind": _E_DEAL, "place": place})

    def _new_place(self, card: int) -> int:
        place = self.next_place
        self.next_place += 1
        self.places.append(place)
        self.card_at[place] = card
        return place

    def _end(self, reason: str) -> None:
        self.phase = _P_OVER
        self.end_reason = reason
        self.pending, self.used = [], []
        self._log({"kind": _E_END, "reason": reason, "scores": self.scores(), "winners": self.winners()})

    def _end_turn(self) -> None:
        self.pending, self.used = [], []
        self.current = (self.current + 1) % self.players
        self._start_turn()

    def _start_turn(self) -> None:
        if self.phase == _P_OVER:
            return
        if self.face_up:
            self._log({"kind": _E_FACE_DOWN, "places": sorted(self.face_up)}, turn_player=self.current)
            self.face_up.clear()
        self.turn_revealed.clear()
        self.clue, self.resolved, self.won, self.name_wins, self.pending = [], [], [], [], []
        self.used, self.stacking = [], []
        self.challenged, self.safe = None, 0
        self.turn += 1
        if not self.deck:
            self._end("deck")
            return
        card = self.deck.pop()
        self.clue.append(card)
        self.phase = _P_CHOOSE
        self._log({"kind": _E_CLUE, "card": self.card_id(card)})

    # W10 abilities -------------------------------------------------------
    def _use(self, name: str) -> None:
        """Spend one success on ``name``; which one is left open (see ``usable_abilities``)."""
        self.used.append(name)

    def _after_ability(self) -> None:
        if self.phase == _P_OVER:
            return
        if not self.usable_abilities():
            self._end_turn()
        else:
            self.phase = _P_ABILITIES

    def _spot_get(self, spot: str) -> int:
        if spot[0] == "U":
            return self.card_at[int(spot[1:])]
        player, index = spot[1:].split(".")
        return self.archives[int(player)][int(index)]

    def _spot_set(self, spot: str, card: int) -> None:
        if spot[0] == "U":
            self.card_at[int(spot[1:])] = card
        else:
            player, index = spot[1:].split(".")
            self.archives[int(player)][int(index)] = card

    def _do_UseTam(self, action) -> None:
        self._use("TAM")
        a, b = action.first, action.second
        ca, cb = self._spot_get(a), self._spot_get(b)
        self._spot_set(a, cb)
        self._spot_set(b, ca)
        event = {"kind": _E_TAM, "first": a, "second": b}
        if a[0] == "A" or b[0] == "A":
            # a card leaving an archive was public; one entering an archive becomes public
            event["cards"] = {a: self.card_id(cb), b: self.card_id(ca)}
        self._log(event)
        self._after_ability()

    def _do_UseTom(self, action) -> None:
        self._use("TOM")
        card = self.card_at[action.place]
        self._log({"kind": _E_TOM, "place": action.place}, private={"card": self.card_id(card)})
        self._after_ability()

    def _do_UseSam(self, action) -> None:
        self._use("SAM")
        coin = int(Chance(self.seed).generator("sam", self.sam_count).integers(2))
        self.sam_count += 1
        if coin:
            a, b = action.first, action.second
            self.card_at[a], self.card_at[b] = self.card_at[b], self.card_at[a]
        self._log({"kind": _E_SAM, "places": [action.first, action.second]})
        self._after_ability()

    def _do_UseKim(self, action) -> None:
        self._use("KIM")
        card = self.game.index[action.card]
        owner = next(p for p, archive in enumerate(self.archives) if card in archive)
        self.archives[owner].remove(card)
        place = self._new_place(card)
        self._log({"kind": _E_KIM, "card": action.card, "from_player": owner, "place": place})
        self._after_ability()

    def _do_UseKris(self, action) -> None:
        self._use("KRIS")
        place = action.place
        card = self.card_at[place]
        self.turn_revealed.add(place)
        hit = _has_element(self.game.cards[card], action.element)
        self._log({"kind": _E_KRIS, "element": action.element, "place": place,
                   "card": self.card_id(card), "archived": hit})
        if hit:
            self.places.remove(place)
            del self.card_at[place]
            self._archive([card])
        self._after_ability()

    def _do_UseAlan(self, action) -> None:
        self._use("ALAN")
        self.clue = []
        self.phase = _P_ALAN

    def _do_AlanTake(self, action) -> None:
        card = self.game.index[action.card]
        self.archives[self.current].remove(card)
        self.clue.append(card)
        self._log({"kind": _E_ALAN_TAKE, "card": action.card})

    def _do_AlanDone(self, action) -> None:
        self._begin_identification()

    def _do_EndTurn(self, action) -> None:
        self._end_turn()

    # ------------------------------------------------------------------ log
    def _log(self, event: dict, private: dict | None = None, turn_player: int | None = None) -> None:
        event = {"turn": self.turn, "player": self.current if turn_player is None else turn_player, **event}
        self.log.append((event, self.current if private else None, private))

    # ------------------------------------------------------------------ views
    def observation(self, player: int):
        """What ``player`` may know, and nothing else (see :mod:`safari_kit.witness.observation`)."""
        return observe(self, player)

    def full_view(self) -> dict:
        """Everything, hidden cards included: for tests and teachers, never for a bot or widget."""
        ids = self.card_id
        return {
            "phase": self.phase, "turn": self.turn, "current": self.current, "end_reason": self.end_reason,
            "deck": [ids(c) for c in reversed(self.deck)],
            "unidentified": [(p, ids(self.card_at[p]), p in self.face_up) for p in self.places],
            "turn_revealed": sorted(self.turn_revealed),
            "clue": [ids(c) for c in self.clue], "resolved": [ids(c) for c in self.resolved],
            "won": [ids(c) for c in self.won], "name_wins": [sorted(s) for s in self.name_wins],
            "pending": [sorted(s) for s in self.pending], "used": list(self.used),
            "usable": sorted(self.usable_abilities()) if self.phase == _P_ABILITIES else [],
            "stacking": [ids(c) for c in self.stacking],
            "challenged": None if self.challenged is None else ids(self.challenged), "safe": self.safe,
            "archives": [[ids(c) for c in a] for a in self.archives],
            "case_cards": None if self.case_cards is None else list(self.case_cards),
            "first_player": self.first_player, "next_place": self.next_place, "sam_count": self.sam_count,
            "history": [a.to_dict() for a in self.history], "log": [e for e, _, _ in self.log],
            "private_log": [(p, x) for _, p, x in self.log if p is not None],
            "scores": self.scores(),
        }

    # ------------------------------------------------------------------ copy, records
    def clone(self) -> "WitnessState":
        new = object.__new__(WitnessState)
        new.__dict__.update(self.__dict__)
        for name in ("deck", "places", "clue", "resolved", "won", "name_wins", "pending", "used", "stacking",
                     "history", "log"):
            setattr(new, name, list(getattr(self, name)))
        new.card_at = dict(self.card_at)
        new.face_up = set(self.face_up)
        new.turn_revealed = set(self.turn_revealed)
        new.archives = [list(a) for a in self.archives]
        return new

    def to_record(self) -> dict:
        setup = None if self.deck_order_given is None else {"deck_order": list(self.deck_order_given)}
        return make_record("witness", self.game.options.to_dict(), self.seed, setup,
                           [a.to_dict() for a in self.history])

    def save(self, path=None) -> str:
        """Write the game record as JSON (to ``path`` when given) and return the text."""
        return write_record(self.to_record(), path)

    def __eq__(self, other) -> bool:
        return isinstance(other, WitnessState) and self.full_view() == other.full_view()

    __hash__ = None  # type: ignore[assignment]  # mutable state: equal by value, so not hashable

    def __repr__(self) -> str:
        return (f"<WitnessState turn {self.turn}, player {self.current} to act ({self.phase}), "
                f"deck {len(self.deck)}, archives {self.archive_sizes()}>")

    def _repr_html_(self) -> str:
        from safari_kit.witness.html import state_html

        return state_html(self)


class DeclareGrid(SequenceABC):
    """The Declare actions of an identification, in clue, type, place order, built on demand."""

    __slots__ = ("clues", "types", "places", "cache", "_block")

    def __init__(self, clues, types, places, cache):
        self.clues, self.types, self.places, self.cache = clues, types, places, cache
        self._block = len(types) * len(places)

    def __len__(self) -> int:
        return len(self.clues) * self._block

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(k)
        c, rest = divmod(k, self._block)
        t, p = divmod(rest, len(self.places))
        key = (self.clues[c], self.types[t], self.places[p])
        action = self.cache.get(key)
        if action is None:
            action = self.cache[key] = A.Declare(*key)
        return action

    def __contains__(self, action) -> bool:
        return (type(action) is A.Declare and action.clue in self.clues and action.types in self.types
                and action.place in self.places)


_TURN_FACE_DOWN = A.TurnFaceDown()


def _assignable(names: list[str], successes: list[frozenset[str]]) -> bool:
    """Can each of ``names`` be given its own success whose set allows it? (Kuhn's matching.)"""
    owner: dict[int, int] = {}  # success index -> index into names

    def place(i: int, seen: set[int]) -> bool:
        for k, allowed in enumerate(successes):
            if names[i] in allowed and k not in seen:
                seen.add(k)
                if k not in owner or place(owner[k], seen):
                    owner[k] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(names)))


def _has_element(card, element: str) -> bool:
    """KRIS: does ``card`` have the named element? Names per W2 (an ink card may)."""
    if element in NAMES:
        return matches(card.name, element)
    return element in (card.animal, card.texture, card.color)
