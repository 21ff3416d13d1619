"""Drawing only: what detection, reading and tracking found, drawn onto frames.

:mod:`vision.draw.annotate` draws named finds (``trickcam recognize --annotate``);
:mod:`vision.draw.overlay` draws the watcher's view (seats, plays, score) for
``trickcam watch --annotate`` and the demo. Nothing here changes what the stages decided.
"""
