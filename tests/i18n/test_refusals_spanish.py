"""Issue 30: why a move is refused, in the learner's language. The engines' reasons (safari_kit.witness.explain,
safari_kit.knockout.state: English, no gettext) are said from the catalogue's copy
(safari_kit.presentation.refusal_words); random games ask the engines for every reason they give and each must
have its copy, so a reason added to an engine without one fails here. English stays the engine's own words."""
from __future__ import annotations

import random
import re

from safari_kit.core.errors import IllegalActionError
from safari_kit.core.i18n import language
from safari_kit.presentation.refusal_words import PHASE_EXPECTS, RULE_REF, engine_words, match
from safari_kit.presentation.table_words import learner_sentence


def _witness_reasons(games: int = 12, seed: int = 0) -> set[str]:
    """The reasons the Witness engine gives for many wrong actions in random games (Advanced Mode too)."""
    from safari_kit.witness import WitnessGame
    from safari_kit.witness import actions as A
    from safari_kit.witness.rules import KRIS_ELEMENTS

    rng = random.Random(seed)
    reasons: set[str] = set()
    for g in range(games):
        game = WitnessGame(players=rng.choice((2, 3, 4)), advanced=g % 2 == 1, case_module=g % 3 == 0)
        state = game.new_initial_state(seed=rng.randrange(10**6))
        ids = [c.id for c in game.cards]
        for _step in range(300):
            if state.is_terminal():
                break
            places = list(state.card_at) + [99, -1]
            spots = state.spots() + ["X9"]
            pick = rng.choice
            wrong = [
                A.Identify(), A.RevealAnother(), A.Challenge(), A.StopChallenge(), A.TurnFaceDown(), A.AlanDone(),
                A.EndTurn(), A.UseAlan(),
                A.Declare(pick(ids), pick((("animal",), ("color", "name"), ("name", "color"), ("sound",),
                                           ("animal", "animal"), ())), pick(places)),
                A.RevealNext(pick(places)), A.ArchiveCard(pick(ids)), A.AlanTake(pick(ids)),
                A.UseTam(pick(spots), pick(spots)), A.UseTom(pick(places)), A.UseSam(pick(places), pick(places)),
                A.UseKim(pick(ids)), A.UseKris(pick(list(KRIS_ELEMENTS) + ["Purple"]), pick(places)),
            ]
            for action in wrong:
                if not state.is_legal(action):
                    reasons.add(state.why_illegal(action))
            state.apply(rng.choice(state.legal_actions()))
        for action in (A.Identify(), A.RevealNext(1)):
            reasons.add(state.why_illegal(action))  # the game is over
    return reasons


def _knockout_reasons(games: int = 6, seed: int = 0) -> set[str]:
    from safari_kit.knockout import KnockoutGame, Play

    rng = random.Random(seed)
    reasons: set[str] = set()
    for g in range(games):
        game = KnockoutGame(players=rng.choice((3, 4)), elimination=g % 2 == 1)
        state = game.new_initial_state(seed=rng.randrange(10**6))
        ids = [c.id for c in game.cards]
        while True:
            for card, item in ((rng.choice(ids), None), (rng.choice(ids), rng.choice(game.items)),
                               (None, None), (None, rng.choice(game.items))):
                hand = state.hand(state.current_player) if not state.is_terminal() else ()
                action = Play(card or (rng.choice(hand) if hand else ids[0]), item)
                try:
                    state.clone().apply(action)
                except IllegalActionError as exc:
                    reasons.add(exc.reason)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    return reasons


def test_the_catalogues_phase_words_are_the_engines():
    from safari_kit.witness.rules import PHASE_HELP

    assert {str(p.value): RULE_REF.sub("", text) for p, text in PHASE_HELP.items()} == dict(
        dict.items(PHASE_EXPECTS))


def test_every_reason_the_engines_give_has_its_sentence_in_the_catalogue():
    witness, knockout = _witness_reasons(), _knockout_reasons()
    assert len(witness) >= 40 and len(knockout) >= 5, (len(witness), len(knockout))
    kinds = {RULE_REF.sub("", r).split(" ")[0] for r in witness}
    assert {"place", "there", "only", "the"} <= kinds, kinds
    missing = sorted(r for r in witness | knockout if match(r) is None)
    assert missing == [], "add these reasons to safari_kit.presentation.refusal_words.REASONS: " + repr(missing[:10])


def test_in_spanish_every_reason_is_spanish_and_in_english_unchanged():
    reasons = sorted(_witness_reasons(games=6, seed=1) | _knockout_reasons(games=3, seed=1))
    english_words = re.compile(r"\b(the|is|not|this|turn|place|card|pick|of|already|must|only|deck|hand|player)\b")
    with language("es"):
        said = {r: learner_sentence(r) for r in reasons}
    for reason, spanish in said.items():
        assert not english_words.search(spanish), (reason, spanish)
        assert spanish[0].isupper() and spanish.endswith("."), spanish
    for reason in reasons:  # English: the engine's own words, as before (rule numbers gone, a capital, a full stop)
        text = RULE_REF.sub("", reason).strip()
        assert learner_sentence(reason) == text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
        assert engine_words(reason) == reason


def test_a_refused_click_in_the_identification_lab_is_said_in_spanish():
    from safari_kit.presentation.targets import explain_refusal
    from safari_kit.witness import WitnessGame

    state = WitnessGame(players=3, first_player=0).new_initial_state(seed=5)
    with language("es"):
        words = explain_refusal(state, 0, {"kind": "place", "id": min(state.card_at)})
        other = explain_refusal(state, 0, {"kind": "card", "id": "W01"})
    assert words == ("Ahora no puedes hacer clic en ese lugar: el juego espera elegir Identificar, Revelar otra o "
                     "Desafiar."), words
    assert "elegir Identificar" in other and "choice" not in other
    assert explain_refusal(state, 0, {"kind": "place", "id": min(state.card_at)}) == (
        "That place is not clickable now: the game expects a choice of Identify, Reveal another or Challenge.")
