"""trickcam's eyes: frames in, plays with their evidence out.

One package per stage a frame passes through; a stage imports only the stages before it:

* :mod:`vision.sources` -- frames with timestamps (camera, video, image folder, stream URL);
* :mod:`vision.detect` -- frame -> card outlines (quads, partial cards from index corners),
  warped to upright card images;
* :mod:`vision.read` -- outline -> card name with its doubt (the ONNX classifier, and the
  game-aware decoding of a play);
* :mod:`vision.track` -- cards over time -> plays and tricks (seats, pace, the hand log);
* :mod:`vision.draw` -- drawing what the stages found onto frames (never changes them).

Beside the pipeline, never imported by it:

* :mod:`vision.render` -- the renderer of training scenes and of whole table videos;
* :mod:`vision.train` -- training the classifier (torch, imported lazily) and its evaluation.

Inference never imports torch.
"""
