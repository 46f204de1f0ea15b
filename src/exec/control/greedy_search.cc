// com.microsoft GreedySearch-1 (ONNX Runtime's contrib operator), GPT models (model_type 0):
// generates tokens after the prompt `input_ids` (batch, prompt) with the `decoder`
// subgraph, picking the highest processed score each step, until every row has produced
// eos_token_id or the sequences reach max_length. `sequences` (batch, max_length) holds the
// prompt, then the generated tokens; from a row's eos on (the eos included, as ONNX Runtime
// writes it) it holds pad_token_id. The decoder's feeds are gpt_decoder.h's; each present
// becomes the next past by a swap, never a copy.
#include <string>
#include <vector>

#include "exec/control/generation_scores.h"
#include "exec/control/gpt_decoder.h"
#include "ir/storage.h"
#include "ops/def_from_rows.h"

namespace bough::ops {

namespace {
namespace greedy_search_op {

constexpr const char* kOp = "GreedySearch";

using gpt::VocabMask;

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
    gpt::Feeds feeds(ids, io.has_input(6) ? &io.input(6) : nullptr, pad_, 1, kOp);
    const int64_t batch = ids.dim(0), prompt = ids.dim(1);
    const int32_t max_length = gpt::one_int(io, 1, kOp, "max_length", 0);
    if (max_length <= prompt)
      gpt::bad(kOp, "max_length (" + std::to_string(max_length) +
                        ") must exceed the prompt length (" + std::to_string(prompt) + ")");
    ScoreRules rules;
    rules.eos_token_id = eos_;
    rules.min_length = gpt::one_int(io, 2, kOp, "min_length", 0);
    rules.no_repeat_ngram_size = no_repeat_ngram_size_;
    rules.repetition_penalty = gpt::one_float(io, 3, kOp, "repetition_penalty", 1.0f);
    const VocabMask vocab_mask = gpt::mask_input(io, 4, kOp, "vocab_mask", {});
    const VocabMask prefix_mask = gpt::mask_input(io, 5, kOp, "prefix_vocab_mask", {batch});
    rules.vocab_mask = vocab_mask.data;

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
      const gpt::Logits logits(plan.output(0), batch, vocab_size_, vocab_mask, prefix_mask, kOp);
      std::vector<float> row(static_cast<size_t>(logits.vocab()));
      for (int64_t b = 0; b < batch; ++b) {
        std::copy(logits.last(b), logits.last(b) + logits.vocab(), row.begin());
        apply_score_rules(rules, row,
                          std::span<const int32_t>(sequences).subspan(
                              static_cast<size_t>(b * max_length), static_cast<size_t>(length)),
                          b);
        tokens[static_cast<size_t>(b)] = first_argmax(row);
      }
    };
    for (bool first = true;; first = false) {
      feeds.bind(*decoder_.plan);
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
      feeds.advance(tokens, length);
    }
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, ElemType::Int32, {batch, max_length});
    std::copy(sequences.begin(), sequences.end(), out.data<int32_t>());
  }

 private:
  Body decoder_;
  std::vector<std::pair<ElemType, Dims>> pasts_;  // element type and shape of the empty pasts
  int32_t eos_, pad_;
  int64_t vocab_size_, no_repeat_ngram_size_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const size_t pasts = gpt::decoder_pasts(ctx, kOp);
  const ir::Graph& g = ctx.graph_attr("decoder");
  if (!ctx.has_attr("eos_token_id") || !ctx.has_attr("pad_token_id"))
    ctx.invalid("GreedySearch needs eos_token_id and pad_token_id");
  return std::make_unique<GreedySearch>(Body::compile(ctx, g), gpt::empty_pasts(g, pasts),
                                        static_cast<int32_t>(ctx.attr_int("eos_token_id", 0)),
                                        static_cast<int32_t>(ctx.attr_int("pad_token_id", 0)),
                                        ctx.attr_int("vocab_size", -1),
                                        ctx.attr_int("no_repeat_ngram_size", 0));
}

// sequences: int32 (batch, max_length), max_length when known before running. The decoder is
// inferred on any step's inputs, so its own nodes are checked.
void infer(InferContext& ctx) {
  const size_t pasts = gpt::decoder_pasts(ctx, kOp);
  const ir::Shape& ids = ctx.input_shape(0);
  if (ids.rank_known && ids.dims.size() != 2)
    ctx.invalid("input_ids must be (batch, prompt), got rank " + std::to_string(ids.dims.size()));
  const ir::Dim batch = ids.rank_known ? ids.dims[0] : ir::Dim::unknown();
  gpt::infer_decoder(ctx, pasts, batch);
  ir::Dim length = ir::Dim::unknown();
  if (const Tensor* m = ctx.input_value(1); m && m->type() == ElemType::Int32 && m->numel() == 1)
    length = ir::Dim::known(m->data<int32_t>()[0]);
  ctx.set_output_tensor(0, ElemType::Int32, ir::Shape::of({batch, length}));
}

constexpr SignatureText kRows[] = {
    {1,
     "input_ids: I, max_length: I, min_length?: I, repetition_penalty?: T, vocab_mask?: I, "
     "prefix_vocab_mask?: I, attention_mask?: I -> sequences: I; T = float, I = int32; "
     "decoder: graph, decoder_start_token_id: int = -1, encoder: graph?, eos_token_id: int, "
     "init_decoder: graph?, model_type: int = 0, no_repeat_ngram_size: int = 0, "
     "pad_token_id: int, vocab_size: int = -1"}};

}  // namespace greedy_search_op
}  // namespace

OpDef def_MsGreedySearch() {
  using namespace greedy_search_op;
  return def_from_rows("com.microsoft", "GreedySearch", make, infer, kRows);
}

}  // namespace bough::ops
