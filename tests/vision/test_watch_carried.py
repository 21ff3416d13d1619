"""A card paused short on its way in, played from there, then carried on to where it comes to
rest, is one play (``Watcher._carried_on``), never that play and a second card from its seat.

Fresh seed 10568's oblique Belote (30 fps, tigullio; session 2026-12-06 thirty-first): trick 2's
9S lay still a moment about 130 px short of its place, its lower third cut off in that find:
read 7S at 0.97, marked by its own middle ("its index reads 9S but its middle shows 7 pips"),
and played. When it came to rest whole it read 9S, plainly on the same seat's side: taken for
that seat's card to the next trick, two plays inferred missed and every later trick shifted one
seat (20 unmarked misreads). A reading its own pips or face doubt is as doubtful as a reading
the classifier is unsure of. The hand log is built by hand (no video needed)."""

from __future__ import annotations

import numpy as np
from handlog_helpers import add_play, card_at, simulated_hand, toward_seat

from vision.read.decode import Reading
from vision.track.motion import Track
from vision.track.watch import Watcher


def _watcher_with_a_play_paused_short() -> tuple[Watcher, Track]:
    spec, tricks, _truth = simulated_hand(3)
    watcher = Watcher(spec, lambda crops: np.zeros((len(crops), 54)))
    watcher.size = (1280, 720)
    for seat, card in tricks[0]:
        add_play(watcher.log, seat, card, 1)
    (lead_seat, lead), (seat, card) = tricks[1][0], tricks[1][1]
    add_play(watcher.log, lead_seat, lead, 2)
    add_play(watcher.log, seat, card, 2)
    play = watcher.log.plays[-1]
    # where the seat lays its cards: toward its side from the middle of the view
    middle = np.asarray(watcher.size, np.float64) / 2
    way = toward_seat(watcher, seat, 250, 120)
    play.quad = card_at(middle + 250 * way)  # found and played here, paused short
    # read surely: the classifier does not doubt it
    play.reading = Reading(card, 0.97, str(card), 0.97, None, 0.0, False, None, "")
    here = Track(99, card_at(middle + 120 * way), 10.1, 10.1)
    return watcher, here


def test_a_card_paused_short_and_doubted_by_its_own_pips_is_carried_on() -> None:
    watcher, here = _watcher_with_a_play_paused_short()
    play = watcher.log.plays[-1]
    assert watcher._away(here, play) < 2.4  # (within PUSHED_CARDS card sizes)
    # read surely and nothing doubting it: a card found further on is another card
    assert not watcher._carried_on(play, here)
    # its own middle doubts its index: the card carried on by the hand that paused with it
    play.pips_note = "its index reads 9S but its middle shows 7 pips"
    assert watcher._carried_on(play, here)
    play.pips_note = ""
    play.suit_note = "9S is read at 0.97 and its face does not plainly show a spade (0.59)"
    assert watcher._carried_on(play, here)
