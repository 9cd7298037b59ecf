"""The Full game lab's one sentence per action (issue 20, follow-up): archiving, abilities, the bots' turns.

An action of the Full game may run a lot: the learner's action, then the bots' turns, then the next screen
(the learner's turn again, a bot's failed turn to remember, the pass screen, the game's end). Each screen
writes its status line, but a screen reader should hear one sentence, heard once, for the whole action:

    <what the action did> <what the other players did since> <what now>

"Place 4: Pink Owl, ... No match: your turn ends. ...", "Teal Goat, Wood, named KIM goes on your archive:
1 placed, 2 left. Pick the next.", "The face-up cards turn face down. Player 1 identified 1 card and archived
2; Player 2 failed at place 4: ... Your turn: clue card ..., choose: ...". :class:`SpokenTurns` holds the
status lines said while an action runs (:meth:`SpokenTurns._one_sentence`) and then says that sentence. Every
part comes from :mod:`safari_kit.presentation.spoken_turns`, read from the acting learner's observation.
"""
from __future__ import annotations

import contextlib
import logging

from safari_kit.core.i18n import _
from safari_kit.presentation.spoken_turns import (ability_sentence, archive_step_sentence, turns_summary,
                                                  your_turn_words)

log = logging.getLogger("safari_kit.widgets")

__all__ = ["SpokenTurns"]

_ABILITY_EVENTS = ("tom", "sam", "tam", "kim", "kris", "alan_take")


class _Mute:
    """Stands in for the live region while an action's status lines are held."""

    def say(self, sentence: str) -> None:
        pass


class SpokenTurns:
    """A mixin of :class:`~safari_kit.widgets.labs.fullgame.FullGameLab`: one sentence per action."""

    _held: list[str] | None = None
    _said_upto = 0  # the log's length when the last sentence was said: later events are news
    _lead: tuple[str, str] | None = None  # (sentence of the learner's action, its kind)

    def show_status(self, text: str, kind: str = "info", spoken: str | None = None) -> None:
        if self._held is None:
            super().show_status(text, kind, spoken)  # type: ignore[misc]
            return
        self._held.append(text if spoken is None else spoken)
        live, self.live = self.live, _Mute()
        try:
            super().show_status(text, kind, spoken)  # type: ignore[misc]
        finally:
            self.live = live

    @contextlib.contextmanager
    def _one_sentence(self, since: int | None = None, looker: int | None = None):
        """Hold what the action's screens say; then say one sentence (``since``: where the news starts in the
        log, default where the last sentence stopped; ``looker``: whose observation tells the news)."""
        if self._held is not None:  # nested: the outer action says it
            yield
            return
        self._held, self._lead = [], None
        errors = len(self.errors)
        turn = self.state.turn if self.state is not None else None
        looker = self.viewer if looker is None else looker
        try:
            yield
        finally:
            held, self._held = self._held, None
        try:
            if not held and self._lead is None:
                text = ""  # nothing happened (a press that changes nothing)
            elif len(self.errors) > errors:
                text = held[-1] if held else ""
            else:
                text = self._sentence(held, turn, looker, since)
        except Exception as exc:  # noqa: BLE001 - the sentence must never stop the game
            log.exception("the Full game's sentence failed")
            self.errors.append(f"{type(exc).__name__}: {exc}")
            text = held[-1] if held else ""
        self._said_upto = len(self.state.log) if self.state is not None else 0
        self._lead = None
        if text:
            self.live.say(text)

    def _sentence(self, held: list[str], turn, looker, since) -> str:
        state = self.state
        if state is None:
            return held[-1] if held else ""
        if looker is None:
            looker = self.viewer if self.viewer is not None else (self.humans[0] if self.humans else 0)
        lead, kind = self._lead or ("", "")
        start = self._said_upto if since is None else since
        events = list(state.observation(looker).log[start:])
        if self._pause == "bot_failed":  # the failing turn is said by the failure's own words (the status)
            events = [e for e in events if e.get("turn") != state.turn]
        news = turns_summary(self.game, events, looker)
        mine = self.viewer is not None and state.current_player == self.viewer and not state.is_terminal()
        if self._pause == "tom":
            tail = _("Press 'Got it: go on'.")
        elif not mine or self._pause is not None:
            tail = held[-1] if held else ""  # the pass screen, a bot's failure to remember, the game's end
        elif state.turn != turn or kind == "start" or (news and state.phase == "choose"):
            tail = your_turn_words(self.game, state.observation(self.viewer))
        elif lead:
            tail = (_("Press Next turn.") if state.phase == "face_up" else
                    "" if kind == "archive_step" else self._phase_line())
        else:
            tail = held[-1] if held else ""
        if kind == "private" and self.viewer != looker:
            lead = ""  # a TOM look is said to the looker only
        return " ".join(x for x in (lead, news, tail) if x)

    def _action_words(self, action, events, player: int) -> tuple[str, str] | None:
        """The sentence of the learner's ``action`` (just applied; ``events``: the log entries it wrote)."""
        from safari_kit.witness import actions as A

        state, game = self.state, self.game
        said = self._reveal_words(events, player)
        if said:
            return said, "reveal"
        obs = state.observation(player)
        new = list(obs.log[len(obs.log) - len(events):]) if events else []
        archived = next((e for e in new if e.get("kind") == "archive"), None)
        kinds = {type(action)}
        if A.ArchiveCard in kinds:
            if archived is None:
                return archive_step_sentence(game, action.card, obs.archive_order, obs.won_this_turn), \
                    "archive_step"
            return archive_step_sentence(game, action.card, (), (), archived=archived["cards"],
                                         archive_size=len(obs.archives[player])), "archive"
        if A.StopChallenge in kinds:
            n = len(obs.won_this_turn) + len(obs.archive_order)
            text = _("Challenge stopped: you won {n} cards.").format(n=n)
            if archived is not None:
                text = archive_step_sentence(game, archived["cards"][-1], (), (), archived=archived["cards"],
                                             archive_size=len(obs.archives[player]))
                text = _("Challenge stopped.") + " " + text
            return text, "stop"
        ability = next((e for e in reversed(new) if e.get("kind") in _ABILITY_EVENTS), None)
        if ability is not None:
            return ability_sentence(game, ability, player) or "", ("private" if ability.get("kind") == "tom"
                                                                   else "ability")
        if A.UseAlan in kinds:
            return _("ALAN: pick cards of your archive to take into the Clue Area, then press 'ALAN: "
                     "identify now'."), \
                "ability"
        if A.AlanDone in kinds:
            return _("ALAN: {n} clue cards to identify now.").format(n=len(obs.clue_area)), "ability"
        if A.EndTurn in kinds:
            return _("You end your turn."), "end"
        if A.TurnFaceDown in kinds:
            return _("The face-up cards turn face down."), "end"
        if A.RevealAnother in kinds:
            return _("Another clue card: {face}.").format(face=self._face(obs.clue_area[-1])), "choose"
        if A.Challenge in kinds:
            return _("You challenge with {face}.").format(
                face=self._face(obs.challenged)) if obs.challenged else "", "choose"
        return None
