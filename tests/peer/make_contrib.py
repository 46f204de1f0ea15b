#!/usr/bin/python3
"""com.microsoft contrib-operator models with ONNX Runtime's outputs, checked without it.

Writes tests/peer/contrib/<case>/ in the ONNX backend-test layout (model.onnx,
test_data_set_0/input_N.pb, output_N.pb): each contrib operator bough implements, over its
attributes, optional inputs and outputs, and shapes (ranks 1 to 4), with random inputs;
MatMulNBits weights both as initializers (prepared once) and fed. The expected outputs are
ONNX Runtime's (CPU, graph optimizations off, through ../shared/peer), so
`bough test-data tests/peer/contrib` (the `peer_contrib_outputs` test) compares bough with it
at the runner's default tolerance, |got - want| <= 1e-7 + 1e-3 |want|. Float32 outputs differ
by a few ulps except in Gelu's and FastGelu's negative tails, where ONNX Runtime's float
evaluation loses relative accuracy (Gelu(-5.147): ORT -6.136e-7, bough and the exact value
-6.813e-7; FastGelu(-3.968): ORT -8.171e-5, exact -8.189e-5): there the absolute term
covers it (worst case at 0.98 of the tolerance), and FastGelu's inputs stop at -4. The
float16 cases, fed and read through Casts, round each result once and differ by at most one
float16 ulp. FusedConv's cases cover Relu, Sigmoid, LeakyRelu and Clip, the activations
bough implements (ONNX Runtime also has Tanh, HardSigmoid and the sum input Z). BiasAdd, which ONNX Runtime implements on CUDA only, is checked against numpy's
x + bias + skip. MultiHeadAttention's cases (run in float by both, softmax over at most
seven keys) sit within the same default tolerance; its masked keys get mask_filter_value
added, as ONNX Runtime does, so a case where every key is masked still matches.

Usage: make_contrib.py [PEER_DIR]   (PEER_DIR: the folder `sh ../shared/peer/setup.sh`
prints, default ~/.cache/bough-peer). Deterministic: the same files on every run.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "contrib")
MS = "com.microsoft"


def case(name, op, inputs, outputs, rng_inputs, reference=None, constants=(), **attrs):
    """inputs: names ("" for an omitted one); outputs: names ("" omitted); rng_inputs: the
    arrays of the named inputs, in order; reference: for an operator ONNX Runtime implements
    on CUDA only, numpy's computation of the outputs from the inputs; constants: the inputs
    stored as initializers (weights a kernel may prepare once) rather than fed."""
    # ONNX Runtime registers SimplifiedLayerNormalization in the default domain.
    domain = "" if op == "SimplifiedLayerNormalization" else MS
    node = helper.make_node(op, inputs, outputs, domain=domain, **attrs)
    return name, node, rng_inputs, outputs, reference, set(constants)


def cases(rng):
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)
    out = []
    # Gelu family and BiasAdd.
    out.append(case("gelu_3d", "Gelu", ["x"], ["y"], [f(2, 3, 8)]))
    out.append(case("gelu_1d", "Gelu", ["x"], ["y"], [f(37) * 4]))
    out.append(case("bias_gelu_2d", "BiasGelu", ["a", "b"], ["y"], [f(5, 16), f(16)]))
    out.append(case("bias_gelu_4d", "BiasGelu", ["a", "b"], ["y"], [f(2, 2, 3, 7), f(7)]))
    # Within [-4, 4]: further into the negative tail, where 1 + tanh cancels, ONNX Runtime's
    # float result loses relative accuracy (at x = -4.678 it gives -1.673e-6; the exact value,
    # and bough's, is -1.796e-6); the unit tests check the tail against double precision.
    out.append(case("fast_gelu", "FastGelu", ["x"], ["y"], [np.clip(f(3, 4, 10) * 3, -4, 4)]))
    out.append(case("fast_gelu_bias", "FastGelu", ["x", "bias"], ["y"], [f(2, 5, 12), f(12)]))
    out.append(case("quick_gelu_default", "QuickGelu", ["x"], ["y"], [f(4, 9) * 3]))
    out.append(case("quick_gelu_alpha", "QuickGelu", ["x"], ["y"], [f(2, 3, 5)], alpha=-0.75))
    out.append(case("bias_add", "BiasAdd", ["x", "bias", "skip"], ["y"],
                    [f(2, 3, 16), f(16), f(2, 3, 16)],
                    reference=lambda x, bias, skip: [x + bias + skip]))
    # FusedMatMul over the transposition attributes, ranks and alpha.
    fm = [("2d", (4, 6), (6, 5), {}),
          ("2d_trans_a", (6, 4), (6, 5), dict(transA=1)),
          ("2d_trans_b_alpha", (4, 6), (5, 6), dict(transB=1, alpha=0.125)),
          ("3d_trans_ab", (2, 6, 4), (2, 5, 6), dict(transA=1, transB=1, alpha=2.0)),
          ("4d_broadcast", (2, 1, 3, 4), (3, 4, 5), dict(alpha=-0.5)),
          ("3d_by_2d", (3, 4, 6), (6, 2), {}),
          ("1d_a", (6,), (2, 6, 3), {}),
          ("trans_batch_a", (4, 2, 6), (2, 6, 5), dict(transBatchA=1)),
          ("trans_batch_b", (2, 4, 6), (6, 2, 5), dict(transBatchB=1)),
          ("trans_batch_both_trans", (6, 2, 3, 4), (5, 2, 3, 6),
           dict(transBatchA=1, transA=1, transBatchB=1, transB=1, alpha=0.5))]
    for suffix, sa, sb, attrs in fm:
        out.append(case("fused_matmul_" + suffix, "FusedMatMul", ["a", "b"], ["y"],
                        [f(*sa), f(*sb)], **attrs))
    # A constant (prepared) B.
    for suffix, sa, sb, attrs in (("const_b", (2, 3, 6), (6, 4), dict(alpha=0.25)),
                                  ("const_b_trans", (5, 6), (4, 6), dict(transB=1, alpha=-2.0)),
                                  ("const_b_trans_a", (6, 5), (6, 3), dict(transA=1))):
        out.append(case("fused_matmul_" + suffix, "FusedMatMul", ["a", "b"], ["y"],
                        [f(*sa), f(*sb)], constants=["b"], **attrs))
    # Normalizations.
    h = 16
    out.append(case("skip_layer_norm", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "beta", "bias"], ["y"],
                    [f(2, 3, h), f(2, 3, h), f(h), f(h), f(h)], epsilon=1e-5))
    out.append(case("skip_layer_norm_no_beta_bias", "SkipLayerNormalization",
                    ["x", "skip", "gamma"], ["y"], [f(3, 4, h) * 5 + 2, f(3, 4, h), f(h)]))
    out.append(case("skip_layer_norm_sum_output", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "", "bias"], ["y", "", "", "sum"],
                    [f(2, 2, h), f(2, 2, h), f(h), f(h)], epsilon=1e-6))
    out.append(case("skip_layer_norm_all_outputs", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "beta", "bias"], ["y", "mean", "inv_std", "sum"],
                    [f(2, 3, h) + 1, f(2, 3, h), f(h), f(h), f(h)]))
    out.append(case("skip_simplified_layer_norm_all_outputs", "SkipSimplifiedLayerNormalization",
                    ["x", "skip", "gamma", "bias"], ["y", "mean", "inv_std", "sum"],
                    [f(2, 2, h) + 1, f(2, 2, h), f(h), f(h)]))
    out.append(case("skip_layer_norm_2d", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "beta"], ["y"], [f(5, h), f(5, h), f(h), f(h)]))
    out.append(case("skip_layer_norm_broadcast_skip", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "beta"], ["y"], [f(2, 3, h), f(3, h), f(h), f(h)]))
    out.append(case("skip_simplified_layer_norm", "SkipSimplifiedLayerNormalization",
                    ["x", "skip", "gamma"], ["y"], [f(2, 3, h), f(2, 3, h), f(h)], epsilon=1e-6))
    out.append(case("skip_simplified_layer_norm_bias_sum", "SkipSimplifiedLayerNormalization",
                    ["x", "skip", "gamma", "bias"], ["y", "", "", "sum"],
                    [f(3, 2, h), f(3, 2, h), f(h), f(h)]))
    out.append(case("simplified_layer_norm", "SimplifiedLayerNormalization", ["x", "scale"],
                    ["y"], [f(2, 3, h), f(h)], epsilon=1e-6))
    out.append(case("simplified_layer_norm_axis", "SimplifiedLayerNormalization",
                    ["x", "scale"], ["y", "inv_std"], [f(2, 3, 4) * 3, f(3, 4)], axis=1))
    # RotaryEmbedding: layouts, position ids or an offset, interleaving, a partial rotary dim.
    cache = lambda n, half: [f(n, half), f(n, half)]
    ids = lambda b, s, n: rng.integers(0, n, size=(b, s)).astype(np.int64)
    out.append(case("rotary_3d", "RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"],
                    [f(2, 3, 16), ids(2, 3, 10)] + cache(10, 4), num_heads=2))
    out.append(case("rotary_3d_interleaved_offset", "RotaryEmbedding",
                    ["x", "pos", "cos", "sin"], ["y"],
                    [f(2, 4, 24), np.array([5], np.int64)] + cache(12, 6), interleaved=1,
                    num_heads=2))
    out.append(case("rotary_3d_heads_from_cache", "RotaryEmbedding",
                    ["x", "pos", "cos", "sin"], ["y"], [f(1, 5, 16), ids(1, 5, 8)] + cache(8, 4)))
    out.append(case("rotary_4d_partial", "RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"],
                    [f(2, 3, 4, 8), ids(2, 4, 6)] + cache(6, 2), num_heads=3,
                    rotary_embedding_dim=4))
    out.append(case("rotary_4d_partial_interleaved", "RotaryEmbedding",
                    ["x", "pos", "cos", "sin"], ["y"],
                    [f(1, 2, 3, 10), ids(1, 3, 5)] + cache(5, 3), num_heads=2,
                    rotary_embedding_dim=6, interleaved=1))
    # MatMulNBits: bits, block sizes, K not a multiple of the block, zero points packed or of
    # A's type or absent (2^(bits-1)), bias, weights constant (prepared) or fed.
    def nbits(name, a_shape, k, n, bits, block, zp=None, bias=False, constant=True):
        blocks = (k + block - 1) // block
        arrays = [f(*a_shape), rng.integers(0, 256, size=(n, blocks, block * bits // 8)).astype(
            np.uint8), rng.uniform(0.01, 0.1, size=n * blocks).astype(np.float32)]
        names = ["a", "b", "scales"]
        if zp == "packed":
            arrays.append(rng.integers(0, 256, size=n * ((blocks * bits + 7) // 8)).astype(np.uint8))
        elif zp == "float":
            arrays.append(rng.uniform(0, 2 ** bits - 1, size=n * blocks).astype(np.float32))
        names += ["zero_points"] if zp else []
        if bias:
            arrays.append(f(n))
            names += [""] * (5 - len(names)) + ["bias"]
        out.append(case("matmul_nbits_" + name, "MatMulNBits", names, ["y"], arrays,
                        constants=["b", "scales", "zero_points"] if constant else [],
                        K=k, N=n, bits=bits, block_size=block))
    nbits("4bit", (3, 64), 64, 8, 4, 32)
    nbits("4bit_ragged_k_packed_zp_bias", (2, 3, 40), 40, 5, 4, 16, zp="packed", bias=True)
    nbits("4bit_float_zp_fed", (4, 48), 48, 6, 4, 16, zp="float", constant=False)
    nbits("4bit_packed_zp_fed", (1, 2, 80), 80, 3, 4, 32, zp="packed", constant=False)
    nbits("8bit_packed_zp", (2, 64), 64, 4, 8, 32, zp="packed")
    nbits("2bit_packed_zp", (2, 64), 64, 5, 2, 16, zp="packed")
    # float16, through Casts from and to float32 (computed in float by both, each result
    # rounded once to float16: at most an ulp apart, within the tolerance).
    h16 = lambda *shape: f(*shape).astype(np.float16)
    out.append(case("gelu_float16", "Gelu", ["x"], ["y"], [h16(4, 8)]))
    out.append(case("fast_gelu_bias_float16", "FastGelu", ["x", "bias"], ["y"],
                    [h16(3, 8), h16(8)]))
    out.append(case("skip_layer_norm_float16", "SkipLayerNormalization",
                    ["x", "skip", "gamma", "beta"], ["y"], [h16(2, 3, h), h16(2, 3, h), h16(h),
                                                            h16(h)]))
    out.append(case("rotary_3d_float16", "RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"],
                    [h16(1, 3, 8), ids(1, 3, 4), h16(4, 4), h16(4, 4)]))
    # MatMulInteger16 (ONNX Runtime implements int16 x int16 only), with broadcast batches.
    i16 = lambda *shape: rng.integers(-32768, 32768, size=shape).astype(np.int16)
    out.append(case("matmul_integer16_2d", "MatMulInteger16", ["a", "b"], ["y"],
                    [i16(3, 5), i16(5, 4)]))
    out.append(case("matmul_integer16_batched", "MatMulInteger16", ["a", "b"], ["y"],
                    [i16(2, 1, 3, 2), i16(3, 2, 4)]))
    # MultiHeadAttention: self and cross attention, bias (V of another width), the key
    # padding mask's three forms, attention_bias broadcast over batch or heads, past and
    # present with unidirectional and a scale, key and value already split into heads.
    mha = ["q", "k", "v", "bias", "mask", "attn_bias", "past_k", "past_v"]
    pick = lambda *used: [n if n in used else "" for n in mha]
    i32 = lambda a: np.array(a, np.int32)
    out.append(case("mha_self", "MultiHeadAttention", pick("q", "k", "v"), ["y"],
                    [f(2, 3, 16), f(2, 3, 16), f(2, 3, 16)], num_heads=2))
    out.append(case("mha_cross_bias_v_width", "MultiHeadAttention", pick("q", "k", "v", "bias"),
                    ["y"], [f(2, 3, 16), f(2, 5, 16), f(2, 5, 24), f(56)], num_heads=2))
    out.append(case("mha_padding_mask_2d", "MultiHeadAttention",
                    pick("q", "k", "v", "mask"), ["y"],
                    [f(2, 3, 8), f(2, 4, 8), f(2, 4, 8), i32([[1, 1, 0, 1], [1, 0, 0, 0]])],
                    num_heads=2))
    out.append(case("mha_key_lengths", "MultiHeadAttention", pick("q", "k", "v", "mask"), ["y"],
                    [f(2, 2, 8), f(2, 5, 8), f(2, 5, 8), i32([3, 5])], num_heads=4))
    out.append(case("mha_mask_3d_filter_value", "MultiHeadAttention",
                    pick("q", "k", "v", "mask"), ["y"],
                    [f(1, 3, 8), f(1, 3, 8), f(1, 3, 8), i32([[[1, 0, 1], [0, 1, 1], [1, 1, 0]]])],
                    num_heads=2, mask_filter_value=-3.0))
    out.append(case("mha_attention_bias_heads", "MultiHeadAttention",
                    pick("q", "k", "v", "attn_bias"), ["y"],
                    [f(2, 3, 12), f(2, 4, 12), f(2, 4, 12), f(1, 3, 3, 4)], num_heads=3))
    out.append(case("mha_attention_bias_batch_mask", "MultiHeadAttention",
                    pick("q", "k", "v", "mask", "attn_bias"), ["y"],
                    [f(2, 2, 8), f(2, 3, 8), f(2, 3, 8), i32([2, 3]), f(2, 1, 2, 3)],
                    num_heads=2))
    out.append(case("mha_past_present_causal", "MultiHeadAttention",
                    pick("q", "k", "v", "bias", "past_k", "past_v"), ["y", "present_k", "present_v"],
                    [f(2, 3, 8), f(2, 3, 8), f(2, 3, 8), f(24), f(2, 2, 4, 4), f(2, 2, 4, 4)],
                    num_heads=2, unidirectional=1, scale=0.3))
    out.append(case("mha_causal_mask_attention_bias", "MultiHeadAttention",
                    pick("q", "k", "v", "mask", "attn_bias"), ["y", "present_k", "present_v"],
                    [f(1, 4, 8), f(1, 4, 8), f(1, 4, 8), i32([[1, 1, 1, 0]]), f(1, 2, 4, 4)],
                    num_heads=2, unidirectional=1))
    out.append(case("mha_split_kv", "MultiHeadAttention", pick("q", "k", "v"), ["y"],
                    [f(2, 3, 16), f(2, 4, 5, 4), f(2, 4, 5, 4)], num_heads=4))
    out.append(case("mha_float16", "MultiHeadAttention", ["q", "k", "v", "bias"], ["y"],
                    [h16(1, 3, 8), h16(1, 2, 8), h16(1, 2, 8), h16(24)], num_heads=2))
    # Attention (packed QKV weights): equal or given widths, mask_index's four forms (with
    # unidirectional, also with a 3-D mask and a small mask_filter_value), past and
    # present, attention_bias.
    att = ["x", "w", "bias", "mask", "past", "attn_bias"]
    pick = lambda *used: [n if n in used else "" for n in att]
    out.append(case("attention_basic", "Attention", pick("x", "w", "bias"), ["y"],
                    [f(2, 3, 8), f(8, 24) * 0.5, f(24)], num_heads=2))
    out.append(case("attention_qkv_hidden_sizes", "Attention", pick("x", "w", "bias"), ["y"],
                    [f(2, 3, 8), f(8, 28) * 0.5, f(28)], num_heads=2, qkv_hidden_sizes=[8, 8, 12]))
    out.append(case("attention_key_lengths", "Attention", pick("x", "w", "bias", "mask"), ["y"],
                    [f(2, 3, 8), f(8, 24) * 0.5, f(24), i32([2, 3])], num_heads=4))
    out.append(case("attention_end_and_start", "Attention", pick("x", "w", "bias", "mask"),
                    ["y"], [f(2, 4, 8), f(8, 24) * 0.5, f(24), i32([3, 4, 1, 0])], num_heads=2))
    out.append(case("attention_mask_2d_unidirectional", "Attention",
                    pick("x", "w", "bias", "mask"), ["y"],
                    [f(2, 3, 8), f(8, 24) * 0.5, f(24), i32([[1, 0, 1], [1, 1, 1]])], num_heads=2,
                    unidirectional=1))
    out.append(case("attention_mask_3d_unidirectional_filter", "Attention",
                    pick("x", "w", "bias", "mask"), ["y"],
                    [f(1, 3, 8), f(8, 24) * 0.5, f(24),
                     i32([[[1, 1, 0], [0, 1, 1], [1, 1, 1]]])], num_heads=2, unidirectional=1,
                    mask_filter_value=-2.0))
    out.append(case("attention_past_present", "Attention", pick("x", "w", "bias", "past"),
                    ["y", "present"], [f(2, 2, 8), f(8, 24) * 0.5, f(24), f(2, 2, 2, 3, 4)],
                    num_heads=2, unidirectional=1, scale=0.4))
    # (ONNX Runtime 1.30's CPU Attention crashes without the bias, which its schema calls
    # optional; the unit tests cover bough's Attention without it.)
    out.append(case("attention_attention_bias", "Attention",
                    pick("x", "w", "bias", "attn_bias"), ["y"],
                    [f(2, 3, 8), f(8, 24) * 0.5, f(24), f(2, 1, 3, 3)], num_heads=2))
    out.append(case("attention_float16", "Attention", ["x", "w", "bias"], ["y"],
                    [h16(1, 3, 8), (f(8, 24) * 0.5).astype(np.float16), h16(24)], num_heads=2))
    # GroupQueryAttention: prompts (one right-padded entry), decoding after a past (equal
    # and ragged lengths), packed QKV, attention_bias, a scale. (ONNX Runtime 1.30 gives
    # another output for a ragged decoding step whose present outputs are not requested, so
    # the past cases request them.) seqlens_k is each entry's total length - 1; with a past,
    # total_sequence_length is an initializer, so the present's length is inferred exactly.
    # Head sizes are multiples of 8, which ONNX Runtime's CPU kernel requires.
    gqa = ["q", "k", "v", "past_k", "past_v", "seqlens_k", "total"]
    total = lambda t: np.array(t, np.int32)
    out.append(case("gqa_prompt", "GroupQueryAttention", gqa[:3] + ["", ""] + gqa[5:],
                    ["y", "present_k", "present_v"],
                    [f(2, 4, 32), f(2, 4, 16), f(2, 4, 16), i32([3, 3]), total(4)], num_heads=4,
                    kv_num_heads=2))
    out.append(case("gqa_prompt_padded", "GroupQueryAttention", gqa[:3] + ["", ""] + gqa[5:],
                    ["y", "present_k", "present_v"],
                    [f(2, 4, 16), f(2, 4, 8), f(2, 4, 8), i32([3, 1]), total(4)], num_heads=2,
                    kv_num_heads=1, scale=0.7))
    out.append(case("gqa_decode_past", "GroupQueryAttention", gqa,
                    ["y", "present_k", "present_v"],
                    [f(2, 1, 32), f(2, 1, 16), f(2, 1, 16), f(2, 2, 3, 8), f(2, 2, 3, 8),
                     i32([3, 3]), total(4)], num_heads=4, kv_num_heads=2, constants=["total"]))
    out.append(case("gqa_decode_ragged", "GroupQueryAttention", gqa, ["y", "present_k", "present_v"],
                    [f(2, 1, 32), f(2, 1, 16), f(2, 1, 16), f(2, 2, 5, 8), f(2, 2, 5, 8),
                     i32([2, 4]), total(5)], num_heads=4, kv_num_heads=2, constants=["total"]))
    out.append(case("gqa_chunk_after_past", "GroupQueryAttention", gqa,
                    ["y", "present_k", "present_v"],
                    [f(1, 2, 16), f(1, 2, 16), f(1, 2, 16), f(1, 2, 3, 8), f(1, 2, 3, 8),
                     i32([4]), total(5)], num_heads=2, kv_num_heads=2, constants=["total"]))
    out.append(case("gqa_packed_qkv", "GroupQueryAttention", ["q", "", ""] + ["", ""] + gqa[5:],
                    ["y", "present_k", "present_v"], [f(1, 3, 64), i32([2]), total(3)],
                    num_heads=4, kv_num_heads=2))
    out.append(case("gqa_attention_bias", "GroupQueryAttention",
                    gqa[:3] + ["", ""] + gqa[5:] + ["", "", "", "attn_bias"], ["y"],
                    [f(1, 3, 16), f(1, 3, 8), f(1, 3, 8), i32([2]), total(3), f(1, 2, 3, 3)],
                    num_heads=2, kv_num_heads=1))
    out.append(case("gqa_float16", "GroupQueryAttention", gqa[:3] + ["", ""] + gqa[5:], ["y"],
                    [h16(1, 3, 16), h16(1, 3, 8), h16(1, 3, 8), i32([2]), total(3)], num_heads=2,
                    kv_num_heads=1))
    # EmbedLayerNormalization: with and without segments, position_ids per batch or shared,
    # the mask's count of ones (a 2 counts as no one), the embedding sum.
    eln = ["ids", "seg_ids", "word", "pos", "seg", "gamma", "beta", "mask", "pos_ids"]
    pick = lambda *unused: [n if n not in unused else "" for n in eln]
    tok = lambda b, s, n: rng.integers(0, n, size=(b, s)).astype(np.int32)
    out.append(case("embed_layer_norm", "EmbedLayerNormalization", pick("pos_ids"),
                    ["y", "mask_index", "sum"],
                    [tok(2, 3, 10), tok(2, 3, 2), f(10, 16), f(6, 16), f(2, 16), f(16), f(16),
                     i32([[1, 1, 0], [1, 2, 1]])], epsilon=1e-5))
    out.append(case("embed_layer_norm_no_segment_position_ids", "EmbedLayerNormalization",
                    pick("seg_ids", "seg", "mask"), ["y", "mask_index"],
                    [tok(2, 4, 7), f(7, 8), f(9, 8), f(8), f(8), tok(2, 4, 9)]))
    out.append(case("embed_layer_norm_shared_position_ids", "EmbedLayerNormalization",
                    pick(), ["y", "", "sum"],
                    [tok(3, 2, 5), tok(3, 2, 3), f(5, 8), f(4, 8), f(3, 8), f(8), f(8),
                     i32([[1, 1], [1, 0], [0, 0]]), tok(1, 2, 4)]))
    # DynamicQuantizeMatMul: int8 and uint8 B, per-tensor and per-column scales and zero
    # points, bias, batched A. (A's quantization rounds to nearest even in both.)
    i8 = lambda *shape: rng.integers(-128, 128, size=shape).astype(np.int8)
    u8 = lambda *shape: rng.integers(0, 256, size=shape).astype(np.uint8)
    scales = lambda n: rng.uniform(0.01, 0.05, size=n).astype(np.float32)
    out.append(case("dynamic_quantize_matmul", "DynamicQuantizeMatMul", ["a", "b", "b_scale"],
                    ["y"], [f(3, 8), i8(8, 5), scales(1)]))
    out.append(case("dynamic_quantize_matmul_per_column_zp_bias", "DynamicQuantizeMatMul",
                    ["a", "b", "b_scale", "b_zp", "bias"], ["y"],
                    [f(2, 3, 16), u8(16, 4), scales(4), u8(4), f(4)]))
    out.append(case("dynamic_quantize_matmul_int8_zp_constant_b", "DynamicQuantizeMatMul",
                    ["a", "b", "b_scale", "b_zp"], ["y"],
                    [f(4, 6) * 3 + 1, i8(6, 3), scales(3), i8(3)], constants=["b", "b_scale",
                                                                              "b_zp"]))
    # GroupQueryAttention with do_rotary: halves and interleaved pairs, a prompt and a
    # decoding step after a past (head size 16, which ONNX Runtime's CPU
    # kernel requires with rotary).
    gqr = gqa + ["cos", "sin"]
    out.append(case("gqa_rotary_prompt", "GroupQueryAttention", gqa[:3] + ["", ""] + gqr[5:],
                    ["y", "present_k", "present_v"],
                    [f(2, 3, 64), f(2, 3, 32), f(2, 3, 32), i32([2, 2]), total(3), f(6, 8),
                     f(6, 8)], num_heads=4, kv_num_heads=2, do_rotary=1))
    out.append(case("gqa_rotary_interleaved_decode", "GroupQueryAttention", gqr,
                    ["y", "present_k", "present_v"],
                    [f(2, 1, 64), f(2, 1, 32), f(2, 1, 32), f(2, 2, 3, 16), f(2, 2, 3, 16),
                     i32([3, 3]), total(4), f(8, 8), f(8, 8)], num_heads=4, kv_num_heads=2,
                    do_rotary=1, rotary_interleaved=1, constants=["total"]))
    # FusedConv (what bough's conv-activation pass writes): Conv, then each activation bough
    # implements, over pads, strides, dilations, groups, 1-D and 2-D, fed and constant filters.
    out.append(case("fused_conv_relu", "FusedConv", ["x", "w", "b"], ["y"],
                    [f(1, 3, 8, 8), f(4, 3, 3, 3), f(4)], activation="Relu", pads=[1, 1, 1, 1]))
    out.append(case("fused_conv_sigmoid_groups_strides", "FusedConv", ["x", "w"], ["y"],
                    [f(2, 4, 9, 9), f(6, 2, 3, 3)], activation="Sigmoid", group=2, strides=[2, 2],
                    constants=["w"]))
    out.append(case("fused_conv_leaky_relu", "FusedConv", ["x", "w", "b"], ["y"],
                    [f(1, 2, 7, 6), f(5, 2, 2, 3), f(5)], activation="LeakyRelu",
                    activation_params=[0.1], constants=["w", "b"]))
    out.append(case("fused_conv_clip_dilated", "FusedConv", ["x", "w", "b"], ["y"],
                    [f(1, 3, 10, 10), f(4, 3, 3, 3), f(4)], activation="Clip",
                    activation_params=[-0.5, 0.5], dilations=[2, 2], pads=[2, 1, 2, 1]))
    out.append(case("fused_conv_1d_relu_1x1", "FusedConv", ["x", "w"], ["y"],
                    [f(2, 8, 12), f(16, 8, 1)], activation="Relu", constants=["w"]))
    # MatMulNBits through the kernel's special shapes (here, after every other case, so that
    # the earlier cases keep their random values): one row (four columns at a time), two, three
    # and five rows (groups of four, then the rest), N not a multiple of 4 or 16, K not a
    # multiple of the block, blocks 16 to 256.
    nbits("m1_ragged_n", (1, 256), 256, 37, 4, 32)
    nbits("m1_block128_float_zp_bias", (1, 1, 300), 300, 21, 4, 128, zp="float", bias=True)
    nbits("m2_block256_packed_zp", (2, 512), 512, 20, 4, 256, zp="packed")
    nbits("m3_ragged_k_packed_zp_bias", (3, 200), 200, 19, 4, 64, zp="packed", bias=True)
    nbits("m5_8bit_block16_packed_zp", (5, 100), 100, 18, 8, 16, zp="packed")
    nbits("m1_2bit_ragged_k", (1, 50), 50, 7, 2, 16)
    nbits("m3_2bit_float_zp_fed", (3, 70), 70, 9, 2, 32, zp="float", constant=False)
    return out


def make_model(node, arrays, outputs, constants):
    """The model of one node. float16 inputs and outputs (which the harness cannot feed or
    read) go through Casts from and to float32 around the node."""
    named = list(zip([i for i in node.input if i], arrays))
    half = any(a.dtype == np.float16 for a in arrays)
    nodes = []
    if half:
        rename = {n: n + "_16" for n, a in named if a.dtype == np.float16}
        for n, new in rename.items():
            nodes.append(helper.make_node("Cast", [n], [new], to=TensorProto.FLOAT16))
        inner = [rename.get(i, i) for i in node.input]
        del node.input[:]
        node.input.extend(inner)
        result = [o + "_16" if o else "" for o in node.output]
        del node.output[:]
        node.output.extend(result)
    nodes.append(node)
    if half:
        nodes += [helper.make_node("Cast", [o + "_16"], [o], to=TensorProto.FLOAT)
                  for o in outputs if o]
    as_fed = lambda a: a.astype(np.float32) if a.dtype == np.float16 else a
    inputs = [helper.make_tensor_value_info(n, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[as_fed(a).dtype],
                                            list(a.shape))
              for n, a in named if n not in constants]
    initializers = [numpy_helper.from_array(a, n) for n, a in named if n in constants]
    out_type = TensorProto.INT32 if node.op_type == "MatMulInteger16" else TensorProto.FLOAT
    int_outputs = {"mask_index"}  # EmbedLayerNormalization's
    outs = [helper.make_tensor_value_info(n, TensorProto.INT32 if n in int_outputs else out_type,
                                          None) for n in outputs if n]
    graph = helper.make_graph(nodes, "main", inputs, outs, initializers)
    model = helper.make_model(graph, producer_name="tests/peer/make_contrib.py",
                              opset_imports=[helper.make_opsetid("", 17),
                                             helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    return model


def ort_outputs(peer, model_path, names, arrays, outputs, work):
    spec = {}
    for n, a in zip(names, arrays):
        np.save(os.path.join(work, n + ".npy"), a)
        spec[n] = {"dtype": a.dtype.name, "shape": list(a.shape), "npy": n + ".npy"}
    with open(os.path.join(work, "spec.json"), "w") as fp:
        json.dump(spec, fp)
    dump = os.path.join(work, "dump")
    subprocess.run(["node", "ort_run.js", model_path, "--inputs", os.path.join(work, "spec.json"),
                    "--iters", "1", "--warmup", "0", "--opt", "disabled", "--dump", dump],
                   cwd=peer, check=True, stdout=subprocess.DEVNULL)
    return [np.load(os.path.join(dump, "outputs", n + ".npy")) for n in outputs if n]


def main():
    peer = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/bough-peer")
    if not os.path.exists(os.path.join(peer, "ort_run.js")):
        sys.exit(f"no ONNX Runtime harness in {peer}: run `sh ../shared/peer/setup.sh` first")
    rng = np.random.default_rng(1702)
    shutil.rmtree(OUT, ignore_errors=True)
    all_cases = cases(rng)
    for name, node, arrays, outputs, reference, constants in all_cases:
        folder = os.path.join(OUT, name)
        os.makedirs(os.path.join(folder, "test_data_set_0"))
        path = os.path.join(folder, "model.onnx")
        fed = [(n, a) for n, a in zip([i for i in node.input if i], arrays) if n not in constants]
        onnx.save(make_model(node, arrays, outputs, constants), path)
        names = [n for n, _ in fed]
        arrays = [a.astype(np.float32) if a.dtype == np.float16 else a for _, a in fed]
        with tempfile.TemporaryDirectory() as work:
            results = (reference(*arrays) if reference else
                       ort_outputs(peer, path, names, arrays, outputs, work))
        tensors = [("input_%d" % i, numpy_helper.from_array(a, n))
                   for i, (n, a) in enumerate(zip(names, arrays))]
        tensors += [("output_%d" % i, numpy_helper.from_array(r, n))
                    for i, (n, r) in enumerate(zip([o for o in outputs if o], results))]
        for file, tensor in tensors:
            with open(os.path.join(folder, "test_data_set_0", file + ".pb"), "wb") as fp:
                fp.write(tensor.SerializeToString())
    print(f"{len(all_cases)} cases in {OUT}")


if __name__ == "__main__":
    main()
