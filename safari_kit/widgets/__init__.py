"""The card table widget (anywidget) for both games; the labs build on it.

>>> from safari_kit.widgets import CardTable
"""
try:
    import anywidget  # noqa: F401
    import ipywidgets  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the lab extra
    raise ImportError(
        f"safari_kit's tables and labs need ipywidgets and anywidget ({exc.name} is missing). "
        "Install them with `pip install -e '.[lab]'` (or run `make lab`) in the environment that runs "
        "JupyterLab, then restart JupyterLab so it can display the widgets."
    ) from exc

from safari_kit.widgets.table import CardTable
from safari_kit.presentation.views import selectable_from_legal, view_for

__all__ = ["CardTable", "selectable_from_legal", "view_for"]
