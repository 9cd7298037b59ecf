"""``safari-kit class`` with Voilà's preheated kernels: the class benchmark's experiment (issue 19, "Load").

    .venv/bin/python tools/class_server_pool.py POOL[:FILL_DELAY] [safari-kit class options]

The class server has no pool setting yet; this runs it with
``VoilaConfiguration.preheat_kernel`` on and ``default_pool_size = POOL``
(Voilà's documented preheating: POOL kernels start and run the app notebook
before any learner comes; a page takes a ready one, and the pool refills
``FILL_DELAY`` seconds later, Voilà's ``fill_delay``, default 1).
``tools/load_class.py --pool POOL`` starts the server this way.
"""
from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from safari_kit.cli import main as cli_main
    from safari_kit.server import classroom

    pool, _, delay = argv[0].partition(":")
    plain = classroom.voila_config

    def with_pool(settings):
        config = plain(settings)
        config.VoilaConfiguration.preheat_kernel = True
        config.VoilaConfiguration.default_pool_size = int(pool)
        if delay:
            config.VoilaKernelManager.fill_delay = float(delay)  # the pool's kernel manager class (voila)
        return config

    classroom.voila_config = with_pool  # run() looks it up when it starts Voilà
    return cli_main(["class", *argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
