"""Settings page: the table's rules (docs/RULES.md), each with a one-line explanation.

The widgets are drawn from :data:`perudo_math.rules.SETTINGS`, in its order, by each
setting's kind: a number is a stepper, a choice between two options a segmented control
(longer lists are radio buttons: their labels are sentences), a switch a toggle, disabled
while the switch it ``requires`` is off. A setting added there shows up here; its texts are
``settings.<name>.label``, ``.help`` and ``.<choice>`` in the catalogs.

Every change goes through :func:`views.url_state.set_rules`, so the rules live in the URL (a
reload or a shared link keeps them) and every page uses them: the Odds & advice page's
legality notes and coach, and the tracker for new games. A tracked game changes its rules
only through the tracker's rules panel, which records the change in the game. Layout and
wiring only.

State keys: ``settings_<rule name>`` for each widget (``views.settings_state.SettingsState``:
loaded from the shared rules on every run, so the URL and the reset button always win),
``settings_reset`` for the reset button.
"""

from collections.abc import Callable

import streamlit as st

from perudo_math.rules import SETTINGS, Rules, Setting, SettingKind
from views import url_state
from views.i18n import current_language, t, tn, translate
from views.settings_state import SettingsState
from views.style import phone_page

SEGMENTED_MAX_CHOICES = 2
"""Up to this many choices side by side; more go one per line."""


def _key(setting: Setting) -> str:
    return SettingsState.values.key(setting.name)


def _save() -> None:
    """Runs when any setting changes: the widgets' values become the table's rules."""
    values = SettingsState().chosen()
    numbers = {setting.name: int(values[setting.name])
               for setting in SETTINGS if setting.kind is SettingKind.NUMBER}
    url_state.set_rules(Rules.from_dict(values | numbers))


def _reset() -> None:
    url_state.set_rules(Rules())


def _option_labeller(setting: Setting, lang: str) -> Callable[[str], str]:
    return lambda option: translate(lang, f"settings.{setting.name}.{option}")


def setting_widget(setting: Setting, rules: Rules, lang: str) -> None:
    """The widget of ``setting``, by its kind, and its one-line explanation under it."""
    label, key = t(f"settings.{setting.name}.label"), _key(setting)
    match setting.kind:
        case SettingKind.NUMBER:
            st.number_input(label, min_value=setting.minimum, max_value=setting.maximum,
                            step=1, key=key, on_change=_save)
        case SettingKind.CHOICE:
            option_label = _option_labeller(setting, lang)
            if len(setting.choices) <= SEGMENTED_MAX_CHOICES:
                st.segmented_control(label, setting.choices, format_func=option_label,
                                     required=True, key=key, on_change=_save, width="stretch")
            else:
                st.radio(label, setting.choices, format_func=option_label, key=key,
                         on_change=_save)
        case SettingKind.SWITCH:
            off = setting.requires is not None and not getattr(rules, setting.requires)
            st.toggle(label, key=key, on_change=_save, disabled=off)
    st.caption(t(f"settings.{setting.name}.help"))


rules = url_state.current_rules()
lang = current_language()  # option labels bind it: they may be formatted outside this run
SettingsState().load(rules)

with phone_page():
    st.title(t("settings.title"), anchor=False)
    st.caption(t("settings.intro"))
    if url_state.current_game() is not None:
        st.info(t("settings.game_note"), icon=":material/info:")

    for setting in SETTINGS:
        setting_widget(setting, rules, lang)

    changed = len(rules.changed())
    if changed:
        st.caption(tn("settings.changed", changed))
    else:
        st.caption(t("settings.defaults"))
    st.button(
        t("settings.reset"),
        key="settings_reset",
        icon=":material/restart_alt:",
        on_click=_reset,
        disabled=not changed,
        width="stretch",
    )
