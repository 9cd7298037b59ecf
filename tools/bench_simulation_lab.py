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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
