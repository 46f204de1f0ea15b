// The logits processing that ONNX Runtime's generation operators (GreedySearch, BeamSearch)
// apply to one row of next-token scores before picking: repetition penalty, n-gram
// blocking, vocabulary mask, prefix vocabulary mask (first step only), minimum length. The
// rules after the penalty only bar tokens, so their order does not matter.
#pragma once

#include <cstdint>
#include <span>

namespace bough::ops {

struct ScoreRules {
  int32_t eos_token_id = 0;
  int32_t min_length = 0;                      // eos is barred while the sequence is shorter
  float repetition_penalty = 1.0f;             // 1 leaves scores alone
  int64_t no_repeat_ngram_size = 0;            // n > 0 bars a token that would repeat an n-gram
  const int32_t* vocab_mask = nullptr;         // (vocab): 0 bars a token on every step
  const int32_t* prefix_vocab_mask = nullptr;  // (batch, vocab): 0 bars a token; set on step one
};

// Applies `rules` to `scores` (one row of the vocabulary) of batch entry `batch_index`,
// whose tokens so far (prompt included) are `sequence`.
void apply_score_rules(const ScoreRules& rules, std::span<float> scores,
                       std::span<const int32_t> sequence, int64_t batch_index);

// The index of the first largest score.
int32_t first_argmax(std::span<const float> scores);

}  // namespace bough::ops
