"""The marks the document shapes (:mod:`quarkci.core.shapes`) put on a key's type."""

from typing import Annotated, TypeVar

T = TypeVar("T")

EXTENSION = "x-quarkci-extension"

Extension = Annotated[T, EXTENSION]
"""A key quarkci writes into an object its contract leaves open (``additionalProperties`` not false)
and does not define: ``Extension[int]`` is an ``int`` to the type checker; ``tests/test_core_shapes.py``
reads the mark (``typing.get_type_hints(..., include_extras=True)``) to tell such a key from one the
contract must define."""
