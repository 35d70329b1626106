"""Issue 31, point 7: every number read from a link, a command line or a record is written in
ASCII digits. ``str.isdigit``, ``str.isdecimal``, ``int``, ``float`` and the ``\\d`` of ``re``
also read other scripts' digits ("٣٣٣" is 333), so each parser is run here on a text it
accepts, then on the same text with its digits in other scripts, which it must refuse."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from coach.cli import _round_hand
from coach.play.bot_game import BotGame
from perudo_math import Bid, GameState, Hand, arguments
from perudo_math.checks import is_ascii_digits
from perudo_math.rules import SETTINGS, SettingKind
from practice.levels import parse_level
from serving.start import build_parser
from views import url_state
from views.resume import _read_hands

SCRIPTS = {
    "arabic-indic": "٠١٢٣٤٥٦٧٨٩",
    "extended-arabic-indic": "۰۱۲۳۴۵۶۷۸۹",
    "devanagari": "०१२३४५६७८९",
    "full-width": "０１２３４５６７８９",
    "mathematical-bold": "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",
    "superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹",
}


def in_script(text: str, digits: str) -> str:
    """``text`` with its ASCII digits written in another script's ``digits``."""
    return text.translate(str.maketrans("0123456789", digits))


def port(text: str) -> int:
    """``serving.start``'s --port, as its command line reads it."""
    try:
        return build_parser().parse_args(["--port", text]).port
    except SystemExit as exit_:
        raise ValueError("refused") from exit_


def _game_with_moves(moves: str) -> GameState:
    from perudo_math.game import CODE_PREFIX, _pack

    payload = f'[{{}},["Ann","Bob","Cid"],0,"{moves}"]'
    return GameState.from_code(CODE_PREFIX + _pack(payload.encode("utf-8")))


NUMBER_SETTINGS = [setting for setting in SETTINGS if setting.kind is SettingKind.NUMBER]

PARSERS: list[tuple[str, Callable[[str], object], str]] = [
    ("is_ascii_digits", lambda text: is_ascii_digits(text) or _refuse(), "333"),
    ("link: a whole number", url_state.whole_number(0, 999), "333"),
    ("link: a seat", url_state.seat(10), "2"),
    *[(f"link: the setting {setting.short}", setting.parse, str(setting.minimum))
      for setting in NUMBER_SETTINGS],
    ("link and CLI: a level", parse_level, "2"),
    ("a hand", Hand.parse, "1 2 5"),
    ("a hand, packed", Hand.parse, "125"),
    ("a bid", Bid.parse, "3x4"),
    ("a game code's bids and calls", _game_with_moves, "3x4 4x4 d3@2"),
    ("a game against the bots' moves", BotGame.read_moves, "3x4.dudo"),
    ("coach CLI: a round's hand", _round_hand, "3:24456"),
    ("a resume record's hands", _read_hands, "3:24456"),
    ("CLI: a whole number", arguments.whole_number(0, 999), "333"),
    ("CLI: a die face", arguments.die_face, "3"),
    ("CLI: a probability", arguments.probability, "0.5"),
    ("CLI: a number above 0", arguments.positive_number, "2.5e3"),
    ("CLI: a bounded number", arguments.number(0, 10), "3.5"),
    ("serve: --port", port, "8501"),
]


def _refuse() -> bool:
    raise ValueError("refused")


@pytest.mark.parametrize("script", SCRIPTS.values(), ids=SCRIPTS.keys())
@pytest.mark.parametrize(("parse", "text"), [(parse, text) for _, parse, text in PARSERS],
                         ids=[name for name, _, _ in PARSERS])
def test_every_number_is_read_in_ascii_digits_only(parse: Callable[[str], object], text: str,
                                                   script: str) -> None:
    parse(text)  # accepted as written
    with pytest.raises((ValueError, argparse.ArgumentTypeError)):
        parse(in_script(text, script))


@pytest.mark.parametrize("text", ["1_0", " 5", "+5", "5.", "", "1e3"])
def test_a_whole_number_in_a_link_is_digits_and_nothing_else(text: str) -> None:
    with pytest.raises(ValueError):
        url_state.whole_number(0, 99999)(text)


@pytest.mark.parametrize("text", ["1_0", "0x10", "½", "nan", "-inf", "infinity", ""])
def test_a_number_on_a_command_line_is_written_as_digits(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        arguments.positive_number(text)


@pytest.mark.parametrize("script", SCRIPTS.values(), ids=SCRIPTS.keys())
@pytest.mark.parametrize("parse", [_read_hands, _round_hand], ids=["resume record", "coach CLI"])
def test_a_rounds_number_before_its_hand_is_in_ascii_digits(parse: Callable[[str], object],
                                                             script: str) -> None:
    parse("3:24456")
    with pytest.raises(ValueError):
        parse(in_script("3", script) + ":24456")
