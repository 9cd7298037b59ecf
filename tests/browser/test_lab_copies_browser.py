"""``make lab`` in chromium: a lesson opens unchanged, once in the file browser, with no toast over it.

Issue 17, part 2. JupyterLab marks a notebook changed ("unsaved" dot, "Leave site?") when the
kernel it starts reports a kernelspec or ``language_info`` other than the file's; the copies in
``my-lessons/`` carry this machine's (safari_kit/authoring/workspace.py). The file browser lists
one file per lesson (no jupytext ``.md`` twin), the "official Jupyter news?" toast is off for
the environment (share/jupyter/lab/settings/overrides.json, installed with the kit), and a
lesson's link to the rules opens them. Runs the real ``make lab`` on a clone of the tracked files.

One JupyterLab page serves both tests (issue 28: JupyterLab loaded once, not twice), and a lesson is looked at
once the kernel's kernelspec and ``language_info`` have reached the notebook, the moment JupyterLab would mark
it changed, where the test slept 1.5 s a lesson (11 lessons: 16.5 s of waiting). The lessons are opened one
after another on one kernel (issue 28: a kernel start a lesson was 11 starts): the first lesson starts it, each
next lesson is opened connected to it (``docmanager:open`` with the kernel's id), and JupyterLab writes what the
kernel says of itself (``kernel.info``, ``kernel.spec``) into each lesson as it does on a new kernel (its panel
does it whenever a kernel connects); a teacher's own kernel for each lesson is the same kernel, from the same
kernelspec.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.browser.helpers import screenshot, switch_notebook
from tests.make_lab import changed_tracked, start_make_lab, tracked_clone

pytestmark = pytest.mark.browser

DIRTY = """() => {
    const w = window.jupyterapp.shell.currentWidget;
    return {model: w.context.model.dirty, marks: document.querySelectorAll('.jp-mod-dirty').length};
}"""
#: Resolves once the notebook has what its kernel says of itself. JupyterLab's NotebookPanel, when a kernel is
#: connected, writes the kernel's ``language_info`` (on ``kernel.info``) and its kernelspec (on ``kernel.spec``)
#: into the notebook's metadata, which marks the notebook changed if they differ from the file's; this awaits the
#: same two promises after the panel did (their callbacks run in order), then two frames for the tab's mark.
KERNEL_METADATA_IN = """async () => {
    const w = window.jupyterapp.shell.currentWidget;
    const kernel = w.sessionContext.session.kernel;
    await kernel.info;
    await kernel.spec;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


@pytest.fixture(scope="module")
def make_lab(chromium_path):
    home = Path(tempfile.mkdtemp(prefix="safari-makelab-"))
    root = tracked_clone(home / "kit")
    server = start_make_lab(root, home)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def lab_page(browser, make_lab):
    """The module's one JupyterLab page at 1366x768 (each test opens its lessons in it: ``switch_notebook``)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(90_000)
    try:
        yield page
    finally:
        context.close()


#: closes the notebooks open (their kernel left running), then opens ``path`` connected to the kernel ``id``
OPEN_ON_KERNEL = """async ([path, id]) => {
    const app = window.jupyterapp;
    for (const w of Array.from(app.shell.widgets('main'))) {
        if (w.context && w.context.model) w.context.model.dirty = false;
        w.dispose();
    }
    await app.commands.execute('docmanager:open', {path, kernel: {id}});
}"""
#: the notebook in front is ``path``, its kernel is ``id`` (null: any) and idle
ON_KERNEL = """([path, id]) => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
    const k = w.sessionContext.session && w.sessionContext.session.kernel;
    return !!(w.context.isReady && k && (id === null || k.id === id) && k.status === 'idle'
              && k.connectionStatus === 'connected');
}"""


def test_every_lesson_opens_without_the_unsaved_mark(lab_page, make_lab):
    lessons = sorted(p.name for p in (make_lab.root / "notebooks").glob("*.ipynb"))
    page = lab_page
    kernel = None
    for name in lessons:  # in one JupyterLab page, as a teacher opens one lesson after another
        if kernel is None:  # the first lesson starts the kernel
            switch_notebook(page, make_lab, name)
            kernel = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id")
        else:
            page.evaluate(OPEN_ON_KERNEL, [name, kernel])
            page.wait_for_function(ON_KERNEL, arg=[name, kernel], timeout=90_000)
        page.evaluate(KERNEL_METADATA_IN)  # kernel info and metadata arrive just after idle
        state = page.evaluate(DIRTY)
        assert state == {"model": False, "marks": 0}, f"{name} opens marked as changed: {state}"
    toasts = page.evaluate("() => [...document.querySelectorAll('.jp-toast-container, .Toastify__toast')]"
                           ".map(t => t.innerText).join(' | ')")
    assert "news" not in toasts.lower(), toasts
    assert changed_tracked(make_lab.root) == []


def test_file_browser_shows_each_lesson_once_and_links_open_the_rules(lab_page, make_lab):
    page = lab_page
    switch_notebook(page, make_lab, "00-start-here.ipynb")
    page.evaluate("() => window.jupyterapp.shell.expandLeft()")
    page.wait_for_selector(".jp-DirListing-item")
    items = page.eval_on_selector_all(".jp-DirListing-item .jp-DirListing-itemText",
                                      "els => els.map(e => e.textContent.trim())")
    screenshot(page, "make-lab-file-browser")
    lessons = sorted(p.name for p in (make_lab.root / "notebooks").glob("*.ipynb"))
    from safari_kit.authoring.student import language_folders  # the lessons in another language (issue 30)

    languages = [p.name for p in language_folders(make_lab.root / "notebooks")]
    assert sorted(items) == sorted(lessons + ["docs"] + languages), items
    # the notebook draws only the cells near the screen: bring the one with the link there first
    page.evaluate("""async () => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        const i = nb.widgets.findIndex(c => c.model.sharedModel.getSource().includes('rules-safari-witness.ipynb'));
        nb.activeCellIndex = i;
        await nb.scrollToItem(i, 'center');
    }""")
    # issue 27: "Getting help" links the learners' own rules pages (docs/rules.md is the developers' page)
    link = page.locator('.jp-RenderedMarkdown a[href*="rules-safari-witness.ipynb"]').first
    link.wait_for(state="visible")
    link.click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.title.label === 'rules-safari-witness.ipynb'")
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown img").first.wait_for()
    page.wait_for_timeout(500)
    screenshot(page, "make-lab-rules-link")
    text = page.evaluate("() => window.jupyterapp.shell.currentWidget.node.innerText")
    assert "Rules of Safari Witness" in text, text[:300]
