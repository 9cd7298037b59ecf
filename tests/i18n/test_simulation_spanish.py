"""Issue 30: the Simulation lab in Spanish: its words from the catalogue, its numbers written the Spanish way."""
from __future__ import annotations

import re

from safari_kit.core.i18n import language


def test_the_simulation_lab_speaks_spanish_with_decimal_commas():
    from safari_kit.widgets.labs import SimulationLab

    with language("es"):
        lab = SimulationLab(seed=1, trials=1_000, run_tournament=False)
    assert lab.run_button.description == "Simular" and lab.pool_box.description == "Juntar mis tandas"
    lab.run()  # a click's work, outside the with: the lab speaks the language it was built in
    summary = re.sub(r"<[^>]+>", " ", lab.summary.value)
    assert "Tanda 2 con N = 1000" in summary and "pruebas" in summary
    assert re.search(r"intervalo del 95 % de 0,\d{4} a 0,\d{4}", summary), summary
    assert not re.search(r"\b0\.\d{4}\b", summary), summary  # no English decimals
    assert "Tanda 2: la estimación se acerca al valor exacto" in lab.figures["convergence"]
    assert "pruebas (escala logarítmica" in lab.figures["convergence"]
    lab.run_coverage(size=20, intervals=200, method="normal")
    rounds = re.sub(r"<[^>]+>", " ", lab.cov_summary.value)
    assert re.search(r"Ronda 1: \d+ de 200", rounds) and re.search(r"\d+,\d\xa0%", rounds), rounds
    assert "bajan de 0" in rounds  # simple intervals below 0 said why, plural form of Spanish
    lab.run_tournament(game="knockout", bots="greedy,highcard", games=10)
    table = lab.tour_summary.value
    assert "Torneo de Knockout: 10 partidas, 2 jugadores" in table and "Tasa de victorias" in table
    assert "Bot que empieza con su carta con menos probabilidad de perder" in table
    assert not lab.errors, lab.errors
