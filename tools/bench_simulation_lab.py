"""How long each Simulation-lab action takes in the kernel (prints figures; asserts nothing).

    .venv/bin/python tools/bench_simulation_lab.py            # the lab in the tree
    git show <commit>:safari_kit/widgets/labs/simulation.py > /tmp/old_sim.py
    .venv/bin/python tools/bench_simulation_lab.py --lab-file /tmp/old_sim.py   # an older lab, same figures

Each action is called the way its button's click calls it, in this process,
timed with ``time.perf_counter``; the median of ``--repeat`` calls after a
warm-up. Targets: Simulate ≤ 0.5 s; every other action ≤ 2 s, or it disables
its button and shows progress (the lab's tournaments do). This is the kernel's
share of a click; the browser adds the round trip and the drawing of the
result (tests/browser/test_simulation_browser.py measures that).

The tournament section (``--tournaments``, on by default; ``--quick`` leaves out
the 500-game ones) times one press of each line-up and Reset, and for each the
longest stretch without a visible change: between the click and the first
progress step, between steps, and from the last step to the end ("gap"). An
action over 2 s is fine when its buttons are disabled and its gap stays under
2 s (the bar moves).
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load_lab(path: str | None):
    if not path:
        from safari_kit.widgets.labs import simulation
        return simulation
    spec = importlib.util.spec_from_file_location("bench_simulation_lab_module", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def timed(fn, repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lab-file", help="a simulation.py to load instead of the installed lab")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-tournaments", dest="tournaments", action="store_false",
                    help="leave out the tournament and Reset section")
    ap.add_argument("--quick", action="store_true", help="tournament section without the 500-game line-ups")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    mod = load_lab(args.lab_file)
    lab = mod.SimulationLab(seed=1)
    built = time.perf_counter() - t0
    rows = [("build the lab (imports, questions, first run, round, tournament)", built, None)]
    for key in ("identify-animal", "challenge-4", "case-colors", "knockout-lead"):
        lab.question_box.value = key
        for n in (1_000, 100_000):
            lab.trials_slider.value = n
            rows.append((f"Simulate {key}, N = {n:,}", timed(lab.run_button.click, args.repeat), 0.5))
    lab.question_box.value = "identify-animal"
    lab.trials_slider.value = 1_000
    rows.append(("Run the intervals, 100 x 100 trials", timed(lab.cov_button.click, args.repeat), 2.0))
    lab.cov_size.value, lab.cov_count.value = 1_000, 200
    rows.append(("Run the intervals, 200 x 1,000 trials", timed(lab.cov_button.click, args.repeat), 2.0))
    lab.cov_size.value, lab.cov_count.value = 100, 100
    if hasattr(lab, "pool_box"):
        rows.append(("Pool my runs (toggle)", timed(lambda: setattr(lab.pool_box, "value", not lab.pool_box.value),
                                                    args.repeat), 0.5))
    keys = list(lab.question_box.options)
    i = [0]

    def next_question():
        i[0] += 1
        lab.question_box.value = keys[i[0] % len(keys)][1]

    rows.append(("change the question (a run and a round)", timed(next_question, args.repeat), 2.0))
    rows.append(("Run tournament, 100 Knockout games (progress bar)", timed(lab.tour_button.click, 2), None))
    rows.append(("Reset (questions, run, round, tournament)", timed(lab.reset_button.click, 2), None))
    if lab.errors:
        print("lab errors:", lab.errors)
    print(f"Simulation lab: {args.lab_file or 'safari_kit/widgets/labs/simulation.py'}  "
          f"(median of {args.repeat}; seconds in the kernel)")
    for label, secs, target in rows:
        mark = "" if target is None else ("  ok" if secs <= target else f"  OVER {target} s")
        print(f"  {label:62s} {secs:7.3f} s{mark}")
    if args.tournaments:
        tournaments(mod, quick=args.quick)
    return 0


LINEUPS = [  # (game, bots, games): the lab's defaults, then the largest the sliders allow
    ("knockout", "greedy,random,highcard", 100),
    ("witness", "greedy,random,memory:0.5", 30),
    ("knockout", "greedy,random,highcard,highcard:best,random", 500),
    ("witness", "greedy,random,memory:0.5,memory:0.25,memory:0.75", 100),
    ("witness", "greedy,random,memory:0.5,memory:0.25,memory:0.75", 500),
]


def watch(lab):
    """Time one call: (seconds, longest gap without a visible change, buttons disabled at every step)."""
    marks: list[float] = []
    disabled: list[bool] = []
    buttons = [lab.run_button, lab.cov_button, lab.tour_button, lab.reset_button]

    def seen(_change=None):
        marks.append(time.perf_counter())
        disabled.append(all(b.disabled for b in buttons))

    bars = [lab.progress.bar] + ([lab.reset_progress.bar] if hasattr(lab, "reset_progress") else [])
    for bar in bars:
        bar.observe(seen, names="value")

    def run(fn):
        marks.clear()
        disabled.clear()
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        stamps = [t0, *marks, t1]
        gap = max(b - a for a, b in zip(stamps, stamps[1:]))
        return t1 - t0, gap, (all(disabled) if disabled else None), len(marks)

    return run


def tournaments(mod, quick: bool = False) -> None:
    lab = mod.SimulationLab(seed=1)
    run = watch(lab)
    print("\nTournaments and Reset: one press each (seconds in the kernel; gap = longest wait without a visible "
          "change; target: <= 2 s, or buttons off and gap <= 2 s)")
    for game, bots, games in LINEUPS:
        if quick and games >= 500:
            continue
        lab.run_tournament(game=game, bots=bots, games=10)  # the line-up's widgets, then the press timed
        lab.games_slider.value = games
        for press in ("first press", "next press"):
            secs, gap, off, steps = run(lab.tour_button.click)
            verdict = "ok" if secs <= 2 or (off and gap <= 2) else "TOO LONG WITHOUT PROGRESS"
            label = f"{game} {len(bots.split(','))} players, {games} games, {press}"
            print(f"  {label:62s} {secs:7.3f} s  gap {gap:5.2f} s  {steps:3d} steps  buttons off: {off}  {verdict}")
        for what, seed in (("Reset at the same seed (run 1 kept)", lab.seed), ("Reset to a new seed (replays)",
                                                                                 lab.seed + 1)):
            secs, gap, off, steps = run(lambda s=seed: lab.reset(s))
            verdict = "ok" if secs <= 2 or (off and gap <= 2) else "TOO LONG WITHOUT PROGRESS"
            print(f"    {what:60s} {secs:7.3f} s  gap {gap:5.2f} s  {steps:3d} steps  buttons off: {off}  {verdict}")
    if lab.errors:
        print("lab errors:", lab.errors)


if __name__ == "__main__":
    raise SystemExit(main())
