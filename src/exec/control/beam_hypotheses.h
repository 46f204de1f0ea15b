// The finished hypotheses of one batch entry in a beam search, as ONNX Runtime's
// BeamSearchScorer keeps them: at most num_beams, best first, each scored by its summed
// log-probabilities over length^length_penalty (the length counts the prompt and leaves the
// eos out).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bough::ops {

class BeamHypotheses {
 public:
  BeamHypotheses(int64_t num_beams, float length_penalty)
      : num_beams_(static_cast<size_t>(num_beams)), length_penalty_(length_penalty) {}

  // Keeps `tokens` unless the list is full and its score is no better than the worst; a
  // hypothesis scoring the same as kept ones goes after them.
  void add(std::span<const int32_t> tokens, float sum_logprobs);
  bool full() const { return kept_.size() == num_beams_; }
  // Whether a running beam whose best summed score is `best_sum_logprobs` at `length` tokens
  // would score above the worst kept hypothesis.
  bool can_improve(float best_sum_logprobs, int64_t length) const;

  struct Hypothesis {
    std::vector<int32_t> tokens;
    float score;
  };
  // Best first.
  const std::vector<Hypothesis>& kept() const { return kept_; }

 private:
  float score_of(float sum_logprobs, size_t length) const;

  size_t num_beams_;
  float length_penalty_;
  std::vector<Hypothesis> kept_;
};

}  // namespace bough::ops
