// The bookkeeping of a beam search, as ONNX Runtime's BeamSearchScorer does it: each batch
// entry's num_beams running sequences (rows of the decoder batch, entry-major), their
// running scores, the finished hypotheses and which entries are done. The caller scores each
// step's candidates; `step` picks the next beams from them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bough/tensor.h"
#include "exec/control/beam_hypotheses.h"

namespace bough::ops {

struct BeamSettings {
  int64_t beams = 1;
  int64_t max_length = 0;
  float length_penalty = 1.0f;
  bool early_stopping = false;
  int32_t eos = 0, pad = 0;
};

class BeamScorer {
 public:
  // Every row starts as its entry's prompt, `ids` (batch, prompt) int32. Beam 0 of each entry
  // scores 0 and the others -1e9, so the first step's candidates all come from beam 0.
  BeamScorer(const Tensor& ids, const BeamSettings& settings);

  int64_t rows() const { return static_cast<int64_t>(running_.size()); }
  // The length of every row's sequence so far.
  int64_t length() const { return length_; }
  std::span<const int32_t> sequence(int64_t row) const {
    return std::span<const int32_t>(sequences_)
        .subspan(static_cast<size_t>(row * s_.max_length), static_cast<size_t>(length_));
  }
  float running_score(int64_t row) const { return running_[static_cast<size_t>(row)]; }

  // One step from `scores` (rows, vocab): each row's processed log-probabilities plus its
  // running score. Per entry, the 2 * num_beams best (beam, token) candidates by score, then
  // by lower beam * vocab + token; in that order a candidate ending in eos among the first
  // num_beams becomes a hypothesis (its tokens without the eos), one further down is
  // dropped, and the others fill the next beams. Then the rows' sequences follow their
  // source rows, one token longer.
  void step(std::span<const float> scores, int64_t vocab);
  // The last step's token and source row of each row.
  std::span<const int32_t> tokens() const { return tokens_; }
  std::span<const int32_t> sources() const { return sources_; }
  bool all_done() const;

  // Adds the running beams of the entries not done to their hypotheses, and returns every
  // entry's hypotheses, best first.
  const std::vector<BeamHypotheses>& finish();

 private:
  void mark_done(const std::vector<float>& top_scores);

  BeamSettings s_;
  int64_t length_;
  // Row r's tokens are sequences_[r * max_length, + length_); each step writes the reordered
  // rows into next_sequences_ and swaps.
  std::vector<int32_t> sequences_, next_sequences_;
  std::vector<float> running_, next_running_;
  std::vector<int32_t> tokens_, sources_;
  std::vector<BeamHypotheses> finished_;
  std::vector<bool> done_;
  std::vector<int64_t> order_;
};

}  // namespace bough::ops
