"""Stage 2, name the cards: outlines (and the frame) in, card names with their doubt out.

:mod:`vision.read.classify` runs the ONNX corner-index classifier (onnxruntime, never torch)
over both corners of every outline in one batch; :mod:`~vision.read.recognize` is frame in,
named finds out (detection + classification); :mod:`~vision.read.decode` reads one play with
the game's help (cards outside the deck or already played ruled out, voids a soft prior) and
says when a person must confirm it.
"""
