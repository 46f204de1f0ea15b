"""`bough serve --metrics-port`: GET /metrics in Prometheus' text format, read strictly
(prometheus_text.py), scraped with http.client before and after known requests: the counts
move by exactly the requests made, per model, over REST and gRPC."""
import http.client
import subprocess

import grpc
import pytest

import prometheus_text
from conftest import BOUGH, Server, binary_model, save
from grpc_client import connect, pb
from test_grpc import add_raw, add_typed
from test_rest import A, B, json_input

ADD = {"inputs": [json_input("a", A), json_input("b", B)]}
WRONG_TYPE = {"inputs": [json_input("a", A, "FP64"), json_input("b", B)]}
MODELS = ("add", "echo", "slow", "typed")
COUNTERS = ("bough_inference_request_success", "bough_inference_request_failure",
            "bough_inference_exec_count",
            "bough_inference_request_duration_us", "bough_inference_queue_duration_us",
            "bough_inference_compute_infer_duration_us")
HISTOGRAMS = ("bough_inference_queue_histogram_us", "bough_inference_compute_infer_histogram_us")


def scrape(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/metrics")
        res = conn.getresponse()
        body = res.read().decode()
        assert res.status == 200
        assert res.getheader("Content-Type").startswith("text/plain; version=0.0.4")
        return prometheus_text.parse(body)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def own_server(repository):
    """A server of its own, so that no other test's requests move its counts."""
    s = Server("--model-repository", repository)
    yield s
    s.stop()


def labels(model, version):
    return {"model": model, "version": version}


def test_every_family_and_model_starts_at_zero(own_server):
    page = scrape(own_server.metrics_port)
    for family in COUNTERS:
        assert page[family]["type"] == "counter" and page[family]["help"]
        for model in MODELS:
            assert prometheus_text.value(page, family, **labels(model, "2" if model == "add"
                                                                   else "1")) == 0
    for family in HISTOGRAMS:
        assert page[family]["type"] == "histogram"
        buckets = [l["le"] for n, l, _ in page[family]["samples"]
                   if n == family + "_bucket" and l["model"] == "add"]
        assert buckets[-1] == "+Inf" and len(buckets) == 15


def test_counts_move_exactly(own_server):
    add = labels("add", "2")
    before = scrape(own_server.metrics_port)
    stub, channel = connect(own_server)
    try:
        for _ in range(3):
            assert own_server.infer("add", ADD)[0] == 200
        stub.ModelInfer(add_typed(), timeout=60)
        stub.ModelInfer(add_raw(), timeout=60)
        assert own_server.infer("add", WRONG_TYPE)[0] == 400
        with pytest.raises(grpc.RpcError):  # b missing
            stub.ModelInfer(pb.ModelInferRequest(model_name="add", inputs=add_typed().inputs[:1]),
                            timeout=60)
        # Requests that name no model loaded are counted nowhere.
        assert own_server.infer("nothing", ADD)[0] == 404
        assert own_server.infer("add/versions/1", ADD)[0] == 404
    finally:
        channel.close()
    after = scrape(own_server.metrics_port)

    def moved(family, sample=None, **extra):
        return (prometheus_text.value(after, family, sample, **add, **extra) -
                prometheus_text.value(before, family, sample, **add, **extra))

    assert moved("bough_inference_request_success") == 5
    assert moved("bough_inference_request_failure") == 2
    # Unbatched, one run per request that reached a session (the two failures did not).
    assert moved("bough_inference_exec_count") == 5
    for family in HISTOGRAMS:
        assert moved(family, family + "_count") == 5
        assert moved(family, family + "_bucket", le="+Inf") == 5
    # Each histogram's sum is its counter's total, and a request's time holds its queue and
    # compute times.
    queue = moved("bough_inference_queue_duration_us")
    compute = moved("bough_inference_compute_infer_duration_us")
    assert moved("bough_inference_queue_histogram_us", "bough_inference_queue_histogram_us_sum") \
        == queue
    assert moved("bough_inference_compute_infer_histogram_us",
                 "bough_inference_compute_infer_histogram_us_sum") == compute
    assert moved("bough_inference_request_duration_us") >= queue + compute
    # Nothing reached the other models.
    for model in ("echo", "slow", "typed"):
        for family in COUNTERS:
            assert prometheus_text.value(after, family, **labels(model, "1")) == \
                prometheus_text.value(before, family, **labels(model, "1"))


def test_label_values_are_escaped(tmp_path):
    name = 'we"ird\\name'
    save(binary_model("Add", "odd"), str(tmp_path / name / "1" / "model.onnx"))
    s = Server("--model-repository", tmp_path)
    try:
        page = scrape(s.metrics_port)
        assert prometheus_text.value(page, "bough_inference_request_success",
                                     **labels(name, "1")) == 0
    finally:
        s.stop()


def test_metrics_off_and_port_in_use(repository, own_server):
    s = Server("--model-repository", repository, "--metrics-port", "-1")
    try:
        assert s.metrics_port is None
        assert not any("metrics" in line for line in s.lines)
    finally:
        s.stop()
    # httplib would share a port in use through SO_REUSEPORT; bough's servers must not.
    for flag, port in (("--metrics-port", own_server.metrics_port),
                       ("--http-port", own_server.port)):
        ports = {"--http-port": "0", "--metrics-port": "0", flag: str(port)}
        done = subprocess.run([BOUGH, "serve", "--grpc-port", "-1", *sum(ports.items(), ()),
                               "--model-repository", repository],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode != 0
        assert f"127.0.0.1:{port}: cannot listen there" in done.stderr


def test_parser_refuses_what_the_format_forbids():
    good = "# HELP x_total a\n# TYPE x_total counter\nx_total{a=\"1\"} 3\n"
    assert prometheus_text.parse(good)["x_total"]["samples"] == [("x_total", {"a": "1"}, 3.0)]
    for bad in ("x 1",  # no newline at the end
                "x{a=1} 1\n",  # unquoted label value
                "x{a=\"1\"} one\n",
                "# TYPE x counter\nx 1\n# TYPE x counter\n",
                "# TYPE x counter\nx 1\n# TYPE y counter\ny 1\nx 2\n",  # x not together
                "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                "h_sum 1\nh_count 1\n",  # not cumulative
                "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"):  # no +Inf
        with pytest.raises(ValueError):
            prometheus_text.parse(bad)
