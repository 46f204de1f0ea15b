// com.microsoft BeamSearch-1 (ONNX Runtime's contrib operator), GPT models (model_type 0) and
// encoder-decoder ones (model_type 1, T5): keeps num_beams running sequences per batch entry
// after the prompt `input_ids` (batch, prompt) for GPT, or after decoder_start_token_id for
// T5, whose `input_ids` is the encoder's source, as rows of the decoder batch
// (batch * num_beams, entry-major), with the semantics of ONNX Runtime's CPU implementation:
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
#include <string>
#include <vector>

#include "exec/control/beam_caches.h"
#include "exec/control/beam_scorer.h"
#include "exec/control/generation_scores.h"
#include "exec/control/gpt_decoder.h"
#include "exec/control/t5_layout.h"
#include "ir/storage.h"
#include "ops/def_from_rows.h"

namespace bough::ops {

namespace {
namespace beam_search_op {

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

struct Settings {
  int32_t eos, pad;
  int64_t vocab_size, no_repeat_ngram_size;
  bool early_stopping;
};

// What one run searches with: the inputs read and checked.
struct Search {
  int64_t batch = 0, beams = 1, rows = 0, returned = 1;
  int32_t max_length = 0;
  float length_penalty = 1.0f;
  ScoreRules rules;
  gpt::VocabMask vocab_mask, prefix_mask;
};

class BeamSearch : public Kernel {
 public:
  BeamSearch(Body decoder, std::vector<std::pair<ElemType, Dims>> pasts, Settings settings)
      : decoder_(std::move(decoder)), pasts_(std::move(pasts)), s_(settings) {}
  BeamSearch(Body encoder, Body decoder, T5Layout t5, int32_t start, Settings settings)
      : decoder_(std::move(decoder)),
        encoder_(std::move(encoder)),
        t5_(t5),
        start_(start),
        s_(settings) {}

  void run(KernelIO& io) override {
    const Tensor& ids = io.input(0);
    if (ids.type() != ElemType::Int32 || ids.rank() != 2 || ids.dim(1) == 0)
      gpt::bad(kOp, "input_ids must be int32 (batch, length) with a token, got " + describe(ids));
    // A GPT search goes on from the prompt; an encoder-decoder one from decoder_start_token_id.
    const int64_t start_length = encoder_.plan ? 1 : ids.dim(1);
    Search sr = read_search(io, ids.dim(0), start_length);
    // The scores output (steps, batch, num_beams, vocab): each step's scores as the scorer
    // sees them; zeros for steps not run when the search ends early (ONNX Runtime leaves
    // them unwritten).
    Tensor* step_scores = io.has_output(2) ? &io.output_tensor(2) : nullptr;
    std::vector<float> scores;
    // Scores the rows from `logits` (one row per beam, or per entry for the encoder's) and
    // steps the scorer.
    auto score = [&](BeamScorer& scorer, const Value& value, int64_t logits_rows) {
      const gpt::Logits logits(value, logits_rows, s_.vocab_size, sr.vocab_mask, sr.prefix_mask,
                               kOp);
      const int64_t vocab = logits.vocab(), per_row = sr.rows / logits_rows;
      scores.resize(static_cast<size_t>(sr.rows * vocab));
      for (int64_t r = 0; r < sr.rows; ++r) {
        const std::span<float> row(scores.data() + r * vocab, static_cast<size_t>(vocab));
        log_softmax(logits.last(r / per_row), row);
        apply_score_rules(sr.rules, row, scorer.sequence(r), r / sr.beams);
        for (float& x : row) x += scorer.running_score(r);
      }
      if (step_scores) {
        const int64_t step = scorer.length() - start_length;
        if (step == 0) {
          ir::reinit(*step_scores, ElemType::Float,
                     {sr.max_length - start_length, sr.batch, sr.beams, vocab});
          std::fill(step_scores->data<float>(), step_scores->data<float>() + step_scores->numel(),
                    0.0f);
        }
        std::copy(scores.begin(), scores.end(),
                  step_scores->data<float>() + step * sr.rows * vocab);
      }
      sr.rules.prefix_vocab_mask = nullptr;  // the first step's only
      scorer.step(scores, vocab);
    };
    const BeamSettings settings{sr.beams,          sr.max_length, sr.length_penalty,
                                s_.early_stopping, s_.eos,        s_.pad};
    if (encoder_.plan) {
      Tensor start(ElemType::Int32, {sr.batch, 1});
      std::fill(start.data<int32_t>(), start.data<int32_t>() + sr.batch, start_);
      BeamScorer scorer(start, settings);
      run_t5(io, sr, start, scorer, score);
      write_outputs(io, scorer.finish(), sr.returned, sr.max_length);
    } else {
      BeamScorer scorer(ids, settings);
      run_gpt(io, sr, scorer, score);
      write_outputs(io, scorer.finish(), sr.returned, sr.max_length);
    }
  }

 private:
  Search read_search(const KernelIO& io, int64_t batch, int64_t start_length) const {
    if (io.has_input(10)) gpt::bad(kOp, "does not support the decoder_input_ids input");
    // 0 is "none"; the others select model-specific processing (Whisper's timestamps).
    if (const int32_t p = gpt::one_int(io, 11, kOp, "logits_processor", 0); p != 0)
      gpt::bad(kOp, "supports logits_processor 0 only, got " + std::to_string(p));
    Search sr;
    sr.batch = batch;
    sr.beams = gpt::one_int(io, 3, kOp, "num_beams", 1);
    if (sr.beams < 1 || sr.beams > 128)
      gpt::bad(kOp, "num_beams must be 1 to 128, got " + std::to_string(sr.beams));
    sr.rows = batch * sr.beams;
    sr.max_length = gpt::one_int(io, 1, kOp, "max_length", 0);
    if (sr.max_length <= start_length)
      gpt::bad(kOp, "max_length (" + std::to_string(sr.max_length) +
                        ") must exceed the prompt length (" + std::to_string(start_length) + ")");
    // ONNX Runtime's limit, which also bounds what the sequences and hypotheses take.
    if (sr.max_length > kMaxLength)
      gpt::bad(kOp, "max_length must be at most " + std::to_string(kMaxLength) + ", got " +
                        std::to_string(sr.max_length));
    sr.returned = gpt::one_int(io, 4, kOp, "num_return_sequences", 1);
    if (sr.returned < 1 || sr.returned > sr.beams)
      gpt::bad(kOp, "num_return_sequences must be 1 to num_beams (" + std::to_string(sr.beams) +
                        "), got " + std::to_string(sr.returned));
    sr.length_penalty = gpt::one_float(io, 5, kOp, "length_penalty", 1.0f);
    sr.rules.eos_token_id = s_.eos;
    sr.rules.min_length = gpt::one_int(io, 2, kOp, "min_length", 0);
    sr.rules.no_repeat_ngram_size = s_.no_repeat_ngram_size;
    sr.rules.repetition_penalty = gpt::one_float(io, 6, kOp, "repetition_penalty", 1.0f);
    if (!(sr.rules.repetition_penalty > 0))
      gpt::bad(kOp, "repetition_penalty must be above 0, got " +
                        std::to_string(sr.rules.repetition_penalty));
    sr.vocab_mask = gpt::mask_input(io, 7, kOp, "vocab_mask", {});
    sr.prefix_mask = gpt::mask_input(io, 8, kOp, "prefix_vocab_mask", {batch});
    sr.rules.vocab_mask = sr.vocab_mask.data;
    sr.rules.prefix_vocab_mask = sr.prefix_mask.data;
    return sr;
  }

  // GPT: the decoder runs on the prompt, then on each step's tokens; its pasts (2, rows, heads,
  // length, head_size) follow the beams.
  template <typename Score>
  void run_gpt(KernelIO& io, const Search& sr, BeamScorer& scorer, Score& score) {
    gpt::Feeds feeds(io.input(0), io.has_input(9) ? &io.input(9) : nullptr, s_.pad, sr.beams, kOp);
    std::vector<Value> state(pasts_.size()), next(pasts_.size()), spare(pasts_.size());
    for (size_t j = 0; j < pasts_.size(); ++j) {
      Dims shape = pasts_[j].second;
      shape[1] = sr.rows;
      state[j] = Tensor(pasts_[j].first, shape);
    }
    std::vector<kernels::Stacker> no_stacks;
    for (;;) {
      feeds.bind(*decoder_.plan);
      decoder_.iterate(io, state, next, 3, 1, no_stacks,
                       [&](const exec::Plan& plan) { score(scorer, plan.output(0), sr.rows); });
      if (scorer.all_done() || scorer.length() >= sr.max_length) break;
      follow_beams(state, spare, 1, scorer.sources());
      feeds.advance(scorer.tokens(), scorer.length());
    }
  }

  // T5: the encoder runs once on the source (input_ids, its mask given or 0 at left padding)
  // and decoder_start_token_id, and its logits give the first token; its outputs, repeated
  // for the beams, feed the decoder, whose self-attention caches follow the beams while the
  // cross-attention ones stay.
  template <typename Score>
  void run_t5(KernelIO& io, const Search& sr, const Tensor& start, BeamScorer& scorer,
              Score& score) {
    const Tensor& ids = io.input(0);
    Value mask;
    Tensor& m = mask.as_tensor();
    if (io.has_input(9)) {
      m = io.input(9);
      if (m.type() != ElemType::Int32 || m.shape() != ids.shape())
        gpt::bad(kOp, "attention_mask must be int32 " + shape_string(ids.shape()) + ", got " +
                          describe(m));
    } else {
      // As ONNX Runtime does: 0 only for left padding, since T5's tokenizer may end a source
      // with an eos equal to pad_token_id, which must stay visible.
      ir::reinit(m, ElemType::Int32, ids.shape());
      const int64_t length = ids.dim(1);
      for (int64_t b = 0; b < ids.dim(0); ++b) {
        bool leading = true;
        for (int64_t k = b * length; k < (b + 1) * length; ++k) {
          leading = leading && ids.data<int32_t>()[k] == s_.pad;
          m.data<int32_t>()[k] = !leading;
        }
      }
    }
    const Value start_ids(start);
    exec::Plan& enc = *encoder_.plan;
    enc.bind_input(0, io.value(0));
    enc.bind_input(1, mask);
    enc.bind_input(2, start_ids);
    std::vector<Value> outs(enc.num_outputs()), none;
    std::vector<kernels::Stacker> no_stacks;
    encoder_.iterate(io, none, none, 0, 0, no_stacks, [&](const exec::Plan& plan) {
      for (size_t i = 0; i < outs.size(); ++i) outs[i] = plan.output(i);
      score(scorer, outs[0], sr.batch);
    });
    if (scorer.all_done() || scorer.length() >= sr.max_length) return;
    // Every value the decoder reads, each entry's row repeated for its beams.
    std::vector<int32_t> repeat(static_cast<size_t>(sr.rows));
    for (int64_t r = 0; r < sr.rows; ++r)
      repeat[static_cast<size_t>(r)] = static_cast<int32_t>(r / sr.beams);
    const auto repeated = [&](const Value& v, const char* what) {
      if (!v.is_tensor() || v.tensor().rank() == 0 || v.tensor().dim(0) != sr.batch)
        gpt::bad(kOp, std::string("'s encoder must yield ") + what + " with " +
                          std::to_string(sr.batch) + " rows, got " + describe(v));
      Value out;
      gather_rows(v.tensor(), 0, repeat, out.as_tensor());
      return out;
    };
    const size_t layers = t5_.layers, first = t5_.first_past();
    const Value rows_mask = repeated(mask, "attention_mask");
    const Value hidden = repeated(outs[1], "encoder_hidden_states");
    std::vector<Value> self(2 * layers), next(2 * layers), spare(2 * layers), cross(2 * layers);
    for (size_t j = 0; j < 2 * layers; ++j) {
      self[j] = repeated(outs[2 + j], "self-attention caches");
      cross[j] = repeated(outs[2 + 2 * layers + j], "cross-attention caches");
    }
    Value step_ids;
    for (;;) {
      Tensor& t = step_ids.as_tensor();
      ir::reinit(t, ElemType::Int32, {sr.rows, 1});
      std::copy(scorer.tokens().begin(), scorer.tokens().end(), t.data<int32_t>());
      exec::Plan& dec = *decoder_.plan;
      dec.bind_input(0, step_ids);
      dec.bind_input(1, rows_mask);
      if (t5_.decoder_takes_hidden) dec.bind_input(2, hidden);
      for (size_t j = 0; j < 2 * layers; ++j) dec.bind_input(first + 2 * layers + j, cross[j]);
      decoder_.iterate(io, self, next, first, 1, no_stacks,
                       [&](const exec::Plan& plan) { score(scorer, plan.output(0), sr.rows); });
      if (scorer.all_done() || scorer.length() >= sr.max_length) break;
      follow_beams(self, spare, 0, scorer.sources());
    }
  }

 private:
  void write_outputs(KernelIO& io, const std::vector<BeamHypotheses>& finished, int64_t returned,
                     int64_t max_length) const {
    const auto batch = static_cast<int64_t>(finished.size());
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, ElemType::Int32, {batch, returned, max_length});
    std::fill(out.data<int32_t>(), out.data<int32_t>() + out.numel(), s_.pad);
    Tensor* scores = nullptr;
    if (io.has_output(1)) {
      scores = &io.output_tensor(1);
      ir::reinit(*scores, ElemType::Float, {batch, returned});
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
  std::vector<std::pair<ElemType, Dims>> pasts_;  // GPT: element type and shape of the empty pasts
  Body encoder_;                                  // T5 only
  T5Layout t5_;
  int32_t start_ = 0;  // T5: decoder_start_token_id
  Settings s_;
};

bool is_t5(const NodeView& view) { return view.attr_int("model_type", 0) == 1; }

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  if (!ctx.has_attr("eos_token_id") || !ctx.has_attr("pad_token_id"))
    ctx.invalid("BeamSearch needs eos_token_id and pad_token_id");
  const Settings settings{static_cast<int32_t>(ctx.attr_int("eos_token_id", 0)),
                          static_cast<int32_t>(ctx.attr_int("pad_token_id", 0)),
                          ctx.attr_int("vocab_size", -1), ctx.attr_int("no_repeat_ngram_size", 0),
                          ctx.attr_int("early_stopping", 0) != 0};
  const ir::Graph& g = ctx.graph_attr("decoder");
  if (is_t5(ctx)) {
    const T5Layout layout = t5_layout(ctx);
    return std::make_unique<BeamSearch>(
        Body::compile(ctx, ctx.graph_attr("encoder")), Body::compile(ctx, g), layout,
        static_cast<int32_t>(ctx.attr_int("decoder_start_token_id", 0)), settings);
  }
  const size_t pasts = gpt::decoder_pasts(ctx, kOp);
  return std::make_unique<BeamSearch>(Body::compile(ctx, g), gpt::empty_pasts(g, pasts), settings);
}

// sequences: int32 (batch, num_return_sequences, max_length), sequences_scores: float
// (batch, num_return_sequences) and scores: float (max_length - prompt, batch, num_beams,
// vocab), the sizes when known before running.
void infer(InferContext& ctx) {
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
  if (is_t5(ctx)) {
    // The subgraphs are checked on their declared inputs.
    t5_layout(ctx);
    for (const char* name : {"encoder", "decoder"}) {
      const ir::Graph& g = ctx.graph_attr(name);
      std::vector<ir::Type> inputs;
      for (const auto* in : g.inputs) inputs.push_back(in->type);
      ctx.infer_subgraph(g, inputs);
    }
  } else {
    gpt::infer_decoder(ctx, gpt::decoder_pasts(ctx, kOp), rows);
  }
  const ir::Dim returned = known_int(4);
  const ir::Dim max_length = known_int(1);
  ctx.set_output_tensor(0, ElemType::Int32, ir::Shape::of({batch, returned, max_length}));
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(1, ElemType::Float, ir::Shape::of({batch, returned}));
  if (ctx.num_outputs() > 2) {
    ir::Dim steps = ir::Dim::unknown(), vocab = ir::Dim::unknown();
    if (max_length.kind == ir::Dim::Kind::Known && is_t5(ctx))
      steps = ir::Dim::known(max_length.value - 1);
    else if (max_length.kind == ir::Dim::Kind::Known && ids.rank_known &&
             ids.dims[1].kind == ir::Dim::Kind::Known)
      steps = ir::Dim::known(max_length.value - ids.dims[1].value);
    if (const int64_t v = ctx.attr_int("vocab_size", -1); v > 0) vocab = ir::Dim::known(v);
    ctx.set_output_tensor(2, ElemType::Float, ir::Shape::of({steps, batch, beams, vocab}));
  }
}

constexpr SignatureText kRows[] = {
    {1,
     "input_ids: I, max_length: I, min_length?: I, num_beams: I, num_return_sequences: I, "
     "length_penalty?: T, repetition_penalty?: T, vocab_mask?: I, prefix_vocab_mask?: I, "
     "attention_mask?: I, decoder_input_ids?: I, logits_processor?: I -> sequences: I, "
     "sequences_scores?: T, scores?: T; T = float, I = int32; decoder: graph, "
     "decoder_start_token_id: int = -1, early_stopping: int = 0, encoder: graph?, "
     "eos_token_id: int, init_decoder: graph?, model_type: int = 0, "
     "no_repeat_ngram_size: int = 0, pad_token_id: int, vocab_size: int = -1"}};

}  // namespace beam_search_op
}  // namespace

OpDef def_MsBeamSearch() {
  using namespace beam_search_op;
  return def_from_rows("com.microsoft", "BeamSearch", make, infer, kRows);
}

}  // namespace bough::ops
