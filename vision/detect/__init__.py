"""Stage 1, find the cards: a BGR frame in, card outlines out.

:mod:`vision.detect.find` is the entry (:func:`~vision.detect.find.detect` gives a
``Detections`` of quads, with the cards seen only by an index corner marked ``one_corner``);
:mod:`~vision.detect.candidates` makes outline candidates from masks,
:mod:`~vision.detect.edges` snaps them onto the paper's border, :mod:`~vision.detect.quads`
is their geometry, :mod:`~vision.detect.fans` finds the index corners of half-hidden cards,
and :mod:`~vision.detect.preprocess` warps an outline to the upright card image and corner
crops the classifier reads (the contract shared with training).
"""
