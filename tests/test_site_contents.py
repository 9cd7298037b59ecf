"""What the static site serves (issue 17): its learners' pages are the student copies; the teacher's copies
go in only with ``make site TEACHER=1``, in a teacher/ folder listed apart. Fast: no site is built here
(the offline build, in tests/browser/test_site_browser.py, checks the built site's files and contents index)."""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from safari_kit.authoring.answer_leaks import find_leaks

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"


@pytest.fixture(scope="module")
def build_site():
    import sys

    if str(REPO / "site-src") not in sys.path:  # build_site imports its neighbours (kernel_startup, precompile)
        sys.path.insert(0, str(REPO / "site-src"))
    spec = importlib.util.spec_from_file_location("build_site", REPO / "site-src" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notebooks(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.ipynb"))}


def test_the_learners_pages_are_the_student_copies(build_site, tmp_path):
    contents = build_site.stage(tmp_path / "lite")
    assert sorted(p.name for p in contents.iterdir()) == ["data", "docs", "notebooks"]   # no teacher/ by default
    learners = _notebooks(contents / "notebooks")
    assert set(learners) == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    for name, nb in learners.items():
        assert build_site.teacher_only_cells(nb) == [], name
        assert find_leaks(nb, name) == [], name
        text = json.dumps(nb)
        assert "For teachers" not in text and '"solution"' not in text, name
    assert (contents / "data" / "cards.csv").read_bytes() == (REPO / "data" / "cards.csv").read_bytes()


def test_teacher_copies_only_when_asked_for_and_apart(build_site, tmp_path):
    contents = build_site.stage(tmp_path / "lite", teacher=True)
    assert sorted(p.name for p in contents.iterdir()) == ["data", "docs", "notebooks", "teacher"]
    teacher = _notebooks(contents / "teacher")
    assert set(teacher) == set(_notebooks(contents / "notebooks"))
    # control: the teacher's copies hold what the learners' pages must not (the check can fail)
    lessons = [name for name in teacher if name[:2].isdigit()]
    assert all(build_site.teacher_only_cells(teacher[name]) for name in lessons)
    assert all(find_leaks(teacher[name], name) for name in lessons if name[:2] != "00")


def test_the_landing_page_lists_the_teacher_copies_apart_and_only_when_built_with_them(build_site, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    contents = build_site.stage(tmp_path / "lite", teacher=True)
    build_site.landing_page(out, contents, teacher=False)
    page = (out / "index.html").read_text()
    assert "path=notebooks/02-identification.ipynb" in page
    assert "teacher/" not in page and "{{" not in page
    build_site.landing_page(out, contents, teacher=True)
    page = (out / "index.html").read_text()
    learners, teachers = page.split("For the teacher")
    assert "path=notebooks/02-identification.ipynb" in learners and "teacher/" not in learners
    assert "path=teacher/02-identification.ipynb" in teachers and "make site TEACHER=1" in teachers


def _site_with(tmp_path: Path, folder: str, notebook: Path) -> Path:
    out = tmp_path / "site"
    (out / "files" / folder).mkdir(parents=True)
    shutil.copy(notebook, out / "files" / folder / notebook.name)
    return out


def test_the_build_refuses_a_learners_page_with_answers(build_site, tmp_path):
    teacher_copy = NOTEBOOKS / "05-simulation-lab.ipynb"          # worked solutions and teacher notes in
    with pytest.raises(SystemExit) as err:
        build_site.check_learner_pages(_site_with(tmp_path / "a", "notebooks", teacher_copy), teacher=False)
    assert "notebooks/05-simulation-lab.ipynb cell" in str(err.value)
    with pytest.raises(SystemExit) as err:
        build_site.check_learner_pages(_site_with(tmp_path / "b", "teacher", teacher_copy), teacher=False)
    assert "without --teacher" in str(err.value)
    build_site.check_learner_pages(_site_with(tmp_path / "c", "teacher", teacher_copy), teacher=True)


def test_a_lesson_that_cannot_be_cut_stops_the_site_build(build_site, tmp_path):
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "**Common wrong answers.** 1/15"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (lessons / "09-new.ipynb").write_text(json.dumps(nb))
    with pytest.raises(SystemExit) as err:
        build_site.stage(tmp_path / "lite", lessons=lessons)
    assert "09-new.ipynb: cell 1" in str(err.value)


@pytest.mark.parametrize("variable, flag", [("", False), ("TEACHER=1", True), ("TEACHER=0", False)])
def test_make_site_passes_teacher_only_when_asked(variable, flag, tmp_path):
    # a stamp no rule makes: SITE_STAMP=Makefile made the Makefile a target, and make remakes a makefile even
    # under -n: it built the site's venv (18 s), racing the static site's build on another xdist worker
    stamp = tmp_path / "no-venv-here"
    cmd = ["make", "-n", "--no-print-directory", "site", f"SITE_STAMP={stamp}"] + ([variable] if variable else [])
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=True)
    line = next(x for x in run.stdout.replace("\\\n", " ").splitlines() if "build_site.py" in x)
    assert ("--teacher" in line) is flag, line


# ----------------------------------------------------------------------------- issue 18: where schools put the site
#: the Pyodide kernel's bundle as jupyterlite-pyodide-kernel 0.7.0 minifies it (a fake one, the parts the build reads)
KERNEL_JS = ('n.register({spec:{name:"python",display_name:"Python (Pyodide)",language:"python",argv:[]},'
             'create:async e=>{}});const r={language_info:{codemirror_mode:{name:"python",version:3},'
             'file_extension:".py",mimetype:"text/x-python",name:"python",nbconvert_exporter:"python",'
             'pygments_lexer:"ipython3",version:"3.8"},protocol_version:"5.3"}')


def test_the_site_notebooks_carry_the_kernel_metadata_the_site_kernel_writes(build_site, tmp_path):
    """Opening a lesson changes nothing (item 4): its kernelspec and language_info are the site kernel's."""
    ext = tmp_path / "ext"
    (ext / "static").mkdir(parents=True)
    (ext / "static" / "154.js").write_text(KERNEL_JS)
    meta = build_site.kernel_metadata(ext)
    assert meta == {"kernelspec": {"name": "python", "display_name": "Python (Pyodide)", "language": "python"},
                    "language_info": {"codemirror_mode": {"name": "python", "version": 3}, "file_extension": ".py",
                                      "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                                      "pygments_lexer": "ipython3", "version": "3.8"}}
    contents = build_site.stage(tmp_path / "lite", teacher=True)
    before = {p: json.loads(p.read_text(encoding="utf-8")) for p in contents.rglob("*.ipynb")}
    assert any(nb["metadata"].get("kernelspec", {}).get("name") == "python3" for nb in before.values())  # control
    assert build_site.set_kernel_metadata(contents, meta) == len(before)
    for path, old in before.items():
        new = json.loads(path.read_text(encoding="utf-8"))
        assert new["metadata"]["kernelspec"] == meta["kernelspec"], path
        assert new["metadata"]["language_info"] == meta["language_info"], path
        assert new["cells"] == old["cells"], path
    (ext / "static" / "154.js").write_text("something else")
    with pytest.raises(SystemExit, match="kernelspec or language_info was not found"):
        build_site.kernel_metadata(ext)


def test_the_service_worker_patch_settles_ready_and_fails_the_build_when_its_code_moved(build_site, tmp_path):
    """On a plain-http network name the manager's `ready` must settle (item 1); a changed bundle stops the build."""
    manager = ('async _initialize(e){const{serviceWorker:t}=navigator;let s=null;if(t){s=1}'
               + build_site.SW_UNSUPPORTED + "async _ping(){}")
    kernel = f'const n="Pyodide contents will NOT be synced with Jupyter Contents. {build_site.NOT_SYNCED}";'
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "1650.js").write_text(manager)
    (tmp_path / "build" / "154.js").write_text(kernel)
    build_site.patch_service_worker(tmp_path)
    text = (tmp_path / "build" / "1650.js").read_text()
    # resolved, not rejected: Voici logs a rejected `ready` as console.error(undefined) (issue 18, item 5)
    assert "this._ready.resolve(void 0)}" in text and "reject" not in text and build_site.SW_UNSUPPORTED not in text
    assert "private/incognito" not in (tmp_path / "build" / "154.js").read_text()
    with pytest.raises(SystemExit, match="service-worker manager's code was not found"):
        build_site.patch_service_worker(tmp_path)      # already patched: nothing left to patch


def test_a_page_can_switch_the_service_worker_off_and_a_changed_bundle_stops_the_build(build_site, tmp_path):
    """The app page starts no service worker (issue 31, session 18): its config says "off", the manager's start
    then takes the browser for one without (its ``ready`` settled by patch_service_worker) and says why in the
    console; other pages (the lessons) register theirs as before. The app page's config carries the option."""
    manager = ('class I{constructor(e){const n=a.PageConfig.getOption("enableServiceWorkerCache")||"false"}'
               'async _initialize(e){const{serviceWorker:t}=navigator;let s=null;if(t){s=1}'
               + build_site.SW_UNSUPPORTED + "async _ping(){}}")
    kernel = f'const n="{build_site.NOT_SYNCED}";'
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "1650.js").write_text(manager)
    (tmp_path / "build" / "154.js").write_text(kernel)
    build_site.patch_service_worker(tmp_path)
    build_site.patch_service_worker_off(tmp_path)
    text = (tmp_path / "build" / "1650.js").read_text()
    assert ('async _initialize(e){const{serviceWorker:t}="off"===a.PageConfig.getOption("safariServiceWorker")?'
            '{serviceWorker:null}:navigator;let s=null;if(t){s=1}else null===t?console.info("'
            + build_site.SW_OFF_SAID + '"):console.warn("ServiceWorkers not supported in this browser"),'
            'this._ready.resolve(void 0)}') in text, text
    assert (tmp_path / "build" / "154.js").read_text() == kernel.replace(build_site.NOT_SYNCED,
                                                                          build_site.NOT_SYNCED_PATCH)
    with pytest.raises(SystemExit, match="would start a service worker again"):
        build_site.patch_service_worker_off(tmp_path)      # already patched: nothing left to patch
    (tmp_path / "build" / "1650.js").write_text(manager.replace("enableServiceWorkerCache", "cache"))
    (tmp_path / "build" / "154.js").write_text(kernel)
    build_site.patch_service_worker(tmp_path)
    with pytest.raises(SystemExit, match="1650.js: the service-worker manager's start or its PageConfig"):
        build_site.patch_service_worker_off(tmp_path)

    page = tmp_path / "app.html"
    page.write_text('<html><script id="jupyter-config-data" type="application/json">{"appName": "Voici"}</script>'
                    "</html>")
    build_site.set_app_page_service_worker(page)
    config = json.loads(build_site.CONFIG_DATA.search(page.read_text()).group(2))
    assert config == {"appName": "Voici", "safariServiceWorker": "off"}


def test_the_app_pages_pieces_of_voici_go_in_one_file_before_voici_js_and_a_missing_one_stops_the_build(
        build_site, tmp_path):
    """Session 18 (site-src/app_chunks.py): the pieces are wrapped one by one (a piece's "use strict" stays its
    own), registered before voici.js runs; a missing or foreign piece, or a page without voici.js, stops it."""
    import subprocess

    import app_chunks

    build = tmp_path / "voici" / "build"
    build.mkdir(parents=True)
    glob = "self.webpackChunk_JUPYTERLAB_CORE_OUTPUT"
    (build / "12.js").write_text(f'"use strict";({glob}={glob}||[]).push([[12],{{1:()=>{{}}}}]);')
    (build / "34.js").write_text(f'/*! For license information please see 34.js.LICENSE.txt */\n'
                                 f'({glob}={glob}||[]).push([[34,56],{{2:()=>{{}}}}]);undeclared = 1;')
    page = tmp_path / "app.html"
    page.write_text('<body><script src="../../build/voici.js"></script></body>')
    line = app_chunks.bundle(build, page, (12, 34))
    assert line.startswith("2 pieces of Voici's scripts in app-pieces.js")
    assert page.read_text() == ('<body><script src="../../build/app-pieces.js"></script>\n'
                                '<script src="../../build/voici.js"></script></body>')
    # run as the browser would: both pieces registered, and the second (not strict) may assign an undeclared name
    script = (build / "app-pieces.js").read_text()
    check = (f"globalThis.self = globalThis;\n{script}\n"
             f"console.log(JSON.stringify([{glob}.map(p => p[0]), globalThis.undeclared]))")
    out = subprocess.run(["node", "-e", check], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [[[12], [34, 56]], 1]
    with pytest.raises(app_chunks.AppPiecesError, match="78.js: no such piece"):
        app_chunks.bundle(build, page, (12, 78))
    (build / "78.js").write_text("console.log('not a piece')")
    with pytest.raises(app_chunks.AppPiecesError, match="78.js: not a webpack piece that registers piece 78"):
        app_chunks.bundle(build, page, (78,))
    page.write_text("<body></body>")
    with pytest.raises(app_chunks.AppPiecesError, match="0 script tags for voici.js"):
        app_chunks.bundle(build, page, (12,))


def test_the_service_worker_keeps_its_version_from_the_first_visit_and_a_changed_bundle_stops_the_build(
        build_site, tmp_path):
    """JupyterLite's manager (0.7.6, minified; Voici's copy says "sucessfully", JupyterLite's "successfully") wrote
    the worker's version only on a visit the worker already controlled, so the second visit unregistered it. The
    patch writes the version, the manager's own variable, under the key its check reads, as the worker registers."""
    def manager(version: str, done: str) -> str:
        return ('async _initialize(e){const{serviceWorker:t}=navigator;let s=null;if(t){if(!s&&t)try{console.info('
                '"Registering new JupyterLite ServiceWorker",e),s=await t.register(e),console.info("JupyterLite '
                f'ServiceWorker was {done} registered")}}catch(e){{}}}}}}async _unregisterOldServiceWorkers(e){{const '
                f't=`${{e}}-version`,s=localStorage.getItem(t);if(s&&s!=={version}||!s){{console.info("New version, '
                f'unregistering existing service workers.")}}localStorage.setItem(t,{version})}}')

    (tmp_path / "voici").mkdir()
    (tmp_path / "build").mkdir()
    (tmp_path / "voici" / "1650.js").write_text(manager("P", "sucessfully"))
    (tmp_path / "build" / "5443.js").write_text(manager("L", "successfully"))
    (tmp_path / "build" / "other.js").write_text("console.info('nothing of the manager here')")
    build_site.patch_service_worker_version(tmp_path)
    for path, version in (("voici/1650.js", "P"), ("build/5443.js", "L")):
        text = (tmp_path / path).read_text()
        assert ("s=await t.register(e),(()=>{try{localStorage.setItem(`${e}-version`," + version + ")}catch(e){}})(),"
                'console.info("JupyterLite ServiceWorker was') in text, text
    assert (tmp_path / "build" / "other.js").read_text() == "console.info('nothing of the manager here')"
    with pytest.raises(SystemExit, match="registration was found 0 times"):
        build_site.patch_service_worker_version(tmp_path)      # already patched: nothing left to patch
    (tmp_path / "voici" / "1650.js").write_text(manager("P", "sucessfully").replace("-version", "-v"))
    with pytest.raises(SystemExit, match="version check was not found"):
        build_site.patch_service_worker_version(tmp_path)      # the check changed: the patch might write a wrong key
    for js in tmp_path.rglob("*.js"):
        js.unlink()
    with pytest.raises(SystemExit, match="registration was not found"):
        build_site.patch_service_worker_version(tmp_path)


def test_a_path_in_the_address_opens_after_the_layout_is_back_and_a_changed_bundle_stops_the_build(build_site,
                                                                                                 tmp_path):
    """JupyterLite's router (0.7.6, minified): ``?path=`` waited for ``started``; the restored layout then took the
    tab away again (a rules link after a lesson showed the lesson). Patched to wait for ``restored`` and one task
    more (the default viewers are set a few microtasks after it)."""
    router = ('const g=h.map((e=>decodeURIComponent(e)));e.started.then((async()=>{var e;const l=r.PageConfig.'
              'getOption("notebookPage"),[c]=g;a.openOrReveal(c)}));other.started.then(()=>{})')
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "1711.js").write_text(router)
    build_site.patch_open_path(tmp_path)
    text = (tmp_path / "build" / "1711.js").read_text()
    assert ('e.restored.then(()=>new Promise((r)=>setTimeout(r))).then((async()=>{var e;const l=r.PageConfig.'
            'getOption("notebookPage")') in text, text
    assert "other.started.then" in text, "only the router's opener changes"
    with pytest.raises(SystemExit, match=r"\?path= opener was not found"):
        build_site.patch_open_path(tmp_path)      # already patched: nothing left to patch


#: anywidget 0.11.0's Runtime as its labextension's chunk has it (528.*.js), and as a minifier would write it
ANYWIDGET_RUNTIME = '''        this.ready = resolvers.promise;
        AbortSignal.timeout(2000).addEventListener("abort", function() {
            resolvers.reject(new Error("[anywidget] Failed to initialize model."));
        });
        var binding = BINDINGS.getOrCreate(model);
        let signal = options.signal ?? AbortSignal.timeout(3000);'''
ANYWIDGET_MINIFIED = ('this.ready=t.promise;AbortSignal.timeout(2000).addEventListener("abort",()=>{t.reject(new Error('
                      '"[anywidget] Failed to initialize model.")) });')


def test_anywidget_models_get_five_minutes_to_load_and_a_changed_chunk_stops_the_build(build_site, tmp_path):
    """anywidget's 2-second model timeout (a slow laptop's lab stayed empty) becomes 5 minutes, in every chunk that
    has it; its other timeout (a command's 3 s) stays. A chunk with the message but not the timer stops the build."""
    static = tmp_path / "extensions" / "anywidget" / "static"
    static.mkdir(parents=True)
    (static / "528.d9f5934c.js").write_text(ANYWIDGET_RUNTIME)
    (static / "main.15ebcf03.js").write_text(ANYWIDGET_MINIFIED)
    (static / "remoteEntry.js").write_text("AbortSignal.timeout(2000);")  # not anywidget's Runtime: left alone
    build_site.patch_anywidget_timeout(tmp_path)
    chunk = (static / "528.d9f5934c.js").read_text()
    assert chunk == ANYWIDGET_RUNTIME.replace("timeout(2000)", "timeout(300000)"), chunk
    assert "AbortSignal.timeout(3000)" in chunk
    assert (static / "main.15ebcf03.js").read_text() == ANYWIDGET_MINIFIED.replace("(2000)", "(300000)")
    assert (static / "remoteEntry.js").read_text() == "AbortSignal.timeout(2000);"
    with pytest.raises(SystemExit, match="2-second model timeout was not found"):
        build_site.patch_anywidget_timeout(tmp_path)      # already patched: nothing left to patch
    (static / "main.15ebcf03.js").write_text(ANYWIDGET_MINIFIED.replace("(2000)", "(5000)"))
    (static / "528.d9f5934c.js").write_text(ANYWIDGET_RUNTIME)
    with pytest.raises(SystemExit, match=r"not in \['extensions/anywidget/static/main.15ebcf03.js'\]"):
        build_site.patch_anywidget_timeout(tmp_path)      # one chunk changed: the build stops, naming it


def test_the_site_build_patches_anywidgets_timeout(build_site):
    """main() runs the patch (the browser test tests/browser/test_site_slow_laptop.py checks its effect)."""
    import inspect

    assert "    patch_anywidget_timeout(out)\n" in inspect.getsource(build_site.main)


def test_every_page_opened_as_a_file_says_how_to_open_the_site(build_site, tmp_path):
    for rel in ("index.html", "lab/index.html", "voici/render/notebooks/app.html"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text('<!doctype html><html><head lang="en"><title>x</title></head><body></body></html>')
    build_site.guard_file_urls(tmp_path)
    build_site.guard_file_urls(tmp_path)    # twice: once per page
    for page in tmp_path.rglob("*.html"):
        text = page.read_text()
        assert text.count('location.protocol === "file:"') == 1, page
        assert text.index("safari-no-server") < text.index("<title>"), page
    assert "python3 -m http.server" in build_site.NO_SERVER.read_text()
    (tmp_path / "bad.html").write_text("<p>no head</p>")
    with pytest.raises(SystemExit, match="no <head>"):
        build_site.guard_file_urls(tmp_path)


def test_the_jupytext_labextension_is_left_out_of_every_page(build_site, tmp_path):
    """jupytext's labextension (built for JupyterLab 4.6) logs a console error in JupyterLite 4.5 and Voici."""
    exts = [{"name": "anywidget", "load": "static/remoteEntry.1.js"},
            {"name": "jupyterlab-jupytext", "load": "static/remoteEntry.2.js"}]
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"federated_extensions": exts}}))
    page = tmp_path / "voici" / "render" / "notebooks" / "app.html"
    page.parent.mkdir(parents=True)
    config = {"federated_extensions": exts, "notebookSrc": {"cells": [{"source": "print('</script>')"}]}}
    page.write_text('<head><script id="jupyter-config-data" type="application/json">'
                    + json.dumps(config).replace("</", "<\\/") + "</script></head>")
    (tmp_path / "extensions" / "jupyterlab-jupytext" / "static").mkdir(parents=True)
    (tmp_path / "build" / "schemas").mkdir(parents=True)
    (tmp_path / "build" / "schemas" / "all_federated.json").write_text(json.dumps(
        [{"id": "jupyterlab-jupytext:plugin"}, {"id": "@jupyter-widgets/jupyterlab-manager:plugin"}]))
    assert build_site.drop_extensions(tmp_path) == 2
    names = [e["name"] for e in json.loads((tmp_path / "jupyter-lite.json").read_text())
             ["jupyter-config-data"]["federated_extensions"]]
    assert names == ["anywidget"]
    text = page.read_text()
    embedded = build_site.CONFIG_DATA.search(text).group(2)
    assert "jupyterlab-jupytext" not in text and "</" not in embedded   # a "</script>" in a cell stays escaped
    assert json.loads(build_site.CONFIG_DATA.search(text).group(2))["notebookSrc"]["cells"][0]["source"] == \
        "print('</script>')"
    assert not (tmp_path / "extensions" / "jupyterlab-jupytext").exists()
    assert [p["id"] for p in json.loads((tmp_path / "build" / "schemas" / "all_federated.json").read_text())] == [
        "@jupyter-widgets/jupyterlab-manager:plugin"]


def test_voicis_rendered_lessons_open_the_docs_in_jupyterlite(build_site, tmp_path):
    """Voici renders a lesson's ../docs/rules.md from voici/render/notebooks/, where no doc is (issue 18)."""
    (tmp_path / "files" / "docs").mkdir(parents=True)
    (tmp_path / "files" / "docs" / "rules.md").write_text("# rules")
    page = tmp_path / "voici" / "render" / "notebooks" / "00-start-here.html"
    page.parent.mkdir(parents=True)
    page.write_text('<a href="../docs/rules.md">rules</a> <a href="../docs/rules.md#w4">W4</a> '
                    '<a href="01-meet-the-cards.html">01</a> <a href="../docs/missing.md">gone</a> '
                    '<a href="#top">top</a> <a href="https://example.org/">out</a>')
    assert build_site.link_docs_from_voici_pages(tmp_path) == 2
    text = page.read_text()
    assert '<a href="../../../lab/index.html?path=docs/rules.md">rules</a>' in text
    assert '<a href="../../../lab/index.html?path=docs/rules.md#w4">W4</a>' in text
    assert '<a href="01-meet-the-cards.html">01</a>' in text and '<a href="../docs/missing.md">' in text
