#include "exec/control/generation_scores.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace bough::ops {

void apply_score_rules(const ScoreRules& rules, std::span<float> scores,
                       std::span<const int32_t> sequence, int64_t batch_index) {
  const auto vocab = static_cast<int64_t>(scores.size());
  constexpr float kBarred = std::numeric_limits<float>::lowest();
  if (rules.repetition_penalty != 1.0f) {
    // Each distinct token once, however often it repeats. A negative score is multiplied and a
    // positive one divided, so a penalty above 1 always lowers it (CTRL's rule, as ORT has it).
    std::vector<bool> seen(static_cast<size_t>(vocab), false);
    for (const int32_t token : sequence) {
      if (token < 0 || token >= vocab || seen[static_cast<size_t>(token)]) continue;
      seen[static_cast<size_t>(token)] = true;
      float& s = scores[static_cast<size_t>(token)];
      s = s < 0 ? s * rules.repetition_penalty : s / rules.repetition_penalty;
    }
  }
  if (const int64_t n = rules.no_repeat_ngram_size;
      n > 0 && n <= static_cast<int64_t>(sequence.size())) {
    // Every earlier n-gram whose first n - 1 tokens are the sequence's last n - 1 bars its
    // last token.
    const auto length = static_cast<int64_t>(sequence.size());
    const int32_t* tail = sequence.data() + length - (n - 1);
    for (int64_t j = 0; j + n <= length; ++j)
      if (std::equal(tail, tail + n - 1, sequence.data() + j)) {
        const int32_t token = sequence[static_cast<size_t>(j + n - 1)];
        if (token >= 0 && token < vocab) scores[static_cast<size_t>(token)] = kBarred;
      }
  }
  if (rules.vocab_mask)
    for (int64_t v = 0; v < vocab; ++v)
      if (rules.vocab_mask[v] == 0) scores[static_cast<size_t>(v)] = kBarred;
  if (rules.prefix_vocab_mask)
    for (int64_t v = 0; v < vocab; ++v)
      if (rules.prefix_vocab_mask[batch_index * vocab + v] == 0)
        scores[static_cast<size_t>(v)] = kBarred;
  if (static_cast<int64_t>(sequence.size()) < rules.min_length && rules.eos_token_id >= 0 &&
      rules.eos_token_id < vocab)
    scores[static_cast<size_t>(rules.eos_token_id)] = kBarred;
}

int32_t first_argmax(std::span<const float> scores) {
  size_t best = 0;
  for (size_t v = 1; v < scores.size(); ++v)
    if (scores[v] > scores[best]) best = v;
  return static_cast<int32_t>(best);
}

}  // namespace bough::ops
