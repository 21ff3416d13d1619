"""The trick-game core that Clabber, Klaberjass, Belote and Jass-deux share.

Each of these games deals, makes trump, plays tricks under "follow / trump / beat the trump"
duties, learns hidden hands card by card, proves reneges with their evidence and takes the
same referee events and corrections. That is written here once; each game's package keeps
only what is its own: its tables (deck, orders, points), its duty rows, its bidding, melds
and scoring, and its own events.

- :mod:`rules.trickgame.tables`: :class:`CardTables`, a game's card orders and points;
- :mod:`rules.trickgame.duties`: :class:`Duty` rows in a :class:`DutyTable`, and from them
  the legal plays and the obligations a play leaves open (so the two always agree);
- :mod:`rules.trickgame.hand`: :class:`TrickHand`, the immutable hand state machine: deal,
  trick play, table knowledge, the game's own events through hooks;
- :mod:`rules.trickgame.reneges`: its base, the ledger of proven reneges, claims and the
  referee's events, and how a game words its refusals (:class:`HandWords`);
- :mod:`rules.trickgame.log`: replaying and correcting an event log;
- :mod:`rules.trickgame.match`: a game to a target, the deal's rotation;
- :mod:`rules.trickgame.records`: what every game's hand records share.

Table knowledge and renege evidence (:mod:`rules.knowledge`) and the shared events
(:mod:`rules.events`) serve Clag as well and stay at the top of ``rules``.
"""

from rules.trickgame.duties import FOLLOW, TRUMP, Duty, DutyTable, partner_is_master
from rules.trickgame.hand import HandWords, TrickHand, evolve
from rules.trickgame.log import corrected_log, replay_log
from rules.trickgame.tables import CardTables, points_table

__all__ = [
    "FOLLOW",
    "TRUMP",
    "CardTables",
    "Duty",
    "DutyTable",
    "HandWords",
    "TrickHand",
    "corrected_log",
    "evolve",
    "partner_is_master",
    "points_table",
    "replay_log",
]
