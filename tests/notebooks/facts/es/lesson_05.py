"""Lección 05 · El laboratorio de simulación: each number of the Spanish text, tied to the English fact's
computation (percents and decimals written 93,7 % and 0,01; 1,000 and 10,000 written 1000 and 10.000)."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("05", "{} times more trials, only {} times more precise", "{} veces más pruebas, solo {} veces más precisión"),
    T("05", 'understand what "{}% confidence" means, by making {} intervals',
      'entender qué significa "{} % de confianza", haciendo {} intervalos'),
    T("05", "identify by animal, knowing nothing, with {} trials",
      "identificar por animal, sin saber nada, con {} pruebas"),
    T("05", "with its {}% band", "con su banda del {} %"),
    T("05", "Below: {} confidence intervals, each made from its own fresh trials (section {} explains them)",
      "Abajo: {} intervalos de confianza, cada uno hecho con sus propias pruebas nuevas (la sección {} los explica)"),
    T("05", "with N = {} at is the same on every screen", "con N = {} y la es igual en todas las pantallas"),
    T("05", "after {} trials it can easily be {} or {}", "después de {} pruebas puede ser fácilmente {} o {}"),
    T("05", "(section {} says what that is)", "(la sección {} dice qué es)"),
    T("05", "√{} ≈ {} times smaller", "√{} ≈ {} veces más pequeño"),
    T("05", "Multiply n by {} and the error is divided by only √{} = {}",
      "Multiplica n por {} y el error se divide solo entre √{} = {}"),
    T("05", "It has slope {}", "Tiene pendiente {}"),
    T("05", "Exercise . You run {} times as many trials", "Ejercicio . Haces {} veces más pruebas"),
    T("05", "For identify by animal, p = {}/{} (= {})", "Para identificar por animal, p = {}/{} (= {})"),
    T("05", "the standard error is at most {}?", "el error estándar sea como mucho {}?"),
    T("05", 'The simple one is "estimate ± {} × SE": from the estimate minus {} standard errors to the estimate '
            "plus {} standard errors",
      'El sencillo es "estimación ± {} × SE": desde la estimación menos {} errores estándar hasta la estimación '
      "más {} errores estándar"),
    T("05", "there is about a {}% chance it will contain the true value. One interval either contains it or not. "
            "But if {} classes each made one, about {} of them would be right",
      "haya más o menos un {} % de probabilidad de que contenga el valor real. Un intervalo lo contiene o no. "
      "Pero si {} clases hicieran uno cada una, unas {} acertarían"),
    T("05", "One round of {} intervals is itself random", "Una ronda de {} intervalos también es aleatoria"),
    T("05", "With {} trials per interval both intervals come close to {}%: {}% (simple) and {}% (Wilson) for "
            "identify by animal",
      "Con {} pruebas por intervalo los dos intervalos se acercan al {} %: {} % (sencillo) y {} % (Wilson) para "
      "identificar por animal"),
    T("05", 'The simple interval "estimate ± {} × SE" gets into trouble',
      'El intervalo sencillo "estimación ± {} × SE" tiene problemas'),
    T("05", "Take the challenge question ({} safe cards in a row, p ≈ {}%) with {} trials per interval. The simple "
            "interval covers the truth only {}% of the time, while Wilson's interval covers it {}% of the time",
      "Toma la pregunta del desafío ({} cartas seguras seguidas, p ≈ {} %) con {} pruebas por intervalo. El "
      "intervalo sencillo cubre el valor real solo el {} % de las veces, mientras que el intervalo de Wilson lo "
      "cubre el {} % de las veces"),
    T("05", "With {} trials there is a {}% chance of seeing no success at all. Then the simple interval is "
            '"{} ± {}"',
      "Con {} pruebas hay un {} % de probabilidad de no ver ningún acierto. Entonces el intervalo sencillo es "
      '"{} ± {}"'),
    T("05", "choose the question Challenge and set n per interval to {}",
      "elige la pregunta Desafío y pon n por intervalo en {}"),
    T("05", "makes a new round of {} intervals from fresh trials. For identify by animal with n = {}, a round "
            "covers on average {} times out of {}. In {} rounds out of {} it covers between {} and {} times",
      "se hace una ronda nueva de {} intervalos con pruebas nuevas. Para identificar por animal con n = {}, una "
      "ronda cubre de media {} veces de {}. En {} rondas de {} cubre entre {} y {} veces"),
    T("05", "So a round with {} or fewer happens about once in {} rounds",
      "Así que una ronda con {} o menos pasa más o menos una vez de cada {} rondas"),
    T("05", "is much closer to {}% than one round usually is",
      "está mucho más cerca del {} % de lo que suele estar una sola ronda"),
    T("05", "You make {} independent {}% intervals", "Haces {} intervalos del {} % independientes"),
    T("05", "Lower is better: {} is a perfect prophet", "Más baja es mejor: {} es un adivino perfecto"),
    T("05", "a guess of {} for an event that happened adds ({} − {})² = {}; if it did not happen, it adds "
            "({} − {})² = {}",
      "un cálculo de {} para un suceso que pasó suma ({} − {})² = {}; si no pasó, suma ({} − {})² = {}"),
    T("05", "the two ends of the {}% interval", "los dos extremos del intervalo del {} %"),
    T("05", "each extra digit costs {}×", "cada cifra más cuesta {}×"),
    T("05", '"{}% confidence" is about the method', '"{} % de confianza" habla del método'),
    T("05", "(the challenge question at n = {})", "(la pregunta del desafío con n = {})"),
    T("05", "At n = {} both are close to {}%", "Con n = {} los dos se acercan al {} %"),
    T("05", '"{} times the trials, {} times more precise" (it is {}). "{} trials for SE {}"',
      '"{} veces las pruebas, {} veces más precisión" (es {}). "{} pruebas para un SE de {}"'),
    T("05", '"A {}% interval contains the true value with {}% probability"',
      '"Un intervalo del {} % contiene el valor real con un {} % de probabilidad"'),
)

GIVEN: tuple[Given, ...] = (
    Given("05", "(√ es la raíz cuadrada: 10 × 10 = 100.)", "what a square root is, on the example just above"),
    Given("05", "las últimas 6 cartas que vio", "the lab's plain name of the bot lastk:6 (registry.learner_name)"),
    Given("05", "cada vez que vas un paso a la derecha (10 veces más pruebas), baja medio paso. Bajar medio paso "
                "significa que el error se divide entre √10, unas 3 veces",
          "what slope −1/2 means on base-10 log scales: a factor 10 in n is a factor √10 ≈ 3.16 in the error"),
    Given("05", "después de 10 pruebas", "an early point of the running estimate, where it still jumps"),
    Given("05", "un torneo de 2 jugadores", "the cell's line-up: one memory bot against the greedy bot"),
    Given("05", "Un 50 % significaría", "one of two players: as good as the other, by symmetry (seats rotate)"),
    Given("05", "(m = 1)", "remembering with probability 1 is remembering every card"),
    Given("05", "¿Bastan 30 partidas", "the cell's small tournaments, chosen to run quickly"),
    Given("05", "para m = 0, 0,25, …, 1", "an extension: memory from none to perfect in quarter steps"),
    Given("05", "una ronda con 86 o menos", "a rare round chosen as the example (the lab once opened on one)"),
    Given("05", "su extremo bajo cae por debajo de 0",
          "no probability is smaller than 0: the bound a simple interval crosses"),
    Given("05", 'dijo "unos 0,3", el suceso pasó unas 3 veces de cada 10',
          "an illustration of calibration: a guess of 3/10 met by the event 3 times in 10"),
    Given("05", "el resultado: 1 si el suceso pasó y 0 si no", "the outcome's coding in the Brier score"),
    Given("05", "que siempre dice 1 para lo que pasa y 0 para lo que no",
          "a perfect prophet's guesses, in the outcome's coding"),
    Given("05", "cada paso a lo largo de un eje multiplica por 10 (10, 100, 1000 …)",
          "what a log scale is, with base 10: the lab's error plot marks its axes in powers of ten"),
    Given("05", "Nunca está por debajo de 0 ni por encima de 1",
          "probabilities lie between 0 and 1, and Wilson's interval stays inside them"),
    Given("05", "Con m = 1 lo recuerda todo; con m = 0 lo olvida todo",
          "what remembering with probability 1 or 0 means"),
)
