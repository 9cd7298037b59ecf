"""Step-through labs built around the card table (ipywidgets)."""
from safari_kit.widgets.labs.base import Lab, Progress, fraction_html, guarded

__all__ = ["Lab", "Progress", "fraction_html", "guarded"]
