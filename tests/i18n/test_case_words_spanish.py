"""Issue 30: the Case Cards in Spanish (their texts and why they scored), the rules engine's English unchanged."""
from __future__ import annotations

from safari_kit.core.i18n import language


def test_a_case_card_and_its_points_in_spanish():
    from safari_kit.cards.load import load_cards
    from safari_kit.presentation.case_words import case_text, case_why
    from safari_kit.witness.cases import case_points

    archive = load_cards().witness[:12]
    with language("es"):
        assert case_text("set_animals") == ("2 puntos por una serie de 5 animales distintos; 5 puntos en total por "
                                            "dos series.")
        assert case_why("set_animals", archive).endswith("0 series completas de 5 animales -> 0 puntos")
        assert case_why("choose_color", []) == "no hay color que elegir"
        assert case_points("choose_color", [])[1] == "no color to choose"  # the engine's words stay English
