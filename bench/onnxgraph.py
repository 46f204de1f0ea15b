"""The ONNX graph builder the benchmark model scripts share (bench/make-real-models,
bench/make-cnn-models): unique names, a Graph collecting nodes and numpy weights from a seeded
generator, input specs as the peer's ort_run.js reads them, and writing a suite directory."""
import json
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT, INT64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
SQRT2 = math.sqrt(2.0)


class Names:
    """Model-wide unique value names (If branches and Loop/Scan bodies see outer names, so a
    name must not repeat anywhere in the model)."""

    def __init__(self):
        self.n = 0

    def __call__(self, base):
        self.n += 1
        return f"{base}_{self.n}"


class Graph:
    """Collects nodes of one (sub)graph. With consts_as_nodes, weights become Constant nodes
    (as PyTorch exports them inside If branches) instead of initializers."""

    def __init__(self, names, rng, consts_as_nodes=False):
        self.names, self.rng, self.consts_as_nodes = names, rng, consts_as_nodes
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []

    def const(self, array, base="c"):
        name = self.names(base)
        tensor = numpy_helper.from_array(np.asarray(array), name)
        if self.consts_as_nodes:
            self.nodes.append(helper.make_node("Constant", [], [name], value=tensor))
        else:
            self.inits.append(tensor)
        return name

    def i64(self, values, base="i"):
        return self.const(np.array(values, dtype=np.int64), base)

    def f32(self, value, base="f"):
        return self.const(np.array(value, dtype=np.float32), base)

    def weight(self, shape, scale=None, base="w"):
        scale = scale if scale is not None else 1.0 / math.sqrt(shape[-1] if len(shape) > 1 else 1)
        return self.const((self.rng.standard_normal(shape) * scale).astype(np.float32), base)

    def op(self, op_type, inputs, n_out=1, **attrs):
        outs = [self.names(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.names(op_type), **attrs))
        return outs[0] if n_out == 1 else outs

    def input(self, name, elem, shape):
        self.inputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def output(self, value, name, elem, shape=None):
        """Names an output (an Identity, so any value can be exported under a fixed name)."""
        self.nodes.append(helper.make_node("Identity", [value], [name], name=self.names("out")))
        self.outputs.append(helper.make_tensor_value_info(name, elem, shape))

    def sub(self, consts_as_nodes=None):
        cn = self.consts_as_nodes if consts_as_nodes is None else consts_as_nodes
        return Graph(self.names, self.rng, cn)

    def build(self, name):
        return helper.make_graph(self.nodes, name, self.inputs, self.outputs, initializer=self.inits)

    # Common layers, as exporters write them.
    def linear_t(self, x, n_in, n_out):
        """nn.Linear as exported without constant folding: MatMul(x, Transpose(W[out,in])) + b."""
        wt = self.op("Transpose", [self.weight((n_out, n_in))], perm=[1, 0])
        return self.op("Add", [self.op("MatMul", [x, wt]), self.weight((n_out,), 0.02)])

    def linear(self, x, n_in, n_out, bias=True):
        """nn.Linear with the transpose folded into the initializer: MatMul(x, W[in,out]) + b."""
        y = self.op("MatMul", [x, self.weight((n_in, n_out), 1 / math.sqrt(n_in))])
        return self.op("Add", [y, self.weight((n_out,), 0.02)]) if bias else y

    def layer_norm(self, x, d):
        gamma = self.const((1 + 0.1 * self.rng.standard_normal(d)).astype(np.float32), "ln_g")
        beta = self.weight((d,), 0.1, "ln_b")
        return self.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=1e-5)

    def gelu_erf(self, x):
        """torch.nn.functional.gelu as exported: x * 0.5 * (1 + erf(x / sqrt(2)))."""
        e = self.op("Erf", [self.op("Div", [x, self.f32(SQRT2)])])
        return self.op("Mul", [self.op("Mul", [x, self.op("Add", [e, self.f32(1.0)])]), self.f32(0.5)])

    def gelu_tanh(self, x):
        """GPT-2's gelu_new: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        cube = self.op("Pow", [x, self.f32(3.0)])
        inner = self.op("Add", [x, self.op("Mul", [cube, self.f32(0.044715)])])
        t = self.op("Tanh", [self.op("Mul", [inner, self.f32(math.sqrt(2 / math.pi))])])
        return self.op("Mul", [self.op("Mul", [x, self.f32(0.5)]), self.op("Add", [t, self.f32(1.0)])])


def spec_random(shape, seed):
    return {"dtype": "float32", "shape": list(shape), "fill": "random", "seed": seed}


def spec_int(value, shape=(), dtype="int64"):
    return {"dtype": dtype, "shape": list(shape), "values": [value]}


def finish(graph, producer, opset=17):
    """The model of `graph`, checked by onnx.checker's full check."""
    model = helper.make_model(graph, producer_name=producer,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def write_suite(out, builders, entry_extra=lambda name: {}):
    """Builds each (name, make) of `builders` with its own seeded generator and writes
    OUT/NAME.onnx, OUT/SPEC.json for its input spec and each variant spec, and OUT/suite.json
    listing the benchmarks (name, model, spec, plus entry_extra(name))."""
    os.makedirs(out, exist_ok=True)
    suite = []
    for i, (name, make) in enumerate(builders):
        model, spec, *variants = make(Names(), np.random.default_rng(1000 + i))
        write_atomic(os.path.join(out, name + ".onnx"), model.SerializeToString())
        size = os.path.getsize(os.path.join(out, name + ".onnx"))
        print(f"  {name + '.onnx':28} {size:>10} bytes")
        # A model may come with other input specs: each is one more entry of the suite.
        for spec_name, s in [(name, spec), *(variants[0].items() if variants else [])]:
            write_atomic(os.path.join(out, spec_name + ".json"),
                         (json.dumps(s, indent=1) + "\n").encode())
            suite.append({"name": spec_name, "model": name + ".onnx", "spec": spec_name + ".json",
                          **entry_extra(name)})
    write_atomic(os.path.join(out, "suite.json"), (json.dumps(suite, indent=1) + "\n").encode())
    print(f"wrote {len(suite)} benchmarks ({len(builders)} models) to {out}")
