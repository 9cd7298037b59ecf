"""The card table widget (anywidget) for both games; the labs build on it.

>>> from safari_kit.widgets import CardTable
"""
from safari_kit.widgets.table import CardTable
from safari_kit.widgets.view import selectable_from_legal, view_for

__all__ = ["CardTable", "selectable_from_legal", "view_for"]
