"""Training and evaluating the card classifier.

:mod:`vision.train.trainer` trains it (torch, the ``train`` extra; imported only here) and
exports ``models/cards.onnx``; :mod:`vision.train.evaluate` measures the shipped ONNX model on
real photographs and unseen decks with onnxruntime alone.
"""
