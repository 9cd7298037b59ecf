"""The words the answer-leak detector reads, per language (:mod:`safari_kit.authoring.answer_leaks`).

Why a module of its own: the detector's method (read every number, compare it with the answer, look at the
words around it) is one concern; the words it looks at are another, and they grow with every language the
lessons are written in (issue 30: notebooks/es/). Here are the answers said in words, the little words that
are no question's term, the labels a number names ("Player 1", "jugador 1"), the wording that explains a
wrong answer or gives a number as the answer, and how a lesson says its language (``set_language("es")``)
and writes a decimal (0,189 in Spanish).
"""
from __future__ import annotations

import re
from fractions import Fraction

NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve"]
#: words a learner uses for "N times" (a ratio answer)
TIMES_WORDS = {2: ["twice", "double", "doubles", "halves", "halved", "half"], 3: ["thrice", "triple", "a third"],
               4: ["quadruple", "a quarter"]}
#: a fraction said in words
FRACTION_WORDS = {Fraction(1, 2): ["half", "a coin flip", "50/50", "fifty-fifty", "even chance", "one in two"],
                  Fraction(1, 4): ["a quarter", "one in four"], Fraction(1, 3): ["a third", "one in three"]}
#: answers in words, per exercise: (phrase, regexes that must all be found in the same sentence too)
WORDED: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    # K3: on equal values the card played first wins; said as the reason a later card loses a tie
    "07.tie": [(r"strictly higher", ()), (r"(?:first|earlier) (?:card|player) (?:wins|won)", (r"\btie",)),
               (r"later card (?:loses|does not win)", ()),
               (r"estrictamente (?:mayor|más alt[oa])", ()),   # the Spanish lessons' words (notebooks/es/)
               (r"(?:la primera carta|quien jug[oó] primero) gana", (r"\bempate",))],
    # the Impala's best data item (a compare exercise: any of its item words is accepted), said of the Impala
    # in a sentence about its best item, or in a table row of the Impala (K10)
    "04.best-item": [(r"top[ _]speed(?:_kmh)?|\bspeed\b|\bvelocidad\b",
                      (r"\bImpala\b|\bK10\b", r"\bbest\b|\bmejor\b|\S {2,}\S"))],
}
#: exercises answered by reading a lesson's output on purpose: lesson 07's quiz asks the rules that its
#: tutorials show step by step ("Use the tutorials above"), so only its text is searched, not the tutorials
READ_IN_OUTPUTS = {key: "the rules tutorial above shows this rule" for key in
                   ("07.round3-cards", "07.tie", "07.safe-stop", "07.refill", "07.fail-places")}
STOP = set("""a an and any are as at be by can do does each for from get give gives has have how in is it its
many may much of on or the their them then there this to was what when which who why will with you your
after before one two three four five six seven answer number compute exercise decimal fraction fine
""".split())
#: the same little words in the Spanish lessons (notebooks/es/): no question's term
STOP |= set("""a al algo como con cual cuál cuales cuántas cuántos cuánto cuánta da de del dos el en entre es esa
ese eso esta este esto ha hay la las lo los más mismo no o para pero por qué que se si sin son su sus te tu tus un
una uno unos unas y ya respuesta número calcula ejercicio decimal fracción tres cuatro cinco seis siete
""".split())
GENERIC = {"card", "cards", "player", "players", "safari", "witness", "knockout", "mugshot", "mugshots", "random",
           "probability", "chance", "round", "place", "places", "turn", "game", "run", "time", "times", "number",
           "here", "tutorial", "engine", "first", "lesson", "section", "step"}
GENERIC |= {"carta", "cartas", "jugador", "jugadores", "azar", "probabilidad", "ronda", "lugar", "lugares", "turno",
            "partida", "vez", "veces", "aquí", "primera", "primero", "lección", "sección", "paso", "cuenta"}
#: a word of a learner's language: letters only (accented ones too: "revelación", not "revelaci" and "n")
_LETTERS = r"[^\W\d_]+"
#: a number after one of these words is a name ("Player 1", "run 2", "Variation 1"), not a count
LABELS = {"player", "seat", "variation", "step", "run", "lesson", "section", "round", "turn", "case", "place",
          "seed", "question", "exercise", "level", "part", "page", "cell", "w", "k", "m", "n", "p"}
LABELS |= {"jugador", "asiento", "variante", "paso", "pasada", "lección", "sección", "ronda", "turno", "caso", "lugar",
           "semilla", "pregunta", "ejercicio", "nivel", "parte", "página", "celda"}  # the Spanish lessons' names
#: ... unless it is given as an answer ("answering round 2 (6 turns …)")
ANSWERING = {"answering", "answer", "answers", "giving", "saying", "guessing", "choosing", "writing"}
ANSWERING |= {"respuesta", "respuestas", "respondiendo", "dando", "diciendo", "eligiendo", "escribiendo"}
#: what follows a wrong answer when a note explains it: a parenthesis of three words or more, "instead of", …
_MISTAKE = r"(?:forgetting|forgets|counting|confusing|missing|adding|dividing|multiplying|treating|using|reusing|" \
    r"choosing|answering|taking|keeping|giving|thinking|reading|" \
    r"olvidar|contar|confundir|dejarse|saltarse|sumar|dividir|multiplicar|tratar|usar|elegir|responder|tomar|" \
    r"quedarse|dar|pensar|leer|comparar)"  # the Spanish lessons' notes: "10: olvidar las cartas con tinta"
CORRECTION = re.compile(rf"^\s*(?:\((?:[^)\s]+\s+){{2,}}|[—–:]\s*{_MISTAKE}\b|,?\s*(?:instead|because|it is|it must)\b|"
                        rf"\s*{_MISTAKE}\b|,?\s*(?:en vez de|porque)\b)", re.I)

#: how a lesson heads an exercise ("**Exercise `01.owl`.**"; the Spanish lessons: "**Ejercicio `01.owl`.**")
EXERCISE_WORD = r"(?:Exercise|Ejercicio)"

#: wording that gives a number as the answer: "(it is 2)", "with probability 1/2", "5 instead of 6",
#: "divided by two", "4 times the trials, 4 times more precise (it is 2)"
GIVING_BEFORE = re.compile(r"(?:\bmy_answer\s*=|\bit(?:'s| is| was)(?:\s+(?:exactly|just|only|about))?|"
                           r"\banswer(?:\s+is|:)|"
                           r"\binstead of|\bwith (?:a )?probability(?: of)?|\bprobability (?:is|of)|"
                           r"\b(?:divided|multiplied|shrunk|reduced|shrinks|falls) by(?: a factor of)?|"
                           # the Spanish lessons' words: "en vez de 6", "con probabilidad 1/2", "la respuesta es 2"
                           r"\ben vez de|\bcon (?:una )?probabilidad(?: de)?|\bprobabilidad (?:es|de)|"
                           r"\brespuesta(?:\s+es|:)|\b(?:es|era)(?:\s+(?:exactamente|justo|solo))?|"
                           r"\b(?:dividid[oa]|multiplicad[oa]) (?:entre|por))\s*\(?$", re.I)
GIVING_AFTER = re.compile(r"^\s*(?:instead of|en vez de)\b", re.I)


_SETS_LANGUAGE = re.compile(r"^\s*set_language\(\s*[\"']([A-Za-z_-]{2,8})[\"']\s*\)", re.M)
_BETWEEN_DIGITS = re.compile(r"(?<=\d)[.,](?=\d)")


def notebook_language(notebook: dict) -> str:
    """The language a lesson speaks: the one its code sets (``set_language("es")``, the first code cell of
    every lesson of notebooks/es/), else English."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code" and (m := _SETS_LANGUAGE.search(_source(cell))):
            return m.group(1)
    return "en"


def comma_decimals(text: str) -> str:
    """``text`` with a decimal comma read as a point and a point between digits as a group mark (same length,
    so offsets still fit): a Spanish lesson's ``0,189`` and ``18,9 %`` are then read as 0.189 and 18.9%.

    >>> comma_decimals("P = 7/37 ≈ 0,189 (18,9 %); 12.345 pruebas")
    'P = 7/37 ≈ 0.189 (18.9 %); 12,345 pruebas'
    """
    return _BETWEEN_DIGITS.sub(lambda m: "." if m.group(0) == "," else ",", text)


def _writes_decimal_comma(lang: str) -> bool:
    from safari_kit.presentation.numbers import NUMBER_STYLES  # the one table of how a language writes numbers

    style = NUMBER_STYLES.get(lang) or NUMBER_STYLES.get(lang.split("_")[0])
    return style is not None and style.decimal_mark == ","


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src
