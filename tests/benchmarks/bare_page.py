"""The baseline of ``test_bench_speed.py``: the barest Streamlit page, one button and a count.

Served by the same Streamlit as the app, with the same flags and configuration; a tap reruns
this script and changes one line of text. With ``?elements=N`` (0 to 60) a tap also redraws
N more elements, by turns a line of text and a button, each showing the count: a bare page
whose tap changes as much as one of the app's, to tell what a tap costs the browser for
the elements it redraws from what it costs for the app's own work.
"""

import streamlit as st

taps = st.session_state.setdefault("bare_taps", 0)
if st.button("Tap", key="bare_tap"):
    taps = st.session_state["bare_taps"] = taps + 1
st.write(f"Taps: {taps}")
asked = st.query_params.get("elements", "0")
for element in range(min(int(asked), 60) if asked.isdigit() else 0):
    if element % 2:
        st.button(f"{element}: {taps}", key=f"bare_{element}")
    else:
        st.markdown(f"Line {element}: **{taps}** taps")
