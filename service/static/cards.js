// Card decks and trick points of the games, for the pages that show a hand in progress (the
// rules engine scores the hand; these only show how it stands while it is played).
"use strict";

const SUIT_ORDER = ["S", "H", "D", "C"];
const DECK_RANKS = {
  clabber: ["9", "10", "J", "Q", "K", "A"],
  belote: ["7", "8", "9", "10", "J", "Q", "K", "A"],
  klaberjass: ["7", "8", "9", "10", "J", "Q", "K", "A"],
  clag: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
};

function deckOf(game) {
  const ranks = DECK_RANKS[game] || DECK_RANKS.clag;
  return SUIT_ORDER.flatMap((s) => ranks.map((r) => r + s));
}

// Clabber, Klaberjass and Belote count the same: trump jack 20, trump nine 14, ace 11, ten 10,
// king 4, queen 3, a plain jack 2; the last trick 10 more.
const PLAIN_POINTS = { A: 11, "10": 10, K: 4, Q: 3, J: 2 };
const TRUMP_POINTS = { J: 20, "9": 14, A: 11, "10": 10, K: 4, Q: 3 };
const LAST_TRICK = 10;
const TRICKS_PER_HAND = { clabber: 6, belote: 8, klaberjass: 9 };

function cardPoints(code, trump) {
  const suit = code.slice(-1), rank = code.slice(0, -1);
  return (suit === trump ? TRUMP_POINTS[rank] : PLAIN_POINTS[rank]) || 0;
}

// The trick points each side has taken so far in the hand in progress (null for Clag, which
// counts tricks: its state says how many each player took).
function trickPoints(state) {
  const cur = state.current;
  if (!cur || state.game === "clag" || !cur.trump) return null;
  const points = state.sides.map(() => 0);
  const handSize = TRICKS_PER_HAND[state.game];
  (cur.tricks || []).forEach((t, i) => {
    const side = state.sides.findIndex((seats) => seats.includes(t.winner));
    if (side < 0) return;
    points[side] += t.cards.reduce((sum, c) => sum + cardPoints(c, cur.trump), 0);
    if (i === handSize - 1) points[side] += LAST_TRICK;
  });
  return points;
}

// Who leads the trick in progress (or the next one): the seat of its first card, else the
// last trick's winner, else the dealer's left.
function leader(state) {
  const cur = state.current;
  if (!cur) return null;
  if (cur.trick && cur.trick.length) return cur.trick[0].seat;
  const done = cur.tricks || [];
  if (done.length) return done[done.length - 1].winner;
  return cur.phase === "play" ? cur.to_move : null;
}

// Cards of the hand already played (the trick in progress too).
function playedCards(state) {
  const cur = state.current;
  if (!cur) return new Set();
  return new Set([...(cur.tricks || []).flatMap((t) => t.cards), ...(cur.trick || []).map((p) => p.card)]);
}
