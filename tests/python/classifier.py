"""A small classifier as exporters write one, for the onnxruntime-style tests: x[batch, 4] ->
MatMul, Add, Relu -> MatMul (by a weight doubled at run time), Add -> Mul by `scale` (an
initializer a run may override) -> logits, and Softmax -> probs; with the model's metadata
filled in. `reference` computes the outputs with numpy."""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(31)
W1 = RNG.standard_normal((4, 8)).astype(np.float32)
B1 = RNG.standard_normal(8).astype(np.float32)
W2_HALF = RNG.standard_normal((8, 3)).astype(np.float32)
B2 = RNG.standard_normal(3).astype(np.float32)
SCALE = np.array(0.5, np.float32)

# The nodes by name, in order; w2_double multiplies two initializers, so the basic
# optimization folds it away.
NODES = ["fc1", "fc1_bias", "relu", "w2_double", "fc2", "fc2_bias", "scaled", "softmax"]
METADATA = {"producer_name": "bough-tests", "graph_name": "classifier",
            "domain": "ai.bough.tests", "description": "a two-layer classifier",
            "graph_description": "logits and their softmax", "version": 7,
            "custom_metadata_map": {"author": "tests", "labels": "a,b,c"}}


def model():
    def init(name, array):
        return numpy_helper.from_array(array, name)

    nodes = [
        helper.make_node("MatMul", ["x", "W1"], ["h1"], name="fc1"),
        helper.make_node("Add", ["h1", "B1"], ["h2"], name="fc1_bias"),
        helper.make_node("Relu", ["h2"], ["h3"], name="relu"),
        helper.make_node("Mul", ["W2_half", "two"], ["W2"], name="w2_double"),
        helper.make_node("MatMul", ["h3", "W2"], ["h4"], name="fc2"),
        helper.make_node("Add", ["h4", "B2"], ["h5"], name="fc2_bias"),
        helper.make_node("Mul", ["h5", "scale"], ["logits"], name="scaled"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(
        nodes, METADATA["graph_name"],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4]),
         helper.make_tensor_value_info("scale", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 3])],
        [init("W1", W1), init("B1", B1), init("W2_half", W2_HALF),
         init("two", np.array(2, np.float32)), init("B2", B2), init("scale", SCALE)],
        doc_string=METADATA["graph_description"])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                          producer_name=METADATA["producer_name"], producer_version="1.0",
                          domain=METADATA["domain"], model_version=METADATA["version"],
                          doc_string=METADATA["description"])
    helper.set_model_props(m, METADATA["custom_metadata_map"])
    return m


def reference(x, scale=SCALE):
    """(probs, logits) in float64 from the same weights."""
    x = np.asarray(x, np.float64)
    h = np.maximum(x @ W1 + B1, 0)
    logits = (h @ (W2_HALF.astype(np.float64) * 2) + B2) * float(scale)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True), logits
