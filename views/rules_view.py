"""The rules in words and numbers: settings, paco conversions, expected counts, verdicts.

Everything here is computed from ``perudo_math`` (a :class:`~perudo_math.Rules` object, the
legality checker) and worded through the catalogs, so the cheat sheet follows the table's
settings and the user's language. The tracker reuses :func:`refusal_text` to word a bid the
game refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.review import COSTLY_FROM, GOOD_BELOW
from perudo_math import PACO, Bid, Rules, Verdict, face_name, smallest_raises
from perudo_math.rules import SETTING_BY_NAME, SETTINGS, SettingKind
from practice.scenarios import CORRECT_REGRET
from views.i18n import format_decimal, t, tn

PACO_TABLE_QUANTITIES = range(1, 13)
"""Rows of the paco conversion table (bids above 12 are rare at a real table)."""
EXPECTED_TABLE_DICE = range(5, 31)
"""Rows of the expected-count table: N = 5 to 30 dice on the table."""
_REFERENCE_FACE = 4
"""Any face 2–6 gives the same conversions; 4 stands for 'a face'."""


# --- verdicts --------------------------------------------------------------------------------


def refusal_text(verdict: Verdict) -> str:
    """Why an illegal bid is refused, in the user's language (with the smallest fix)."""
    if verdict.legal or verdict.refusal is None:
        raise ValueError("a legal bid has no refusal")
    previous, minimum = verdict.previous, verdict.minimum
    top = ".top" if verdict.offers_no_higher_face else ""  # after 6s, no higher face
    return t(
        f"legal.refusal.{verdict.refusal.value}{top}",
        previous=previous.pretty() if previous else "",
        minimum=minimum.pretty() if minimum else "",
        needed=minimum.quantity if minimum else "",
        quantity=previous.quantity if previous else "",
        faces=t(f"face.plural.{previous.face}") if previous else "",
        face=face_name(previous.face) if previous else "",
    )


def verdict_text(verdict: Verdict) -> str:
    """The verdict of the legality checker in words: legal, or the reason it is not."""
    if not verdict.legal:
        return refusal_text(verdict)
    bid = verdict.bid.pretty() if verdict.bid else ""
    if verdict.previous is None:
        return t("legal.ok.opening", bid=bid)
    return t("legal.ok.raise", bid=bid, previous=verdict.previous.pretty())


# --- the rules under the current settings ----------------------------------------------------


def _switch(name: str, on: bool) -> str:
    return t(f"rules.setting.{name}.{'on' if on else 'off'}")


def setting_line(name: str, value: int | str | bool) -> str:
    """What setting ``name`` (a :class:`Rules` field) does at ``value``, in one sentence."""
    setting = SETTING_BY_NAME[name]
    if setting.kind is SettingKind.NUMBER:
        assert isinstance(value, int)  # a number setting's value
        return tn(f"rules.setting.{setting.short}", value)
    if setting.kind is SettingKind.SWITCH:
        return _switch(setting.short, bool(value))
    return t(f"rules.setting.{setting.short}.{value}")


def setting_lines(rules: Rules) -> list[str]:
    """One sentence per setting, saying what it does at this table."""
    values = rules.to_dict()
    shown = [setting.name for setting in SETTINGS
             if setting.requires is None or values[setting.requires]]
    return [setting_line(name, values[name]) for name in shown]


BASIC_KEYS: tuple[str, ...] = (
    "rules.basic.bid",
    "rules.basic.jokers",
    "rules.basic.opening",
    "rules.basic.pacos",
    "rules.basic.palifico",
    "rules.basic.dudo",
    "rules.basic.next",
)
"""The rules that no setting changes, in the order a new player needs them."""


def grade_lines() -> list[str]:
    """What each grade of a move means, with its thresholds in points: good, doubtful and
    costly in a game's review (``coach.review``), then the practice grades."""
    good, costly = tn("review.points", round(GOOD_BELOW)), tn("review.points", round(COSTLY_FROM))
    return [t("rules.grades.good", good=good),
            t("rules.grades.doubtful", good=good, costly=costly),
            t("rules.grades.costly", costly=costly),
            t("rules.grades.practice", close=tn("review.points", round(CORRECT_REGRET * 100)))]


def bullet_list(lines: Sequence[str]) -> str:
    """Markdown bullets (the lines come from the catalogs, never from user input)."""
    return "\n".join(f"- {line}" for line in lines)


# --- tables ----------------------------------------------------------------------------------


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---:|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def paco_conversions(quantities: range = PACO_TABLE_QUANTITIES) -> list[tuple[int, int, int]]:
    """``(q, pacos after q × face, face quantity after q × P)`` from the legality engine."""
    rows = []
    for q in quantities:
        to_pacos = smallest_raises(Bid(q, _REFERENCE_FACE))[PACO].quantity
        from_pacos = smallest_raises(Bid(q, PACO))[_REFERENCE_FACE].quantity
        rows.append((q, to_pacos, from_pacos))
    return rows


def paco_table() -> str:
    """The paco conversion table as markdown: q → ⌈q/2⌉ pacos, p pacos → 2p + 1."""
    header = (t("rules.paco.col.q"), t("rules.paco.col.to_pacos"), t("rules.paco.col.from_pacos"))
    return _table(header, paco_conversions())


def expected_counts(dice: range = EXPECTED_TABLE_DICE) -> list[tuple[int, float, float]]:
    """``(n, n/3, n/6)``: the expected matches with pacos as jokers, and for pacos/palifico."""
    return [(n, n / 3, n / 6) for n in dice]


def expected_table() -> str:
    """Expected counts for N = 5..30 as one markdown table, two halves side by side."""
    rows = [
        (n, format_decimal(third, 1), format_decimal(sixth, 1))
        for n, third, sixth in expected_counts()
    ]
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    header = [t("rules.expected.col.n"), "n/3", "n/6"]
    joined = [(*a, *(right[i] if i < len(right) else ("", "", ""))) for i, a in enumerate(left)]
    return _table(header * 2, joined)


__all__ = [
    "BASIC_KEYS",
    "EXPECTED_TABLE_DICE",
    "PACO_TABLE_QUANTITIES",
    "bullet_list",
    "expected_counts",
    "expected_table",
    "grade_lines",
    "paco_conversions",
    "paco_table",
    "refusal_text",
    "setting_line",
    "setting_lines",
    "verdict_text",
]
