"""Perudo Coach: the entry script (``streamlit run streamlit_app.py``).

It settles the language and the state every page shares, kept in the URL
(``views.url_state``, the one owner of the URL), remembers the tracked game on this device
(``views.resume``), declares the pages, sets the page config and draws the sidebar (whose
menu closes after a choice: ``views.navigation``), offers to resume this phone's game in
progress on the pages that show a game, then runs the selected page. Page scripts live in
``app_pages/``: add one with an ``st.Page`` in the list below. The folder is deliberately
not called ``pages/``: Streamlit still treats a folder of that name as a legacy multipage
app, so the first deep link after a server start (``/game?game=…``) would show a "Page not
found" dialog, or run the page without this script. Keep heavy imports (numpy, altair,
perudo_math) out of this file: they belong to the pages.
"""

import streamlit as st

from views import live_table, my_dice, resume, url_state, warmup
from views.i18n import language_switch, t
from views.navigation import CLOSE_MENU_SCRIPT, shows_a_game
from views.phone_link import home_screen_script, phone_link
from views.style import MENU_CSS, PHONE_CSS

url_state.sync()  # once per run: the language, rules, game, seat and profile, URL ⇄ session
live_table.refresh()  # a shared table: the game as it stands, from the table's store
resume.remember()  # the tracked game, saved under this device when it changed
my_dice.settle(url_state.current_game())  # my dice are this round's, whoever moved the game

page = st.navigation(
    [
        # The default page is served at "/" only, whatever its url_path: the hidden twin below
        # answers the odds page's own address, /bid-odds, which links and bookmarks use.
        st.Page("app_pages/odds.py", title=t("nav.odds"), icon="🎲", url_path="home",
                default=True),
        st.Page("app_pages/odds.py", title=t("nav.odds"), icon="🎲", url_path="bid-odds",
                visibility="hidden"),
        st.Page("app_pages/tracker.py", title=t("nav.tracker"), icon="📋", url_path="game"),
        st.Page("app_pages/rules.py", title=t("nav.rules"), icon="📖", url_path="cheat-sheet"),
        st.Page("app_pages/practice.py", title=t("nav.practice"), icon="🎯", url_path="train"),
        st.Page("app_pages/drills.py", title=t("nav.drills"), icon="🏋️", url_path="drill"),
        st.Page("app_pages/play.py", title=t("nav.play"), icon="🤖", url_path="vs-bots"),
        st.Page("app_pages/progress.py", title=t("nav.progress"), icon="📈",
                url_path="my-progress"),
        st.Page("app_pages/settings.py", title=t("nav.settings"), icon="⚙️",
                url_path="rule-settings"),
    ]
)
st.set_page_config(
    page_title=t("app.name"),
    page_icon="🎲",
    layout="centered",
    initial_sidebar_state="auto",
)
language_switch(st.sidebar)
phone_link(st.sidebar)  # the address and QR code a phone opens
# One element for both page scripts and one for the style sheet: each st.html is drawn (and
# sanitized) on its own, a few milliseconds each on the first page of a phone.
st.sidebar.html(home_screen_script(t("app.name")) + CLOSE_MENU_SCRIPT,  # head tags; menu closes
                unsafe_allow_javascript=True)
st.html(MENU_CSS + PHONE_CSS)  # touch targets a thumb hits at the first try
resume.keep_the_token(st.sidebar)  # the device token, in a cookie of this browser only
for notice in url_state.pop_notices():
    st.warning(t(notice), icon="⚠️")
warmup.wait()  # the first session imports the heavy modules; the others wait for it
if shows_a_game(page.url_path):
    resume.resume_prompt()  # a new tab or the home-screen icon: this phone's game, one tap away
live_table.keep_watching()  # a shared table, every second: another phone's move shows
page.run()
resume.remember()  # a change the page made without a rerun
