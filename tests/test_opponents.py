"""League opponents: legal in every situation, reproducible, and each doing what it claims."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from coach.engine.showdown import Showdown
from coach.engine.situation import Action, Situation
from coach.play.arena import play_game
from coach.play.opponents import (
    MIX_STYLES,
    OPPONENTS,
    READ_LIMIT,
    LiarBot,
    OddsPlayer,
    ReaderBot,
    ReadingModel,
    RoundBook,
    hand_space,
    raise_window,
)
from perudo_math import (
    FACES,
    Bid,
    Hand,
    Rules,
    count_survival,
    legal_raises,
)

RULE_VARIANTS = (
    Rules(),
    Rules(raise_rule="any-face"),
    Rules(palifico="while-one-die", palifico_one_die_may_change_face=True),
    Rules(palifico="once-per-player", calza=False),
    Rules(calza_heads_up=True, calza_out_of_turn=True, salsa=True),
    Rules(starting_dice=1),
    Rules(starting_dice=3, raise_rule="any-face", calza_heads_up=True),
    Rules(starting_dice=10),
)

EVERY_STYLE = {**OPPONENTS, **{f"mix:{name}": style for name, style in MIX_STYLES.items()}}


def random_situation(rng: random.Random) -> Situation:
    """Any spot a bot may meet: 2 to 10 seats, 0 to 10 dice each, normal or palifico,
    any rules, a legal run of bids (sometimes a house-rule one, or one far above the table),
    sometimes my own bid last."""
    rules = rng.choice(RULE_VARIANTS)
    players = rng.randint(2, 10)
    most = rng.choice([1, 2, 5, rules.starting_dice, 10])
    dice = [rng.randint(0, most) for _ in range(players)]
    me = rng.randrange(players)
    dice[me] = max(1, dice[me])
    if sum(1 for n in dice if n) < 2:
        dice[(me + 1) % players] = rng.randint(1, most)
    table = sum(dice)
    active = [seat for seat, n in enumerate(dice) if n]
    palifico = rng.random() < 0.3
    hand = Hand(rng.randint(1, 6) for _ in range(dice[me]))
    bids: list[tuple[int, Bid]] = []
    previous = None
    seat = rng.choice(active)
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5, 8])):
        options = legal_raises(previous, table, palifico=palifico, rules=rules,
                               bidder_dice=dice[seat])
        if not options or rng.random() < 0.05:
            options = [Bid(rng.randint(1, 3 * table), rng.choice(FACES))]  # house rules
        previous = rng.choice(options[:12])
        bids.append((seat, previous))
        seat = active[(active.index(seat) + 1) % len(active)]
    if bids and rng.random() < 0.05:
        bids.append((rng.choice(active), Bid(10**40, rng.choice(FACES))))
    if bids and rng.random() < 0.05:
        bids.append((me, Bid(bids[-1][1].quantity + 1, bids[-1][1].face)))
    return Situation(rules, tuple(dice), me, hand, tuple(bids), palifico)


SITUATIONS = [random_situation(random.Random(f"spot:{index}")) for index in range(250)]


@pytest.mark.parametrize("name", sorted(EVERY_STYLE))
def test_every_opponent_makes_only_legal_moves(name):
    factory = EVERY_STYLE[name]
    for index, spot in enumerate(SITUATIONS):
        action = factory(random.Random(index))(spot)
        assert isinstance(action, Action)
        assert spot.is_legal(action), (name, spot.to_json(), str(action))


def test_a_reader_keeps_its_reading_across_the_round_and_stays_legal():
    rng = random.Random(7)
    for _ in range(20):
        spot = random_situation(rng)
        bot = ReaderBot(random.Random(1))
        for cut in range(len(spot.bids) + 1):
            partial = Situation(spot.rules, spot.dice, spot.me, spot.hand, spot.bids[:cut],
                                spot.palifico)
            assert partial.is_legal(bot(partial))


class Recorded:
    """A bot whose every move is written down; the arena shows it each showdown."""

    def __init__(self, bot, moves: list[str]) -> None:
        self.bot, self.moves = bot, moves

    def __call__(self, situation: Situation) -> Action:
        action = self.bot(situation)
        self.moves.append(str(action))
        return action

    def observe(self, showdown: Showdown) -> None:
        if hasattr(self.bot, "observe"):
            self.bot.observe(showdown)


def play_with_showdowns(factories, rules: Rules, seed: int) -> tuple[int, list[str]]:
    """A whole arena game, each round's showdown shown to every bot with an ``observe``
    method (an illegal move fails it); returns the winner and every move made."""
    moves: list[str] = []
    recorded = [lambda rng, factory=factory: Recorded(factory(rng), moves)
                for factory in factories]
    return play_game(recorded, rules, random.Random(seed)), moves


@pytest.mark.parametrize(("players", "rules"), [
    (2, Rules()), (3, Rules(raise_rule="any-face")), (5, Rules()),
    (6, Rules(palifico="while-one-die", starting_dice=3, calza_heads_up=True)),
    (10, Rules(starting_dice=2)),
])
def test_whole_games_of_every_opponent_end_with_one_winner(players, rules):
    factories = list(OPPONENTS.values())
    seated = [factories[seat % len(factories)] for seat in range(players)]
    winner, moves = play_with_showdowns(seated, rules, seed=players)
    assert 0 <= winner < players and moves


def test_the_arena_plays_them_as_external_bots():
    assert 0 <= play_game([ReaderBot, LiarBot, OPPONENTS["tight"], OPPONENTS["mix"]], Rules(),
                          random.Random(3)) < 4


@pytest.mark.parametrize("name", sorted(OPPONENTS))
def test_the_same_seed_plays_the_same_game(name):
    seated = [OPPONENTS[name]] * 3 + [ReaderBot]
    assert play_with_showdowns(seated, Rules(), 11) == play_with_showdowns(seated, Rules(), 11)


def test_the_seed_decides_the_liars_bluffs():
    opening = Situation(Rules(), (5, 5, 5), 0, Hand([2, 2, 2, 3, 4]))
    assert len({str(LiarBot(random.Random(seed))(opening)) for seed in range(40)}) > 2
    replay = [str(LiarBot(random.Random(5))(spot)) for spot in SITUATIONS[:60]]
    assert replay == [str(LiarBot(random.Random(5))(spot)) for spot in SITUATIONS[:60]]


def test_mix_draws_its_style_from_the_seed():
    styles = {type(OPPONENTS["mix"](random.Random(seed))).__name__ for seed in range(40)}
    assert len(styles) >= 4
    assert (type(OPPONENTS["mix"](random.Random(9))) is type(OPPONENTS["mix"](random.Random(9))))


# --- The reader's posterior, against a brute-force enumeration --------------------------------


def brute_force_face_pmfs(dice: tuple[int, ...], palifico: bool, rules: Rules,
                          bids: tuple[tuple[int, Bid], ...], seat: int, reader: ReaderBot,
                          ) -> np.ndarray:
    """``seat``'s count distribution per face, by enumerating every ordered hand it may hold
    and weighing each bid it made with the reading model written out from its definition."""
    table = sum(dice)
    n = dice[seat]
    unknown = table - n
    weights = np.zeros((6, n + 1))
    for faces in itertools.product(FACES, repeat=n):
        hand = Hand(faces)
        likelihood = 1.0
        for index, (bidder, bid) in enumerate(bids):
            if bidder != seat:
                continue
            previous = bids[index - 1][1] if index else None
            style = reader.style(seat)
            options = list(raise_window(previous, table, palifico, rules, n == 1,
                                        reader.model.reach))
            if bid not in options:
                options.append(bid)

            def own_chance(b: Bid, hand: Hand = hand) -> float:
                need = b.quantity - hand.count(b.face, palifico=palifico)
                if need <= 0:
                    return 1.0
                if need > unknown:
                    return 0.0
                return float(count_survival(unknown, b.face, palifico)[need])

            def score(b: Bid, hand: Hand = hand, style=style) -> float:
                return math.exp(style.sharpness * own_chance(b)
                                + style.held_bonus * hand.count(b.face, palifico=palifico))

            total = sum(score(b) for b in options)
            if previous is not None:
                total += math.exp(style.sharpness * (1.0 - own_chance(previous)))
            share = style.random_share
            likelihood *= share / len(options) + (1 - share) * score(bid) / total
        for face in FACES:
            weights[face - 1, hand.count(face, palifico=palifico)] += likelihood
    return weights / weights.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(("dice", "palifico", "rules", "bids"), [
    ((2, 3), False, Rules(), ((1, Bid(2, 4)), (0, Bid(3, 4)), (1, Bid(3, 5)))),
    ((3, 2, 1), False, Rules(raise_rule="any-face"),
     ((1, Bid(1, 3)), (2, Bid(2, 2)), (0, Bid(1, 1)), (1, Bid(2, 1)), (2, Bid(6, 6)))),
    ((1, 2, 2), True, Rules(), ((1, Bid(1, 1)), (2, Bid(2, 1)), (0, Bid(3, 1)))),
])
def test_the_readers_posterior_matches_brute_force(dice, palifico, rules, bids):
    reader = ReaderBot(random.Random(0))
    me = 0
    hand = Hand([6] * dice[me])
    spot = Situation(rules, dice, me, hand, bids, palifico)
    reader(spot)
    book = RoundBook.of(spot)
    book.read(spot.bids, reader.style, reader.model.reach)
    for seat in range(1, len(dice)):
        expected = brute_force_face_pmfs(dice, palifico, rules, bids, seat, reader)
        assert np.allclose(book.count_pmfs(seat), expected, atol=1e-9), seat


def test_the_hand_space_weighs_every_multiset_by_its_multinomial_prior():
    for n in (1, 2, 5):
        space = hand_space(n)
        assert space.size == math.comb(n + 5, 5)
        assert math.isclose(np.exp(space.log_prior).sum(), 1.0)
    assert hand_space(READ_LIMIT).size == 3003


# --- Learning from showdowns ---------------------------------------------------------------------


def showdowns_of_a_bluffer_and_an_honest_bidder(reader: ReaderBot, rounds: int = 6) -> None:
    """Seat 1 bids sixes holding none; seat 2 raises on the fours it holds."""
    reader(Situation(Rules(), (5, 5, 5), 0, Hand([2, 3, 4, 5, 6])))  # the reader learns its seat
    for _ in range(rounds):
        bids = ((1, Bid(3, 6)), (2, Bid(4, 4)), (1, Bid(5, 6)), (2, Bid(6, 4)))
        hands = (Hand([2, 3, 4, 5, 6]), Hand([2, 2, 3, 3, 5]), Hand([1, 4, 4, 4, 5]))
        count = sum(hand.count(4) for hand in hands)
        reader.observe(Showdown(bids, False, 0, "dudo", count, hands))


def test_observe_learns_each_opponents_random_bids_from_the_hands():
    reader = ReaderBot(random.Random(0), ReadingModel(pooling=0.0))
    prior = reader.random_share(1)
    showdowns_of_a_bluffer_and_an_honest_bidder(reader)
    assert reader.random_share(1) > prior + 0.15
    assert reader.random_share(2) < prior
    assert reader.random_share(0) == prior  # its own seat is never learned


def test_a_showdown_before_the_first_turn_never_makes_the_reader_read_itself():
    reader = ReaderBot(random.Random(0))
    bids = ((0, Bid(3, 6)), (1, Bid(5, 6)), (0, Bid(7, 6)))
    hands = (Hand([2, 3, 4, 5, 5]), Hand([2, 2, 3, 3, 5]), Hand([1, 4, 4, 4, 5]))
    reader.observe(Showdown(bids, False, 2, "dudo", 1, hands))  # seat 0 is me, not yet known
    reader(Situation(Rules(), (5, 5, 5), 0, Hand([2, 3, 4, 5, 6])))
    reader.observe(Showdown(((1, Bid(2, 3)),), False, 2, "dudo", 3, hands))
    assert reader.style(0) == reader.model.prior


def test_pooling_lends_the_tables_evidence_to_each_seat():
    alone = ReaderBot(random.Random(0), ReadingModel(pooling=0.0))
    pooled = ReaderBot(random.Random(0))
    for reader in (alone, pooled):
        showdowns_of_a_bluffer_and_an_honest_bidder(reader)
    assert pooled.random_share(2) > alone.random_share(2)
    assert pooled.random_share(1) < alone.random_share(1)


def test_observe_learns_how_an_opponent_calls():
    reader = ReaderBot(random.Random(0))
    reader(Situation(Rules(), (5, 5), 0, Hand([2, 3, 4, 5, 6])))
    before = reader.caller(1)
    for _ in range(8):
        # Seat 1 calls dudo on a bid its own dice make very likely.
        bids = ((0, Bid(2, 5)),)
        hands = (Hand([2, 3, 4, 5, 6]), Hand([1, 1, 5, 5, 5]))
        reader.observe(Showdown(bids, False, 1, "dudo", 6, hands))
    after = reader.caller(1)
    assert after.threshold > before.threshold


def test_a_count_only_showdown_changes_nothing():
    reader = ReaderBot(random.Random(0))
    reader.observe(Showdown(((1, Bid(3, 6)),), False, 0, "dudo", 1))
    assert reader.random_share(1) == reader.model.prior.random_share


# --- The liar ----------------------------------------------------------------------------------


def test_the_liar_bids_faces_it_does_not_hold_about_half_the_time():
    rng = random.Random(4)
    liar, odds = LiarBot(random.Random(1)), OddsPlayer(random.Random(1))
    lacking = {"liar": 0, "odds": 0}
    raises = {"liar": 0, "odds": 0}
    for _ in range(800):
        hand = Hand(rng.randint(2, 6) for _ in range(5))  # no jokers: holding a face is plain
        previous = rng.choice([None, Bid(rng.randint(2, 6), rng.randint(2, 6))])
        bids = ((1, previous),) if previous else ()
        spot = Situation(Rules(), (5, 5, 5, 5), 0, hand, bids)
        for name, bot in (("liar", liar), ("odds", odds)):
            action = bot(spot)
            if action.kind == "raise":
                raises[name] += 1
                lacking[name] += hand.faces.count(action.bid.face) == 0
    liar_share = lacking["liar"] / raises["liar"]
    assert 0.4 <= liar_share <= 0.7
    assert lacking["odds"] / raises["odds"] < 0.2
