"""Online site, app page: numpy and pandas loaded in the background once the page is up (issue 18, item 5).

Imported by the kernel's start-up after ``safari_site`` (site-src/build_site.py, START_UP_PATCH). The app page
starts without numpy and pandas (site-src/kernel_startup.py: no lab on the play path needs them), but its
Simulation lab does. In the online build the standard Pyodide distribution has them: this module asks for them
a few seconds after the kernel started, when the page's own notebook has run, so the Simulation lab finds them
when a learner gets there. Where they are already loaded (the lessons name them at start) or not in the
site's lock (the offline build), it does nothing. Until the load ends, the kit's sentence for a missing numpy
says it is still loading and the Simulation lab opens by itself when it is there
(``safari_kit.presentation.offline``: the offline sentence would be false here); if the load fails, it says so.
"""
from __future__ import annotations

import sys

#: what the app page's Simulation lab imports (numpy; pandas for its tournaments' tables)
PACKAGES = ("numpy", "pandas")
#: seconds after the kernel's start: the app page's notebook runs first, the loading does not delay it
DELAY = 5.0


def wanted(lock, loaded) -> list[str]:
    """The packages to load: in the site's lock, neither loaded nor imported."""
    return [name for name in PACKAGES if name not in sys.modules
            and getattr(lock, name, None) is not None and getattr(loaded, name, None) is None]


def schedule() -> None:
    try:
        import asyncio

        import pyodide_js
    except ImportError:  # not in Pyodide
        return
    try:
        names = wanted(pyodide_js._api.lockfile_packages, pyodide_js.loadedPackages)
    except AttributeError:  # another Pyodide: say nothing, load nothing
        return
    if not names:
        return
    asyncio.ensure_future(load(names, pyodide_js.loadPackage))


async def load(names: list[str], load_package) -> None:
    """Load ``names`` with ``load_package`` (Pyodide's) after DELAY, telling the kit before and after."""
    import asyncio

    from safari_kit.presentation.offline import background_load_done, loading_in_background

    loading_in_background(names)
    ok = False
    try:
        await asyncio.sleep(DELAY)
        await load_package(names)
        ok = True
    except Exception as exc:  # noqa: BLE001 - the Simulation lab then says the load failed
        print(f"safari_site: {', '.join(names)} not loaded ({exc})", file=sys.stderr)
    finally:
        background_load_done(names, ok)


schedule()
