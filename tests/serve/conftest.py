"""Fixtures for the `bough serve` tests: small ONNX models written with onnx's helpers into a
Triton-layout repository, and a server process started on free loopback ports (HTTP and
gRPC)."""
import http.client
import json
import os
import shutil
import signal
import subprocess
import time

import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

BOUGH = os.environ.get("BOUGH_CLI", "build/bough")


def save(model, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    onnx.save(model, path)


def binary_model(op, name):
    """a, b: float [N, 3] -> sum (op of a and b) and prod (a * b)."""
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N", 3])
    out = helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["N", 3])
    prod = helper.make_tensor_value_info("prod", TensorProto.FLOAT, ["N", 3])
    graph = helper.make_graph(
        [helper.make_node(op, ["a", "b"], ["sum"]), helper.make_node("Mul", ["a", "b"], ["prod"])],
        name, [a, b], [out, prod])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


ECHO_TYPES = {  # input name -> (ONNX type, protocol datatype)
    "i64": (TensorProto.INT64, "INT64"),
    "flag": (TensorProto.BOOL, "BOOL"),
    "text": (TensorProto.STRING, "BYTES"),
    "half": (TensorProto.FLOAT16, "FP16"),
    "u8": (TensorProto.UINT8, "UINT8"),
    "f64": (TensorProto.DOUBLE, "FP64"),
}


def identity_model(name, types, extra_nodes=(), extra_outputs=()):
    """Each input X of `types` given back as X_out, through Identity, and the extra nodes."""
    inputs = [helper.make_tensor_value_info(n, t, [None]) for n, (t, _) in types.items()]
    outputs = [helper.make_tensor_value_info(n + "_out", t, [None]) for n, (t, _) in types.items()]
    nodes = [helper.make_node("Identity", [n], [n + "_out"]) for n in types]
    graph = helper.make_graph(nodes + list(extra_nodes), name, inputs, outputs + list(extra_outputs))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def echo_model():
    return identity_model("echo", ECHO_TYPES)


TYPED_TYPES = {  # input name -> (ONNX type, protocol datatype): every type gRPC carries typed
    "b": (TensorProto.BOOL, "BOOL"),
    "u8": (TensorProto.UINT8, "UINT8"),
    "u16": (TensorProto.UINT16, "UINT16"),
    "u32": (TensorProto.UINT32, "UINT32"),
    "u64": (TensorProto.UINT64, "UINT64"),
    "i8": (TensorProto.INT8, "INT8"),
    "i16": (TensorProto.INT16, "INT16"),
    "i32": (TensorProto.INT32, "INT32"),
    "i64": (TensorProto.INT64, "INT64"),
    "f32": (TensorProto.FLOAT, "FP32"),
    "f64": (TensorProto.DOUBLE, "FP64"),
    "s": (TensorProto.STRING, "BYTES"),
}


def typed_model():
    """identity_model of every typed datatype, and f32 cast to float16 as half."""
    return identity_model(
        "typed", TYPED_TYPES,
        [helper.make_node("Cast", ["f32"], ["half"], to=TensorProto.FLOAT16)],
        [helper.make_tensor_value_info("half", TensorProto.FLOAT16, [None])])


def slow_model():
    """n: int64 scalar -> count: float, 1.0 added n times in a Loop (one iteration each)."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["v_in", "one"], ["v_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["n", "true", "zero"], ["count"], body=body)],
        "slow",
        [helper.make_tensor_value_info("n", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("count", TensorProto.FLOAT, [])],
        initializer=[helper.make_tensor("true", TensorProto.BOOL, [], [True]),
                     helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0]),
                     helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="session")
def repository(tmp_path_factory):
    """add (versions 1 = Sub, 2 = Add; 2 is served), echo, typed, and slow (two instances)."""
    root = tmp_path_factory.mktemp("models")
    save(binary_model("Sub", "add_v1"), str(root / "add" / "1" / "model.onnx"))
    save(binary_model("Add", "add_v2"), str(root / "add" / "2" / "model.onnx"))
    os.makedirs(root / "add" / "notes")  # not a version: ignored
    save(echo_model(), str(root / "echo" / "1" / "model.onnx"))
    save(typed_model(), str(root / "typed" / "1" / "model.onnx"))
    save(slow_model(), str(root / "slow" / "1" / "model.onnx"))
    (root / "slow" / "config.json").write_text('{"instances": 2, "threads": 1}')
    return root


@pytest.fixture(scope="module")
def repo(repository, tmp_path_factory):
    """A copy of the test repository that one module's tests may change (load, unload)."""
    root = tmp_path_factory.mktemp("writable") / "models"
    shutil.copytree(repository, root)
    return root


class Server:
    """A `bough serve` process on free loopback ports; .grpc_port is None with gRPC off, and
    .metrics_port with metrics off."""

    def __init__(self, *args):
        args = [str(a) for a in args]
        given = {a.split("=")[0] for a in args}
        for port in ("--http-port", "--grpc-port", "--metrics-port"):
            if port not in given:
                args = [port, "0", *args]
        self.proc = subprocess.Popen([BOUGH, "serve", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.port = None
        self.grpc_port = None
        self.metrics_port = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("bough serve ended: " + self.proc.stderr.read())
            self.lines.append(line)
            if "listening on http://" in line:
                self.port = int(line.rsplit(":", 1)[1])
            if "listening on grpc://" in line:
                self.grpc_port = int(line.rsplit(":", 1)[1])
            if "metrics on http://" in line:
                self.metrics_port = int(line.rsplit(":", 1)[1].split("/")[0])
            if line.strip().endswith("ready"):
                break

    def request(self, method, path, body=None, headers=None, timeout=60):
        """(status, headers, body bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            if isinstance(body, (dict, list)):
                body = json.dumps(body).encode()
            conn.request(method, path, body=body, headers=headers or {})
            res = conn.getresponse()
            return res.status, dict(res.getheaders()), res.read()
        finally:
            conn.close()

    def get_json(self, path):
        status, _, body = self.request("GET", path)
        return status, json.loads(body) if body else None

    def infer(self, model, request, headers=None):
        status, headers, body = self.request("POST", f"/v2/models/{model}/infer", request, headers)
        return status, json.loads(body)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture(scope="session")
def server(repository):
    s = Server("--model-repository", repository, "--max-request-mib", "1")
    yield s
    s.stop()
    assert s.proc.returncode == 0


def wait_for(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False
