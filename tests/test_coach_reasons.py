"""Issue 28, point 4: every reason agrees with the table of options it sits on.

Over thousands of spots, in both languages, the reason is checked against the advice's
options: every number it quotes is the figure of the option it names, every comparison it
makes (more or less often, the same, only, a little more, harder to follow) holds for those
figures as the table prints them, and the move it argues for is the advice's best. The
checks read the reason as data (its code and numbers), then the worded sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import views.i18n
from coach import PURE_ODDS, Advice, CoachSettings, Option, Reason, Situation, advise
from coach.engine.decide import strength
from perudo_math import PACO, Bid, Hand, Rules
from tests.strategies import seated_table
from views import advice_view
from views.i18n import format_percent

LANGUAGES = ("en", "fr")
COACHES = (CoachSettings(rollouts=64), CoachSettings(reading=PURE_ODDS, rollouts=64))
"""The coach as the odds page asks it, reading the bids or on the dice alone, with a quarter
of its rollouts (the reasons are chosen alike; the test runs in a few seconds)."""

BEST_KIND = {
    "bid-above-table": "dudo", "dudo-unlikely": "dudo", "dudo-least-bad": "dudo",
    "dudo-tied": "dudo", "calza-likely": "calza", "calza-pays": "calza", "opening": "raise",
    "raise-safer": "raise", "raise-as-safe": "raise", "raise-pressure": "raise",
    "raise-tied": "raise", "opening-pressure": "raise", "opening-tied": "raise",
    "opening-expected": "raise",
}
"""What each reason argues for."""

EXACT = 1e-6
"""Reasons keep six decimals."""


@st.composite
def reasoned_spots(draw: st.DrawFn) -> tuple[Situation, CoachSettings]:
    """Any table, facing a bid near what the dice make (where dudo, calza and the raises
    are close and the reasons change) or now and then anywhere, or opening."""
    dice, hand, palifico = draw(seated_table())
    table = sum(dice)
    rules = Rules(calza=draw(st.booleans()), calza_heads_up=draw(st.booleans()))
    bids: list[tuple[int, Bid]] = []
    if draw(st.integers(0, 9)):
        face = draw(st.integers(1, 6))
        expected = table / (6 if face == PACO or palifico else 3)
        quantity = draw(st.one_of(
            st.integers(-2, 3).map(lambda shift: round(expected) + shift),
            st.integers(1, table + 1)))
        quantity = max(1, quantity)
        if len(dice) > 2 and quantity > 1 and draw(st.booleans()):
            bids.append((len(dice) - 2, Bid(quantity - 1, face)))
        bids.append((len(dice) - 1, Bid(quantity, face)))
    situation = Situation(rules, tuple(dice), 0, Hand(hand), tuple(bids), palifico)
    return situation, draw(st.sampled_from(COACHES))


@contextmanager
def language(lang: str) -> Iterator[None]:
    """The catalogs' lookups in ``lang``, outside a Streamlit run."""
    with patch.object(views.i18n, "current_language", lambda: lang):
        yield


def printed(probability: float) -> str:
    return format_percent(probability, "en")


def printed_below(low: float, high: float) -> bool:
    """``low`` is below ``high`` as the table prints them."""
    return low < high and printed(low) != printed(high)


def named(advice: Advice, text: str) -> Option:
    """The option a reason names (``dudo``, ``calza`` or a bid's short form), as shown."""
    found = [option for option in advice_view.shown_options(advice)
             if str(option.action) == text]
    assert found, f"{text} is not in the options table"
    return found[0]


def quoted(numbers: dict, name: str, figure: float) -> None:
    """A number the reason quotes is the option's figure, to its six decimals."""
    assert abs(numbers[name] - figure) <= EXACT, (name, numbers[name], figure)


def check_engine_reason(advice: Advice, situation: Situation, coach: CoachSettings) -> None:
    """The coach's reason, as data: its numbers are its options' figures, and what its code
    claims holds for them (exactly, before any printing)."""
    reason, best, last = advice.reason, advice.best, situation.last_bid
    numbers = reason.numbers
    if reason.code == "fallback":  # "this move costs you a die least often"
        assert all(best.lose <= option.lose + EXACT for option in advice.options), reason
        return
    assert BEST_KIND[reason.code] == best.action.kind, (reason, best)
    bid = str(best.action.bid) if best.action.kind == "raise" else str(last)
    assert numbers["bid"] == bid
    quoted(numbers, "lose", best.lose)
    for name in ("p_true", "p_exact", "gain", "challenge"):
        if name in numbers:
            quoted(numbers, name, getattr(best, name))
    raises = [option for option in advice.options if option.action.kind == "raise"]
    others = [option for option in advice.options if option is not best]
    code = reason.code
    if code == "bid-above-table":
        assert last is not None and last.quantity > situation.table_dice == numbers["dice"]
        assert best.lose == 0.0
    elif code == "dudo-unlikely":
        assert best.p_true < 0.4995
    elif code == "dudo-least-bad":
        rival = named(advice, numbers["raise"])
        quoted(numbers, "raise_lose", rival.lose)
        assert all(rival.lose <= option.lose for option in raises)
        assert best.lose <= rival.lose
    elif code == "calza-likely":
        assert all(best.lose <= option.lose + EXACT for option in others)
    elif code == "calza-pays":
        safer = named(advice, numbers["safer"])
        quoted(numbers, "safer_lose", safer.lose)
        assert safer.lose < best.lose and best.gain > 0
        assert all(best.net_loss <= option.net_loss + EXACT for option in others)
    elif code == "raise-safer":
        dudo = next(option for option in advice.options if option.action.kind == "dudo")
        quoted(numbers, "current_p_true", dudo.p_true)
        assert all(best.lose <= option.lose + EXACT for option in others)
    elif code == "raise-pressure":
        safer = named(advice, numbers["safer"])
        quoted(numbers, "safer_lose", safer.lose)
        assert safer.lose < best.lose <= safer.lose + coach.pressure + EXACT
    elif code == "opening-expected":  # "is close to the expected count; X would risk less"
        safer = named(advice, numbers["safer"])
        quoted(numbers, "safer_lose", safer.lose)
        assert last is None and safer.lose < best.lose
        assert safer.action.bid.quantity < best.action.bid.quantity
        assert abs(best.action.bid.quantity - numbers["expected"]) < 1
    else:
        assert code == "opening" and last is None


def check_card_reason(advice: Advice, situation: Situation, coach: CoachSettings) -> Reason:
    """The reason the card words, as data: the move it argues for is the best, every
    number it quotes is the figure of the option it names as the table prints it, and every
    comparison its code words holds for those printed figures."""
    said = advice_view.card_reason(advice, situation)
    code, numbers, best, last = said.code, said.numbers, advice.best, situation.last_bid
    shown = advice_view.shown_options(advice)
    assert best in shown
    if code == "fallback":
        assert not any(printed_below(option.lose, best.lose) for option in shown), said
        return said
    assert BEST_KIND[code] == best.action.kind, (said, best)
    argued = best.action if best.action.kind == "raise" else last
    assert numbers["bid"] == str(argued), (said, best)
    check_card_figures(advice, said)
    if best.action.kind == "dudo":
        check_dudo_card(advice, situation, said)
    elif best.action.kind == "calza":
        check_calza_card(advice, said, shown)
    else:
        check_raise_card(advice, situation, coach, said, shown)
    return said


def check_card_figures(advice: Advice, said: Reason) -> None:
    """Every number the card quotes is, as printed, the figure of the option it names."""
    numbers, best = said.numbers, advice.best
    figures = {"lose": best, "p_true": best, "p_exact": best, "gain": best, "challenge": best}
    for role in ("safer", "raise"):
        if role in numbers:
            figures[f"{role}_lose"] = figures[f"{role}_true"] = named(advice, numbers[role])
    if "current_p_true" in numbers:
        figures["current_p_true"] = named(advice, "dudo")
    for name, value in numbers.items():
        if name in figures:
            attribute = {"safer_lose": "lose", "raise_lose": "lose", "safer_true": "p_true",
                         "current_p_true": "p_true"}.get(name, name)
            assert printed(value) == printed(getattr(figures[name], attribute)), (name, said)


def check_dudo_card(advice: Advice, situation: Situation, said: Reason) -> None:
    """What a reason for dudo compares holds for the printed figures."""
    code, numbers, best, last = said.code, said.numbers, advice.best, situation.last_bid
    lose = numbers["lose"]
    if code == "dudo-unlikely":
        assert printed_below(best.p_true, 0.5), said  # "only": below half as printed
        assert round(numbers["expected"], 1) < last.quantity, said  # "expect about"
    elif code in ("dudo-least-bad", "dudo-tied"):
        other = named(advice, numbers["raise"])
        raises = [option for option in advice.options if option.action.kind == "raise"]
        assert all(other.lose <= option.lose for option in raises), said  # the safest raise
        if code == "dudo-least-bad":
            assert printed_below(lose, other.lose), said  # "more often"
        else:
            assert printed(lose) == printed(other.lose), said  # "also"
    else:
        assert code == "bid-above-table", said


def check_calza_card(advice: Advice, said: Reason, shown: Sequence[Option]) -> None:
    """What a reason for calza compares holds for the printed figures."""
    code, numbers, best = said.code, said.numbers, advice.best
    lose = numbers["lose"]
    if code == "calza-likely":  # "a calza risks the least"
        assert not any(printed_below(option.lose, lose) for option in shown), said
        return
    assert code == "calza-pays", said
    other = named(advice, numbers["safer"])
    assert printed_below(other.lose, lose), said  # "more often than"
    assert best.gain > 0, said  # "a right one wins a die back"
    assert all(best.net_loss <= option.net_loss + EXACT  # "net of that die, no move
               for option in advice.options), said     # risks less"


def check_raise_card(advice: Advice, situation: Situation, coach: CoachSettings,
                     said: Reason, shown: Sequence[Option]) -> None:
    """What a reason for a raise (or an opening bid) compares holds for the printed
    figures."""
    code, numbers, best = said.code, said.numbers, advice.best
    lose = numbers["lose"]
    if code == "opening-expected":  # "X would risk less this round (a against b)"
        other = named(advice, numbers["safer"])
        assert printed_below(other.lose, lose), said
        assert other.action.bid.quantity < best.action.bid.quantity, said
    elif code in ("raise-safer", "raise-as-safe"):
        dudo = named(advice, "dudo")
        if code == "raise-safer":
            assert printed_below(lose, dudo.lose), said  # "risks less than challenging"
        else:
            assert printed(lose) == printed(dudo.lose), said  # "no more than"
        assert not any(printed_below(option.lose, lose) for option in shown), said
    elif code.endswith(("-pressure", "-tied")):
        other = named(advice, numbers["safer"])
        if code.endswith("-pressure"):  # "a little more than"
            assert printed_below(other.lose, lose), said
            assert lose - other.lose <= coach.pressure + EXACT, said
        else:  # "the same as"
            assert printed(other.lose) == printed(lose), said
        assert other.action.kind == "raise", said
        assert (strength(best.action.bid, situation.palifico)  # "harder to follow"
                > strength(other.action.bid, situation.palifico)), said
    else:
        assert code == "opening", said


PERCENT = re.compile(r"[<>]?\s?\d+(?:[.,]\d)?\s?%")
ONLY = {"en": re.compile(r"\bonly\s+(\d+(?:\.\d)?)%"),
        "fr": re.compile(r"\b(?:que|seulement)\s+(\d+(?:,\d)?)\s%")}


def check_sentence(advice: Advice, situation: Situation, lang: str) -> None:
    """The worded reason: no figure that is not the table's (or the card's), no "only" before
    a percentage of half or more, and the move it argues for named."""
    with language(lang):
        sentence = advice_view.reason_text(advice, situation)
        card = advice_view.shown_options(advice)
        figures = {format_percent(getattr(option, name))
                   for option in card for name in ("lose", "p_true", "p_exact")}
        figures |= {format_percent(advice.best.gain), format_percent(advice.best.challenge)}
        numbers = advice_view.card_reason(advice, situation).numbers
        others = [views.i18n.t(f"advice.reason.move.{move}") if move in ("dudo", "calza")
                  else Bid.parse(move).pretty()
                  for role, move in numbers.items() if role in ("safer", "raise")]
    for other in others:
        assert other in sentence, (other, sentence)
    assert "{" not in sentence, sentence
    for percent in PERCENT.findall(sentence):
        assert percent.strip() in figures, (percent, sentence, figures)
    for figure in ONLY[lang].findall(sentence):
        assert float(figure.replace(",", ".")) < 50, sentence
    best = advice.best
    argued = best.action.bid if best.action.kind == "raise" else situation.last_bid
    if numbers:  # the fallback names no move
        assert argued is not None and argued.pretty() in sentence, sentence


@given(reasoned_spots())
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_reason_agrees_with_its_options_table(spot: tuple[Situation, CoachSettings]):
    situation, coach = spot
    advice = advise(situation, coach)
    check_engine_reason(advice, situation, coach)
    check_card_reason(advice, situation, coach)
    for lang in LANGUAGES:
        check_sentence(advice, situation, lang)


def test_the_user_s_dudo_says_why_every_raise_is_worse() -> None:
    """A bid more likely true than false is still challenged when every raise loses a die
    more often: the reason says so, never "only"."""
    situation = Situation(Rules(), (1, 1), 0, Hand([2]), ((1, Bid(1, 5)),), True)
    advice = advise(situation)
    assert advice.best.action.kind == "dudo" and advice.best.p_true > 0.5
    check_engine_reason(advice, situation, CoachSettings())
    assert check_card_reason(advice, situation, CoachSettings()).code == "dudo-least-bad"
    for lang in LANGUAGES:
        check_sentence(advice, situation, lang)



def test_a_calza_that_prints_as_risky_as_a_safer_raise_risks_the_least_and_names_none() -> None:
    """calza-pays names a safer raise; when the two risks print the same (63.2 %), the card
    says the calza risks the least, and keeps no rival among its numbers."""
    from coach.engine.situation import CALZA, Action

    situation = Situation(Rules(starting_dice=5, calza_heads_up=True), (2, 4, 2, 3), 0,
                          Hand([4, 4]), ((2, Bid(1, 2)), (3, Bid(2, 2))), True)
    calza = Option(CALZA, lose=0.63195, gain=0.368, p_true=0.71, p_exact=0.368)
    raised = Option(Action.raise_to(Bid(3, 2)), lose=0.63153, gain=0.0, p_true=0.34,
                    p_exact=0.2)
    advice = Advice((calza, raised), Reason("calza-pays", {
        "lose": calza.lose, "bid": "2x2", "p_exact": 0.368, "gain": 0.368, "safer": "3x2",
        "safer_lose": raised.lose}), reads_bids=True)
    card = advice_view.card_reason(advice, situation)
    assert card.code == "calza-likely"
    assert "safer" not in card.numbers and "safer_lose" not in card.numbers
    for lang in LANGUAGES:
        with language(lang):
            assert "3 × 2" not in advice_view.reason_text(advice, situation)


# --- risks net of a calza's die won back say so -------------------------------------------

NET_WORDS = {"en": "net of the di", "fr": "compte tenu d"}


def test_a_review_line_says_its_points_are_net_of_the_calza_s_die_won_back() -> None:
    """Facing 5 × 2 the coach calls calza (a die won back 30 % of the time): a dudo's line
    compares with the calza net of that die, and says so; so does a calza played where the
    coach raises. A line with no calza on either side says nothing of it."""
    from coach.engine.situation import CALZA, DUDO
    from coach.review import review, review_move
    from views.review_view import move_line, summary_text

    calza_best = Situation(Rules(), (3, 2, 2), 0, Hand([1, 1, 2]), ((2, Bid(5, 2)),))
    calza_played = Situation(Rules(), (3, 3, 3), 0, Hand([1, 5, 6]), ((2, Bid(2, 5)),))
    dudo_only = Situation(Rules(calza=False), (3, 3, 3), 0, Hand([1, 5, 6]),
                          ((2, Bid(2, 5)),))
    against_calza = review_move(calza_best, DUDO)
    own_calza = review_move(calza_played, CALZA)
    assert against_calza.best_option.gain > 0 and own_calza.played_option.gain > 0
    plain = review_move(dudo_only, DUDO)
    assert plain.played != plain.best
    for lang in LANGUAGES:
        with language(lang):
            for move in (against_calza, own_calza):
                line = move_line(1, move)
                assert NET_WORDS[lang] in line, line
                assert format_percent(max(move.best_option.gain,
                                          move.played_option.gain)) in line, line
            assert NET_WORDS[lang] not in move_line(1, plain)
            assert NET_WORDS[lang] in summary_text(review([(calza_played, CALZA)]))
            assert NET_WORDS[lang] not in summary_text(review([(dudo_only, DUDO)]))


def test_a_practice_grade_says_its_risk_is_net_of_the_calza_s_die_won_back() -> None:
    from coach.engine.situation import CALZA, DUDO
    from practice.scenarios import Grade
    from views.practice_view import risk_line

    def graded(action, gain: float) -> Grade:
        return Grade(action=action, best=DUDO if action == CALZA else CALZA, lose=0.6,
                     gain=gain, regret=0.12, is_best=False, correct=False, reveal=None,
                     best_lose=0.5, best_gain=0.0, outcome=None)

    net = {"practice.regret.help_net"}
    for lang in LANGUAGES:
        with language(lang):
            said = views.i18n.t
            assert risk_line(graded(CALZA, 0.2)) == said(*net, points="12 points")
            assert risk_line(graded(DUDO, 0.0), best_gain=0.3) == said(*net, points="12 points")
            assert NET_WORDS[lang] in risk_line(graded(DUDO, 0.0), best_gain=0.3)
            assert NET_WORDS[lang] not in risk_line(graded(DUDO, 0.0))
