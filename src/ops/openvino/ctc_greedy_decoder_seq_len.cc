// org.openvinotoolkit CTCGreedyDecoderSeqLen-1: OpenVINO's CTCGreedyDecoderSeqLen-6, which
// ONNX has no form of (its specification, sequence/ctc-greedy-decoder-seq-len-6.rst, and
// reference, reference/ctc_greedy_decoder_seq_len.hpp). For each batch item n, over its first
// sequence_length[n] time steps: the class of the largest logit (the first of equal ones);
// a step emits that class unless it is blank_index (input 2; C - 1 when absent) or, with
// merge_repeated, equal to the class of the step before (blank steps included: "A blank A"
// emits A twice). decoded [N, T] holds the emitted classes, then -1; decoded_length [N] their
// count. Outputs are int32 or int64 as classes_index_type and sequence_length_type say (ONNX
// element type codes here, "i32"/"i64" in IR).
#include <algorithm>

#include "ir/storage.h"
#include "kernels/convert.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace ctc_greedy_decoder_seq_len_op {

ElemType index_type(const NodeView& v, const char* attr) {
  const int64_t t = v.attr_int(attr, static_cast<int64_t>(ElemType::Int32));
  if (t != static_cast<int64_t>(ElemType::Int32) && t != static_cast<int64_t>(ElemType::Int64))
    v.invalid(std::string(attr) + " must be int32 (6) or int64 (7), got " + std::to_string(t));
  return static_cast<ElemType>(t);
}

void infer(InferContext& ctx) {
  const ir::Shape& data = ctx.input_shape(0);
  if (data.rank_known && data.dims.size() != 3)
    ctx.invalid("data must be 3-D [N, T, C], got rank " + std::to_string(data.dims.size()));
  const ir::Shape& lengths = ctx.input_shape(1);
  if (lengths.rank_known && lengths.dims.size() != 1)
    ctx.invalid("sequence_length must be 1-D [N], got rank " + std::to_string(lengths.dims.size()));
  const ir::Shape& blank = ctx.input_shape(2);
  if (ctx.has_input(2) && blank.rank_known && blank.dims.size() > 1)
    ctx.invalid("blank_index must be a scalar or hold one element");
  ir::Dim n = ir::Dim::unknown(), t = ir::Dim::unknown();
  if (data.rank_known) n = data.dims[0], t = data.dims[1];
  ctx.set_output_tensor(0, index_type(ctx, "classes_index_type"), ir::Shape::of({n, t}));
  ctx.set_output_tensor(1, index_type(ctx, "sequence_length_type"), ir::Shape::of({n}));
}

int64_t int_at(const Tensor& t, int64_t i) {
  return t.type() == ElemType::Int32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

template <typename T>
void store(Tensor& out, const std::vector<int64_t>& v) {
  T* p = out.data<T>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<T>(v[i]);
}

void store_as(Tensor& out, const std::vector<int64_t>& v) {
  if (out.type() == ElemType::Int32)
    store<int32_t>(out, v);
  else
    store<int64_t>(out, v);
}

// decoded[n * t_max ...] and lengths[n] from logits of n_max x t_max x c.
template <typename F>
void decode(const F* logits, const Tensor& seq, int64_t blank, bool merge, int64_t n_max,
            int64_t t_max, int64_t c, std::vector<int64_t>& decoded,
            std::vector<int64_t>& lengths) {
  for (int64_t n = 0; n < n_max; ++n) {
    const int64_t len = int_at(seq, n);
    if (len < 0 || len > t_max)
      fail(ErrorKind::BadInput, "",
           "sequence_length[" + std::to_string(n) + "] is " + std::to_string(len) +
               ", outside 0.." + std::to_string(t_max));
    int64_t emitted = 0, previous = -1;
    for (int64_t t = 0; t < len; ++t) {
      const F* row = logits + (n * t_max + t) * c;
      const int64_t best = std::max_element(row, row + c) - row;
      if (best != blank && !(merge && best == previous)) decoded[n * t_max + emitted++] = best;
      previous = best;
    }
    lengths[n] = emitted;
  }
}

class CtcGreedyDecoderSeqLen : public Kernel {
 public:
  CtcGreedyDecoderSeqLen(bool merge, ElemType classes, ElemType lengths)
      : merge_(merge), classes_(classes), lengths_(lengths) {}
  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    if (data.rank() != 3)
      fail(ErrorKind::BadInput, "",
           "data must be 3-D [N, T, C], got " + shape_string(data.shape()));
    const int64_t n = data.dim(0), t = data.dim(1), c = data.dim(2);
    const Tensor& seq = io.input(1);
    if (seq.numel() != n)
      fail(ErrorKind::BadInput, "",
           "sequence_length holds " + std::to_string(seq.numel()) + " values for a batch of " +
               std::to_string(n));
    if (c == 0 && n * t > 0) fail(ErrorKind::BadInput, "", "data has no classes (C is 0)");
    int64_t blank = c - 1;
    if (io.has_input(2)) {
      const Tensor& b = io.input(2);
      if (b.numel() != 1)
        fail(ErrorKind::BadInput, "",
             "blank_index must hold one value, holds " + std::to_string(b.numel()));
      blank = int_at(b, 0);
    }
    std::vector<int64_t> decoded(static_cast<size_t>(n * t), -1), lengths(static_cast<size_t>(n));
    if (data.type() == ElemType::Double) {
      decode(data.data<double>(), seq, blank, merge_, n, t, c, decoded, lengths);
    } else {  // float16 and bfloat16 widen to float exactly, keeping their order
      const Tensor f = kernels::to_float(data);
      decode(f.data<float>(), seq, blank, merge_, n, t, c, decoded, lengths);
    }
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, classes_, Dims{n, t});
    store_as(out, decoded);
    Tensor& len = io.output_tensor(1);
    ir::reinit(len, lengths_, Dims{n});
    store_as(len, lengths);
  }

 private:
  bool merge_;
  ElemType classes_, lengths_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<CtcGreedyDecoderSeqLen>(ctx.attr_int("merge_repeated", 1) != 0,
                                                  index_type(ctx, "classes_index_type"),
                                                  index_type(ctx, "sequence_length_type"));
}

constexpr SignatureText kRows[] = {
    {1,
     "data: T, sequence_length: I, blank_index?: I -> decoded: C, decoded_length: L; "
     "T = float16 float double bfloat16; I = int32 int64; C = int32 int64; L = int32 int64; "
     "merge_repeated: int = 1, classes_index_type: int = 6, sequence_length_type: int = 6"}};

}  // namespace ctc_greedy_decoder_seq_len_op
}  // namespace

OpDef def_OvCTCGreedyDecoderSeqLen() {
  using namespace ctc_greedy_decoder_seq_len_op;
  return def_from_rows("org.openvinotoolkit", "CTCGreedyDecoderSeqLen", make, infer, kRows);
}

}  // namespace bough::ops
