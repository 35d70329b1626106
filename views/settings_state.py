"""The settings page's session state (``app_pages/settings.py``): its widgets' values, one
per rule setting, typed, with their keys (``views.session``)."""

from __future__ import annotations

from perudo_math.rules import SETTINGS, Rules
from views.session import Keyed, PageState

RuleValue = int | float | str | bool
"""A setting's value as its widget holds it (a number input may hold a float)."""


class SettingsState(PageState):
    values: Keyed[RuleValue | None] = Keyed("settings_", None)
    """Each setting's widget, by the rule's name (``settings_salsa``); ``None`` before the
    rules are loaded into them."""

    def load(self, rules: Rules) -> None:
        """Show ``rules`` in the widgets (before they are drawn): on every run, so the URL
        and the reset button always win."""
        values = rules.to_dict()
        for setting in SETTINGS:
            self.put(SettingsState.values, setting.name, values[setting.name])

    def chosen(self) -> dict[str, RuleValue]:
        """The widgets' values by setting name (each loaded before its widget was drawn)."""
        return {setting.name: self.store[SettingsState.values.key(setting.name)]
                for setting in SETTINGS}
