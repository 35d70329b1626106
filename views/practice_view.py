"""Practice in the player's words and pictures: scenarios, the reveal, drills and progress charts.

The practice pages (``app_pages/practice.py``, ``drills.py``, ``progress.py``) only lay these
helpers out. Every number shown comes from ``coach`` (scenarios, drills, grades) or
``perudo_math`` (odds, legality) or the progress store; every text from the catalogs.

URL of a scenario: ``?seed=123&theme=palifico&level=2`` (:func:`spot_from_params`); the
seed alone is enough (it then picks the theme and the level), and the page writes all three
back so that a shared link reproduces the scenario exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import streamlit as st

from coach.engine.situation import Action
from perudo_math import Bid, Hand, Rules, face_name, odds
from practice.drills import LegalityDrill, OddsDrill, SmallestRaiseDrill
from practice.scenarios import THEMES, Grade, Scenario, ScenarioNotFound, generate
from views.i18n import current_language, format_decimal, format_percent, t, tn, translate
from views.widgets import FACE_GLYPHS

SEED_PARAM, THEME_PARAM, LEVEL_PARAM = "seed", "theme", "level"
SCENARIO_PARAMS = (SEED_PARAM, THEME_PARAM, LEVEL_PARAM)
MAX_SEED = 10**12
"""The largest seed a link may carry (any whole number would do; this keeps links short)."""
NEW_SEED_LIMIT = 1_000_000
"""New scenarios draw their seed below this: six digits, easy to read out at a table."""
ANY_THEME = "any"
OPTION_ROWS = 6
"""How many of the coach's options the reveal lists (the learner's move is always added)."""
ESTIMATE_TOLERANCE = 0.10
"""An estimate within this of the exact chance counts as close (as in the odds drill)."""

COACH_COLOR = "#1b7f4b"
MINE_COLOR = "#c2410c"
BOTH_COLOR = "#1b7f4b"
OTHER_COLOR = "#b9c0c8"
INK_COLOR = "#1f1d1a"
CHART_FONT = 12

COACH_MARK, MINE_MARK = "★", "●"

ROW_PX = 32
"""The height of one bar (or one row) of a horizontal chart: room for its label."""
FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")
"""Charts with one row per item: fit the width, and take ``height`` for the rows alone
(Streamlit's default ``fit`` squeezes axes and legend into it)."""


# --- scenarios from a link ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spot:
    """What picks a scenario: its seed, and its theme and level when given."""

    seed: int
    theme: str | None = None
    level: int | None = None

    def params(self) -> dict[str, str]:
        """The URL parameters of this spot."""
        params = {SEED_PARAM: str(self.seed)}
        if self.theme is not None:
            params[THEME_PARAM] = self.theme
        if self.level is not None:
            params[LEVEL_PARAM] = str(self.level)
        return params


def spot_from_params(params: Mapping[str, str]) -> Spot | None:
    """The spot a link asks for (``None`` without a seed); ``ValueError`` when it is bad."""
    seed_text = params.get(SEED_PARAM)
    if seed_text is None:
        if THEME_PARAM in params or LEVEL_PARAM in params:
            raise ValueError("a theme or level without a seed")
        return None
    if not seed_text.isdigit() or len(seed_text) > 13 or int(seed_text) > MAX_SEED:
        raise ValueError(f"not a seed: {seed_text!r}")
    theme = params.get(THEME_PARAM)
    if theme is not None and theme not in THEMES:
        raise ValueError(f"not a theme: {theme!r}")
    level_text = params.get(LEVEL_PARAM)
    level = None
    if level_text is not None:
        if level_text not in ("1", "2", "3"):
            raise ValueError(f"not a level: {level_text!r}")
        level = int(level_text)
    return Spot(int(seed_text), theme, level)


def spot_of(scenario: Scenario) -> Spot:
    """The spot that gives ``scenario`` again."""
    return Spot(scenario.seed, scenario.theme, scenario.level)


def themes_for(rules: Rules) -> tuple[str, ...]:
    """The themes a table with ``rules`` can practise (calza needs calza switched on)."""
    return tuple(theme for theme in THEMES if theme != "calza" or rules.calza)


def new_seed() -> int:
    """A fresh seed for the next scenario or drill."""
    return random.SystemRandom().randrange(1, NEW_SEED_LIMIT)


def rules_key(rules: Rules) -> tuple[tuple[str, object], ...]:
    """Rules as a hashable cache key."""
    return tuple(sorted(rules.changed().items()))


@st.cache_data(max_entries=256, show_spinner=False)
def cached_scenario(seed: int, theme: str | None, level: int | None,
                    rules: tuple[tuple[str, object], ...]) -> Scenario:
    """:func:`practice.scenarios.generate`, cached: the same spot always gives the same scenario."""
    return generate(seed, theme, level, Rules.from_dict(dict(rules)))


def find_scenario(spot: Spot, rules: Rules) -> Scenario | None:
    """The scenario of ``spot``; when its level never comes up, the nearest level that does.

    ``None`` when the theme has no spot at all at this table.
    """
    key = rules_key(rules)
    levels: list[int | None] = [spot.level]
    if spot.level is not None and spot.theme is not None:
        levels += sorted((1, 2, 3), key=lambda level: (abs(level - spot.level), level))[1:]
    for level in levels:
        try:
            return cached_scenario(spot.seed, spot.theme, level, key)
        except ScenarioNotFound:
            continue
    return None


# --- words ----------------------------------------------------------------------------------


def theme_label(theme: str) -> str:
    """A scenario theme, a drill kind or the overall rating, in words."""
    return t(f"practice.theme.{theme}")


def theme_labeller(lang: str | None = None) -> Callable[[str], str]:
    """:func:`theme_label` fixed to this run's language, for a widget's ``format_func``
    (AppTest calls it again outside the run, where the session's language is unknown)."""
    lang = lang or current_language()
    return lambda theme: translate(lang, f"practice.theme.{theme}")


def seat_name(seat: int, me: int) -> str:
    """``You`` for the learner, ``Player 3`` for seat 2."""
    return t("practice.seat.you") if seat == me else t("practice.seat.player", number=seat + 1)


def glyphs(faces: Sequence[int]) -> str:
    """Dice as die faces, the paco as the one-pip face: ``⚀ ⚃ ⚃ ⚄``."""
    return " ".join(FACE_GLYPHS[face] for face in faces)


def move_label(action: Action) -> str:
    """``Dudo``, ``Calza`` or the raise's bid, ``7 × 5``."""
    if action.kind == "raise":
        assert action.bid is not None
        return action.bid.pretty()
    return t(f"practice.move.{action.kind}")


def points(difference: float) -> str:
    """A difference of probabilities in percentage points: ``12.3 points``."""
    return t("practice.points", value=format_decimal(difference * 100, 1))


# --- the scenario as a player sees it ---------------------------------------------------------


def show_scenario(scenario: Scenario) -> None:
    """Theme, level, round; my dice; the players and their dice; this round's bids in order."""
    me = scenario.seat
    with st.container(horizontal=True, gap="small", key="practice_badges"):
        st.badge(theme_label(scenario.theme), icon=":material/school:", color="blue")
        st.badge(t("practice.level", level=scenario.level), color="gray")
        if scenario.palifico:
            st.badge(t("practice.round.palifico"), icon=":material/lock:", color="orange")
        else:
            st.badge(t("practice.round.normal"), color="green")
    with st.container(horizontal=True, vertical_alignment="center", gap="small",
                      key="practice_hand"):
        st.markdown(f"**{t('practice.hand')}**", width="content")
        st.markdown(f"### {glyphs(scenario.hand)}", anchors=False, width="content")
        st.caption(" ".join(face_name(face) for face in scenario.hand), width="content")
    st.markdown(t("practice.table", table=tn("practice.dice_on_table", scenario.dice),
                  players=tn("practice.players", scenario.players)))
    if scenario.palifico:
        st.caption(t("practice.round.palifico.note"))
    with st.container(horizontal=True, gap="small", key="practice_seats"):
        for seat, count in enumerate(scenario.seat_dice):
            name = seat_name(seat, me)
            if not count:
                st.badge(t("practice.seat.out", name=name), color="gray")
            elif seat == me:
                st.badge(tn("practice.seat.dice", count, name=name), icon=":material/person:",
                         color="violet")
            else:
                st.badge(tn("practice.seat.dice", count, name=name), color="gray")
    st.markdown(f"**{t('practice.bids')}**")
    lines = []
    for number, (seat, bid) in enumerate(scenario.bids, start=1):
        line = t("practice.bid_item", number=number, name=seat_name(seat, me), bid=bid.pretty())
        if number == len(scenario.bids):
            line = f"{line} — **{t('practice.bid_on_table')}**"
        lines.append(line)
    st.markdown("  \n".join(lines))


def default_raise(scenario: Scenario) -> Bid:
    """Where the raise inputs start: one more of the bid's face (nothing about the answer)."""
    last = scenario.last_bid
    return Bid(min(last.quantity + 1, max(scenario.dice, last.quantity)), last.face)


# --- the reveal -----------------------------------------------------------------------------


def estimate_truth(scenario: Scenario) -> float:
    """The exact chance that the bid on the table is true, every hidden die fair."""
    return odds(scenario.last_bid, Hand(scenario.hand), scenario.dice,
                palifico=scenario.palifico).at_least


def result_icon(correct: bool) -> str:
    """A green tick or a red cross (Material icons: no emoji font needed)."""
    return ":green[:material/check_circle:]" if correct else ":red[:material/cancel:]"


def verdict_line(grade: Grade) -> str:
    """Right or not, and what the coach chose."""
    if grade.is_best:
        return t("practice.result.best", move=move_label(grade.best))
    if grade.correct:
        return t("practice.result.close", move=move_label(grade.best))
    return t("practice.result.wrong", move=move_label(grade.best))


def outcome_line(scenario: Scenario, grade: Grade) -> str:
    """What the lifted cups mean for the learner's move."""
    reveal, me, bid = grade.reveal, scenario.seat, scenario.last_bid
    count = tn("practice.count", reveal.count)
    if grade.action.kind == "dudo":
        key = "practice.outcome.dudo.true" if reveal.count >= bid.quantity else (
            "practice.outcome.dudo.false")
        return t(key, count=count, bid=bid.pretty(),
                 loser=seat_name(reveal.dudo_loser, me))
    if grade.action.kind == "calza":
        if not reveal.calza_right:
            key = "practice.outcome.calza.wrong"
        elif reveal.gainer is None:
            key = "practice.outcome.calza.capped"
        else:
            key = "practice.outcome.calza.right"
        return t(key, count=count, bid=bid.pretty())
    assert grade.action.bid is not None and reveal.raise_count is not None
    raised = grade.action.bid
    responder = scenario.situation().next_seat()
    key = "practice.outcome.raise.true" if reveal.loser != me else "practice.outcome.raise.false"
    return t(key, bid=raised.pretty(), name=seat_name(responder, me),
             count=tn("practice.count", reveal.raise_count))


def shown_options(scenario: Scenario, grade: Grade) -> list[tuple[Action, float, float]]:
    """``(action, lose, gain)`` of the coach's best options and of the learner's move."""
    rows = [(option.action, option.lose, option.gain) for option in scenario.options[:OPTION_ROWS]]
    if all(action != grade.action for action, _, _ in rows):
        rows.append((grade.action, grade.lose, grade.gain))
    return rows


def options_table(scenario: Scenario, grade: Grade) -> str:
    """The moves weighed, as a markdown table: lose a die, win one back; ★ coach, ● you."""
    lines = [f"| {t('practice.col.move')} | {t('practice.col.lose')} | "
             f"{t('practice.col.gain')} |", "|:--|--:|--:|"]
    for action, lose, gain in shown_options(scenario, grade):
        marks = (f" {COACH_MARK}" if action == grade.best else "") + (
            f" {MINE_MARK}" if action == grade.action else "")
        label = move_label(action)
        if marks:
            label = f"**{label}**{marks}"
        gain_text = format_percent(gain) if action.kind == "calza" else "–"
        lines.append(f"| {label} | {format_percent(lose)} | {gain_text} |")
    return "\n".join(lines)


def options_chart(scenario: Scenario, grade: Grade) -> alt.LayerChart:
    """Horizontal bars: each move's net chance of losing a die (lose − win back), the
    coach's choice and the learner's move in colour, the value printed at the bar's end."""
    coach, mine, both, other = (t("practice.chart.coach"), t("practice.chart.mine"),
                                t("practice.chart.both"), t("practice.chart.others"))
    rows = []
    for action, lose, gain in shown_options(scenario, grade):
        is_best, is_mine = action == grade.best, action == grade.action
        role = both if is_best and is_mine else coach if is_best else mine if is_mine else other
        net = max(0.0, lose - gain)
        rows.append({"move": move_label(action), "net": net, "role": role,
                     "label": format_percent(net), "lose": format_percent(lose),
                     "gain": format_percent(gain)})
    domain = [role for role in (both, coach, mine, other) if any(r["role"] == role for r in rows)]
    colors = {both: BOTH_COLOR, coach: COACH_COLOR, mine: MINE_COLOR, other: OTHER_COLOR}
    order = [row["move"] for row in rows]
    base = alt.Chart(alt.Data(values=rows)).encode(
        y=alt.Y("move:N", sort=order, title=None,
                axis=alt.Axis(labelFontSize=CHART_FONT, labelLimit=110)),
        x=alt.X("net:Q", title=t("practice.chart.x"),
                scale=alt.Scale(domain=[0, 1.18]),
                axis=alt.Axis(format="%", tickCount=4, values=[0, 0.25, 0.5, 0.75, 1])),
    )
    bars = base.mark_bar(height={"band": 0.75}).encode(
        color=alt.Color("role:N", scale=alt.Scale(domain=domain,
                                                  range=[colors[r] for r in domain]),
                        legend=alt.Legend(title=None, orient="top", columns=2,
                                          labelFontSize=CHART_FONT)),
        tooltip=[alt.Tooltip("move:N", title=t("practice.col.move")),
                 alt.Tooltip("lose:N", title=t("practice.col.lose")),
                 alt.Tooltip("gain:N", title=t("practice.col.gain"))],
    )
    text = base.mark_text(align="left", dx=3, fontSize=CHART_FONT, color=INK_COLOR).encode(
        text="label:N")
    return alt.layer(bars, text).properties(height=ROW_PX * len(rows), autosize=FIT_WIDTH)


def cups_lines(scenario: Scenario) -> str:
    """Every seat's dice, lifted: ``Player 2: ⚀ ⚃ ⚃ ⚄ — 3 count``."""
    bid, me = scenario.last_bid, scenario.seat
    lines = []
    for seat, hand in enumerate(scenario.hidden):
        if not hand:
            continue
        matching = Hand(hand).count(bid.face, palifico=scenario.palifico)
        name = seat_name(seat, me)
        if seat == me:
            name = f"**{name}**"
        lines.append(t("practice.cup", name=name, dice=glyphs(hand),
                       count=tn("practice.cup.count", matching)))
    return "  \n".join(lines)


def show_verdict(scenario: Scenario, grade: Grade) -> None:
    """The cups lifted, in short: right or not, the regret, the true count, what happened."""
    bid = scenario.last_bid
    with st.container(border=True, key="practice_verdict"):
        st.markdown(f"#### {result_icon(grade.correct)} {verdict_line(grade)}", anchors=False)
        with st.container(horizontal=True, key="practice_metrics"):
            st.metric(t("practice.metric.regret"), format_percent(grade.regret), border=True)
            st.metric(t("practice.metric.count", bid=bid.pretty()), str(grade.reveal.count),
                      border=True)
        st.caption(t("practice.regret.help"))
        st.markdown(outcome_line(scenario, grade))


def show_details(scenario: Scenario, grade: Grade, estimate: float | None) -> None:
    """The rest of the reveal: the estimate against the exact chance, every seat's dice,
    and each option's exact chances with a chart."""
    bid = scenario.last_bid
    if estimate is not None:
        truth = estimate_truth(scenario)
        error = abs(estimate - truth)
        key = "practice.estimate.close" if error <= ESTIMATE_TOLERANCE else (
            "practice.estimate.far")
        st.markdown(t(key, bid=bid.pretty(), estimate=format_percent(estimate),
                      truth=format_percent(truth), error=points(error)))
    st.markdown(f"**{t('practice.cups')}**")
    st.markdown(cups_lines(scenario))
    st.markdown(f"**{t('practice.options')}**")
    st.markdown(options_table(scenario, grade))
    st.caption(t("practice.options.legend", coach=COACH_MARK, mine=MINE_MARK))
    st.altair_chart(options_chart(scenario, grade), width="stretch",
                    alt=t("practice.chart.alt"))
    st.caption(t("practice.chart.caption"))


# --- drills ---------------------------------------------------------------------------------


SMALLEST_CHOICES = 6
"""How many quantities a smallest-raise drill offers to tap."""


def smallest_choices(drill: SmallestRaiseDrill) -> list[Bid]:
    """Six bids on the drill's face around the answer, the answer at a place the seed picks."""
    answer = drill.answer.quantity
    offset = random.Random(f"perudo-coach/choices/{drill.seed}").randrange(SMALLEST_CHOICES)
    low = max(1, answer - offset)
    return [Bid(quantity, drill.face) for quantity in range(low, low + SMALLEST_CHOICES)]


def drill_question(drill: SmallestRaiseDrill | LegalityDrill | OddsDrill) -> str:
    """The drill's question in words."""
    match drill:
        case SmallestRaiseDrill():
            return t("drills.smallest.question", previous=drill.previous.pretty(),
                     faces=t(f"face.plural.{drill.face}"))
        case LegalityDrill():
            key = "drills.legal.question.palifico" if drill.palifico else "drills.legal.question"
            return t(key, previous=drill.previous.pretty(), bid=drill.bid.pretty())
    return t("drills.odds.question", bid=drill.bid.pretty())


def smallest_explanation(drill: SmallestRaiseDrill) -> str:
    """Why the answer is the smallest bid: half rounded up, or twice plus one."""
    key = "drills.smallest.why.pacos" if drill.face == 1 else "drills.smallest.why.face"
    return t(key, previous=drill.previous.pretty(), quantity=drill.previous.quantity,
             answer=drill.answer.pretty())


def odds_drill_table(drill: OddsDrill) -> str:
    """What the learner sees of an odds drill: the hand, the table, the round."""
    return t("drills.odds.table", dice=glyphs(drill.hand),
             table=tn("practice.dice_on_table", drill.dice),
             round=t("practice.round.palifico" if drill.palifico else "practice.round.normal"))


def odds_drill_outcome(drill: OddsDrill) -> str:
    """What the cups showed: the count, and whether the bid was true."""
    key = "drills.odds.outcome.true" if drill.outcome else "drills.odds.outcome.false"
    return t(key, count=tn("practice.count", drill.count))


# --- progress charts ------------------------------------------------------------------------


def accuracy_chart(labels: Sequence[str], values: Sequence[float], title: str,
                   color: str = COACH_COLOR, full_scale: bool = True) -> alt.LayerChart:
    """A line of ``values`` over ``labels`` in order, each point printed; the y axis runs
    from 0% to 100% (``full_scale``) or from 0% to a little above the largest value."""
    rows = [{"label": label, "value": value, "text": format_percent(value)}
            for label, value in zip(labels, values, strict=True)]
    top = min(1.0, max(0.05, *values) * 1.25)
    base = alt.Chart(alt.Data(values=rows)).encode(
        x=alt.X("label:O", sort=list(labels), title=None,
                axis=alt.Axis(labelAngle=-40, labelOverlap="parity", labelFontSize=11)),
        y=alt.Y("value:Q", title=title,
                scale=alt.Scale(domain=[0, 1] if full_scale else [0, top]),
                axis=alt.Axis(format="%", tickCount=4)),
    )
    line = base.mark_line(point=alt.OverlayMarkDef(color=color, size=50), color=color)
    text = base.mark_text(dy=-9, fontSize=11, color=INK_COLOR).encode(text="text:N")
    return alt.layer(line, text).properties(height=180)


def calibration_chart(rows: Sequence[tuple[float, float, int]]) -> alt.LayerChart:
    """Observed frequency against the estimate, one point per band (sized by answers),
    with the diagonal of perfect calibration."""
    estimate_title, observed_title = t("progress.calibration.x"), t("progress.calibration.y")
    data = [{"estimate": estimate, "observed": observed, "answers": answers,
             "estimate_text": format_percent(estimate), "observed_text": format_percent(observed)}
            for estimate, observed, answers in rows]
    unit = alt.Scale(domain=[-0.04, 1.04], nice=False)  # room for a dot at 0% or 100%
    ticks = alt.Axis(format="%", values=[0, 0.2, 0.4, 0.6, 0.8, 1])
    diagonal = alt.Chart(alt.Data(values=[{"x": 0.0, "y": 0.0}, {"x": 1.0, "y": 1.0}])).mark_line(
        color=OTHER_COLOR, strokeDash=[5, 4]).encode(x=alt.X("x:Q", scale=unit),
                                                  y=alt.Y("y:Q", scale=unit))
    points_layer = alt.Chart(alt.Data(values=data)).mark_circle(
        color=MINE_COLOR, opacity=0.85).encode(
        x=alt.X("estimate:Q", title=estimate_title, scale=unit, axis=ticks),
        y=alt.Y("observed:Q", title=observed_title, scale=unit, axis=ticks),
        size=alt.Size("answers:Q", legend=None, scale=alt.Scale(range=[60, 400])),
        tooltip=[alt.Tooltip("estimate_text:N", title=estimate_title),
                 alt.Tooltip("observed_text:N", title=observed_title),
                 alt.Tooltip("answers:Q", title=t("progress.answers"))],
    )
    return alt.layer(diagonal, points_layer).properties(height=280)


def themes_chart(rows: Sequence[tuple[str, float, int, bool]]) -> alt.LayerChart:
    """Accuracy per theme, weakest first: ``(label, accuracy, answers, weakest)`` rows."""
    weak, other = t("progress.themes.weak"), t("progress.themes.rest")
    data = [{"theme": label, "accuracy": accuracy, "answers": answers,
             "group": weak if weakest else other, "text": format_percent(accuracy)}
            for label, accuracy, answers, weakest in rows]
    order = [row["theme"] for row in data]
    domain = [group for group in (weak, other) if any(row["group"] == group for row in data)]
    colors = {weak: MINE_COLOR, other: OTHER_COLOR}
    base = alt.Chart(alt.Data(values=data)).encode(
        y=alt.Y("theme:N", sort=order, title=None,
                axis=alt.Axis(labelFontSize=CHART_FONT, labelLimit=150)),
        x=alt.X("accuracy:Q", title=t("progress.themes.x"), scale=alt.Scale(domain=[0, 1.2]),
                axis=alt.Axis(format="%", values=[0, 0.5, 1])),
    )
    bars = base.mark_bar(height={"band": 0.75}).encode(
        color=alt.Color("group:N", scale=alt.Scale(domain=domain,
                                                   range=[colors[g] for g in domain]),
                        legend=alt.Legend(title=None, orient="top")),
        tooltip=[alt.Tooltip("theme:N", title=t("progress.themes.theme")),
                 alt.Tooltip("text:N", title=t("progress.themes.x")),
                 alt.Tooltip("answers:Q", title=t("progress.answers"))],
    )
    text = base.mark_text(align="left", dx=3, fontSize=CHART_FONT, color=INK_COLOR).encode(
        text="text:N")
    return alt.layer(bars, text).properties(height=ROW_PX * len(data), autosize=FIT_WIDTH)


def ratings_chart(rows: Sequence[tuple[str, float, float]]) -> alt.LayerChart:
    """Each theme's rating as a dot with its uncertainty (± deviation) as a bar."""
    data = [{"theme": label, "rating": rating, "low": rating - deviation,
             "high": rating + deviation, "text": str(round(rating))}
            for label, rating, deviation in rows]
    order = [row["theme"] for row in data]
    low = min(1000.0, *(row["low"] for row in data))
    high = max(2000.0, *(row["high"] for row in data))
    y = alt.Y("theme:N", sort=order, title=None,
              axis=alt.Axis(labelFontSize=CHART_FONT, labelLimit=150))
    x_scale = alt.Scale(domain=[low, high], zero=False, nice=False)
    spread = alt.Chart(alt.Data(values=data)).mark_rule(
        color=OTHER_COLOR, strokeWidth=6).encode(
        y=y, x=alt.X("low:Q", title=t("progress.ratings.x"), scale=x_scale,
                     axis=alt.Axis(tickCount=4, format="d")),
        x2="high:Q")
    dot = alt.Chart(alt.Data(values=data)).mark_circle(size=120, color=COACH_COLOR,
                                                       opacity=1).encode(
        y=y, x=alt.X("rating:Q", scale=x_scale),
        tooltip=[alt.Tooltip("theme:N", title=t("progress.themes.theme")),
                 alt.Tooltip("text:N", title=t("progress.ratings.x"))])
    text = alt.Chart(alt.Data(values=data)).mark_text(dy=-12, fontSize=11,
                                                      color=INK_COLOR).encode(
        y=y, x=alt.X("rating:Q", scale=x_scale), text="text:N")
    return alt.layer(spread, dot, text).properties(height=(ROW_PX + 8) * len(data),
                                                   autosize=FIT_WIDTH)


__all__ = [
    "ANY_THEME",
    "SCENARIO_PARAMS",
    "Spot",
    "accuracy_chart",
    "cached_scenario",
    "calibration_chart",
    "default_raise",
    "drill_question",
    "estimate_truth",
    "find_scenario",
    "glyphs",
    "move_label",
    "new_seed",
    "odds_drill_outcome",
    "odds_drill_table",
    "options_chart",
    "options_table",
    "outcome_line",
    "points",
    "ratings_chart",
    "result_icon",
    "rules_key",
    "seat_name",
    "show_details",
    "show_scenario",
    "show_verdict",
    "smallest_choices",
    "smallest_explanation",
    "spot_from_params",
    "spot_of",
    "theme_label",
    "theme_labeller",
    "themes_for",
    "verdict_line",
]
