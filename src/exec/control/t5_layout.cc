#include "exec/control/t5_layout.h"

#include <string>

#include "ir/types.h"

namespace bough::ops {

T5Layout t5_layout(const NodeView& view) {
  if (view.has_attr("init_decoder"))
    view.unsupported("BeamSearch with an init_decoder subgraph is not supported");
  if (!view.has_attr("encoder")) view.invalid("BeamSearch model_type 1 needs an encoder subgraph");
  if (view.attr_int("decoder_start_token_id", -1) < 0)
    view.invalid("BeamSearch model_type 1 needs decoder_start_token_id");
  const ir::Graph& enc = view.graph_attr("encoder");
  const ir::Graph& dec = view.graph_attr("decoder");
  if (enc.inputs.size() != 3)
    view.unsupported(
        "BeamSearch supports encoders that take encoder_input_ids, encoder_attention_mask and "
        "decoder_input_ids (and yield the first logits), this one takes " +
        std::to_string(enc.inputs.size()) + " inputs");
  if (enc.outputs.size() < 6 || (enc.outputs.size() - 2) % 4 != 0)
    view.invalid(
        "the encoder must yield logits, encoder_hidden_states and 4 caches per layer, it "
        "yields " +
        std::to_string(enc.outputs.size()) + " outputs");
  T5Layout layout;
  layout.layers = (enc.outputs.size() - 2) / 4;
  layout.decoder_takes_hidden =
      dec.inputs.size() > 2 && dec.inputs[2]->name == "encoder_hidden_states";
  if (dec.inputs.size() != layout.first_past() + 4 * layout.layers ||
      dec.outputs.size() != 1 + 2 * layout.layers)
    view.invalid(
        "for the encoder's " + std::to_string(layout.layers) + " layers the decoder must take " +
        std::to_string(layout.first_past() + 4 * layout.layers) + " inputs and yield " +
        std::to_string(1 + 2 * layout.layers) + " outputs, it takes " +
        std::to_string(dec.inputs.size()) + " and yields " + std::to_string(dec.outputs.size()));
  // ONNX Runtime feeds the whole sequence to a decoder whose input_ids are not (batch, 1).
  const ir::Type& ids = dec.inputs[0]->type;
  if (!ids.shape.rank_known || ids.shape.dims.size() != 2 ||
      ids.shape.dims[1].kind != ir::Dim::Kind::Known || ids.shape.dims[1].value != 1)
    view.unsupported(
        "BeamSearch supports T5 decoders whose input_ids are declared (batch, 1), "
        "this one declares " +
        ir::to_string(ids));
  return layout;
}

}  // namespace bough::ops
