#!/usr/bin/python3
"""A small GPT-style decoder wrapped by com.microsoft GreedySearch and BeamSearch (and a T5-style
encoder-decoder pair under BeamSearch), with ONNX
Runtime's token sequences (and BeamSearch's sequences_scores) stored beside each model,
checked without it (`peer_generation_outputs`).

The decoder (random weights, 2 layers, 2 heads of 8, vocabulary 50) takes GPT-2's feeds:
input_ids, position_ids, attention_mask (int32) and past_0, past_1 (2, batch, heads, past,
head_size); it yields logits (batch, steps, vocab) and present_0, present_1, the pasts with
this step's keys and values appended. Attention adds -10000 where the mask is 0 or the key
lies after the query. Cases: plain prompts, no_repeat_ngram_size 1 and 2, left padding found from pad_token_id, an
explicit attention_mask (over pads too: positions skip pad tokens whatever the mask says), repetition_penalty, vocab_mask and prefix_vocab_mask, an eos that
ends one row early (pads after it), and min_length holding that eos back. Writes
tests/peer/generation/<case>/ in the backend-test layout; the sequences must match exactly. ONNX Runtime writes
a row's eos itself as pad_token_id, as it does every token after it.

BeamSearch cases (beam*): 2, 3 and 4 beams (one with the per-step scores output),
num_return_sequences above 1, left padding and
an attention_mask, repetition_penalty, vocabulary masks, no_repeat_ngram_size 1 and 2, and
an eos the beams reach early under length_penalty 0.3, 1 and 2.5 with early_stopping off
and on, with min_length, and with left padding. ONNX Runtime 1.30 needs min_length and
length_penalty fed (it refuses a BeamSearch node without them), so every case feeds them.
beam2_table_done_check runs a decoder whose logits are a fixed table over 2 batch entries,
where ORT's check of whether an entry is done reads the previous entry's candidates.
t5_* run BeamSearch model_type 1 over t5_models.py's encoder and decoder: 1 and 3 beams, a
source with trailing pads (ORT masks left padding only), repetition_penalty, and an early
eos with early_stopping and with length_penalty 2.

Usage: make_generation.py [PEER_DIR]   (default ~/.cache/bough-peer). Deterministic.
"""
import os
import shutil
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_contrib import ort_outputs  # noqa: E402
from t5_models import T5_VOCAB, t5_graphs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "generation")
MS = "com.microsoft"
VOCAB, EMBED, HEADS, LAYERS, POSITIONS = 50, 16, 2, 2, 64
HEAD = EMBED // HEADS


def decoder(rng):
    w = lambda *shape: (rng.standard_normal(shape) * 0.5).astype(np.float32)
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(kind, ins, out, **attrs):
        nodes.append(helper.make_node(kind, ins, [out], **attrs))
        return out

    const("wte", w(VOCAB, EMBED))
    const("wpe", w(POSITIONS, EMBED))
    const("unembed", w(EMBED, VOCAB))
    h = op("Add", [op("Gather", ["wte", "input_ids"], "tok"), op("Gather", ["wpe", "position_ids"], "pos")], "h0")
    # Mask bias (batch, 1, 1, total) and causal bias (steps, total): key j is seen by query i
    # when j <= past + i.
    mask = op("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    keep = op("Sub", [const("one", np.float32(1)), mask], "masked")
    bias = op("Mul", [keep, const("big", np.float32(-10000))], "mask_bias_2d")
    mask_bias = op("Unsqueeze", [bias, const("axes12", np.array([1, 2], np.int64))], "mask_bias")
    steps = op("Gather", [op("Shape", ["input_ids"], "ids_shape"), const("i1", np.int64(1))], "steps")
    total = op("Gather", [op("Shape", ["attention_mask"], "mask_shape"), "i1"], "total")
    past_len = op("Sub", [total, steps], "past_len")
    keys = op("Range", [const("i0", np.int64(0)), total, const("step1", np.int64(1))], "keys")
    queries = op("Add", [op("Range", ["i0", steps, "step1"], "query_rows"), past_len], "queries")
    seen = op("LessOrEqual", [op("Unsqueeze", [keys, const("ax0", np.array([0], np.int64))], "keys_row"),
                              op("Unsqueeze", [queries, const("ax1", np.array([1], np.int64))], "queries_col")],
              "seen")
    causal = op("Where", [seen, const("zero", np.float32(0)), "big"], "causal")
    heads_shape = const("heads_shape", np.array([0, 0, HEADS, HEAD], np.int64))
    merged_shape = const("merged_shape", np.array([0, 0, EMBED], np.int64))
    for l in range(LAYERS):
        p = f"l{l}_"
        x = op("LayerNormalization", [h, const(p + "g1", 1 + w(EMBED) * 0.1), const(p + "b1", w(EMBED) * 0.1)], p + "x")
        qkv = op("Add", [op("MatMul", [x, const(p + "wqkv", w(EMBED, 3 * EMBED))], p + "qkv_mm"),
                         const(p + "bqkv", w(3 * EMBED) * 0.1)], p + "qkv")
        nodes.append(helper.make_node("Split", [qkv, const(p + "split3", np.array([EMBED] * 3, np.int64))],
                                      [p + "q2", p + "k2", p + "v2"], axis=2))
        q, k, v = [op("Transpose", [op("Reshape", [p + n + "2", heads_shape], p + n + "4")], p + n + "h",
                      perm=[0, 2, 1, 3]) for n in "qkv"]
        nodes.append(helper.make_node("Split", [f"past_{l}"], [p + "pk5", p + "pv5"], axis=0, num_outputs=2)
                     if False else helper.make_node("Split", [f"past_{l}", const(p + "split2", np.array([1, 1], np.int64))],
                                                    [p + "pk5", p + "pv5"], axis=0))
        pk = op("Squeeze", [p + "pk5", "ax0"], p + "pk")
        pv = op("Squeeze", [p + "pv5", "ax0"], p + "pv")
        key = op("Concat", [pk, k], p + "key", axis=2)
        value = op("Concat", [pv, v], p + "value", axis=2)
        op("Concat", [op("Unsqueeze", [key, "ax0"], p + "key5"), op("Unsqueeze", [value, "ax0"], p + "value5")],
           f"present_{l}", axis=0)
        scores = op("Mul", [op("MatMul", [q, op("Transpose", [key], p + "keyT", perm=[0, 1, 3, 2])], p + "qk"),
                            const(p + "scale", np.float32(1 / np.sqrt(HEAD)))], p + "scaled")
        scores = op("Add", [op("Add", [scores, causal], p + "causal_scores"), mask_bias], p + "scores")
        probs = op("Softmax", [scores], p + "probs", axis=-1)
        ctx = op("Reshape", [op("Transpose", [op("MatMul", [probs, value], p + "ctx4")], p + "ctx_t", perm=[0, 2, 1, 3]),
                             merged_shape], p + "ctx")
        att = op("MatMul", [ctx, const(p + "wo", w(EMBED, EMBED))], p + "att")
        h = op("Add", [h, att], p + "h1")
        x2 = op("LayerNormalization", [h, const(p + "g2", 1 + w(EMBED) * 0.1), const(p + "b2", w(EMBED) * 0.1)], p + "x2")
        mlp = op("MatMul", [op("Tanh", [op("MatMul", [x2, const(p + "w1", w(EMBED, 4 * EMBED))], p + "up")], p + "act"),
                            const(p + "w2", w(4 * EMBED, EMBED))], p + "down")
        h = op("Add", [h, mlp], p + "h2")
    final = op("LayerNormalization", [h, const("gf", np.ones(EMBED, np.float32)), const("bf", np.zeros(EMBED, np.float32))], "hf")
    op("MatMul", [final, "unembed"], "logits")
    int_in = lambda n, dims: helper.make_tensor_value_info(n, TensorProto.INT32, dims)
    past_dims = lambda s: [2, "batch", HEADS, s, HEAD]
    inputs = [int_in("input_ids", ["batch", "steps"]), int_in("position_ids", ["batch", "steps"]),
              int_in("attention_mask", ["batch", "total"])]
    inputs += [helper.make_tensor_value_info(f"past_{l}", TensorProto.FLOAT, past_dims("past")) for l in range(LAYERS)]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "steps", VOCAB])]
    outputs += [helper.make_tensor_value_info(f"present_{l}", TensorProto.FLOAT, past_dims("total")) for l in range(LAYERS)]
    return helper.make_graph(nodes, "decoder", inputs, outputs, inits)


# The nodes' inputs in ORT's order; a case feeds some of them ("" skips one).
INPUTS = {
    "GreedySearch": ["input_ids", "max_length", "min_length", "repetition_penalty", "vocab_mask",
                     "prefix_vocab_mask", "attention_mask"],
    "BeamSearch": ["input_ids", "max_length", "min_length", "num_beams", "num_return_sequences",
                   "length_penalty", "repetition_penalty", "vocab_mask", "prefix_vocab_mask",
                   "attention_mask"],
}


def model(op, graph, fed, attrs, outputs):
    names = [n if n in fed else "" for n in INPUTS[op]]
    while names and not names[-1]:
        names.pop()
    node = helper.make_node(op, names, outputs, domain=MS, decoder=graph, **dict({"model_type": 0}, **attrs))
    dtype = lambda a: onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype]
    inputs = [helper.make_tensor_value_info(n, dtype(fed[n]), list(fed[n].shape)) for n in names if n]
    outs = [helper.make_tensor_value_info(n, TensorProto.INT32 if n == "sequences" else TensorProto.FLOAT, None)
            for n in outputs]
    main = helper.make_graph([node], "main", inputs, outs)
    m = helper.make_model(main, producer_name="tests/peer/make_generation.py",
                          opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)])
    m.ir_version = 8
    return m


def run_op(peer, folder, op, graph, fed, attrs, outputs):
    """Writes the case and returns ORT's outputs."""
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    path = os.path.join(folder, "model.onnx")
    m = model(op, graph, fed, attrs, outputs)
    onnx.save(m, path)
    names = [i.name for i in m.graph.input]
    arrays = [fed[n] for n in names]
    with tempfile.TemporaryDirectory() as work:
        results = ort_outputs(peer, path, names, arrays, outputs, work)
    tensors = [("input_%d" % i, numpy_helper.from_array(a, n)) for i, (n, a) in enumerate(zip(names, arrays))]
    tensors += [("output_%d" % i, numpy_helper.from_array(r, n)) for i, (n, r) in enumerate(zip(outputs, results))]
    for file, tensor in tensors:
        with open(os.path.join(folder, "test_data_set_0", file + ".pb"), "wb") as fp:
            fp.write(tensor.SerializeToString())
    return results


def run_case(peer, folder, graph, fed, eos, pad, ngram=0):
    attrs = dict(eos_token_id=eos, pad_token_id=pad, **({"no_repeat_ngram_size": ngram} if ngram else {}))
    return run_op(peer, folder, "GreedySearch", graph, fed, attrs, ["sequences"])[0]


def table_decoder(table):
    """A decoder whose logits after token t are row t of `table`, with one past (2, batch, 1,
    past, 1) that grows by zeros, as a KV cache would."""
    vocab = table.shape[1]
    inits = [numpy_helper.from_array(table, "table"),
             numpy_helper.from_array(np.array([0, 2, 4], np.int64), "axes"),
             numpy_helper.from_array(np.float32(0), "zero")]
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["logits"]),
             helper.make_node("Cast", ["input_ids"], ["ids_f"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["ids_f", "zero"], ["zeros2"]),
             helper.make_node("Unsqueeze", ["zeros2", "axes"], ["zeros5"]),
             helper.make_node("Concat", ["zeros5", "zeros5"], ["new_kv"], axis=0),
             helper.make_node("Concat", ["past_0", "new_kv"], ["present_0"], axis=3)]
    int_in = lambda n, dims: helper.make_tensor_value_info(n, TensorProto.INT32, dims)
    inputs = [int_in("input_ids", ["batch", "steps"]), int_in("position_ids", ["batch", "steps"]),
              int_in("attention_mask", ["batch", "total"]),
              helper.make_tensor_value_info("past_0", TensorProto.FLOAT, [2, "batch", 1, "past", 1])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "steps", vocab]),
               helper.make_tensor_value_info("present_0", TensorProto.FLOAT, [2, "batch", 1, "total", 1])]
    return helper.make_graph(nodes, "decoder", inputs, outputs, inits)


def beam_cases(peer, graph, prompt, padded, vocab_mask, prefix, made):
    """BeamSearch over the same decoder; sequences exact, sequences_scores within the runner's
    float tolerance (relative 1e-3)."""
    i32 = lambda *v: np.array(v, np.int32)
    f32 = lambda v: np.array([v], np.float32)
    pad = 0

    def beam(name, fed, eos=VOCAB - 1, outputs=("sequences", "sequences_scores"), **attrs):
        fed = dict({"input_ids": prompt, "max_length": i32(12), "num_beams": i32(2),
                    "num_return_sequences": i32(1), "min_length": i32(0), "length_penalty": f32(1.0)}, **fed)
        made[name] = tuple(run_op(peer, os.path.join(OUT, name), "BeamSearch", graph, fed,
                                  dict(eos_token_id=eos, pad_token_id=pad, **attrs), list(outputs)))
        return made[name][0]

    plain = beam("beam2_plain", {})
    beam("beam4_plain", {"num_beams": i32(4)})
    # Every step's scores: a search that runs to max_length (ORT leaves the steps after an
    # early end unwritten).
    beam("beam2_scores", {}, outputs=("sequences", "sequences_scores", "scores"))
    beam("beam4_return3", {"num_beams": i32(4), "num_return_sequences": i32(3)})
    beam("beam2_single_token_prompt", {"input_ids": prompt[:, :1], "max_length": i32(9)})
    beam("beam3_left_padding", {"input_ids": padded, "num_beams": i32(3), "num_return_sequences": i32(2)})
    beam("beam3_attention_mask_over_pads", {"input_ids": padded, "num_beams": i32(3), "min_length": i32(0),
                                            "length_penalty": f32(1.0), "repetition_penalty": f32(1.0),
                                            "vocab_mask": np.ones(VOCAB, np.int32),
                                            "prefix_vocab_mask": np.ones((2, VOCAB), np.int32),
                                            "attention_mask": np.ones((2, 5), np.int32)})
    beam("beam3_repetition_penalty", {"num_beams": i32(3), "repetition_penalty": f32(1.8)})
    beam("beam3_vocab_masks", {"num_beams": i32(3), "vocab_mask": vocab_mask, "prefix_vocab_mask": prefix})
    for n in (1, 2):
        beam(f"beam3_no_repeat_{n}gram", {"input_ids": prompt[:, :1], "num_beams": i32(3), "max_length": i32(16)},
             no_repeat_ngram_size=n)
    # An eos among the early candidates: hypotheses end before max_length, so the length
    # penalty and early stopping change which are kept and when an entry is done.
    eos = int(plain[0, 0, 5 + 1])
    for lp in (1.0, 0.3, 2.5):
        for early in (0, 1):
            beam(f"beam4_eos_lp{lp:g}_early{early}".replace(".", "_"),
                 {"num_beams": i32(4), "num_return_sequences": i32(4), "length_penalty": f32(lp),
                  "max_length": i32(16)}, eos, early_stopping=early)
    beam("beam4_eos_min_length", {"num_beams": i32(4), "num_return_sequences": i32(2), "min_length": i32(10),
                                  "max_length": i32(16)}, eos)
    beam("beam4_eos_left_padding", {"input_ids": padded, "num_beams": i32(4), "num_return_sequences": i32(2),
                                    "max_length": i32(16)}, eos)
    # When an entry's hypotheses are full, ORT reads its best candidate score from the
    # candidate scores starting at entry * num_beams, not entry * 2 * num_beams: here the
    # second entry's check sees the first entry's better candidates, so it is not done after
    # [0 2] and [0 2 2] finish and its running beams win at max_length.
    rng = np.random.default_rng(72)
    p = rng.dirichlet(np.ones(8) * 0.3, 8)
    p[:, 6] = 1e-3  # pad_token_id, never picked
    p /= p.sum(1, keepdims=True)
    table = table_decoder(np.log(p).astype(np.float32))
    made["beam2_table_done_check"] = tuple(run_op(
        peer, os.path.join(OUT, "beam2_table_done_check"), "BeamSearch", table,
        {"input_ids": np.array([[3], [0]], np.int32), "max_length": i32(7), "min_length": i32(0),
         "num_beams": i32(2), "num_return_sequences": i32(2), "length_penalty": f32(1.0)},
        dict(eos_token_id=7, pad_token_id=6), ["sequences", "sequences_scores"]))


def t5_cases(peer, made):
    """BeamSearch model_type 1 over t5_models.py's encoder and decoder: sequences start with
    decoder_start_token_id 2; eos 1, pad 0."""
    rng = np.random.default_rng(1705)
    encoder, decoder = t5_graphs(rng)
    i32 = lambda *v: np.array(v, np.int32)
    source = rng.integers(3, T5_VOCAB, (2, 6)).astype(np.int32)
    padded = source.copy()
    padded[1, 4:] = 0  # trailing pads: masked out of cross attention

    def t5(name, fed, eos=1, **attrs):
        fed = dict({"input_ids": source, "max_length": i32(9), "min_length": i32(0), "num_beams": i32(3),
                    "num_return_sequences": i32(2), "length_penalty": np.array([1.0], np.float32)}, **fed)
        made[name] = tuple(run_op(peer, os.path.join(OUT, name), "BeamSearch", decoder, fed,
                                  dict(eos_token_id=eos, pad_token_id=0, decoder_start_token_id=2, model_type=1,
                                       encoder=encoder, **attrs), ["sequences", "sequences_scores"]))
        return made[name][0]

    plain = t5("t5_beam3", {})
    t5("t5_beam1", {"num_beams": i32(1), "num_return_sequences": i32(1)})
    t5("t5_padded_source", {"input_ids": padded})
    t5("t5_repetition_penalty", {"repetition_penalty": np.array([2.0], np.float32)})
    # An eos the beams meet early (the best sequence's third token).
    eos = int(plain[0, 0, 2])
    t5("t5_eos_early_stopping", {"num_return_sequences": i32(3), "max_length": i32(12)}, eos, early_stopping=1)
    t5("t5_eos_length_penalty", {"num_return_sequences": i32(3), "max_length": i32(12),
                                 "length_penalty": np.array([2.0], np.float32)}, eos)


def main():
    peer = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/bough-peer")
    if not os.path.exists(os.path.join(peer, "ort_run.js")):
        sys.exit(f"no ONNX Runtime harness in {peer}: run `sh ../shared/peer/setup.sh` first")
    rng = np.random.default_rng(1703)
    graph = decoder(rng)
    shutil.rmtree(OUT, ignore_errors=True)
    i32 = lambda *v: np.array(v, np.int32)
    pad = 0
    prompt = rng.integers(1, VOCAB, (2, 5)).astype(np.int32)
    padded = prompt.copy()
    padded[1, :2] = pad  # left padding, found from pad_token_id
    mask = np.ones((2, 5), np.int32)
    mask[0, :1] = 0
    vocab_mask = np.ones(VOCAB, np.int32)
    vocab_mask[rng.choice(VOCAB, 20, replace=False)] = 0
    prefix = np.ones((2, VOCAB), np.int32)
    prefix[:, rng.choice(VOCAB, 30, replace=False)] = 0
    base = {"input_ids": prompt, "max_length": i32(16)}
    cases = {
        "greedy_plain": (dict(base), VOCAB - 1),
        "greedy_single_token_prompt": ({"input_ids": prompt[:, :1], "max_length": i32(9)}, VOCAB - 1),
        "greedy_left_padding": ({"input_ids": padded, "max_length": i32(14)}, VOCAB - 1),
        "greedy_attention_mask": (dict(base, min_length=i32(0), repetition_penalty=np.array([1.0], np.float32),
                                       vocab_mask=np.ones(VOCAB, np.int32), prefix_vocab_mask=np.ones((2, VOCAB), np.int32),
                                       attention_mask=mask), VOCAB - 1),
        # Pads in input_ids under a mask of ones: the mask attends to them, the positions
        # still skip them.
        "greedy_attention_mask_over_pads": (dict(base, input_ids=padded, min_length=i32(0),
                                                 repetition_penalty=np.array([1.0], np.float32),
                                                 vocab_mask=np.ones(VOCAB, np.int32),
                                                 prefix_vocab_mask=np.ones((2, VOCAB), np.int32),
                                                 attention_mask=np.ones((2, 5), np.int32)), VOCAB - 1),
        "greedy_repetition_penalty": (dict(base, min_length=i32(0), repetition_penalty=np.array([1.8], np.float32)), VOCAB - 1),
        "greedy_vocab_masks": (dict(base, min_length=i32(0), repetition_penalty=np.array([1.0], np.float32),
                                    vocab_mask=vocab_mask, prefix_vocab_mask=prefix), VOCAB - 1),
    }
    made = {}
    for name, (fed, eos) in cases.items():
        made[name] = run_case(peer, os.path.join(OUT, name), graph, fed, eos, pad)
    # no_repeat_ngram_size: no token (bigram) occurs twice in a row (from one token the
    # second row repeats 8 and 8 8 at once without it).
    for n in (1, 2):
        fed = {"input_ids": prompt[:, :1], "max_length": i32(20)}
        made[f"greedy_no_repeat_{n}gram"] = run_case(peer, os.path.join(OUT, f"greedy_no_repeat_{n}gram"),
                                                     graph, fed, VOCAB - 1, pad, n)
    # An eos that the first row reaches early: that row is padded after it, the other goes on
    # (its third generated token, when the second row does not produce it first).
    plain = made["greedy_plain"]
    eos = int(plain[0, 5 + 2])
    assert eos not in plain[1, 5:5 + 3], "pick another eos case"
    made["greedy_eos"] = run_case(peer, os.path.join(OUT, "greedy_eos"), graph, dict(base), eos, pad)
    made["greedy_min_length"] = run_case(peer, os.path.join(OUT, "greedy_min_length"), graph,
                                         dict(base, min_length=i32(10)), eos, pad)
    beam_cases(peer, graph, prompt, padded, vocab_mask, prefix, made)
    t5_cases(peer, made)
    for name, seq in made.items():
        print(name, [a.tolist() for a in seq] if isinstance(seq, tuple) else seq.tolist())
    print(f"{len(made)} cases in {OUT}")


if __name__ == "__main__":
    main()
