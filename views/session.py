"""A page's session state as a typed object: each entry it keeps is a named, typed field.

A page script reads and writes ``self.face`` on its state object, not ``st.session_state
["tracker_face"]``: the key is written once, in the field's declaration, with the type of its
value and its default; a widget that owns an entry takes the field's key
(``key=TrackerState.face.key``). ``tests/test_page_state.py`` holds the pages to it: no page
script indexes ``st.session_state`` itself.

The object holds no values: it reads and writes the session's mapping, so a widget's value,
a callback's write and a reload all see one copy.

    class PlayState(PageState):
        offset = Field("play_offset", 0)

    PlayState().offset += 1
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any, Generic, TypeVar, overload

import streamlit as st

T = TypeVar("T")


class Field(Generic[T]):
    """One entry of a page's session state: its key, and the value read while it is unset.

    ``factory`` makes a fresh default for a mutable value (a list, a dict), stored on first
    read so that changes made to it in place are kept, as ``dict.setdefault`` does."""

    def __init__(self, key: str, default: T | None = None, *,
                 factory: Callable[[], T] | None = None) -> None:
        self.key = key
        self._default = default
        self._factory = factory

    @overload
    def __get__(self, owner: None, kind: type) -> Field[T]: ...

    @overload
    def __get__(self, owner: PageState, kind: type) -> T: ...

    def __get__(self, owner: PageState | None, kind: type) -> Field[T] | T:
        if owner is None:
            return self  # on the class: the field itself, for its key
        store = owner.store
        if self.key in store:
            return store[self.key]  # the store holds Any
        if self._factory is not None:
            return store.setdefault(self.key, self._factory())
        return self._default  # type: ignore[return-value]  # T includes None where it may be

    def __set__(self, owner: PageState, value: T) -> None:
        owner.store[self.key] = value

    def __delete__(self, owner: PageState) -> None:
        owner.store.pop(self.key, None)


class Keyed(Generic[T]):
    """A family of entries, one per row, move or setting (``tracker_name_3``): the key of
    each, and its value read with a default."""

    def __init__(self, prefix: str, default: T) -> None:
        self.prefix = prefix
        self.default = default

    def key(self, item: object) -> str:
        return f"{self.prefix}{item}"


class PageState:
    """The base of a page's state object: the session's mapping, and the families of keyed
    entries read and written through it."""

    def __init__(self, store: MutableMapping[str, Any] | None = None) -> None:
        self.store: MutableMapping[str, Any] = (
            st.session_state if store is None else store)  # type: ignore[assignment]  # str keys

    def keep(self, field: Field[T]) -> None:
        """Store ``field``'s default now if it is unset: a widget keyed on it starts from the
        default, and one a page switch dropped comes back with it."""
        if field.key not in self.store:
            self.store[field.key] = field.__get__(self, type(self))

    def get(self, family: Keyed[T], item: object) -> T:
        return self.store.get(family.key(item), family.default)

    def put(self, family: Keyed[T], item: object, value: T) -> None:
        self.store[family.key(item)] = value

    def drop(self, family: Keyed[T]) -> None:
        """Forget every entry of ``family`` (a call's caller typed for moves now gone)."""
        for key in [key for key in self.store if str(key).startswith(family.prefix)]:
            del self.store[key]
