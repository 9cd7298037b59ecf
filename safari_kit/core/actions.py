"""A small mixin that gives frozen action dataclasses a JSON form for game records."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar


class RecordableAction:
    """Mixin for frozen dataclass actions: ``to_dict()`` / ``from_dict()``.

    The dict is ``{"type": ClassName, **fields}``; tuples become lists in JSON
    and are turned back into tuples on the way in.
    """

    __slots__ = ()
    if TYPE_CHECKING:  # subclasses are dataclasses; this tells the type checker so
        __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, fields: dict):
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(fields) - names
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))} for {cls.__name__}")
        missing = names - set(fields)
        if missing:
            raise ValueError(f"missing field(s) {', '.join(sorted(missing))} for {cls.__name__}")
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
        return cls(**values)
