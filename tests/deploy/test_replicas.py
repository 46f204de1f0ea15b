"""Horizontal scaling on one machine: two `bough serve` replicas on free loopback ports behind
Debian's haproxy (round robin, health checks on /v2/health/ready), under a bounded load of
200 requests from 4 threads; every request succeeds with the right sum, and both replicas'
/metrics show they served some. Then one replica gets SIGTERM in the middle of the load and
still no request fails: it finishes the requests it accepted, and haproxy retries on the
other replica what it could not send there."""
import http.client
import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))
from conftest import Server, binary_model, save  # noqa: E402
import prometheus_text  # noqa: E402

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
THREADS, PER_THREAD = 4, 50

pytestmark = pytest.mark.skipif(not Path(HAPROXY).exists(),
                                reason="haproxy is not installed (scripts/setup installs it)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HAPROXY_CONFIG = """\
global
    maxconn 256
defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    # A request that could not reach a replica, or got nothing back from one that was
    # closing, is sent again, each time to another replica.
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response junk-response response-timeout 503
    # One request per connection to a replica, so that none waits on a connection the
    # replica is closing; each request read whole before it is sent on, so that haproxy
    # still holds it to send again.
    option http-server-close
    option http-buffer-request
frontend bough
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /v2/health/ready
    http-check expect status 200
{servers}
"""


class Balancer:
    def __init__(self, tmp_path, replica_ports):
        self.port = free_port()
        servers = "\n".join(f"    server r{i} 127.0.0.1:{p} check inter 100ms fall 1 rise 1"
                            for i, p in enumerate(replica_ports))
        config = tmp_path / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(port=self.port, servers=servers))
        subprocess.run([HAPROXY, "-c", "-q", "-f", str(config)], check=True, timeout=30)
        self.proc = subprocess.Popen([HAPROXY, "-db", "-q", "-f", str(config)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 20
        while True:
            try:
                if self.get("/v2/health/ready") == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < end and self.proc.poll() is None, "haproxy did not start"
            time.sleep(0.05)

    def get(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path)
            return conn.getresponse().status
        finally:
            conn.close()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()


def add_request(k):
    a = np.arange(3, dtype=np.float32).reshape(1, 3) + k
    b = np.full((1, 3), 0.5 * k, dtype=np.float32)
    body = {"inputs": [{"name": n, "shape": [1, 3], "datatype": "FP32", "data": v.ravel().tolist()}
                       for n, v in (("a", a), ("b", b))], "outputs": [{"name": "sum"}]}
    return json.dumps(body).encode(), a + b


def load(port, started=None):
    """THREADS threads send PER_THREAD requests each through `port`, on keep-alive
    connections; returns the failures (empty when all succeed with the right sums). `started`
    counts the requests answered."""
    failures, lock = [], threading.Lock()

    def client(t):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            for i in range(PER_THREAD):
                body, expect = add_request(t * PER_THREAD + i)
                try:
                    conn.request("POST", "/v2/models/add/infer", body,
                                 {"Content-Type": "application/json"})
                    res = conn.getresponse()
                    data = res.read()
                    got = json.loads(data)["outputs"][0]["data"] if res.status == 200 else None
                    ok = got is not None and np.array_equal(np.array(got, np.float32),
                                                            expect.ravel())
                    if not ok:
                        with lock:
                            failures.append((res.status, data[:200]))
                except (OSError, http.client.HTTPException) as e:
                    with lock:
                        failures.append(repr(e))
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                if started is not None:
                    started.release()
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(t,), daemon=True) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "the load did not end in time"
    return failures


def served(replica):
    conn = http.client.HTTPConnection("127.0.0.1", replica.metrics_port, timeout=30)
    try:
        conn.request("GET", "/metrics")
        page = prometheus_text.parse(conn.getresponse().read().decode())
    finally:
        conn.close()
    return prometheus_text.value(page, "bough_inference_request_success", model="add",
                                 version="1")


@pytest.fixture
def cluster(tmp_path):
    save(binary_model("Add", "add"), str(tmp_path / "models" / "add" / "1" / "model.onnx"))
    replicas = [Server("--model-repository", tmp_path / "models", "--grpc-port", "-1")
                for _ in range(2)]
    balancer = Balancer(tmp_path, [r.port for r in replicas])
    yield replicas, balancer
    balancer.stop()
    for r in replicas:
        r.stop()


def test_two_replicas_share_the_load(cluster):
    replicas, balancer = cluster
    assert load(balancer.port) == []
    counts = [served(r) for r in replicas]
    assert sum(counts) == THREADS * PER_THREAD
    assert all(c > 0 for c in counts), counts


def test_sigterm_to_one_replica_mid_load_loses_nothing(cluster):
    replicas, balancer = cluster
    answered = threading.Semaphore(0)
    result = []
    runner = threading.Thread(target=lambda: result.append(load(balancer.port, answered)),
                              daemon=True)
    before = served(replicas[1])
    runner.start()
    for _ in range(THREADS * PER_THREAD // 4):  # a quarter of the load, then SIGTERM
        assert answered.acquire(timeout=60)
    replicas[0].proc.send_signal(signal.SIGTERM)
    runner.join(120)
    assert result == [[]]
    assert replicas[0].proc.wait(timeout=30) == 0
    assert served(replicas[1]) > before
