"""Settings page: the table's rules (docs/RULES.md), each with a one-line explanation.

Every change goes through :func:`views.url_state.set_rules`, so the rules live in the URL (a
reload or a shared link keeps them) and every page uses them: the Odds & advice page's
legality notes and coach, and the tracker for new games. A tracked game keeps the rules it
started with. Layout and wiring only.

State keys: ``settings_<rule name>`` for each widget (loaded from the shared rules on every
run, so the URL and the reset button always win), ``settings_reset`` for the reset button.
"""

import streamlit as st

from perudo_math import PalificoRule, RaiseRule, Rules
from views import url_state, widgets
from views.i18n import current_language, t, tn, translate

SWITCHES = (
    "palifico_one_die_may_change_face",
    "salsa",
    "calza",
    "calza_out_of_turn",
    "calza_heads_up",
)
CALZA_ONLY = frozenset({"calza_out_of_turn", "calza_heads_up"})  # only matter with calza on


def _key(name: str) -> str:
    return f"settings_{name}"


def _load(rules: Rules) -> None:
    """Show ``rules`` in the widgets (before they are drawn)."""
    for name, value in rules.to_dict().items():
        st.session_state[_key(name)] = value


def _save() -> None:
    """Runs when any setting changes: the widgets' values become the table's rules."""
    values = {name: st.session_state[_key(name)] for name in Rules().to_dict()}
    values["starting_dice"] = int(values["starting_dice"])
    url_state.set_rules(Rules.from_dict(values))


def _reset() -> None:
    url_state.set_rules(Rules())


def explained(name: str) -> None:
    """The one-line explanation under a setting."""
    st.caption(t(f"settings.{name}.help"))


rules = url_state.current_rules()
lang = current_language()  # option labels bind it: they may be formatted outside this run
_load(rules)

with widgets.phone_page():
    st.title(t("settings.title"), anchor=False)
    st.caption(t("settings.intro"))
    if url_state.current_game() is not None:
        st.info(t("settings.game_note"), icon=":material/info:")

    st.number_input(
        t("settings.starting_dice.label"), min_value=1, max_value=10, step=1,
        key=_key("starting_dice"), on_change=_save,
    )
    explained("starting_dice")

    st.segmented_control(
        t("settings.raise_rule.label"),
        [rule.value for rule in RaiseRule],
        format_func=lambda option: translate(lang, f"settings.raise_rule.{option}"),
        required=True,
        key=_key("raise_rule"),
        on_change=_save,
        width="stretch",
    )
    explained("raise_rule")

    st.radio(
        t("settings.palifico.label"),
        [rule.value for rule in PalificoRule],
        format_func=lambda option: translate(lang, f"settings.palifico.{option}"),
        key=_key("palifico"),
        on_change=_save,
    )
    explained("palifico")

    for name in SWITCHES:
        st.toggle(
            t(f"settings.{name}.label"),
            key=_key(name),
            on_change=_save,
            disabled=name in CALZA_ONLY and not rules.calza,
        )
        explained(name)

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
