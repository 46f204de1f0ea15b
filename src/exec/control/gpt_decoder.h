// The GPT decoder subgraph (model_type 0) that ONNX Runtime's generation operators
// (com.microsoft GreedySearch and BeamSearch) drive, and the pieces of the node both read
// alike: the decoder's layout, the scalar and mask inputs, the feeds of each step and the
// logits of the last position.
//
// The decoder takes input_ids, position_ids, attention_mask (int32) and past_0..past_{n-1},
// and yields logits (rows, steps, vocab) and present_0..present_{n-1}. The first step runs it
// on the whole prompt with empty pasts (2, rows, heads, 0, head_size, dims read from the
// declared past inputs); later steps on the last token. The prompt's mask is attention_mask
// when given, else 0 at pad_token_id; a position counts the tokens other than pad_token_id
// before it (0 at a pad), whatever attention_mask says, as ONNX Runtime does; each step then
// adds one position and appends 1 to the mask. A row of the decoder batch is a batch entry
// (GreedySearch) or one beam of it (BeamSearch: `copies` rows per entry).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "exec/control/subgraph.h"

namespace bough::ops::gpt {

// Fails with BadInput, the message prefixed by the operator's name.
[[noreturn]] void bad(const char* op, const std::string& message);

// Checks the attributes the generation operators share (model_type 0, no encoder or
// init_decoder, no_repeat_ngram_size) and the decoder's inputs and outputs; returns how many
// pasts it takes.
size_t decoder_pasts(const NodeView& view, const char* op);

// The element type and shape (2, 0, heads, 0, head_size) of each empty past.
std::vector<std::pair<ElemType, Dims>> empty_pasts(const ir::Graph& decoder, size_t pasts);

// Infers the decoder on any step's inputs (so its own nodes are checked) for a batch of
// `rows` rows, and checks that its logits are (rows, steps, vocab).
void infer_decoder(InferContext& ctx, size_t pasts, ir::Dim rows);

// A scalar input given as one element (ORT's shape is (1)); `fallback` when left out.
int32_t one_int(const KernelIO& io, size_t i, const char* op, const char* name, int32_t fallback);
float one_float(const KernelIO& io, size_t i, const char* op, const char* name, float fallback);

// An optional int32 mask over the vocabulary (with leading dims `lead`); its size is checked
// against the logits when they arrive.
struct VocabMask {
  const int32_t* data = nullptr;
  int64_t vocab = 0;
};
VocabMask mask_input(const KernelIO& io, size_t i, const char* op, const char* name, Dims lead);

// The decoder's feeds: the prompt's on the first step, one token per row after.
class Feeds {
 public:
  // The prompt `ids` (batch, prompt), each entry repeated `copies` times; `given_mask` is
  // the attention_mask input or null.
  Feeds(const Tensor& ids, const Tensor* given_mask, int32_t pad, int64_t copies, const char* op);
  // Binds input_ids, position_ids and attention_mask as decoder inputs 0, 1, 2.
  void bind(exec::Plan& plan) const;
  // The feeds of the step after one that made `tokens` (one per row): the tokens, their
  // positions, the mask one longer (`length` long).
  void advance(std::span<const int32_t> tokens, int64_t length);

 private:
  Value ids_, positions_, mask_;
  std::vector<int32_t> next_position_;
};

// The decoder's logits as float (rows, steps, vocab), checked against the rows, the
// vocab_size attribute (when > 0) and the masks; the last position of row r starts at
// last(r).
class Logits {
 public:
  Logits(const Value& value, int64_t rows, int64_t vocab_size, const VocabMask& vocab_mask,
         const VocabMask& prefix_mask, const char* op);
  int64_t vocab() const { return vocab_; }
  const float* last(int64_t row) const {
    return values_.data<float>() + (row * steps_ + steps_ - 1) * vocab_;
  }

 private:
  Tensor values_;
  int64_t steps_ = 0, vocab_ = 0;
};

}  // namespace bough::ops::gpt
