#include "exec/control/gpt_decoder.h"

#include "ir/storage.h"
#include "kernels/convert.h"

namespace bough::ops::gpt {

void bad(const char* op, const std::string& message) {
  fail(ErrorKind::BadInput, "", std::string(op) + " " + message);
}

size_t decoder_pasts(const NodeView& view, const char* op) {
  if (view.attr_int("model_type", 0) != 0)
    view.unsupported(std::string(op) + " supports model_type 0 (GPT) only, got " +
                     std::to_string(view.attr_int("model_type", 0)));
  for (const char* name : {"encoder", "init_decoder"})
    if (view.has_attr(name))
      view.unsupported(std::string(op) + " with an " + name + " subgraph is not supported");
  if (view.attr_int("no_repeat_ngram_size", 0) < 0)
    view.invalid("no_repeat_ngram_size must not be negative, got " +
                 std::to_string(view.attr_int("no_repeat_ngram_size", 0)));
  const ir::Graph& g = view.graph_attr("decoder");
  if (g.inputs.size() < 3)
    view.invalid(
        "the decoder must take input_ids, position_ids, attention_mask and the pasts, "
        "it takes " +
        std::to_string(g.inputs.size()) + " inputs");
  const size_t pasts = g.inputs.size() - 3;
  if (g.outputs.size() != 1 + pasts)
    view.invalid("the decoder takes " + std::to_string(pasts) +
                 " pasts, so it must yield logits and " + std::to_string(pasts) +
                 " presents, it yields " + std::to_string(g.outputs.size()) + " outputs");
  const char* names[] = {"input_ids", "position_ids", "attention_mask"};
  for (size_t i = 0; i < 3; ++i) {
    const ir::Type& t = g.inputs[i]->type;
    if (g.inputs[i]->has_value_info && t.kind == ir::Type::Kind::Tensor &&
        t.elem != ElemType::Int32)
      view.invalid(std::string("the decoder's ") + names[i] +
                   " must be tensor(int32), it declares " + ir::to_string(t));
  }
  for (size_t j = 0; j < pasts; ++j) {
    const ir::Type& t = g.inputs[3 + j]->type;
    const auto& d = t.shape.dims;
    const auto known = [&](size_t k) { return d[k].kind == ir::Dim::Kind::Known; };
    if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known || d.size() != 5 || !known(0) ||
        d[0].value != 2 || !known(2) || !known(4) ||
        (t.elem != ElemType::Float && t.elem != ElemType::Float16))
      view.invalid("the decoder's past input " + std::to_string(j) +
                   " must be declared float or float16 (2, batch, heads, past, head_size) with "
                   "heads and head_size known, it declares " +
                   ir::to_string(t));
  }
  return pasts;
}

std::vector<std::pair<ElemType, Dims>> empty_pasts(const ir::Graph& decoder, size_t pasts) {
  std::vector<std::pair<ElemType, Dims>> out;
  for (size_t j = 0; j < pasts; ++j) {
    const ir::Type& t = decoder.inputs[3 + j]->type;
    out.emplace_back(t.elem, Dims{2, 0, t.shape.dims[2].value, 0, t.shape.dims[4].value});
  }
  return out;
}

void infer_decoder(InferContext& ctx, size_t pasts, ir::Dim rows) {
  const ir::Graph& g = ctx.graph_attr("decoder");
  // Steps and lengths left open: the first step sees the prompt, later ones one token.
  std::vector<ir::Type> inputs(
      3, ir::Type::tensor(ElemType::Int32, ir::Shape::of({rows, ir::Dim::unknown()})));
  for (size_t j = 0; j < pasts; ++j) {
    ir::Type past = g.inputs[3 + j]->type;
    past.shape.dims[1] = rows;
    past.shape.dims[3] = ir::Dim::unknown();
    inputs.push_back(past);
  }
  const std::vector<ir::Type> outs = ctx.infer_subgraph(g, inputs);
  if (!outs.empty() && outs[0].kind == ir::Type::Kind::Tensor && outs[0].shape.rank_known &&
      outs[0].shape.dims.size() != 3)
    ctx.error("the decoder's logits must be (batch, steps, vocab), it yields " +
              ir::to_string(outs[0]));
}

int32_t one_int(const KernelIO& io, size_t i, const char* op, const char* name, int32_t fallback) {
  if (!io.has_input(i)) return fallback;
  const Tensor& t = io.input(i);
  if (t.type() != ElemType::Int32 || t.numel() != 1)
    bad(op, std::string(name) + " must be one int32, got " + describe(io.value(i)));
  return t.data<int32_t>()[0];
}

float one_float(const KernelIO& io, size_t i, const char* op, const char* name, float fallback) {
  if (!io.has_input(i)) return fallback;
  const Tensor& t = io.input(i);
  if ((t.type() != ElemType::Float && t.type() != ElemType::Float16) || t.numel() != 1)
    bad(op, std::string(name) + " must be one float, got " + describe(io.value(i)));
  return kernels::cast(t, ElemType::Float).data<float>()[0];
}

VocabMask mask_input(const KernelIO& io, size_t i, const char* op, const char* name, Dims lead) {
  if (!io.has_input(i)) return {};
  const Tensor& t = io.input(i);
  if (t.type() != ElemType::Int32 || t.rank() != lead.size() + 1)
    bad(op, std::string(name) + " must be int32 of rank " + std::to_string(lead.size() + 1) +
                ", got " + describe(io.value(i)));
  for (size_t k = 0; k < lead.size(); ++k)
    if (t.dim(k) != lead[k])
      bad(op, std::string(name) + " has the wrong batch size: " + describe(t));
  return {t.data<int32_t>(), t.dim(t.rank() - 1)};
}

Feeds::Feeds(const Tensor& ids, const Tensor* given_mask, int32_t pad, int64_t copies,
             const char* op) {
  if (ids.type() != ElemType::Int32 || ids.rank() != 2 || ids.dim(1) == 0)
    bad(op, "input_ids must be int32 (batch, prompt) with a prompt, got " + describe(ids));
  const int64_t batch = ids.dim(0), prompt = ids.dim(1), rows = batch * copies;
  if (given_mask && (given_mask->type() != ElemType::Int32 || given_mask->shape() != ids.shape()))
    bad(op, "attention_mask must be int32 " + shape_string(ids.shape()) + ", got " +
                describe(*given_mask));
  Tensor& row_ids = ids_.as_tensor();
  Tensor& mask = mask_.as_tensor();
  Tensor& pos = positions_.as_tensor();
  for (Tensor* t : {&row_ids, &mask, &pos}) ir::reinit(*t, ElemType::Int32, {rows, prompt});
  next_position_.assign(static_cast<size_t>(rows), 0);
  const int32_t* in = ids.data<int32_t>();
  for (int64_t b = 0; b < batch; ++b) {
    int32_t count = 0;
    for (int64_t r = b * copies; r < (b + 1) * copies; ++r) {
      count = 0;
      for (int64_t s = 0; s < prompt; ++s) {
        const int64_t k = b * prompt + s, out = r * prompt + s;
        const bool is_pad = in[k] == pad;
        row_ids.data<int32_t>()[out] = in[k];
        mask.data<int32_t>()[out] = given_mask ? given_mask->data<int32_t>()[k] : !is_pad;
        pos.data<int32_t>()[out] = is_pad ? 0 : count++;
      }
      next_position_[static_cast<size_t>(r)] = count;
    }
  }
}

void Feeds::bind(exec::Plan& plan) const {
  plan.bind_input(0, ids_);
  plan.bind_input(1, positions_);
  plan.bind_input(2, mask_);
}

void Feeds::advance(std::span<const int32_t> tokens, int64_t length) {
  const auto rows = static_cast<int64_t>(tokens.size());
  Tensor& ids = ids_.as_tensor();
  ir::reinit(ids, ElemType::Int32, {rows, 1});
  Tensor& pos = positions_.as_tensor();
  ir::reinit(pos, ElemType::Int32, {rows, 1});
  Tensor grown(ElemType::Int32, {rows, length});
  const Tensor& old = mask_.tensor();
  for (int64_t r = 0; r < rows; ++r) {
    ids.data<int32_t>()[r] = tokens[static_cast<size_t>(r)];
    pos.data<int32_t>()[r] = next_position_[static_cast<size_t>(r)]++;
    std::copy(old.data<int32_t>() + r * (length - 1), old.data<int32_t>() + (r + 1) * (length - 1),
              grown.data<int32_t>() + r * length);
    grown.data<int32_t>()[r * length + length - 1] = 1;
  }
  mask_ = std::move(grown);
}

Logits::Logits(const Value& value, int64_t rows, int64_t vocab_size, const VocabMask& vocab_mask,
               const VocabMask& prefix_mask, const char* op) {
  if (!value.is_tensor())
    bad(op, "'s decoder must yield logits as a tensor, got " + describe(value));
  const Tensor& raw = value.tensor();
  if ((raw.type() != ElemType::Float && raw.type() != ElemType::Float16) || raw.rank() != 3 ||
      raw.dim(0) != rows || raw.dim(1) == 0 || raw.dim(2) == 0)
    bad(op, "'s decoder must yield float logits (" + std::to_string(rows) +
                ", steps, vocab), got " + describe(raw));
  values_ = kernels::cast(raw, ElemType::Float);
  steps_ = values_.dim(1);
  vocab_ = values_.dim(2);
  if (vocab_size > 0 && vocab_size != vocab_)
    bad(op, "vocab_size is " + std::to_string(vocab_size) + " but the logits have " +
                std::to_string(vocab_));
  if ((vocab_mask.data && vocab_mask.vocab != vocab_) ||
      (prefix_mask.data && prefix_mask.vocab != vocab_))
    bad(op, "vocab_mask and prefix_vocab_mask must cover the logits' " + std::to_string(vocab_) +
                " tokens");
}

}  // namespace bough::ops::gpt
