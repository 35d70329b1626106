"""Words of a game's review (``coach.review``), on the play page and in the tracker: the
summary, and each decision beside the coach's best."""

from __future__ import annotations

from coach.engine.situation import Action
from coach.review import GameReview, Outcome, ReviewedMove, Verdict
from views import advice_view
from views.dice import glyphs
from views.i18n import format_percent, t, tn

VERDICT_ICONS = {Verdict.GOOD: "✅", Verdict.DOUBTFUL: "⚠️", Verdict.COSTLY: "❌"}


def summary_text(review: GameReview) -> str:
    """``9 good moves, 2 doubtful, 2 costly (1 raise, 1 dudo): +31 points of risk``."""
    summary = review.summary()
    parts = [tn("review.summary.good", summary["good"])]
    if summary["doubtful"]:
        parts.append(tn("review.summary.doubtful", summary["doubtful"]))
    if summary["costly"]:
        kinds = ", ".join(tn(f"review.kind.{kind}", count)
                          for kind, count in summary["costly_by_kind"].items())
        parts.append(t("review.summary.costly", count=summary["costly"], kinds=kinds))
    points = round(summary["added_points"])
    net = any(move.played_option.gain > 0 or move.best_option.gain > 0
              for move in review.moves if move.added)  # a calza's die won back counted
    key = "review.summary.added_net" if net else "review.summary.added"
    added = t(key, points=tn("review.points", points)) if points else t("review.summary.none")
    return t("review.summary", moves=", ".join(parts), added=added)


def move_name(action: Action) -> str:
    """``6 × 4``, ``dudo`` or ``calza``, as a sentence names a move."""
    if action.bid is not None:
        return advice_view.pretty_bid(action.bid)
    return t(f"review.name.{action.kind}")


def figure(lose: float, gain: float) -> str:
    """A move's chance of losing a die, with its chance of winning one back when it has
    one: ``41.0%``, ``45.0% (less 30.0% of winning one back)``."""
    if gain <= 0:
        return format_percent(lose)
    return t("review.figure.net", lose=format_percent(lose), gain=format_percent(gain))


def grade_line(played: Action, best: Action, *, lose: float, gain: float, best_lose: float,
               best_gain: float, points: str, good: bool, outcome: Outcome | None) -> str:
    """What a grade compares, in one line: the move's chance of losing a die before the
    dice were shown against the coach's best move's (``good``: the grade passed the move;
    ``points``: the risk it added, in words); and when the cups said otherwise than the
    grade (``outcome``), that too."""
    numbers = {"played": move_name(played), "best": move_name(best),
               "lose": figure(lose, gain), "best_lose": figure(best_lose, best_gain),
               "points": points}
    against = outcome in (Outcome.RIGHT, Outcome.WRONG) and (outcome is Outcome.RIGHT) is not good
    if not against:
        key = ("review.move.best" if played == best
               else "review.move.safer" if printed_below(lose - gain, best_lose - best_gain)
               else "review.move.versus")
        return net_note(t(key, **numbers), gain, best_gain)
    assert outcome is not None
    said = t(f"review.outcome.{played.kind}.{outcome.value}", played=numbers["played"])
    if outcome is Outcome.RIGHT:
        key = "review.move.right.net" if gain > 0 or best_gain > 0 else "review.move.right"
    else:
        key = "review.move.best.wrong" if played == best else "review.move.good.wrong"
    return net_note(t(key, outcome=said, **numbers), gain, best_gain)


def printed_below(mine: float, other: float) -> bool:
    """Whether ``mine`` prints as a smaller percentage than ``other`` (one decimal)."""
    return round(mine * 100, 1) < round(other * 100, 1)


def net_note(line: str, gain: float, best_gain: float) -> str:
    """``line``, saying that its points are net of a calza's die won back when one counts."""
    return f"{line} {t('review.move.net')}" if gain > 0 or best_gain > 0 else line


def move_line(number: int, move: ReviewedMove) -> str:
    """One decision: round, what was played, its verdict, what the verdict compares (and
    what the cups said, when it was otherwise)."""
    situation = move.situation
    played = move_name(move.played)
    head = t("review.move.head", number=number, icon=VERDICT_ICONS[move.verdict],
             played=played, verdict=t(f"review.verdict.{move.verdict.value}"))
    mine, best = move.played_option, move.best_option
    detail = grade_line(move.played, move.best, lose=mine.lose, gain=mine.gain,
                        best_lose=best.lose, best_gain=best.gain,
                        points=tn("review.points", round(move.added)),
                        good=move.verdict is Verdict.GOOD, outcome=move.outcome)
    bids = (t("review.move.facing", bid=situation.last_bid.pretty())
            if situation.last_bid is not None else t("review.move.opening"))
    lines = [f"**{head}**", f"{bids} · {glyphs(sorted(situation.hand.faces))}", detail]
    if move.verdict is not Verdict.GOOD:  # why the coach's move: its own one-line reason
        lines.append(t("review.move.why", why=advice_view.reason_text(move.advice, situation)))
    return "  \n".join(lines)
