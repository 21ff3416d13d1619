"""Whose card it is, from where it lies (vision.track.seating.place): the side of the table decides,
the turn only breaks near ties, and a card that cannot belong to the trick in progress closes
it (its missing plays are missed, never invented)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.track.seating import SEAT_NEAR_DEGREES, SEAT_TIE_DEGREES, place
from vision.track.table import TableGeometry

FOUR = TableGeometry.default(4)  # seat 0 bottom (90°), 1 left (180°), 2 top, 3 right


def at(angle: float) -> np.ndarray:
    """Distances (degrees) from a card lying in direction ``angle`` to the four seats."""
    return np.abs((np.asarray(FOUR.seat_angles) - angle + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize(
    ("rule", "angle", "played", "turn", "left", "seat", "over"),
    [
        ("a card on the side of the seat to move is its", 180, {0}, 1, False, 1, False),
        ("near the border, the seat to move wins the tie", 135 + SEAT_TIE_DEGREES / 2 - 1, {0}, 1, False, 1, False),
        ("the side decides over the turn: a play was skipped", 270, {0}, 1, False, 2, False),
        ("on a played seat's side but near one still to play: that seat, marked", 220, {0, 1}, 2, False, 2, False),
        ("plainly on a played seat's side: the trick is over, plays missed", 180, {0, 1}, 2, False, 1, True),
        ("the trick's cards left the table: the trick is over, even for the seat to move", 270, {0, 1}, 2, True, 2, True),
        ("nothing played yet and the turn unknown: the side", 0, set(), None, False, 3, False),
    ],
)  # fmt: skip
def test_seating_rules(
    rule: str, angle: float, played: set[int], turn: int | None, left: bool, seat: int, over: bool
) -> None:
    p = place(at(angle), played, turn, left)
    assert (p.seat, p.over) == (seat, over), rule
    if not p.over and p.seat not in played and p.seat != int(np.argmin(at(angle))):
        assert p.seat == turn, rule  # only the turn may overrule the side, and only in a tie


@settings(max_examples=200, deadline=None)
@given(
    angle=st.floats(0, 360, exclude_max=True),
    played=st.sets(st.integers(0, 3), max_size=3),
    turn=st.integers(0, 3),
    left=st.booleans(),
)
def test_a_card_is_never_given_to_a_seat_that_played_unless_it_closes_the_trick(
    angle: float, played: set[int], turn: int, left: bool
) -> None:
    p = place(at(angle), played, turn, left)
    dist = at(angle)
    if not p.over:
        assert p.seat not in played
        # never further from where it lies than the tolerances allow
        assert dist[p.seat] - dist.min() <= max(SEAT_TIE_DEGREES, SEAT_NEAR_DEGREES)
    else:
        assert p.seat == int(np.argmin(dist)) and p.note


def test_cards_come_to_rest_together_take_the_next_seats_in_turn() -> None:
    """Two cards come to rest in one look, both nearest seat 3 (seat 2's card lying far to
    its right: development seed 10111 light Belote): seat 2 to move takes the one nearer it,
    seat 3 the other; cards whose nearest seats differ, a card of the trick back in view, or a
    card plainly another seat's change nothing."""
    from vision.track.seating import together

    # seat 1 has led; seat 2's card at 325 degrees (20 nearer seat 3 at 0 than seat 2 at 270)
    assert together([at(325), at(5)], {1}, 2) == [2, 3]
    assert together([at(5), at(325)], {1}, 2) == [3, 2]
    assert together([at(270), at(0)], {1}, 2) == [None, None]  # nearest seats differ
    # seat 1's card pushed (nearest a seat that has played) takes no part
    assert together([at(325), at(5), at(180)], {1}, 2) == [2, 3, None]
    # both plainly on seat 3's side: seat 2 lies over SEAT_NEAR_DEGREES further for either
    assert SEAT_NEAR_DEGREES < 80 - 10
    assert together([at(350), at(10)], {1}, 2) == [None, None]
    # more cards than seats still to play
    assert together([at(300), at(310), at(320), at(330)], {1}, 2) == [None] * 4
    assert together([], set(), 0) == []


def test_a_lead_near_the_border_takes_the_seat_before_the_second_card() -> None:
    """A lead slid in between seats 3 and 0 and given to seat 3, then a card plainly seat 1's:
    seat 0 led (development seed 10113 full Belote). A lead plainly on seat 3's side stays (a
    play between them was missed), as does one followed in turn, and two players' leads."""
    from vision.track.seating import lead_before

    # seat 0 at 90 degrees, seat 3 at 0: a lead at 40 degrees lies 10 nearer seat 3
    assert lead_before(at(40), 3, 1) == 0
    assert lead_before(at(40), 3, 0) is None  # in turn
    assert lead_before(at(5), 3, 1) is None  # plainly seat 3's
    assert lead_before(at(40), 3, 3) is None
    assert lead_before(np.array([30.0, 150.0]), 0, 1) is None  # two players
    # at the limit: the seat before lies exactly SEAT_NEAR_DEGREES further
    limit = (90 - SEAT_NEAR_DEGREES) / 2  # degrees from seat 3 toward seat 0
    assert lead_before(at(limit), 3, 1) == 0
    assert lead_before(at(limit - 1), 3, 1) is None
