"""Stage 3, follow the table: named cards over time in, plays and tricks with evidence out.

:mod:`vision.track.table` is the table over time (seat geometry, motion, cards come to rest);
:mod:`~vision.track.seating` decides whose card it is and which trick it belongs to;
:mod:`~vision.track.games` is what the watcher knows of each game; :mod:`~vision.track.handlog`
is the hand as seen (plays, corrections, the record), :mod:`~vision.track.handread` reads the
hand's plays together; :mod:`~vision.track.watch` ties them into the frame-by-frame
:class:`~vision.track.watch.Watcher`.
"""
