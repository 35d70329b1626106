"""Issue 13: one table, every phone. Two sessions of the app (two phones) share a tracked
game through the store, on SQLite and on a real PostgreSQL: the host shares, a follower opens
the link and sees every move; who may write is the host's choice; two phones recording at
once never both land; a phone's dice never reach the store or a link."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from perudo_math import GameState
from storage.sql import Database, DatabaseError
from storage.tables import SharedTables, follow_token_of
from tests.app.conftest import ENTRY, FIRST_RUN_TIMEOUT_S
from tests.app.test_tracker_page import (
    bid,
    enter_hand,
    game,
    open_panel,
    open_tracker,
    panel_pills,
    set_up,
)
from views import live_table
from views.i18n import translate


@pytest.fixture(autouse=True)
def database(database_url: str, monkeypatch) -> Iterator[Database]:
    """Each test on its own database, on each backend; the app's store reopened on it."""
    monkeypatch.setenv("PERUDO_COACH_DB", database_url)
    live_table.tables.clear()
    yield Database(database_url)
    live_table.tables.clear()


def phone(lang: str = "en") -> AppTest:
    at = AppTest.from_file(ENTRY, default_timeout=FIRST_RUN_TIMEOUT_S)
    at.context = {"locale": "fr-FR" if lang == "fr" else "en-US"}
    return at


def shared_by_host(lang: str = "en", everyone: bool = False) -> tuple[AppTest, str]:
    """A host phone tracking Ann, Bob and Cid's game, shared; the followers' link."""
    host = open_tracker(phone(lang), lang=lang)
    set_up(host, ["Ann", "Bob", "Cid"], opener=0, me=0)
    open_panel(host, "share")
    if everyone:
        host.toggle(key="tracker_share_everyone").set_value(True).run()
    host.button(key="tracker_share").click().run()
    assert not host.exception
    link = next(c.value for c in host.get("code"))
    return host, link


def follow(link: str, lang: str = "en") -> AppTest:
    """A second phone opening the followers' link."""
    query = {name: values[0] for name, values in parse_qs(urlsplit(link).query).items()}
    return open_tracker(phone(lang), **query)


def texts(at: AppTest) -> list[str]:
    return [e.value for e in [*at.markdown, *at.caption, *at.warning, *at.info]]


def test_a_follower_sees_each_move_and_cannot_record_unless_allowed(database) -> None:
    host, link = shared_by_host()
    token = host.query_params["share"]
    assert link.endswith(f"/game?share={follow_token_of(token)}&lang=en")
    assert translate("en", "live.status.host.host") in texts(host)
    follower = follow(link)
    assert game(follower) == game(host)
    assert translate("en", "live.status.follower.host") in texts(follower)
    assert translate("en", "live.read_only") in texts(follower)
    assert "tracker_face" not in {w.key for w in follower.segmented_control}  # no bid entry
    assert "tracker_undo" not in {b.key for b in follower.button}  # nothing to undo
    bid(host, "2x5")
    follower.run()  # what the one-second watch does on a phone
    assert game(follower).bids == game(host).bids and len(game(host).bids) == 1
    assert follower.query_params["share"] == follow_token_of(token)


def test_with_everyone_writing_two_phones_at_once_never_both_land(database, monkeypatch) -> None:
    host, link = shared_by_host(everyone=True)
    follower = follow(link)
    assert translate("en", "live.status.follower.everyone") in texts(follower)
    bid(follower, "2x5")  # Ann's opening, recorded on the follower's phone
    host.run()
    assert [str(b) for _, b in game(host).bids] == ["2x5"]
    # Both phones record Bob's bid within the same second, each over the version it saw
    # (the follower's watch has not run since): one lands, the other is told.
    bid(host, "3x5")
    with monkeypatch.context() as within_the_second:
        within_the_second.setattr(live_table, "refresh", lambda: False)
        bid(follower, "2x6")
    assert [str(b) for _, b in game(follower).bids] == ["2x5", "3x5"]  # the host's landed
    assert translate("en", "live.outcome.conflict") in texts(follower)
    stored = SharedTables(database).open(host.query_params["share"])
    assert GameState.from_code(stored.game) == game(host) and stored.version == 3
    follower.run()  # the watch's next run: the tap that did not land is still said
    assert translate("en", "live.outcome.conflict") in texts(follower)
    bid(follower, "4x5")  # the game moves on: the warning was about the one before
    assert translate("en", "live.outcome.conflict") not in texts(follower)


def test_a_rule_change_reaches_every_phone_at_the_table(database) -> None:
    host, link = shared_by_host()
    follower = follow(link)
    bid(host, "3x5")
    host.segmented_control(key="tracker_face").set_value(2).run()
    host.button(key="tracker_switch_q_4").click().run()  # any face from now on, and 4 × 2
    follower.run()
    assert game(follower) == game(host) and game(follower).rules.raise_rule == "any-face"
    open_panel(follower, "rules")  # a follower who may not record reads the rules alone
    assert "tracker_rule_raise_rule" not in {w.key for w in follower.segmented_control}
    assert any(text.startswith("- Everyone starts") and "with any face" in text
               for text in texts(follower))


def test_a_phones_dice_never_reach_the_store_or_a_link(database) -> None:
    host, link = shared_by_host()
    follower = follow(link)
    enter_hand(follower, [6, 6, 6, 6, 6])
    enter_hand(host, [2, 3, 2, 3, 2])
    bid(host, "2x5")
    stored = SharedTables(database).open(follow_token_of(host.query_params["share"]))
    for at in (host, follower):
        assert "66666" not in str(dict(at.query_params)) and "23232" not in str(
            dict(at.query_params))
    assert stored.game == game(host).to_code()  # the public game alone
    with database.transaction() as connection:
        columns = connection.execute("SELECT * FROM shared_tables").fetchall()
    assert len(columns[0]) == 7  # keys, game, version, who writes, times: no hand


def test_the_host_lets_everyone_write_and_stops_sharing(database) -> None:
    host, link = shared_by_host()
    follower = follow(link)
    open_panel(host, "share")
    host.toggle(key="tracker_share_everyone").set_value(True).run()
    follower.run()
    assert translate("en", "live.status.follower.everyone") in texts(follower)
    bid(follower, "2x5")
    host.run()
    assert panel_pills(host).value is None  # the game moved on: QR code closed
    open_panel(host, "share")
    host.button(key="tracker_share_stop").click().run()
    assert "share" not in host.query_params and game(host).bids  # the game goes on here
    follower.run()
    assert "share" in follower.query_params  # the table lives on for its followers
    assert [str(b) for _, b in game(follower).bids] == ["2x5"]


def test_the_hosts_qr_code_closes_once_the_game_moves_on(database) -> None:
    """Issue 28, point 10: the share panel, its QR code and link, stays while the phones
    join, and closes on the first move recorded after it opened; it opens again on a tap."""
    host, link = shared_by_host()
    follow(link)
    host.run()
    assert panel_pills(host).value == "share"
    assert host.get("code") and host.get("image")  # the link and its QR code
    bid(host, "2x5")
    assert panel_pills(host).value is None
    assert not host.get("code") and not host.get("image")
    # A tap sends the chips as the phone last drew them: the table's watch, sent while the
    # close was on its way, still says "share". It does not open the panel again.
    host.session_state["tracker_panel"] = "share"
    host.run()
    assert panel_pills(host).value is None and not host.get("code")
    open_panel(host, "share")
    host.run()
    assert host.get("code")[0].value == link  # reopened: it stays until the next move
    bid(host, "3x5")
    assert panel_pills(host).value is None


def test_a_follower_without_a_seat_is_only_watching(database) -> None:
    """Issue 28, point 10: a follower keeps no score; the host without a seat does."""
    host, link = shared_by_host()
    follower = follow(link)
    assert follower.selectbox(key="tracker_iam").options[0] == "None: I'm only watching"
    open_panel(host, "game")
    assert host.selectbox(key="tracker_iam").options[0] == "None: I only keep track"


def test_a_shared_table_in_french(database) -> None:
    host, link = shared_by_host("fr")
    assert "Table partagée\u00a0: vous l'hébergez et enregistrez les coups." in texts(host)
    follower = follow(link, "fr")
    assert "Seul l'hôte enregistre les coups\u00a0: cet écran suit la table au fil du jeu." in (
        texts(follower))


def test_while_the_database_is_away_the_table_says_it_is_reconnecting(
        database, monkeypatch) -> None:
    """The database stops answering: the last known table stays on screen with a note, a
    move is not recorded (and says so), and once it answers the table carries on."""
    host, link = shared_by_host(everyone=True)
    follower = follow(link)

    def away(*args, **kwargs):
        raise DatabaseError("cannot reach PostgreSQL")

    with monkeypatch.context() as outage:
        outage.setattr(SharedTables, "open", away)
        outage.setattr(SharedTables, "record", away)
        follower.run()
        assert translate("en", "live.offline") in texts(follower)
        bid(follower, "2x5")
        assert translate("en", "live.outcome.offline") in texts(follower)
        assert game(follower).bids == ()  # nothing recorded, nothing pretended
    follower.run()
    assert translate("en", "live.offline") not in texts(follower)
    bid(follower, "2x5")
    host.run()
    assert [str(b) for _, b in game(host).bids] == ["2x5"]


def store_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared tables' store cannot be reached: opening it fails, as on a first run
    while PostgreSQL is stopped or the SQLite file cannot be read."""
    def away(*args, **kwargs):
        raise DatabaseError("cannot reach the store")

    live_table.tables.clear()
    monkeypatch.setattr(SharedTables, "__init__", away)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("role", ["follower", "host"])
def test_a_link_opened_while_the_store_is_away_keeps_the_table_and_opens_it_later(
        database, monkeypatch, role: str, lang: str) -> None:
    """Issue 31, point 3: the link keeps its code in the address, the page says the table
    cannot be reached yet (no set-up, no game to record on), and the watch's next run once
    the store answers opens it."""
    played = GameState.new(["Ann", "Bob", "Cid"]).bid("2x5")
    hosted = SharedTables(database).host(played.to_code())
    token = hosted.host_token if role == "host" else hosted.follow_token
    params = {"share": token, "lang": lang}
    if role == "host":  # the host's address: its last copy of the game, and its seat
        params |= {"game": GameState.new(["Ann", "Bob", "Cid"]).to_code(), "me": "0"}
    with monkeypatch.context() as outage:
        store_away(outage)
        at = open_tracker(phone(lang), **params)
        assert at.query_params["share"] == token
        assert [w.value for w in at.warning] == [translate(lang, "live.waiting")]
        keys = {widget.key for widget in [*at.button, *at.segmented_control]}
        assert "tracker_start" not in keys and "tracker_face" not in keys
        at.run()  # the watch tries again: still away
        assert at.query_params["share"] == token
    live_table.tables.clear()
    at.run()  # the watch's next run: the store answers
    assert not at.exception
    assert translate(lang, "live.waiting") not in texts(at)
    assert game(at) == played and at.query_params["share"] == token
    status = "live.status.host.host" if role == "host" else "live.status.follower.host"
    assert translate(lang, status) in texts(at)


def finished(names: list[str]) -> GameState:
    """A game played to its end: each round, the opener bids 9 × 5 and is called wrong."""
    played = GameState.new(names)
    while not played.is_over:
        played = played.bid("9x5").dudo(0)
    return played


def test_a_follower_is_asked_which_player_it_is_up_top(database) -> None:
    _, link = shared_by_host("fr")
    follower = follow(link, "fr")
    picker = follower.selectbox(key="tracker_iam")  # no panel opened
    assert picker.label == "Lequel êtes-vous\u202f?"
    assert picker.options[0] == "Aucun\u00a0: je regarde seulement"
    picker.set_value(1).run()
    assert follower.query_params["me"] == "1"
    with pytest.raises(KeyError):
        follower.selectbox(key="tracker_iam")  # told once: now in the Game panel only
    open_panel(follower, "game")
    assert follower.selectbox(key="tracker_iam").value == 1
    assert "tracker_new" not in {b.key for b in follower.button}  # the host's to start
    assert translate("fr", "live.next_game") in texts(follower)


def test_the_hosts_next_game_is_followed_by_every_phone(database) -> None:
    over = finished(["Ann", "Bob"])
    hosted = SharedTables(database).host(over.to_code())
    host = phone()
    host.query_params["share"] = hosted.host_token
    host.query_params["me"] = "0"
    host = open_tracker(host)
    follower = follow(f"http://x/game?share={hosted.follow_token}&lang=en")
    assert game(follower).is_over and "tracker_new" not in {b.key for b in follower.button}
    assert translate("en", "live.next_game") in texts(follower)
    host.button(key="tracker_new").click().run()
    assert translate("en", "live.next_game.host") in [i.value for i in host.info]
    follower.run()
    assert game(follower) == over  # the table keeps the last game while the host sets up
    host.run()  # the host's own refresh does not bring the old game back
    assert game(host) is None
    host.button(key="tracker_start").click().run()
    assert not host.exception and not game(host).is_over
    assert host.query_params["share"] == hosted.host_token  # the same table
    follower.run()
    assert game(follower) == game(host) and follower.query_params["share"] == (
        hosted.follow_token)


def test_the_hosts_next_game_lands_even_if_a_move_came_in_meanwhile(database) -> None:
    host, link = shared_by_host(everyone=True)
    follower = follow(link)
    follower.selectbox(key="tracker_iam").set_value(1).run()
    open_panel(host, "game")
    host.button(key="tracker_new").click().run()
    host.button(key="tracker_new_yes").click().run()
    assert game(host) is None
    bid(follower, "2x5")  # recorded on the last game while the host sets up the next
    host.text_input(key=f"tracker_name_{host.session_state['tracker_rows'][2]}").set_value(
        "Dan").run()  # a new player in the third seat
    host.button(key="tracker_start").click().run()
    assert not host.exception and game(host) is not None and not game(host).bids
    assert [p.name for p in game(host).players] == ["Ann", "Bob", "Dan"]
    follower.run()
    assert game(follower) == game(host)
    assert "me" not in follower.query_params  # other players: which one am I, again?
    assert follower.selectbox(key="tracker_iam").value is not None


def test_sharing_while_the_database_is_away_says_so(database, monkeypatch) -> None:
    host = open_tracker(phone())
    set_up(host, ["Ann", "Bob", "Cid"], opener=0, me=0)
    open_panel(host, "share")

    def away(*args, **kwargs):
        raise DatabaseError("cannot reach PostgreSQL")

    monkeypatch.setattr(SharedTables, "host", away)
    host.button(key="tracker_share").click().run()
    assert not host.exception and "share" not in host.query_params
    assert translate("en", "live.outcome.offline") in texts(host)


@pytest.mark.parametrize(("value", "lookups"),
                         [("x", 0), ("A" * 32, 1), ("é" * 32, 0), ("A" * 100_000, 0)])
def test_a_hostile_table_link_costs_little_and_says_so(database, monkeypatch, value: str,
                                                       lookups: int) -> None:
    """The cost is counted, not timed: a value not shaped as a token never reaches the store,
    one that is shaped as one costs one lookup of a token's length, and either says so."""
    opened: list[int] = []
    real_open = SharedTables.open

    def counted_open(self: SharedTables, token: str):
        opened.append(len(token))
        return real_open(self, token)

    monkeypatch.setattr(SharedTables, "open", counted_open)
    at = phone()
    at.query_params["share"] = value
    at.run()
    assert not at.exception
    assert opened == [32] * lookups
    notice = "notice.table_gone" if lookups else "notice.bad_table_link"
    assert translate("en", notice) in [w.value for w in at.warning]
    assert "share" not in at.query_params


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_follower_on_the_advice_page_is_asked_for_this_rounds_dice(database, lang) -> None:
    """Issue 28, point 1: Bob sits on the advice page with his dice entered; the host
    records the end of the round, and the watch's next run (``follower.run()``) drops the old
    dice, says so in one line and asks for as many dice as Bob holds now; the host's undo back
    into the round brings them back."""
    host, link = shared_by_host(lang)
    bid(host, "2x5")  # Ann opens
    follower = follow(link, lang)
    follower.selectbox(key="tracker_iam").set_value(1).run()  # I am Bob
    enter_hand(follower, [2, 3, 5, 5, 6])
    follower.switch_page("app_pages/odds.py").run()  # Bob stays on the advice page
    assert follower.session_state["odds_hand"] == [2, 3, 5, 5, 6]

    host.number_input(key="tracker_count").set_value(1).run()
    host.button(key="tracker_dudo").click().run()  # Bob was right: Ann drops to four dice
    follower.run()  # what the one-second watch does on a phone
    assert follower.session_state["odds_hand"] == []
    asked = translate(lang, "odds.new_round.other", count=5, round=2)
    assert asked in [w.value for w in follower.warning]
    assert not follower.exception

    host.button(key="tracker_undo").click().run()  # the dudo was entered by mistake
    follower.run()
    assert follower.session_state["odds_hand"] == [2, 3, 5, 5, 6]
    assert asked not in [w.value for w in follower.warning]
