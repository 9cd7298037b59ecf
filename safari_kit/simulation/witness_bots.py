"""Safari Witness bots that play by the exact probabilities of :mod:`safari_kit.probability.witness`.

They follow the protocol of :mod:`safari_kit.simulation.bots`: each decision
gets the seat's observation and the legal actions, never the state. What a bot
knows comes from replaying the observation's log through its own memory
(:class:`~safari_kit.probability.knowledge.KnowledgeTracker`).

* :class:`GreedyWitnessBot` (perfect memory): picks Identify / Reveal another /
  Challenge by expected archived cards; declares the place and type(s) with the
  highest P(match) (two clues: the best pair); stops a Challenge by the optimal
  rule; puts an ALEX-capable card on top of its archive; uses TOM (look at an
  unknown place) and KRIS (the most likely element) and ends its turn otherwise.
* :class:`MemoryWitnessBot` ``(remember_prob=m)`` or ``(last_k=k)``: the same
  play on top of a limited memory.
"""
from __future__ import annotations

from typing import Sequence

from safari_kit.cards.names import NAMES, matches
from safari_kit.core.chance import Generator
from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import KnowledgeTracker, Memory
from safari_kit.witness import actions as A
from safari_kit.witness.rules import KRIS_ELEMENTS as _KRIS_ELEMENTS

__all__ = ["GreedyWitnessBot", "MemoryWitnessBot"]


class GreedyWitnessBot:
    """Exact-probability greedy play with perfect memory (see the module docstring)."""

    name = "greedy"
    needs_observation = True

    def __init__(self, memory: Memory | None = None):
        self.memory = memory or Memory()
        self._tracker: KnowledgeTracker | None = None
        self.game = None
        self.player = None
        self.fallbacks = 0  # decisions where the plan was not legal (should stay 0)

    def start(self, game, player: int, rng: Generator) -> None:
        self.game = game
        self.player = player
        self._tracker = KnowledgeTracker(game, player)

    def knowledge(self, observation):
        return self._tracker.knowledge(observation, self.memory)

    def choose(self, observation, legal_actions: Sequence):
        if observation is None:
            raise ValueError("GreedyWitnessBot needs the observation")
        kn = self.knowledge(observation)
        action = getattr(self, "_" + observation.phase, self._fallback)(kn, observation, legal_actions)
        if action is None or action not in legal_actions:
            self.fallbacks += action is not None
            return self._fallback(kn, observation, legal_actions)
        return action

    # ------------------------------------------------------------------ phases
    def _choose(self, kn, obs, legal):
        values = W.choice_values(kn, with_reveal_another=A.RevealAnother() in legal)
        best = max(("identify", "reveal_another", "challenge"),
                   key=lambda k: values[k].value if k in values else -1)
        return {"identify": A.Identify(), "reveal_another": A.RevealAnother(), "challenge": A.Challenge()}[best]

    def _identify(self, kn, obs, legal):
        ids = self.game.cards
        if len(kn.unresolved) >= 2:
            c1, c2 = kn.unresolved[0], kn.unresolved[1]
            plan = W.best_two_clue_plan(kn, c1, c2)
            if plan is not None:
                (p1, t1), _, _ = plan
                return A.Declare(ids[c1].id, t1, p1)
        best = W.best_declaration(kn, kn.unresolved[0])
        if best is None:
            return None
        place, types, _ = best
        return A.Declare(ids[kn.unresolved[0]].id, types, place)

    def _challenge(self, kn, obs, legal):
        decision = W.challenge_decision(kn)
        return A.RevealNext(decision[1]) if decision[0] == "reveal" else A.StopChallenge()

    def _archive(self, kn, obs, legal):
        """Put the cards on in reveal order, keeping one that can be ALEX for the top (W10 passive)."""
        cards = self.game.cards
        for action in legal:
            if "ALEX" not in cards[self.game.index[action.card]].possible_names:
                return action
        return legal[0]

    def _face_up(self, kn, obs, legal):
        return A.TurnFaceDown()  # what lay face up is already in the bot's knowledge

    def _abilities(self, kn, obs, legal):
        pending = set(obs.usable_abilities)
        if "KRIS" in pending:
            best = self._best_kris(kn)
            if best is not None:
                return A.UseKris(*best)
        if "TOM" in pending and kn.unknown_places:
            return A.UseTom(kn.unknown_places[0])
        return A.EndTurn()

    def _best_kris(self, kn):
        """The (element, place) most likely to archive a card."""
        best, best_p = None, -1.0
        for place in kn.face_down:
            probs = kn.card_probabilities(place)
            for element in _KRIS_ELEMENTS:
                p = 0.0
                for c, w in probs.items():
                    card = self.game.cards[c]
                    if (matches(card.name, element) if element in NAMES
                            else element in (card.animal, card.texture, card.color)):
                        p += float(w)
                if p > best_p + 1e-12:
                    best, best_p = (element, place), p
            if best_p >= 1.0:
                break
        return best

    def _fallback(self, kn, obs, legal):
        for action in legal:
            if isinstance(action, (A.EndTurn, A.AlanDone, A.StopChallenge)):
                return action
        return legal[0]


class MemoryWitnessBot(GreedyWitnessBot):
    """Greedy play on a limited memory: ``remember_prob=m`` or ``last_k=k``."""

    def __init__(self, remember_prob: float | None = None, last_k: int | None = None):
        super().__init__(Memory(remember_prob=remember_prob, last_k=last_k))
        self.name = (f"memory(p={remember_prob})" if remember_prob is not None else
                     f"memory(last {last_k})" if last_k is not None else "memory(perfect)")
        self._params = (remember_prob, last_k)

    def start(self, game, player: int, rng: Generator) -> None:
        super().start(game, player, rng)
        remember_prob, last_k = self._params
        self.memory = Memory(remember_prob=remember_prob, last_k=last_k, seed=int(rng.integers(2**62)))
