#!/usr/bin/python3
"""Builds examples/if_loop.onnx and its inputs (run with Debian's python3-onnx).

x: float[3], n: int64 scalar. Loop n times; iteration i adds `step` (an outer initializer,
captured two scopes down) to x when i is even and halves x when i is odd. Outputs the final
x and every intermediate x stacked.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))

then_branch = helper.make_graph(
    [helper.make_node("Add", ["x_in", "step"], ["x_then"])], "add_step", [],
    [helper.make_tensor_value_info("x_then", TensorProto.FLOAT, [3])])
else_branch = helper.make_graph(
    [helper.make_node("Mul", ["x_in", "half"], ["x_else"])], "halve", [],
    [helper.make_tensor_value_info("x_else", TensorProto.FLOAT, [3])])
body = helper.make_graph(
    [
        helper.make_node("Mod", ["i", "two"], ["parity"]),
        helper.make_node("Equal", ["parity", "zero"], ["even"]),
        helper.make_node("If", ["even"], ["x_out"], name="even_or_odd",
                         then_branch=then_branch, else_branch=else_branch),
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Identity", ["x_out"], ["x_scan"]),
    ],
    "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []),
     helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
     helper.make_tensor_value_info("x_in", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
     helper.make_tensor_value_info("x_out", TensorProto.FLOAT, [3]),
     helper.make_tensor_value_info("x_scan", TensorProto.FLOAT, [3])],
    [numpy_helper.from_array(np.array(2, np.int64), "two"),
     numpy_helper.from_array(np.array(0, np.int64), "zero")])
graph = helper.make_graph(
    [helper.make_node("Loop", ["n", "", "x"], ["x_final", "x_all"], name="steps", body=body)],
    "if_loop",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
     helper.make_tensor_value_info("n", TensorProto.INT64, [])],
    [helper.make_tensor_value_info("x_final", TensorProto.FLOAT, [3]),
     helper.make_tensor_value_info("x_all", TensorProto.FLOAT, ["n", 3])],
    [numpy_helper.from_array(np.array([1, 1, 1], np.float32), "step"),
     numpy_helper.from_array(np.array([0.5, 0.5, 0.5], np.float32), "half")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                          producer_name="bough-example")
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)
onnx.save(model, os.path.join(here, "if_loop.onnx"))
np.save(os.path.join(here, "x.npy"), np.array([1.0, 2.0, 3.0], np.float32))
np.save(os.path.join(here, "n.npy"), np.array(5, np.int64))
