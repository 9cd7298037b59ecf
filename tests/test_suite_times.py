"""tools/suite_times.py sums a JUnit XML by tier and file (issue 28: measure the suite before speeding it)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

XML = """<?xml version="1.0"?><testsuites><testsuite name="pytest">
<testcase classname="tests.browser.test_a" name="test_x" time="30.5"/>
<testcase classname="tests.browser.test_b.TestB" name="test_y" time="10"/>
<testcase classname="tests.test_cli_bench" name="test_z" time="2"/>
<testcase classname="safari_kit.cards.model" name="Mugshot" time="0.5"/>
</testsuite></testsuites>"""


def _run(*args):
    return subprocess.run([sys.executable, str(ROOT / "tools" / "suite_times.py"), *args],
                          capture_output=True, text=True, timeout=60)


def test_tiers_and_files_are_summed(tmp_path):
    xml = tmp_path / "junit.xml"
    xml.write_text(XML)
    out = _run(str(xml)).stdout
    assert "4 tests, 43 s in tests" in out
    lines = out.splitlines()
    tiers = lines[lines.index("by tier") + 1:]
    assert "tests/browser" in tiers[0] and "40.5 s" in tiers[0] and "2 tests" in tiers[0]
    assert any("tests/browser/test_b.py" in line and "10.0 s" in line for line in lines)
    assert any("safari_kit/cards/model.py" in line for line in lines)


def test_a_file_that_is_not_junit_says_so(tmp_path):
    bad = tmp_path / "junit.xml"
    bad.write_text("not xml")
    r = _run(str(bad))
    assert r.returncode != 0 and "not a JUnit XML file" in r.stderr and "Traceback" not in r.stderr
