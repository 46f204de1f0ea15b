// com.microsoft EmbedLayerNormalization-1: BERT's embedding layer. For token (b, s):
//   e = word_embedding[input_ids[b, s]] + position_embedding[p] + segment_embedding[seg[b, s]]
// with p = position_ids[b, s] (or [0, s] for a (1, S) tensor), s when absent, and the segment
// term only with segment_ids; output = LayerNormalization(e) * gamma + beta over the hidden
// dim (epsilon 1e-12 by default), embedding_sum = e. mask_index (B) counts each row's mask
// entries equal to 1 (zeros without a mask), as ONNX Runtime does. An id outside its table is
// bad input.
#include <string>
#include <vector>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/microsoft/skip_norm.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace embed_layer_normalization_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "EmbedLayerNormalization: " + message);
}

enum Input { kIds, kSegmentIds, kWord, kPosition, kSegment, kGamma, kBeta, kMask, kPositionIds };

// Table row `id` (checked against the table's rows), for `what` in errors.
const float* row_of(const Tensor& table, int64_t id, const char* what) {
  if (id < 0 || id >= table.dim(0))
    bad(std::string(what) + " " + std::to_string(id) + " is outside the table's " +
        std::to_string(table.dim(0)) + " rows");
  return table.data<float>() + id * table.dim(1);
}

class EmbedLayerNormalization : public Kernel {
 public:
  explicit EmbedLayerNormalization(double epsilon) : epsilon_(epsilon) {}

  void run(KernelIO& io) override {
    const Tensor& ids = io.input(kIds);
    if (ids.rank() != 2)
      bad("input_ids must be (batch, sequence), got " + shape_string(ids.shape()));
    const int64_t batch = ids.dim(0), seq = ids.dim(1);
    const ElemType type = io.input(kWord).type();
    for (int i : {kPosition, kSegment, kGamma, kBeta})
      if (io.has_input(i) && io.input(i).type() != type)
        bad("the embeddings, gamma and beta must have one element type");
    const Tensor word = kernels::widen(io.input(kWord));
    const Tensor pos = kernels::widen(io.input(kPosition));
    const bool with_segment = io.has_input(kSegmentIds);
    if (with_segment != io.has_input(kSegment))
      bad("segment_ids and segment_embedding come together");
    const Tensor segment = with_segment ? kernels::widen(io.input(kSegment)) : Tensor();
    const int64_t hidden = word.rank() == 2 ? word.dim(1) : -1;
    if (hidden < 0 || pos.rank() != 2 || pos.dim(1) != hidden ||
        (with_segment && (segment.rank() != 2 || segment.dim(1) != hidden)))
      bad("the embedding tables must be 2-D with one hidden size");
    auto ids_of = [&](int input, bool broadcast_batch) -> const int32_t* {
      const Tensor& t = io.input(input);
      const bool fits =
          t.shape() == Dims{batch, seq} || (broadcast_batch && t.shape() == Dims{1, seq});
      if (!fits)
        bad("an id tensor of shape " + shape_string(t.shape()) + " does not fit input_ids");
      return t.data<int32_t>();
    };
    const int32_t* word_ids = ids.data<int32_t>();
    const int32_t* segment_ids = with_segment ? ids_of(kSegmentIds, false) : nullptr;
    const int32_t* position_ids = io.has_input(kPositionIds) ? ids_of(kPositionIds, true) : nullptr;
    const bool positions_shared = position_ids && io.input(kPositionIds).dim(0) == 1 && batch != 1;

    Tensor sum(ElemType::Float, Dims{batch, seq, hidden});
    float* e = sum.data<float>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t s = 0; s < seq; ++s) {
        const int64_t t = b * seq + s;
        const int64_t p = position_ids ? position_ids[positions_shared ? s : t] : s;
        const float* w = row_of(word, word_ids[t], "input id");
        const float* ps = row_of(pos, p, "position");
        const float* sg = segment_ids ? row_of(segment, segment_ids[t], "segment id") : nullptr;
        for (int64_t c = 0; c < hidden; ++c) e[t * hidden + c] = w[c] + ps[c] + (sg ? sg[c] : 0.0f);
      }
    const Tensor sum_typed = kernels::narrow_to(sum, type);
    microsoft::NormInputs in;
    in.x = &sum_typed;
    in.gamma = &io.input(kGamma);
    in.beta = &io.input(kBeta);
    microsoft::NormOutputs out = microsoft::skip_normalize(in, 2, false, epsilon_, false, io.pool(),
                                                           "EmbedLayerNormalization");
    io.set_output(0, std::move(out.y));
    if (io.has_output(1)) {
      Tensor index(ElemType::Int32, Dims{batch});
      int32_t* count = index.data<int32_t>();
      const int32_t* mask = io.has_input(kMask) ? ids_of(kMask, false) : nullptr;
      for (int64_t b = 0; b < batch; ++b) {
        count[b] = 0;
        for (int64_t s = 0; mask && s < seq; ++s) count[b] += mask[b * seq + s] == 1 ? 1 : 0;
      }
      io.set_output(1, std::move(index));
    }
    if (io.has_output(2)) io.set_output(2, sum_typed);
  }

 private:
  double epsilon_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<EmbedLayerNormalization>(ctx.attr_float("epsilon", 1e-12f));
}

// output and embedding_sum (B, S, hidden); mask_index (B).
void infer(InferContext& ctx) {
  const ir::Shape& ids = ctx.input_shape(kIds);
  const ir::Shape& word = ctx.input_shape(kWord);
  const ElemType elem = ctx.input_elem(kWord);
  const bool known = ids.rank_known && word.rank_known;
  if (known && (ids.dims.size() != 2 || word.dims.size() != 2))
    ctx.invalid("input_ids and word_embedding must be 2-D");
  const ir::Shape y =
      known ? ir::Shape::of({ids.dims[0], ids.dims[1], word.dims[1]}) : ir::Shape::unknown_rank();
  ctx.set_output_tensor(0, elem, y);
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(
        1, ElemType::Int32,
        ids.rank_known ? ir::Shape::of({ids.dims[0]}) : ir::Shape::unknown_rank());
  if (ctx.num_outputs() > 2) ctx.set_output_tensor(2, elem, y);
}

constexpr SignatureText kRows[] = {
    {1,
     "input_ids: T1, segment_ids?: T1, word_embedding: T, position_embedding: T, "
     "segment_embedding?: T, gamma: T, beta: T, mask?: T1, position_ids?: T1 -> output: T, "
     "mask_index?: T1, embedding_sum?: T; T1 = int32, T = float float16; epsilon: float?, "
     "mask_index_type: int?"}};

}  // namespace embed_layer_normalization_op
}  // namespace

OpDef def_MsEmbedLayerNormalization() {
  using namespace embed_layer_normalization_op;
  return def_from_rows("com.microsoft", "EmbedLayerNormalization", make, infer, kRows);
}

}  // namespace bough::ops
