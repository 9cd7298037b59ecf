"""Identification and Challenge labs: exact numbers match the probability module, clicks drive the game,
nothing hidden reaches the page, and every clickable thing has a stable class or description."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

pytest.importorskip("anywidget")

from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.probability.knowledge import Knowledge, Memory  # noqa: E402
from safari_kit.simulation import challenge_positions as CP  # noqa: E402
from safari_kit.widgets.labs.challenge import STOP_COLUMN, ChallengeLab  # noqa: E402
from safari_kit.widgets.labs.identification import IdentificationLab, brier, card_label  # noqa: E402
from safari_kit.witness import WitnessGame  # noqa: E402

CARD_ID = re.compile(r"\bW\d{2}\b")


def classes(widget) -> set[str]:
    return set(widget._dom_classes)


def hidden_from(state, seat) -> set[str]:
    """Card ids the seat has never seen (deck, and face-down places never revealed in the seat's log)."""
    seen = state.observation(seat).card_ids()
    full = state.full_view()
    down = {cid for _, cid, up in full["unidentified"] if not up}
    return (set(full["deck"]) | down) - seen


def assert_no_leak(lab):
    hidden = hidden_from(lab.state, lab.learner)
    extra = lab.tally if hasattr(lab, "tally") else lab.summary
    text = " ".join([lab.prob.value, lab.status.value, lab.log_html.value, extra.value])
    leaked = set(CARD_ID.findall(text)) & hidden
    assert not leaked, f"hidden card ids on the page: {leaked}"
    labels = {cid: card_label(lab.game, cid) for cid in hidden}
    seen_labels = {card_label(lab.game, c.id) for c in lab.game.cards if c.id not in hidden}
    leaked = {cid for cid, label in labels.items() if label in text and label not in seen_labels}
    assert not leaked, f"hidden cards described on the page: {leaked}"


seq = iter(range(1, 10**6))


def shown_face_up(lab) -> dict[int, str]:
    """{place: card id} lying face up on the learner's table (the synced view)."""
    return {p["place"]: p["card"] for p in lab.table.view["places"] if p["face_up"]}


def through_failures(lab, press) -> int:
    """Press ``press`` while a failed turn's cards lie face up; each time they must be on the table."""
    shown = 0
    while lab.state.phase == "face_up":
        full = {p: cid for p, cid, up in lab.state.full_view()["unidentified"] if up}
        assert full and shown_face_up(lab) == full  # every card of the failure, face up on the learner's table
        assert lab.table.view["remember"] is True and "emember" in lab.table.message
        assert not lab.next_button.disabled
        press.click()
        shown += 1
    return shown


def click_place(lab, place):
    lab.table.click = {"kind": "place", "id": place, "seq": next(seq)}


# ----------------------------------------------------------------------------- Identification lab
def test_identification_lab_starts_on_the_learners_turn_with_exact_chances():
    lab = IdentificationLab(seed=4, players=3)
    assert lab.errors == []
    assert lab.state.current_player == 0 and lab.state.phase == "choose"
    assert "safari-prob" in classes(lab.prob)
    kn = Knowledge.from_observation(lab.state.observation(0), game=lab.game)
    p = PW.p_match(kn, kn.clue[0], kn.available[0], "animal").value
    assert f"{p.numerator}/{p.denominator}" in lab.prob.value
    assert "Identify now" in lab.prob.value and "Reveal another" in lab.prob.value
    assert not lab.identify_button.disabled and lab.reveal_button.disabled
    assert_no_leak(lab)


def test_identification_round_trip_records_guess_exact_and_outcome():
    lab = IdentificationLab(seed=3, players=2)
    assert lab.my_turn
    lab.identify_button.click()
    assert lab.state.phase == "identify"
    assert [v for _, v in lab.type_buttons.options] == [("animal",), ("texture",), ("color",), ("name",)]
    lab.type_buttons.value = ("color",)
    place = lab.state.available_places()[1]
    kn = Knowledge.from_observation(lab.state.observation(0), game=lab.game)
    kn0 = Knowledge.from_observation(lab.state.observation(0), Memory(last_k=0), game=lab.game)
    expected = PW.p_match(kn, kn.unresolved[0], place, "color").value
    click_place(lab, place)
    assert lab.picked_place == place
    assert f"data-types='color' data-place='{place}'" in lab.all_chances.value
    assert "safari-picked" in lab.all_chances.value
    # the chance of each place, for the picked clue type, is drawn under the place (count first)
    kn_now = Knowledge.from_observation(lab.state.observation(0), game=lab.game)
    for q in lab.state.available_places():
        e = PW.p_match(kn_now, kn_now.unresolved[0], q, "color")
        note = lab.table.notes[f"place:{q}"]
        if e.value.denominator == 1:
            assert note.startswith(f"P = {e.value.numerator}"), note
        else:
            m, n = (int(x) for x in e.formula.split("/")) if "/" in e.formula else (None, None)
            assert note.startswith(f"{m}/{n}" if m is not None else f"{e.value.numerator}/"), (note, e.formula)
            assert f"{float(e.value):.2f}" in note
    lab.guess_box.value = "1/5"
    lab.reveal_button.click()
    assert lab.errors == []
    (pred,) = lab.predictions
    assert pred.place == place and pred.types == ("color",) and pred.guess == pytest.approx(0.2)
    assert pred.exact == expected
    assert pred.nothing == PW.p_match(kn0, kn0.unresolved[0], place, "color").value
    event = [e for e, _, _ in lab.state.log if e["kind"] == "identify"][-1]
    assert pred.success == event["success"] and pred.card == event["card"]
    s = lab.tally_summary()
    assert s["reveals"] == 1 and s["guesses"] == 1
    assert s["brier_guess"] == pytest.approx((0.2 - pred.success) ** 2)
    assert "safari-tally-table" in lab.tally.value


def test_bad_guess_is_refused_and_nothing_is_revealed():
    lab = IdentificationLab(seed=3, players=2)
    lab.identify_button.click()
    click_place(lab, lab.state.available_places()[0])
    lab.guess_box.value = "two"
    n = len(lab.state.history)
    lab.reveal_button.click()
    assert len(lab.state.history) == n and not lab.predictions
    assert "could not read" in lab.status.value
    lab.guess_box.value = "1.5"
    lab.reveal_button.click()
    assert not lab.predictions


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_identification_lab_plays_a_whole_game_with_bots(bot):
    lab = IdentificationLab(seed=7, players=3, bot=bot)
    for _ in range(60):
        if lab.state.is_terminal():
            break
        assert lab.my_turn
        (lab.identify_button if lab.another_button.disabled or lab.state.turn % 2 else lab.another_button).click()
        while lab.my_turn and lab.state.phase == "identify":
            lab.type_buttons.value = lab.type_buttons.options[0][1]
            click_place(lab, lab.state.available_places()[-1])
            lab.guess_box.value = "0.3"
            lab.reveal_button.click()
            assert_no_leak(lab)
        through_failures(lab, lab.next_button)  # the learner's own failure, then each bot's
        if not lab.my_turn and not lab.state.is_terminal():
            lab.next_button.click()
        through_failures(lab, lab.next_button)
        assert_no_leak(lab)
    assert lab.errors == []
    assert lab.predictions
    for r in lab.predictions:
        assert 0 <= r.exact <= 1 and 0 <= r.nothing <= 1


def test_two_clues_can_be_picked_on_the_table():
    lab = IdentificationLab(seed=3, players=2)
    lab.another_button.click()
    assert lab.state.phase == "identify"
    clues = [t for t in lab.table.selectable if t["kind"] == "clue"]
    assert len(clues) == 2
    lab.table.click = {"kind": "clue", "id": clues[1]["id"], "seq": next(seq)}
    assert lab.picked_clue == clues[1]["id"]
    assert "P(both succeed)" in lab.prob.value
    click_place(lab, lab.state.available_places()[0])
    lab.reveal_button.click()
    assert lab.predictions[0].clue == clues[1]["id"]
    assert lab.errors == []


def test_advanced_alex_offers_pairs():
    lab = IdentificationLab(seed=3, players=2, advanced=True)
    state = lab.state
    # put an ALEX on top of the learner's archive (a test-only shortcut)
    alex = next(i for i, c in enumerate(lab.game.cards) if c.name == "ALEX" and i in state.deck)
    state.deck.remove(alex)
    state.archives[0].append(alex)
    state._legal = state._legal_set = None
    lab._refresh()
    lab.identify_button.click()
    values = [v for _, v in lab.type_buttons.options]
    assert ("animal", "color") in values and len(values) == 10
    assert "data-types='animal+color'" in lab.all_chances.value
    labels = [label for label, _ in lab.type_buttons.options]
    assert "Animal + Color" in labels


def test_hidden_exact_chances_until_the_guess():
    lab = IdentificationLab(seed=4)
    lab.show_exact.value = False
    assert "safari-prob-cell" not in lab.all_chances.value and "hidden" in lab.prob.value
    assert lab.table.notes == {}


def test_stable_hooks_for_a_browser_test():
    lab = IdentificationLab(seed=4)
    assert {"safari-lab", "safari-identification-lab"} <= classes(lab.layout)
    assert lab.identify_button.description == "Identify"
    assert lab.another_button.description == "Reveal another"
    assert lab.reveal_button.description == "Reveal"
    assert lab.next_button.description == "Next turn"
    assert "safari-types" in classes(lab.type_buttons) and "safari-guess" in classes(lab.guess_box)
    for w in (lab.tally, lab.log_html, lab.status):
        assert classes(w) & {"safari-tally", "safari-log", "safari-status"}
    import safari_kit.widgets.labs.identification as mod

    assert "safari-prob" in mod.__doc__ and "data-key" in mod.__doc__


def test_brier():
    assert brier([]) is None
    assert brier([(1, True), (0, False)]) == 0
    assert brier([(0.5, True), (0.5, False)]) == 0.25


# ----------------------------------------------------------------------------- Challenge lab (issue 12)
def lab_knowledge(lab):
    return Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)


def exact(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def choice_cell(lab, choice: str) -> str:
    m = re.search(rf"<tr data-choice='{choice}'>.*?</tr>", lab.decide.value)
    assert m, lab.decide.value
    return m.group(0)


def test_challenge_lab_opens_on_the_choice_with_both_expected_values():
    lab = ChallengeLab()
    assert lab.errors == [] and lab.choosing and not lab.in_challenge
    assert lab.start_position == CP.DEFAULT_POSITION and lab.seed == CP.DEFAULT_POSITION.seed
    kn = lab_knowledge(lab)
    ident, chal = PW.identify_value(kn).value, PW.challenge_value(kn, kn.clue[0]).value
    assert lab.choice_values == {"identify": ident, "challenge": chal}
    assert exact(ident) in choice_cell(lab, "identify") and exact(chal) in choice_cell(lab, "challenge")
    assert "Expected cards archived" in lab.decide.value
    # never forced: both choices open, nothing else
    assert not lab.identify_button.disabled and not lab.challenge_button.disabled
    assert lab.stop_button.disabled and lab.next_button.disabled and lab.table.selectable == []
    assert "safari-memory" in lab.prob.value  # what the learner remembers is on the page
    assert_no_leak(lab)


@pytest.mark.parametrize("key", [p.key for p in CP.POSITIONS])
def test_positions_replay_by_play_and_satisfy_their_sentence(key):
    pos = CP.position(key)
    game, state, seats = CP.reach(pos)
    assert len(state.history) > 0 or pos.turns == 0  # the engine played the turns: no hand-made state
    CP.to_decision(state, seats, pos.learner)
    f = CP.facts(state, pos.learner)
    claims = dict(pos.claims)
    better = claims.pop("better")
    clue_name = claims.pop("clue_name", None)
    for k, v in claims.items():
        assert f[k] == v, (key, k, f[k], v)
        assert str(v) in pos.why  # the sentence says it
    assert (f["challenge"] > f["identify"]) == (better == "challenge"), (key, f)
    if clue_name:
        assert game.cards[state.clue[0]].name == clue_name
    if key == "fresh":  # the figure: P(4 safe) on a fresh table, TAM Elephant
        assert f["p4_fresh"] == Fraction(31465, 1150626) and "31465/1150626" in pos.why
    # the lab reaches the same position and shows the sentence and the facts
    lab = ChallengeLab(position=key)
    assert lab.errors == [] and lab.choosing
    assert lab.first_facts == f
    assert html_text(pos.why) in lab.why.value
    assert f"{f['face_down']} face-down places" in lab.why.value
    assert lab.state.observation(lab.learner).to_dict() == state.observation(pos.learner).to_dict()
    assert_no_leak(lab)


def html_text(text: str) -> str:
    import html

    return html.escape(text)


def test_position_chooser_switches_and_other_seeds_say_so():
    lab = ChallengeLab()
    lab.position_box.value = "fresh"
    assert lab.start_position.key == "fresh" and lab.seed == CP.position("fresh").seed
    assert lab.errors == [] and lab.choosing and len(lab.state.face_down_places()) == 4
    lab.reset(5)  # the same recipe, another deal: the stored sentence is not claimed for it
    assert lab.errors == [] and "new deal of this kind" in lab.why.value
    assert CP.position("fresh").why[:20] not in lab.why.value


def test_identify_plays_the_best_declaration_and_reports_the_choice():
    lab = ChallengeLab(position="identify-sure")
    kn = lab_knowledge(lab)
    place, types, p = PW.best_declaration(kn)
    assert p.value == 1  # a remembered match
    lab.identify_button.click()
    assert lab.errors == [] and not lab.choosing
    (h,) = lab.history
    assert h["kind"] == "identify" and h["identify"]["place"] == place and h["identify"]["types"] == types
    assert h["archived"] == 2 and h["how"] == "identified" and h["better"] == "identify"
    assert "the larger one" in lab.summary.value and not lab.next_button.disabled
    assert lab.identify_button.disabled and lab.challenge_button.disabled
    assert_no_leak(lab)


def play_optimally(lab, record=None) -> None:
    """One learner turn by the lab's optimal policy, through the lab's buttons and table clicks."""
    kn = lab_knowledge(lab)
    if CP.lab_choice(kn) == "identify":
        lab.identify_button.click()
        return
    lab.challenge_button.click()
    while lab.in_challenge:
        if record is not None and lab.decision_now:
            record.add(id(lab.history))
            assert not lab.stop_button.disabled and "safari-decision-now" in lab.decide.value
            assert "Decide: Stop now, or reveal one more?" in lab.decide.value
        d = PW.challenge_decision(lab_knowledge(lab))
        if d[0] == "reveal":
            click_place(lab, d[1])
        else:
            lab.stop_button.click()


def test_default_position_reaches_stop_in_many_seeds_with_the_optimal_policy():
    reached, challenges = 0, 0
    for seed in range(12):
        lab = ChallengeLab(seed=seed)
        for _ in range(3):  # the first three turns of each deal
            through_failures(lab, lab.next_button)
            if lab.state.is_terminal():
                break
            record: set = set()
            play_optimally(lab, record)
            assert lab.errors == []
            if lab.history[-1]["kind"] == "challenge":
                challenges += 1
                reached += bool(record)
            lab.next_button.click()
    assert challenges >= 10
    assert reached / challenges >= 0.5, (reached, challenges)


def test_default_position_itself_reaches_the_decision_and_the_rule_says_stop_at_six():
    lab = ChallengeLab()
    record: set = set()
    play_optimally(lab, record)
    (h,) = lab.history
    assert record and h["kind"] == "challenge" and h["how"] == "stop" and h["archived"] == 6
    assert [st.action for st in h["steps"]] == ["continue"] * 5 + ["stop"] and all(st.agrees for st in h["steps"])
    f = lab.first_facts  # the last reveal draws from the unknown cards alone: P = safe unknown / unknown
    p_next = Fraction(f["safe_unknown"], f["unknown_cards"])
    assert h["steps"][-1].p_next == p_next and h["steps"][-1].threshold == Fraction(6, 7)
    said = f"{f['safe_unknown']}/{f['unknown_cards']}"  # the sentence states it (count first, then reduced)
    if p_next.denominator != f["unknown_cards"]:
        said += f" = {p_next.numerator}/{p_next.denominator}"
    assert f"{said} ≈ {float(p_next):.2f}" in lab.start_position.why


def test_decision_share_counts_challenges():
    r = CP.decision_share(range(3))
    assert r["challenges"] >= 1 and 0 <= r["decision_came_up"] <= r["challenges"]


def scripted_challenge(safe_first: int):
    """A recipe (no turns played) whose learner clue is challenged against ``safe_first`` safe places."""
    game = WitnessGame(players=2)
    state = game.new_initial_state(seed=11)
    learner = state.first_player
    clue = next(i for i, c in enumerate(game.cards) if c.name == "TAM")
    safe = [i for i in range(len(game.cards)) if i != clue and i not in game.unsafe[clue]]
    unsafe = sorted(game.unsafe[clue])
    places = safe[:safe_first] + unsafe[:4 - safe_first]
    order = [game.cards[i].id for i in places + [clue]]
    pos = CP.Position("scripted", "Scripted", "", seed=11, players=2, learner=learner, turns=0)
    return pos, order


def test_challenge_numbers_are_exact_at_every_reveal():
    pos, order = scripted_challenge(4)
    lab = ChallengeLab(position=pos, deck_order=order)
    lab.challenge_button.click()
    assert lab.in_challenge and lab.state.safe == 0
    assert {t["id"] for t in lab.table.selectable} == set(lab.state.face_down_places())
    S, N = lab.position()["pos"]["a"], lab.position()["pos"]["n"]
    for k in range(4):
        assert lab.stop_button.disabled and not lab.decision_now
        kn = lab_knowledge(lab)
        before = lab.position()
        assert before["p_next"] == Fraction(S - k, N - k) == PW.p_safe_next(kn).value
        assert exact(before["p_next"]) in lab.prob.value
        for j in (1, 2):
            if j <= 4 - k:
                assert exact(PW.p_streak(kn, j).value) in lab.prob.value
        assert "n/(n+1)" in lab.decide.value and f"n = {1 + k}" in lab.decide.value
        click_place(lab, lab.state.face_down_places()[0])
        assert lab.state.safe == k + 1
    assert not lab.stop_button.disabled  # 4 safe (and no place left: Stop is the only move, not a decision)
    assert not lab.decision_now
    lab.stop_button.click()
    assert lab.errors == [] and not lab.in_challenge
    (done,) = lab.history
    assert done["archived"] == 5 and done["how"] == "stop"
    assert [st.action for st in done["steps"]] == ["continue"] * 4 + ["stop"]
    assert all(st.agrees for st in done["steps"])
    assert lab.state.archives[pos.learner] and len(lab.state.archives[pos.learner]) == 5
    assert done["optimal_value"] == PW.challenge_dp(0, S, N, 4)


def test_n_column_is_labelled_cards_archived_if_you_stop_now():
    pos, order = scripted_challenge(4)
    lab = ChallengeLab(position=pos, deck_order=order)
    lab.challenge_button.click()
    for _ in range(4):
        click_place(lab, lab.state.face_down_places()[0])
    lab.stop_button.click()
    summary = lab.summary.value
    assert re.search(rf"<th[^>]*>{re.escape(STOP_COLUMN)}</th>", summary)
    assert STOP_COLUMN == "n = cards archived if you stop now"
    assert "Safe so far" in summary and "n/(n+1)" in summary
    rows = re.findall(r"<tr class='safari-step'[^>]*>(.*?)</tr>", summary)
    for k, row in enumerate(rows):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert cells[1] == str(k) and cells[2] == str(k + 1)  # safe so far k, stopping archives k + 1
    assert [st.n_if_stop for st in lab.history[-1]["steps"]] == [1, 2, 3, 4, 5]


def test_challenge_failure_then_next_turn():
    pos, order = scripted_challenge(1)
    lab = ChallengeLab(position=pos, deck_order=order)
    lab.challenge_button.click()
    for _ in range(4):
        if not lab.in_challenge:
            break
        click_place(lab, lab.state.face_down_places()[0])
    assert not lab.in_challenge
    assert lab.history[-1]["archived"] == 0 and lab.history[-1]["how"] == "fail"
    assert not lab.next_button.disabled
    # W5: the failed challenge's cards lie face up on the learner's table until they press on
    assert lab.state.phase == "face_up" and lab.state.current_player == pos.learner
    revealed = {e["card"] for e in lab.state.observation(pos.learner).log if e["kind"] == "challenge_reveal"}
    assert revealed <= set(shown_face_up(lab).values())
    through_failures(lab, lab.next_button)
    assert lab.errors == []
    assert lab.choosing or lab.state.is_terminal()
    assert_no_leak(lab)


def test_challenge_lab_plays_whole_games_no_errors():
    for key in ("stop-or-go", "fresh"):
        lab = ChallengeLab(position=key)
        for turn in range(60):
            through_failures(lab, lab.next_button)
            if lab.state.is_terminal():
                break
            assert lab.choosing
            if turn % 2:
                lab.identify_button.click()
            else:
                lab.challenge_button.click()
                while lab.in_challenge:
                    if not lab.stop_button.disabled:
                        lab.stop_button.click()
                    else:
                        click_place(lab, lab.state.face_down_places()[-1])
                    assert_no_leak(lab)
            assert lab.errors == []
            lab.next_button.click()
        assert lab.errors == [] and lab.state.is_terminal() and "Game over" in lab.decide.value
        assert {h["kind"] for h in lab.history} == {"identify", "challenge"}


def test_challenge_hooks_for_a_browser_test():
    lab = ChallengeLab()
    assert {"safari-lab", "safari-challenge-lab"} <= classes(lab.layout)
    assert [b.description for b in lab.buttons.children] == ["Identify", "Challenge", "Reveal one more", "Stop",
                                                             "Next turn"]
    assert lab.reveal_button.disabled and lab.stop_button.disabled
    assert "safari-prob" in classes(lab.prob) and "safari-summary" in classes(lab.summary)
    assert "safari-decide" in classes(lab.decide) and "safari-position" in classes(lab.position_box)
    import safari_kit.widgets.labs.challenge as mod

    assert "safari-prob" in mod.__doc__ and "Stop" in mod.__doc__ and "safari-choice" in mod.__doc__
    lab.challenge_button.click()
    assert not lab.reveal_button.disabled and lab.stop_button.description == "Stop"


def test_reveal_one_more_reveals_the_safest_place_and_stop_says_how_many():
    lab = ChallengeLab()
    lab.challenge_button.click()
    kn = lab_knowledge(lab)
    remembered_safe = PW.challenge_position(kn)["safe_places"]
    for k in range(4):
        assert lab.safest_place() == remembered_safe[k]  # P(safe) = 1 there
        lab.reveal_button.click()
        assert lab.state.safe == k + 1
    assert lab.decision_now and lab.stop_button.description == "Stop: archive 5"
    lab.reveal_button.click()  # the 5th remembered place: sure
    assert lab.stop_button.description == "Stop: archive 6" and "&rarr; <b>stop</b>" in lab.decide.value
    lab.stop_button.click()
    assert lab.errors == [] and lab.history[-1]["archived"] == 6


# ----------------------------------------------------------------------------- the face-up moment (W4, W5)
def test_w4_identification_lab_shows_the_learners_failed_cards_face_up_until_next_turn():
    lab = IdentificationLab(seed=4, players=3)
    lab.identify_button.click()
    state = lab.state
    miss = next(a for a in state.legal_actions()
                if not any(state.card_at[a.place] in state.game.shares[t][state.game.index[a.clue]] for t in a.types))
    lab.type_buttons.value = miss.types
    click_place(lab, miss.place)
    lab.reveal_button.click()
    assert lab.state.phase == "face_up" and lab.my_turn
    shown = shown_face_up(lab)
    clue = lab.predictions[-1].clue
    assert shown[miss.place] == lab.predictions[-1].card and clue in shown.values()
    assert lab.table.view["remember"] and "remember" in lab.status.value.lower()
    assert not lab.next_button.disabled and lab.identify_button.disabled
    lab.next_button.click()  # the learner has looked: the cards go face down and the bots play
    assert lab.errors == []
    assert lab.state.phase != "face_up" or lab.state.current_player != lab.learner
    assert_no_leak(lab)


def test_w4_identification_lab_pauses_on_each_bot_failure():
    paused = 0
    for seed in range(1, 6):
        lab = IdentificationLab(seed=seed, players=3, bot="random")
        for _ in range(6):
            if lab.state.is_terminal():
                break
            if lab.my_turn and lab.state.phase == "choose":
                lab.identify_button.click()
                lab.type_buttons.value = lab.type_buttons.options[0][1]
                click_place(lab, lab.state.available_places()[0])
                lab.reveal_button.click()
                while lab.my_turn and lab.state.phase == "identify":
                    click_place(lab, lab.state.available_places()[0])
                    lab.reveal_button.click()
            lab.next_button.click()
            while lab.state.phase == "face_up" and not lab.my_turn:
                paused += 1
                bot = lab.state.current_player
                assert f"Player {bot} failed" in lab.status.value and f"Player {bot} failed" in lab.table.message
                assert shown_face_up(lab)  # the bot's revealed cards, on the learner's table
                lab.next_button.click()
        assert lab.errors == []
    assert paused >= 3  # random bots fail often: the lab stopped to show it


def test_headers_offer_only_the_labs_own_choices():
    from safari_kit.widgets.labs import ChallengeLab

    ident = IdentificationLab(seed=4, players=3)
    assert ident.my_turn and ident.state.phase == "choose"
    words = ident.table.view["phase_words"]
    assert "Challenge lab" in words and "or Challenge" not in words and "Identify" in words
    chal = ChallengeLab()
    assert chal.choosing
    words = chal.table.view["phase_words"]
    assert "Identify or Challenge" in words and "reveal another clue," not in words


def test_a_table_shown_as_a_picture_is_not_interactive():
    from safari_kit.widgets import CardTable

    state = IdentificationLab(seed=4).state
    picture = CardTable.for_witness(state, viewer=state.current_player)
    assert picture.interactive is False  # nothing listens: the page draws no live-looking buttons
    picture.on_click(lambda _t: None)
    assert picture.interactive is True


def test_the_log_names_the_clue_card_of_each_declaration():
    from safari_kit.presentation.narration import card_label, describe_event

    lab = IdentificationLab(seed=3, players=2)
    clue = lab.state.card_id(lab.state.clue[0])
    event = {"kind": "identify", "player": 1, "clue": clue, "types": ["animal"], "place": 2,
             "card": clue, "success": False}
    line = describe_event(event, lab.game, 0)
    assert f"of clue card {card_label(lab.game, clue)} at place 2" in line


def test_two_clue_cards_the_lab_says_which_is_identified():
    from safari_kit.witness import actions as A

    for seed in range(1, 40):
        lab = IdentificationLab(seed=seed, players=3)
        if lab.my_turn and lab.state.is_legal(A.RevealAnother()):
            break
    lab.another_button.click()
    assert lab.state.phase == "identify" and lab.errors == []
    panel = lab.prob.value
    assert "Identifying now" in panel and "first of your two clue cards" in panel, panel
    second = lab.state.card_id(lab.state.clue[1])
    lab.table.click = {"kind": "clue", "id": second, "seq": 1}
    assert "second of your two clue cards" in lab.prob.value


def test_ink_is_written_with_a_question_mark_in_the_labs():
    from safari_kit.presentation.views import mugshot_face

    lab = IdentificationLab(seed=1)
    inked = next(c for c in lab.game.cards if "?" in c.name)
    label = mugshot_face(inked)["label"]
    assert f"named {inked.name} (" in label and "*" not in label, label
