"""One way to open an ONNX model for inference: onnxruntime on the CPU, a fixed number of
threads, quiet logs (the card classifier, the index-corner detector and the suit reader)."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort


def cpu_session(
    model_path: Path, threads: int, error: type[Exception], what: str
) -> ort.InferenceSession:
    """An inference session for ``model_path`` running ops in sequence on ``threads`` threads;
    a model that does not load raises ``error`` saying ``what`` it is, which file and why."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise error(f"{what} {model_path} cannot be loaded: {exc}") from exc
