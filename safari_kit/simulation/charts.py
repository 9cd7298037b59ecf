"""Old path of the Simulation lab's SVG charts, kept for one release with a DeprecationWarning (issue 28).

The charts are drawing, not simulation: they moved to :mod:`safari_kit.presentation.charts`, the layer for
what a learner sees. A notebook or script that still imports ``safari_kit.simulation.charts`` gets a
DeprecationWarning and the new module itself (``sys.modules`` points the old name at it, so the names and
any patch of them are one). Remove this stub in the release after next.

This is the one upward import of the simulation layer: it is declared by name in ``pyproject.toml``
(``ignore_imports`` of the layers contract) rather than hidden behind ``importlib``, so lint-imports still
sees it, and ``tests/simulation/test_charts_moved.py`` checks that nothing else in the kit imports this path.
"""
from __future__ import annotations

import sys
import warnings

from safari_kit.presentation import charts as _charts

warnings.warn("safari_kit.simulation.charts has moved to safari_kit.presentation.charts (issue 28); "
              "the old path goes in a later release", DeprecationWarning, stacklevel=2)

sys.modules[__name__] = _charts
