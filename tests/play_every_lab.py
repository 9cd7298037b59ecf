"""Play every lab of the play path to the end from Python, and compute every exact chance those labs show.

Run by ``tests/test_stdlib_play_path.py`` inside a fresh virtual environment
that has the kit, ipywidgets and anywidget but no numpy, pandas or matplotlib
(issue 13, part 1): ``python tests/play_every_lab.py`` prints ``RESULT {...}``
on success and fails with an assertion otherwise. It needs only the standard
library and the kit, so ``python tests/play_every_lab.py --allow-heavy`` also
runs it in the development venv (numpy installed, but still never imported).

The labs are driven the way ``tests/widgets`` drives them: button clicks and
table clicks (``lab.table.click = {...}``), never the engine directly.
"""
from __future__ import annotations

import importlib.util
import json
import random
import sys

HEAVY = ("numpy", "pandas", "matplotlib")


def heavy_loaded() -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)


_seq = iter(range(1, 10**9))


def click_table(lab, kind: str, id_) -> None:
    lab.table.click = {"kind": kind, "id": id_, "seq": next(_seq)}


def witness_chances(lab) -> int:
    """Every exact chance the Witness labs show at this position (the learner's knowledge); returns how many."""
    from safari_kit.probability import witness as PW
    from safari_kit.probability.knowledge import Knowledge, Memory

    obs = lab.state.observation(lab.learner)
    n = 0
    for memory in (None, Memory(last_k=0)):
        kn = Knowledge.from_observation(obs, memory, game=lab.game) if memory else \
            Knowledge.from_observation(obs, game=lab.game)
        if not kn.clue:
            continue
        for place in kn.available:
            for types in PW._type_choices(kn):
                PW.p_match(kn, kn.clue[0], place, types)
                n += 1
        PW.choice_values(kn, with_reveal_another=True)
        PW.best_declaration(kn)
        if len(kn.unresolved) >= 2:
            PW.best_two_clue_plan(kn, kn.unresolved[0], kn.unresolved[1])
        if kn.face_down:
            PW.challenge_position(kn, kn.clue[0])
            PW.challenge_value(kn, kn.clue[0])
            PW.p_streak(kn, PW.MIN_SAFE, kn.clue[0])
            n += 3
    return n


def through_failures(lab) -> None:
    while lab.state.phase == "face_up" and not lab.next_button.disabled:
        lab.next_button.click()


def identification(report: dict) -> None:
    from safari_kit.widgets.labs import IdentificationLab

    for bot in ("greedy", "random"):
        lab = IdentificationLab(seed=5, players=3, bot=bot)
        chances = 0
        for _ in range(400):
            through_failures(lab)  # a bot's failed turn lies face up until the learner goes on
            if lab.state.is_terminal():
                break
            assert lab.my_turn, "the bots hand the turn back"
            chances += witness_chances(lab)
            (lab.identify_button if lab.another_button.disabled or lab.state.turn % 2 else lab.another_button).click()
            while lab.my_turn and lab.state.phase == "identify":
                lab.type_buttons.value = lab.type_buttons.options[0][1]
                click_table(lab, "place", lab.state.available_places()[-1])
                lab.guess_box.value = "0.3"
                lab.reveal_button.click()
            through_failures(lab)
            if not lab.my_turn and not lab.state.is_terminal():
                lab.next_button.click()
            through_failures(lab)
        assert lab.state.is_terminal(), "the Identification game ended"
        assert lab.errors == [], lab.errors
        assert lab.predictions and all(p.exact is not None for p in lab.predictions)
        report[f"identification-{bot}"] = {"turns": lab.state.turn, "predictions": len(lab.predictions),
                                           "chances": chances}


def challenge(report: dict) -> None:
    from safari_kit.probability import witness as PW
    from safari_kit.probability.knowledge import Knowledge
    from safari_kit.simulation import challenge_positions as CP
    from safari_kit.widgets.labs import ChallengeLab

    for pos in CP.POSITIONS:
        lab = ChallengeLab(position=pos.key)
        assert lab.errors == [] and lab.choosing, (pos.key, lab.errors)
        turns = decisions = 0
        for _ in range(300):
            through_failures(lab)
            if lab.state.is_terminal():
                break
            witness_chances(lab)
            kn = Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)
            if CP.lab_choice(kn) == "identify":
                lab.identify_button.click()
            else:
                lab.challenge_button.click()
                while lab.in_challenge:
                    decisions += bool(lab.decision_now)
                    d = PW.challenge_decision(Knowledge.from_observation(lab.state.observation(lab.learner),
                                                                         game=lab.game))
                    if d[0] == "reveal":
                        click_table(lab, "place", d[1])
                    else:
                        lab.stop_button.click()
            assert lab.errors == [], (pos.key, lab.errors)
            turns += 1
            lab.next_button.click()
        assert lab.state.is_terminal(), f"the Challenge game from {pos.key!r} ended"
        assert lab.errors == [], (pos.key, lab.errors)
        report[f"challenge-{pos.key}"] = {"learner_turns": turns, "decisions": decisions}


def knockout(report: dict) -> None:
    from safari_kit.probability import knockout as PK
    from safari_kit.widgets.labs import KnockoutLab

    rng = random.Random(0)
    for seed, elimination in ((3, False), (4, True)):
        lab = KnockoutLab(seed=seed, elimination=elimination)
        decisions = chances = 0
        for _ in range(400):
            if lab.state.is_terminal():
                break
            if lab.learner in lab.state.out:
                lab.end_round_button.click()
                continue
            assert lab.state.current_player == lab.learner
            obs = lab.state.observation(lab.learner)
            view = PK.view_of(obs)
            for card in obs.hand:
                for item in (lab.game.items if not obs.trick else (obs.item,)):
                    PK.win_count(lab.game, view, card, item)
                    (PK.p_win_leading if not obs.trick else PK.p_win_following)(lab.game, view, card, item)
                    chances += 1
            PK.expected_turns_won(lab.game, view)
            PK.best_fixed_plan(lab.game, view)
            best = lab.best
            if rng.random() < 0.5:
                card, item = best.action.card, best.action.item
            else:
                card = rng.choice(obs.hand)
                item = rng.choice(lab.game.items) if not obs.trick else None
            n = len(lab.history)
            if not obs.trick:
                click_table(lab, "item", item)  # in any order: picks, played by the Play button
                click_table(lab, "card", card)
            else:
                click_table(lab, "card", card)
            assert len(lab.history) == n, "a click only picks"
            lab.play_button.click()
            assert len(lab.history) > n, "the learner's play went through"
            assert lab.paused or lab.state.is_terminal(), "the finished turn is shown"
            lab.next_button.click()
            decisions += 1
        assert lab.state.is_terminal(), "the Knockout game ended"
        assert lab.errors == [], lab.errors
        report[f"knockout-{seed}"] = {"decisions": decisions, "chances": chances,
                                      "scores": list(lab.state.scores())}


def _clicks(action) -> list:
    from safari_kit.witness import actions as A

    simple = {A.Identify: "identify", A.RevealAnother: "reveal_another", A.Challenge: "challenge",
              A.StopChallenge: "stop", A.EndTurn: "end_turn", A.AlanDone: "alan_done", A.UseAlan: "use:ALAN",
              A.TurnFaceDown: "face_down"}
    if type(action) in simple:
        return [("button", simple[type(action)])]

    def spot(s: str):
        return ("place", int(s[1:])) if s[0] == "U" else ("archive", s)

    return {
        A.Declare: lambda a: [("clue", a.clue), ("button", "type:" + "+".join(a.types)), ("place", a.place)],
        A.RevealNext: lambda a: [("place", a.place)],
        A.ArchiveCard: lambda a: [("card", a.card)],
        A.AlanTake: lambda a: [("card", a.card)],
        A.UseTom: lambda a: [("button", "use:TOM"), ("place", a.place)],
        A.UseSam: lambda a: [("button", "use:SAM"), ("place", a.second), ("place", a.first)],
        A.UseTam: lambda a: [("button", "use:TAM"), spot(a.second), spot(a.first)],
        A.UseKim: lambda a: [("button", "use:KIM"), ("card", a.card)],
        A.UseKris: lambda a: [("button", "use:KRIS"), ("kris", a.element), ("place", a.place)],
    }[type(action)](action)


def fullgame(report: dict) -> None:
    from safari_kit.widgets.labs import FullGameLab

    rng = random.Random(1)
    for name, kwargs in (("basic", dict(seed=4, players=3, bots="greedy")),
                         ("advanced", dict(seed=6, players=3, advanced=True, case_module=True, bots="random"))):
        lab = FullGameLab(humans=(0,), **kwargs)
        actions = 0
        for _ in range(4000):
            if lab.state.is_terminal():
                break
            assert lab.errors == [], lab.errors
            if lab._pause is not None:
                lab.go_on()
                continue
            if lab.viewer != lab.state.current_player:
                lab.confirm_button.click()
            legal = lab.state.legal_actions()
            action = rng.choice(legal)
            before = len(lab.state.history)
            for kind, id_ in _clicks(action):
                if kind == "kris":
                    lab.kris_box.value = id_
                else:
                    lab.click(kind, id_)
            assert lab.state.history[before] == action, (action, lab.state.history[before:])
            actions += 1
        assert lab.state.is_terminal(), f"the Full game ({name}) ended"
        assert lab.errors == [], lab.errors
        assert "Game over" in lab.over.value
        report[f"fullgame-{name}"] = {"learner_actions": actions, "scores": list(lab.state.returns())}


def tutorial(report: dict) -> None:
    from safari_kit.widgets.labs import RulesTutorial

    for game in ("witness", "knockout"):
        lab = RulesTutorial(game)
        for _ in range(lab.steps - 1):
            lab.next_button.click()
        assert lab.step == lab.steps - 1 and lab.next_button.disabled
        report[f"tutorial-{game}"] = {"steps": lab.steps}


def app(report: dict) -> None:
    from safari_kit.widgets.app import LABS, LabChooser

    opened = []
    for entry in LABS:
        if entry.cls == "SimulationLab":  # numpy's place (issue 13): not on the play path
            continue
        chooser = LabChooser(seed=4, class_seed="on")  # a class seed is offered only when the server says so
        lab = chooser.open(entry.game, entry.title, 7)
        assert chooser.errors == [] and lab.errors == [], (entry, chooser.errors, lab.errors)
        opened.append(f"{entry.game}: {entry.title}")
    report["app"] = opened
    if importlib.util.find_spec("numpy") is None:  # the Simulation lab says in one sentence what it needs
        chooser = LabChooser(seed=4)
        assert chooser.open("Safari Witness", "Simulation") is None and chooser.errors == [], chooser.errors
        said = chooser.stage.children[0].value
        assert "needs numpy" in said and "every other lab works" in said.lower(), said
        report["simulation_without_numpy"] = said


def main() -> dict:
    for name in HEAVY:
        if importlib.util.find_spec(name) is not None and "--allow-heavy" not in sys.argv:
            raise AssertionError(f"{name} is importable here: this script proves the play path runs without it "
                                 "(pass --allow-heavy to run it where it is installed)")
    import safari_kit

    report: dict = {"python": sys.version.split()[0], "kit": safari_kit.__file__}
    for part in (identification, challenge, knockout, fullgame, tutorial, app):
        part(report)
    loaded = heavy_loaded()
    assert not loaded, f"the play path imported {loaded}"
    report["heavy_modules"] = loaded
    return report


if __name__ == "__main__":
    print("RESULT " + json.dumps(main()))
