"""`bough serve` under concurrent requests, limits and signals: a slow model does not hold up
another model, a model with every session busy turns extra requests away, a run past the
time limit is stopped, SIGTERM lets the requests in flight finish; one model file; a bad
repository is refused at start."""
import os
import signal
import socket
import subprocess
import threading
import time

import pytest

from conftest import BOUGH, Server, save, slow_model, wait_for
from test_rest import A, B, json_input

ADD_REQUEST = {"inputs": [json_input("a", A), json_input("b", B)]}


def slow_request(n):
    return {"inputs": [{"name": "n", "shape": [], "datatype": "INT64", "data": [n]}]}


@pytest.fixture(scope="module")
def slow_n(server):
    """A trip count that keeps the slow model busy for about a second on this machine."""
    n = 100000
    start = time.monotonic()
    status, body = server.infer("slow", slow_request(n))
    assert status == 200 and body["outputs"][0]["data"] == [float(n)]
    elapsed = max(time.monotonic() - start, 1e-3)
    return min(int(n * 1.0 / elapsed), 1 << 24)  # the count stays exact in float32


class InFlight(threading.Thread):
    """One request on its own thread; .result is (status, body) once done."""

    def __init__(self, server, model, request):
        super().__init__(daemon=True)
        self.server, self.model, self.request, self.result = server, model, request, None
        self.start()

    def run(self):
        self.result = self.server.infer(self.model, self.request)


def test_slow_model_does_not_block_another(server, slow_n):
    slow = [InFlight(server, "slow", slow_request(slow_n)) for _ in range(2)]
    time.sleep(0.2)
    status, _ = server.infer("add", ADD_REQUEST)
    assert status == 200
    still_running = [t.is_alive() for t in slow]
    for t in slow:
        t.join(60)
    assert still_running == [True, True]  # add answered while both slow runs were going
    for t in slow:
        assert t.result == (200, t.result[1])
        assert t.result[1]["outputs"][0]["data"] == [float(slow_n)]


def test_busy_model_turns_extra_requests_away(repository, slow_n):
    s = Server("--model-repository", repository, "--max-waiting", "0")
    try:
        slow = [InFlight(s, "slow", slow_request(slow_n)) for _ in range(2)]  # both instances
        time.sleep(0.3)
        status, body = s.infer("slow", slow_request(1))
        assert status == 503 and "busy" in body["error"]
        assert s.infer("add", ADD_REQUEST)[0] == 200
        for t in slow:
            t.join(60)
            assert t.result[0] == 200
    finally:
        s.stop()


def test_run_past_the_time_limit_is_stopped(repository, slow_n):
    s = Server("--model-repository", repository, "--time-limit", "0.1")
    try:
        status, body = s.infer("slow", slow_request(slow_n * 20))
        assert status == 503, body
        assert "time limit" in body["error"]
        assert s.infer("slow", slow_request(5))[1]["outputs"][0]["data"] == [5.0]
    finally:
        s.stop()


def test_sigterm_finishes_requests_in_flight(repository, slow_n):
    s = Server("--model-repository", repository)
    try:
        slow = InFlight(s, "slow", slow_request(slow_n))
        time.sleep(0.3)
        s.proc.send_signal(signal.SIGTERM)
        slow.join(60)
        assert slow.result[0] == 200
        assert slow.result[1]["outputs"][0]["data"] == [float(slow_n)]
        assert s.proc.wait(timeout=30) == 0
        assert "SIGTERM: finishing the requests in progress" in s.proc.stdout.read()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", s.port), timeout=5).close()
    finally:
        s.stop()


def test_sigint_stops_an_idle_server(repository):
    s = Server("--model-repository", repository)
    s.proc.send_signal(signal.SIGINT)
    assert s.proc.wait(timeout=30) == 0
    s.stop()


def test_one_model_file_is_served_under_its_stem(repository):
    s = Server(repository / "add" / "2" / "model.onnx")
    try:
        status, body = s.get_json("/v2/models/model")
        assert status == 200 and body["versions"] == ["1"]
        status, body = s.infer("model", ADD_REQUEST)
        assert status == 200
    finally:
        s.stop()


@pytest.mark.parametrize("layout,expect", [
    ({"m/notes/model.onnx": "model"}, "has no version folder"),
    ({"m/1/readme.txt": ""}, "holds neither model.onnx nor model.xml"),
    ({"m/1/model.onnx": "model", "m/config.json": '{"instance": 2}'}, "unknown key \"instance\""),
    ({"m/1/model.onnx": "model", "m/config.json": '{"threads": 0}'}, "from 1 to 1024"),
    ({"m/1/model.onnx": "model", "m/config.json": '{"max_batch_size": -1}'},
     "\"max_batch_size\" must be a whole number from 0 to 1048576, got -1"),
    ({"m/1/model.onnx": "model", "m/config.json": '{"batch_delay_us": 0.5}'},
     "\"batch_delay_us\" must be a whole number from 0 to 10000000, got 0.5"),
    # Fails while loading, after the port is open: the listener must still stop.
    ({"m/1/model.onnx": "not a model"}, "model.onnx"),
])
def test_bad_repository_is_refused_at_start(tmp_path, layout, expect):
    for path, text in layout.items():
        full = tmp_path / path
        if text == "model":
            save(slow_model(), str(full))
        else:
            os.makedirs(full.parent, exist_ok=True)
            full.write_text(text)
    done = subprocess.run([BOUGH, "serve", "--http-port", "0", "--grpc-port", "0",
                           "--metrics-port", "-1", "--model-repository", tmp_path],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert expect in done.stderr
