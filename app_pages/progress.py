"""Progress page: the profile's answers over time, calibration, weakest themes, ratings, and
its games against the bots.

Only the profile in this page's link is shown (``?profile=<token>``); nothing lists or names
other profiles. Charts are altair, sized for a 390 px phone: accuracy and the average risk
added (regret, in points) per day (or per run of answers while there is only one day),
estimated vs observed frequency with the diagonal, accuracy per theme with the weakest
marked (a theme with no wrong answer is never weak), and the rating per theme with its
uncertainty.
"""

from __future__ import annotations

import streamlit as st

from coach.play.bot_game import STYLES
from practice.weakness import weakest_first
from storage.progress import OVERALL, ProgressStore
from views import profile
from views import progress_view as view
from views.i18n import format_decimal, format_percent, t
from views.practice_common import theme_label
from views.style import phone_page
from views.text import literal

RUN_LENGTH = 5  # answers per point of the time charts while they all fall on one day
WEAKEST = 3  # how many themes the page calls the weakest


def time_charts(store: ProgressStore, token: str) -> None:
    offset = -int(st.context.timezone_offset or 0)
    by_day = store.accuracy_over_time(token, per="day", utc_offset_minutes=offset)
    per: str | int = "day"
    if len(by_day) < 2:
        per = RUN_LENGTH
        by_day = store.accuracy_over_time(token, per=per)
    st.subheader(t("progress.time.heading"), anchor=False)
    st.caption(t("progress.time.by_day" if per == "day" else "progress.time.by_run",
                 count=RUN_LENGTH))
    st.altair_chart(
        view.accuracy_chart([point.label for point in by_day],
                            [point.accuracy for point in by_day], t("progress.accuracy")),
        width="stretch", alt=t("progress.time.alt"))
    regrets = [point for point in store.accuracy_over_time(
        token, per=per, kind="scenario",
        utc_offset_minutes=offset) if point.mean_regret is not None]
    if regrets:
        st.altair_chart(
            view.risk_points_chart([point.label for point in regrets],
                                   [point.mean_regret or 0.0 for point in regrets],
                                   t("progress.regret")),
            width="stretch", alt=t("progress.regret.alt"))
        st.caption(t("progress.regret.help"))


def calibration(store: ProgressStore, token: str) -> None:
    st.subheader(t("progress.calibration.heading"), anchor=False)
    rows = [(bucket.mean_estimate, bucket.observed, bucket.answers)
            for bucket in store.calibration(token) if bucket.observed is not None]
    if not rows:
        st.caption(t("progress.calibration.empty"))
        return
    st.altair_chart(view.calibration_chart(rows), width="stretch",
                    alt=t("progress.calibration.alt"))
    st.caption(t("progress.calibration.help"))


def themes(store: ProgressStore, token: str) -> None:
    st.subheader(t("progress.themes.heading"), anchor=False)
    weakest = store.weakest_themes(token, limit=WEAKEST)
    weak_names = {row.theme for row in weakest}
    rows = [(theme_label(row.theme), row.accuracy, row.answers, row.theme in weak_names)
            for row in weakest_first(store.theme_stats(token))]
    st.altair_chart(view.themes_chart(rows), width="stretch", alt=t("progress.themes.alt"))
    if not weakest:
        st.caption(t("progress.themes.none"))
        return
    lines = [t("progress.themes.item", theme=theme_label(row.theme),
               accuracy=format_percent(row.accuracy), answers=row.answers)
             for row in weakest]
    st.markdown("  \n".join(lines))


def ratings(store: ProgressStore, token: str) -> None:
    st.subheader(t("progress.ratings.heading"), anchor=False)
    by_theme = store.ratings(token)
    ordered = sorted(by_theme.items(), key=lambda item: (item[0] != OVERALL, item[0]))
    rows = [(theme_label(theme), rating.rating, rating.deviation)
            for theme, rating in ordered]
    if rows:
        st.altair_chart(view.ratings_chart(rows), width="stretch",
                        alt=t("progress.ratings.alt"))
    st.caption(t("progress.ratings.help"))


def style_name(style: str) -> str:
    """An opponent style in words; a style this version does not know, as it was stored."""
    return t(f"play.style.{style}") if style in STYLES else literal(style)


def games(store: ProgressStore, token: str) -> None:
    """Games against the bots: results per opponent style, and the risk added per decision
    game after game."""
    played = store.games(token)
    if not played:
        return
    st.subheader(t("progress.games.heading"), anchor=False)
    lines = [f"| {t('progress.games.col.style')} | {t('progress.games.col.games')} | "
             f"{t('progress.games.col.wins')} | {t('progress.games.col.added')} |",
             "|:---|---:|---:|---:|"]
    for row in store.results_by_style(token):
        added = row.added_per_decision
        lines.append(f"| {style_name(row.style)} | {row.games} | "
                     f"{row.wins} ({format_percent(row.win_rate)}) | "
                     f"{'–' if added is None else format_decimal(added)} |")
    st.markdown("\n".join(lines))
    points = [(index + 1, game.added_per_decision) for index, game in enumerate(played)
              if game.added_per_decision is not None]
    if points:
        st.altair_chart(
            view.risk_points_chart([str(number) for number, _ in points],
                                   [value / 100 for _, value in points],
                                   t("progress.games.added")),
            width="stretch", alt=t("progress.games.alt"))
    st.caption(t("progress.games.help"))


def summary(store: ProgressStore, token: str) -> int:
    stats = store.theme_stats(token)
    answers = sum(row.answers for row in stats)
    if not answers:
        return 0
    right = sum(row.accuracy * row.answers for row in stats) / answers
    overall = store.ratings(token).get(OVERALL)
    with st.container(horizontal=True, key="progress_metrics"):
        st.metric(t("progress.answers"), str(answers), border=True)
        st.metric(t("progress.accuracy"), format_percent(right), border=True)
        if overall is not None:
            st.metric(t("progress.rating"), str(round(overall.rating)), border=True)
    return answers


def page() -> None:
    st.title(t("progress.title"), anchor=False)
    status = profile.banner()
    target = profile.active_store()
    if target is None:
        if status is profile.Status.NONE:
            st.info(t("progress.none"), icon=":material/sports_score:")
        st.page_link(page="app_pages/practice.py", label=t("progress.go_practice"),
                     icon=":material/school:")
        return
    store, token = target
    if not summary(store, token):
        if not store.games(token):
            st.info(t("progress.empty"), icon=":material/sports_score:")
    else:
        time_charts(store, token)
        themes(store, token)
        ratings(store, token)
        calibration(store, token)
    games(store, token)
    with st.container(horizontal=True, gap="small", key="progress_links"):
        st.page_link(page="app_pages/practice.py", label=t("progress.go_practice"),
                     icon=":material/school:")
        st.page_link(page="app_pages/drills.py", label=t("progress.go_drills"),
                     icon=":material/fitness_center:")


with phone_page():
    page()
