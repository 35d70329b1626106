"""Resuming this phone's game in a new tab, through AppTest: the game is saved under the
device token as it changes, a fresh session on the same phone offers it and one tap brings it
back on the tracker; another phone, a hostile cookie or a game that is over offers nothing.

AppTest cannot send cookies, so :func:`views.resume.sent_cookies` (what the browser sent) is
replaced by a :class:`Browser`'s cookie jar: the token a real browser would have kept.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import GameState, Rules
from storage.resume import SEAL_PREFIX, ResumeStore, new_device_token, resume_path, seal
from tests.app.conftest import ENTRY, FIRST_RUN_TIMEOUT_S
from tests.app.sessions import open_at
from views import live_table, resume
from views.i18n import translate
from views.text import isolated, literal, shown

TRACKER = "app_pages/tracker.py"
ODDS = "app_pages/odds.py"
RULES = "app_pages/rules.py"


class Browser:
    """The cookie jar of one phone's browser: the device token it sends, if any."""

    def __init__(self) -> None:
        self.token: str | None = None

    def cookies(self) -> dict[str, str]:
        return {} if self.token is None else {resume.COOKIE: self.token}

    def keep(self, at: AppTest) -> None:
        """What the cookie script of ``at``'s session hands to the browser."""
        token = at.session_state["resume_device"]
        assert any(resume.cookie_script(token) == element.proto.body
                   for element in at.get("html")), "no cookie script for the token"
        self.token = token


@pytest.fixture
def store_file(tmp_path, monkeypatch) -> Iterator[ResumeStore]:
    """A resume file of this test's own (beside its own progress file, which the app's
    shared-table store is reopened on)."""
    monkeypatch.setenv("PERUDO_COACH_DB", str(tmp_path / "progress.sqlite3"))
    live_table.tables.clear()
    yield ResumeStore(resume_path())
    live_table.tables.clear()


@pytest.fixture
def browsers(store_file, monkeypatch) -> dict[str, Browser]:
    """Two phones; ``current`` names the one whose cookie the next run sends."""
    phones = {"mine": Browser(), "other": Browser()}
    current = {"name": "mine"}
    monkeypatch.setattr(resume, "sent_cookies", lambda: phones[current["name"]].cookies())
    phones["current"] = current  # type: ignore[assignment]
    return phones


def use(browsers: dict, name: str) -> Browser:
    browsers["current"]["name"] = name
    return browsers[name]


def new_tab(lang: str = "en", page: str | None = None, **params: str) -> AppTest:
    """A fresh session (a new tab, the home-screen icon) at ``page`` (the root by default)."""
    at = AppTest.from_file(ENTRY, default_timeout=FIRST_RUN_TIMEOUT_S)
    at.context = {"locale": "en-US" if lang == "en" else "fr-FR"}
    return open_at(at, page, lang, **params)


def a_game() -> GameState:
    return GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4")


def offer(at: AppTest) -> bool:
    return any(button.key == "resume_yes" for button in at.button)


def track(game: GameState, seat: int = 1, **params: str) -> AppTest:
    """A session that tracks ``game`` (from its link), as seat ``seat``, on the tracker."""
    return new_tab(page=TRACKER, game=game.to_code(), me=str(seat), **params)


def title(at: AppTest) -> str:
    return at.title[0].value


# --- the game is saved as it changes ---------------------------------------------------------


def test_a_tracked_game_is_saved_under_a_new_device_token(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    at = track(a_game())
    mine.keep(at)
    saved = resume.decode(store_file.load(mine.token))
    assert saved == {"game": a_game().to_code(), "me": "1"}
    at.button(key="tracker_q_5").click().run()  # Cid bids 5 × 4
    assert GameState.from_code(resume.decode(store_file.load(mine.token))["game"]).last_bid \
        == GameState.from_code(at.query_params["game"]).last_bid
    assert store_file.count() == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_new_tab_offers_the_game_and_one_tap_brings_it_back(browsers, lang: str) -> None:
    mine = use(browsers, "mine")
    playing = track(a_game(), dice="3")
    playing.button(key="tracker_q_5").click().run()
    mine.keep(playing)
    code = playing.query_params["game"]

    at = new_tab(lang)  # the home-screen icon opens the advice page at the root
    assert offer(at)
    assert at.button(key="resume_yes").label == translate(lang, "resume.yes")
    assert at.markdown[0].value == f"**{translate(lang, 'resume.title')}**"
    assert shown(at.caption[0].value) == translate(lang, "resume.summary",
                                                   players="Ann, Bob, Cid", round=1)
    at.button(key="resume_yes").click().run()
    assert not at.exception
    assert title(at) == translate(lang, "tracker.title")
    assert at.query_params["game"] == code
    assert at.query_params["me"] == "1"
    assert at.query_params["dice"] == "3"  # the table's rules come back with it
    assert not offer(at)


def test_names_in_the_offer_show_as_typed(browsers) -> None:
    names = ["[Tap here](http://e.com)", "**Bob**", ":red[RED] $x^2$"]
    use(browsers, "mine").keep(track(GameState.new(names).bid("2x4"), seat=0))
    summary = new_tab().caption[0].value
    assert summary == translate("en", "resume.summary",
                                players=", ".join(isolated(literal(name)) for name in names),
                                round=1)
    assert shown(summary) == translate("en", "resume.summary", players=", ".join(names),
                                       round=1)
    assert "](http" not in summary and "**B" not in summary


def test_the_offer_shows_on_the_tracker_set_up_too(browsers) -> None:
    use(browsers, "mine").keep(track(a_game()))
    at = new_tab(page=TRACKER)
    assert offer(at)
    at.button(key="resume_yes").click().run()
    assert at.query_params["game"] == a_game().to_code()


def test_other_pages_do_not_offer_it(browsers) -> None:
    use(browsers, "mine").keep(track(a_game()))
    assert not offer(new_tab(page=RULES))


def test_another_phone_never_sees_it(browsers, store_file) -> None:
    use(browsers, "mine").keep(track(a_game()))
    use(browsers, "other")
    for page in (None, TRACKER, ODDS):
        at = new_tab(page=page)
        assert not offer(at)
        assert "game" not in at.query_params
    browsers["other"].token = new_device_token()  # a token of its own: still nothing
    assert not offer(new_tab())


def test_not_now_puts_it_aside_for_this_tab_only(browsers) -> None:
    use(browsers, "mine").keep(track(a_game()))
    at = new_tab()
    at.button(key="resume_no").click().run()
    assert not offer(at)
    at.switch_page(TRACKER).run()
    assert not offer(at)
    assert offer(new_tab())  # nothing lost: the next tab offers it again


def test_a_tab_opened_with_a_game_link_offers_nothing(browsers) -> None:
    use(browsers, "mine").keep(track(a_game()))
    other = GameState.new(["Dan", "Eve"]).bid("2x6")
    at = new_tab(game=other.to_code())
    assert not offer(at)
    assert at.query_params["game"] == other.to_code()


def test_a_tab_that_starts_its_own_game_withdraws_the_offer(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    mine.keep(track(a_game()))
    at = new_tab(page=TRACKER)
    assert offer(at)
    for row, name in zip(at.session_state["tracker_rows"], ["Dan", "Eve"], strict=False):
        at.text_input(key=f"tracker_name_{row}").set_value(name)
    at.button(key=f"tracker_remove_{at.session_state['tracker_rows'][-1]}").click().run()
    at.button(key="tracker_start").click().run()
    assert not offer(at)
    saved = resume.decode(store_file.load(mine.token))
    assert GameState.from_code(saved["game"]).players[0].name == "Dan"
    at.pills(key="tracker_panel").set_value("game").run()
    at.button(key="tracker_new").click().run()
    at.button(key="tracker_new_yes").click().run()  # back to the set-up: the old game is gone
    assert "game" not in at.query_params
    assert not offer(at)


# --- what is forgotten -----------------------------------------------------------------------


def test_a_new_game_forgets_the_old_one(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    at = track(a_game())
    mine.keep(at)
    at.pills(key="tracker_panel").set_value("game").run()
    at.button(key="tracker_new").click().run()
    at.button(key="tracker_new_yes").click().run()
    assert "game" not in at.query_params
    assert store_file.load(mine.token) is None
    assert not offer(new_tab())


def test_a_game_that_is_over_is_not_offered(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    heads_up = GameState.new(["Ann", "Bob"], Rules(starting_dice=1))
    at = track(heads_up.bid("2x4"), seat=0)
    mine.keep(at)
    at.number_input(key="tracker_count").set_value(0).run()
    at.button(key="tracker_dudo").click().run()  # Ann's 2 × 4 was false: Ann is out
    assert GameState.from_code(at.query_params["game"]).is_over
    assert store_file.load(mine.token) is None
    assert not offer(new_tab())


def test_a_damaged_record_is_not_offered(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    mine.token = new_device_token()
    for state in ("game=g1.damaged", "nothing", "game=" + a_game().to_code() + "&me=7",
                  "game=x&game=y", "dice=0&game=" + a_game().to_code()):
        store_file.save(mine.token, state)
        at = new_tab()
        assert not at.exception
        assert not offer(at), state


# --- a hostile cookie costs nothing ----------------------------------------------------------


@pytest.mark.parametrize("value", ["", "short", "A" * 65, "x" * 100_000, "²" * 22,
                                   "' OR 1=1 --aaaaaaaaaaaa", "../../../../etc/passwd_aaaaa",
                                   "aaaaaaaaaaaaaaaaaaaaaa\n", "aaaaaaaaaaaaaaaaaaaaaa;b=c"])
def test_a_hostile_cookie_is_refused_before_the_store(value, store_file, monkeypatch) -> None:
    monkeypatch.setattr(resume, "sent_cookies", lambda: {resume.COOKIE: value})
    monkeypatch.setattr(ResumeStore, "load", lambda *args, **kwargs: pytest.fail("looked up"))
    assert resume.cookie_token() is None
    at = new_tab()
    assert not at.exception
    assert not offer(at)
    at.switch_page(TRACKER).run()
    assert not at.exception


def test_a_store_that_cannot_be_opened_costs_only_the_offer(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("PERUDO_COACH_DB", str(blocker / "progress.sqlite3"))
    token = new_device_token()
    monkeypatch.setattr(resume, "sent_cookies", lambda: {resume.COOKIE: token})
    at = track(a_game())
    assert not at.exception
    at.button(key="tracker_q_5").click().run()
    assert not at.exception
    assert not offer(new_tab())


def test_the_cookie_script_holds_the_token_and_nothing_else() -> None:
    token = new_device_token()
    script = resume.cookie_script(token)
    assert f"{resume.COOKIE}={token};" in script
    assert "SameSite=Strict" in script and "Max-Age=604800" in script
    for hostile in ('";alert(1);"', "x" * 22 + "</script>", "short"):
        with pytest.raises(ValueError):
            resume.cookie_script(hostile)


# --- my dice, kept with the game for its review ----------------------------------------------


def test_my_dice_of_a_round_survive_a_reload_for_the_review(browsers, store_file) -> None:
    """Issue 14: the dice I entered in round 1 are saved with the game on this phone (never
    in its link); a reload, a new session of the same link, still reviews round 1."""
    mine = use(browsers, "mine")
    game = GameState.new(["Ann", "Bob", "Cid"])
    at = track(game, seat=0)
    at.switch_page(ODDS).run()
    for face in (1, 2, 4, 4, 6):
        at.button(key=f"odds_add_{face}").click().run()
    at.switch_page(TRACKER).run()
    for quantity in ("3", "4", "5"):
        at.segmented_control(key="tracker_face").set_value(4).run()
        at.button(key=f"tracker_q_{quantity}").click().run()
    count = next(field for field in at.number_input if field.key == "tracker_count")
    count.set_value(3).run()
    at.button(key="tracker_dudo").click().run()  # round 1 ends: its hand is kept
    at.run()
    mine.keep(at)
    saved = resume.decode(store_file.load(mine.token))
    assert saved[resume.HANDS_FIELD] == "1:12446"
    assert "12446" not in at.query_params["game"] and "hands" not in at.query_params

    again = track(GameState.from_code(at.query_params["game"]), seat=0)  # the reload
    assert list(again.session_state["my_dice_rounds"].values()) == [(1, 2, 4, 4, 6)]
    again.pills(key="tracker_panel").set_value("review").run()
    moves = [m.value for m in again.markdown if m.value.startswith("**1.")
             or m.value.startswith("**2.")]
    assert len(moves) == 2 and "3 × 4" in moves[0] and "dudo" in moves[1]


def test_dice_saved_for_another_game_are_not_read_for_this_one(browsers, store_file) -> None:
    mine = use(browsers, "mine")
    other = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4")
    at = track(other, seat=0)
    mine.keep(at)
    store_file.save(mine.token, resume.encode({"game": GameState.new(["Zed", "Yan"]).to_code(),
                                               "me": "0", resume.HANDS_FIELD: "1:12446"}))
    fresh = track(other, seat=0)
    assert fresh.session_state["my_dice_rounds"] == {}


def test_a_finished_game_keeps_my_dice_for_its_review_and_is_never_offered(
        browsers, store_file) -> None:
    mine = use(browsers, "mine")
    heads_up = GameState.new(["Ann", "Bob"], Rules(starting_dice=1))
    at = track(heads_up, seat=0)
    at.switch_page(ODDS).run()
    at.button(key="odds_add_4").click().run()
    at.switch_page(TRACKER).run()
    at.segmented_control(key="tracker_face").set_value(4).run()
    at.button(key="tracker_q_2").click().run()  # Ann opens 2 × 4
    at.number_input(key="tracker_count").set_value(0).run()
    at.button(key="tracker_dudo").click().run()  # Bob's dudo is right: Ann is out
    at.run()
    mine.keep(at)
    game = GameState.from_code(at.query_params["game"])
    assert game.is_over
    assert resume.decode(store_file.load(mine.token))[resume.HANDS_FIELD] == "1:4"
    assert not offer(new_tab())  # kept for the review, never offered to resume
    again = track(game, seat=0)  # the finished game's link, reopened
    again.pills(key="tracker_panel").set_value("review").run()
    assert any(m.value.startswith("**1.") and "2 × 4" in m.value for m in again.markdown)


def test_a_shared_tables_code_is_kept_sealed_and_comes_back_on_resume(browsers,
                                                                      store_file) -> None:
    """The host's link opens the table for writing: the record keeps it sealed with the
    device's token (the store holds only that token's hash), and the host's new tab gets it
    back, still hosting."""
    from storage.sql import Database
    from storage.tables import SharedTables

    hosted = SharedTables(Database.at()).host(a_game().to_code())
    mine = use(browsers, "mine")
    hosting = track(a_game(), seat=0, share=hosted.host_token)
    mine.keep(hosting)
    assert hosting.query_params["share"] == hosted.host_token
    text = store_file.load(mine.token)
    assert hosted.host_token not in text and hosted.follow_token not in text
    assert resume.decode(text)["share"] == seal(hosted.host_token, mine.token)

    at = new_tab()
    at.button(key="resume_yes").click().run()
    assert not at.exception and at.query_params["share"] == hosted.host_token
    use(browsers, "other")
    stranger = new_tab()
    assert not offer(stranger)  # another phone neither sees the game nor gets the code


def host_a_table() -> str:
    """A new shared table of ``a_game()``: its host's code."""
    from storage.sql import Database
    from storage.tables import SharedTables

    return SharedTables(Database.at()).host(a_game().to_code()).host_token


def first_seal(table_token: str, device: str) -> str:
    """How records were sealed before issue 29: XOR with a SHA-256 of the device token."""
    key = hashlib.sha256(b"perudo-coach table seal " + device.encode()).digest()
    raw = base64.urlsafe_b64decode(table_token)
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, key, strict=False))).decode()


def test_a_record_whose_table_code_was_altered_is_refused(browsers, store_file) -> None:
    """Issue 29, point 6: the seal is authenticated, so a record whose sealed code was
    altered by one character is refused like any damaged record: no offer, no traceback."""
    mine = use(browsers, "mine")
    mine.keep(track(a_game(), seat=0, share=host_a_table()))
    saved = resume.decode(store_file.load(mine.token))
    assert offer(new_tab())
    sealed, middle = saved["share"], len(saved["share"]) // 2
    swapped = "B" if sealed[middle] != "B" else "C"
    saved["share"] = sealed[:middle] + swapped + sealed[middle + 1:]
    store_file.save(mine.token, resume.encode(saved))
    at = new_tab()
    assert not at.exception
    assert not offer(at)


def test_a_record_sealed_the_first_way_resumes_and_is_sealed_again(browsers,
                                                                   store_file) -> None:
    """A record written before issue 29 (up to a week old) still gives the table back; the
    next save seals its code the new way."""
    host_token = host_a_table()
    mine = use(browsers, "mine")
    mine.token = new_device_token()
    store_file.save(mine.token, resume.encode(
        {"game": a_game().to_code(), "me": "0", "share": first_seal(host_token, mine.token)}))
    at = new_tab()
    at.button(key="resume_yes").click().run()
    assert not at.exception and at.query_params["share"] == host_token
    at.button(key="tracker_q_5").click().run()  # Cid bids 5 × 4: the record is saved again
    assert not at.exception
    sealed = resume.decode(store_file.load(mine.token))["share"]
    assert sealed.startswith(SEAL_PREFIX) and sealed == seal(host_token, mine.token)


def test_this_rounds_dice_survive_a_reload_on_this_phone_only(browsers, store_file) -> None:
    """Issue 28, point 2: the dice of the round being played come back after a reload (or
    the home-screen icon) on this phone, from its record under the device token; the link
    never holds them, and another phone opening the same link sees none."""
    mine = use(browsers, "mine")
    game = GameState.new(["Ann", "Bob", "Cid"]).bid("2x3")
    at = track(game, seat=1)
    at.switch_page(ODDS).run()
    for face in (1, 2, 4, 4, 6):
        at.button(key=f"odds_add_{face}").click().run()
    mine.keep(at)
    saved = resume.decode(store_file.load(mine.token))
    assert saved[resume.HANDS_FIELD] == "1:12446"
    link = dict(at.query_params)
    assert not any("12446" in str(value) for value in link.values())

    reloaded = new_tab(page=ODDS, game=game.to_code(), me="1")  # the same link, reloaded
    assert reloaded.session_state["odds_hand"] == [1, 2, 4, 4, 6]
    assert reloaded.get("html") is not None and not reloaded.exception

    use(browsers, "other")  # another phone given the link
    elsewhere = new_tab(page=ODDS, game=game.to_code(), me="1")
    assert elsewhere.session_state["odds_hand"] == []

    use(browsers, "mine")
    moved_on = new_tab(page=ODDS, game=game.dudo(1).to_code(), me="1")  # round 2 by now
    assert moved_on.session_state["odds_hand"] == []
