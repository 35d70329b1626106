"""The coach's command-line results in English words for a person: the advice as a sentence
with its reason, the options as a table, a review move by move, a match's or a league's rows.

Each function words the JSON payload its command prints otherwise, so both show the same
figures. The app words the same reason codes in its own catalogs (``views/locales``); the
command line is English only and imports nothing from the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from perudo_math.arguments import columns, percent
from perudo_math.bid import Bid, face_plural

OPTION_ROWS = 4
"""How many raises the options table lists beside dudo and calza, as the app does."""

Numbers = Mapping[str, Any]


def pretty(bid: str | None) -> str:
    """``5 × 4`` from ``5x4``."""
    return Bid.parse(bid).pretty() if bid else ""


def move_words(move: str) -> str:
    """``dudo``, ``calza`` or a bid's short form, as a reason names it: ``a dudo``, ``5 × 4``."""
    return f"a {move}" if move in ("dudo", "calza") else pretty(move)


def move_of(action: Numbers) -> str:
    """An action's JSON (``{"action": "raise", "bid": "5x4"}``) as its short form: ``5x4``,
    ``dudo``."""
    return action.get("bid") or action["action"]


def move_said(move: str) -> str:
    """A move in a sentence: ``dudo``, ``calza`` or the bid, ``5 × 4``."""
    return move if move in ("dudo", "calza") else pretty(move)


def move_name(move: str) -> str:
    """A move in a table cell: ``Dudo``, ``Calza`` or the bid, ``5 × 4``."""
    return move.capitalize() if move in ("dudo", "calza") else pretty(move)


def _faces(numbers: Numbers) -> str:
    return face_plural(Bid.parse(numbers["bid"]).face)


def _ties(numbers: Numbers, other: str) -> bool:
    """Whether the move's risk and ``other`` print the same (a reason then says so)."""
    return other in numbers and percent(numbers[other]) == percent(numbers["lose"])


def _dudo_least_bad(n: Numbers, p: Callable[[str], str], current: str) -> str:
    if _ties(n, "raise_lose"):
        return (f"{p('bid')} is true {p('p_true')} of the time, but no raise is safer: "
                f"{p('raise')}, the safest of them, also costs you a die {p('raise_lose')} of "
                "the time.")
    return (f"{p('bid')} is true {p('p_true')} of the time, but every raise costs you a die "
            f"more often: {p('raise_lose')} for {p('raise')}, the safest of them.")


def _calza_pays(n: Numbers, p: Callable[[str], str], current: str) -> str:
    if _ties(n, "safer_lose"):
        return _REASONS["calza-likely"](n, p, current)
    return (f"{p('bid')} is exactly right {p('p_exact')} of the time. A calza costs you a die "
            f"{p('lose')} of the time, more often than {p('safer')} ({p('safer_lose')}), but a "
            "right one wins a die back: net of that die, no move risks less.")


def _opening_expected(n: Numbers, p: Callable[[str], str], current: str) -> str:
    if _ties(n, "safer_lose"):
        return (f"Opening with {p('bid')} risks {p('lose')}, the same as {p('safer')} (true "
                f"{p('safer_true')}), for a bid that is harder to follow.")
    return (f"{p('bid')} is near the average for {p('dice')} dice ({p('expected')} "
            f"{_faces(n)}). {p('safer')} would risk less this round ({p('safer_lose')} against "
            f"{p('lose')}), but an opening that low makes every raise cheap.")


def _raise_safer(n: Numbers, p: Callable[[str], str], current: str) -> str:
    than = "no more than" if _ties(n, "current_p_true") else "less than"
    return (f"Raising to {p('bid')} (true {p('p_true')}) risks {than} challenging {current} "
            f"(true {p('current_p_true')}).")


Wording = Callable[[Numbers, Callable[[str], str], str], str]

_REASONS: dict[str, Wording] = {
    "bid-above-table": lambda n, p, current: (
        f"{p('bid')} claims more than the {p('dice')} dice on the table: it is certainly "
        "false."),
    "dudo-unlikely": lambda n, p, current: (
        f"{p('bid')} is true only {p('p_true')} of the time: expect about {p('expected')} "
        f"{_faces(n)} on the table."),
    "dudo-least-bad": _dudo_least_bad,
    "calza-likely": lambda n, p, current: (
        f"{p('bid')} is exactly right {p('p_exact')} of the time: a calza risks the least."),
    "calza-pays": _calza_pays,
    "opening": lambda n, p, current: (
        f"{p('bid')} is true {p('p_true')} of the time; the next player would challenge it "
        f"{p('challenge')} of the time."),
    "opening-expected": _opening_expected,
    "raise-safer": _raise_safer,
    "raise-pressure": lambda n, p, current: (
        f"Raising to {p('bid')} risks {p('lose')}, a little more than {p('safer')} "
        f"({p('safer_lose')}), for a bid that is harder to follow."),
}
"""Each reason code of :func:`coach.advise` in words, from its numbers (``p`` gives one as
printed) and the bid on the table."""

_PERCENTS = frozenset({"lose", "gain", "p_true", "p_exact", "challenge", "current_p_true",
                       "safer_lose", "safer_true", "raise_lose"})


def reason_text(reason: Numbers, current: str | None) -> str:
    """The coach's reason (its JSON: ``code`` and numbers) in a sentence; ``current`` is the bid
    on the table (``5x4``), ``None`` before the opening."""

    def printed(name: str) -> str:
        value = reason[name]
        if name in _PERCENTS:
            return percent(float(value))
        if name == "expected":
            return f"{float(value):.1f}"
        if name == "bid":
            return pretty(value)
        if name in ("safer", "raise"):
            return move_words(value)
        return str(value)

    wording = _REASONS.get(reason["code"])
    if wording is None:
        return "This move costs you a die least often."
    return wording(reason, printed, pretty(current))


# --- advise -----------------------------------------------------------------------------


def headline(advice: Numbers, current: str | None) -> str:
    """The recommended move and its risk: ``Raise to 2 × P: you lose a die 0.3% of the time.``"""
    best = advice["options"][0]
    risk = f"you lose a die {percent(best['lose'])} of the time"
    if advice["action"] == "raise":
        verb = "Raise to" if current else "Open with"
        return f"{verb} {pretty(advice['bid'])}: {risk}."
    back = f" and win one back {percent(best['gain'])}" if best["gain"] > 0 else ""
    return f"Call {advice['action']} on {pretty(current)}: {risk}{back}."


def option_why(option: Numbers, current: str | None) -> str:
    """One option's chances in words, for the table's last column."""
    if option["action"] == "dudo":
        return f"{pretty(current)} is true {percent(option['p_true'])} of the time"
    if option["action"] == "calza":
        back = "; a right calza wins a die back" if option["gain"] > 0 else ""
        return f"{pretty(current)} is exactly right {percent(option['p_exact'])} of the time{back}"
    return (f"true {percent(option['p_true'])}; the next player calls dudo on it "
            f"{percent(option['challenge'])} of the time")


def options_table(options: Sequence[Numbers], current: str | None) -> str:
    """Dudo and calza when offered and the best raises, best first: move, P(lose a die), why;
    a last line counts the raises left out."""
    shown: list[Numbers] = []
    left_out = 0
    for option in options:
        if option["action"] != "raise" or sum(o["action"] == "raise" for o in shown) < OPTION_ROWS:
            shown.append(option)
        else:
            left_out += 1
    rows = [["move", "lose a die", "why"]]
    rows += [[move_name(move_of(option)), percent(option["lose"]),
              option_why(option, current)] for option in shown]
    table = columns(rows, right={1})
    if left_out:
        table += f"\n({left_out} more raise{'s' if left_out > 1 else ''} in --json)"
    return table


def advice_text(advice: Numbers, current: str | None) -> str:
    """The advice in a sentence, its reason, and the options table."""
    return "\n".join([headline(advice, current), reason_text(advice["reason"], current), "",
                      options_table(advice["options"], current)])


# --- review -----------------------------------------------------------------------------


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def review_summary(summary: Numbers) -> str:
    """``3 moves: 1 good, 2 costly (2 raises): +37.48 points of risk over the coach's moves.``"""
    parts = [f"{summary[grade]} {grade}" for grade in ("good", "doubtful") if summary[grade]]
    if summary["costly"]:
        kinds = ", ".join(_plural(count, kind) for kind, count in summary["costly_by_kind"].items())
        parts.append(f"{summary['costly']} costly ({kinds})")
    added = summary["added_points"]
    risk = (f"+{added:g} points of risk over the coach's moves" if added
            else "no risk added over the coach's moves")
    return f"{_plural(summary['moves'], 'move')}: {', '.join(parts) or 'none'}: {risk}."


def review_text(payload: Numbers) -> str:
    """The summary, the turning points, a table of the moves and the coach's reason for each."""
    moves = payload["moves"]
    lines = [review_summary(payload["summary"])]
    if payload["turning_points"]:
        turning = ", ".join(str(index + 1) for index in payload["turning_points"])
        lines.append(f"Turning points: move{'s' if len(payload['turning_points']) > 1 else ''} "
                     f"{turning}.")
    rows = [["#", "facing", "you", "lose a die", "coach", "lose a die", "points", "verdict",
             "cups said"]]
    whys = []
    for number, move in enumerate(moves, start=1):
        current = _current_bid(move["situation"])
        rows.append([str(number), pretty(current) or "opening", move_name(move["played"]),
                     percent(move["lose"]), move_name(move["best"]), percent(move["best_lose"]),
                     f"{move['added_points']:+.1f}", move["verdict"], move["outcome"] or ""])
        whys.append(f"{number}. {reason_text(move['reason'], current)}")
    if moves:
        lines += ["", columns(rows, right={0, 3, 5, 6}), "", "The coach's reasons:", *whys]
    return "\n".join(lines)


def _current_bid(situation: Numbers) -> str | None:
    bids = situation.get("bids") or []
    return bids[-1][1] if bids else None


# --- arena and league -------------------------------------------------------------------


def _interval(row: Numbers) -> str:
    low, high = row["ci95"]
    return f"[{low:.3f}, {high:.3f}]"


def _stopped(stopped: str | None, played: int, planned: int, what: str) -> list[str]:
    if stopped is None:
        return []
    why = "the time limit" if stopped == "time-limit" else "Ctrl+C"
    return [f"Stopped by {why} after {played:,} of {planned:,} {what}: the figures are "
            "partial."]


def match_text(payload: Numbers) -> str:
    """A match: how many games, then a row a bot with its wins and win rate."""
    lines = [f"{payload['games']:,} games at {payload['players']} players, seed "
             f"{payload['seed']}.",
             *_stopped(payload["stopped"], payload["games"], payload["games_requested"],
                       "games"), ""]
    rows = [["bot", "seats", "wins", "win rate", "95% interval"]]
    rows += [[row["bot"], str(row["seats"]), f"{row['wins']:,}", f"{row['win_rate']:.3f}",
              _interval(row)] for row in payload["results"]]
    lines.append(columns(rows, right={1, 2, 3}))
    return "\n".join(lines)


def _verdict(row: Numbers) -> str:
    if row["at_least_fair"]:
        return "above"
    return "below" if row["games"] and row["ci95"][1] < row["fair_share"] else "unclear"


def league_text(payload: Numbers) -> str:
    """A league: a row a match with its win rate beside the fair share; or, written to a file
    with ``--out``, where."""
    if "out" in payload:
        return (f"{_plural(payload['matches'], 'match')} written to {payload['out']}"
                + (f" (stopped: {payload['stopped']})." if payload["stopped"] else "."))
    matches = payload["matches"]
    lines = [f"{payload['hero']}'s league: {payload['games_per_match']:,} games a match, seed "
             f"{payload['seed']}.",
             *_stopped(payload["stopped"], len(matches), payload["matches_planned"], "matches"),
             ""]
    rows = [["hero", "opponent", "players", "games", "win rate", "95% interval", "fair share",
             "verdict"]]
    rows += [[row["hero"], row["opponent"], str(row["players"]), f"{row['games']:,}",
              f"{row['win_rate']:.3f}", _interval(row), f"{row['fair_share']:.3f}",
              _verdict(row)] for row in matches]
    lines.append(columns(rows, right={2, 3, 4, 6}))
    return "\n".join(lines)
