"""What "reveal another" costs on the Simulation lab's positions (prints figures; asserts nothing but equality).

    .venv/bin/python tools/bench_reveal_another.py            # 3 passes
    .venv/bin/python tools/bench_reveal_another.py --repeat 5

Builds the Simulation lab once (``LabChooser().entries()``, title Simulation,
``build(seed=5, fair=True)``) and keeps every position its reset tournament asks
``reveal_another_value`` about. Then, in this process, CPU time
(``time.process_time``) of one pass over those positions with

* ``reveal_another_value`` (the search of safari_kit/probability/two_clues.py), and
* ``reveal_another_value_reference`` (one ``best_two_clue_plan`` per second clue: the code before),

checking that both give the same fraction at every position. Also the lab's
build CPU in this process, cold (first build, imports included) and warm.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    from safari_kit.probability import witness as W
    from safari_kit.widgets.app import LabChooser

    entry = next(e for e in LabChooser().entries() if e.title == "Simulation")
    positions = []
    fast = W.reveal_another_value

    def spy(kn):
        positions.append(kn)
        return fast(kn)

    W.reveal_another_value = spy  # the bots call it as W.reveal_another_value (via choice_values)
    try:
        t0 = time.process_time()
        entry.build(seed=5, fair=True)
        cold = time.process_time() - t0
    finally:
        W.reveal_another_value = fast
    t0 = time.process_time()
    entry.build(seed=5, fair=True)
    warm = time.process_time() - t0
    print(f"Simulation lab build CPU: cold {cold:.3f} s, warm {warm:.3f} s; "
          f"{len(positions)} reveal-another positions, {sum(len(kn.pool) for kn in positions)} second clues")
    for name, f in (("reveal_another_value", W.reveal_another_value),
                    ("reveal_another_value_reference", W.reveal_another_value_reference)):
        passes = []
        for _ in range(args.repeat):
            t0 = time.process_time()
            for kn in positions:
                f(kn)
            passes.append(time.process_time() - t0)
        best = min(passes)
        print(f"{name:32s} CPU per pass {' '.join(f'{p:.3f}' for p in passes)} s; "
              f"per call {best / len(positions) * 1e6:.0f} µs (best pass)")
    same = all(W.reveal_another_value(kn).value == W.reveal_another_value_reference(kn).value for kn in positions)
    print("same fractions at every position:", same)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
