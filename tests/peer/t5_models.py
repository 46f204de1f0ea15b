"""A small T5-style encoder-decoder pair for com.microsoft BeamSearch model_type 1, in the
layout ONNX Runtime takes (its "old" encoder format: the encoder also runs the first decoder
step on decoder_start_token_id). One layer, 2 heads of 4, vocabulary 20, random weights.

encoder: encoder_input_ids, encoder_attention_mask, decoder_input_ids (batch, 1) -> logits
  (batch, 1, vocab), encoder_hidden_states (batch, source, 8), present_key_self_0,
  present_value_self_0 (batch, 2, 1, 4), present_key_cross_0, present_value_cross_0
  (batch, 2, source, 4).
decoder: input_ids (rows, 1), encoder_attention_mask, encoder_hidden_states,
  past_key_self_0, past_value_self_0 (rows, 2, past, 4), past_key_cross_0,
  past_value_cross_0 -> logits, present_key_self_0, present_value_self_0 (rows, 2, past + 1, 4).
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

T5_VOCAB, T5_EMBED, T5_HEADS = 20, 8, 2
T5_HEAD = T5_EMBED // T5_HEADS


def _weights(rng):
    w = lambda *shape: (rng.standard_normal(shape) * 0.7).astype(np.float32)
    return {"enc_emb": w(T5_VOCAB, T5_EMBED), "enc_w": w(T5_EMBED, T5_EMBED), "dec_emb": w(T5_VOCAB, T5_EMBED),
            "wq": w(T5_EMBED, T5_EMBED), "wk": w(T5_EMBED, T5_EMBED), "wv": w(T5_EMBED, T5_EMBED),
            "wck": w(T5_EMBED, T5_EMBED), "wcv": w(T5_EMBED, T5_EMBED), "wout": w(T5_EMBED, T5_VOCAB),
            "whid": w(T5_EMBED, T5_VOCAB)}


class _Builder:
    def __init__(self, weights):
        self.nodes, self.inits = [], [numpy_helper.from_array(a, n) for n, a in weights.items()]
        self.const("heads_shape", np.array([0, 0, T5_HEADS, T5_HEAD], np.int64))
        self.const("merged_shape", np.array([0, 0, T5_EMBED], np.int64))
        self.const("scale", np.float32(1 / np.sqrt(T5_HEAD)))
        self.const("one", np.float32(1))
        self.const("big", np.float32(-10000))
        self.const("axes12", np.array([1, 2], np.int64))

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, kind, ins, out, **attrs):
        self.nodes.append(helper.make_node(kind, ins, [out], **attrs))
        return out

    def heads(self, x, w, out):
        """x (b, s, E) @ w -> (b, heads, s, head)."""
        mm = self.op("MatMul", [x, w], out + "_mm")
        return self.op("Transpose", [self.op("Reshape", [mm, "heads_shape"], out + "_4")], out, perm=[0, 2, 1, 3])

    def attend(self, q, keys, values, out, bias=None):
        scores = self.op("Mul", [self.op("MatMul", [q, self.op("Transpose", [keys], out + "_kt", perm=[0, 1, 3, 2])],
                                         out + "_qk"), "scale"], out + "_scaled")
        if bias:
            scores = self.op("Add", [scores, bias], out + "_biased")
        return self.op("MatMul", [self.op("Softmax", [scores], out + "_p", axis=-1), values], out)

    def step(self, ids, past_k, past_v, cross_k, cross_v, mask, hidden, logits, present_k, present_v):
        """One decoder step on ids (b, 1): self attention over the past and this token, cross
        attention over the source, logits from both and the mean encoder state."""
        x = self.op("Gather", ["dec_emb", ids], "x")
        q = self.heads(x, "wq", "q")
        k = self.heads(x, "wk", "k")
        v = self.heads(x, "wv", "v")
        keys = self.op("Concat", [past_k, k], present_k, axis=2) if past_k else self.op("Identity", [k], present_k)
        values = self.op("Concat", [past_v, v], present_v, axis=2) if past_v else self.op("Identity", [v], present_v)
        self_ctx = self.attend(q, keys, values, "self_ctx")
        keep = self.op("Sub", ["one", self.op("Cast", [mask], "mask_f", to=TensorProto.FLOAT)], "masked")
        bias = self.op("Unsqueeze", [self.op("Mul", [keep, "big"], "bias2"), "axes12"], "bias")
        cross_ctx = self.attend(q, cross_k, cross_v, "cross_ctx", bias)
        ctx = self.op("Reshape", [self.op("Transpose", [self.op("Add", [self_ctx, cross_ctx], "ctx4")], "ctx_t",
                                          perm=[0, 2, 1, 3]), "merged_shape"], "ctx")
        mean = self.op("ReduceMean", [hidden], "hidden_mean", axes=[1], keepdims=1)
        return self.op("Add", [self.op("MatMul", [self.op("Add", [x, ctx], "h"), "wout"], "out_logits"),
                               self.op("MatMul", [mean, "whid"], "hid_logits")], logits)


def _info(name, elem, dims):
    return helper.make_tensor_value_info(name, elem, dims)


def t5_graphs(rng):
    """(encoder, decoder) graphs sharing one set of weights."""
    weights = _weights(rng)
    f, i = TensorProto.FLOAT, TensorProto.INT32
    cache = lambda n, s: _info(n, f, ["batch", T5_HEADS, s, T5_HEAD])

    e = _Builder(weights)
    hidden = e.op("Tanh", [e.op("MatMul", [e.op("Gather", ["enc_emb", "encoder_input_ids"], "src"), "enc_w"],
                                "src_mm")], "encoder_hidden_states")
    e.heads(hidden, "wck", "present_key_cross_0")
    e.heads(hidden, "wcv", "present_value_cross_0")
    e.step("decoder_input_ids", None, None, "present_key_cross_0", "present_value_cross_0", "encoder_attention_mask",
           hidden, "logits", "present_key_self_0", "present_value_self_0")
    encoder = helper.make_graph(
        e.nodes, "encoder",
        [_info("encoder_input_ids", i, ["batch", "source"]), _info("encoder_attention_mask", i, ["batch", "source"]),
         _info("decoder_input_ids", i, ["batch", 1])],
        [_info("logits", f, ["batch", 1, T5_VOCAB]), _info("encoder_hidden_states", f, ["batch", "source", T5_EMBED]),
         cache("present_key_self_0", 1), cache("present_value_self_0", 1),
         cache("present_key_cross_0", "source"), cache("present_value_cross_0", "source")], e.inits)

    d = _Builder(weights)
    d.step("input_ids", "past_key_self_0", "past_value_self_0", "past_key_cross_0", "past_value_cross_0",
           "encoder_attention_mask", "encoder_hidden_states", "logits", "present_key_self_0", "present_value_self_0")
    decoder = helper.make_graph(
        d.nodes, "decoder",
        [_info("input_ids", i, ["batch", 1]), _info("encoder_attention_mask", i, ["batch", "source"]),
         _info("encoder_hidden_states", f, ["batch", "source", T5_EMBED]),
         cache("past_key_self_0", "past"), cache("past_value_self_0", "past"),
         cache("past_key_cross_0", "source"), cache("past_value_cross_0", "source")],
        [_info("logits", f, ["batch", 1, T5_VOCAB]), cache("present_key_self_0", "total"),
         cache("present_value_self_0", "total")], d.inits)
    return encoder, decoder
