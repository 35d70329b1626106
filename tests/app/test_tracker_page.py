"""The game tracker through AppTest: set-up, two-tap bids, dudo and calza, undo, the URL.

Every control of the page is driven here, with bad input (empty, duplicate and too many
names, illegal bids, impossible counts, calls the rules forbid), a whole game to the winner
with a palifico round, names that look like markdown or HTML, and the French texts. The game
is read back from the URL (``?game=``) after each move: what the page shows and what a
reload would restore are the same thing.

At the table (issue 11): the count is typed before a call is recorded, a tap on the picked
face keeps it, a palifico round shows its banner, and the dice entered for the advice belong
to their round: a new round asks for them again.
"""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from perudo_math import (
    CALL_KINDS,
    MAX_MOVES,
    MAX_ROUNDS,
    Bid,
    BidMade,
    GameState,
    Hand,
    MoveRefusal,
    Rules,
    RulesChanged,
    check_bid,
    legal_raises,
)
from views import text, url_state
from views import tracker_view as view
from views.i18n import translate

TRACKER = "app_pages/tracker.py"
ANN, BOB = 0, 1
ODDS = "app_pages/odds.py"


# --- helpers ---------------------------------------------------------------------------------


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]


def open_tracker(at: AppTest, **params: str) -> AppTest:
    """The tracker page, reached from the app's entry script with ``params`` in the URL."""
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    at.switch_page(TRACKER).run()
    assert_clean(at)
    return at


def rows(at: AppTest) -> list[int]:
    return list(at.session_state["tracker_rows"])


def set_up(at: AppTest, names: list[str], *, opener: int | None = 0,
           me: int | None = None) -> AppTest:
    """Type ``names`` in seat order, choose the opener (``None``: roll) and me, start; the
    rows left over stay empty, as a player leaves them."""
    while len(rows(at)) < len(names):
        at.button(key="tracker_add").click().run()
    for row, name in zip(rows(at), names, strict=False):
        at.text_input(key=f"tracker_name_{row}").set_value(name)
    at.run()
    order = rows(at)
    at.selectbox(key="tracker_opener").set_value(-1 if opener is None else order[opener])
    at.selectbox(key="tracker_me").set_value(-1 if me is None else order[me])
    at.run()
    at.button(key="tracker_start").click().run()
    assert_clean(at)
    return at


def game(at: AppTest) -> GameState | None:
    """The game as the URL holds it (what a reload restores)."""
    code = at.query_params.get("game")
    return GameState.from_code(code) if code else None


def bid(at: AppTest, text: str) -> AppTest:
    """Enter a bid the way a player does: tap the face, then the quantity."""
    wanted = Bid.parse(text)
    if at.segmented_control(key="tracker_face").value != wanted.face:
        at.segmented_control(key="tracker_face").set_value(wanted.face).run()
    for _ in range(20):
        keys = {button.key for button in at.button}
        if f"tracker_q_{wanted.quantity}" in keys:
            break
        at.button(key="tracker_more").click().run()
    at.button(key=f"tracker_q_{wanted.quantity}").click().run()
    assert_clean(at)
    return at


def count_input(at: AppTest):
    return next(field for field in at.number_input if field.key == "tracker_count")


def flat(markdown: str) -> str:
    """Markdown as read: ``**`` marks dropped."""
    return markdown.replace("**", "")


def call(at: AppTest, kind: str, count: int, caller: int | None = None) -> AppTest:
    """Dudo or calza with ``count`` matching dice revealed (``caller``: another seat)."""
    if caller is not None:
        box = next(box for box in at.selectbox if box.key.startswith("tracker_caller_"))
        box.set_value(caller).run()
    count_input(at).set_value(count).run()
    at.button(key=f"tracker_{kind}").click().run()
    assert_clean(at)
    return at


def texts(at: AppTest) -> list[str]:
    """Every markdown-like text of the page, as markdown source."""
    return [e.value for e in (*at.markdown, *at.caption, *at.subheader, *at.info,
                              *at.warning, *at.error, *at.success)]


def plain(markdown: str) -> str:
    """What a reader sees of the page's markdown: formatting marks (``**``, ``~~``,
    ``:gray[…]``) dropped, escaped characters kept as they show, invisible joiners and
    isolates gone."""
    out: list[str] = []
    index = 0
    while index < len(markdown):
        if markdown[index] == "\\" and index + 1 < len(markdown):
            out.append(markdown[index + 1])
            index += 2
        elif markdown.startswith(("**", "~~"), index):
            index += 2
        elif markdown.startswith(":gray[", index):
            index += len(":gray[")
        elif markdown[index] == "]":
            index += 1
        else:
            out.append(markdown[index])
            index += 1
    return "".join(char for char in out if char not in "\u2060\u2068\u2069")


def shown_texts(at: AppTest) -> list[str]:
    """The texts as a reader sees them."""
    return [plain(text) for text in texts(at)]


def has(at: AppTest, fragment: str) -> bool:
    return any(fragment in text for text in shown_texts(at))


def errors(at: AppTest) -> list[str]:
    return [plain(e.value) for e in at.error]


def panel_pills(at: AppTest) -> Any:
    """The chips of the panels under the game (their key changes each time the page closes
    the panel: ``TrackerState.panel_closings``)."""
    return next(chips for chips in at.pills if str(chips.key).startswith("tracker_panel"))


def open_panel(at: AppTest, panel: str) -> AppTest:
    """Show one of the panels under the game (the round log, who bluffs, my moves, the rules,
    the game), as a tap on its chip would."""
    panel_pills(at).set_value(panel).run()
    return at


def panel_chips(at: AppTest) -> list[str]:
    return [plain(option) for option in panel_pills(at).options]


def held_text(at: AppTest) -> str:
    return next(text for text in shown_texts(at) if " held" in text or " vérifiée" in text)


def logged_rounds(at: AppTest) -> list[str]:
    return [plain(md.value) for md in at.markdown if md.value.startswith("**Round ")]


@pytest.fixture
def tracker(app: AppTest) -> AppTest:
    return open_tracker(app)


# --- set-up ----------------------------------------------------------------------------------


def test_the_page_opens_on_the_set_up(tracker: AppTest) -> None:
    assert tracker.title[0].value == "Game tracker"
    # Issue 28, point 10: four rows, the usual table; "Add a player" adds a fifth in one tap.
    assert len(rows(tracker)) == 4
    assert [tracker.text_input(key=f"tracker_name_{row}").placeholder for row in rows(tracker)
            ] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    tracker.button(key="tracker_add").click().run()
    assert len(rows(tracker)) == 5
    assert tracker.selectbox(key="tracker_me").value == -1
    assert tracker.selectbox(key="tracker_opener").value == -1
    assert [link.label for link in tracker.main.get("page_link")] == ["The rules at this table"]
    assert "game" not in tracker.query_params


def test_add_remove_and_reorder_players(tracker: AppTest) -> None:
    first = rows(tracker)
    tracker.button(key="tracker_add").click().run()
    assert len(rows(tracker)) == 5
    for row, name in zip(rows(tracker), ["Ann", "Bob", "Cid", "Dee"], strict=False):
        tracker.text_input(key=f"tracker_name_{row}").set_value(name)
    tracker.run()
    tracker.button(key=f"tracker_up_{rows(tracker)[2]}").click().run()  # Cid above Bob
    tracker.button(key=f"tracker_remove_{rows(tracker)[0]}").click().run()  # Ann leaves
    names = [tracker.text_input(key=f"tracker_name_{row}").value for row in rows(tracker)]
    assert names == ["Cid", "Bob", "Dee", ""]
    assert tracker.button(key=f"tracker_up_{rows(tracker)[0]}").disabled
    assert rows(tracker)[0] == first[2]
    tracker.button(key="tracker_start").click().run()
    assert [p.name for p in game(tracker).players] == ["Cid", "Bob", "Dee"]


def test_rows_left_empty_at_the_end_are_no_seats(tracker: AppTest) -> None:
    """Five names in six rows start a five-player game: no row to remove."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    for _ in range(2):
        tracker.button(key="tracker_add").click().run()
    for row, name in zip(rows(tracker), names, strict=False):
        tracker.text_input(key=f"tracker_name_{row}").set_value(name)
    tracker.run()
    offered = tracker.selectbox(key="tracker_me").options
    assert offered == ["None: I only keep track", *names]  # no empty row to choose
    tracker.button(key="tracker_start").click().run()
    assert_clean(tracker)
    assert [p.name for p in game(tracker).players] == names


def test_an_empty_row_chosen_or_between_names_is_refused(tracker: AppTest) -> None:
    order = rows(tracker)
    for row, name in zip(order, ["Ann", "", "Cid"], strict=False):
        tracker.text_input(key=f"tracker_name_{row}").set_value(name)
    tracker.run()
    tracker.button(key="tracker_start").click().run()
    assert errors(tracker) == ["Player 2 has no name: type one, or remove that row."]
    tracker.text_input(key=f"tracker_name_{order[1]}").set_value("Bob")
    tracker.text_input(key=f"tracker_name_{order[3]}").set_value("Dee").run()
    tracker.selectbox(key="tracker_opener").set_value(order[3]).run()
    tracker.text_input(key=f"tracker_name_{order[3]}").set_value("").run()
    assert tracker.selectbox(key="tracker_opener").value == order[3]  # still chosen
    tracker.button(key="tracker_start").click().run()
    assert errors(tracker) == ["Player 4 has no name: type one, or remove that row."]
    assert "game" not in tracker.query_params


def test_at_most_ten_players(tracker: AppTest) -> None:
    for _ in range(6):
        tracker.button(key="tracker_add").click().run()
    assert len(rows(tracker)) == 10
    assert tracker.button(key="tracker_add").disabled
    assert "A game has at most 10 players." in [c.value for c in tracker.caption]
    names = [f"P{seat}" for seat in range(10)]
    set_up(tracker, names)
    assert len(game(tracker).players) == 10


def test_at_least_two_players(tracker: AppTest) -> None:
    while len(rows(tracker)) > 2:
        assert not tracker.button(key=f"tracker_remove_{rows(tracker)[0]}").disabled
        tracker.button(key=f"tracker_remove_{rows(tracker)[0]}").click().run()
    assert all(tracker.button(key=f"tracker_remove_{row}").disabled for row in rows(tracker))


def test_empty_names_are_refused(tracker: AppTest) -> None:
    tracker.text_input(key=f"tracker_name_{rows(tracker)[0]}").set_value("Ann")
    tracker.text_input(key=f"tracker_name_{rows(tracker)[2]}").set_value("   ")
    tracker.text_input(key=f"tracker_name_{rows(tracker)[3]}").set_value("Dee")
    tracker.run()
    tracker.button(key="tracker_start").click().run()
    assert_clean(tracker)
    assert errors(tracker) == [
        "Player 2 has no name: type one, or remove that row.",
        "Player 3 has no name: type one, or remove that row.",
    ]
    assert "game" not in tracker.query_params
    tracker.text_input(key=f"tracker_name_{rows(tracker)[3]}").set_value("").run()
    tracker.button(key="tracker_start").click().run()
    assert errors(tracker) == ["A game needs at least 2 players."]  # one name, blanks after


def test_seated_names_drop_only_the_unchosen_empty_rows_at_the_end() -> None:
    assert view.seated_names(["Ann", "Bob", "", " "]) == ["Ann", "Bob"]
    assert view.seated_names(["Ann", "", "Cid", ""]) == ["Ann", "", "Cid"]
    assert view.seated_names(["Ann", "Bob", "", ""], chosen=[2]) == ["Ann", "Bob", ""]
    assert view.seated_names(["", ""]) == []


def test_duplicate_names_are_refused_whatever_the_case(tracker: AppTest) -> None:
    for row, name in zip(rows(tracker), ["Ann", "Bob", " ann "], strict=False):
        tracker.text_input(key=f"tracker_name_{row}").set_value(name)
    tracker.run()
    tracker.button(key="tracker_start").click().run()
    assert errors(tracker) == ["Players 1 and 3 are both called ann: names must differ."]
    assert "game" not in tracker.query_params
    tracker.text_input(key=f"tracker_name_{rows(tracker)[2]}").set_value("Cid").run()
    tracker.button(key="tracker_start").click().run()
    assert not tracker.error
    assert game(tracker) is not None


def test_name_problems_cover_every_case() -> None:
    assert view.name_problems(["Ann"]) == ["A game needs at least 2 players."]
    too_many = view.name_problems([f"P{seat}" for seat in range(11)])
    assert too_many == ["A game has at most 10 players."]
    assert view.name_problems(["Ann", "x" * 41]) == [
        "The name of player 2 is too long: at most 40 characters."]
    assert view.name_problems(["Ann", "Bob"]) == []


def test_start_with_the_chosen_opener_and_seat(tracker: AppTest) -> None:
    set_up(tracker, ["Ann", "Bob", "Cid"], opener=1, me=2)
    state = game(tracker)
    assert state.opener == 1 and state.rules == Rules()
    assert tracker.query_params["me"] == "2"
    assert plain(tracker.subheader[0].value) == "Round 1 — 15 dice on the table — Bob opens"
    assert has(tracker, "Bob to play — opening bid")
    table = next(text for text in shown_texts(tracker) if text.startswith("| Player"))
    assert "| ▶ Bob | ●●●●● 5 |" in table.replace("**", "")
    assert "Cid (you)" in table


def test_roll_for_the_first_opener(tracker: AppTest) -> None:
    set_up(tracker, ["Ann", "Bob", "Cid"], opener=None)
    opener = game(tracker).opener
    assert opener in (0, 1, 2)
    name = ["Ann", "Bob", "Cid"][opener]
    assert has(tracker, f"Rolled for the first opener: {name} opens.")


def test_rules_come_from_the_url(app: AppTest) -> None:
    open_tracker(app, dice="3", calza="0")
    set_up(app, ["Ann", "Bob"])
    assert game(app).rules == Rules(starting_dice=3, calza=False)
    assert app.subheader[0].value.startswith("Round 1 — 6 dice on the table")


# --- bidding ---------------------------------------------------------------------------------


@pytest.fixture
def three(tracker: AppTest) -> AppTest:
    """Ann, Bob and Cid, Ann opens, five dice each, default rules."""
    return set_up(tracker, ["Ann", "Bob", "Cid"])


def test_a_bid_takes_a_face_and_a_quantity(three: AppTest) -> None:
    assert three.segmented_control(key="tracker_face").value is None
    assert has(three, "Tap the face that was bid.")
    three.segmented_control(key="tracker_face").set_value(4).run()
    labels = [b.label for b in three.button if b.key.startswith("tracker_q_")]
    assert labels == [str(q) for q in range(1, 1 + view.QUANTITY_ROW)]
    three.button(key="tracker_q_3").click().run()
    assert game(three).bids == ((0, Bid(3, 4)),)
    assert has(three, "Ann bid 3 × 4 — Bob to play")
    # The face stays picked and the row starts at the smallest legal raise: one tap for 4 × 4.
    assert three.segmented_control(key="tracker_face").value == 4
    labels = [b.label for b in three.button if b.key.startswith("tracker_q_")]
    assert labels[0] == "4"
    three.button(key="tracker_q_4").click().run()
    assert game(three).bids[-1] == (1, Bid(4, 4))


def test_the_row_starts_at_the_smallest_legal_quantity_per_face(three: AppTest) -> None:
    bid(three, "7x4")
    three.segmented_control(key="tracker_face").set_value(1).run()
    assert has(three, "How many pacos? The smallest bid is 4 × P.")
    assert next(b.label for b in three.button if b.key.startswith("tracker_q_")) == "4"
    bid(three, "4x1")
    three.segmented_control(key="tracker_face").set_value(5).run()
    assert has(three, "How many fives? The smallest bid is 9 × 5.")


def test_more_and_fewer_quantities(three: AppTest) -> None:
    three.segmented_control(key="tracker_face").set_value(3).run()
    three.button(key="tracker_more").click().run()
    labels = [b.label for b in three.button if b.key.startswith("tracker_q_")]
    assert labels[0] == str(1 + view.QUANTITY_ROW)
    three.button(key="tracker_less").click().run()
    labels = [b.label for b in three.button if b.key.startswith("tracker_q_")]
    assert labels[0] == "1"


def test_opening_on_pacos_is_refused_with_the_reason(three: AppTest) -> None:
    three.segmented_control(key="tracker_face").set_value(1).run()
    assert [plain(w.value) for w in three.warning] == [
        "A normal round cannot be opened on pacos: open on a face from 2 to 6."]
    assert not [b for b in three.button if b.key.startswith("tracker_q_")]


def test_a_lower_face_is_refused_with_the_reason(three: AppTest) -> None:
    bid(three, "3x4")
    three.segmented_control(key="tracker_face").set_value(3).run()
    assert [plain(w.value) for w in three.warning] == [
        "After 3 × 4 a lower face is not allowed: bid more fours, or 3 of a higher face."]


def test_an_illegal_quantity_is_refused_with_the_reason(three: AppTest) -> None:
    bid(three, "3x4")
    three.segmented_control(key="tracker_face").set_value(5).run()
    assert three.button(key="tracker_q_3").proto.type == "secondary"
    assert three.button(key="tracker_q_4").proto.type == "tertiary"
    three.button(key="tracker_q_4").click().run()
    assert errors(three) == ["After 3 × 4 a higher face keeps the quantity: bid 3 × 5."]
    assert game(three).bids == ((0, Bid(3, 4)),)


def test_a_bid_above_the_table_is_legal_with_a_warning(app: AppTest) -> None:
    open_tracker(app, dice="1")
    set_up(app, ["Ann", "Bob"])
    bid(app, "2x6")
    bid(app, "3x6")
    assert game(app).last_bid == Bid(3, 6)
    assert [plain(w.value) for w in app.warning] == [
        "3 × 6 claims more dice than there are on the table (2): it is certainly false."]


# --- dudo and calza --------------------------------------------------------------------------


def test_dudo_settles_the_round_and_says_what_happened(three: AppTest) -> None:
    bid(three, "3x4")
    bid(three, "4x4")
    call(three, "dudo", 2)
    state = game(three)
    assert [p.dice for p in state.players] == [5, 4, 5]
    assert state.opener == 1 and state.bids == ()
    assert [plain(i.value) for i in three.info] == [
        "Dudo by Cid on 4 × 4: 2 counted — Bob loses a die"]
    assert plain(three.subheader[0].value) == "Round 2 — 14 dice on the table — Bob opens"
    assert three.segmented_control(key="tracker_face").value is None


def test_a_true_bid_costs_the_challenger(three: AppTest) -> None:
    bid(three, "3x4")
    call(three, "dudo", 3)
    assert [p.dice for p in game(three).players] == [5, 4, 5]
    assert has(three, "Dudo by Bob on 3 × 4: 3 counted — Bob loses a die")


def test_a_count_above_the_table_is_refused(three: AppTest) -> None:
    bid(three, "3x4")
    count_input(three).set_value(16).run()
    assert errors(three) == ["A count of 16 is impossible: 15 dice on the table."]
    assert three.button(key="tracker_dudo").disabled
    assert three.button(key="tracker_calza").disabled
    assert view.refusal_text(game(three), game(three).count_refusal(16)) == errors(three)[0]
    assert game(three).count_refusal(15) is None


def test_calza_right_gains_a_die_and_wrong_loses_one(three: AppTest) -> None:
    bid(three, "3x4")
    call(three, "dudo", 2)  # Ann loses: 4 dice
    bid(three, "2x6")  # Ann lost, so Ann opens
    state = game(three)
    assert state.bids == ((0, Bid(2, 6)),)
    call(three, "calza", 2)  # Bob is right, but he holds all his dice
    assert has(three, "Calza by Bob on 2 × 6: 2 counted — right — Bob already holds the "
                      "starting dice")
    bid(three, "2x3")  # Bob opens after a calza
    bid(three, "3x3")  # Cid
    call(three, "calza", 3)  # Ann, down to 4, is right
    assert [p.dice for p in game(three).players] == [5, 5, 5]
    assert has(three, "Calza by Ann on 3 × 3: 3 counted — right — Ann gains a die")
    bid(three, "2x2")
    call(three, "calza", 4)  # Bob is wrong
    assert [p.dice for p in game(three).players] == [5, 4, 5]
    assert has(three, "Calza by Bob on 2 × 2: 4 counted — wrong — Bob loses a die")


def test_no_calza_heads_up_and_no_calza_when_switched_off(app: AppTest) -> None:
    open_tracker(app)
    set_up(app, ["Ann", "Bob"])
    bid(app, "2x3")
    assert app.button(key="tracker_calza").disabled
    assert "No calza when only two players are left." in [c.value for c in app.caption]

    fresh = AppTest.from_file(app._script_path, default_timeout=60)
    fresh.context = {"locale": "en-US"}
    open_tracker(fresh, calza="0")
    set_up(fresh, ["Ann", "Bob", "Cid"])
    bid(fresh, "2x3")
    assert "tracker_calza" not in {button.key for button in fresh.button}
    assert not fresh.caption or "Calza is switched off in these rules." not in [
        c.value for c in fresh.caption]


def test_salsa_lets_another_seat_call_dudo(app: AppTest) -> None:
    open_tracker(app, salsa="1")
    set_up(app, ["Ann", "Bob", "Cid", "Dee"])
    bid(app, "3x5")
    box = next(box for box in app.selectbox if box.key.startswith("tracker_caller_"))
    assert box.options == ["Bob", "Cid", "Dee"]  # the turn first, never the bidder
    call(app, "dudo", 1, caller=3)
    assert has(app, "Dudo by Dee on 3 × 5: 1 counted — Ann loses a die")


def test_out_of_turn_calls_the_rules_forbid_are_refused(app: AppTest) -> None:
    open_tracker(app, calzaany="1")
    set_up(app, ["Ann", "Bob", "Cid"])
    bid(app, "3x5")
    box = next(box for box in app.selectbox if box.key.startswith("tracker_caller_"))
    box.set_value(2).run()
    assert app.button(key="tracker_dudo").disabled
    assert not app.button(key="tracker_calza").disabled
    reason = "Only Bob, whose turn it is, may call dudo (salsa is off)."
    assert reason in [plain(c.value) for c in app.caption]
    call(app, "calza", 3, caller=2)
    assert has(app, "Calza by Cid on 3 × 5: 3 counted — right")


def random_spot(rng: random.Random) -> GameState:
    """A game a few moves in, under random rule settings, with 2 to 4 players."""
    rules = Rules(starting_dice=rng.randint(1, 3), salsa=rng.random() < 0.5,
                  calza=rng.random() < 0.7, calza_out_of_turn=rng.random() < 0.5,
                  calza_heads_up=rng.random() < 0.5)
    state = GameState.new(["A", "B", "C", "D"][: rng.randint(2, 4)], rules)
    for _ in range(rng.randint(0, 12)):
        if state.is_over:
            break
        options = legal_raises(state.last_bid, state.table_dice, palifico=state.palifico,
                               rules=rules, bidder_dice=state.players[state.turn].dice)
        if state.bids and (not options or rng.random() < 0.3):
            state = state.dudo(rng.randint(0, state.table_dice))
        else:
            state = state.bid(rng.choice(options))
    return state


def test_the_callers_offered_are_the_seats_the_engine_lets_call() -> None:
    rng = random.Random(4)
    for _ in range(300):
        state = random_spot(rng)
        if state.is_over:
            assert view.callers(state) == []
            continue
        allowed = [seat for seat in state.active_seats if seat != state.turn
                   and (state.dudo_refusal(seat) is None or state.calza_refusal(seat) is None)]
        assert view.callers(state) == [state.turn, *allowed]
        rules = state.rules
        if allowed:
            assert rules.salsa or (rules.calza and rules.calza_out_of_turn)


def test_a_raise_redraws_the_call_entry_only_when_it_looks_otherwise(monkeypatch) -> None:
    """``call_look``, which decides whether a bid reruns the call's part: alike for a raise
    that leaves the callers offered and each call's refusal (its words and the setting that
    would allow it) as they were, otherwise not; and alike often, or the part is redrawn
    anyway."""
    monkeypatch.setattr("views.i18n.current_language", lambda: "en")
    rng = random.Random(6)

    def drawn(state: GameState) -> tuple[object, ...]:
        offered = view.callers(state)
        refusals = []
        for kind in CALL_KINDS:
            refused = state.call_refusal(kind, state.turn)
            refusals.append(None if refused is None else (
                view.refusal_text(state, refused), view.call_switch(state, kind, state.turn)))
        return (offered if len(offered) > 1 else None, state.rules.calza, refusals)

    alike = 0
    for _ in range(300):
        before = random_spot(rng)
        if before.is_over or not before.bids:
            continue
        options = legal_raises(before.last_bid, before.table_dice, palifico=before.palifico,
                               rules=before.rules,
                               bidder_dice=before.players[before.turn].dice)
        if not options:
            continue
        after = before.bid(rng.choice(options))
        same = drawn(before) == drawn(after) and drawn(before)[0] is None
        assert (view.call_look(before, before.turn) == view.call_look(after, after.turn)) == same
        alike += same
    assert alike >= 50


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_refusal_the_engine_gives_is_worded(lang: str, monkeypatch) -> None:
    """Random spots, every seat, every move: the page words each refusal in both languages,
    with the player it names."""
    monkeypatch.setattr("views.i18n.current_language", lambda: lang)
    rng = random.Random(5)
    seen = set()
    for _ in range(200):
        state = random_spot(rng)
        refusals = [state.count_refusal(count) for count in (-1, None, state.table_dice + 1)]
        for seat in (*range(len(state.players)), len(state.players)):
            refusals += [state.call_refusal(kind, seat) for kind in ("dudo", "calza")]
            refusals += [state.bid_refusal(Bid(quantity, face), seat)
                         for quantity, face in ((1, 1), (1, 2), (9, 6))]
        refusals += [state.rule_change_refusal(RulesChanged("starting_dice", 1)),
                     state.rule_change_refusal(RulesChanged("salsa", state.rules.salsa))]
        for refused in filter(None, refusals):
            text = view.refusal_text(state, refused)
            assert text and "{" not in text, refused
            named = refused.turn if refused.code in TURN_CODES else refused.seat
            if refused.code in TURN_CODES or refused.code in SEAT_CODES:
                assert state.name(named) in text, (refused, text)
            seen.add(refused.code)
    longest = GameState.new(["Ann", "Bob"]).replay(
        [BidMade(None, Bid(quantity, 2)) for quantity in range(1, MAX_MOVES + 1)])
    refused = longest.dudo_refusal()
    assert refused.code is MoveRefusal.GAME_TOO_LONG
    assert {longest.bid_refusal(Bid(MAX_MOVES + 1, 2)).code, longest.calza_refusal().code} == {
        MoveRefusal.GAME_TOO_LONG}
    text = view.refusal_text(longest, refused)
    assert str(MAX_MOVES) in text and "{" not in text
    seen.add(MoveRefusal.GAME_TOO_LONG)
    assert seen == set(MoveRefusal) - {MoveRefusal.NOT_HIGHER}


TURN_CODES = {MoveRefusal.NOT_YOUR_TURN, MoveRefusal.SALSA_OFF,
              MoveRefusal.CALZA_OUT_OF_TURN_OFF}
SEAT_CODES = {MoveRefusal.PLAYER_OUT, MoveRefusal.OWN_BID}


# --- undo, the log, a whole game -------------------------------------------------------------


def test_undo_one_move_at_a_time_back_to_the_start(three: AppTest) -> None:
    start = game(three)
    assert three.button(key="tracker_undo").disabled
    bid(three, "3x4")
    bid(three, "4x4")
    call(three, "dudo", 5)
    bid(three, "2x2")
    moves = len(game(three).history)
    for left in range(moves - 1, -1, -1):
        three.button(key="tracker_undo").click().run()
        assert_clean(three)
        assert len(game(three).history) == left
        assert has(three, "Last move undone.")
    assert game(three) == start
    assert three.button(key="tracker_undo").disabled
    assert plain(three.subheader[0].value) == "Round 1 — 15 dice on the table — Ann opens"


def test_undo_reopens_a_finished_round(three: AppTest) -> None:
    bid(three, "3x4")
    bid(three, "4x4")
    call(three, "dudo", 5)
    three.button(key="tracker_undo").click().run()
    assert game(three).bids == ((0, Bid(3, 4)), (1, Bid(4, 4)))
    assert three.segmented_control(key="tracker_face").value == 4
    assert has(three, "Bob bid 4 × 4 — Cid to play")


def test_the_log_lists_every_round_most_recent_first(three: AppTest) -> None:
    assert not has(three, "No round finished yet.")  # no panel chosen: nothing drawn
    open_panel(three, "log")
    assert has(three, "No round finished yet.")
    bid(three, "3x4")
    call(three, "dudo", 1)
    bid(three, "2x6")
    bid(three, "3x6")
    call(three, "dudo", 3)
    assert logged_rounds(three) == [
        "Round 2  \nAnn 2 × 6 → Bob 3 × 6  \nDudo by Cid on 3 × 6: 3 counted — Cid loses a die",
        "Round 1  \nAnn 3 × 4  \nDudo by Bob on 3 × 4: 1 counted — Ann loses a die",
    ]
    assert panel_chips(three)[0] == "Rounds (2)"


def test_a_whole_game_to_the_winner_with_a_palifico_round(app: AppTest) -> None:
    open_tracker(app, dice="2")
    set_up(app, ["Ann", "Bob", "Cid"], me=0)
    bid(app, "2x5")
    call(app, "dudo", 1)  # Ann drops to one die: palifico, Ann opens
    assert plain(app.subheader[0].value) == "Round 2 — 5 dice on the table — Ann opens — palifico"
    assert game(app).palifico
    bid(app, "1x1")  # pacos may open a palifico round
    app.segmented_control(key="tracker_face").set_value(4).run()
    assert [plain(w.value) for w in app.warning] == [
        "Palifico round: pacos are not jokers, and the face is frozen on pacos; only the "
        "quantity goes up.",
        "In a palifico round bids stay on pacos: bid at least 2 × P."]
    assert has(app, "Called? Lift the cups, count the pacos for 1 × P, then tap Dudo or Calza.")
    bid(app, "2x1")
    call(app, "dudo", 1)  # Bob's 2 × P was false: Bob drops to one die, palifico again
    assert plain(app.subheader[0].value) == "Round 3 — 4 dice on the table — Bob opens — palifico"
    bid(app, "1x3")
    assert has(app, "count only the threes for 1 × 3 (palifico: pacos are not jokers)")
    call(app, "dudo", 0)  # Bob is out
    assert has(app, "Dudo by Cid on 1 × 3: 0 counted — Bob loses their last die and is out")
    table = next(text for text in texts(app) if text.startswith("| Player"))
    assert "| :gray[~~\u2068Bob\u2069~~] | :gray[out] |" in table  # the name isolated
    assert plain(app.subheader[0].value) == "Round 4 — 3 dice on the table — Cid opens"
    bid(app, "1x6")
    call(app, "dudo", 0)  # Ann's turn; Cid loses: 1 die each, palifico for Cid
    assert "palifico" in app.subheader[0].value
    bid(app, "1x2")
    call(app, "dudo", 0)  # Ann challenges, Cid is out
    state = game(app)
    assert state.winner == 0
    assert [plain(s.value) for s in app.success] == ["Ann wins the game!"]
    assert "tracker_face" not in {w.key for w in app.segmented_control}
    assert not app.main.get("page_link")
    assert panel_chips(app)[0] == "Rounds (5)"
    app.button(key="tracker_undo").click().run()
    assert not game(app).is_over
    call(app, "dudo", 0)
    app.button(key="tracker_new").click().run()  # no question once the game is over
    assert "game" not in app.query_params
    names = [app.text_input(key=f"tracker_name_{row}").value for row in rows(app)]
    assert names == ["Ann", "Bob", "Cid"]
    assert app.selectbox(key="tracker_me").value == rows(app)[0]


# --- the URL, my seat, new game, advice ------------------------------------------------------


def test_a_reload_restores_the_game_and_my_seat(three: AppTest) -> None:
    bid(three, "3x4")
    bid(three, "4x4")
    open_panel(three, "game").selectbox(key="tracker_iam").set_value(1).run()
    assert three.query_params["me"] == "1"
    reloaded = AppTest.from_file(three._script_path, default_timeout=60)
    reloaded.context = {"locale": "en-US"}
    open_tracker(reloaded, game=three.query_params["game"], me="1")
    assert game(reloaded) == game(three)
    assert reloaded.subheader[0].value == three.subheader[0].value
    assert has(reloaded, "Bob bid 4 × 4 — Cid to play")
    assert reloaded.segmented_control(key="tracker_face").value == 4
    assert open_panel(reloaded, "game").selectbox(key="tracker_iam").value == 1
    table = next(text for text in shown_texts(reloaded) if text.startswith("| Player"))
    assert "Bob (you)" in table


def long_game(players: int = 10, dice: int = 10, seed: int = 7) -> GameState:
    """A long game between ``players`` with ``dice`` each, played down to two players."""
    rng = random.Random(seed)
    state = GameState.new([f"Player {n}" for n in range(1, players + 1)],
                          Rules(starting_dice=dice))
    while len(state.active_seats) > 2:
        options = legal_raises(state.last_bid, state.table_dice, palifico=state.palifico,
                               rules=state.rules, bidder_dice=state.players[state.turn].dice)
        if state.bids and (not options or rng.random() < 0.25):
            state = state.dudo(rng.randint(0, state.table_dice))
        else:
            state = state.bid(options[min(len(options) - 1, int(rng.expovariate(0.7)))])
    return state


def test_a_long_game_fits_in_the_url_and_reloads(app: AppTest) -> None:
    state = long_game()
    assert len(state.history) > 400
    code = state.to_code()
    assert len(code) < 2000  # a few bytes a move: far below any browser or server limit
    open_tracker(app, game=code)
    assert game(app) == state
    assert panel_chips(app)[0] == f"Rounds ({len(state.results)})"
    assert state.bids == ()  # the loop stops on the call that leaves two players
    bid(app, "1x2")
    assert len(game(app).history) == len(state.history) + 1


def test_a_tampered_link_gives_a_notice_and_a_fresh_start(app: AppTest) -> None:
    code = GameState.new(["Ann", "Bob"]).bid("3x4").to_code()
    tampered = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    app.query_params["game"] = tampered
    app.run()
    assert "This game link is damaged or not from Perudo Coach: start a new game." in [
        w.value for w in app.warning]
    assert "game" not in app.query_params
    app.switch_page(TRACKER).run()
    assert_clean(app)
    assert app.title[0].value == "Game tracker"
    assert len(rows(app)) == 4  # the set-up: a fresh start
    assert "game" not in app.query_params


def test_new_game_asks_first_and_keeps_the_players(three: AppTest) -> None:
    bid(three, "3x4")
    open_panel(three, "game").button(key="tracker_new").click().run()
    assert [w.value for w in three.warning] == [
        "End this game and start a new one? The players stay; the dice and the log start over."]
    three.button(key="tracker_new_no").click().run()
    assert game(three).bids == ((0, Bid(3, 4)),)
    three.button(key="tracker_new").click().run()
    three.button(key="tracker_new_yes").click().run()
    assert_clean(three)
    assert "game" not in three.query_params
    names = [three.text_input(key=f"tracker_name_{row}").value for row in rows(three)]
    assert names == ["Ann", "Bob", "Cid"]
    three.button(key="tracker_start").click().run()
    assert game(three).history == ()


def test_advice_link_goes_to_the_odds_page(three: AppTest) -> None:
    links = three.main.get("page_link")
    assert [link.proto.label for link in links] == ["Advice for this spot"]
    # the odds page: served at / (url_path "home") and at its own address, /bid-odds
    assert links[0].proto.page_script_hash in {calc_hash("home"), calc_hash("bid-odds")}


def test_my_seat_can_change_during_the_game(three: AppTest) -> None:
    assert "me" not in three.query_params
    open_panel(three, "game").selectbox(key="tracker_iam").set_value(0).run()
    assert three.query_params["me"] == "0"
    assert has(three, "Your turn — opening bid")
    three.selectbox(key="tracker_iam").set_value(-1).run()
    assert "me" not in three.query_params


# --- names are text, not markup --------------------------------------------------------------

TRICKY = ["**Bob**", "<b>x</b>", "[x](http://e.com)"]


def test_markdown_and_html_names_show_literally(tracker: AppTest) -> None:
    set_up(tracker, ["Ann", *TRICKY], me=1)
    bid(tracker, "3x4")
    bid(tracker, "4x4")
    call(tracker, "dudo", 2)
    everything = texts(tracker)
    for name in TRICKY:
        assert any(text.literal(name) in shown for shown in everything), name
        assert not any(name in shown for shown in everything), f"{name} reached markdown raw"
    assert has(tracker, "Dudo by <b>x</b> on 4 × 4: 2 counted — **Bob** loses a die")
    assert has(tracker, "**Bob** (you)")
    assert open_panel(tracker, "game").selectbox(key="tracker_iam").options[2] == "**Bob**"


@pytest.mark.parametrize("name", [*TRICKY, "a_b *c* `d` ~e~", ":red[x] :smile: $y$", "1. Z",
                                  "# h", "www.e.com", "me@e.com", "x | y", "\\*"])
def test_literal_escapes_markup_and_round_trips(name: str) -> None:
    escaped = text.literal(name)
    assert text.shown(escaped) == name == plain(escaped)
    bare = escaped.replace("\u2060", "")
    index = 0
    while index < len(bare):  # every punctuation mark is escaped
        if bare[index] == "\\":
            index += 2
            continue
        assert bare[index] not in string.punctuation, (name, escaped)
        index += 1
    unescaped = escaped.replace("\\", "")
    assert "://" not in unescaped and "www." not in unescaped.lower()
    assert unescaped.count("@") == unescaped.count("\u2060@")


# --- French ----------------------------------------------------------------------------------


def test_the_tracker_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr", dice="2")
    assert app.title[0].value == "Suivi de partie"
    app.text_input(key=f"tracker_name_{rows(app)[1]}").set_value("Bob").run()
    app.button(key="tracker_start").click().run()
    assert errors(app) == [
        "Le joueur 1 n'a pas de nom\u00a0: saisissez-en un ou retirez cette ligne."]
    set_up(app, ["Ann", "Bob", "Cid"])
    assert plain(app.subheader[0].value) == "Manche 1 — 6 dés sur la table — Ann ouvre"
    app.segmented_control(key="tracker_face").set_value(1).run()
    assert [plain(w.value) for w in app.warning] == [
        "Une manche normale ne s'ouvre pas sur les pacos\u00a0: ouvrez sur une face de 2 à 6."]
    bid(app, "2x4")
    app.segmented_control(key="tracker_face").set_value(5).run()
    app.button(key="tracker_q_3").click().run()
    assert errors(app) == [
        "Après 2 × 4, une face plus haute garde la quantité\u00a0: annoncez 2 × 5."]
    count_input(app).set_value(7).run()
    assert "Un compte de 7 est impossible\u00a0: 6 dés sur la table." in errors(app)
    call(app, "dudo", 1)
    assert has(app, "Bob dit dudo sur 2 × 4\u00a0: 1 compté — Ann perd un dé")
    assert plain(app.subheader[0].value) == "Manche 2 — 5 dés sur la table — Ann ouvre — palifico"
    english = ("to play", "counted", "loses", "Round", "Dudo by", "turn")
    assert not any(word in text for text in shown_texts(app) for word in english)


# --- the longest game --------------------------------------------------------------------------


def test_the_longest_game_opens_and_its_log_shows_ten_rounds_at_a_time(app: AppTest) -> None:
    from tests.test_game_limits import CYCLE_ROUNDS, crafted

    longest = GameState.from_code(crafted(MAX_ROUNDS // CYCLE_ROUNDS))
    at = open_panel(open_tracker(app, game=longest.to_code()), "log")
    logged = logged_rounds(at)
    assert len(logged) == view.LOG_PAGE
    assert logged[0].startswith(f"Round {MAX_ROUNDS}")
    at.button(key="tracker_log_more").click().run()
    assert len(logged_rounds(at)) == 2 * view.LOG_PAGE
    assert "Show 10 earlier rounds" in [button.label for button in at.button]
    assert_clean(at)


def test_who_bluffs_words_how_each_players_bids_held(three: AppTest) -> None:
    assert panel_chips(three)[1] == "Who bluffs?"
    assert not has(three, "No showdown yet")  # drawn only once its chip is tapped
    open_panel(three, "held")
    assert has(three, "No showdown yet")
    # Ann 2x5, Bob 3x5, Cid calls dudo: 4 fives, Bob's bid held; Cid loses and opens.
    bid(three, "2x5")
    bid(three, "3x5")
    call(three, "dudo", 4)
    # Cid 2x4, Ann 4x4, Bob calls dudo: 2 fours, Ann's bid did not hold.
    bid(three, "2x4")
    bid(three, "4x4")
    call(three, "dudo", 2)
    lines = held_text(three)
    assert "Ann's bids held 1 time out of 2." in lines
    assert "Bob's one bid checked so far held." in lines
    assert "Cid's one bid checked so far held." in lines


def test_who_bluffs_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr")
    set_up(app, ["Ann", "Bob", "Cid"])
    bid(app, "2x5")
    bid(app, "3x5")
    call(app, "dudo", 2)  # two fives: Ann's 2 × 5 held, Bob's 3 × 5 did not
    open_panel(app, "held")
    assert panel_chips(app) == ["Manches (1)", "Qui bluffe\u202f?", "Partager", "Règles", "Partie"]
    lines = held_text(app)
    assert "Ann\u00a0: une seule annonce jugée jusqu'ici, et elle s'est vérifiée." in lines
    assert "Bob\u00a0: une seule annonce jugée jusqu'ici, et elle ne s'est pas vérifiée." in lines


# --- trust at the table: the count, the face, palifico, the hand of the round ----------------


def test_the_count_starts_empty_and_dudo_or_calza_waits_for_it(three: AppTest) -> None:
    bid(three, "3x4")
    assert count_input(three).value is None  # not the bid's quantity: nobody counted yet
    assert count_input(three).proto.placeholder == "How many?"
    for kind, name in (("dudo", "Dudo"), ("calza", "Calza")):
        assert not three.button(key=f"tracker_{kind}").disabled
        three.button(key=f"tracker_{kind}").click().run()
        assert_clean(three)
        assert errors(three) == [
            f"Nothing recorded yet: type how many dice were counted, then tap {name}."]
        assert game(three).bids == ((0, Bid(3, 4)),) and not game(three).results
    call(three, "dudo", 2)
    assert [p.dice for p in game(three).players] == [4, 5, 5]
    bid(three, "2x6")
    assert count_input(three).value is None  # every call starts empty


def test_an_undone_call_leaves_no_count_to_reuse(three: AppTest) -> None:
    bid(three, "3x4")
    call(three, "dudo", 2)
    three.button(key="tracker_undo").click().run()
    assert game(three).bids == ((0, Bid(3, 4)),)
    assert count_input(three).value is None
    three.button(key="tracker_dudo").click().run()
    assert not game(three).results


def test_a_count_typed_before_a_raise_is_not_kept_for_the_raise(three: AppTest) -> None:
    """One count box serves the whole game: every move empties it."""
    bid(three, "3x4")
    count_input(three).set_value(2).run()
    bid(three, "4x4")
    assert count_input(three).value is None
    three.button(key="tracker_dudo").click().run()
    assert not game(three).results
    assert errors(three) == [
        "Nothing recorded yet: type how many dice were counted, then tap Dudo."]


def moved_elsewhere(at: AppTest, game_now: GameState) -> None:
    """What the shared table's one-second watch does when another phone moved: the session
    tracks the table's game before this phone's screen is drawn again."""
    at.session_state[url_state._GAME_KEY] = game_now


@pytest.mark.parametrize("tap", ["dudo", "bid", "undo"])
def test_a_tap_on_a_game_another_phone_has_moved_records_nothing(three: AppTest,
                                                                 tap: str) -> None:
    bid(three, "3x4")
    count_input(three).set_value(2).run()
    raised = game(three).bid(Bid(4, 4))
    moved_elsewhere(three, raised)
    if tap == "dudo":
        three.button(key="tracker_dudo").click().run()
    elif tap == "bid":
        three.button(key="tracker_q_5").click().run()
    else:
        three.button(key="tracker_undo").click().run()
    assert_clean(three)
    assert game(three) == raised  # the raise stands, and nothing of this tap was recorded
    assert [plain(w.value) for w in three.warning] == [
        "Another phone recorded a move first: here is the table as it stands now. Check it, "
        "and tap again if your move still applies."]
    assert count_input(three).value is None


def test_another_phones_undo_and_new_bid_empty_the_count(three: AppTest) -> None:
    """The same number of moves, another game: the count typed for 3 × 4 is not 3 × 5's."""
    bid(three, "3x4")
    count_input(three).set_value(2).run()
    moved_elsewhere(three, game(three).undo().bid(Bid(3, 5)))
    three.run()
    assert count_input(three).value is None


def test_the_count_is_asked_for_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr")
    set_up(app, ["Ann", "Bob", "Cid"])
    bid(app, "3x4")
    assert count_input(app).proto.placeholder == "Combien\u202f?"
    app.button(key="tracker_dudo").click().run()
    assert errors(app) == ["Rien n'est encore noté\u00a0: saisissez le nombre de dés comptés, "
                           "puis touchez Dudo."]


def test_a_tap_on_the_picked_face_keeps_it(three: AppTest) -> None:
    """The face of the bid on the table stays picked, so a raise on it is one tap; the face
    control is required, so tapping the picked face (as the label says) never unpicks it."""
    face = three.segmented_control(key="tracker_face")
    assert face.value is None and face.proto.required
    bid(three, "3x4")
    face = three.segmented_control(key="tracker_face")
    assert face.value == 4 and face.proto.required
    three.button(key="tracker_q_4").click().run()  # one tap: 4 × 4
    assert game(three).bids[-1] == (1, Bid(4, 4))


PALIFICO_OPEN = "Palifico round: pacos are not jokers, and the face Ann opens on stays for the " \
                "whole round."
PALIFICO_FROZEN = "Palifico round: pacos are not jokers, and the face is frozen on threes; " \
                  "only the quantity goes up."


def test_a_palifico_round_starts_with_a_banner(app: AppTest) -> None:
    open_tracker(app, dice="2")
    set_up(app, ["Ann", "Bob", "Cid"])
    assert not app.warning  # a normal round: no banner
    bid(app, "2x5")
    call(app, "dudo", 1)  # Ann drops to one die: palifico, Ann opens
    assert [plain(w.value) for w in app.warning] == [PALIFICO_OPEN]
    bid(app, "1x3")
    assert [plain(w.value) for w in app.warning] == [PALIFICO_FROZEN]
    call(app, "dudo", 0)  # Ann's 1 × 3 was false: Ann is out; Bob opens a normal round
    assert not game(app).palifico
    assert not app.warning


def test_the_banner_says_when_one_die_may_change_the_face(app: AppTest) -> None:
    open_tracker(app, dice="2", onedie="1")
    set_up(app, ["Ann", "Bob", "Cid"])
    bid(app, "2x5")
    call(app, "dudo", 1)
    assert [plain(w.value) for w in app.warning] == [
        f"{PALIFICO_OPEN} At this table, a player who also holds one die may change the face, "
        "with a higher bid."]


def test_the_palifico_banner_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr", dice="2")
    set_up(app, ["Élodie", "Bob", "Cid"])
    bid(app, "2x5")
    call(app, "dudo", 1)
    assert [plain(w.value) for w in app.warning] == [
        "Manche palifico\u00a0: les pacos ne sont pas des jokers, et la face sur laquelle "
        "Élodie ouvre reste la même toute la manche."]
    bid(app, "1x1")
    assert [plain(w.value) for w in app.warning] == [
        "Manche palifico\u00a0: les pacos ne sont pas des jokers, et la face reste bloquée sur "
        "les pacos\u202f; seule la quantité monte."]


def enter_hand(at: AppTest, faces: list[int]) -> AppTest:
    """On the advice page: clear the keypad's hand and tap ``faces``; back to the tracker."""
    at.switch_page(ODDS).run()
    if at.session_state["odds_hand"]:
        at.button(key="odds_clear").click().run()
    for face in faces:
        at.button(key=f"odds_add_{face}").click().run()
    assert_clean(at)
    at.switch_page(TRACKER).run()
    assert_clean(at)
    return at


def advice_given(at: AppTest) -> bool:
    """Whether the advice page shows a recommendation (its card's headline)."""
    at.switch_page(ODDS).run()
    assert_clean(at)
    given = any(md.value.startswith("## ") for md in at.markdown)
    at.switch_page(TRACKER).run()
    return given


HAND = [1, 2, 4, 4, 6]


def test_the_hand_belongs_to_its_round(app: AppTest) -> None:
    """Round 2 starts with an empty hand, even when I hold as many dice as in round 1: the
    advice asks for this round's dice instead of reading last round's."""
    open_tracker(app)
    set_up(app, ["Ann", "Bob", "Cid"], me=0)
    assert has(app, "Round 1: your 5 dice are not entered yet. The advice asks for them.")
    enter_hand(app, HAND)
    assert has(app, "Your dice this round: ⚀ ⚁ ⚃ ⚃ ⚅")
    assert advice_given(app)
    bid(app, "3x4")
    bid(app, "4x4")
    app.button(key="tracker_undo").click().run()  # undoing a bid stays in the round
    assert app.session_state["odds_hand"] == HAND
    bid(app, "4x4")
    call(app, "dudo", 5)  # 4 × 4 held: Cid, the caller, loses a die and opens round 2
    assert [p.dice for p in game(app).players] == [5, 5, 4]
    assert app.session_state["odds_hand"] == []
    assert has(app, "Round 2: your 5 dice are not entered yet. The advice asks for them.")
    bid(app, "2x3")  # Cid opens; Ann to play, with five dice as before
    assert not advice_given(app)
    app.switch_page(ODDS).run()
    asked = translate("en", "odds.new_round.other", count=5, round=2)
    assert asked in [warning.value for warning in app.warning]  # one line, not two
    assert translate("en", "odds.tracker.hand_count.other", count=5) not in [
        info.value for info in app.info]
    enter_hand(app, [3, 3, 5, 5, 6])
    assert advice_given(app)
    app.button(key="tracker_undo").click().run()  # Cid's 2 × 3
    assert app.session_state["odds_hand"] == [3, 3, 5, 5, 6]
    app.button(key="tracker_undo").click().run()  # the dudo: back in round 1
    assert app.session_state["odds_hand"] == HAND  # round 1's dice come back, not round 2's
    call(app, "dudo", 5)  # round 2 again: its dice come back too
    assert app.session_state["odds_hand"] == [3, 3, 5, 5, 6]


def test_a_new_round_asks_for_as_many_dice_as_i_hold_now(app: AppTest) -> None:
    open_tracker(app)
    set_up(app, ["Ann", "Bob", "Cid"], me=0)
    enter_hand(app, HAND)
    bid(app, "3x4")
    call(app, "dudo", 1)  # Ann's bid was false: Ann drops to four dice and opens
    assert has(app, "Round 2: your 4 dice are not entered yet. The advice asks for them.")
    enter_hand(app, [2, 2, 3])
    assert has(app, "Your dice this round: ⚁ ⚁ ⚂, but you hold 4. Correct them in the advice.")
    assert not advice_given(app)


def test_the_hand_is_emptied_without_a_seat_and_by_a_new_game(three: AppTest) -> None:
    enter_hand(three, HAND)  # no seat said: the advice is for the player to move
    assert not has(three, "Your dice")
    bid(three, "3x4")
    call(three, "dudo", 1)
    assert three.session_state["odds_hand"] == []
    enter_hand(three, HAND)
    open_panel(three, "game").button(key="tracker_new").click().run()
    three.button(key="tracker_new_yes").click().run()
    assert three.session_state["odds_hand"] == []
    enter_hand(three, HAND)  # typed on the set-up page: not this new game's round 1
    three.button(key="tracker_start").click().run()
    assert three.session_state["odds_hand"] == []


def test_a_hand_entered_for_the_linked_game_is_kept_and_no_hand_is_in_the_url(
        app: AppTest) -> None:
    state = GameState.new(["Ann", "Bob", "Cid"]).bid("3x4").bid("4x4")
    app.query_params["game"] = state.to_code()
    app.query_params["me"] = "2"
    app.run()  # the link opens the advice page first
    link = dict(app.query_params)
    for face in HAND:
        app.button(key=f"odds_add_{face}").click().run()
    app.switch_page(TRACKER).run()
    assert_clean(app)
    assert app.session_state["odds_hand"] == HAND  # this round's dice, entered a moment ago
    assert has(app, "Your dice this round: ⚀ ⚁ ⚃ ⚃ ⚅")
    assert dict(app.query_params) == link  # my dice never reach the link
    reloaded = AppTest.from_file(app._script_path, default_timeout=60)
    reloaded.context = {"locale": "en-US"}
    open_tracker(reloaded, game=app.query_params["game"], me="2")
    assert has(reloaded, "Round 1: your 5 dice are not entered yet. The advice asks for them.")


def test_the_hand_note_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr", dice="2")
    set_up(app, ["Ann", "Bob", "Cid"], me=0)
    assert has(app, "Manche 1\u00a0: vos 2\u00a0dés ne sont pas encore saisis. Le conseil vous "
                    "les demandera.")
    bid(app, "2x5")
    call(app, "dudo", 1)  # Ann drops to one die
    assert has(app, "Manche 2\u00a0: votre dé n'est pas encore saisi. Le conseil vous le "
                    "demandera.")
    enter_hand(app, [3, 4])
    assert has(app, "Vos dés de cette manche\u00a0: ⚂ ⚃, alors que vous n'en avez qu'un. "
                    "Corrigez-les dans le conseil.")


def test_my_moves_in_the_rounds_whose_dice_i_entered_are_reviewed(app: AppTest) -> None:
    """Issue 14: round 1 with my dice entered, round 2 without, round 3 with: the review
    lists my moves of rounds 1 and 3, each checked against the coach."""
    open_tracker(app)
    set_up(app, ["Ann", "Bob", "Cid"], opener=0, me=0)
    open_panel(app, "review")
    assert translate("en", "tracker.review.none") in [c.value for c in app.caption]
    enter_hand(app, HAND)
    bid(app, "3x4")
    bid(app, "4x4")
    bid(app, "5x4")
    call(app, "dudo", 3)  # my dudo, right: Cid loses a die; Cid opens round 2
    bid(app, "2x3")
    bid(app, "3x3")  # me, dice not entered this round
    bid(app, "4x3")
    call(app, "dudo", 6, caller=None)  # Cid's dudo is wrong: Cid loses again
    enter_hand(app, [2, 2, 3, 5, 6])
    assert panel_pills(app).value == "review"  # still shown, round after round
    state = game(app)
    from coach.review import review, tracked_decisions
    from perudo_math import Hand
    expected = review(tracked_decisions(state, 0, {1: Hand(HAND),
                                                   state.round_number: Hand([2, 2, 3, 5, 6])}))
    assert [str(move.played) for move in expected.moves] == ["3x4", "dudo"]
    lines = [m.value for m in app.markdown if m.value.startswith("**1.") or
             m.value.startswith("**2.")]
    assert len(lines) == 2 and "3 × 4" in lines[0] and "dudo" in lines[1]
    assert f"{round(expected.moves[1].added)} points of risk added" in lines[1]
    assert tn_text("tracker.review.rounds", 2) in [c.value for c in app.caption]


RIGHT_BUT_COSTLY = {
    "en": "Your dudo was right this time, but before the dice were shown the coach's {best} "
          "lost a die less often: {best_lose} against {lose} ({points} points of risk added).",
    "fr": "Cette fois, votre dudo était juste, mais avant qu'on soulève les gobelets, le coup "
          "du coach ({best}) faisait perdre un dé moins souvent\u00a0: {best_lose} contre {lose} "
          "({points} points de risque en plus).",
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_right_dudo_graded_costly_says_what_the_grade_compares(app: AppTest, lang: str) -> None:
    """Issue 28: my dudo on Cid's 5 × 4 was right (three fours), yet costly: before the
    dice were shown a raise lost a die far less often. The line says both, with the
    options' own figures, and links to where the grades are defined."""
    open_tracker(app, lang=lang)
    set_up(app, ["Ann", "Bob", "Cid"], opener=0, me=0)
    enter_hand(app, HAND)
    bid(app, "3x4")
    bid(app, "4x4")
    bid(app, "5x4")
    call(app, "dudo", 3)
    open_panel(app, "review")
    from coach import DUDO, advise
    from coach.review import tracked_decisions
    from perudo_math import Hand
    from views.i18n import format_percent
    situation, played = tracked_decisions(game(app), 0, {1: Hand(HAND)})[1]
    advice = advise(situation)
    mine, best = advice.option(DUDO), advice.best
    assert played == DUDO and best.action.kind == "raise" and best.gain == 0
    points = round((mine.net_loss - best.net_loss) * 100)
    assert points >= 10  # costly
    line = next(m.value for m in app.markdown if m.value.startswith("**2."))
    head = translate(lang, "review.move.head", number=2, icon="❌", played="dudo",
                     verdict=translate(lang, "review.verdict.costly"))
    assert line.startswith(f"**{head}**") and head.endswith(("costly", "coûteux"))
    assert RIGHT_BUT_COSTLY[lang].format(
        best=best.action.bid.pretty(), best_lose=format_percent(best.lose, lang),
        lose=format_percent(mine.lose, lang), points=points) in line.split("  \n")
    links = [link.proto for link in app.get("page_link")
             if link.proto.label == translate(lang, "review.grades_link")]
    assert [link.page for link in links] == ["cheat-sheet"]


def tn_text(key: str, count: int) -> str:
    return translate("en", f"{key}.{'one' if count == 1 else 'other'}", count=count)


# --- the table's rules, asked at set-up and changed during a game (issue 28) ----------------


def test_the_raise_rule_example_is_the_legality_rules() -> None:
    previous, example = view.RAISE_EXAMPLE
    assert not check_bid(example, previous, rules=Rules(raise_rule="same-face")).legal
    assert check_bid(example, previous, rules=Rules(raise_rule="any-face")).legal
    for lang, no, yes in (("en", "No", "Yes"), ("fr", "Non", "Oui")):
        assert translate(lang, "tracker.setup.raise.same-face").startswith(no)
        assert translate(lang, "tracker.setup.raise.any-face").startswith(yes)


def test_the_set_up_asks_the_raise_rule_and_the_next_game_remembers_it(
        tracker: AppTest) -> None:
    choice = tracker.radio(key="tracker_raise")
    assert choice.label == "Raising: after 3 × 5, may the next player bid 4 × 2?"
    assert choice.value == "same-face" and choice.options == ["No: same face", "Yes: any face"]
    choice.set_value("any-face").run()
    assert tracker.query_params["raise"] == "any-face"
    set_up(tracker, ["Ann", "Bob", "Cid"])
    assert game(tracker).rules == Rules(raise_rule="any-face")
    open_panel(tracker, "game").button(key="tracker_new").click().run()
    tracker.button(key="tracker_new_yes").click().run()
    assert tracker.radio(key="tracker_raise").value == "any-face"  # this phone's last choice
    tracker.radio(key="tracker_raise").set_value("same-face").run()
    tracker.button(key="tracker_start").click().run()
    assert game(tracker).rules == Rules() and "raise" not in tracker.query_params


def test_a_face_refused_only_by_the_raise_rule_switches_it_and_bids_in_one_tap(
        three: AppTest) -> None:
    bid(three, "3x5")
    three.segmented_control(key="tracker_face").set_value(2).run()
    assert [plain(w.value) for w in three.warning] == [
        "After 3 × 5 a lower face is not allowed: bid more fives, or 3 of a higher face."]
    assert has(three, "This comes from the table's setting “Raising an ordinary bid”: "
                      "“Same face”. With “Any face”, it is allowed. A number below changes "
                      "that setting for the rest of this game, then records the bid.")
    assert not [b for b in three.button if b.key.startswith("tracker_q_")]
    three.button(key="tracker_switch_q_4").click().run()
    assert_clean(three)
    tracked = game(three)
    assert tracked.history[-2:] == (RulesChanged("raise_rule", "any-face"),
                                    BidMade(BOB, Bid(4, 2)))
    assert tracked.rules == Rules(raise_rule="any-face") and tracked.start_rules == Rules()
    assert three.query_params["raise"] == "any-face"  # the next game starts with it too
    assert has(three, "Rules changed for this game: Raising: a higher quantity with any face")
    three.button(key="tracker_undo").click().run()
    assert game(three).history[-1] == RulesChanged("raise_rule", "any-face")
    three.button(key="tracker_undo").click().run()
    assert game(three).rules == Rules() and game(three).history == (BidMade(ANN, Bid(3, 5)),)
    assert has(three, "Rule change undone. Raising: a higher quantity keeps the face")
    assert "raise" not in three.query_params


def test_a_quantity_refused_only_by_the_raise_rule_offers_the_switch(three: AppTest) -> None:
    bid(three, "3x4")
    three.segmented_control(key="tracker_face").set_value(5).run()
    three.button(key="tracker_q_4").click().run()
    assert errors(three) == ["After 3 × 4 a higher face keeps the quantity: bid 3 × 5."]
    offer = three.button(key="tracker_offer_switch")
    assert offer.label == "Switch to “Any face” and record 4 × 5"
    offer.click().run()
    assert_clean(three)
    assert game(three).bids[-1] == (BOB, Bid(4, 5))
    assert game(three).rules.raise_rule == "any-face"
    assert "tracker_offer_switch" not in {b.key for b in three.button}


def test_the_rules_panel_records_a_change_in_the_game_and_its_log(three: AppTest) -> None:
    open_panel(three, "rules")
    assert has(three, translate("en", "tracker.rules.game"))
    three.segmented_control(key="tracker_rule_raise_rule").set_value("any-face").run()
    three.toggle(key="tracker_rule_salsa").set_value(True).run()
    assert_clean(three)
    assert game(three).history == (RulesChanged("raise_rule", "any-face"),
                                   RulesChanged("salsa", True))
    assert has(three, "Rules changed for this game: Salsa: anyone but the bidder may call dudo")
    bid(three, "3x5")
    bid(three, "4x2")
    call(three, "dudo", 2, caller=ANN)  # out of turn: salsa is on
    open_panel(three, "log")
    assert logged_rounds(three)[0].startswith(
        "Round 1  \nRules changed for this game: Raising: a higher quantity with any face")
    assert game(three).start_rules == Rules() and game(three).restart().rules == Rules()


def test_a_rule_change_in_french(app: AppTest) -> None:
    open_tracker(app, lang="fr")
    assert app.radio(key="tracker_raise").label == (
        "Surenchère\u00a0: après 3 × 5, le joueur suivant peut-il annoncer 4 × 2\u00a0?")
    set_up(app, ["Ann", "Bob", "Cid"])
    bid(app, "3x5")
    app.segmented_control(key="tracker_face").set_value(2).run()
    assert has(app, "C'est le réglage de la table «\u00a0Surenchère sur une face ordinaire\u00a0»"
                    "\u00a0: «\u00a0Même face\u00a0». Avec «\u00a0Toute face\u00a0», c'est permis.")


def test_a_rule_changed_mid_round_keeps_the_round_and_the_hand_entered_for_it() -> None:
    start = GameState.new(["Ann", "Bob", "Cid"])
    opened = start.bid("3x5")
    switched = opened.change_rule("raise_rule", "any-face")
    assert view.round_key(switched) == view.round_key(opened) == view.round_key(start)
    after = switched.bid("4x2").dudo(3)
    assert view.round_keys(after)[1] == view.round_key(start)
    kept = {view.round_key(switched): (2, 2, 1, 3, 6)}
    assert view.hands_by_round(after, BOB, kept) == {1: Hand([2, 2, 1, 3, 6])}


def test_a_call_refused_only_by_a_setting_offers_to_switch_it(app: AppTest) -> None:
    open_tracker(app)
    set_up(app, ["Ann", "Bob"])
    bid(app, "2x3")
    assert app.button(key="tracker_calza").disabled
    allow = app.button(key="tracker_allow_calza")
    assert allow.label == "Switch “Calza with two players left” on for this game"
    allow.click().run()
    assert_clean(app)
    assert game(app).history[-1] == RulesChanged("calza_heads_up", True)
    assert not app.button(key="tracker_calza").disabled
    assert "tracker_allow_calza" not in {button.key for button in app.button}
    call(app, "calza", 2)
    assert game(app).results[-1].kind == "calza" and game(app).results[-1].calza_right
