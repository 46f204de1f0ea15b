"""Triton's model repository extension on `bough serve`: POST /v2/repository/index, and
.../models/NAME/load and /unload while the server runs; per-model readiness (REST and gRPC)
and metrics follow them; a model that fails to load leaves the others serving; requests in
flight on a model being unloaded finish first."""
import json
import shutil
import time

import numpy as np
import pytest

import prometheus_text
from conftest import Server, binary_model, save
from grpc_client import connect, pb
from test_lifecycle import ADD_REQUEST, InFlight, slow_n, slow_request  # noqa: F401
from test_metrics import scrape
from test_rest import A, B


@pytest.fixture(scope="module")
def ctl(repo):
    s = Server("--model-repository", repo)
    yield s
    s.stop()


def post(server, path, body=None):
    status, _, data = server.request("POST", path, body if body is not None else b"")
    return status, json.loads(data) if data else None


def index(server, **body):
    status, entries = post(server, "/v2/repository/index", body)
    assert status == 200
    return {e["name"]: e for e in entries}


def test_index_lists_every_model(ctl):
    entries = index(ctl)
    assert entries == {
        "add": {"name": "add", "version": "2", "state": "READY", "reason": ""},
        "echo": {"name": "echo", "version": "1", "state": "READY", "reason": ""},
        "slow": {"name": "slow", "version": "1", "state": "READY", "reason": ""},
        "typed": {"name": "typed", "version": "1", "state": "READY", "reason": ""},
    }
    assert index(ctl, ready=True) == entries
    status, body = ctl.get_json("/v2")
    assert "model_repository" in body["extensions"]


def test_unload_then_load(ctl):
    assert post(ctl, "/v2/repository/models/add/unload") == (200, None)
    assert index(ctl)["add"] == {"name": "add", "state": "UNAVAILABLE", "reason": "unloaded"}
    assert "add" not in index(ctl, ready=True)
    status, _, body = ctl.request("GET", "/v2/models/add/ready")
    assert status == 400 and "not ready: unloaded" in json.loads(body)["error"]
    status, body = ctl.infer("add", ADD_REQUEST)
    assert status == 404 and body["error"] == "model 'add' is not loaded: unloaded"
    stub, channel = connect(ctl)
    assert not stub.ModelReady(pb.ModelReadyRequest(name="add"), timeout=30).ready
    page = scrape(ctl.metrics_port)
    assert all(l["model"] != "add" for _, l, _ in
               page["bough_inference_request_success"]["samples"])
    assert ctl.request("GET", "/v2/models/echo/ready")[0] == 200  # the others go on
    assert ctl.request("GET", "/v2/health/ready")[0] == 200
    assert post(ctl, "/v2/repository/models/add/unload") == (200, None)  # again: nothing to do

    assert post(ctl, "/v2/repository/models/add/load") == (200, None)
    assert ctl.request("GET", "/v2/models/add/ready")[0] == 200
    assert stub.ModelReady(pb.ModelReadyRequest(name="add"), timeout=30).ready
    channel.close()
    status, body = ctl.infer("add", ADD_REQUEST)
    assert status == 200
    got = np.array(body["outputs"][0]["data"], np.float32).reshape(A.shape)
    np.testing.assert_array_equal(got, A + B)
    assert prometheus_text.value(scrape(ctl.metrics_port), "bough_inference_request_success",
                                 model="add", version="2") == 1  # a fresh model, fresh counts


def test_load_picks_up_new_models_and_versions(ctl, repo):
    save(binary_model("Add", "late"), str(repo / "late" / "1" / "model.onnx"))
    assert index(ctl)["late"] == {"name": "late", "state": "UNAVAILABLE", "reason": "not loaded"}
    assert ctl.infer("late", ADD_REQUEST)[0] == 404
    assert post(ctl, "/v2/repository/models/late/load") == (200, None)
    status, body = ctl.infer("late", ADD_REQUEST)
    assert status == 200 and body["model_version"] == "1"
    # A newer version, Sub in place of Add: loading again serves it.
    save(binary_model("Sub", "late_v3"), str(repo / "late" / "3" / "model.onnx"))
    assert post(ctl, "/v2/repository/models/late/load") == (200, None)
    status, body = ctl.infer("late", ADD_REQUEST)
    assert status == 200 and body["model_version"] == "3"
    got = np.array(body["outputs"][0]["data"], np.float32).reshape(A.shape)
    np.testing.assert_array_equal(got, A - B)


def test_a_model_that_fails_to_load_leaves_the_others_serving(ctl, repo):
    (repo / "broken" / "1").mkdir(parents=True)
    (repo / "broken" / "1" / "model.onnx").write_bytes(b"\x08\x07not a model at all")
    status, body = post(ctl, "/v2/repository/models/broken/load")
    assert status == 400
    assert body["error"].startswith("model 'broken' failed to load: ")
    assert "model.onnx" in body["error"]
    entry = index(ctl)["broken"]
    assert entry["state"] == "UNAVAILABLE" and entry["reason"].startswith("failed to load: ")
    status, _, _ = ctl.request("GET", "/v2/models/broken/ready")
    assert status == 400
    assert ctl.infer("add", ADD_REQUEST)[0] == 200
    assert ctl.request("GET", "/v2/health/ready")[0] == 200
    # A loaded model whose new version fails keeps serving the old one.
    (repo / "add" / "9").mkdir()
    (repo / "add" / "9" / "model.onnx").write_bytes(b"garbage")
    try:
        assert post(ctl, "/v2/repository/models/add/load")[0] == 400
        assert index(ctl)["add"]["state"] == "READY"
        status, body = ctl.infer("add", ADD_REQUEST)
        assert status == 200 and body["model_version"] == "2"
    finally:
        shutil.rmtree(repo / "add" / "9")


@pytest.mark.parametrize("path,body,status,expect", [
    ("/v2/repository/models/nothing/load", None, 404, "no model 'nothing' in the model repository"),
    ("/v2/repository/models/nothing/unload", None, 404, "unknown model 'nothing'"),
    ("/v2/repository/models/.hidden/load", None, 404, "no model '.hidden'"),
    ("/v2/repository/models/add/load", b"{not json", 400, "must be a JSON object"),
    ("/v2/repository/models/add/load", {"parameters": {"config": "{}"}}, 400,
     "\"config\" parameter is not supported"),
    ("/v2/repository/models/add/load", {"parameters": {"file:1/model.onnx": "AAAA"}}, 400,
     "\"file:1/model.onnx\" parameter is not supported"),
    ("/v2/repository/models/add/load", {"parameters": 3}, 400, "must be an object"),
    ("/v2/repository/models/add/unload", {"params": {}}, 400, "unknown key \"params\""),
    ("/v2/repository/index", {"ready": "yes"}, 400, "\"ready\" must be true or false"),
])
def test_bad_repository_requests(ctl, path, body, status, expect):
    got, reply = post(ctl, path, body)
    assert got == status and expect in reply["error"], reply
    assert ctl.infer("add", ADD_REQUEST)[0] == 200


def test_unload_lets_requests_in_flight_finish(ctl, slow_n):
    start = time.monotonic()
    assert ctl.infer("slow", slow_request(slow_n))[0] == 200
    run = time.monotonic() - start
    slow = InFlight(ctl, "slow", slow_request(slow_n))
    time.sleep(run / 4)
    start = time.monotonic()
    assert post(ctl, "/v2/repository/models/slow/unload") == (200, None)
    # The unload waited for the run in flight (about 3/4 of `run` was left), and that run
    # succeeded. (Its response may reach the client just after the unload's.)
    assert time.monotonic() - start > run / 4
    slow.join(60)
    assert slow.result[0] == 200 and slow.result[1]["outputs"][0]["data"] == [float(slow_n)]
    assert ctl.infer("slow", slow_request(1))[0] == 404
    assert post(ctl, "/v2/repository/models/slow/load") == (200, None)
    assert ctl.infer("slow", slow_request(3))[1]["outputs"][0]["data"] == [3.0]


def test_single_model_file(repository):
    s = Server("--model-name", "adder", repository / "add" / "2" / "model.onnx")
    try:
        assert index(s) == {"adder": {"name": "adder", "version": "1", "state": "READY",
                                      "reason": ""}}
        assert post(s, "/v2/repository/models/adder/unload") == (200, None)
        assert s.infer("adder", ADD_REQUEST)[0] == 404
        assert post(s, "/v2/repository/models/adder/load") == (200, None)
        assert s.infer("adder", ADD_REQUEST)[0] == 200
        assert post(s, "/v2/repository/models/other/load")[0] == 404
    finally:
        s.stop()
