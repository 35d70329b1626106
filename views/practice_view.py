"""The practice page in the player's words and pictures: a scenario, the learner's move, the reveal.

``app_pages/practice.py`` only lays these helpers out. Every number shown comes from
``practice`` (scenarios, grades) or ``perudo_math`` (odds, legality); every text from the
catalogs; the colours from :mod:`views.palette`.

The link of a scenario: ``?seed=123&theme=palifico&level=2`` (:func:`spot_from_link`); the
seed alone is enough (it then picks the theme and the level), and the page writes all three
back (:func:`link_params`) so that a shared link reproduces the scenario exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from coach.engine.situation import DUDO, Action
from coach.play.bot_game import MAX_SEED as MAX_GAME_SEED
from coach.play.bot_game import BotGame, BotTable
from coach.review import tracked_decision
from perudo_math import GameState, Hand, Rules, face_name, odds
from perudo_math.checks import is_ascii_digits
from practice.drills import estimate_grade
from practice.scenarios import (
    LEVELS,
    THEMES,
    Grade,
    Scenario,
    ScenarioNotFound,
    from_decision,
    from_tracked,
    generate,
    picked,
)
from views import charts, palette, review_view, url_state
from views.dice import glyphs
from views.i18n import current_language, format_percent, t, tn, translate
from views.play_view import player_names
from views.practice_common import points, result_icon, risk_points, theme_label
from views.text import elided, player_name, small, unbroken

SEED_PARAM, THEME_PARAM, LEVEL_PARAM = "seed", "theme", "level"
GAME_SPOT_PARAM = "review"
"""A spot taken from a reviewed game: against the bots, ``seed~styles~moves`` (the game up to
the decision); kept in the tracker, ``t~code~seat~round~hand~n`` (:func:`tracked_spot`)."""
TRACKED = "t"
"""The first part of a tracked game's spot."""
SCENARIO_PARAMS = (SEED_PARAM, THEME_PARAM, LEVEL_PARAM, GAME_SPOT_PARAM)
MAX_SEED = 10**12
MAX_SPOT_NUMBER_DIGITS = 4
"""A tracked spot's seat, round and decision numbers are short: a longer one is no spot."""
"""The largest seed a link may carry (any whole number would do; this keeps links short)."""
BAD_LINK_NOTICE = "practice.notice.bad_link"
CALZA_OFF_NOTICE = "practice.notice.calza_off"
ANY_THEME = "any"
OPTION_ROWS = 6
"""How many of the coach's options the reveal lists (the learner's move is always added)."""

COACH_MARK, MINE_MARK = "★", "●"
CHEAT_SHEET_PAGE = "app_pages/rules.py"
"""Where the grades are defined."""


# --- scenarios from a link ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spot:
    """What picks a scenario: its seed, and its theme and level when given."""

    seed: int
    theme: str | None = None
    level: int | None = None
    game: str | None = None
    """A decision of a game against the bots (:func:`game_spot`): the spot is that one."""


def link_params(spot: Spot) -> dict[str, str | None]:
    """The URL parameters of ``spot`` (``None``: not in the link)."""
    if spot.game is not None:
        return {SEED_PARAM: None, THEME_PARAM: None, LEVEL_PARAM: None,
                GAME_SPOT_PARAM: spot.game}
    return {SEED_PARAM: str(spot.seed), THEME_PARAM: spot.theme,
            LEVEL_PARAM: None if spot.level is None else str(spot.level), GAME_SPOT_PARAM: None}


def game_spot(game: BotGame, decision: int) -> str:
    """The link's text of the learner's ``decision``-th move (from 0) in ``game``: the game
    up to that move (``seed~styles~moves``), the spot being the learner's turn it reaches."""
    return "~".join([str(game.seed), ",".join(game.styles),
                     BotGame(game.seed, game.styles, game.rules,
                             game.moves[:decision]).moves_text()])


def tracked_spot(game: GameState, seat: int, round_number: int, hand: Hand,
                 decision: int) -> str:
    """The link's text of ``seat``'s ``decision``-th move (from 0) in round ``round_number``
    of a tracked ``game``, where the player held ``hand``. Only for a finished round: its
    cups were lifted at the table, so the link gives away no dice still hidden."""
    if round_number > len(game.results):
        raise ValueError(f"round {round_number} is not over: its dice stay out of links")
    return "~".join([TRACKED, game.to_code(), str(seat), str(round_number),
                     "".join(map(str, hand.faces)), str(decision)])


def _tracked_parts(text: str) -> tuple[GameState, int, int, Hand, int]:
    """The game, seat, round, hand and decision of :func:`tracked_spot`'s text; ValueError
    when it is not one."""
    parts = text.split("~")
    if len(parts) != 6 or parts[0] != TRACKED or not all(
            is_ascii_digits(part, MAX_SPOT_NUMBER_DIGITS)
            for part in (parts[2], parts[3], parts[5])):
        raise ValueError("not a tracked game's spot")
    game = GameState.from_code(parts[1])
    if not is_ascii_digits(parts[4]):
        raise ValueError("not a hand")
    hand = Hand(tuple(int(face) for face in parts[4]))
    seat, number = int(parts[2]), int(parts[3])
    if not 0 <= seat < len(game.players) or not 1 <= number <= len(game.results):
        raise ValueError("no such seat or finished round in this game")
    return game, seat, number, hand, int(parts[5])


def is_tracked(text: str) -> bool:
    """Whether a game spot's text (:data:`GAME_SPOT_PARAM`) is a tracked game's."""
    return text.startswith(TRACKED + "~")


def _game_spot_text(text: str) -> str:
    """``text`` when it reads as :func:`game_spot`'s or :func:`tracked_spot`'s (the game
    itself is replayed later, once: :func:`cached_game_scenario`); ValueError otherwise."""
    if is_tracked(text):
        _tracked_parts(text)
        return text
    parts = text.split("~")
    if len(parts) != 3 or not is_ascii_digits(parts[0], len(str(MAX_GAME_SEED))):
        raise ValueError("not a game spot")
    BotGame(int(parts[0]), tuple(parts[1].split(",")), url_state.current_rules(),
            BotGame.read_moves(parts[2]))
    return text


def spot_from_link() -> Spot | None:
    """The spot the link asks for; ``None`` without one, or when the link is bad (its
    notice then waits in :func:`views.url_state.pop_notices`)."""
    given = {name for name in SCENARIO_PARAMS if url_state.in_link(name)}
    if not given:
        return None
    if GAME_SPOT_PARAM in given:
        text = url_state.read(GAME_SPOT_PARAM, _game_spot_text, notice=BAD_LINK_NOTICE)
        return None if text is None else Spot(0, game=text)
    seed = url_state.read(SEED_PARAM, url_state.whole_number(0, MAX_SEED),
                          notice=BAD_LINK_NOTICE)
    theme = url_state.read(THEME_PARAM, url_state.choice(THEMES), notice=BAD_LINK_NOTICE)
    level = url_state.read(LEVEL_PARAM, url_state.whole_number(min(LEVELS), max(LEVELS)),
                           notice=BAD_LINK_NOTICE)
    read = {SEED_PARAM: seed, THEME_PARAM: theme, LEVEL_PARAM: level}
    if seed is None or any(read[name] is None for name in given):
        url_state.notify(BAD_LINK_NOTICE)  # a theme or a level without a seed, for one
        return None
    return Spot(seed, theme, level)


def spot_of(scenario: Scenario) -> Spot:
    """The spot that gives ``scenario`` again."""
    if scenario.source is not None:
        return Spot(0, game=scenario.source)
    return Spot(scenario.seed, scenario.theme, scenario.level)


def themes_for(rules: Rules) -> tuple[str, ...]:
    """The themes a table with ``rules`` can practise (calza needs calza switched on)."""
    return tuple(theme for theme in THEMES if theme != "calza" or rules.calza)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_scenario(seed: int, theme: str, level: int, rules: Rules) -> Scenario:
    """:func:`practice.scenarios.generate`, cached: the same spot always gives the same scenario."""
    return generate(seed, theme, level, rules)


@st.cache_data(max_entries=64, show_spinner=False)
def cached_game_scenario(text: str, rules: Rules) -> Scenario | None:
    """The scenario of a game spot (:func:`game_spot`): its game replayed to the learner's
    turn. ``None`` (cached too: a refused link is replayed once) when it is not one."""
    if text.startswith(TRACKED + "~"):
        return _tracked_scenario(text)
    parts = text.split("~")
    try:
        game = BotGame(int(parts[0]), tuple(parts[1].split(",")), rules,
                       BotGame.read_moves(parts[2]))
        table = BotTable(game)
        if not table.my_turn:
            return None
        return from_decision(table.situation, [hand.faces for hand in table.hands],
                             game.seed, text)
    except (ValueError, IndexError):
        return None


def _tracked_scenario(text: str) -> Scenario | None:
    """The scenario of a tracked game's spot: the decision replayed from the game's code,
    with the round's showdown; ``None`` when the text names no decision facing a bid."""
    try:
        game, seat, number, hand, decision = _tracked_parts(text)
        situation, _ = tracked_decision(game, seat, {number: hand}, decision)
        result = game.results[number - 1]
        return from_tracked(situation, (result.bid, result.count), text)
    except (ValueError, IndexError):
        return None


def find_scenario(spot: Spot, rules: Rules) -> Scenario | None:
    """The scenario of ``spot``; when its level never comes up, the nearest level that does.

    ``None`` when the theme has no spot at all at this table, or the game spot is not one
    (an opening, a game played with other rules).
    """
    if spot.game is not None:
        return cached_game_scenario(spot.game, rules)
    # The cache is keyed on the theme and level the seed deals, not on the link's: a link
    # with the seed alone and the page's link once written (all three) share one entry.
    theme, level = picked(spot.seed, spot.theme, spot.level, rules)
    levels = [level]
    if spot.level is not None and spot.theme is not None:
        levels += sorted(LEVELS, key=lambda other: (abs(other - level), other))[1:]
    for level in levels:
        try:
            return cached_scenario(spot.seed, theme, level, rules)
        except ScenarioNotFound:
            continue
    return None


# --- words ----------------------------------------------------------------------------------


def seat_name(seat: int, me: int, names: Sequence[str] | None = None) -> str:
    """``You`` for the learner; another seat by its ``names`` (a review's spot: see
    :func:`seat_names`), else ``Player 3`` for seat 2."""
    if seat == me:
        return t("practice.seat.you")
    if names is not None and seat < len(names):
        return names[seat]
    return t("practice.seat.player", number=seat + 1)


def seat_names(scenario: Scenario) -> tuple[str, ...] | None:
    """The players of a review's spot as its game named them: a tracked game's names (as
    literal markdown), the bots as the play page names them; ``None`` for a generated
    scenario, whose players are numbered."""
    text = scenario.source
    if text is None:
        return None
    try:
        if is_tracked(text):
            game = _tracked_parts(text)[0]
            return tuple(player_name(game, seat) for seat in range(len(game.players)))
        return tuple(player_names(text.split("~")[1].split(",")))
    except (ValueError, IndexError):
        return None


def move_label(action: Action) -> str:
    """``Dudo``, ``Calza`` or the raise's bid, ``7 × 5``."""
    if action.kind == "raise":
        assert action.bid is not None
        return action.bid.pretty()
    return t(f"practice.move.{action.kind}")


# --- the scenario as a player sees it ---------------------------------------------------------


def show_scenario(scenario: Scenario) -> None:
    """Theme, level, round; my dice; the players and their dice; this round's bids in order."""
    me, names = scenario.seat, seat_names(scenario)
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
            name = seat_name(seat, me, names)
            if not count:
                st.badge(t("practice.seat.out", name=name), color="gray")
            elif seat == me:
                st.badge(tn("practice.seat.dice", count, name=name), icon=":material/person:",
                         color="violet")
            else:
                st.badge(tn("practice.seat.dice", count, name=name), color="gray")
    st.markdown(f"**{t('practice.bids')}**")
    st.markdown("  \n".join(bid_lines(scenario, names)))


def bid_lines(scenario: Scenario, names: Sequence[str] | None) -> list[str]:
    """This round's bids in order, numbered, the one on the table marked; a long round's
    first and last ones, the bids between counted (:func:`views.text.elided`)."""
    lang = current_language()  # asked once: a round may hold thousands of bids
    bids = scenario.bids
    first, skipped, last = elided(tuple(enumerate(bids, start=1)))
    bidders = {seat: seat_name(seat, scenario.seat, names)
               for seat in {seat for _, (seat, _) in (*first, *last)}}
    lines = [translate(lang, "practice.bid_item", number=number, name=bidders[seat],
                       bid=bid.pretty()) for number, (seat, bid) in first]
    if skipped:
        lines.append(tn("common.bids_skipped", skipped))
    lines += [translate(lang, "practice.bid_item", number=number, name=bidders[seat],
                        bid=bid.pretty()) for number, (seat, bid) in last]
    lines[-1] = f"{lines[-1]} — **{t('practice.bid_on_table')}**"
    return lines


# --- the reveal -----------------------------------------------------------------------------


def estimate_truth(scenario: Scenario) -> float:
    """The exact chance that the bid on the table is true, every hidden die fair."""
    return odds(scenario.last_bid, Hand(scenario.hand), scenario.dice,
                palifico=scenario.palifico).at_least


def verdict_line(grade: Grade) -> str:
    """Right or not, and what the coach chose (a heading: the bid never splits)."""
    best = unbroken(move_label(grade.best))
    if grade.is_best:
        return t("practice.result.best", move=best)
    if grade.correct:
        return t("practice.result.close", move=best)
    return t("practice.result.wrong", move=best)


def risk_line(grade: Grade, best_gain: float = 0.0) -> str:
    """How much risk of losing a die the move added to the best, in points, in words; net of
    a calza's chance of winning a die back (the move's ``grade.gain``, the best's
    ``best_gain``), and then it says so."""
    if grade.regret <= 0:
        return t("practice.regret.none")
    key = "practice.regret.help_net" if grade.gain > 0 or best_gain > 0 else "practice.regret.help"
    return t(key, points=risk_points(grade.regret))


def grade_line(grade: Grade) -> str:
    """What the grade compares: the move's chance of losing a die before the dice were
    shown against the coach's best move's; and what the cups said, when otherwise."""
    return review_view.grade_line(grade.action, grade.best, lose=grade.lose, gain=grade.gain,
                                  best_lose=grade.best_lose, best_gain=grade.best_gain,
                                  points=risk_points(grade.regret), good=grade.correct,
                                  outcome=grade.outcome)


def read_chance(scenario: Scenario) -> float | None:
    """The chance that the bid on the table is true as the coach reads the bids (its dudo
    option's), ``None`` if the coach did not weigh a dudo."""
    dudo = scenario.option(DUDO)
    return None if dudo is None else dudo.p_true


def chances_line(scenario: Scenario) -> str | None:
    """The bid on the table's chance from the dice alone and once the bids are read."""
    read = read_chance(scenario)
    if read is None:
        return None
    return t("practice.reading.chances", bid=scenario.last_bid.pretty(),
             plain=format_percent(estimate_truth(scenario)), read=format_percent(read))


def tracked_outcome(scenario: Scenario) -> str:
    """How the round of a tracked game's spot ended at the table, and what that says of
    the bid the learner faced (when the count was on its face)."""
    assert scenario.showdown is not None
    called, count = scenario.showdown
    known, bid = scenario.true_count, scenario.last_bid
    words = {"called": called.pretty(), "count": tn("practice.count", count), "bid": bid.pretty()}
    if known is None:
        return t("practice.outcome.tracked.unknown", faces=t(f"face.plural.{bid.face}"), **words)
    held = "held" if known >= bid.quantity else "failed"
    return t(f"practice.outcome.tracked.{held}", **words)


def outcome_line(scenario: Scenario, grade: Grade) -> str:
    """What the lifted cups mean for the learner's move (a tracked game's spot: how the
    round ended at the table)."""
    if grade.reveal is None:
        return tracked_outcome(scenario)
    reveal, me, bid = grade.reveal, scenario.seat, scenario.last_bid
    count = tn("practice.count", reveal.count)
    if grade.action.kind == "dudo":
        key = "practice.outcome.dudo.true" if reveal.count >= bid.quantity else (
            "practice.outcome.dudo.false")
        return t(key, count=count, bid=bid.pretty(),
                 loser=seat_name(reveal.dudo_loser, me, seat_names(scenario)))
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
    return t(key, bid=raised.pretty(), name=seat_name(responder, me, seat_names(scenario)),
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


def options_chart(scenario: Scenario, grade: Grade) -> str:
    """Horizontal bars (HTML, :func:`views.charts.rows_html`): each move's net chance of
    losing a die (lose − win back), the coach's choice and the learner's move in colour and
    marked ★ and ● as in the table (not by colour alone), the value printed at the bar's end,
    the move's chances in its tooltip."""
    coach, mine, both, other = (t("practice.chart.coach"), t("practice.chart.mine"),
                                t("practice.chart.both"), t("practice.chart.others"))
    colours = {both: palette.COACH, coach: palette.COACH, mine: palette.MINE,
               other: palette.OTHER}
    rows: list[charts.Row] = []
    roles: set[str] = set()
    for action, lose, gain in shown_options(scenario, grade):
        is_best, is_mine = action == grade.best, action == grade.action
        role = both if is_best and is_mine else coach if is_best else mine if is_mine else other
        roles.add(role)
        net = max(0.0, lose - gain)
        marks = (f" {COACH_MARK}" if is_best else "") + (f" {MINE_MARK}" if is_mine else "")
        label = move_label(action) + marks
        rows.append(charts.Row(label, net, format_percent(net), colours[role], (
            (t("practice.col.move"), label), (t("practice.col.lose"), format_percent(lose)),
            (t("practice.col.gain"), format_percent(gain)))))
    legend = [(role, colours[role]) for role in (both, coach, mine, other) if role in roles]
    return charts.rows_html(rows, legend, t("practice.chart.x"), t("practice.chart.alt"),
                            current_language())


def cups_lines(scenario: Scenario) -> str:
    """Every seat's dice, lifted: ``Player 2: ⚀ ⚃ ⚃ ⚄ — 3 count``."""
    bid, me, names = scenario.last_bid, scenario.seat, seat_names(scenario)
    lines = []
    for seat, hand in enumerate(scenario.hidden):
        if not hand:
            continue
        matching = Hand(hand).count(bid.face, palifico=scenario.palifico)
        name = seat_name(seat, me, names)
        if seat == me:
            name = f"**{name}**"
        lines.append(t("practice.cup", name=name, dice=glyphs(hand),
                       count=tn("practice.cup.count", matching)))
    return "  \n".join(lines)


def show_verdict(scenario: Scenario, grade: Grade) -> None:
    """The cups lifted, in short: right or not, the risk the move added, the true count,
    what happened."""
    bid = scenario.last_bid
    with st.container(border=True, key="practice_verdict"):
        st.markdown(f"#### {result_icon(grade.correct)} {verdict_line(grade)}", anchors=False)
        with st.container(horizontal=True, key="practice_metrics"):
            st.metric(t("practice.metric.regret"), risk_points(grade.regret), border=True)
            if scenario.true_count is not None:
                st.metric(t("practice.metric.count", bid=bid.pretty()),
                          str(scenario.true_count), border=True)
        st.markdown(f"{small(risk_line(grade, scenario.options[0].gain))}\n\n"
                    f"{outcome_line(scenario, grade)}\n\n{grade_line(grade)}")
        st.page_link(page=CHEAT_SHEET_PAGE, label=t("review.grades_link"),
                     icon=":material/menu_book:")


def show_details(scenario: Scenario, grade: Grade, estimate: float | None) -> None:
    """The rest of the reveal: the estimate against the dice alone, every seat's dice, the
    bid's chance from the dice alone and once the bids are read (and why they differ), then
    each option's chances as the coach reads the bids, with a chart."""
    # One block of markdown, captions included: each element costs the phone a redraw.
    blocks = []
    if estimate is not None:
        truth = estimate_truth(scenario)
        error = abs(estimate - truth)
        blocks.append(t(f"practice.estimate.{estimate_grade(error)}",
                        bid=scenario.last_bid.pretty(), estimate=format_percent(estimate),
                        truth=format_percent(truth), error=points(error)))
    cups = cups_lines(scenario) if scenario.cups else t("practice.cups.tracked")
    blocks.append(f"**{t('practice.cups')}**\n\n{cups}")
    chances = chances_line(scenario)
    if chances is not None:
        blocks += [chances, small(t("practice.reading.why"))]
    blocks += [f"**{t('practice.options')}**\n\n{options_table(scenario, grade)}",
               small(t("practice.options.legend", coach=COACH_MARK, mine=MINE_MARK))]
    st.markdown("\n\n".join(blocks))
    st.html(charts.figure(options_chart(scenario, grade), t("practice.chart.caption")))


__all__ = [
    "ANY_THEME",
    "SCENARIO_PARAMS",
    "Spot",
    "cached_scenario",
    "chances_line",
    "cups_lines",
    "estimate_truth",
    "find_scenario",
    "grade_line",
    "is_tracked",
    "link_params",
    "move_label",
    "options_chart",
    "options_table",
    "outcome_line",
    "read_chance",
    "risk_line",
    "seat_name",
    "seat_names",
    "show_details",
    "show_scenario",
    "show_verdict",
    "spot_from_link",
    "spot_of",
    "themes_for",
    "tracked_outcome",
    "tracked_spot",
    "verdict_line",
]
