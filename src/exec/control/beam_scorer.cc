#include "exec/control/beam_scorer.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "bough/error.h"

namespace bough::ops {

namespace {
namespace beam_scorer_op {

// ORT's score of the beams other than the first before the first step.
constexpr float kUnstartedBeam = -1e9f;

}  // namespace beam_scorer_op
}  // namespace

BeamScorer::BeamScorer(const Tensor& ids, const BeamSettings& settings)
    : s_(settings), length_(ids.dim(1)) {
  using namespace beam_scorer_op;
  const int64_t batch = ids.dim(0), rows = batch * s_.beams;
  sequences_.assign(static_cast<size_t>(rows * s_.max_length), s_.pad);
  next_sequences_.assign(sequences_.size(), s_.pad);
  for (int64_t r = 0; r < rows; ++r)
    std::copy(ids.data<int32_t>() + (r / s_.beams) * length_,
              ids.data<int32_t>() + (r / s_.beams + 1) * length_,
              sequences_.begin() + r * s_.max_length);
  running_.assign(static_cast<size_t>(rows), 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    if (r % s_.beams != 0) running_[static_cast<size_t>(r)] = kUnstartedBeam;
  next_running_.resize(running_.size());
  tokens_.resize(running_.size());
  sources_.resize(running_.size());
  finished_.assign(static_cast<size_t>(batch), BeamHypotheses(s_.beams, s_.length_penalty));
  done_.assign(static_cast<size_t>(batch), false);
}

void BeamScorer::step(std::span<const float> scores, int64_t vocab) {
  const int64_t beams = s_.beams, batch = static_cast<int64_t>(done_.size());
  const int64_t per_entry = beams * vocab, top = std::min<int64_t>(2 * beams, per_entry);
  // Every entry's best 2 * num_beams candidate scores, done entries' too (mark_done).
  std::vector<float> top_scores(static_cast<size_t>(batch * 2 * beams),
                                std::numeric_limits<float>::lowest());
  for (int64_t b = 0; b < batch; ++b) {
    const float* entry = scores.data() + b * per_entry;
    order_.resize(static_cast<size_t>(per_entry));
    std::iota(order_.begin(), order_.end(), 0);
    std::partial_sort(order_.begin(), order_.begin() + top, order_.end(),
                      [&](int64_t x, int64_t y) {
                        return entry[x] > entry[y] || (entry[x] == entry[y] && x < y);
                      });
    for (int64_t j = 0; j < top; ++j)
      top_scores[static_cast<size_t>(b * 2 * beams + j)] = entry[order_[static_cast<size_t>(j)]];
    if (done_[static_cast<size_t>(b)]) {
      // As ONNX Runtime does: the rows run on from row 0 with pad_token_id, scoring 0.
      for (int64_t k = 0; k < beams; ++k) {
        const auto r = static_cast<size_t>(b * beams + k);
        tokens_[r] = s_.pad;
        sources_[r] = 0;
        next_running_[r] = 0;
      }
      continue;
    }
    int64_t filled = 0;
    for (int64_t j = 0; j < top && filled < beams; ++j) {
      const int64_t k = order_[static_cast<size_t>(j)];
      const auto token = static_cast<int32_t>(k % vocab);
      const int64_t source = b * beams + k / vocab;
      if (token == s_.eos) {
        if (j < beams) finished_[static_cast<size_t>(b)].add(sequence(source), entry[k]);
        continue;
      }
      const auto r = static_cast<size_t>(b * beams + filled++);
      tokens_[r] = token;
      sources_[r] = static_cast<int32_t>(source);
      next_running_[r] = entry[k];
    }
    if (filled < beams)
      fail(ErrorKind::BadInput, "",
           "BeamSearch found fewer than num_beams candidates other than eos_token_id");
  }
  mark_done(top_scores);
  for (int64_t r = 0; r < rows(); ++r) {
    const auto source = sequences_.begin() + sources_[static_cast<size_t>(r)] * s_.max_length;
    std::copy(source, source + length_, next_sequences_.begin() + r * s_.max_length);
    next_sequences_[static_cast<size_t>(r * s_.max_length + length_)] =
        tokens_[static_cast<size_t>(r)];
  }
  sequences_.swap(next_sequences_);
  running_.swap(next_running_);
  ++length_;
}

// An entry is done once it holds num_beams hypotheses and either early_stopping is set or
// its best candidate cannot beat the worst of them. ONNX Runtime reads entry b's best
// candidate from the 2 * num_beams candidate scores starting at b * num_beams (not
// b * 2 * num_beams), so past the first entry it may look at the previous entry's; done the
// same way here so that entries finish on the same step.
void BeamScorer::mark_done(const std::vector<float>& top_scores) {
  const int64_t beams = s_.beams;
  for (size_t b = 0; b < done_.size(); ++b) {
    const BeamHypotheses& h = finished_[b];
    if (done_[b] || !h.full()) continue;
    const auto first = top_scores.begin() + static_cast<int64_t>(b) * beams;
    const float best = *std::max_element(first, first + 2 * beams);
    if (s_.early_stopping || !h.can_improve(best, length_)) done_[b] = true;
  }
}

bool BeamScorer::all_done() const {
  return std::all_of(done_.begin(), done_.end(), [](bool d) { return d; });
}

const std::vector<BeamHypotheses>& BeamScorer::finish() {
  for (size_t b = 0; b < done_.size(); ++b)
    if (!done_[b])
      for (int64_t r = static_cast<int64_t>(b) * s_.beams;
           r < static_cast<int64_t>(b + 1) * s_.beams; ++r)
        finished_[b].add(sequence(r), running_score(r));
  return finished_;
}

}  // namespace bough::ops
