#include "exec/control/beam_hypotheses.h"

#include <algorithm>
#include <cmath>

namespace bough::ops {

// In float, as ONNX Runtime computes it, so equal inputs give equal scores.
float BeamHypotheses::score_of(float sum_logprobs, size_t length) const {
  return sum_logprobs / std::pow(static_cast<float>(length), length_penalty_);
}

void BeamHypotheses::add(std::span<const int32_t> tokens, float sum_logprobs) {
  const float score = score_of(sum_logprobs, tokens.size());
  if (full()) {
    if (score <= kept_.back().score) return;
    kept_.pop_back();
  }
  const auto at = std::find_if(kept_.begin(), kept_.end(),
                               [&](const Hypothesis& h) { return h.score < score; });
  kept_.insert(at, Hypothesis{{tokens.begin(), tokens.end()}, score});
}

bool BeamHypotheses::can_improve(float best_sum_logprobs, int64_t length) const {
  return kept_.back().score < score_of(best_sum_logprobs, static_cast<size_t>(length));
}

}  // namespace bough::ops
