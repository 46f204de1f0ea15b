"""ONNX Runtime's JSON profile, which tools that read ONNX Runtime's profiles read: a JSON
array of trace events, each with cat, pid, tid, dur, ts, ph ("X") and name, and args;
times are whole microseconds, ts from the start of the session's creation. Events are
"Session" ones (session_initialization, then model_run per run) and a "Node" one per node
run, named `<node name>_kernel_time`, with ONNX Runtime's args (op_name, provider,
activation_size, parameter_size, output_size, input_type_shape, output_type_shape: the
library's exec/ort_profile.h writes them) and bough's place of the node (subgraph nodes
included). Last comes bough's summary per operator type, a metadata event ("ph": "M",
cat "Summary") named bough_op_summary whose args are {"runs_ns", "ops": [{"op", "calls",
"total_ns", "share"}]}, as in `bough bench --profile-json`."""
import json
import os
import time


def node_name(place, op):
    """The node's name from its place (`main/Loop "l"/body/Add "add_1"` -> `add_1`; "" when
    the node has none). `op` is the operator, `domain.Op` outside the default domain."""
    label = "/" + op.rsplit(".", 1)[-1] + ' "'
    start = place.rfind(label)
    if start < 0 or not place.endswith('"'):
        return ""
    return place[start + len(label):-1]


def events(started_ns, created_ns, runs, thread, summary):
    """The events of a session created from `started_ns` to `created_ns` (time.monotonic_ns)
    on `thread`, of `runs` as _Session._end_profiling gives them, and its `summary` (JSON)."""
    pid = os.getpid()

    def event(cat, name, start_ns, duration_ns, tid, args):
        return {"cat": cat, "pid": pid, "tid": tid, "dur": duration_ns // 1000,
                "ts": (start_ns - started_ns) // 1000, "ph": "X", "name": name, "args": args}

    out = [event("Session", "session_initialization", started_ns, created_ns - started_ns,
                 thread, {})]
    for run_start, tid, run_ns, nodes in runs:
        out.append(event("Session", "model_run", run_start, run_ns, tid, {}))
        for place, op, start_ns, duration_ns, _depth, args in nodes:
            args = json.loads("{" + args + "}")
            args["place"] = place
            out.append(event("Node", node_name(place, op) + "_kernel_time", run_start + start_ns,
                             duration_ns, tid, args))
    out.sort(key=lambda e: e["ts"])
    last = out[-1]["ts"] + out[-1]["dur"]
    out.append({"cat": "Summary", "pid": pid, "tid": thread, "dur": 0, "ts": last, "ph": "M",
                "name": "bough_op_summary", "args": json.loads(summary)})
    return out


def write_profile(prefix, all_events):
    """Writes the events where ONNX Runtime (1.30) would, `<prefix>_<local time>.json` with
    the time as 2026-12-02_10-02-55_566 (milliseconds last), and returns that name."""
    now = time.time()
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S", time.localtime(now))
    path = f"{prefix}_{stamp}_{int(now * 1000) % 1000:03d}.json"
    with open(path, "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(e) for e in all_events) + "\n]\n")
    return path
