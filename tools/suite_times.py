"""Where `make test`'s time goes: the JUnit XML it keeps (test-artifacts/junit.xml), summed by tier.

Issue 28 asks to measure before making the suite faster. `make test` writes the XML (pytest
``--junitxml``) and prints pytest's 40 slowest steps (``--durations``); this prints the seconds per
test file and per folder (a "tier": tests/browser, tests/notebooks, ...), largest first, so a change's
effect on each tier can be compared run to run.

    python tools/suite_times.py                 # test-artifacts/junit.xml
    python tools/suite_times.py other.xml --files 30
    python tools/suite_times.py --write-durations tests/suite_durations.json   # after a CI run
    python tools/suite_times.py --cpu test-artifacts/cpu_times-*.json   # after PYTEST_ARGS="-p tests.cpu_times"

``--write-durations`` keeps each test file's seconds (rounded) in a JSON file the suite reads to hand the
slowest files to pytest-xdist's workers first (tests/conftest.py): the longest job last would leave one
worker idle while the other finishes it.
"""
from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path


def times(path: Path) -> tuple[Counter, Counter, Counter]:
    """Seconds per test file and per tier, and the count of tests per tier, from a JUnit XML file."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise SystemExit(f"{path}: not a JUnit XML file pytest wrote ({e})") from None
    per_file, per_tier, count = Counter(), Counter(), Counter()
    for case in root.iter("testcase"):
        name = case.get("classname", "")
        parts = name.split(".")
        # "tests.browser.test_x" -> file tests/browser/test_x.py; doctests: "safari_kit.cards.model" -> the module
        module = [p for p in parts if not p[:1].isupper()]
        file = "/".join(module) + ".py" if module else name
        if module and module[0] == "tests" and len(module) > 2:
            tier = "/".join(module[:2])
        else:
            tier = module[0] if module else "?"
        seconds = float(case.get("time", 0) or 0)
        per_file[file] += seconds
        per_tier[tier] += seconds
        count[tier] += 1
    return per_file, per_tier, count


def cpu_report(paths: list[Path], files: int) -> int:
    """CPU seconds by tier and file, from the files ``-p tests.cpu_times`` writes (one per xdist worker)."""
    import json

    per_file, per_tier = Counter(), Counter()
    for path in paths:
        try:
            seconds = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise SystemExit(f"{path}: not a file tests/cpu_times.py wrote ({e})") from None
        for nodeid, s in seconds.items():
            file = nodeid.split("::")[0]
            parts = file.split("/")
            per_file[file] += s
            per_tier["/".join(parts[:2]) if parts[0] == "tests" and len(parts) > 2 else parts[0]] += s
    total = sum(per_tier.values())
    print(f"{len(paths)} file(s): {total:.0f} CPU-s in tests (setup and teardown included)\n\nby tier")
    for tier, s in per_tier.most_common():
        print(f"  {s:8.1f} CPU-s  {100 * s / max(total, 1e-9):5.1f} %  {tier}")
    print(f"\nthe {files} costliest files")
    for file, s in per_file.most_common(files):
        print(f"  {s:8.1f} CPU-s  {file}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xml", nargs="?", default="test-artifacts/junit.xml", type=Path)
    parser.add_argument("--files", type=int, default=20, help="how many of the slowest files to list (default 20)")
    parser.add_argument("--write-durations", type=Path, metavar="JSON",
                        help="also write each test file's seconds to this JSON file (tests/suite_durations.json)")
    parser.add_argument("--cpu", nargs="+", type=Path, metavar="JSON",
                        help="CPU seconds per test (tests/cpu_times.py's files) instead of the XML's wall seconds")
    args = parser.parse_args(argv)
    if args.cpu:
        return cpu_report(args.cpu, args.files)
    per_file, per_tier, count = times(args.xml)
    if args.write_durations:
        kept = {f: round(s, 1) for f, s in sorted(per_file.items()) if f.startswith("tests/")}
        args.write_durations.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(kept)} files' seconds to {args.write_durations}")
    total = sum(per_tier.values())
    print(f"{args.xml}: {sum(count.values())} tests, {total:.0f} s in tests (setup and teardown included)")
    print("\nby tier")
    for tier, s in per_tier.most_common():
        print(f"  {s:8.1f} s  {100 * s / max(total, 1e-9):5.1f} %  {count[tier]:5d} tests  {tier}")
    print(f"\nthe {args.files} slowest files")
    for file, s in per_file.most_common(args.files):
        print(f"  {s:8.1f} s  {file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
