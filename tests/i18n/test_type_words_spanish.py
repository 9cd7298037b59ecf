"""Issue 30: a clue type inside a Spanish sentence takes its own article ("la textura", never "el textura").

A Spanish turn of the app (tests/browser/spanish_turns.py) read "tiene el textura (Ladrillo) igual que la pista"
and "no es Baldosa de rombos, el textura de la pista": the sentences wrote "el" before every clue type, and
"textura" is feminine. The in-sentence clue types (safari_kit.presentation.narration._TYPE_IN_SENTENCE) now carry
their article in the Spanish catalogue, and the sentences around them none; English is unchanged.
"""
from __future__ import annotations

import pytest

from safari_kit.core.i18n import language
from safari_kit.witness import WitnessGame
from safari_kit.presentation.narration import no_match_words, shared_words


def _pair(game, kind: str, shares: bool):
    """A clue and another card that do (or do not) share ``kind``, and share nothing else of animal/texture."""
    for i, a in enumerate(game.cards):
        for j, b in enumerate(game.cards):
            if i == j or game.shared(i, j, kind) != shares:
                continue
            others = [t for t in ("animal", "texture", "color") if t != kind and game.shared(i, j, t)]
            if not others:
                return a.id, b.id
    raise AssertionError(f"no pair for {kind}")


@pytest.mark.parametrize(("kind", "article"), [("texture", "la textura"), ("animal", "el animal"),
                                               ("color", "el color")])
def test_a_clue_type_in_a_spanish_sentence_has_its_own_article(kind, article):
    game = WitnessGame(players=2)
    clue, card = _pair(game, kind, shares=True)
    with language("es"):
        shared = shared_words(game, clue, card, (kind,))
    assert len(shared) == 1 and shared[0].startswith(article + " ("), shared
    clue, card = _pair(game, kind, shares=False)
    with language("es"):
        missed = no_match_words(game, clue, card, (kind,))
    assert missed.endswith(f", {article} de la pista"), missed
    assert "el textura" not in missed and "el el" not in missed


def test_english_is_unchanged():
    game = WitnessGame(players=2)
    clue, card = _pair(game, "texture", shares=True)
    assert shared_words(game, clue, card, ("texture",))[0].startswith("the texture (")
    clue, card = _pair(game, "texture", shares=False)
    assert no_match_words(game, clue, card, ("texture",)).endswith(", the clue's texture")
