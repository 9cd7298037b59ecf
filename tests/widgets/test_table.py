"""CardTable: hidden information never reaches the page, clicks round-trip, static files ship.

No browser here: ``get_state()`` is what the page would receive, ``table.click = {...}``
(or ``set_state``) acts like a click sent by the page.
"""
from __future__ import annotations

import json
import logging
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

from safari_kit.cards.model import DATA_ITEMS  # noqa: E402
from safari_kit.knockout import KnockoutGame, Play  # noqa: E402
from safari_kit.widgets import CardTable, selectable_from_legal  # noqa: E402
from safari_kit.widgets import table as table_module  # noqa: E402
from safari_kit.presentation.views import mugshot_face  # noqa: E402
from safari_kit.witness import WitnessGame  # noqa: E402
from safari_kit.witness import actions as A  # noqa: E402
from safari_kit.witness.cases import CASE_BY_KEY  # noqa: E402

WID = re.compile(r"\bW\d{2}\b")
KID = re.compile(r"\bK\d{2}\b")


def page_text(table) -> str:
    """Everything the page would receive, as JSON text (the JS/CSS sources left out)."""
    state = {k: v for k, v in table.get_state().items() if k not in ("_esm", "_css")}
    return json.dumps(state, default=str)


def faces_in(obj):
    """Every dict in the synced state that looks like a card face."""
    if isinstance(obj, dict):
        if "id" in obj and ("animal" in obj or "bars" in obj):
            yield obj
        for v in obj.values():
            yield from faces_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from faces_in(v)


# ----------------------------------------------------------------------------- Witness hidden info
def witness_hidden(state) -> set[str]:
    full = state.full_view()
    return set(full["deck"]) | {cid for _, cid, up in full["unidentified"] if not up}


def assert_witness_private(state, table, viewer):
    text = page_text(table)
    hidden = witness_hidden(state)
    shown = set(WID.findall(text))
    assert not (shown & hidden), f"hidden card id(s) {sorted(shown & hidden)} reach the page"
    game = state.game
    faces = list(faces_in(table.get_state()))
    combos = {(f["animal"], f["texture"], f["color"], f["name"]) for f in faces}
    for cid in hidden:
        card = game.cards[game.index[cid]]
        assert (card.animal, card.texture, card.color, card.name) not in combos, f"face of hidden {cid} sent"
        assert mugshot_face(card)["label"] not in text, f"label of hidden {cid} sent"
    if state.case_cards is not None and state.phase != "over":
        for seat, key in enumerate(state.case_cards):
            if seat != viewer and key != state.case_cards[viewer]:
                assert f'"{key}"' not in text and CASE_BY_KEY[key].text not in text, "another player's Case Card"


def play_witness(seed: int, players: int, every: int = 1):
    rng = random.Random(seed)
    game = WitnessGame(players=players, advanced=True, case_module=True)
    state = game.new_initial_state(seed=seed)
    tables = [CardTable.for_witness(state, v) for v in range(players)]
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            for v, t in enumerate(tables):
                t.show(state, v)
                assert_witness_private(state, t, v)
        if state.is_terminal() or step > 600:
            break
        legal = state.legal_actions()
        # prefer the interesting paths now and then so abilities, ALAN and challenges happen
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    return state, step


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4), (4, 2), (5, 5), (6, 3)])
def test_witness_page_never_holds_hidden_cards(seed, players):
    state, steps = play_witness(seed, players)
    assert steps > 5


def test_witness_face_down_place_is_a_bare_back():
    state = WitnessGame(players=3, advanced=True, case_module=True).new_initial_state(seed=11)
    table = CardTable.for_witness(state, 0)
    for p in table.view["places"]:
        assert p == {"place": p["place"], "face_up": False}
    assert "log" not in table.view  # earlier reveals stay the learner's memory


def test_witness_tom_look_and_kris_miss_stay_hidden():
    """Scan many random games for TOM looks and KRIS misses: still never on the page."""
    seen = set()
    for seed in range(20, 60):
        rng = random.Random(seed)
        state = WitnessGame(players=2, advanced=True).new_initial_state(seed=seed)
        table = CardTable.for_witness(state, 0)
        while not state.is_terminal():
            legal = state.legal_actions()
            uses = [a for a in legal if isinstance(a, (A.UseTom, A.UseKris, A.UseSam))]
            action = rng.choice(uses) if uses and rng.random() < 0.8 else rng.choice(legal)
            state.apply(action)
            if isinstance(action, (A.UseTom, A.UseKris, A.UseSam)):
                seen.add(type(action).__name__)
                for v in (0, 1):
                    table.show(state, v)
                    assert_witness_private(state, table, v)
        if len(seen) == 3:
            break
    assert seen, "no ability was used in 40 random games"


# ----------------------------------------------------------------------------- Knockout hidden info
def assert_knockout_private(state, table, viewer):
    text = page_text(table)
    game = state.game
    others = {cid for p in range(game.players) if p != viewer for cid in state.hand(p)}
    shown = set(KID.findall(text))
    assert not (shown & others), f"another player's card(s) {sorted(shown & others)} reach the page"
    # only the viewer's hand and this round's played cards may appear at all
    rnd = state.round
    played = {c for t in state.completed_turns if t["round"] == rnd for _, c in t["plays"]}
    played |= {c for _, c in state.trick}
    assert shown <= set(state.hand(viewer)) | played
    names = {f["name"] for f in faces_in(table.get_state())}
    for cid in others:
        card = game.card(cid)
        assert card.name not in names and json.dumps(card.name) not in text, f"name of hidden {cid} sent"
    # last_turn (issue 17): before the first card of a turn, the turn just finished *this round* is repeated,
    # nothing else; none while a turn is being played, none before a round's first turn is over (an earlier
    # round's cards were dealt again and may be in someone's hand)
    last = table.get_state()["view"]["last_turn"]
    this_round = [t for t in state.completed_turns if t["round"] == rnd]
    if state.trick or not this_round:
        assert last is None, (rnd, len(this_round), last)
        return "none"
    t = this_round[-1]
    assert [(p["player"], p["card"]) for p in last["plays"]] == [tuple(p) for p in t["plays"]]
    assert last["winner"] == t["winner"] and last["item"] == t["item"]
    assert (last["winner"], last["winning_card"]) in {tuple(p) for p in t["plays"]}
    assert last == dict(table.view["turns_this_round"][-1], winning_card=last["winning_card"])
    return "shown"


@pytest.mark.parametrize("seed,players,elim", [(1, 2, False), (2, 3, True), (3, 4, False), (4, 5, True), (5, 7, False)])
def test_knockout_page_never_holds_another_hand(seed, players, elim):
    rng = random.Random(seed)
    state = KnockoutGame(players=players, elimination=elim).new_initial_state(seed=seed)
    tables = [CardTable.for_knockout(state, v) for v in range(players)]
    steps = 0
    last_turns = set()
    while True:
        for v, t in enumerate(tables):
            if steps % 3 and v not in (state.current_player, 0) and not state.is_terminal():
                continue
            t.show(state, v)
            last_turns.add(assert_knockout_private(state, t, v))
            if v != state.current_player:
                assert t.selectable == []
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    assert steps > 10
    assert last_turns == {"none", "shown"}  # both cases were met (a round's start, a turn just finished)


def test_knockout_bars_use_public_deck_ranges():
    state = KnockoutGame(players=3).new_initial_state(seed=9)
    table = CardTable.for_knockout(state, state.current_player)
    items = {i["id"]: i for i in table.view["items"]}
    assert set(items) == set(DATA_ITEMS) and items["weight_kg"]["scale"] == "log"
    for cid in table.view["hand"]:
        face = table.view["cards"][cid]
        assert [b["item"] for b in face["bars"]] == list(DATA_ITEMS)
        for b in face["bars"]:
            assert 0 < b["fraction"] <= 1 and b["unit"] in b["text"]


# ----------------------------------------------------------------------------- clicks: Witness
def scripted_witness():
    """Place 1 holds W01 (Elephant), the first clue W02 (Elephant) and a second clue follows."""
    game = WitnessGame(players=2, first_player=0)
    return game.new_initial_state(seed=5, deck_order=["W01", "W20", "W40", "W60", "W02", "W50"])


def test_click_on_selectable_button_and_place_fires_callback():
    state = scripted_witness()
    table = CardTable.for_witness(state, 0)
    got = []
    table.on_click(got.append)
    table.click = {"kind": "button", "id": "reveal_another", "seq": 1}
    assert got == [{"kind": "button", "id": "reveal_another", "label": "Reveal another clue",
                    "action": {"type": "RevealAnother"}}]  # the engine's own action, as action.to_dict()
    from safari_kit.presentation.views import action_of

    assert action_of(got[0]) == A.RevealAnother()
    state.apply(A.RevealAnother())
    table.show(state)
    kinds = {t["kind"] for t in table.selectable}
    assert kinds == {"clue", "button", "place"}
    table.set_state({"click": {"kind": "place", "id": 1, "seq": 2}})  # as the page would send it
    assert got[-1]["kind"] == "place" and got[-1]["id"] == 1
    table.click = {"kind": "place", "id": 1, "seq": 3}  # the same target again still fires
    assert len(got) == 3


def test_stale_click_is_explained_by_the_engine():
    state = scripted_witness()
    state.apply(A.RevealAnother())
    state.apply(A.Declare("W02", ("animal",), 1))  # Elephant + Elephant: success, a clue remains
    assert state.phase == "identify"
    table = CardTable.for_witness(state, 0)
    got = []
    table.on_click(got.append)
    assert {"kind": "place", "id": 1} not in [{"kind": t["kind"], "id": t["id"]} for t in table.selectable]
    table.click = {"kind": "place", "id": 1, "seq": 1}
    assert got == []
    assert "revealed earlier this turn" in table.message
    assert "(W4)" not in table.message and table.message[0].isupper()


def test_repeated_wrong_and_malformed_clicks_are_ignored_with_a_message():
    state = scripted_witness()
    table = CardTable.for_witness(state, 0)
    got = []
    table.on_click(got.append)
    table.click = {"kind": "button", "id": "identify", "seq": 5}
    assert len(got) == 1
    table.click = {"kind": "button", "id": "challenge", "seq": 5}  # a replayed sequence number
    assert len(got) == 1 and "already handled" in table.message
    table.click = {"kind": "button", "id": "nonsense", "seq": 6}
    assert len(got) == 1 and "not clickable" in table.message
    table.click = {"kind": "spaceship", "id": 1, "seq": 7}
    assert len(got) == 1 and table.message
    table.click = {"what": "is this"}
    assert len(got) == 1 and "could not be read" in table.message
    table.click = {"kind": "place", "id": "999", "seq": 8}
    assert len(got) == 1 and table.message


def test_watching_player_cannot_click_and_is_told_whose_turn():
    state = scripted_witness()
    table = CardTable.for_witness(state, 1)
    assert table.selectable == []
    assert "Waiting" in table.message
    table.click = {"kind": "place", "id": 2, "seq": 1}
    assert "Player 0's turn" in table.message


def test_callback_error_shows_in_message_and_log(caplog):
    state = scripted_witness()
    table = CardTable.for_witness(state, 0)

    def broken(target):
        raise RuntimeError("the lab broke")

    table.on_click(broken)
    with caplog.at_level(logging.ERROR, logger="safari_kit.widgets"):
        table.click = {"kind": "button", "id": "identify", "seq": 1}  # must not raise
    assert "RuntimeError" in table.message and "the lab broke" in table.message
    assert "the lab broke" in caplog.text and "the lab broke" in table.last_error
    table.on_click(broken, remove=True)
    table.click = {"kind": "button", "id": "identify", "seq": 2}


def test_selectable_maps_every_witness_phase():
    seen = set()
    table = CardTable(game="witness")
    for seed in range(8):
        rng = random.Random(seed)
        state = WitnessGame(players=2, advanced=True).new_initial_state(seed=seed)
        while not state.is_terminal():
            targets = selectable_from_legal(state)
            assert targets, f"no target in phase {state.phase}"
            seen.add(state.phase)
            table.show(state, state.current_player)  # check_public accepts them all
            assert table.selectable == targets
            if state.phase == "abilities":
                for name in ("TAM", "TOM", "SAM", "KIM", "KRIS"):
                    table.show(state, state.current_player, selectable=selectable_from_legal(state, ability=name))
                    seen.add(name)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert {"choose", "identify", "challenge", "archive"} <= seen


def test_a_target_naming_a_hidden_card_is_refused():
    state = scripted_witness()
    hidden = state.full_view()["deck"][0]
    with pytest.raises(ValueError):
        CardTable.for_witness(state, 0, selectable=[{"kind": "card", "id": hidden, "label": "x"}])
    with pytest.raises(ValueError):
        CardTable.for_witness(state, 0, highlight=[{"kind": "card", "id": hidden}])


# ----------------------------------------------------------------------------- clicks: Knockout
def test_knockout_lead_clicks_card_and_item_follow_gets_engine_reason():
    state = KnockoutGame(players=3).new_initial_state(seed=4)
    lead = state.current_player
    table = CardTable.for_knockout(state, lead)
    got = []
    table.on_click(got.append)
    card = state.hand(lead)[0]
    table.click = {"kind": "card", "id": card, "seq": 1}
    table.click = {"kind": "item", "id": "size_cm", "seq": 2}
    assert [(t["kind"], t["id"]) for t in got] == [("card", card), ("item", "size_cm")]
    state.apply(Play(card, "size_cm"))
    nxt = state.current_player
    table.show(state, nxt)
    assert {t["kind"] for t in table.selectable} == {"card"}
    table.click = {"kind": "item", "id": "weight_kg", "seq": 3}
    assert len(got) == 2 and "only the lead names a data item" in table.message
    table.click = {"kind": "card", "id": card, "seq": 4}  # the lead's card, now on the table
    assert len(got) == 2 and "not in your hand" in table.message


def test_knockout_another_hand_can_never_be_made_selectable():
    state = KnockoutGame(players=3).new_initial_state(seed=4)
    watcher = (state.current_player + 1) % 3
    with pytest.raises(ValueError):
        CardTable.for_knockout(state, watcher, selectable=selectable_from_legal(state))
    table = CardTable.for_knockout(state, watcher)
    assert table.selectable == []
    table.click = {"kind": "card", "id": state.hand(watcher)[0], "seq": 1}
    assert "turn" in table.message


# ----------------------------------------------------------------------------- static files
STATIC = Path(table_module.__file__).parent / "static"


def test_esm_and_css_are_package_files():
    import safari_kit

    pkg = Path(safari_kit.__file__).parent
    for attr, name in (("_esm", "table.js"), ("_css", "table.css")):
        value = getattr(CardTable, attr)
        path = Path(getattr(value, "_path", value))
        assert path == STATIC / name and path.is_file()
        assert pkg in path.resolve().parents
    table = CardTable()
    assert "export default" in table._esm and ".safari-table" in table._css


def test_static_files_are_not_git_ignored(repo_root):
    if shutil.which("git") is None or not (repo_root / ".git").exists():
        pytest.skip("no git checkout")
    for name in ("table.js", "table.css", "lab.css"):
        proc = subprocess.run(["git", "check-ignore", "-q", str(STATIC / name)], cwd=repo_root)
        assert proc.returncode == 1, f"{name} is git-ignored, so hatch would leave it out of the wheel"


def test_js_parses_as_an_es_module(tmp_path):
    node = shutil.which("node")
    if node is None:  # .ci/run installs npm, and node with it: in CI this test runs
        if os.environ.get("CI") == "true":
            pytest.fail("node is not installed (CI=true: .ci/run installs npm, which brings node)")
        pytest.skip("node is not available")
    copy = tmp_path / "table.mjs"
    copy.write_text((STATIC / "table.js").read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_js_has_keyboard_and_aria_and_no_imports():
    js = (STATIC / "table.js").read_text(encoding="utf-8")
    assert not re.search(r"^\s*import\s", js, re.M) and "http" not in js.replace("http://www.w3.org/2000/svg", "")
    for needle in ('"tabindex", "0"', '"role", "button"', 'ev.key === "Enter"', 'ev.key === " "',
                   "aria-label", "save_changes", "change:${n}", '"view", "selectable", "message", "highlight"'):
        assert needle in js, needle


def css_selectors(css: str) -> list[str]:
    """Every selector of a style sheet (comments, keyframes and @media wrappers left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    css = re.sub(r"@media[^{]*\{", "", css)
    return [sel.strip() for selectors in re.findall(r"([^{}]+)\{[^{}]*\}", css) for sel in selectors.split(",")
            if sel.strip()]


def test_css_is_scoped_under_the_root_class():
    # the table's own rules (table.css, with the card table); the labs' layout around it and the app's chooser
    # (lab.css, with every lab's and the chooser's live region: the focus ring and reduced motion of issue 20)
    for name, roots in (("table.css", (".safari-table",)), ("lab.css", (".safari-lab ", ".safari-app "))):
        selectors = css_selectors((STATIC / name).read_text(encoding="utf-8"))
        assert len(selectors) > 20, name
        for sel in selectors:
            assert sel.startswith(roots), f"{name}: selector outside its root class: {sel!r}"


def test_a_page_gets_each_style_rule_once():
    """Issue 31: the card table and the labs' live region each carried the whole of table.css, so every lab sent
    the page the same 20 KB twice (and the page held it twice). Now each widget carries its own rules only."""
    from safari_kit.widgets.live import LiveRegion

    table, live = CardTable(), LiveRegion()
    assert Path(getattr(LiveRegion._css, "_path", LiveRegion._css)) == STATIC / "lab.css"
    bare = [re.sub(r"/\*.*?\*/", "", w._css, flags=re.S) for w in (table, live)]
    rules = [{" ".join(r.split()) for r in re.findall(r"[^{}]+\{[^{}]*\}", css)} for css in bare]
    assert len(rules[0]) > 50 and len(rules[1]) > 20 and not rules[0] & rules[1]
    assert ".safari-lab button:focus-visible" in live._css
    assert ".safari-table .st-selectable:focus-visible" in table._css
