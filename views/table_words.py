"""The coach's move from a solved heads-up table, in the same words as the rest of its advice.

Where the coach plays a table (:func:`coach.advise_with_tables`), its advice carries the
table's mix (:attr:`coach.Advice.mix`): each move with how often the table plays it. This
module says it as a player would: "Raise to 2 × 5, about two times in three; otherwise dudo."

How often, in words, comes from one small named scale (:data:`FREQUENCY_SCALE`, chosen by
:func:`frequency_key`); which moves are named with their word, which come after "otherwise"
and which are "rarely" played is :func:`mix_parts`. Both are pure and return catalog keys and
actions; the ``*_text`` functions word them in the current language. The exact percentages
stay in :func:`mix_detail_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from coach import Action, Advice, Option
from views.i18n import format_decimal, format_percent, t

Mix = Sequence[tuple[Action, float]]
"""Each move with how often it is played, most likely first (:attr:`coach.Advice.mix`)."""

ALWAYS_FROM = 1.0 - 1e-9
"""A move is played "always" only when the table plays nothing else (its share is 1, up to
the float's rounding): any other move played at all would contradict the word."""

FREQUENCY_SCALE: tuple[tuple[float, str], ...] = (
    (ALWAYS_FROM, "always"),
    (0.95, "almost-always"),
    (0.82, "nine-in-ten"),
    (0.71, "three-in-four"),
    (0.58, "two-in-three"),
    (0.42, "half"),
    (0.29, "one-in-three"),
    (0.18, "one-in-four"),
    (0.05, "one-in-ten"),
    (0.0, "rarely"),
)
"""How often, in words: each word (``advice.often.<key>`` in the catalogs) from its lower
bound up to the next word's. Each bound lies about halfway between the fractions of its two
words (nine in ten, three in four, two in three...), so a share gets the nearest of them;
"almost always" from 95 %, "rarely" under one time in twenty."""


def frequency_key(probability: float) -> str:
    """The scale's word for how often a move is played (``probability``, in (0, 1]): its key,
    e.g. ``two-in-three`` for 0.67. ``ValueError`` outside (0, 1]: a move never played has no
    word."""
    if not 0.0 < probability <= 1.0:
        raise ValueError(f"frequency_key: a share in (0, 1], not {probability!r}")
    return next(key for bound, key in FREQUENCY_SCALE if probability >= bound)


def frequency_text(probability: float) -> str:
    """How often, in the player's words: ``about two times in three``."""
    return t(f"advice.often.{frequency_key(probability)}")


@dataclass(frozen=True, slots=True)
class MixParts:
    """How a mix is said: ``named``, the moves said with their word (the most likely first,
    always there); ``otherwise``, the move said after "otherwise" (the rest of the time);
    ``rarely``, the moves said together as rarely played. Either of the last two is empty."""

    named: tuple[tuple[Action, str], ...]
    otherwise: Action | None
    rarely: tuple[Action, ...]


def mix_parts(mix: Mix) -> MixParts:
    """How to say ``mix`` (most likely first): each move with its word, but

    * the moves played rarely (:func:`frequency_key`) are gathered at the end ("rarely 1 × 6
      or dudo"), the most likely move excepted;
    * with none of those, the last of two or more moves is "otherwise" that move: what is
      left, so the sentence needs no second word that must add up with the first.
    """
    if not mix:
        raise ValueError("mix_parts: a mix plays at least one move")
    keyed = [(action, frequency_key(probability)) for action, probability in mix]
    named = keyed[:1] + [(action, key) for action, key in keyed[1:] if key != "rarely"]
    rarely = tuple(action for action, key in keyed[1:] if key == "rarely")
    if rarely or len(named) == 1:
        return MixParts(tuple(named), None, rarely)
    return MixParts(tuple(named[:-1]), named[-1][0], ())


def lead_move_text(action: Action, opening: bool) -> str:
    """The mix's first move, leading its sentence: ``Open with 1 × 6``, ``Raise to 2 × 5``,
    ``Dudo`` or ``Calza``."""
    if action.kind == "raise":
        assert action.bid is not None
        return t("advice.mix.open" if opening else "advice.mix.raise", bid=action.bid.pretty())
    return t(f"advice.move.{action.kind}")


def short_move_text(action: Action) -> str:
    """A move after the first, inside a sentence: the bid (``2 × 6``), ``dudo`` or
    ``calza``."""
    if action.kind == "raise":
        assert action.bid is not None
        return action.bid.pretty()
    return t(f"advice.mix.move.{action.kind}")


def mix_sentence(mix: Mix, opening: bool) -> str:
    """The mix as one sentence: "Raise to 2 × 5, about two times in three; otherwise dudo.",
    "Open with 1 × 6, about half the time; 1 × 5, about one time in three; rarely 1 × 4.",
    "Dudo, always." (``opening``: the moves open the round)."""
    parts = mix_parts(mix)
    (lead, lead_key), *named = parts.named
    pieces = [t("advice.mix.item", move=lead_move_text(lead, opening),
                often=t(f"advice.often.{lead_key}"))]
    pieces += [t("advice.mix.item", move=short_move_text(action), often=t(f"advice.often.{key}"))
               for action, key in named]
    if parts.otherwise is not None:
        pieces.append(t("advice.mix.otherwise", move=short_move_text(parts.otherwise)))
    if parts.rarely:
        moves = t("advice.mix.or").join(short_move_text(action) for action in parts.rarely)
        pieces.append(t("advice.mix.rarely", moves=moves))
    return t("advice.mix.sentence", moves=t("advice.mix.then").join(pieces))


def mix_options(advice: Advice) -> list[Option]:
    """The coach's own numbers for each move of the mix, in the mix's order (the advice lists
    them first)."""
    return list(advice.options[:len(advice.mix)])


def risk_item(option: Option) -> str:
    """One move's chance of costing a die: ``2 × 5: 38.1%``, ``dudo: 55.0%``; a calza's also
    says its chance of winning one back."""
    move = short_move_text(option.action)
    if option.action.kind == "calza" and option.gain > 0:
        return t("advice.mix.risk.calza", move=move, lose=format_percent(option.lose),
                 gain=format_percent(option.gain))
    return t("advice.mix.risk.item", move=move, lose=format_percent(option.lose))


def mix_risk_text(advice: Advice) -> str:
    """The chance each move of the mix costs a die, as the coach weighs it (the same numbers
    as its table of moves), in the mix's order."""
    return t("advice.mix.risk", moves=" · ".join(risk_item(option)
                                                for option in mix_options(advice)))


def mix_value_text(advice: Advice) -> str | None:
    """What the round leaves me played this way: my chance of winning the game (the dice,
    for die-for-die tables), or ``None`` when the bids so far are ones the table never makes."""
    numbers = advice.reason.numbers
    if "win_chance" in numbers:
        return t("advice.mix.win_chance", percent=format_percent(float(numbers["win_chance"])))
    if "value" in numbers:
        return t("advice.mix.value", value=signed_dice(float(numbers["value"])))
    return None


def signed_dice(value: float) -> str:
    """``+0.22`` or ``−0.44`` (a true minus sign), in the user's decimals."""
    rounded = round(value, 2)
    sign = "\u2212" if rounded < 0 else "+"
    return sign + format_decimal(abs(rounded), 2)


def mix_detail_text(advice: Advice) -> str | None:
    """The exact shares behind the words (``2 × 5: 66.7% · dudo: 33.3%``; not for a single
    move, which "always" says exactly) and what the round leaves me played this way;
    ``None`` when neither has anything to say."""
    value = mix_value_text(advice)
    if len(advice.mix) == 1:
        return value
    shares = " · ".join(t("advice.mix.share", move=short_move_text(action),
                          share=format_percent(probability))
                        for action, probability in advice.mix)
    detail = t("advice.mix.detail", moves=shares)
    return detail if value is None else f"{detail} {value}"


__all__ = [
    "ALWAYS_FROM",
    "FREQUENCY_SCALE",
    "Mix",
    "MixParts",
    "frequency_key",
    "frequency_text",
    "lead_move_text",
    "mix_detail_text",
    "mix_options",
    "mix_parts",
    "mix_risk_text",
    "mix_sentence",
    "mix_value_text",
    "risk_item",
    "short_move_text",
    "signed_dice",
]
