// com.microsoft BeamSearch-1 (ONNX Runtime's contrib operator), GPT models (model_type 0):
// keeps num_beams running sequences per batch entry after the prompt `input_ids` (batch,
// prompt), as rows of the decoder batch (batch * num_beams, entry-major), with the semantics
// of ONNX Runtime's CPU implementation:
//
// - Each step scores every row: log-softmax of the last position's logits, then the shared
//   logits processing (generation_scores.h, on log-probabilities), plus the row's running
//   score.
// - The scorer (beam_scorer.h) picks each entry's next beams from those scores, keeps the
//   hypotheses that end in eos_token_id (beam_hypotheses.h) and marks entries done.
// - The search stops when every entry is done or the sequences reach max_length; the
//   running beams of unfinished entries then join their hypotheses with their scores, and
//   `sequences` (batch, num_return_sequences, max_length) holds each entry's best
//   hypotheses, best first, padded with pad_token_id; `sequences_scores` their scores.
// - Each row's pasts follow the row its beam came from (one gather per past and step).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "exec/control/beam_scorer.h"
#include "exec/control/generation_scores.h"
#include "exec/control/gpt_decoder.h"

namespace bough::ops {

namespace {

constexpr const char* kOp = "BeamSearch";

constexpr int32_t kMaxLength = 4096;

// log(softmax(logits)) of one row, into `out`.
void log_softmax(const float* logits, std::span<float> out) {
  const float top = *std::max_element(logits, logits + out.size());
  double sum = 0;
  for (size_t v = 0; v < out.size(); ++v) sum += std::exp(static_cast<double>(logits[v] - top));
  const auto log_sum = static_cast<float>(std::log(sum));
  for (size_t v = 0; v < out.size(); ++v) out[v] = logits[v] - top - log_sum;
}

// Reorders the rows (axis 1) of a past (2, rows, heads, length, head_size) by `from`: row r
// of `out` is row from[r] of `past`.
void gather_rows(const Tensor& past, std::span<const int32_t> from, Tensor& out) {
  out.reinit(past.type(), past.shape());
  const auto rows = static_cast<int64_t>(from.size());
  const size_t row_bytes = past.nbytes() / static_cast<size_t>(2 * rows);
  const auto* src = static_cast<const uint8_t*>(past.raw());
  auto* dst = static_cast<uint8_t*>(out.raw());
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + static_cast<size_t>(half * rows + r) * row_bytes,
                  src + static_cast<size_t>(half * rows + from[static_cast<size_t>(r)]) * row_bytes,
                  row_bytes);
}

struct Settings {
  int32_t eos, pad;
  int64_t vocab_size, no_repeat_ngram_size;
  bool early_stopping;
};

class BeamSearch : public Kernel {
 public:
  BeamSearch(Body decoder, std::vector<std::pair<ElemType, Dims>> pasts, Settings settings)
      : decoder_(std::move(decoder)), pasts_(std::move(pasts)), s_(settings) {}

  void run(KernelIO& io) override {
    if (io.has_input(10)) gpt::bad(kOp, "does not support the decoder_input_ids input");
    // 0 is "none"; the others select model-specific processing (Whisper's timestamps).
    if (const int32_t p = gpt::one_int(io, 11, kOp, "logits_processor", 0); p != 0)
      gpt::bad(kOp, "supports logits_processor 0 only, got " + std::to_string(p));
    const Tensor& ids = io.input(0);
    const int64_t beams = gpt::one_int(io, 3, kOp, "num_beams", 1);
    if (beams < 1 || beams > 128)
      gpt::bad(kOp, "num_beams must be 1 to 128, got " + std::to_string(beams));
    gpt::Feeds feeds(ids, io.has_input(9) ? &io.input(9) : nullptr, s_.pad, beams, kOp);
    const int64_t batch = ids.dim(0), prompt = ids.dim(1), rows = batch * beams;
    const int32_t max_length = gpt::one_int(io, 1, kOp, "max_length", 0);
    if (max_length <= prompt)
      gpt::bad(kOp, "max_length (" + std::to_string(max_length) +
                        ") must exceed the prompt length (" + std::to_string(prompt) + ")");
    // ONNX Runtime's limit, which also bounds what the sequences and hypotheses take.
    if (max_length > kMaxLength)
      gpt::bad(kOp, "max_length must be at most " + std::to_string(kMaxLength) + ", got " +
                        std::to_string(max_length));
    const int64_t returned = gpt::one_int(io, 4, kOp, "num_return_sequences", 1);
    if (returned < 1 || returned > beams)
      gpt::bad(kOp, "num_return_sequences must be 1 to num_beams (" + std::to_string(beams) +
                        "), got " + std::to_string(returned));
    const float length_penalty = gpt::one_float(io, 5, kOp, "length_penalty", 1.0f);
    ScoreRules rules;
    rules.eos_token_id = s_.eos;
    rules.min_length = gpt::one_int(io, 2, kOp, "min_length", 0);
    rules.no_repeat_ngram_size = s_.no_repeat_ngram_size;
    rules.repetition_penalty = gpt::one_float(io, 6, kOp, "repetition_penalty", 1.0f);
    if (!(rules.repetition_penalty > 0))
      gpt::bad(kOp, "repetition_penalty must be above 0, got " +
                        std::to_string(rules.repetition_penalty));
    const gpt::VocabMask vocab_mask = gpt::mask_input(io, 7, kOp, "vocab_mask", {});
    const gpt::VocabMask prefix_mask = gpt::mask_input(io, 8, kOp, "prefix_vocab_mask", {batch});
    rules.vocab_mask = vocab_mask.data;

    std::vector<Value> state(pasts_.size()), next(pasts_.size()), spare(pasts_.size());
    for (size_t j = 0; j < pasts_.size(); ++j) {
      Dims shape = pasts_[j].second;
      shape[1] = rows;
      state[j] = Tensor(pasts_[j].first, shape);
    }
    BeamScorer scorer(ids, {beams, max_length, length_penalty, s_.early_stopping, s_.eos, s_.pad});
    std::vector<float> scores;
    // The scores output (steps, batch, num_beams, vocab): each step's scores as the scorer
    // sees them; zeros for steps not run when the search ends early (ONNX Runtime leaves
    // them unwritten).
    Tensor* step_scores = io.has_output(2) ? &io.output_tensor(2) : nullptr;
    std::vector<kernels::Stacker> no_stacks;
    auto choose = [&](const exec::Plan& plan) {
      const gpt::Logits logits(plan.output(0), rows, s_.vocab_size, vocab_mask, prefix_mask, kOp);
      const int64_t vocab = logits.vocab();
      scores.resize(static_cast<size_t>(rows * vocab));
      for (int64_t r = 0; r < rows; ++r) {
        const std::span<float> row(scores.data() + r * vocab, static_cast<size_t>(vocab));
        log_softmax(logits.last(r), row);
        apply_score_rules(rules, row, scorer.sequence(r), r / beams);
        for (float& x : row) x += scorer.running_score(r);
      }
      if (step_scores) {
        const int64_t step = scorer.length() - prompt;
        if (step == 0) {
          step_scores->reinit(ElemType::Float, {max_length - prompt, batch, beams, vocab});
          std::fill(step_scores->data<float>(), step_scores->data<float>() + step_scores->numel(),
                    0.0f);
        }
        std::copy(scores.begin(), scores.end(), step_scores->data<float>() + step * rows * vocab);
      }
      scorer.step(scores, vocab);
    };
    for (bool first = true;; first = false) {
      feeds.bind(*decoder_.plan);
      rules.prefix_vocab_mask = first ? prefix_mask.data : nullptr;
      decoder_.iterate(io, state, next, 3, 1, no_stacks, choose);
      if (scorer.all_done() || scorer.length() >= max_length) break;
      // The pasts follow their source rows too: one gather per past into a second buffer
      // swapped in. In place would not do, as two beams may share a source row and a row's
      // old value may still be needed by another; the copy is skipped when every row keeps
      // its own.
      const std::span<const int32_t> from = scorer.sources();
      bool moved = false;
      for (int64_t r = 0; r < rows; ++r) moved = moved || from[static_cast<size_t>(r)] != r;
      if (moved)
        for (size_t j = 0; j < state.size(); ++j) {
          if (!state[j].is_tensor()) gpt::bad(kOp, "'s decoder must yield presents as tensors");
          gather_rows(state[j].tensor(), from, spare[j].as_tensor());
          std::swap(state[j], spare[j]);
        }
      feeds.advance(scorer.tokens(), scorer.length());
    }
    write_outputs(io, scorer.finish(), returned, max_length);
  }

 private:
  void write_outputs(KernelIO& io, const std::vector<BeamHypotheses>& finished, int64_t returned,
                     int64_t max_length) const {
    const auto batch = static_cast<int64_t>(finished.size());
    Tensor& out = io.output_tensor(0);
    out.reinit(ElemType::Int32, {batch, returned, max_length});
    std::fill(out.data<int32_t>(), out.data<int32_t>() + out.numel(), s_.pad);
    Tensor* scores = nullptr;
    if (io.has_output(1)) {
      scores = &io.output_tensor(1);
      scores->reinit(ElemType::Float, {batch, returned});
    }
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t k = 0; k < returned; ++k) {
        const auto& h = finished[static_cast<size_t>(b)].kept()[static_cast<size_t>(k)];
        std::copy(h.tokens.begin(), h.tokens.end(),
                  out.data<int32_t>() + (b * returned + k) * max_length);
        if (scores) scores->data<float>()[b * returned + k] = h.score;
      }
  }

  Body decoder_;
  std::vector<std::pair<ElemType, Dims>> pasts_;  // element type and shape of the empty pasts
  Settings s_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const size_t pasts = gpt::decoder_pasts(ctx, kOp);
  const ir::Graph& g = ctx.graph_attr("decoder");
  if (!ctx.has_attr("eos_token_id") || !ctx.has_attr("pad_token_id"))
    ctx.invalid("BeamSearch needs eos_token_id and pad_token_id");
  const Settings settings{static_cast<int32_t>(ctx.attr_int("eos_token_id", 0)),
                          static_cast<int32_t>(ctx.attr_int("pad_token_id", 0)),
                          ctx.attr_int("vocab_size", -1), ctx.attr_int("no_repeat_ngram_size", 0),
                          ctx.attr_int("early_stopping", 0) != 0};
  return std::make_unique<BeamSearch>(Body::compile(ctx, g), gpt::empty_pasts(g, pasts), settings);
}

// sequences: int32 (batch, num_return_sequences, max_length), sequences_scores: float
// (batch, num_return_sequences) and scores: float (max_length - prompt, batch, num_beams,
// vocab), the sizes when known before running.
void infer(InferContext& ctx) {
  const size_t pasts = gpt::decoder_pasts(ctx, kOp);
  const ir::Shape& ids = ctx.input_shape(0);
  if (ids.rank_known && ids.dims.size() != 2)
    ctx.invalid("input_ids must be (batch, prompt), got rank " + std::to_string(ids.dims.size()));
  const ir::Dim batch = ids.rank_known ? ids.dims[0] : ir::Dim::unknown();
  const auto known_int = [&](size_t i) {
    const Tensor* t = ctx.input_value(i);
    return t && t->type() == ElemType::Int32 && t->numel() == 1
               ? ir::Dim::known(t->data<int32_t>()[0])
               : ir::Dim::unknown();
  };
  const ir::Dim beams = known_int(3);
  ir::Dim rows = ir::Dim::unknown();
  if (batch.kind == ir::Dim::Kind::Known && beams.kind == ir::Dim::Kind::Known)
    rows = ir::Dim::known(batch.value * beams.value);
  gpt::infer_decoder(ctx, pasts, rows);
  const ir::Dim returned = known_int(4);
  const ir::Dim max_length = known_int(1);
  ctx.set_output_tensor(0, ElemType::Int32, ir::Shape::of({batch, returned, max_length}));
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(1, ElemType::Float, ir::Shape::of({batch, returned}));
  if (ctx.num_outputs() > 2) {
    ir::Dim steps = ir::Dim::unknown(), vocab = ir::Dim::unknown();
    if (max_length.kind == ir::Dim::Kind::Known && ids.rank_known &&
        ids.dims[1].kind == ir::Dim::Kind::Known)
      steps = ir::Dim::known(max_length.value - ids.dims[1].value);
    if (const int64_t v = ctx.attr_int("vocab_size", -1); v > 0) vocab = ir::Dim::known(v);
    ctx.set_output_tensor(2, ElemType::Float, ir::Shape::of({steps, batch, beams, vocab}));
  }
}

}  // namespace

const OpDef& def_MsBeamSearch() {
  static const OpDef def{
      "com.microsoft",
      "BeamSearch",
      {1},
      5,
      12,
      1,
      3,
      make,
      infer,
      {{1,
        "input_ids: I, max_length: I, min_length?: I, num_beams: I, num_return_sequences: I, "
        "length_penalty?: T, repetition_penalty?: T, vocab_mask?: I, prefix_vocab_mask?: I, "
        "attention_mask?: I, decoder_input_ids?: I, logits_processor?: I -> sequences: I, "
        "sequences_scores?: T, scores?: T; T = float, I = int32; decoder: graph, "
        "decoder_start_token_id: int = -1, early_stopping: int = 0, encoder: graph?, "
        "eos_token_id: int, init_decoder: graph?, model_type: int = 0, "
        "no_repeat_ngram_size: int = 0, pad_token_id: int, vocab_size: int = -1"}}};
  return def;
}

}  // namespace bough::ops
