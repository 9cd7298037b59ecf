"""Working copies of the lessons (safari_kit/authoring/workspace.py; ``safari-kit lessons``, ``make lab``)."""
from __future__ import annotations

import json
import shutil

from safari_kit.cli import main
from safari_kit.authoring.workspace import MANIFEST, SOURCE, kernel_metadata, sync_copies

META = {"kernelspec": {"display_name": "K", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "version": "3.x"}}


def _lessons(tmp_path):
    """A small source folder: two lessons (texts and notebooks) and the docs they link to."""
    src = tmp_path / "kit" / "notebooks"
    src.mkdir(parents=True)
    for name in ("00-start-here", "07-rules-tutorial"):
        for ext in (".md", ".ipynb"):
            shutil.copy(SOURCE / f"{name}{ext}", src / f"{name}{ext}")
    shutil.copytree(SOURCE.parent / "docs", tmp_path / "kit" / "docs")
    return src


def _read(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_copy_is_the_lesson_as_jupyterlab_saves_it_here(tmp_path):
    src = _lessons(tmp_path)
    done = sync_copies(src, tmp_path / "mine", metadata=META)
    assert [c.action for c in done] == ["new", "new"]
    copy = _read(tmp_path / "mine" / "07-rules-tutorial.ipynb")
    assert copy["metadata"]["kernelspec"] == META["kernelspec"]
    assert copy["metadata"]["language_info"] == META["language_info"]
    assert "jupytext" not in copy["metadata"]  # no pairing: saving writes no .md beside it
    assert all(c.get("outputs", []) == [] for c in copy["cells"])
    text = "".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "markdown")
    assert "](docs/rules.md" in text and "](../docs/" not in text
    assert (tmp_path / "mine" / "docs" / "rules.md").is_file()
    assert (tmp_path / "mine" / "docs" / "img" / "card-back.png").is_file()
    assert not list((tmp_path / "mine").glob("*.md"))


def test_ran_copies_are_updated_and_edited_copies_kept(tmp_path):
    src, mine = _lessons(tmp_path), tmp_path / "mine"
    sync_copies(src, mine, metadata=META)
    ran = _read(mine / "00-start-here.ipynb")  # run and saved: outputs, same cells
    for cell in ran["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x\n"}]
    (mine / "00-start-here.ipynb").write_text(json.dumps(ran))
    edited = _read(mine / "07-rules-tutorial.ipynb")
    edited["cells"][0]["source"] = "mine"
    (mine / "07-rules-tutorial.ipynb").write_text(json.dumps(edited))
    assert [c.action for c in sync_copies(src, mine, metadata=META)] == ["unchanged", "kept"]
    for name in ("00-start-here", "07-rules-tutorial"):  # a newer kit
        text = src / f"{name}.md"
        text.write_text(text.read_text(encoding="utf-8") + "\nNew paragraph.\n", encoding="utf-8")
    done = sync_copies(src, mine, metadata=META)
    assert [c.action for c in done] == ["updated", "kept"]
    assert "New paragraph." in "".join(_read(mine / "00-start-here.ipynb")["cells"][-1]["source"])
    assert _read(mine / "07-rules-tutorial.ipynb")["cells"][0]["source"] == "mine"
    assert "you edited it" in str(done[1]) and "07-rules-tutorial.ipynb" in str(done[1])
    # deleting the edited copy brings the newer lesson back
    (mine / "07-rules-tutorial.ipynb").unlink()
    assert [c.action for c in sync_copies(src, mine, metadata=META)] == ["unchanged", "new"]
    assert json.loads((mine / MANIFEST).read_text())


def test_kernel_metadata_is_this_pythons():
    import platform

    meta = kernel_metadata()
    assert meta["kernelspec"]["name"] == "python3"
    assert meta["language_info"]["version"] == platform.python_version()


def test_cli_lessons(tmp_path, capsys):
    src = _lessons(tmp_path)
    assert main(["lessons", str(tmp_path / "mine"), "--from", str(src)]) == 0
    assert "00-start-here.ipynb: copied" in capsys.readouterr().out
    assert main(["lessons", str(tmp_path / "mine"), "--from", str(tmp_path / "nowhere")]) == 2
    assert "nowhere: no such folder of lessons" in capsys.readouterr().err
    (src / "00-start-here.ipynb").write_text("{not json")
    assert main(["lessons", str(tmp_path / "other"), "--from", str(src)]) == 2
    assert "00-start-here.ipynb: not a valid notebook" in capsys.readouterr().err
