"""Game-aware decoding of the classifier's distribution (vision.read.decode)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import DECK_24, DECK_52, Card, Suit
from vision.read.decode import (
    CONFIRM_RATIO,
    LABELS,
    PLAYED_RATIO,
    SURE_PROBABILITY,
    DecodeError,
    Knowledge,
    aspect,
    combine,
    decode,
    face_probability,
    marked,
    one_hot,
    shape_doubt,
    views_doubt,
)

CLABBER = Knowledge(deck=frozenset(DECK_24))


def mix(**weights: float) -> np.ndarray:
    """A distribution with the given weights on card codes, the rest spread thinly."""
    p = np.full(len(LABELS), 1e-4)
    for code, w in weights.items():
        p[LABELS.index(code.replace("_", ""))] = w
    return p / p.sum()


@pytest.mark.parametrize(
    ("rule", "probs", "knowledge", "expected"),
    [
        ("a confident reading stands", mix(JH=0.97, QH=0.02), CLABBER, "JH"),
        (
            "a card outside the deck in use (a 2 in Clabber) is impossible",
            mix(_2H=0.6, AH=0.35),
            CLABBER,
            "AH",
        ),
        (
            "a card already played cannot be played again",
            mix(KS=0.7, KC=0.25),
            Knowledge(frozenset(DECK_24), played=frozenset({Card.parse("KS")})),
            "KC",
        ),
        (
            "a card known to lie elsewhere (Clag's trump card) is never a play",
            mix(_7H=0.8, _7D=0.15),
            Knowledge(frozenset(DECK_52), elsewhere=frozenset({Card.parse("7H")})),
            "7D",
        ),
        (
            "a void suit breaks a near tie",
            mix(_9S=0.5, _9C=0.45),
            Knowledge(frozenset(DECK_24), void=frozenset({Suit.SPADES})),
            "9C",
        ),
        (
            "a void suit never overrules a confident reading: the renege stays visible",
            mix(_9S=0.95, _9C=0.03),
            Knowledge(frozenset(DECK_24), void=frozenset({Suit.SPADES})),
            "9S",
        ),
    ],  # fmt: skip
)
def test_decoding_rules(rule: str, probs: np.ndarray, knowledge: Knowledge, expected: str) -> None:
    assert str(decode(probs, knowledge).card) == expected, rule


def test_close_readings_are_marked_with_the_two_cards_in_doubt() -> None:
    r = decode(mix(QD=0.5, QH=0.4), CLABBER)
    assert r.confirm and r.doubt == (Card.parse("QD"), Card.parse("QH"))
    assert "QD" in r.reason and "QH" in r.reason
    sure = decode(mix(QD=0.97, QH=0.02), CLABBER)
    assert not sure.confirm and sure.doubt is None


def test_a_reading_that_is_not_sure_is_marked_even_with_the_runner_up_far_behind() -> None:
    """The bellot 6C read as 10C at 0.80-0.92 with 6C far behind: marked, both named."""
    r = decode(mix(_10C=0.9, _6C=0.06), Knowledge(frozenset(DECK_52)))
    assert r.card == Card.parse("10C") and r.runner_up_probability < CONFIRM_RATIO * r.probability
    assert r.confirm and r.doubt == (Card.parse("10C"), Card.parse("6C"))


def test_a_card_named_because_a_look_alike_was_played_is_marked_when_that_one_reads_almost_as_well() -> (
    None
):
    """Development seed 10113 full Clabber: bellot's AC was read AS early; the real AS later
    read AC 0.52 / AS 0.48 and, AS taken, was named AC surely by elimination. A played card
    read at least PLAYED_RATIO as likely as the card chosen marks the play; read less, it does
    not (the chosen card plainly wins)."""
    played = Knowledge(frozenset(DECK_24), played=frozenset({Card.parse("AS")}))
    r = decode(mix(AC=0.52, AS=0.48), played)
    assert r.card == Card.parse("AC") and r.probability > 0.99
    assert r.confirm and r.doubt == (Card.parse("AC"), Card.parse("AS"))
    assert "AS" in r.reason and "played before" in r.reason
    clear = decode(mix(AC=0.9, AS=0.9 * PLAYED_RATIO / 2), played)
    assert clear.card == Card.parse("AC") and not clear.confirm
    # the same reading with AS not played is a close call between the two, marked as such
    assert "close" in decode(mix(AC=0.52, AS=0.48), CLABBER).reason


def test_a_reading_the_void_prior_changed_is_marked_naming_the_renege() -> None:
    r = decode(mix(_9S=0.55, _9C=0.4), Knowledge(frozenset(DECK_24), void=frozenset({Suit.SPADES})))
    assert r.card == Card.parse("9C")
    assert r.confirm and r.doubt == (Card.parse("9C"), Card.parse("9S"))
    assert "renege" in r.reason


def test_in_clag_round_12_a_two_is_never_a_renege() -> None:
    """rules.md round 12: a two may be played at any time, so a void does not make it unlikely."""
    void = frozenset({Suit.SPADES})
    probs = mix(_2S=0.5, _3C=0.45)
    assert decode(probs, Knowledge(frozenset(DECK_52), void=void)).card == Card.parse("3C")
    wild = decode(probs, Knowledge(frozenset(DECK_52), void=void, wild_twos=True))
    assert wild.card == Card.parse("2S") and "renege" not in wild.reason


def test_back_and_none_are_not_faces() -> None:
    p = np.zeros(len(LABELS))
    p[LABELS.index("back")] = 0.9
    p[LABELS.index("AS")] = 0.1
    assert face_probability(p) == pytest.approx(0.1)
    assert face_probability(one_hot("AS")) > 0.99


def test_errors_quote_the_problem() -> None:
    with pytest.raises(DecodeError, match="expected 54"):
        decode(np.ones(10), CLABBER)
    with pytest.raises(DecodeError, match="no card is possible"):
        decode(one_hot("AS"), Knowledge(frozenset(DECK_24), played=frozenset(DECK_24)))


def test_combining_two_agreeing_readings_sharpens_them() -> None:
    a = mix(JH=0.6, JD=0.3)
    both = combine([a, a, mix(JH=0.7, JD=0.2)])
    assert int(np.argmax(both)) == LABELS.index("JH")
    assert both.sum() == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    played=st.sets(st.sampled_from(DECK_24), max_size=20),
    void=st.sets(st.sampled_from(list(Suit)), max_size=3),
)
def test_the_reading_is_always_a_card_the_game_allows(
    seed: int, played: set[Card], void: set[Suit]
) -> None:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(len(LABELS), 0.3))
    k = Knowledge(frozenset(DECK_24), played=frozenset(played), void=frozenset(void))
    r = decode(probs, k)
    assert r.card in DECK_24 and r.card not in played
    assert 0.0 < r.probability <= 1.0
    # a play is marked whenever the runner-up is close or the reading is not sure
    if not r.confirm:
        assert r.runner_up_probability < CONFIRM_RATIO * r.probability
        assert r.probability >= SURE_PROBABILITY


def test_reading_the_hand_together_fixes_an_early_misread_that_a_later_play_reveals() -> None:
    from vision.read.decode import read_hand

    early = mix(_9C=0.6, _9S=0.38)  # really the 9S, read a little more like the 9C
    late = mix(_9C=0.97)  # the 9C, clearly
    greedy = [decode(early, CLABBER).card]
    greedy.append(decode(late, Knowledge(frozenset(DECK_24), played=frozenset(greedy))).card)
    assert [str(c) for c in greedy] == ["9C", "9S"]  # one at a time: both wrong
    together, _ = read_hand([early, late], CLABBER)
    assert [str(c) for c in together] == ["9S", "9C"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 24))
def test_the_hand_read_together_uses_each_card_once_and_is_at_least_as_probable(
    seed: int, n: int
) -> None:
    from vision.read.decode import hand_log_probability, read_hand

    rng = np.random.default_rng(seed)
    rows = [rng.dirichlet(np.full(len(LABELS), 0.2)) for _ in range(n)]
    cards, score = read_hand(rows, CLABBER)
    assert len(set(cards)) == n and set(cards) <= set(DECK_24)
    greedy: list[Card] = []
    for r in rows:
        greedy.append(decode(r, Knowledge(frozenset(DECK_24), played=frozenset(greedy))).card)
    assert score >= hand_log_probability(rows, greedy) - 1e-6
    assert score == pytest.approx(hand_log_probability(rows, cards), abs=1e-4)


def _quad(long: float, short: float) -> np.ndarray:
    return np.array([[0, 0], [short, 0], [short, long], [0, long]], np.float64)


def test_an_unusually_shaped_outline_is_marked_even_when_the_classifier_is_sure() -> None:
    """A shifted or clipped outline warps the corner the index is read from (a 9S read as 7S,
    its index cut): the classifier can be sure and wrong, so the shape alone marks the play."""
    hand = [aspect(_quad(140, 100)), aspect(_quad(141, 100)), aspect(_quad(139, 99))]
    assert shape_doubt(aspect(_quad(142, 100)), hand) == ""  # a card like the others
    reason = shape_doubt(aspect(_quad(159, 100)), hand)
    assert "unusually shaped" in reason and "1.59" in reason
    assert shape_doubt(aspect(_quad(159, 100)), hand[:1]) == ""  # too few cards to know
    sure = decode(mix(_7S=0.97, _9S=0.02), Knowledge(frozenset(DECK_52)))
    assert not sure.confirm
    r = marked(sure, reason)
    assert r.confirm and r.card == sure.card and r.doubt == (Card.parse("7S"), Card.parse("9S"))
    assert r.reason == reason and marked(sure, "") == sure


def test_views_that_read_different_cards_are_in_doubt() -> None:
    assert views_doubt([mix(_9S=0.9), mix(_9S=0.8)]) == ""
    assert views_doubt([mix(_9S=0.9), mix(_7S=0.8)]) == "its views read 9S and 7S"
    back = np.zeros(len(LABELS))
    back[LABELS.index("back")] = 1.0
    assert views_doubt([mix(_9S=0.9), back]) == ""  # a back is not a reading of the face


@pytest.mark.parametrize(
    ("probs", "confirm"),
    [
        (mix(KC=0.964, KS=0.035), True),  # seed 9950: bellot KS read KC, runner-up its look-alike
        (mix(_8H=0.97, _10H=0.03), True),  # 8 against 10 of the same suit
        (mix(KC=0.964, QC=0.035), False),  # a runner-up that is no look-alike: sure at 0.95
        (mix(KC=0.995, KS=0.004), False),  # a look-alike far behind: sure
    ],
)
def test_a_reading_near_its_look_alike_needs_more_to_be_sure(
    probs: np.ndarray, confirm: bool
) -> None:
    reading = decode(probs, Knowledge(frozenset(DECK_52)))
    assert reading.confirm == confirm
    if confirm:
        assert "look-alike" in reading.reason and reading.doubt is not None
