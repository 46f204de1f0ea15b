#!/usr/bin/python3
"""A 5,000-node ONNX model for the `bough show -o view.html` tests (python3-onnx).

x: float[1, 64], flag: bool. 495 blocks of ten nodes (two MatMul + Add paths, Relu and
Sigmoid, a gated product, a residual Add, a scale and a Tanh) and, after blocks 100, 200, 300
and 400, an If "gate_K" whose branches read the block's output h_K by name (a capture): then
Neg, else Abs. 4,950 + 4 Ifs + 2 x 4 branch nodes + 40 Identities = 5,002 nodes.
Usage: make_big_model.py OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BLOCKS, WIDTH = 495, 64


def branch(op, value, out):
    return helper.make_graph([helper.make_node(op, [value], [out])], out, [],
                             [helper.make_tensor_value_info(out, TensorProto.FLOAT, [1, WIDTH])])


def build():
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((WIDTH, WIDTH)).astype(np.float32), n)
             for n in ("W1", "W2")]
    inits += [numpy_helper.from_array(np.full(WIDTH, 0.1, np.float32), n) for n in ("B1", "B2")]
    inits.append(numpy_helper.from_array(np.array(0.5, np.float32), "half"))
    nodes, h = [], "x"
    for k in range(1, BLOCKS + 1):
        p = f"block{k}/"
        nodes += [
            helper.make_node("MatMul", [h, "W1"], [p + "a"], name=p + "matmul_a"),
            helper.make_node("MatMul", [h, "W2"], [p + "b"], name=p + "matmul_b"),
            helper.make_node("Add", [p + "a", "B1"], [p + "a1"], name=p + "bias_a"),
            helper.make_node("Add", [p + "b", "B2"], [p + "b1"], name=p + "bias_b"),
            helper.make_node("Relu", [p + "a1"], [p + "a2"], name=p + "relu"),
            helper.make_node("Sigmoid", [p + "b1"], [p + "b2"], name=p + "sigmoid"),
            helper.make_node("Mul", [p + "a2", p + "b2"], [p + "m"], name=p + "gated"),
            helper.make_node("Add", [p + "m", h], [p + "r"], name=p + "residual"),
            helper.make_node("Mul", [p + "r", "half"], [p + "s"], name=p + "scale"),
            helper.make_node("Tanh", [p + "s"], [f"h_{k}"], name=p + "tanh"),
        ]
        h = f"h_{k}"
        if k % 100 == 0:
            nodes.append(helper.make_node(
                "If", ["flag"], [f"g_{k}"], name=f"gate_{k}",
                then_branch=branch("Neg", h, f"neg_{k}"), else_branch=branch("Abs", h, f"abs_{k}")))
            h = f"g_{k}"
    for i in range(40):  # a wide tail: forty heads on the last value
        nodes.append(helper.make_node("Identity", [h], [f"head_{i}"], name=f"head_{i}"))
    graph = helper.make_graph(
        nodes, "big",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, WIDTH]),
         helper.make_tensor_value_info("flag", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info(f"head_{i}", TensorProto.FLOAT, [1, WIDTH])
         for i in range(40)],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


if __name__ == "__main__":
    onnx.save(build(), sys.argv[1])
