"""`bough serve` over HTTP, with Python's http.client on loopback: every endpoint of the Open
Inference Protocol's REST API, JSON and binary tensors; expected values from numpy."""
import json
import struct

import numpy as np


def test_server_metadata(server):
    status, body = server.get_json("/v2")
    assert status == 200
    assert body["name"] == "bough"
    assert body["version"]
    assert "binary_tensor_data" in body["extensions"]


def test_health_answers_with_status_and_empty_body(server):
    for path in ("/v2/health/live", "/v2/health/ready"):
        status, _, body = server.request("GET", path)
        assert (status, body) == (200, b"")


def test_model_metadata(server):
    status, body = server.get_json("/v2/models/add")
    assert status == 200
    assert body["name"] == "add"
    assert body["versions"] == ["2"]  # the newest version folder
    assert body["inputs"] == [{"name": "a", "datatype": "FP32", "shape": [-1, 3]},
                              {"name": "b", "datatype": "FP32", "shape": [-1, 3]}]
    assert [o["name"] for o in body["outputs"]] == ["sum", "prod"]
    status, echo = server.get_json("/v2/models/echo/versions/1")
    assert status == 200
    assert [(i["name"], i["datatype"], i["shape"]) for i in echo["inputs"]] == [
        ("i64", "INT64", [-1]), ("flag", "BOOL", [-1]), ("text", "BYTES", [-1]),
        ("half", "FP16", [-1]), ("u8", "UINT8", [-1]), ("f64", "FP64", [-1])]


def test_model_ready(server):
    assert server.request("GET", "/v2/models/add/ready")[0] == 200
    assert server.request("GET", "/v2/models/add/versions/2/ready")[0] == 200
    status, _, body = server.request("GET", "/v2/models/add/versions/1/ready")
    assert status == 404 and "version '1'" in json.loads(body)["error"]
    status, _, body = server.request("GET", "/v2/models/nothing/ready")
    assert status == 404 and "unknown model 'nothing'" in json.loads(body)["error"]


A = np.array([[1.5, -2.0, 3.25], [0.1, 1e30, -7.0]], dtype=np.float32)
B = np.array([[0.5, 2.0, -1.0], [0.2, 1e30, 7.0]], dtype=np.float32)
with np.errstate(over="ignore"):
    A_TIMES_B = A * B  # 1e30 * 1e30 overflows to infinity


def json_input(name, array, datatype="FP32", nested=False):
    data = array.tolist() if nested else array.flatten().tolist()
    return {"name": name, "shape": list(array.shape), "datatype": datatype, "data": data}


def test_infer_json_flat_and_nested_with_id(server):
    for nested in (False, True):
        status, body = server.infer("add", {
            "id": "req-7",
            "inputs": [json_input("a", A, nested=nested), json_input("b", B, nested=nested)]})
        assert status == 200, body
        assert body["id"] == "req-7"
        assert body["model_name"] == "add" and body["model_version"] == "2"
        out = {o["name"]: o for o in body["outputs"]}
        assert list(out) == ["sum", "prod"]
        for name, expected in (("sum", A + B), ("prod", A_TIMES_B)):
            assert out[name]["datatype"] == "FP32"
            assert out[name]["shape"] == [2, 3]
            # The fewest digits that read back to the same float32.
            assert np.array_equal(np.array(out[name]["data"], dtype=np.float32),
                                  expected.flatten())


def test_infer_requested_output_and_explicit_version(server):
    status, body = server.request("POST", "/v2/models/add/versions/2/infer", {
        "inputs": [json_input("a", A), json_input("b", B)], "outputs": [{"name": "prod"}]})[0:3:2]
    body = json.loads(body)
    assert status == 200
    assert "id" not in body
    assert [o["name"] for o in body["outputs"]] == ["prod"]
    status, body = server.infer("add/versions/1", {"inputs": [json_input("a", A), json_input("b", B)]})
    assert status == 404


def test_non_finite_values_in_and_out(server):
    a = {"name": "a", "shape": [1, 3], "datatype": "FP32", "data": ["NaN", "Infinity", "-Infinity"]}
    b = json_input("b", np.zeros((1, 3), np.float32))
    status, _, raw = server.request("POST", "/v2/models/add/infer", {"inputs": [a, b]})
    assert status == 200
    assert b"[NaN,Infinity,-Infinity]" in raw
    out = json.loads(raw)["outputs"][0]["data"]  # Python's json reads NaN and Infinity
    assert np.isnan(out[0]) and out[1] == float("inf") and out[2] == float("-inf")


def split_binary(headers, body):
    length = int(headers["Inference-Header-Content-Length"])
    return json.loads(body[:length]), body[length:]


def test_binary_inputs_and_outputs(server):
    header = {"inputs": [
        {"name": "a", "shape": [2, 3], "datatype": "FP32",
         "parameters": {"binary_data_size": A.nbytes}},
        json_input("b", B)],
        "outputs": [{"name": "sum", "parameters": {"binary_data": True}}, {"name": "prod"}]}
    head = json.dumps(header).encode()
    status, headers, body = server.request(
        "POST", "/v2/models/add/infer", head + A.tobytes(),
        {"Inference-Header-Content-Length": str(len(head)),
         "Content-Type": "application/octet-stream"})
    assert status == 200, body
    meta, binary = split_binary(headers, body)
    sum_out, prod_out = meta["outputs"]
    assert sum_out["parameters"]["binary_data_size"] == 24 and "data" not in sum_out
    assert np.array_equal(np.frombuffer(binary, dtype="<f4").reshape(2, 3), A + B)
    assert np.array_equal(np.array(prod_out["data"], np.float32), A_TIMES_B.flatten())


def test_binary_data_output_for_every_output(server):
    request = {"inputs": [json_input("a", A), json_input("b", B)],
               "parameters": {"binary_data_output": True},
               "outputs": [{"name": "sum"}, {"name": "prod", "parameters": {"binary_data": False}}]}
    status, headers, body = server.request("POST", "/v2/models/add/infer", request)
    assert status == 200
    meta, binary = split_binary(headers, body)
    assert meta["outputs"][0]["parameters"]["binary_data_size"] == 24
    assert np.array_equal(np.frombuffer(binary, "<f4"), (A + B).flatten())
    assert "data" in meta["outputs"][1]


def echo_request(**override):
    inputs = {
        "i64": {"shape": [3], "datatype": "INT64", "data": [2**62 + 1, -(2**63), 7]},
        "flag": {"shape": [2], "datatype": "BOOL", "data": [True, False]},
        "text": {"shape": [2], "datatype": "BYTES", "data": ["héllo", ""]},
        "half": {"shape": [3], "datatype": "FP16", "data": [0.1, 65504, -2.5]},
        "u8": {"shape": [2], "datatype": "UINT8", "data": [0, 255]},
        "f64": {"shape": [1], "datatype": "FP64", "data": [0.1]},
    }
    inputs.update(override)
    return {"inputs": [dict(name=n, **spec) for n, spec in inputs.items()]}


def test_every_datatype_through_json(server):
    status, body = server.infer("echo", echo_request())
    assert status == 200, body
    out = {o["name"]: o for o in body["outputs"]}
    assert out["i64_out"]["data"] == [2**62 + 1, -(2**63), 7]
    assert out["flag_out"]["data"] == [True, False]
    assert out["text_out"]["data"] == ["héllo", ""]
    assert out["half_out"]["datatype"] == "FP16"
    # Each half printed in the fewest digits that read back to the same value.
    assert np.array_equal(np.array(out["half_out"]["data"], np.float16),
                          np.array([0.1, 65504, -2.5], np.float16))
    assert out["u8_out"]["data"] == [0, 255]
    assert out["f64_out"]["data"] == [0.1]


def test_bytes_and_fp16_through_binary(server):
    strings = [b"a\x00b", "é".encode(), b""]
    text = b"".join(struct.pack("<I", len(s)) + s for s in strings)
    half = np.array([0.1, -3.0], np.float16)
    request = echo_request(
        text={"shape": [3], "datatype": "BYTES", "parameters": {"binary_data_size": len(text)}},
        half={"shape": [2], "datatype": "FP16", "parameters": {"binary_data_size": 4}})
    request["outputs"] = [{"name": "text_out", "parameters": {"binary_data": True}},
                          {"name": "half_out", "parameters": {"binary_data": True}}]
    # Binary data follows the header in the order of the inputs: text, then half.
    head = json.dumps(request).encode()
    status, headers, body = server.request(
        "POST", "/v2/models/echo/infer", head + text + half.tobytes(),
        {"Inference-Header-Content-Length": str(len(head))})
    assert status == 200, body
    meta, binary = split_binary(headers, body)
    assert [o["parameters"]["binary_data_size"] for o in meta["outputs"]] == [len(text), 4]
    assert binary == text + half.tobytes()
