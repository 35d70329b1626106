"""Names a package loads on first use (PEP 562), so that importing it stays cheap.

A package lists each lazy name with the module that defines it and takes the module-level
``__getattr__`` and ``__dir__`` this builds::

    __getattr__, __dir__ = lazy_names(__name__, globals(), {"odds": "perudo_math.probability"})
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, namespace: dict[str, Any], defined_in: Mapping[str, str],
               ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: a name of ``defined_in`` is imported
    from its module when first looked up, then kept in ``namespace`` (the package's globals)."""

    def __getattr__(name: str) -> object:
        module = defined_in.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *defined_in})

    return __getattr__, __dir__
