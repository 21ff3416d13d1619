"""trickcam's eyes: frame sources, card detection, ONNX classification, table tracking.

Inference never imports torch; only ``vision.train`` does, lazily.
"""
