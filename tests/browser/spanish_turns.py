"""Issue 30: one turn of each lab of the classroom app, played in Spanish by clicking (for the Spanish walk).

tests/browser/test_pseudo_locale_browser.py opens every lab of the app (Voilà, ``?lang=es``); after its checks
of each lab it calls :func:`play_turn`, which plays one turn the way a Spanish learner would: the buttons are
found by their Spanish names, and the outcome is read as the learner reads it.

**Why the catalogue, never written Spanish.** Every expected word comes from the kit's own catalogue
(:func:`es` is ``_()`` inside ``language("es")``) and every expected sentence is the catalogue's sentence with
its ``{fields}`` left open (:func:`sentence`): a translator who rewords a sentence changes the test with it, and
an English sentence left on the page (a string that missed ``_()``, a callback that lost the lab's language)
fails, because the English sentence does not match the Spanish pattern.

What each lab's turn checks (:data:`TURNS`), beside "no error on the page":

* Identification: Identificar, the best declaration picked (its clue type's Spanish name), Revelar: the result
  sentence ("¡Acierto! En el lugar ..." or "Fallo: en el lugar ..."), the chances before it with decimal commas;
* Challenge: Desafiar, places revealed (Revelar una más) until the turn ends or Parar: "No es segura: ..." or
  "Has parado y has archivado ...", the chance of a safe reveal with a decimal comma;
* Full game: one of the learner's turns on the table (Identificar, a clue type, a place, the won cards archived):
  the news says what the learner declared and found, in Spanish, in the second person ("Dijiste ...");
* Knockout: a card (and a data item when leading), Jugar: "Has ganado: ..." or "Has perdido: ...", the chances of
  winning with decimal commas;
* Simulation: Simular: "Tanda 2 ..." and the estimate with its interval, with decimal commas;
* Rules tutorial: Siguiente until the quiz, one answer: "Correcto: ..." or "No exactamente: ...", one more
  step ("Paso 4 de 16");
* Rules page: its Spanish title and every section's heading, ``lang="es"``.

Each problem is returned as words naming what was expected and what the page said; the walk files them under
the lab's name (a lab that fails does not stop the others).
"""
from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from safari_kit.core.i18n import _ as translated, language
from safari_kit.presentation.narration import types_label
from safari_kit.tutorial import learner_rules

from tests.browser.helpers import play_best_knockout_turn
from tests.browser.test_app_voila import app_errors, button, click_and_wait_change

LANG = "es"
APP = ".safari-app"
#: each lab's root, by the lab's class in safari_kit.widgets.app.LABS
ROOT = {"IdentificationLab": ".safari-identification-lab", "ChallengeLab": ".safari-challenge-lab",
        "FullGameLab": ".safari-fullgame-lab", "KnockoutLab": ".safari-knockout-lab",
        "SimulationLab": ".safari-simulation-lab", "RulesTutorial": ".safari-tutorial", "RulesPage": ".safari-rules"}
#: a chance written the Spanish way (0,189; an exact one short, 2/5 = 0,4) and the English way (0.189: one digit,
#: a mark, two or more digits, so that a grouped whole number such as 10.000 is no decimal point)
SPANISH_DECIMAL = re.compile(r"(?<![\d.,])\d,\d+(?![\d,])")
ENGLISH_DECIMAL = re.compile(r"(?<![\d.,])\d\.\d{2,}(?![\d.])")


#: the sentences each turn waits for, as the kit writes them in English (the msgids): the test reads each one
#: from the Spanish catalogue (tests/i18n/test_spanish_turns_sentences.py checks every one is translated)
SAID = {
    "identification": ("Match! Place {place} held {card}.",
                       "Match! Place {place} held {card}: it shares {shared} with the clue.",
                       "No match: place {place} held {card}."),
    "exact chance": ("The exact chance was {chance}.",),
    "safe chance": ("Chance the next reveal is safe: <b>{chance}</b>",),
    "stop button": ("Stop: archive {n}",),
    "challenge": ("Not safe: place {place} held {card}.", "You stopped and archived {n} cards."),
    # the learner's own declaration, in the second person ("Dijiste ...": it said "Tú dijo ..." before)
    "full game": ("You declared {types} at place {place}: {card} — {outcome}.",
                  "You declared {types} of clue card {clue} at place {place}: {card} — {outcome}.",
                  "You declared {types} at place {place} and found {found}."),
    "knockout": ("You won: nobody else played this turn ({item}).", "You won: {yours} beat {theirs} on {item}.",
                 "You lost: {theirs} beat {yours} on {item}.",
                 "You won: {theirs} is as high as {yours} on {item}, and a tie goes to the card played first: yours.",
                 "You lost: {theirs} is as high as {yours} on {item}, and a tie goes to the card played first: "
                 "theirs."),
    "first run": ("Run {k} with N = {n}: the lab drew these {n} trials {when}. Press Simulate for run {next}, "
                  "with {n} new trials.",),
    "simulation": ("Run {k} with N = {n}: your press of Simulate drew {n} new trials.",),
    "estimate": ("{estimate}; 95% interval {low} to {high}: it covers the exact value",
                 "{estimate}; 95% interval {low} to {high}: it <b style='color:#a33'>misses</b> the exact value"),
    "quiz answer": ("Right: {why}", "Not quite: the answer is \u201c{answer}\u201d. {why}"),
    "step": ("Step {k} of {n}",),
}


#: the sentences' fields that are a number (a place, a count, a run): matched as one, so that a sentence's
#: pattern never reaches across a whole panel ("Paso 4: ... de" is no step counter)
NUMBER_FIELDS = {"k", "n", "next", "place", "player", "players", "seat", "turn", "turns"}
NUMBER = r"\d[\d.,]*"


class TurnProblem(AssertionError):
    """What a Spanish turn found wrong, in words (the walk reports it under the lab's name)."""


def es(message: str) -> str:
    """``message`` (the English msgid) as the Spanish catalogue says it."""
    with language(LANG):
        return translated(message)


def sentence(*messages: str, **fields: str) -> re.Pattern:
    """A pattern for the Spanish catalogue's sentence of any of ``messages``: its ``{fields}`` any words (those
    named in ``fields``: those words; a number's field one number), all on one line (a field never runs on to
    the next), its spaces any spaces (the page joins numbers with no-break spaces), its HTML tags left out."""
    def words(text: str) -> str:
        return r"[^\S\n]+".join(re.escape(w) for w in text.split(" "))  # spaces, no-break ones too, on one line

    def field(name: str) -> str:
        if name in fields:
            return words(fields[name])
        return NUMBER if name in NUMBER_FIELDS else r"[^\n]+?"  # a field never runs on to the next line

    def one(message: str) -> str:
        if es(message) == message:
            raise TurnProblem(f"not in the Spanish catalogue: {message!r} (the test expects a sentence it has)")
        parts = re.split(r"(\{[^{}]*\})", re.sub(r"<[^>]+>", "", es(message)))
        return "".join(field(p[1:-1]) if i % 2 else words(p) for i, p in enumerate(parts))
    return re.compile("|".join(f"(?:{one(m)})" for m in messages))


def text_of(page, selector: str) -> str:
    loc = page.locator(selector)
    return loc.first.inner_text() if loc.count() else ""


_COUNT = ("([sel, src]) => { const el = document.querySelector(sel);"
          " return el ? (el.innerText.match(new RegExp(src, 'g')) || []).length : 0; }")


def count_sentences(page, selector: str, *messages: str) -> int:
    """How many times ``selector`` says the Spanish sentence of one of ``messages``."""
    return page.evaluate(_COUNT, [selector, sentence(*messages).pattern])


def wait_sentence(page, selector: str, *messages: str, timeout: float = 30_000, more_than: int = 0,
                  **fields: str) -> str:
    """Wait until ``selector`` says the Spanish sentence of one of ``messages`` (more than ``more_than``
    times); its words. The pattern is JavaScript-compatible (:func:`sentence` writes only escapes, ``\\s``,
    ``\\d`` and character classes)."""
    pattern = sentence(*messages, **fields)
    try:
        page.wait_for_function(f"(arg) => ({_COUNT})(arg) > {int(more_than)}", arg=[selector, pattern.pattern],
                               timeout=timeout, polling=50)
    except Exception as exc:  # noqa: BLE001 - the page's words are the report
        said = text_of(page, selector)
        raise TurnProblem(f"{selector.split()[-1]} never said {' / '.join(repr(es(m)) for m in messages)}"
                          f" (from the Spanish catalogue); it says {said[:300]!r}") from exc
    said = text_of(page, selector)
    print(f"  {selector.split()[-1]}: {pattern.findall(said)[-1][:140]!r}")  # what the learner read (pytest -s)
    return said


def spanish_numbers(text: str, where: str) -> list[str]:
    """A chance is written with a decimal comma (0,189), never a decimal point (0.189)."""
    found = []
    # a deal where the next reveal is sure to be safe (or sure not to be) shows the chance as 1 (or 0): no decimal
    # to write (seen once in a full run: "...sea segura: 1", every chance in the panel whole)
    certain = re.search(r"segura:\s*[01](?![\d,.])", text) and not re.search(r"\d[.,]\d", text)
    if not SPANISH_DECIMAL.search(text) and not certain:
        found.append(f"{where}: no chance written with a decimal comma in {text[:200]!r}")
    english = ENGLISH_DECIMAL.findall(text)
    if english:
        found.append(f"{where}: chances written with a decimal point {english[:5]} in {text[:200]!r}")
    return found


def _enabled(page, locator) -> bool:
    return bool(locator.count()) and locator.is_enabled()


def _until_my_turn(page, lab: str, mine) -> None:
    """The app's secret deal may open on a bot's failed turn (its cards face up): Siguiente turno until the
    learner's own first button (``mine``) is on."""
    nxt = button(page.locator(lab), es("Next turn"))
    for _ in range(12):
        if _enabled(page, mine):
            return
        if _enabled(page, nxt):
            click_and_wait_change(page, nxt, f"{lab} .safari-table", timeout=60_000)
        page.wait_for_timeout(200)
    raise TurnProblem(f"the learner's turn never came: {text_of(page, f'{lab} .safari-status')!r}")


# ----------------------------------------------------------------------------- one turn of each lab
def identification(page, lab: str) -> list[str]:
    prob = f"{lab} .safari-prob"
    scope = page.locator(lab)
    _until_my_turn(page, lab, button(scope, es("Identify")))
    click_and_wait_change(page, button(scope, es("Identify")), prob)
    best = page.locator(f"{lab} .safari-prob-all td.safari-best").first
    best.wait_for(state="attached")
    types, place = best.get_attribute("data-types"), best.get_attribute("data-place")
    with language(LANG):
        label = types_label(types.split("+"))
    kind = button(page.locator(f"{lab} .safari-types"), label)
    if "mod-active" not in (kind.get_attribute("class") or ""):
        kind.click()
        page.wait_for_timeout(200)  # the kernel has the type before the place click
    click_and_wait_change(page, page.locator(f"{lab} .safari-table .st-selectable[data-key='place:{place}']"), prob)
    # the chances before the reveal: the picked declaration's, and every one's (a closed <details>: its text)
    chances = text_of(page, prob) + " " + (page.locator(f"{lab} .safari-prob-all").first.text_content() or "")
    found = spanish_numbers(chances, "the chances")
    click_and_wait_change(page, button(scope, es("Reveal")), prob)
    said = wait_sentence(page, f"{lab} .safari-status", *SAID["identification"])
    if not sentence(*SAID["exact chance"]).search(said):  # its number may be whole (1: a remembered card)
        found.append(f"the result does not give the exact chance in Spanish "
                     f"({es(SAID['exact chance'][0])!r}): {said!r}")
    return found + [f"the result writes a chance with a decimal point: {said!r}"
                    for _n in ENGLISH_DECIMAL.findall(said)[:1]]


def challenge(page, lab: str) -> list[str]:
    scope = page.locator(lab)
    decide = f"{lab} .safari-decide"
    _until_my_turn(page, lab, button(scope, es("Challenge")))
    click_and_wait_change(page, button(scope, es("Challenge")), decide)
    chance = wait_sentence(page, f"{lab} .safari-prob", *SAID["safe chance"])
    found = spanish_numbers(chance, "the chance of a safe reveal")
    nxt, more, stop = button(scope, es("Next turn")), button(scope, es("Reveal one more")), scope.locator(
        "button.safari-stop").first
    for _ in range(20):
        for _ in range(100):  # the kernel's answer to the last click: a button to press
            if _enabled(page, nxt) or _enabled(page, more) or _enabled(page, stop):
                break
            page.wait_for_timeout(100)
        if _enabled(page, nxt):
            break
        if _enabled(page, stop) and (page.locator(f"{lab} .safari-decision-now").count() or not _enabled(page, more)):
            if not sentence(*SAID["stop button"]).fullmatch(stop.inner_text().strip()):
                found.append(f"the stop button says {stop.inner_text()!r}, not {es('Stop: archive {n}')!r}")
            click_and_wait_change(page, stop, decide)
            continue
        click_and_wait_change(page, more, decide)
    wait_sentence(page, f"{lab} .safari-status", *SAID["challenge"])
    return found


def full_game(page, lab: str) -> list[str]:
    """One of the learner's turns on the table: Identify (its Spanish label), a clue type, a face-down place;
    the won cards archived. The news line says what the learner declared and found."""
    table = f"{lab} .safari-table"
    keys = "(ns) => ns.map((n) => n.dataset.key)"
    clicked: list[str] = []
    for _ in range(20):
        targets = page.locator(f"{table} .st-selectable")
        targets.first.wait_for(timeout=60_000)
        now = targets.evaluate_all(keys)
        if clicked and any(k.startswith("place:") for k in clicked) and not any(k.startswith("card:") for k in now):
            break  # declared, and nothing left to archive: the turn is over
        if not clicked and 'button:"identify"' in now:
            identify = page.locator(f"{table} .st-selectable[data-key='button:\"identify\"']")
            if es("Identify") not in identify.inner_text():
                raise TurnProblem(f"the table's Identify button says {identify.inner_text()!r}")
        order = ('button:"identify"', 'button:"type:', "place:", "card:", 'button:"go_on"')
        fresh = [k for k in now if k not in clicked or k.startswith("card:")]
        pick = next((k for want in order for k in fresh if k.startswith(want)), None)
        if pick is None:
            raise TurnProblem(f"nothing to click in the learner's turn: {now}")
        clicked.append(pick)
        before = count_sentences(page, lab, *SAID["full game"])
        click_and_wait_change(page, page.locator(f"{table} .st-selectable[data-key='{pick}']").first, table,
                              timeout=60_000)
        if pick.startswith("place:"):  # the learner's declaration: one more such sentence on the lab
            wait_sentence(page, lab, *SAID["full game"], more_than=before)
    if not any(k.startswith("place:") for k in clicked):
        raise TurnProblem(f"the learner never declared: {clicked}")
    return []


def knockout(page, lab: str) -> list[str]:
    """A card (and a data item when leading), Jugar: the result in Spanish, chances with decimal commas."""
    prob = f"{lab} .safari-prob-table"
    page.locator(f"{prob}[data-phase='lead'], {prob}[data-phase='follow']").first.wait_for(timeout=60_000)
    found = spanish_numbers(text_of(page, prob), "the chances of winning")
    play_best_knockout_turn(page, lab, button(page.locator(lab), es("Play")))
    wait_sentence(page, f"{lab} .safari-ko-result", *SAID["knockout"])
    return found


def simulation(page, lab: str) -> list[str]:
    run = f"{lab} .safari-sim-run"
    wait_sentence(page, run, *SAID["first run"])
    click_and_wait_change(page, button(page.locator(lab), es("Simulate")), run)
    wait_sentence(page, run, *SAID["simulation"])
    summary = page.locator(run).first.locator("xpath=..").inner_text()
    verdict = sentence(*SAID["estimate"])
    found = [] if verdict.search(summary) else [f"the run's estimate is not said in Spanish: {summary[:300]!r}"]
    return found + spanish_numbers(summary, "the run's estimate")


def tutorial(page, lab: str) -> list[str]:
    """Siguiente until the first quiz question, its first choice pressed (the right one of both games' first
    questions), one step more: the answer said in Spanish, the step counter in Spanish."""
    scope = page.locator(lab)
    nxt = button(scope, es("Next"))
    quiz = f"{lab} .safari-tutorial-quiz"
    answers = page.locator(f"{quiz} button:visible:not([disabled])")
    for _ in range(8):
        try:  # a step's quiz is drawn just after its side panel (the 09:25 run checked between the two)
            answers.first.wait_for(timeout=2_000)
            break
        except PlaywrightTimeout:
            click_and_wait_change(page, nxt, f"{lab} .safari-side")
    else:
        raise TurnProblem(f"no quiz question after 8 steps: {text_of(page, lab)[:300]!r}")
    page.locator(f"{quiz} button:visible:not([disabled])").first.click()
    wait_sentence(page, quiz, *SAID["quiz answer"])
    click_and_wait_change(page, nxt, f"{lab} .safari-side")
    wait_sentence(page, lab, *SAID["step"])
    return []


def rules_page(page, lab: str) -> list[str]:
    shown = page.locator(f"{lab} .safari-rules-page")
    game = shown.get_attribute("data-game")
    rules = learner_rules.page(game, LANG)
    found = [] if shown.get_attribute("lang") == LANG else [f"the rules page's lang is {shown.get_attribute('lang')}"]
    title = shown.locator("h2").inner_text().strip()
    if title != rules.title:
        found.append(f"the rules page's title is {title!r}, not {rules.title!r}")
    print(f"  .safari-rules-page: {title!r}")
    heads = [h.strip() for h in shown.locator("h3").all_inner_texts()]
    missing = [s.title for s in rules.sections if s.title not in heads]
    if missing:
        found.append(f"sections missing from the rules page: {missing}")
    return found


TURNS: dict[str, Callable] = {"IdentificationLab": identification, "ChallengeLab": challenge,
                              "FullGameLab": full_game, "KnockoutLab": knockout, "SimulationLab": simulation,
                              "RulesTutorial": tutorial, "RulesPage": rules_page}


def play_turn(page, cls: str) -> list[str]:
    """One Spanish turn of the open lab of class ``cls``: what went wrong, in words (empty: all is well)."""
    lab = f"{APP} {ROOT[cls]}"
    print(f"{cls} in Spanish:")
    try:
        page.locator(lab).first.wait_for(timeout=60_000)
        found = TURNS[cls](page, lab)
    except Exception as exc:  # noqa: BLE001 - the walk goes on to the next lab; the words name this one
        found = [f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:600]]
    errors = app_errors(page)
    return found + [f"page error: {e}" for e in errors]
