"""Moved to :mod:`safari_kit.classroom.teacher` (issue 28): this old path warns, and goes in a later release."""
from safari_kit.server._moved import alias

alias(__name__)
