"""Words of a game's review (``coach.review``), on the play page and in the tracker: the
summary, and each decision beside the coach's best."""

from __future__ import annotations

from coach.engine.situation import Action
from coach.review import GameReview, ReviewedMove, Verdict
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


def move_line(number: int, move: ReviewedMove) -> str:
    """One decision: round, what was played, its verdict and the risk it added."""
    situation = move.situation
    played = move_name(move.played)
    head = t("review.move.head", number=number, icon=VERDICT_ICONS[move.verdict],
             played=played, verdict=t(f"review.verdict.{move.verdict.value}"))
    if move.verdict is Verdict.GOOD and move.played == move.best:
        detail = t("review.move.best", lose=format_percent(move.played_option.lose))
    else:
        best, played_option = move.best_option, move.played_option
        # The points added are net of a calza's chance of winning a die back: say it.
        key = ("review.move.versus_gain" if best.gain > 0 else
               "review.move.versus_own_gain" if played_option.gain > 0 else "review.move.versus")
        detail = t(key, lose=format_percent(played_option.lose),
                   gain=format_percent(played_option.gain), best=move_name(move.best),
                   best_lose=format_percent(best.lose), best_gain=format_percent(best.gain),
                   points=tn("review.points", round(move.added)))
    bids = (t("review.move.facing", bid=situation.last_bid.pretty())
            if situation.last_bid is not None else t("review.move.opening"))
    lines = [f"**{head}**", f"{bids} · {glyphs(sorted(situation.hand.faces))}", detail]
    if move.verdict is not Verdict.GOOD:  # why the coach's move: its own one-line reason
        lines.append(t("review.move.why", why=advice_view.reason_text(move.advice, situation)))
    return "  \n".join(lines)
