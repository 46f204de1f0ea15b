#!/usr/bin/python3
"""Resize-11 models with tf_half_pixel_for_nn and ONNX Runtime's outputs beside them.

Writes tests/peer/resize_tf_half_pixel/case_NN/ in the ONNX backend-test layout: random 4-D
float inputs resized by scales (up, down, mixed) or to sizes, in nearest mode with each
nearest_mode and in linear mode, all with coordinate_transformation_mode
tf_half_pixel_for_nn (x_original = (x_resized + 0.5) / scale; opset 11 only). The expected
outputs are ONNX Runtime's (CPU, through ../shared/peer), so the `peer_outputs` test
compares bough with them without ONNX Runtime. On 2026-11-24 bough matched all of them
exactly in nearest mode and within 1.2e-7 in linear mode.

Usage: make_resize_tf_half_pixel.py [PEER_DIR]   (default ~/.cache/bough-peer).
Deterministic: the same files on every run.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from peer_cases import write_cases

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "resize_tf_half_pixel")
MODES = [("nearest", "round_prefer_floor"), ("nearest", "round_prefer_ceil"),
         ("nearest", "floor"), ("nearest", "ceil"), ("linear", "round_prefer_floor")]
SCALES = [[1, 1, 1.7, 0.6], [1, 1, 0.5, 2.5], [1, 1, 3.0, 1.25]]
CASES = len(MODES) * (len(SCALES) + 1)


def make_case(i, rng):
    mode, nearest_mode = MODES[i % len(MODES)]
    shape = [1, int(rng.integers(1, 3)), int(rng.integers(2, 7)), int(rng.integers(2, 7))]
    x = rng.uniform(-1, 1, size=shape).astype(np.float32)
    inputs = {"roi": np.zeros([0], np.float32)}
    which = i // len(MODES)
    if which < len(SCALES):
        inputs["scales"] = np.array(SCALES[which], np.float32)
    else:  # to sizes: one dimension up, one down
        inputs["scales"] = np.zeros([0], np.float32)
        inputs["sizes"] = np.array(shape[:2] + [shape[2] * 2 + 1, max(1, shape[3] // 2)],
                                   np.int64)
    node = helper.make_node("Resize", ["x"] + list(inputs), ["y"], mode=mode,
                            nearest_mode=nearest_mode,
                            coordinate_transformation_mode="tf_half_pixel_for_nn")
    graph = helper.make_graph(
        [node], "main", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 4)],
        [numpy_helper.from_array(v, k) for k, v in inputs.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)],
                              producer_name="tests/peer/make_resize_tf_half_pixel.py")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model, x


def main():
    write_cases(OUT, CASES, make_case, 11)


if __name__ == "__main__":
    main()
