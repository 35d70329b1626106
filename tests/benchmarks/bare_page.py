"""The baseline of ``test_bench_speed.py``: the barest Streamlit page, one button and a count.

Served by the same Streamlit as the app, with the same flags and configuration; a tap reruns
this script and changes one line of text.
"""

import streamlit as st

taps = st.session_state.setdefault("bare_taps", 0)
if st.button("Tap", key="bare_tap"):
    taps = st.session_state["bare_taps"] = taps + 1
st.write(f"Taps: {taps}")
