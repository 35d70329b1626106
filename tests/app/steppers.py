"""Driving the app's steppers (``views.inputs.stepper``) in AppTest, as a thumb would."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def stepper_value(at: AppTest, key: str) -> int:
    """The number the stepper ``key`` shows."""
    return int(at.session_state[key])


def set_stepper(at: AppTest, key: str, value: int) -> AppTest:
    """Bring the stepper ``key`` to ``value`` and run: the number is put one step short, then
    the last step is a real tap of ``−`` or ``+`` (its callbacks run as they would)."""
    current = stepper_value(at, key)
    if current == value:
        return at.run()
    up = value > current
    if abs(value - current) > 1:
        at.session_state[key] = value - 1 if up else value + 1
    return at.button(key=f"{key}_{'up' if up else 'down'}").click().run()
