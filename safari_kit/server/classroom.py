"""Moved to :mod:`safari_kit.classroom` (issue 28): ``ClassSettings`` to ``settings``, ``voila_config`` to
``config``, ``learner_urls`` to ``addresses``, ``run`` and the rest to ``serve``. This old path warns, and goes in
a later release."""
from safari_kit.server._moved import forward

__getattr__ = forward(__name__)
