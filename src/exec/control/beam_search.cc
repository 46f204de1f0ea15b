// com.microsoft BeamSearch-1 (ONNX Runtime's contrib operator), GPT models (model_type 0):
// keeps num_beams running sequences per batch entry after the prompt `input_ids` (batch,
// prompt), as rows of the decoder batch (batch * num_beams, entry-major), with the semantics
// of ONNX Runtime's CPU implementation:
//
// - Each step scores every row: log-softmax of the last position's logits, then the shared
//   logits processing (generation_scores.h, on log-probabilities), plus the row's running
//   score. Before the first step beam 0 of each entry scores 0 and the others -1e9, so the
//   first step's candidates all come from beam 0 (the rows are equal then).
// - Per entry, the 2 * num_beams best (beam, token) candidates, by score then by lower
//   beam * vocab + token. In that order, a candidate ending in eos_token_id among the first
//   num_beams becomes a finished hypothesis (its tokens without the eos, beam_hypotheses.h);
//   one further down is dropped; the others fill the num_beams beams of the next step.
// - An entry is done once it holds num_beams hypotheses and either early_stopping is set or
//   no running beam can beat the worst of them; a done entry's rows run on with
//   pad_token_id and are ignored.
// - The search stops when every entry is done or the sequences reach max_length; the
//   running beams of unfinished entries then join their hypotheses with their scores, and
//   `sequences` (batch, num_return_sequences, max_length) holds each entry's best
//   hypotheses, best first, padded with pad_token_id; `sequences_scores` their scores.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "exec/control/beam_hypotheses.h"
#include "exec/control/generation_scores.h"
#include "exec/control/gpt_decoder.h"

namespace bough::ops {

namespace {

constexpr const char* kOp = "BeamSearch";

constexpr int32_t kMaxLength = 4096;

// ORT's score of the beams other than the first before the first step.
constexpr float kUnstartedBeam = -1e9f;

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
    // Row r's tokens so far are sequences[r * max_length, + length); each step writes the
    // reordered rows into next_sequences and swaps.
    std::vector<int32_t> sequences(static_cast<size_t>(rows * max_length), s_.pad);
    std::vector<int32_t> next_sequences(sequences.size(), s_.pad);
    for (int64_t r = 0; r < rows; ++r)
      std::copy(ids.data<int32_t>() + (r / beams) * prompt,
                ids.data<int32_t>() + (r / beams + 1) * prompt, sequences.begin() + r * max_length);
    std::vector<float> beam_scores(static_cast<size_t>(rows), 0.0f);
    for (int64_t r = 0; r < rows; ++r)
      if (r % beams != 0) beam_scores[static_cast<size_t>(r)] = kUnstartedBeam;
    std::vector<BeamHypotheses> finished(static_cast<size_t>(batch),
                                         BeamHypotheses(beams, length_penalty));
    std::vector<bool> done(static_cast<size_t>(batch), false);
    // The next step's token, source row and running score of each row.
    std::vector<int32_t> tokens(static_cast<size_t>(rows)), from(static_cast<size_t>(rows));
    std::vector<float> scores, next_scores(static_cast<size_t>(rows));
    std::vector<int64_t> order;
    std::vector<kernels::Stacker> no_stacks;
    int64_t length = prompt;

    auto choose = [&](const exec::Plan& plan) {
      const gpt::Logits logits(plan.output(0), rows, s_.vocab_size, vocab_mask, prefix_mask, kOp);
      const int64_t vocab = logits.vocab();
      // Scores of every (row, token), entry-major: entry b's candidates are
      // scores[b * beams * vocab, + beams * vocab), candidate k being beam k / vocab, token
      // k % vocab.
      scores.resize(static_cast<size_t>(rows * vocab));
      for (int64_t r = 0; r < rows; ++r) {
        const std::span<float> row(scores.data() + r * vocab, static_cast<size_t>(vocab));
        log_softmax(logits.last(r), row);
        apply_score_rules(rules, row,
                          std::span<const int32_t>(sequences).subspan(
                              static_cast<size_t>(r * max_length), static_cast<size_t>(length)),
                          r / beams);
        for (float& x : row) x += beam_scores[static_cast<size_t>(r)];
      }
      const int64_t per_entry = beams * vocab, top = std::min<int64_t>(2 * beams, per_entry);
      // Every entry's best 2 * num_beams candidate scores, done entries' too (see below).
      std::vector<float> top_scores(static_cast<size_t>(batch * 2 * beams),
                                    std::numeric_limits<float>::lowest());
      for (int64_t b = 0; b < batch; ++b) {
        const float* entry = scores.data() + b * per_entry;
        order.resize(static_cast<size_t>(per_entry));
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + top, order.end(),
                          [&](int64_t x, int64_t y) {
                            return entry[x] > entry[y] || (entry[x] == entry[y] && x < y);
                          });
        for (int64_t j = 0; j < top; ++j)
          top_scores[static_cast<size_t>(b * 2 * beams + j)] = entry[order[static_cast<size_t>(j)]];
        if (done[static_cast<size_t>(b)]) {
          // As ONNX Runtime does: the rows run on from row 0 with pad_token_id, scoring 0.
          for (int64_t k = 0; k < beams; ++k) {
            const auto r = static_cast<size_t>(b * beams + k);
            tokens[r] = s_.pad;
            from[r] = 0;
            next_scores[r] = 0;
          }
          continue;
        }
        int64_t filled = 0;
        for (int64_t j = 0; j < top && filled < beams; ++j) {
          const int64_t k = order[static_cast<size_t>(j)];
          const auto token = static_cast<int32_t>(k % vocab);
          const int64_t source = b * beams + k / vocab;
          if (token == s_.eos) {
            if (j < beams)
              finished[static_cast<size_t>(b)].add(
                  std::span<const int32_t>(sequences).subspan(
                      static_cast<size_t>(source * max_length), static_cast<size_t>(length)),
                  entry[k]);
            continue;
          }
          const auto r = static_cast<size_t>(b * beams + filled++);
          tokens[r] = token;
          from[r] = static_cast<int32_t>(source);
          next_scores[r] = entry[k];
        }
        if (filled < beams)
          gpt::bad(kOp, "found fewer than num_beams candidates other than eos_token_id");
      }
      // Whether each entry is done. ONNX Runtime reads entry b's best candidate from the
      // 2 * num_beams candidate scores starting at b * num_beams (not b * 2 * num_beams), so
      // past the first entry it may look at the previous entry's; done the same way here so
      // that entries finish on the same step (a done entry's rows still score candidates).
      for (int64_t b = 0; b < batch; ++b) {
        BeamHypotheses& h = finished[static_cast<size_t>(b)];
        if (done[static_cast<size_t>(b)] || !h.full()) continue;
        const float best = *std::max_element(top_scores.begin() + b * beams,
                                             top_scores.begin() + b * beams + 2 * beams);
        if (s_.early_stopping || !h.can_improve(best, length)) done[static_cast<size_t>(b)] = true;
      }
    };

    for (bool first = true;; first = false) {
      feeds.bind(*decoder_.plan);
      rules.prefix_vocab_mask = first ? prefix_mask.data : nullptr;
      decoder_.iterate(io, state, next, 3, 1, no_stacks, choose);
      // The rows' sequences follow their source rows, one token longer.
      for (int64_t r = 0; r < rows; ++r) {
        const auto source = sequences.begin() + from[static_cast<size_t>(r)] * max_length;
        std::copy(source, source + length, next_sequences.begin() + r * max_length);
        next_sequences[static_cast<size_t>(r * max_length + length)] =
            tokens[static_cast<size_t>(r)];
      }
      sequences.swap(next_sequences);
      beam_scores = next_scores;
      ++length;
      if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }) || length >= max_length)
        break;
      // The pasts follow their source rows too: one gather per past into a second buffer
      // swapped in. In place would not do, as two beams may share a source row and a row's
      // old value may still be needed by another; the copy is skipped when every row keeps
      // its own.
      bool moved = false;
      for (int64_t r = 0; r < rows; ++r) moved = moved || from[static_cast<size_t>(r)] != r;
      if (moved)
        for (size_t j = 0; j < state.size(); ++j) {
          if (!state[j].is_tensor()) gpt::bad(kOp, "'s decoder must yield presents as tensors");
          gather_rows(state[j].tensor(), from, spare[j].as_tensor());
          std::swap(state[j], spare[j]);
        }
      feeds.advance(tokens, length);
    }

    for (int64_t b = 0; b < batch; ++b)
      if (!done[static_cast<size_t>(b)])
        for (int64_t r = b * beams; r < (b + 1) * beams; ++r)
          finished[static_cast<size_t>(b)].add(
              std::span<const int32_t>(sequences).subspan(static_cast<size_t>(r * max_length),
                                                          static_cast<size_t>(length)),
              beam_scores[static_cast<size_t>(r)]);
    write_outputs(io, finished, returned, max_length);
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

// The decoder's pasts, after checking what bough supports of the node.
size_t checked_pasts(const NodeView& view) {
  if (view.node.outputs.size() > 2 && view.node.outputs[2])
    view.unsupported("BeamSearch does not support the scores output");
  return gpt::decoder_pasts(view, kOp);
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const size_t pasts = checked_pasts(ctx);
  const ir::Graph& g = ctx.graph_attr("decoder");
  if (!ctx.has_attr("eos_token_id") || !ctx.has_attr("pad_token_id"))
    ctx.invalid("BeamSearch needs eos_token_id and pad_token_id");
  const Settings settings{static_cast<int32_t>(ctx.attr_int("eos_token_id", 0)),
                          static_cast<int32_t>(ctx.attr_int("pad_token_id", 0)),
                          ctx.attr_int("vocab_size", -1), ctx.attr_int("no_repeat_ngram_size", 0),
                          ctx.attr_int("early_stopping", 0) != 0};
  return std::make_unique<BeamSearch>(Body::compile(ctx, g), gpt::empty_pasts(g, pasts), settings);
}

// sequences: int32 (batch, num_return_sequences, max_length) and sequences_scores: float
// (batch, num_return_sequences), the sizes when known before running.
void infer(InferContext& ctx) {
  const size_t pasts = checked_pasts(ctx);
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
  ctx.set_output_tensor(0, ElemType::Int32, ir::Shape::of({batch, returned, known_int(1)}));
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(1, ElemType::Float, ir::Shape::of({batch, returned}));
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
