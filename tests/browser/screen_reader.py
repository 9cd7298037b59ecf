"""What a screen reader gets from the app (issue 20), read from Chromium's accessibility tree.

Playwright's ``aria_snapshot()`` gives the tree a screen reader reads (roles, names, states), not the DOM's
attributes. The labs are played by keys (tests/browser/keys.py). These tests run in
tests/browser/test_a11y_keyboard.py, which imports them: they need the same page (the app at 1366x768, less
motion), so they play on that module's page after its keyboard tests (issue 28: one page and one kernel for
the two, where each file opened its own). Their names are unchanged; their node ids are
``tests/browser/test_a11y_keyboard.py::test_...``. This file is no test module of its own (not ``test_*.py``).

* Identification: the face-down places are buttons named "Place 3, face down, chance of a Color match 14 of
  74" (the chance written under them, in words) and nothing more: no card of a face-down place is in the tree;
  the lab has exactly one live region (the table's message line is not a second one); after Reveal it says
  one sentence, "Place 3: Pink Owl, Wood, named KIM. No match: ...", whose place and card are the ones the
  game's log (the lab's "What happened", from the viewer's observation log) records for that declaration.
* Knockout: every card of the hand is a button named with the Pal and its values; after Play the sentence
  said is the result written beside the table, and the winner's card is in the lab's log of turns.
* Full game (follow-up): turning the cards face down, each card put on the archive and the bots' turns since
  are said, each checked against the tree (the Clue Area's card, the top of "Your Archive" and its count)
  and the lab's "Since your last turn" list (or the game's result).
* Knockout's end of a round (issue 27; ``test_round_one_over_waits_for_next_round``, which was
  tests/browser/test_knockout_round_over_browser.py's, a visit of the app of its own: issue 28). Before, after
  round 1's last turn the bots' cards of round 2 came on the table and the round's result was one small line.
  Now "Play to end of round" (and the round's last play) stops on **Round 1 is over**: the box beside the table
  says the round's result and the points, the table still shows round 1's last turn, a screen reader hears the
  round's result, and only **Next round** starts round 2. During the pause the table is round 1 as it ended
  (part E2): "Round 1 of 7", its 7 turns, the last turn's cards, an empty hand; round 2's new hand comes only
  with Next round (before, the pause showed it, with "Round 2 of 7"). Screenshot:
  ``test-artifacts/issue27-knockout-round-over.png``.

Each test opens its lab from the chooser, whatever the page shows (the keyboard tests leave a lab open).
"""
from __future__ import annotations

import re
import time

from tests.browser.helpers import screenshot
from tests.browser.keys import button_named, focus, live_text, open_lab_by_keys, tab_to, wait_said
from tests.browser.test_app_voila import app_errors, button, open_lab


FACE_DOWN = re.compile(r"Place (\d+), face down(, chance of an? [A-Za-z +]+ match (\d+ of \d+|certain|none))?")
FACE_UP = re.compile(r"Place (\d+), face up(, to remember)?: (Teal|Yellow|Orange|Pink|Violet) "
                     r"(Elephant|Owl|Bear|Goat|Pig), [A-Za-z ]+, named [A-Z?]+( \(.*\))?")


def tree_names(snapshot: str, role: str) -> list[str]:
    """The names of the nodes of ``role`` in an ARIA snapshot (``- button "Place 3, face down" [pressed]``)."""
    # a line holding ": " is quoted by YAML as a whole: - 'button "Kori Bustard: weight 8.5 kg, ..."'
    return [m.group(1).replace("''", "'")
            for m in re.finditer(rf'^\s*- \'?{role} "((?:[^"\\]|\\.)*)"', snapshot, re.M)]


def live_regions(page, lab: str) -> int:
    return page.locator(f"{lab} [aria-live], {lab} [role='status'], {lab} [role='alert']").count()


def test_identification_names_and_sentence(app_page):
    page = app_page
    lab = ".safari-identification-lab"
    open_lab_by_keys(page, "Safari Witness", "Identification", lab)
    page.locator(f"{lab} .safari-table .st-card").first.wait_for()
    for _ in range(12):  # a bot's failed turn first: Next turn until ours
        if page.locator(f"{lab} button.safari-identify:not([disabled])").count():
            break
        tab_to(page, button_named("Next turn"))
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        wait_said(page, lab, before)
    assert live_regions(page, lab) == 1, "one live region per lab: one sentence per action"
    tab_to(page, button_named("Identify"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    wait_said(page, lab, before)
    page.wait_for_function("() => document.activeElement && (document.activeElement.getAttribute('data-key')"
                           " || '').startsWith('place:')")
    area = page.locator(f"{lab} .safari-table .st-unidentified")
    page.wait_for_function(f"() => document.querySelector(\"{lab} .st-unidentified [role=button]\")"
                           ".getAttribute('aria-label').includes('chance of')")
    tree = area.aria_snapshot()
    places = tree_names(tree, "button")
    assert places, tree
    for name in places:
        assert FACE_DOWN.fullmatch(name) and "chance of" in name, f"a place's name: {name!r}\n{tree}"
    # hidden stays hidden: the face-down places name no animal, colour or card name
    for name in places:
        assert not re.search(r"Elephant|Owl|Bear|Goat|Pig|Teal|Yellow|Pink|Violet|named", name), name
    assert "[pressed=false]" in tree or "pressed" not in tree, tree
    f = focus(page)
    place = int(f["key"].split(":")[1])
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    wait_said(page, lab, before)
    pressed = rf'button "Place {place}, face down[^"]*" \[pressed\]'
    deadline = time.monotonic() + 10  # the table drawn pressed comes in a message after the sentence
    while not re.search(pressed, area.aria_snapshot()) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert re.search(pressed, area.aria_snapshot()), area.aria_snapshot()
    tab_to(page, button_named("Reveal"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    status = page.locator(f"{lab} .safari-live").aria_snapshot()
    assert status.strip().startswith("- status:") and said in status, status  # a status role: polite, read once
    m = re.match(rf"Place {place}: (.+?, named [A-Z?]+(?: \([^)]*\))?)\. (Match|No match)", said)
    assert m, said
    card = m.group(1)
    # the game's log (the lab's "What happened", told from the observation log) records the same reveal
    log = page.locator(f"{lab} .safari-log")
    log.locator("summary").click()
    text = log.inner_text()
    # the last such line: a bot may have revealed the same card at that place earlier (with another clue)
    line = next((x for x in reversed(text.splitlines()) if f"at place {place}: {card}" in x), None)
    assert line, f"{said!r} is not in the game's log:\n{text}"
    assert ("no match" in line) == (m.group(2) == "No match"), (line, said)
    tree = page.locator(f"{lab} .safari-table .st-unidentified").aria_snapshot()
    names = tree_names(tree, "img") + tree_names(tree, "button")
    assert all(FACE_UP.fullmatch(n) or FACE_DOWN.fullmatch(n) for n in names), tree
    assert not re.search(r"Face-down card|img \"(Teal|Yellow|Orange|Pink|Violet) ", tree), \
        f"a card's picture is named twice (inside its place): {tree}"
    if m.group(2) == "No match":  # the revealed card lies face up, named with the card the sentence said
        shown = [n for n in names if n.startswith(f"Place {place}, face up")]
        assert shown and shown[0].endswith(card), (shown, tree)
    print(f"\nsaid {said!r}\nlog {line!r}")
    assert not page.errors, page.errors


def test_knockout_names_and_sentence(app_page):
    page = app_page
    lab = ".safari-knockout-lab"
    open_lab_by_keys(page, "Safari Knockout", "Knockout", lab)
    table = f"{lab} .safari-prob-table"
    page.locator(f"{table}[data-phase='lead'], {table}[data-phase='follow']").first.wait_for(timeout=30_000)
    assert live_regions(page, lab) == 1
    hand = page.locator(f"{lab} .safari-table .st-hand")
    tree = hand.aria_snapshot()
    cards = tree_names(tree, "button")
    assert len(cards) >= 5, tree
    for name in cards:  # "Kori Bustard: weight 8.5 kg, size 120 cm, top speed 50 km/h, lifespan 25 years, ..."
        assert re.fullmatch(r"[A-Z][\w' -]+: weight [\d.,]+ kg, size [\d.,]+ cm, top speed [\d.,]+ km/h, "
                            r"lifespan [\d.,]+ years, (it cannot win this turn|chance to win( naming [A-Z][a-z ]+)? "
                            r"(certain|under 0\.001|about 0\.\d{3}))", name), name
    assert re.search(r"group \"Your hand[^\"]*arrow keys move", tree), tree
    phase = page.locator(table).get_attribute("data-phase")
    tab_to(page, lambda f: (f.get("key") or "").startswith("card:"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    wait_said(page, lab, before)
    if phase == "lead":
        tab_to(page, lambda f: (f.get("key") or "").startswith("item:"), shift=True)
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        wait_said(page, lab, before)
    tab_to(page, button_named("Play"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    page.locator(f"{table}[data-phase='done'], {table}[data-phase='over']").first.wait_for(timeout=30_000)
    result = page.locator(f"{lab} .safari-ko-result").inner_text().strip()
    assert said == result + " Press Next turn." or said == result, (said, result)
    winner = re.search(r"(?:your|Player \d+'s) ([A-Z][\w' -]+?) \(", said)
    assert winner, said
    log = page.locator(f"{lab} .safari-ko-log").inner_text()
    assert winner.group(1) in log, (said, log)
    print(f"\nsaid {said!r}")
    assert not page.errors, page.errors


CARD_WORDS = (r"(Teal|Yellow|Orange|Pink|Violet) (Elephant|Owl|Bear|Goat|Pig), ([A-Za-z ]+), "
              r"named [A-Z?]+(?: \([^)]*\))?")


def test_full_game_sentences_for_archiving_and_the_bots_turns(app_page):
    """Full game (issue 20, follow-up): the face-down after a failed turn, each card put on the archive, and the
    bots' turns since are each said in one sentence, checked against the accessibility tree: the live region is a
    status; each "Player N failed at place P: <card>" and "Player N identified ... and archived m" clause is in
    the lab's "Since your last turn" list (told from the learner's observation log); the card put on the
    archive is on the table, the last one on top of "Your Archive", whose count is the size said; the clue
    card of "Your turn: clue card <card>" is the one in the Clue Area. The learner plays as a screen-reader
    user would: it remembers the cards named "face up, to remember" and declares on one that shares a clue type
    with the clue card, if any."""
    page = app_page
    lab = ".safari-fullgame-lab"
    open_lab_by_keys(page, "Safari Witness", "Full game", lab)
    table = f"{lab} .safari-table"
    page.locator(f"{table} .st-card").first.wait_for()
    assert live_regions(page, lab) == 1
    memory: dict[int, tuple[str, str, str]] = {}  # place -> (colour, animal, texture) of a card seen face up
    heard: dict[str, list[str]] = {"down": [], "archive": [], "news": []}

    def target(key: str):
        return page.locator(f"{table} [data-key='{key}']")

    def press(node) -> str:
        before = live_text(page, lab)
        node.focus()
        page.keyboard.press("Enter")
        return wait_said(page, lab, before)

    def remember() -> None:
        tree = page.locator(f"{table} .st-unidentified").aria_snapshot()
        for name in tree_names(tree, "img") + tree_names(tree, "button"):
            m = re.fullmatch(rf"Place (\d+), face up(?:, to remember)?: {CARD_WORDS}", name)
            if m:
                memory[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))

    def since_list() -> str:
        box = page.locator(f"{lab} details:has(summary:text-is('Since your last turn'))")
        return box.inner_text() if box.count() else ""

    def check(said: str) -> None:
        status = page.locator(f"{lab} .safari-live").aria_snapshot()
        assert status.strip().startswith("- status:") and said in status, status
        told = since_list().splitlines()
        over = re.search(r"Game over after \d+ turns\. Winners?: (.+)\.$", said)
        if over:  # the list gives way to the game's result: its table names the winners the sentence says
            result = page.locator(f"{lab} h3:text-matches('^Game over')").locator("xpath=..").inner_text()
            assert "Winner" in result and over.group(1) in result, (said, result)
            heard["news"].append(over.group(0))
            return
        for m in re.finditer(rf"Player (\d+) [^;]*?failed at place (\d+): (?P<card>{CARD_WORDS})", said):
            p, place, card = m.group(1), m.group(2), m.group("card")
            assert any(f"Player {p} " in x and f"at place {place}: {card}" in x for x in told), (said, told)
            heard["news"].append(m.group(0))
        for m in re.finditer(r"Player (\d+) identified (\d+) cards? and archived (\d+)", said):
            p, n = m.group(1), int(m.group(3))
            assert any(x.strip() == f"Player {p} archived {n} card{'s' if n != 1 else ''}." for x in told), (said, told)
            heard["news"].append(m.group(0))
        m = re.search(rf"Your turn: clue card ({CARD_WORDS})\.", said)
        if m:
            tree = page.locator(f"{table} .st-clue").aria_snapshot()
            assert m.group(1) in tree_names(tree, "img") + tree_names(tree, "button"), (said, tree)

    for _turn in range(14):
        for _ in range(8):  # a bot's failed turn: remember its cards, then go on
            go = target('button:"go_on"')
            if not go.count():
                break
            remember()
            said = press(go)
            assert said.startswith("The face-up cards turn face down."), said
            check(said)
            heard["down"].append(said)
        identify = target('button:"identify"')
        if not identify.count():  # the game is over (a bot reached 10 Mugshots): a new game
            said = press(page.locator(f"{lab} button", has_text=re.compile("^New game$")))
            memory.clear()
            page.locator(f"{table} .st-card").first.wait_for()
            continue
        press(identify)
        tree = page.locator(f"{table} .st-clue").aria_snapshot()
        clue = next(n for n in tree_names(tree, "img") + tree_names(tree, "button") if re.match(CARD_WORDS, n))
        colour, animal, texture = re.match(CARD_WORDS, clue).groups()[:3]
        down = [int(k.split(":")[1]) for k in page.locator(f"{table} [data-key^='place:']").evaluate_all(
            "(els) => els.map((e) => e.getAttribute('data-key'))")]
        pick = ("color", down[-1])
        for place, (c, a, t) in memory.items():
            if place in down:
                shared = [k for k, x, y in (("color", c, colour), ("animal", a, animal), ("texture", t, texture))
                          if x == y]
                if shared:
                    pick = (shared[0], place)
                    break
        press(target(f'button:"type:{pick[0]}"'))
        said = press(target(f"place:{pick[1]}"))
        m = re.match(rf"Place {pick[1]}: ({CARD_WORDS})\. (Match|No match)", said)
        assert m, said
        card = m.group(1)
        memory[pick[1]] = m.groups()[1:4]
        if m.group(5) == "No match":
            remember()
            said = press(target('button:"face_down"'))
            assert said.startswith("The face-up cards turn face down."), said
            check(said)
            heard["down"].append(said)
            continue
        memory.pop(pick[1], None)
        while True:  # archive the cards won one at a time; the last goes on top by itself
            won = page.locator(f"{table} .st-won [data-key^='card:']")
            if not won.count():
                break
            name = won.first.get_attribute("aria-label")
            said = press(won.first)
            assert said.startswith(f"{name} goes on your archive"), (name, said)
            heard["archive"].append(said)
            check(said)
            last = re.search(rf"The last card, ({CARD_WORDS}), goes on top by itself\. Your archive: (\d+) Mugshots?\.",
                             said)
            if last:
                top = page.locator(f"{table} .st-archive.st-you .st-archive-inner > .st-slot").aria_snapshot()
                assert last.group(1) in top, (said, top)
                title = page.locator(f"{table} .st-archive.st-you .st-zone-title").inner_text()
                assert title.endswith(f"· {last.group(5)}"), (said, title)
                break
        assert card in page.locator(f"{table} .st-archive.st-you").aria_snapshot() or heard["archive"], card
        if heard["archive"] and heard["news"] and heard["down"]:  # a deal may give a match at once: play on
            break
    print("\n" + "\n".join(f"{k}: {v}" for k, vs in heard.items() for v in vs[-2:]))
    assert heard["down"] and heard["news"], heard
    assert heard["archive"], f"no match in 14 turns with the remembered cards: {heard}"
    assert not page.errors, page.errors


KO_LAB = ".safari-app .safari-knockout-lab"


def _named(name: str, text: str) -> bool:  # "Leopard" is not "Leopard Tortoise"
    return re.search(rf"(?<![\w']){re.escape(name)}(?![\w]| Tortoise)", text) is not None


def _round_one_pause_then_round_two(page, lab, table):
    """Round 1 played to its end, its pause checked, then Next round: -> (round 2's hand as (id, name), those of
    them round 1 did not show, the table's HTML during the pause)."""
    before = live_text(page, KO_LAB)
    button(lab, "Play to end of round").click()
    said = wait_said(page, KO_LAB, before)
    assert said.startswith("Round 1 played to its end:") and said.endswith("Press Next round to start round 2."), said
    box = lab.locator(".safari-ko-round-over")
    box.wait_for(timeout=30_000)
    page.locator(KO_LAB).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    screenshot(page, "issue27-knockout-round-over")
    words = " ".join(box.inner_text().split())
    assert words.startswith("Round 1 is over") and "Points so far" in words, words
    b = box.bounding_box()
    assert b is not None and 0 <= b["y"] and b["y"] + b["height"] <= 768, b
    assert "Round 1 is over" in table.inner_text()
    # E2: the table is round 1 as it ended, not round 2's new hand: round 1's chip, its 7 turns with their
    # winners, the last turn's 4 cards, an empty hand (before, it showed "Round 2 of 7" and 6 new cards)
    info = " ".join(table.locator(".st-info").inner_text().split())
    assert "Round 1 of 7" in info, info
    assert table.locator(".st-turns li").count() == 7
    assert table.locator(".st-played .st-slot").count() == 4
    assert table.locator(".st-hand .st-slot").count() == 0
    assert "No cards in hand." in table.locator(".st-hand").inner_text()
    paused = table.inner_html()
    turns_text = re.sub(r"<[^>]+>", " ", table.locator(".st-turns").inner_html())  # the names of round 1's cards
    nxt = button(lab, "Next round")
    assert nxt.is_enabled()
    # round 2 waits: the table still shows round 1's last turn (its plays are the panel's table)
    assert lab.locator(".safari-prob-table[data-phase='done']").count() == 1
    before = live_text(page, KO_LAB)
    nxt.click()
    wait_said(page, KO_LAB, before)
    page.wait_for_function("(sel) => !document.querySelector(sel)", arg=f"{KO_LAB} .safari-ko-round-over",
                           timeout=30_000)
    assert button(lab, "Next turn").count() == 1
    # round 2's hand comes on Next round; none of its cards was on the page during the pause, unless round 1
    # had shown it (a card played in round 1 can be dealt again)
    assert "Round 2 of 7" in " ".join(table.locator(".st-info").inner_text().split())
    title = table.locator(".st-you .st-zone-title").inner_text().lower()
    assert "weight bars: each step along a bar is 10 times heavier" in title and "log scale" not in title, title
    hand = table.locator(".st-hand .st-slot [data-key]")
    assert hand.count() == 6
    cards = [(hand.nth(i).get_attribute("data-key").split(":", 1)[1].strip('"'),
              hand.nth(i).locator(".st-pal-head").inner_text().strip()) for i in range(6)]

    hidden = [(cid, name) for cid, name in cards if not _named(name, turns_text)]  # not played in round 1
    return cards, hidden, paused


#: deals to try: round 2 may deal only cards round 1 showed (about 1 deal in 100), which leaves nothing hidden
#: to check; New game deals again (three deals all like that: about 1 run in a million)
ROUND_TWO_DEALS = 3


def test_round_one_over_waits_for_next_round(app_page):
    page = app_page
    open_lab(page, "Safari Knockout", "Knockout", ".safari-knockout-lab")
    lab = page.locator(KO_LAB)
    table = lab.locator(".safari-table")
    for deal in range(ROUND_TWO_DEALS):
        if deal:
            before = live_text(page, KO_LAB)
            button(lab, "New game").click()
            wait_said(page, KO_LAB, before)
            page.wait_for_function("(sel) => document.querySelector(sel) && "
                                   "document.querySelector(sel).innerText.includes('Round 1 of 7')",
                                   arg=f"{KO_LAB} .safari-table .st-info", timeout=30_000)
        cards, hidden, paused = _round_one_pause_then_round_two(page, lab, table)
        if hidden:
            break
    assert hidden, ("every deal's round 2 hand was all cards round 1 showed", cards)
    leaked = [(cid, name) for cid, name in hidden if re.search(rf"\b{cid}\b", paused) or _named(name, paused)]
    assert leaked == [], leaked
    assert lab.locator(".safari-prob-table[data-phase='lead'], .safari-prob-table[data-phase='follow']").count() == 1
    screenshot(page, "issue27-knockout-round-two")
    assert not app_errors(page), app_errors(page)
    assert not page.errors, page.errors
