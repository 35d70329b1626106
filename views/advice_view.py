"""The coach's output in the player's words: the recommendation, its risk and its reason.

:func:`coach.advise` answers with codes and numbers (:class:`coach.Advice`, :class:`coach.Reason`);
this module turns them into catalog texts, so the Odds & advice page only lays them out. No
probability is computed here: every number shown comes from the coach or the odds engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from coach import (
    Advice,
    CountShift,
    Option,
    Reason,
    SeatShift,
    Situation,
)
from perudo_math import Bid, GameState, Odds
from views.i18n import current_language, format_decimal, format_percent, t, tn, translate
from views.table_words import mix_detail_text, mix_risk_text, mix_sentence
from views.text import elided, player_name, small

OPTION_ROWS = 4
"""How many raises the options table lists beside dudo and calza."""

_PERCENT_NUMBERS = frozenset({"lose", "gain", "p_true", "p_exact", "challenge", "current_p_true",
                              "safer_lose", "safer_true", "raise_lose"})
_KNOWN_REASONS = frozenset({"bid-above-table", "dudo-unlikely", "dudo-least-bad", "calza-likely",
                            "calza-pays", "opening", "opening-expected", "raise-safer",
                            "raise-pressure"})
_TABLE_REASONS = frozenset({"table-mix", "table-pure"})
"""The reasons of a move played from a solved heads-up table (:func:`coach.advise_with_tables`)."""
_PRINTED_TIES = {"dudo-least-bad": ("raise_lose", "dudo-tied", ()),
                 "calza-pays": ("safer_lose", "calza-likely", ("safer", "safer_lose")),
                 "raise-safer": ("current_p_true", "raise-as-safe", ()),
                 "opening-expected": ("safer_lose", "opening-tied", ())}
"""Reasons that say the move's risk (``lose``) differs from another's: the number they
compare it with, the reason worded instead when the two print the same, and the numbers
that wording has no use for (a calza that "risks the least" names no rival)."""


def pretty_bid(bid: Bid | str) -> str:
    """``5 × 4`` from a :class:`Bid` or its short form ``5x4``."""
    return (Bid.parse(bid) if isinstance(bid, str) else bid).pretty()


def headline(advice: Advice, situation: Situation) -> str:
    """The recommendation in capitals: ``DUDO``, ``CALZA``, ``RAISE to 8 × 5``, ``OPEN with 3 × 5``.
    """
    action = advice.action
    if action.kind == "raise":
        assert action.bid is not None
        key = "advice.action.open" if situation.last_bid is None else "advice.action.raise"
        return t(key, bid=action.bid.pretty())
    return t(f"advice.action.{action.kind}")


def risk_text(option: Option) -> str:
    """The chance the move costs me a die (and, for a calza, that it wins one back)."""
    if option.action.kind == "calza" and option.gain > 0:
        return t("advice.risk.calza", lose=format_percent(option.lose),
                 gain=format_percent(option.gain))
    return t("advice.risk", lose=format_percent(option.lose))


def reason_params(numbers: Mapping[str, Any], situation: Situation) -> dict[str, str]:
    """A reason's numbers as the texts fill them in: percentages, decimals, pretty bids."""
    params: dict[str, str] = {}
    for name, value in numbers.items():
        if name in _PERCENT_NUMBERS:
            params[name] = format_percent(float(value))
        elif name == "expected":
            params[name] = format_decimal(float(value), 1)
        elif name == "bid":
            params[name] = pretty_bid(value)
        elif name in ("safer", "raise"):
            params[name] = _action_words(value)
        else:
            params[name] = str(value)
    last = situation.last_bid
    face = Bid.parse(numbers["bid"]).face if "bid" in numbers else None
    if face is not None:
        params["faces"] = t(f"face.plural.{face}")
    if last is not None:
        params["current"] = last.pretty()
    return params


def _action_words(text: str) -> str:
    """``dudo``, ``calza`` or a bid's short form, as the reason names it: ``a dudo``,
    ``5 × 4``."""
    if text in ("dudo", "calza"):
        return t(f"advice.reason.move.{text}")
    return pretty_bid(text)


def basis_text(advice: Advice) -> str:
    """What every chance of the advice rests on: the bids read, or the dice alone."""
    return t("advice.basis.read" if advice.reads_bids else "advice.basis.plain")


def card_markdown(advice: Advice, situation: Situation) -> str:
    """The advice card as one markdown block: the move in big letters, the chance it costs a
    die, why, and what the chances rest on (the bids read, or the dice alone).

    Where the coach plays a solved heads-up table (``advice.mix``), the move is the table's
    most likely one and the card says the mix in words under it, the chance each of its
    moves costs a die, why mixing, then the exact shares and what the round leaves me
    (:mod:`views.table_words`)."""
    lead = f"## {headline(advice, situation)}"
    if advice.mix:
        detail = mix_detail_text(advice)
        paragraphs = [lead, f"**{mix_sentence(advice.mix, situation.last_bid is None)}**",
                      mix_risk_text(advice), reason_text(advice, situation)]
        paragraphs += [small(text) for text in (detail, basis_text(advice)) if text]
        return "\n\n".join(paragraphs)
    return "\n\n".join((lead, f"**{risk_text(advice.best)}**", reason_text(advice, situation),
                         small(basis_text(advice))))


def rival(advice: Advice, raises: int = OPTION_ROWS) -> tuple[str, Option] | None:
    """The raise in the options table that a recommended raise (or opening) must answer to.

    ``("pressure", option)``: the table shows ``option`` with less risk, so the pick trades a
    little risk for a bid that is harder to follow. ``("tied", option)``: the table shows the
    same risk for ``option``, a likelier bid (the pick is harder to follow). ``None``: no
    shown raise raises the question. Risks compare as the table prints them.
    """
    best = advice.best
    if best.action.kind != "raise":
        return None
    printed = format_percent(best.lose)
    others = [option for option in shown_options(advice, raises)
              if option.action.kind == "raise" and option is not best]
    safer = [option for option in others
             if option.lose < best.lose and format_percent(option.lose) != printed]
    if safer:
        return "pressure", min(safer, key=lambda option: (option.lose, -option.p_true))
    same = [option for option in others if format_percent(option.lose) == printed]
    likelier = [option for option in same if option.p_true > best.p_true]
    if likelier or (same and advice.reason.code == "raise-pressure"):
        return "tied", max(likelier or same, key=lambda option: option.p_true)
    return None


def card_reason(advice: Advice, situation: Situation) -> Reason:
    """The reason the card words (``advice.reason.<code>`` in the catalogs) with its numbers,
    so that it agrees with the options table as the table prints its figures.

    The coach's own reason, except: a move played from a solved table keeps the table's
    (``table-mix``, ``table-pure``); a raise that is not the safest raise shown says what it
    trades the risk for (:func:`rival`: ``raise-pressure``, ``opening-tied``...); a reason
    that compares two risks printed the same says they are the same (``dudo-tied``,
    ``raise-as-safe``, a calza's ``calza-likely``); a code this app does not know is the
    ``fallback``.
    """
    if advice.mix:  # the table's move: the rival raises were not what it weighed
        return advice.reason if advice.reason.code in _TABLE_REASONS else Reason("fallback", {})
    found = None if advice.reason.code == "opening-expected" else rival(advice)
    if found is not None:
        kind, other = found
        best = advice.best
        move = "opening" if situation.last_bid is None else "raise"
        return Reason(f"{move}-{kind}", {"bid": str(best.action), "lose": best.lose,
                                         "safer": str(other.action), "safer_lose": other.lose,
                                         "safer_true": other.p_true})
    reason = advice.reason
    if reason.code not in _KNOWN_REASONS:
        return Reason("fallback", {})
    compared, tied, unsaid = _PRINTED_TIES.get(reason.code, (None, "", ()))
    numbers = reason.numbers
    if compared in numbers and (format_percent(float(numbers[compared]))
                                == format_percent(float(numbers["lose"]))):
        return Reason(tied, {key: value for key, value in numbers.items() if key not in unsaid})
    return reason


def reason_text(advice: Advice, situation: Situation) -> str:
    """Why the coach recommends its move, in one sentence that agrees with the options table
    (:func:`card_reason`)."""
    reason = card_reason(advice, situation)
    return t(f"advice.reason.{reason.code}", **reason_params(reason.numbers, situation))


def move_text(option: Option, situation: Situation) -> str:
    """One option's move in a table cell: ``Dudo``, ``Calza`` or the bid."""
    if option.action.kind == "raise":
        assert option.action.bid is not None
        return option.action.bid.pretty()
    return t(f"advice.move.{option.action.kind}")


def shown_options(advice: Advice, raises: int = OPTION_ROWS) -> list[Option]:
    """Dudo and calza when available, and the best ``raises`` raises, best first."""
    shown, count = [], 0
    for option in advice.options:
        if option.action.kind != "raise":
            shown.append(option)
        elif count < raises:
            shown.append(option)
            count += 1
    return shown


def table_rows(advice: Advice, raises: int = OPTION_ROWS) -> list[Option]:
    """The options the table lists, sorted by the chance each costs a die as printed (the
    first column of numbers); among equal chances the recommended move comes first, then
    the likelier bid."""
    best = advice.best
    return sorted(shown_options(advice, raises), key=lambda option: (
        round(option.lose, 3), option.lose > 0, option is not best, -option.p_true))


def options_table(advice: Advice, situation: Situation, raises: int = OPTION_ROWS) -> str:
    """A markdown table of the moves worth weighing: the chance each costs a die, and the
    chance its bid (the new bid for a raise, the bid on the table for dudo and calza) is true
    and exactly right. The recommended move is in bold."""
    header = (t("advice.table.move"), t("advice.table.lose"), t("advice.table.true"),
              t("advice.table.exact"))
    lines = [
        "| " + " | ".join(header) + " |",
        "| :-- | --: | --: | --: |",
    ]
    best = advice.best
    for option in table_rows(advice, raises):
        cells = [
            move_text(option, situation),
            format_percent(option.lose),
            format_percent(option.p_true),
            format_percent(option.p_exact),
        ]
        if option is best:
            cells = [f"**{cell}**" for cell in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def moves_markdown(advice: Advice, situation: Situation, raises: int = OPTION_ROWS) -> str:
    """The moves worth weighing under their heading, as one markdown block."""
    return f"**{t('advice.table.heading')}**\n\n{options_table(advice, situation, raises)}"


def smallest_raises_text(previous: Bid, raises: Sequence[Bid]) -> str:
    """The legality note: the lowest legal raise of each face after ``previous``."""
    if not raises:
        return t("advice.legal.none", bid=previous.pretty())
    return t("advice.legal.smallest", bid=previous.pretty(),
             bids=" · ".join(bid.pretty() for bid in raises))


# --- what reading the bids changed -------------------------------------------------------

READ_MOVE = 0.10
"""How far reading the bids must move the chance the bid is true (or exactly right) for the
page to say which bids moved it (it says so whenever the advice changes, too)."""
SECOND_MOVER = 0.5
"""A second seat is named when its bids moved the count at least this share of the first's
(and by a tenth of a die at least)."""


def chance_moved(read: Odds, plain: Odds) -> bool:
    """Whether reading the bids moved the chance the bid is true, or exactly right, by more
    than :data:`READ_MOVE` (``read`` against ``plain``, on the dice alone)."""
    return (abs(read.at_least - plain.at_least) > READ_MOVE
            or abs(read.exactly - plain.exactly) > READ_MOVE)


def advice_changed(read: Advice, plain: Advice) -> bool:
    """Whether reading the bids changed the move the coach advises."""
    return read.action != plain.action


def named_movers(shift: CountShift) -> tuple[SeatShift, ...]:
    """The seats a page names: the one whose bids moved the count most, and the next when it
    moved it about as far (:data:`SECOND_MOVER`)."""
    movers = shift.movers()
    if not movers:
        return ()
    top, *rest = movers
    floor = max(0.1, SECOND_MOVER * abs(top.shift))
    return (top, *(seat for seat in rest[:1] if abs(seat.shift) >= floor))


def mover_text(seat: SeatShift, face: int, name: str | None) -> str:
    """What the seat's bid that moved its count most suggests it holds (``name`` ``None``: an
    anonymous bidder, the last bid)."""
    step = seat.strongest
    assert step is not None  # a mover has bids read
    if name is None:
        key = "advice.moved.last"
    else:
        key = "advice.moved.open" if step.position == 0 else "advice.moved.raise"
    return t(key, name=name or "", bid=step.bid.pretty(), after=format_decimal(seat.after, 1),
             before=format_decimal(seat.before, 1), faces=t(f"face.plural.{face}"))


def moved_lines(shift: CountShift, name: Callable[[int], str] | None = None) -> list[str]:
    """Which bids moved the expected count of the face and by how much, in one line (two when
    two seats moved it about as far); the first gives the table's count from the dice alone
    and with the bids read. ``name``: a seat's player name (``None``: one anonymous bidder)."""
    seats = named_movers(shift)
    if not seats:
        return []
    texts = [mover_text(seat, shift.face, None if name is None else name(seat.seat))
             for seat in seats]
    first = t("advice.moved.total", seat=texts[0], before=format_decimal(shift.before, 1),
              after=format_decimal(shift.after, 1), faces=t(f"face.plural.{shift.face}"))
    return [first, *(t("advice.moved.seat", seat=text) for text in texts[1:])]


# --- the tracked game -------------------------------------------------------------------


def tracker_note(game: GameState, me: int, seat_known: bool) -> str:
    """Where the tracked game stands, in one line: round, dice, players, and who I am."""
    players = len(game.active_seats)
    note = t(
        "odds.tracker.note",
        round=game.round_number,
        kind=t("round.palifico" if game.palifico else "round.normal").lower(),
        table=tn("common.dice_on_table", game.table_dice),
        players=tn("common.players", players),
    )
    who = t("odds.tracker.you", name=player_name(game, me)) if seat_known else t(
        "odds.tracker.seat_unknown", name=player_name(game, me)
    )
    return f"{note} {who}"


def tracker_bids(game: GameState) -> str:
    """This round's bids with who made them, or who opens."""
    if not game.bids:
        opener = game.opener if game.opener is not None else 0
        return t("odds.tracker.no_bids", name=player_name(game, opener))
    lang = current_language()  # asked once: a round may hold thousands of bids
    first, skipped, last = elided(game.bids)
    names = {seat: player_name(game, seat) for seat in {seat for seat, _ in (*first, *last)}}
    spoken = [translate(lang, "odds.tracker.bid_item", name=names[seat], bid=bid.pretty())
              for seat, bid in first]
    if skipped:
        spoken.append(tn("common.bids_skipped", skipped))
    spoken += [translate(lang, "odds.tracker.bid_item", name=names[seat], bid=bid.pretty())
               for seat, bid in last]
    return translate(lang, "odds.tracker.bids", bids=" → ".join(spoken))


__all__ = [
    "OPTION_ROWS",
    "READ_MOVE",
    "SECOND_MOVER",
    "advice_changed",
    "basis_text",
    "card_markdown",
    "card_reason",
    "chance_moved",
    "headline",
    "move_text",
    "moved_lines",
    "mover_text",
    "moves_markdown",
    "named_movers",
    "options_table",
    "pretty_bid",
    "reason_params",
    "reason_text",
    "risk_text",
    "rival",
    "shown_options",
    "small",
    "smallest_raises_text",
    "table_rows",
    "tracker_bids",
    "tracker_note",
]
