// The encoder-decoder (model_type 1, T5) layout, in ONNX Runtime's format where the encoder
// also runs the first decoder step: encoder (encoder_input_ids, encoder_attention_mask,
// decoder_input_ids) -> (logits, encoder_hidden_states, then per layer present_key_self,
// present_value_self, then per layer present_key_cross, present_value_cross); decoder
// (input_ids, encoder_attention_mask, [encoder_hidden_states], per layer past_key_self,
// past_value_self, then per layer past_key_cross, past_value_cross) -> (logits, per layer
// present_key_self, present_value_self). Caches are (rows, heads, length, head_size).
#pragma once

#include <cstddef>

#include "ops/node_view.h"

namespace bough::ops {

struct T5Layout {
  size_t layers = 0;
  bool decoder_takes_hidden = false;
  size_t first_past() const { return decoder_takes_hidden ? 3 : 2; }
};

// Checks the node's encoder and decoder against that layout (and what bough supports of
// it); the number of layers and whether the decoder reads encoder_hidden_states.
T5Layout t5_layout(const NodeView& view);

}  // namespace bough::ops
