#!/usr/bin/python3
"""QLinearConv models with ONNX Runtime's outputs, for a check that needs no ONNX Runtime.

Writes tests/peer/qlinear_conv/case_NN/ in the ONNX backend-test layout (model.onnx,
test_data_set_0/input_0.pb, output_0.pb): random shapes, groups, strides, dilations, pads,
per-tensor and per-channel weight scales and zero points, with and without bias, over the
type combinations ONNX Runtime implements (uint8 x with uint8 or int8 w giving uint8, int8
giving int8). The expected output is ONNX Runtime's (CPU, through ../shared/peer), so
`bough test-data tests/peer` (the `peer_outputs` test) compares bough with it; its tolerance
(rtol 1e-3 on values up to 255) admits no difference between 8-bit integers.

Usage: make_qlinear_conv.py [PEER_DIR]   (PEER_DIR: the folder `sh ../shared/peer/setup.sh`
prints, default ~/.cache/bough-peer). Deterministic: the same files on every run.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from peer_cases import write_cases

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "qlinear_conv")
CASES = 12
ELEM = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}
COMBINATIONS = [(np.uint8, np.uint8, np.uint8), (np.uint8, np.int8, np.uint8),
                (np.int8, np.int8, np.int8)]


def span(t):
    return np.iinfo(t).min, np.iinfo(t).max + 1


def make_case(i, rng):
    xt, wt, yt = COMBINATIONS[i % 3]
    per_channel = (i // 3) % 2 == 0
    group = 1 + i % 2
    cg, mg = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    c, m = group * cg, group * mg
    rank = 1 + (i // 2) % 2
    kernel = [int(rng.integers(1, 4)) for _ in range(rank)]
    spatial = [int(rng.integers(k + 2, k + 7)) for k in kernel]
    strides = [int(rng.integers(1, 3)) for _ in range(rank)]
    dilations = [1 + (i % 4 == 0) for _ in range(rank)]
    pads = [int(rng.integers(0, 2)) for _ in range(2 * rank)]
    x = rng.integers(*span(xt), size=[2, c] + spatial).astype(xt)
    params = {
        "x_scale": np.array(rng.uniform(0.001, 0.05), np.float32),
        "x_zero_point": np.array(rng.integers(*span(xt)), xt),
        "w": rng.integers(*span(wt), size=[m, cg] + kernel).astype(wt),
        "w_scale": rng.uniform(0.001, 0.05, size=[m] if per_channel else []).astype(np.float32),
        # ONNX Runtime takes int8 weights only with zero points of 0.
        "w_zero_point": (np.zeros([m] if per_channel else [], wt) if wt == np.int8 else
                         rng.integers(*span(wt), size=[m] if per_channel else []).astype(wt)),
        "y_scale": np.array(rng.uniform(0.05, 0.5), np.float32),
        "y_zero_point": np.array(rng.integers(*span(yt)), yt),
    }
    if i % 2 == 0:
        params["B"] = rng.integers(-2000, 2000, size=[m]).astype(np.int32)
    node = helper.make_node("QLinearConv", ["x"] + list(params), ["y"], group=group,
                            strides=strides, dilations=dilations, pads=pads)
    graph = helper.make_graph(
        [node], "main", [helper.make_tensor_value_info("x", ELEM[xt], x.shape)],
        [helper.make_tensor_value_info("y", ELEM[yt], [None] * (2 + rank))],
        [numpy_helper.from_array(v, k) for k, v in params.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)],
                              producer_name="tests/peer/make_qlinear_conv.py")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model, x


def main():
    write_cases(OUT, CASES, make_case, 17)


if __name__ == "__main__":
    main()
