"""Bad requests to `bough serve` get the protocol's {"error": ...} with the right status, and
the server stays up: malformed JSON, unknown or missing inputs, wrong datatype or shape, data
of the wrong count or kind, truncated binary data, unknown model or output, a body over the
limit, a compressed body, a client that goes away."""
import json
import socket

import numpy as np
import pytest

from test_rest import A, B, json_input

GOOD_B = json_input("b", B)


def bad(server, model, body, status=400, headers=None, expect=""):
    code, _, raw = server.request("POST", f"/v2/models/{model}/infer", body, headers)
    assert code == status, raw
    message = json.loads(raw)["error"]
    assert expect in message, message
    return message


@pytest.mark.parametrize("body,expect", [
    (b"{\"inputs\": [", "not a JSON object"),
    (b"[1, 2]", "not a JSON object"),
    (b"", "not a JSON object"),
    ({"inputs": {}}, "no \"inputs\" array"),
    ({"inputs": [json_input("a", A)]}, "input 'b' is missing"),
    ({"inputs": [json_input("a", A), GOOD_B, json_input("c", A)]}, "has no such input"),
    ({"inputs": [json_input("a", A), json_input("a", A), GOOD_B]}, "given twice"),
    ({"inputs": [json_input("a", np.zeros((2, 3), np.int32), "INT32"), GOOD_B]},
     "datatype INT32, the model takes FP32"),
    ({"inputs": [json_input("a", A, "FLOAT"), GOOD_B]}, "unknown datatype \"FLOAT\""),
    ({"inputs": [json_input("a", np.zeros((2, 4), np.float32)), GOOD_B]},
     "shape [2,4], the model takes [-1,3]"),
    ({"inputs": [json_input("a", np.zeros(6, np.float32)), GOOD_B]}, "the model takes [-1,3]"),
    ({"inputs": [dict(json_input("a", A), data=[1.0] * 5), GOOD_B]}, "5 data elements, its shape has 6"),
    ({"inputs": [dict(json_input("a", A), data=[1, 2, 3, "x", 5, 6]), GOOD_B]}, "\"x\" is not a value of datatype FP32"),
    ({"inputs": [dict(json_input("a", A), shape=[-2, 3]), GOOD_B]}, "below 0"),
    ({"inputs": [dict(json_input("a", A), shape=[2**40, 2**40]), GOOD_B]}, "more than 2^40"),
    ({"inputs": [dict(json_input("a", A), shape="2x3"), GOOD_B]}, "\"shape\" must be"),
    ({"inputs": [json_input("a", A), GOOD_B], "outputs": [{"name": "nope"}]},
     "output 'nope': model 'add' has no such output"),
    ({"inputs": [json_input("a", A), GOOD_B], "id": 5}, "\"id\" must be a string"),
])
def test_bad_json_requests(server, body, expect):
    bad(server, "add", body, expect=expect)


def test_integer_out_of_range_and_bool_kinds(server):
    from conftest import ECHO_TYPES  # noqa: F401  (the echo model's inputs)
    from test_rest import echo_request
    bad(server, "echo", echo_request(u8={"shape": [1], "datatype": "UINT8", "data": [256]}),
        expect="256 is not a value of datatype UINT8")
    bad(server, "echo", echo_request(i64={"shape": [1], "datatype": "INT64", "data": [1.5]}),
        expect="1.5 is not a value of datatype INT64")
    bad(server, "echo", echo_request(flag={"shape": [1], "datatype": "BOOL", "data": [1]}),
        expect="1 is not a value of datatype BOOL")


def binary_request(server, declared, sent, header_length=None):
    head = json.dumps({"inputs": [
        {"name": "a", "shape": [2, 3], "datatype": "FP32",
         "parameters": {"binary_data_size": declared}}, GOOD_B]}).encode()
    length = len(head) if header_length is None else header_length
    return head + A.tobytes()[:sent], {"Inference-Header-Content-Length": str(length)}


def test_truncated_and_oversized_binary_data(server):
    body, headers = binary_request(server, 24, 20)
    bad(server, "add", body, headers=headers, expect="run past the end of the body")
    body, headers = binary_request(server, 20, 20)
    bad(server, "add", body, headers=headers, expect="20 bytes of binary data, its shape and datatype take 24")
    body, headers = binary_request(server, 24, 24)
    bad(server, "add", body + b"xx", headers=headers, expect="2 bytes after the JSON header")
    body, headers = binary_request(server, 24, 24, header_length=10**6)
    bad(server, "add", body, headers=headers, expect="the body has only")
    body, headers = binary_request(server, 24, 24)
    bad(server, "add", body, headers={"Inference-Header-Content-Length": "12x"}, expect="whole number")
    head = json.dumps({"inputs": [
        {"name": "a", "shape": [2, 3], "datatype": "FP32", "parameters": {"binary_data_size": 24}},
        GOOD_B]}).encode()
    bad(server, "add", head + A.tobytes(), expect="needs the Inference-Header-Content-Length")


def test_unknown_model_and_endpoint(server):
    bad(server, "nothing", {"inputs": []}, status=404, expect="unknown model 'nothing'")
    code, _, raw = server.request("GET", "/v3/anything")
    assert code == 404 and "no endpoint GET /v3/anything" in json.loads(raw)["error"]


def test_body_over_the_limit_gets_413(server):
    # The fixture's server takes at most 1 MiB.
    code, _, raw = server.request("POST", "/v2/models/add/infer", b"x" * (2 << 20))
    assert code == 413
    assert "larger than the server's limit" in json.loads(raw)["error"]


def test_compressed_body_is_refused(server):
    bad(server, "add", b"\x1f\x8b", status=415, headers={"Content-Encoding": "gzip"},
        expect="Content-Encoding 'gzip'")


def test_clients_that_go_away(server):
    # Mid-request: a body shorter than its Content-Length, then the connection closes.
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(b"POST /v2/models/add/infer HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"in")
    # Mid-response: a large output asked for, the connection closed before reading it.
    big = np.ones((20000, 3), np.float32)
    head = json.dumps({"inputs": [
        {"name": n, "shape": [20000, 3], "datatype": "FP32",
         "parameters": {"binary_data_size": big.nbytes}} for n in ("a", "b")]}).encode()
    request = (b"POST /v2/models/add/infer HTTP/1.1\r\nHost: x\r\n"
               b"Inference-Header-Content-Length: %d\r\nContent-Length: %d\r\n\r\n"
               % (len(head), len(head) + 2 * big.nbytes)) + head + big.tobytes() * 2
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            s.sendall(request)
            s.recv(10)
    assert server.request("GET", "/v2/health/live")[0] == 200
    assert server.infer("add", {"inputs": [json_input("a", A), GOOD_B]})[0] == 200
    assert server.proc.poll() is None
