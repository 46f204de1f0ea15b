// com.microsoft GreedySearch-1 (ONNX Runtime's contrib operator), GPT models (model_type 0):
// generates tokens after the prompt `input_ids` (batch, prompt) with the `decoder`
// subgraph, picking the highest processed score each step, until every row has produced
// eos_token_id or the sequences reach max_length. `sequences` (batch, max_length) holds the
// prompt, then the generated tokens; from a row's eos on (the eos included, as ONNX Runtime
// writes it) it holds pad_token_id.
//
// The decoder takes input_ids, position_ids, attention_mask (int32) and past_0..past_{n-1},
// and yields logits (batch, steps, vocab) and present_0..present_{n-1}. The first step runs
// it on the whole prompt with empty pasts (2, batch, heads, 0, head_size, dims read from
// the declared past inputs); later steps on the last token, each present becoming the next
// past by a swap, never a copy. The prompt's mask is attention_mask when given, else 0 at
// pad_token_id; a position counts the tokens other than pad_token_id before it (0 at a pad),
// whatever attention_mask says, as ONNX Runtime does; each step then adds one position and
// appends 1 to the mask.
#include <string>
#include <vector>

#include "exec/control/generation_scores.h"
#include "exec/control/subgraph.h"
#include "kernels/convert.h"

namespace bough::ops {

namespace {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "GreedySearch " + message);
}

// The decoder's shape: 3 fixed inputs then the pasts; logits then as many presents.
struct DecoderLayout {
  size_t pasts = 0;
};

DecoderLayout decoder_layout(const NodeView& view) {
  if (view.attr_int("model_type", 0) != 0)
    view.unsupported("GreedySearch supports model_type 0 (GPT) only, got " +
                     std::to_string(view.attr_int("model_type", 0)));
  for (const char* name : {"encoder", "init_decoder"})
    if (view.has_attr(name))
      view.unsupported(std::string("GreedySearch with an ") + name + " subgraph is not supported");
  if (view.attr_int("no_repeat_ngram_size", 0) < 0)
    view.invalid("no_repeat_ngram_size must not be negative, got " +
                 std::to_string(view.attr_int("no_repeat_ngram_size", 0)));
  const ir::Graph& g = view.graph_attr("decoder");
  if (g.inputs.size() < 3)
    view.invalid(
        "the decoder must take input_ids, position_ids, attention_mask and the pasts, "
        "it takes " +
        std::to_string(g.inputs.size()) + " inputs");
  const size_t pasts = g.inputs.size() - 3;
  if (g.outputs.size() != 1 + pasts)
    view.invalid("the decoder takes " + std::to_string(pasts) +
                 " pasts, so it must yield logits and " + std::to_string(pasts) +
                 " presents, it yields " + std::to_string(g.outputs.size()) + " outputs");
  const char* names[] = {"input_ids", "position_ids", "attention_mask"};
  for (size_t i = 0; i < 3; ++i) {
    const ir::Type& t = g.inputs[i]->type;
    if (g.inputs[i]->has_value_info && t.kind == ir::Type::Kind::Tensor &&
        t.elem != ElemType::Int32)
      view.invalid(std::string("the decoder's ") + names[i] +
                   " must be tensor(int32), it declares " + ir::to_string(t));
  }
  for (size_t j = 0; j < pasts; ++j) {
    const ir::Type& t = g.inputs[3 + j]->type;
    const auto& d = t.shape.dims;
    const auto known = [&](size_t k) { return d[k].kind == ir::Dim::Kind::Known; };
    if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known || d.size() != 5 || !known(0) ||
        d[0].value != 2 || !known(2) || !known(4) ||
        (t.elem != ElemType::Float && t.elem != ElemType::Float16))
      view.invalid("the decoder's past input " + std::to_string(j) +
                   " must be declared float or float16 (2, batch, heads, past, head_size) with "
                   "heads and head_size known, it declares " +
                   ir::to_string(t));
  }
  return {pasts};
}

// An int32 scalar input given as one element (ORT's shape is (1)).
int32_t one_int(const KernelIO& io, size_t i, const char* name, int32_t fallback) {
  if (!io.has_input(i)) return fallback;
  const Tensor& t = io.input(i);
  if (t.type() != ElemType::Int32 || t.numel() != 1)
    bad(std::string(name) + " must be one int32, got " + describe(io.value(i)));
  return t.data<int32_t>()[0];
}

class GreedySearch : public Kernel {
 public:
  GreedySearch(Body decoder, std::vector<std::pair<ElemType, Dims>> pasts, int32_t eos, int32_t pad,
               int64_t vocab_size, int64_t no_repeat_ngram_size)
      : decoder_(std::move(decoder)),
        pasts_(std::move(pasts)),
        eos_(eos),
        pad_(pad),
        vocab_size_(vocab_size),
        no_repeat_ngram_size_(no_repeat_ngram_size) {}

  void run(KernelIO& io) override {
    const Tensor& ids = io.input(0);
    if (ids.type() != ElemType::Int32 || ids.rank() != 2 || ids.dim(1) == 0)
      bad("input_ids must be int32 (batch, prompt) with a prompt, got " + describe(io.value(0)));
    const int64_t batch = ids.dim(0), prompt = ids.dim(1);
    const int32_t max_length = one_int(io, 1, "max_length", 0);
    if (max_length <= prompt)
      bad("max_length (" + std::to_string(max_length) + ") must exceed the prompt length (" +
          std::to_string(prompt) + ")");
    ScoreRules rules;
    rules.eos_token_id = eos_;
    rules.min_length = one_int(io, 2, "min_length", 0);
    rules.no_repeat_ngram_size = no_repeat_ngram_size_;
    if (io.has_input(3)) {
      const Tensor& p = io.input(3);
      if (p.type() != ElemType::Float || p.numel() != 1)
        bad("repetition_penalty must be one float, got " + describe(io.value(3)));
      rules.repetition_penalty = p.data<float>()[0];
    }
    const VocabMask vocab_mask = mask_input(io, 4, "vocab_mask", {});
    const VocabMask prefix_mask = mask_input(io, 5, "prefix_vocab_mask", {batch});
    rules.vocab_mask = vocab_mask.data;

    // The prompt step's inputs: the mask (given or from the pads) and the positions.
    Value mask, positions, step_ids;
    Tensor& m = mask.as_tensor();
    m = io.has_input(6) ? io.input(6) : Tensor(ElemType::Int32, {batch, prompt});
    if (m.type() != ElemType::Int32 || m.shape() != ids.shape())
      bad("attention_mask must be int32 " + shape_string(ids.shape()) + ", got " + describe(m));
    Tensor& pos = positions.as_tensor();
    pos.reinit(ElemType::Int32, {batch, prompt});
    std::vector<int32_t> next_position(static_cast<size_t>(batch));
    for (int64_t b = 0; b < batch; ++b) {
      int32_t count = 0;
      for (int64_t s = 0; s < prompt; ++s) {
        const int64_t k = b * prompt + s;
        if (!io.has_input(6)) m.data<int32_t>()[k] = ids.data<int32_t>()[k] == pad_ ? 0 : 1;
        pos.data<int32_t>()[k] = ids.data<int32_t>()[k] == pad_ ? 0 : count++;
      }
      next_position[static_cast<size_t>(b)] = count;
    }

    std::vector<Value> state(pasts_.size()), next(pasts_.size());
    for (size_t j = 0; j < pasts_.size(); ++j) {
      Dims shape = pasts_[j].second;
      shape[1] = batch;
      state[j] = Tensor(pasts_[j].first, shape);
    }
    // Row b's tokens so far are sequences[b * max_length, + length).
    std::vector<int32_t> sequences(static_cast<size_t>(batch * max_length), pad_);
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t s = 0; s < prompt; ++s)
        sequences[static_cast<size_t>(b * max_length + s)] = ids.data<int32_t>()[b * prompt + s];
    std::vector<int32_t> tokens(static_cast<size_t>(batch));
    std::vector<bool> done(static_cast<size_t>(batch), false);
    std::vector<kernels::Stacker> no_stacks;
    int64_t length = prompt;
    auto pick = [&](const exec::Plan& plan) {
      pick_tokens(plan.output(0), batch, length, rules, vocab_mask, prefix_mask, sequences,
                  max_length, tokens);
    };
    for (bool first = true;; first = false) {
      decoder_.plan->bind_input(0, first ? io.value(0) : step_ids);
      decoder_.plan->bind_input(1, positions);
      decoder_.plan->bind_input(2, mask);
      rules.prefix_vocab_mask = first ? prefix_mask.data : nullptr;
      decoder_.iterate(io, state, next, 3, 1, no_stacks, pick);
      bool all_done = true;
      for (int64_t b = 0; b < batch; ++b) {
        int32_t& t = tokens[static_cast<size_t>(b)];
        // As in ONNX Runtime, the eos itself is written as pad_token_id, like all after it.
        if (t == eos_) done[static_cast<size_t>(b)] = true;
        if (done[static_cast<size_t>(b)]) t = pad_;
        all_done = all_done && done[static_cast<size_t>(b)];
        sequences[static_cast<size_t>(b * max_length + length)] = t;
      }
      ++length;
      if (length >= max_length || all_done) break;
      next_step_inputs(tokens, next_position, length, step_ids, positions, mask);
    }
    Tensor& out = io.output_tensor(0);
    out.reinit(ElemType::Int32, {batch, max_length});
    std::copy(sequences.begin(), sequences.end(), out.data<int32_t>());
  }

 private:
  // An optional int32 mask over the vocabulary (with leading dims `lead`); its size is checked
  // against the logits when they arrive.
  struct VocabMask {
    const int32_t* data = nullptr;
    int64_t vocab = 0;
  };
  static VocabMask mask_input(const KernelIO& io, size_t i, const char* name, Dims lead) {
    if (!io.has_input(i)) return {};
    const Tensor& t = io.input(i);
    if (t.type() != ElemType::Int32 || t.rank() != lead.size() + 1)
      bad(std::string(name) + " must be int32 of rank " + std::to_string(lead.size() + 1) +
          ", got " + describe(io.value(i)));
    for (size_t k = 0; k < lead.size(); ++k)
      if (t.dim(k) != lead[k]) bad(std::string(name) + " has the wrong batch size: " + describe(t));
    return {t.data<int32_t>(), t.dim(t.rank() - 1)};
  }

  // Scores the last position's logits of each unfinished row and picks its token.
  void pick_tokens(const Value& logits_value, int64_t batch, int64_t length,
                   const ScoreRules& rules, const VocabMask& vocab_mask,
                   const VocabMask& prefix_mask, const std::vector<int32_t>& sequences,
                   int64_t max_length, std::vector<int32_t>& tokens) const {
    if (!logits_value.is_tensor())
      bad("'s decoder must yield logits as a tensor, got " + describe(logits_value));
    const Tensor& raw = logits_value.tensor();
    if ((raw.type() != ElemType::Float && raw.type() != ElemType::Float16) || raw.rank() != 3 ||
        raw.dim(0) != batch || raw.dim(1) == 0 || raw.dim(2) == 0)
      bad("'s decoder must yield float logits (" + std::to_string(batch) + ", steps, vocab), got " +
          describe(raw));
    const Tensor logits = kernels::cast(raw, ElemType::Float);
    const int64_t steps = logits.dim(1), vocab = logits.dim(2);
    if (vocab_size_ > 0 && vocab_size_ != vocab)
      bad("vocab_size is " + std::to_string(vocab_size_) + " but the logits have " +
          std::to_string(vocab));
    if ((vocab_mask.data && vocab_mask.vocab != vocab) ||
        (prefix_mask.data && prefix_mask.vocab != vocab))
      bad("vocab_mask and prefix_vocab_mask must cover the logits' " + std::to_string(vocab) +
          " tokens");
    std::vector<float> row(static_cast<size_t>(vocab));
    for (int64_t b = 0; b < batch; ++b) {
      const float* last = logits.data<float>() + (b * steps + steps - 1) * vocab;
      std::copy(last, last + vocab, row.begin());
      apply_score_rules(rules, row,
                        std::span<const int32_t>(sequences).subspan(
                            static_cast<size_t>(b * max_length), static_cast<size_t>(length)),
                        b);
      tokens[static_cast<size_t>(b)] = first_argmax(row);
    }
  }

  // The inputs of a step after the first: the new tokens, their positions, the mask one longer.
  static void next_step_inputs(const std::vector<int32_t>& tokens,
                               std::vector<int32_t>& next_position, int64_t length, Value& step_ids,
                               Value& positions, Value& mask) {
    const auto batch = static_cast<int64_t>(tokens.size());
    Tensor& ids = step_ids.as_tensor();
    ids.reinit(ElemType::Int32, {batch, 1});
    Tensor& pos = positions.as_tensor();
    pos.reinit(ElemType::Int32, {batch, 1});
    Tensor grown(ElemType::Int32, {batch, length});
    const Tensor& old = mask.tensor();
    for (int64_t b = 0; b < batch; ++b) {
      ids.data<int32_t>()[b] = tokens[static_cast<size_t>(b)];
      pos.data<int32_t>()[b] = next_position[static_cast<size_t>(b)]++;
      std::copy(old.data<int32_t>() + b * (length - 1),
                old.data<int32_t>() + (b + 1) * (length - 1), grown.data<int32_t>() + b * length);
      grown.data<int32_t>()[b * length + length - 1] = 1;
    }
    mask = std::move(grown);
  }

  Body decoder_;
  std::vector<std::pair<ElemType, Dims>> pasts_;  // element type and shape of the empty pasts
  int32_t eos_, pad_;
  int64_t vocab_size_, no_repeat_ngram_size_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const DecoderLayout layout = decoder_layout(ctx);
  const ir::Graph& g = ctx.graph_attr("decoder");
  std::vector<std::pair<ElemType, Dims>> pasts;
  for (size_t j = 0; j < layout.pasts; ++j) {
    const ir::Type& t = g.inputs[3 + j]->type;
    pasts.emplace_back(t.elem, Dims{2, 0, t.shape.dims[2].value, 0, t.shape.dims[4].value});
  }
  if (!ctx.has_attr("eos_token_id") || !ctx.has_attr("pad_token_id"))
    ctx.invalid("GreedySearch needs eos_token_id and pad_token_id");
  return std::make_unique<GreedySearch>(Body::compile(ctx, g), std::move(pasts),
                                        static_cast<int32_t>(ctx.attr_int("eos_token_id", 0)),
                                        static_cast<int32_t>(ctx.attr_int("pad_token_id", 0)),
                                        ctx.attr_int("vocab_size", -1),
                                        ctx.attr_int("no_repeat_ngram_size", 0));
}

// sequences: int32 (batch, max_length), max_length when known before running. The decoder is
// inferred on any step's inputs, so its own nodes are checked.
void infer(InferContext& ctx) {
  const DecoderLayout layout = decoder_layout(ctx);
  const ir::Graph& g = ctx.graph_attr("decoder");
  const ir::Shape& ids = ctx.input_shape(0);
  if (ids.rank_known && ids.dims.size() != 2)
    ctx.invalid("input_ids must be (batch, prompt), got rank " + std::to_string(ids.dims.size()));
  const ir::Dim batch = ids.rank_known ? ids.dims[0] : ir::Dim::unknown();
  // Steps and lengths left open: the first step sees the prompt, later ones one token.
  std::vector<ir::Type> inputs(
      3, ir::Type::tensor(ElemType::Int32, ir::Shape::of({batch, ir::Dim::unknown()})));
  for (size_t j = 0; j < layout.pasts; ++j) {
    ir::Type past = g.inputs[3 + j]->type;
    past.shape.dims[1] = batch;
    past.shape.dims[3] = ir::Dim::unknown();
    inputs.push_back(past);
  }
  const std::vector<ir::Type> outs = ctx.infer_subgraph(g, inputs);
  if (!outs.empty() && outs[0].kind == ir::Type::Kind::Tensor && outs[0].shape.rank_known &&
      outs[0].shape.dims.size() != 3)
    ctx.error("the decoder's logits must be (batch, steps, vocab), it yields " +
              ir::to_string(outs[0]));
  ir::Dim length = ir::Dim::unknown();
  if (const Tensor* m = ctx.input_value(1); m && m->type() == ElemType::Int32 && m->numel() == 1)
    length = ir::Dim::known(m->data<int32_t>()[0]);
  ctx.set_output_tensor(0, ElemType::Int32, ir::Shape::of({batch, length}));
}

}  // namespace

const OpDef& def_MsGreedySearch() {
  static const OpDef def{
      "com.microsoft",
      "GreedySearch",
      {1},
      2,
      7,
      1,
      1,
      make,
      infer,
      {{1,
        "input_ids: I, max_length: I, min_length?: I, repetition_penalty?: T, vocab_mask?: I, "
        "prefix_vocab_mask?: I, attention_mask?: I -> sequences: I; T = float, I = int32; "
        "decoder: graph, decoder_start_token_id: int = -1, encoder: graph?, eos_token_id: int, "
        "init_decoder: graph?, model_type: int = 0, no_repeat_ngram_size: int = 0, "
        "pad_token_id: int, vocab_size: int = -1"}}};
  return def;
}

}  // namespace bough::ops
