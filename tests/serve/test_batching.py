"""Dynamic batching on `bough serve`: concurrent real clients (REST JSON, REST binary and
gRPC, several connections at once) to a model served with --max-batch-size, and one whose
config.json asks for it; every response equals the model's result computed with numpy for
that request alone, and bough_inference_exec_count shows fewer runs than requests."""
import json
import threading

import numpy as np
import pytest

import prometheus_text
from conftest import Server, binary_model, identity_model, save
from grpc_client import connect, infer_request, outputs_of, raw_bytes, raw_input
from onnx import TensorProto
from test_metrics import scrape
from test_rest import json_input

CLIENTS = 8
REQUESTS = 12  # per client


@pytest.fixture(scope="module")
def batching(tmp_path_factory):
    """add (Add and Mul of two [N, 3] inputs) batched by the command line's options,
    echo_text (Identity of a BYTES [N] input) batched by its config.json, and fixed (add with
    a batch of 1 fixed in the model), which cannot batch."""
    root = tmp_path_factory.mktemp("batching")
    save(binary_model("Add", "add"), str(root / "add" / "1" / "model.onnx"))
    fixed = binary_model("Add", "fixed")
    for value in (*fixed.graph.input, *fixed.graph.output):
        value.type.tensor_type.shape.dim[0].dim_value = 1
    save(fixed, str(root / "fixed" / "1" / "model.onnx"))
    save(identity_model("echo_text", {"text": (TensorProto.STRING, "BYTES")}),
         str(root / "echo_text" / "1" / "model.onnx"))
    (root / "echo_text" / "config.json").write_text(
        '{"max_batch_size": 16, "batch_delay_us": 20000}')
    s = Server("--model-repository", root, "--max-batch-size", "8", "--batch-delay-us", "20000",
               "--http-threads", "16", "--grpc-threads", "16")
    yield s
    s.stop()


def rows(rng):
    n = int(rng.integers(1, 3))
    return (rng.standard_normal((n, 3)).astype(np.float32),
            rng.standard_normal((n, 3)).astype(np.float32))


def rest_json(server, a, b, model="add"):
    status, body = server.infer(model, {"inputs": [json_input("a", a), json_input("b", b)]})
    assert status == 200, body
    out = {o["name"]: np.array(o["data"], np.float32).reshape(o["shape"]) for o in body["outputs"]}
    return out["sum"], out["prod"]


def rest_binary(server, a, b):
    header = json.dumps({"inputs": [
        {"name": n, "shape": list(x.shape), "datatype": "FP32",
         "parameters": {"binary_data_size": x.nbytes}} for n, x in (("a", a), ("b", b))],
        "parameters": {"binary_data_output": True}}).encode()
    status, headers, body = server.request(
        "POST", "/v2/models/add/infer", header + a.tobytes() + b.tobytes(),
        {"Inference-Header-Content-Length": str(len(header))})
    assert status == 200, body
    length = int(headers["Inference-Header-Content-Length"])
    meta = json.loads(body[:length])
    out, at = {}, length
    for o in meta["outputs"]:
        size = o["parameters"]["binary_data_size"]
        out[o["name"]] = np.frombuffer(body[at:at + size], "<f4").reshape(o["shape"])
        at += size
    return out["sum"], out["prod"]


def grpc_raw(stub, a, b):
    request = infer_request("add", [raw_input("a", "FP32", list(a.shape)),
                                    raw_input("b", "FP32", list(b.shape))],
                            raw=[raw_bytes(a, "FP32"), raw_bytes(b, "FP32")])
    out = outputs_of(stub.ModelInfer(request, timeout=60))
    return out["sum"][1], out["prod"][1]


def exec_and_requests(server, model):
    page = scrape(server.metrics_port)
    return (prometheus_text.value(page, "bough_inference_exec_count", model=model, version="1"),
            prometheus_text.value(page, "bough_inference_request_success", model=model,
                                  version="1"))


def run_clients(worker):
    errors = []

    def guarded(i):
        try:
            worker(i)
        except Exception as e:  # reported below, with the client that saw it
            errors.append(f"client {i}: {e!r}")

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors


def test_concurrent_requests_are_batched_and_answered_as_alone(batching):
    stub, channel = connect(batching)
    forms = (lambda a, b: rest_json(batching, a, b), lambda a, b: rest_binary(batching, a, b),
             lambda a, b: grpc_raw(stub, a, b))

    def client(i):
        rng = np.random.default_rng(i)
        for k in range(REQUESTS):
            a, b = rows(rng)
            got_sum, got_prod = forms[(i + k) % len(forms)](a, b)
            np.testing.assert_array_equal(got_sum, a + b)
            np.testing.assert_array_equal(got_prod, a * b)

    try:
        run_clients(client)
    finally:
        channel.close()
    executions, requests = exec_and_requests(batching, "add")
    assert requests == CLIENTS * REQUESTS
    assert 0 < executions < requests, (executions, requests)


def test_config_json_batches_strings(batching):
    def client(i):
        for k in range(REQUESTS):
            words = [f"c{i}r{k}", "é" * (k % 3)]
            status, body = batching.infer("echo_text", {"inputs": [
                {"name": "text", "shape": [2], "datatype": "BYTES", "data": words}]})
            assert status == 200, body
            assert body["outputs"][0]["data"] == words and body["outputs"][0]["shape"] == [2]

    run_clients(client)
    executions, requests = exec_and_requests(batching, "echo_text")
    assert requests == CLIENTS * REQUESTS
    assert 0 < executions < requests, (executions, requests)


def test_a_model_with_a_fixed_batch_runs_unbatched(batching):
    def client(i):
        a = np.full((1, 3), i, np.float32)
        for _ in range(REQUESTS):
            assert np.array_equal(rest_json(batching, a, a, "fixed")[0], a + a)

    run_clients(client)
    executions, requests = exec_and_requests(batching, "fixed")
    assert executions == requests == CLIENTS * REQUESTS
