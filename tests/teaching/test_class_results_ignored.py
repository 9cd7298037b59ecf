"""Issue 26: the results folder the docs suggest (``--results class-results``) is inside the checkout and holds
nicknames: git ignores it, so a `git add` of the checkout never commits a class's records."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and the checkout")
def test_every_results_folder_the_docs_suggest_is_git_ignored():
    docs = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    folders = set(re.findall(r"--results[ =]([A-Za-z0-9_.-]+)", docs))
    folders |= set(re.findall(r"results (?:wipe|export) ([A-Za-z0-9_.-]+) ", docs))
    folders -= {"FOLDER"}
    assert "class-results" in folders
    for folder in folders:
        for name in ("2026-12-04-1905.sqlite3", "2026-12-04-1905.sqlite3-wal", "7b.sqlite3.server", "class.csv"):
            done = subprocess.run(["git", "check-ignore", "-q", f"{folder}/{name}"], cwd=ROOT)
            assert done.returncode == 0, f"{folder}/{name} is not git-ignored"
