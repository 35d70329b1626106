"""The phone look: touch targets large enough for a noisy table, scoped to the phone pages
(:func:`phone_page`), and for the menu on every page; the entry script draws both style
sheets once, as one element."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from views import palette

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

TOUCH_TARGET_PX = 44
"""The smallest comfortable height of something to tap (Apple HIG, WCAG 2.5.5)."""

PHONE_CSS = f"""
<style>
/* Perudo Coach on a phone: every button, stepper, switch and segment at least
   {TOUCH_TARGET_PX}px tall, so a tap at a noisy table lands where it is meant to. */
.st-key-phone-page [data-testid="stButton"] button,
.st-key-phone-page [data-testid="stButtonGroup"] button,
.st-key-phone-page [data-testid="stNumberInputContainer"],
.st-key-phone-page [data-testid="stNumberInputContainer"] button {{
  min-height: {TOUCH_TARGET_PX}px;
}}
.st-key-phone-page [data-testid="stNumberInputContainer"] input {{
  min-height: {TOUCH_TARGET_PX - 4}px;
}}
.st-key-phone-page [data-testid="stCheckbox"] label,
.st-key-phone-page [data-testid="stRadio"] [role="radiogroup"] label {{
  min-height: {TOUCH_TARGET_PX}px;
  align-items: center;
}}
.st-key-phone-page [class*="_advice"] h2 {{
  padding-top: 0;
}}
.st-key-phone-page [class*="_advice"] p {{
  margin-bottom: 0.25rem;
}}
.st-key-phone-page [data-testid="stWidgetLabel"] {{
  margin-bottom: 0.1rem;
}}
/* A stepper's label (views.inputs.stepper) reads as a widget's label; its number stands out. */
.st-key-phone-page [class*="_stepper"] > [data-testid="stElementContainer"]:first-child p {{
  font-size: 0.875rem;
}}
.st-key-phone-page [class*="_steps"] [data-testid="stMarkdown"] p {{
  font-size: 1.25rem;
}}
</style>
"""
"""Scoped to containers keyed ``phone-page``: the other pages keep Streamlit's look."""


MENU_CSS = f"""
<style>
/* The menu on every page: its button and its links at least {TOUCH_TARGET_PX}px tall
   (Streamlit draws them 28px), so opening it and choosing a page take one sure tap each. */
[data-testid="stExpandSidebarButton"],
[data-testid="stSidebarCollapseButton"] button {{
  min-width: {TOUCH_TARGET_PX}px;
  min-height: {TOUCH_TARGET_PX}px;
}}
[data-testid="stSidebarNavLink"] {{
  min-height: {TOUCH_TARGET_PX}px;
}}
/* Captions in the palette's caption grey: Streamlit draws them in the ink at 60 % opacity,
   which reads 4.46:1 on the page and less on the sidebar, under WCAG's 4.5:1 for text. */
.stApp [data-testid="stCaptionContainer"] {{
  color: {palette.CAPTION};
  opacity: 1;
}}
/* A button shown as a symbol (named_symbol): its name, the label's emphasis (no other
   label has any), is read by screen readers and not shown. */
[data-testid="stButton"] button em {{
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}}
</style>
"""
"""For the entry script: the menu belongs to no page, nor do a button's hidden names."""


def named_symbol(symbol: str, name: str) -> str:
    """A button label that shows ``symbol`` (``✕``) and gives the button ``name`` for screen
    readers (``Remove player 2``): ``st.button`` takes no ``aria-label``, and its ``help``
    is a tooltip, no name. ``name`` must hold no markdown."""
    return f"{symbol} *{name}*"


def phone_page() -> DeltaGenerator:
    """A container for a page built for the phone: large touch targets.

    Use it as ``with phone_page(): ...``; its style sheet, :data:`PHONE_CSS`, is drawn by
    the entry script for every page.
    """
    return st.container(key="phone-page")


__all__ = ["MENU_CSS", "PHONE_CSS", "TOUCH_TARGET_PX", "named_symbol", "phone_page"]
