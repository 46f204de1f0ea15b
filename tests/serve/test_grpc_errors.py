"""Bad calls to `bough serve` over gRPC get the status code KServe's servers give (INVALID_ARGUMENT,
NOT_FOUND, UNAVAILABLE, RESOURCE_EXHAUSTED) with the same message as REST, and the server stays
up; the gRPC side shares REST's limits, session pools and graceful shutdown."""
import signal
import socket
import subprocess
import threading
import time

import grpc
import numpy as np
import pytest

import prometheus_text
from conftest import BOUGH, Server, wait_for
from grpc_client import connect, infer_request, pb, raw_bytes, raw_input, typed_input
from test_grpc import add_raw, add_typed, typed_request
from test_metrics import scrape
from test_rest import A, B

# Trips of the slow model that keep a session busy for half a second or more on the 2-core
# machine: the most its float32 count holds exactly.
SLOW_N = 1 << 24
INVALID = grpc.StatusCode.INVALID_ARGUMENT
NOT_FOUND = grpc.StatusCode.NOT_FOUND
UNAVAILABLE = grpc.StatusCode.UNAVAILABLE


@pytest.fixture(scope="module")
def stub(server):
    stub, channel = connect(server)
    yield stub
    channel.close()


def refused(call, request, code, expect):
    with pytest.raises(grpc.RpcError) as error:
        call(request, timeout=60)
    assert error.value.code() == code, error.value.details()
    assert expect in error.value.details(), error.value.details()


def test_unknown_model_or_version(stub):
    refused(stub.ModelReady, pb.ModelReadyRequest(name="nothing"), NOT_FOUND,
            "unknown model 'nothing'")
    refused(stub.ModelReady, pb.ModelReadyRequest(name="add", version="1"), NOT_FOUND,
            "has no version '1' loaded (loaded: 2)")
    refused(stub.ModelMetadata, pb.ModelMetadataRequest(name="nothing"), NOT_FOUND,
            "unknown model 'nothing'")
    unknown = add_typed()
    unknown.model_name = "nothing"
    refused(stub.ModelInfer, unknown, NOT_FOUND, "unknown model 'nothing'")
    refused(stub.ModelInfer, add_typed(model_version="1"), NOT_FOUND, "has no version '1'")


def with_inputs(*inputs, raw=None, **fields):
    return lambda: infer_request("add", list(inputs), raw=raw, **fields)


GOOD_A = typed_input("a", "FP32", A)
GOOD_B = typed_input("b", "FP32", B)


def parameter(request, **value):
    request.parameters["binary_data_output"].CopyFrom(pb.InferParameter(**value))
    return request


@pytest.mark.parametrize("make,expect", [
    (with_inputs(GOOD_A), "input 'b' is missing"),
    (with_inputs(GOOD_A, GOOD_B, typed_input("c", "FP32", A)), "input 'c': model 'add' has no such input"),
    (with_inputs(GOOD_A, GOOD_A, GOOD_B), "input 'a' is given twice"),
    (with_inputs(typed_input("a", "INT32", np.zeros((2, 3), np.int32)), GOOD_B),
     "input 'a': datatype INT32, the model takes FP32"),
    (with_inputs(raw_input("a", "FLOAT", [2, 3]), GOOD_B), "input 'a': unknown datatype \"FLOAT\""),
    (with_inputs(typed_input("a", "FP32", np.zeros((2, 4), np.float32)), GOOD_B),
     "input 'a': shape [2,4], the model takes [-1,3]"),
    (with_inputs(typed_input("a", "FP32", np.zeros(6, np.float32)), GOOD_B), "the model takes [-1,3]"),
    (with_inputs(typed_input("a", "FP32", [1.0] * 6, shape=[-2, 3]), GOOD_B), "below 0"),
    (with_inputs(typed_input("a", "FP32", [1.0], shape=[2**40, 2**40]), GOOD_B), "more than 2^40"),
    (with_inputs(typed_input("a", "FP32", [1.0] * 5, shape=[2, 3]), GOOD_B),
     "input 'a': 5 data elements, its shape has 6"),
    (with_inputs(typed_input("a", "FP64", [1.0] * 6, shape=[2, 3]), GOOD_B),
     "datatype FP64, the model takes FP32"),
    (lambda: with_field(typed_input("a", "FP32", A), "fp64_contents", [1.0] * 6),
     "input 'a': datatype FP32 takes fp32_contents, the request gives fp64_contents"),
    (with_inputs(raw_input("a", "FP32", [2, 3]), raw_input("b", "FP32", [2, 3]),
                 raw=[b"\0" * 20, raw_bytes(B, "FP32")]),
     "input 'a': 20 bytes of binary data, its shape and datatype take 24"),
    (with_inputs(raw_input("a", "FP32", [2, 3]), raw_input("b", "FP32", [2, 3]),
                 raw=[raw_bytes(A, "FP32")]),
     "the request has 1 raw_input_contents for 2 inputs"),
    (with_inputs(raw_input("a", "FP32", [2, 3]), GOOD_B,
                 raw=[raw_bytes(A, "FP32"), raw_bytes(B, "FP32")]),
     "input 'b' has typed contents, and the request has raw_input_contents"),
    (with_inputs(GOOD_A, GOOD_B, outputs=["nope"]), "output 'nope': model 'add' has no such output"),
    (with_inputs(GOOD_A, GOOD_B, outputs=["sum", "sum"]), "output 'sum' is asked for twice"),
    (lambda: parameter(add_typed(), string_param="yes"),
     "parameter \"binary_data_output\" must be a bool_param"),
])
def test_bad_add_requests(stub, make, expect):
    refused(stub.ModelInfer, make(), INVALID, expect)


def with_field(tensor, field, values):
    getattr(tensor.contents, field).extend(values)
    return infer_request("add", [tensor, GOOD_B])


def echo_raw(**override):
    """A raw request to the echo model, with some inputs' (datatype, shape, bytes) replaced."""
    specs = {"i64": ("INT64", [1], raw_bytes([7], "INT64")),
             "flag": ("BOOL", [2], bytes([1, 0])),
             "text": ("BYTES", [1], raw_bytes([b"x"], "BYTES")),
             "half": ("FP16", [1], raw_bytes([1.5], "FP16")),
             "u8": ("UINT8", [1], b"\x07"),
             "f64": ("FP64", [1], raw_bytes([0.5], "FP64"))}
    specs.update(override)
    return infer_request("echo", [raw_input(n, t, s) for n, (t, s, _) in specs.items()],
                         raw=[data for _, _, data in specs.values()])


def test_bad_values_and_raw_data(stub):
    refused(stub.ModelInfer, typed_request(u8=[256]), INVALID,
            "input 'u8': 256 is not a value of datatype UINT8")
    refused(stub.ModelInfer, typed_request(i8=[200]), INVALID,
            "input 'i8': 200 is not a value of datatype INT8")
    refused(stub.ModelInfer, typed_request(i16=[-40000]), INVALID,
            "input 'i16': -40000 is not a value of datatype INT16")
    refused(stub.ModelInfer, typed_request(u16=[70000]), INVALID,
            "input 'u16': 70000 is not a value of datatype UINT16")
    # FP16 has no typed field: it must come raw.
    typed_half = infer_request("echo", [typed_input("half", "FP32", [1.0])])
    typed_half.inputs[0].datatype = "FP16"
    refused(stub.ModelInfer, typed_half, INVALID,
            "input 'half': datatype FP16 has no field in typed contents; send it in raw_input_contents")
    refused(stub.ModelInfer, echo_raw(flag=("BOOL", [2], bytes([1, 2]))), INVALID,
            "input 'flag': BOOL binary data holds a byte other than 0 and 1")
    refused(stub.ModelInfer, echo_raw(text=("BYTES", [2], raw_bytes([b"x"], "BYTES") + b"\x05\0\0\0ab")),
            INVALID, "input 'text': its BYTES binary data ends inside element 1")
    refused(stub.ModelInfer, echo_raw(half=("FP16", [2], b"\0\0\0")), INVALID,
            "input 'half': 3 bytes of binary data, its shape and datatype take 4")
    # The good request those were made from.
    response = stub.ModelInfer(echo_raw(), timeout=60)
    assert response.raw_output_contents[3] == raw_bytes([1.5], "FP16")


def test_message_over_the_limit(stub):
    # The fixture's server takes messages of at most 1 MiB.
    big = np.zeros((100000, 3), np.float32)  # 1.2 MB
    request = infer_request("add", [raw_input("a", "FP32", [100000, 3]), raw_input("b", "FP32", [100000, 3])],
                            raw=[big.tobytes(), big.tobytes()])
    refused(stub.ModelInfer, request, grpc.StatusCode.RESOURCE_EXHAUSTED, "larger than max")
    # The server stays up and answers the next call on the same channel.
    assert stub.ServerLive(pb.ServerLiveRequest(), timeout=30).live
    assert stub.ModelInfer(add_raw(), timeout=60).raw_output_contents


def slow(n):
    return infer_request("slow", [typed_input("n", "INT64", [n], shape=[])])


# Trips of the slow model that take minutes: a run the server did not stop would hold its
# session, and SIGTERM's wait, far past the seconds the tests below allow.
ENDLESS_N = 1 << 34


@pytest.fixture
def fresh(repository):
    """A server of its own, stopped by the test: its slow model has run nothing yet, so its runs
    go to workers (docs/serve.md, Concurrency), where a cancelled call's run is stopped."""
    s = Server("--model-repository", repository)
    yield s
    s.stop()


def slow_failures(server):
    return prometheus_text.value(scrape(server.metrics_port), "bough_inference_request_failure",
                                 model="slow", version="1")


def assert_runs_stopped(server, stub, stopped):
    # A stopped run counts its request as failed at once; one left going would count only at
    # its end, minutes later. Then both sessions serve again, and SIGTERM, which waits for the
    # runs in progress, finds none.
    assert wait_for(lambda: slow_failures(server) == stopped)
    calls = [stub.ModelInfer.future(slow(1), timeout=10) for _ in range(2)]
    assert [c.result().outputs[0].contents.fp32_contents[0] for c in calls] == [1.0, 1.0]
    server.stop()
    assert server.proc.returncode == 0


def test_client_deadline_and_cancel_stop_their_runs(fresh):
    stub, channel = connect(fresh)
    with pytest.raises(grpc.RpcError) as error:
        stub.ModelInfer(slow(ENDLESS_N), timeout=0.2)
    assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    future = stub.ModelInfer.future(slow(ENDLESS_N), timeout=60)
    time.sleep(0.2)
    future.cancel()
    assert stub.ModelInfer(add_typed(), timeout=60).outputs
    assert_runs_stopped(fresh, stub, 2)
    channel.close()


def test_client_that_disconnects_stops_its_runs(fresh):
    gone, gone_channel = connect(fresh)
    futures = [gone.ModelInfer.future(slow(ENDLESS_N), timeout=120) for _ in range(2)]
    time.sleep(0.3)
    gone_channel.close()  # the connection closes with both runs going
    for f in futures:
        assert f.exception() is not None
    stub, channel = connect(fresh)
    assert_runs_stopped(fresh, stub, 2)
    channel.close()


def slow_call(stub, n, results, timeout=120):
    """Runs a ModelInfer of the slow model on its own thread; results gets (code, count)."""
    def run():
        try:
            response = stub.ModelInfer(slow(n), timeout=timeout)
            results.append((grpc.StatusCode.OK, response.outputs[0].contents.fp32_contents[0]))
        except grpc.RpcError as e:
            results.append((e.code(), e.details()))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_slow_model_does_not_block_another(stub):
    # Four slow calls: two run on the slow model's two sessions and two wait for one. None of
    # them holds gRPC's event threads (two on this machine), so calls to another model and
    # ServerLive are answered meanwhile.
    results = []
    threads = [slow_call(stub, SLOW_N, results) for _ in range(4)]
    time.sleep(0.15)
    assert stub.ModelInfer(add_typed(), timeout=60).outputs
    assert stub.ServerLive(pb.ServerLiveRequest(), timeout=30).live
    still_running = [t.is_alive() for t in threads]
    for t in threads:
        t.join(120)
    assert still_running == [True] * 4
    assert results == [(grpc.StatusCode.OK, float(SLOW_N))] * 4


def test_busy_model_is_unavailable(repository):
    s = Server("--model-repository", repository, "--max-waiting", "0")
    try:
        stub, channel = connect(s)
        results = []
        threads = [slow_call(stub, SLOW_N, results) for _ in range(2)]  # both instances
        time.sleep(0.15)
        refused(stub.ModelInfer, slow(1), UNAVAILABLE, "model 'slow' is busy")
        assert stub.ModelInfer(add_typed(), timeout=60).outputs  # another model answers
        for t in threads:
            t.join(120)
        assert results == [(grpc.StatusCode.OK, float(SLOW_N))] * 2
        channel.close()
    finally:
        s.stop()


def test_run_past_the_time_limit_is_unavailable(repository):
    s = Server("--model-repository", repository, "--time-limit", "0.1")
    try:
        stub, channel = connect(s)
        refused(stub.ModelInfer, slow(1 << 30), UNAVAILABLE, "time limit")
        assert stub.ModelInfer(slow(5), timeout=60).outputs[0].contents.fp32_contents[0] == 5.0
        channel.close()
    finally:
        s.stop()


def test_sigterm_finishes_grpc_calls_in_flight(repository):
    s = Server("--model-repository", repository)
    try:
        stub, channel = connect(s)
        results = []
        thread = slow_call(stub, SLOW_N, results)
        time.sleep(0.15)
        s.proc.send_signal(signal.SIGTERM)
        thread.join(120)
        assert results == [(grpc.StatusCode.OK, float(SLOW_N))]
        assert s.proc.wait(timeout=30) == 0
        channel.close()
        # The port is closed: a new connection is refused.
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", s.grpc_port), timeout=5).close()
    finally:
        s.stop()


def test_grpc_off_and_port_in_use(repository, server):
    s = Server("--model-repository", repository, "--grpc-port", "-1")
    try:
        assert s.grpc_port is None
        assert not any("grpc://" in line for line in s.lines)
    finally:
        s.stop()
    # gRPC would share a port with SO_REUSEPORT; bough's server must not.
    done = subprocess.run([BOUGH, "serve", "--http-port", "0", "--grpc-port", str(server.grpc_port),
                           "--metrics-port", "-1", "--model-repository", repository],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"127.0.0.1:{server.grpc_port}: cannot listen there for gRPC" in done.stderr


def test_calls_past_grpc_threads_are_resource_exhausted(repository):
    # --grpc-threads 2: two slow calls in progress fill it, and a third ModelInfer while they
    # run is refused, not queued; calls that answer at once (ServerLive) never are.
    s = Server("--model-repository", repository, "--grpc-threads", "2")
    try:
        stub, channel = connect(s)
        assert stub.ServerLive(pb.ServerLiveRequest(), timeout=30).live  # connected
        results = []
        threads = [slow_call(stub, SLOW_N, results) for _ in range(2)]
        time.sleep(0.15)
        refused(stub.ModelInfer, add_typed(), grpc.StatusCode.RESOURCE_EXHAUSTED,
                "the server has 2 calls in progress (--grpc-threads)")
        assert stub.ServerLive(pb.ServerLiveRequest(), timeout=30).live
        still_running = [t.is_alive() for t in threads]
        for t in threads:
            t.join(120)
        assert still_running == [True, True]
        assert results == [(grpc.StatusCode.OK, float(SLOW_N))] * 2
        assert stub.ModelInfer(add_typed(), timeout=60).outputs  # room again
        channel.close()
    finally:
        s.stop()
