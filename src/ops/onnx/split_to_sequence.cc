// SplitToSequence: splits a tensor along `axis` into a sequence. `split` is a 1-D tensor of
// part lengths summing to the axis size, or a scalar chunk size (the last chunk may be
// shorter). Without it, the parts have length 1 and keepdims=0 drops the split axis.
#include <algorithm>

#include "kernels/layout.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace split_to_sequence_op {

// The part lengths along an axis of size `dim`, as `split` prescribes.
std::vector<int64_t> part_lengths(const Tensor& split, int64_t dim) {
  if ((split.type() != ElemType::Int32 && split.type() != ElemType::Int64) || split.rank() > 1)
    fail(ErrorKind::BadInput, "",
         "split must be an int32 or int64 scalar or 1-D tensor, got " + describe(split));
  std::vector<int64_t> lengths;
  if (split.rank() == 0) {
    const int64_t size = split.get_int(0);
    if (size <= 0)
      fail(ErrorKind::BadInput, "", "a scalar split must be positive, got " + std::to_string(size));
    for (int64_t at = 0; at < dim; at += size) lengths.push_back(std::min(size, dim - at));
    return lengths;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < split.numel(); ++i) {
    const int64_t len = split.get_int(i);
    if (len < 0) fail(ErrorKind::BadInput, "", "split lengths must not be negative");
    lengths.push_back(len);
    total += len;
  }
  if (total != dim)
    fail(ErrorKind::BadInput, "",
         "split lengths sum to " + std::to_string(total) + ", but the axis has size " +
             std::to_string(dim));
  return lengths;
}

class SplitToSequence : public Kernel {
 public:
  SplitToSequence(int64_t axis, bool keepdims) : axis_(axis), keepdims_(keepdims) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (is_sub_byte(x.type()))
      fail(ErrorKind::Unsupported, "",
           "splitting sub-byte element type " + std::string(elem_name(x.type())));
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, static_cast<int64_t>(x.rank())));
    const int64_t dim = x.dim(axis);
    const bool has_split = io.has_input(1);
    const std::vector<int64_t> lengths = has_split
                                             ? part_lengths(io.input(1), dim)
                                             : std::vector<int64_t>(static_cast<size_t>(dim), 1);
    const bool squeeze = !has_split && !keepdims_;

    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < axis; ++i) outer *= x.dim(i);
    for (size_t i = axis + 1; i < x.rank(); ++i) inner *= x.dim(i);

    std::vector<Value> items;
    items.reserve(lengths.size());
    int64_t at = 0;
    for (int64_t len : lengths) {
      Dims shape = x.shape();
      shape[axis] = len;
      if (squeeze) shape.erase(axis);
      if (outer == 1) {
        items.emplace_back(x.view(at * inner, shape));  // contiguous: share the buffer
      } else {
        Tensor part(x.type(), shape);
        const int64_t dims[] = {outer, len * inner}, from[] = {dim * inner, 1},
                      to[] = {len * inner, 1};
        kernels::strided_copy(x, {at * inner, from}, part, {0, to}, dims, io.context().pool);
        items.emplace_back(std::move(part));
      }
      at += len;
    }
    io.set_output(0, Value::sequence(x.type(), std::move(items)));
  }

 private:
  int64_t axis_;
  bool keepdims_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<SplitToSequence>(ctx.attr_int("axis", 0),
                                           ctx.attr_int("keepdims", 1) != 0);
}

void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output(0, sequence_infer::seq_of(ir::Type::tensor(elem)));
    return;
  }
  const auto axis = static_cast<size_t>(
      normalize_axis(ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(s.dims.size()), "axis"));
  std::vector<ir::Dim> dims = s.dims;
  if (!ctx.has_input(1)) {
    if (ctx.attr_int("keepdims", 1) != 0)
      dims[axis] = ir::Dim::known(1);
    else
      dims.erase(dims.begin() + static_cast<ptrdiff_t>(axis));
  } else {
    // Every piece has the same length only when all of split's entries agree and divide the axis.
    const auto split = int_values(ctx, 1);
    const ir::Shape& split_shape = ctx.input_shape(1);
    ir::Dim piece = ir::Dim::unknown();
    if (split && !split->empty()) {
      bool same =
          std::all_of(split->begin(), split->end(), [&](int64_t v) { return v == (*split)[0]; });
      const bool scalar = split_shape.rank_known && split_shape.dims.empty();
      if (same && (!scalar || (dims[axis].is_known() && dims[axis].value % (*split)[0] == 0)))
        piece = ir::Dim::known((*split)[0]);
    }
    dims[axis] = piece;
  }
  ctx.set_output(0, sequence_infer::seq_of(ir::Type::tensor(elem, ir::Shape::of(std::move(dims)))));
}

constexpr SignatureText kRows[] = {
    {11,
     "input: T, split?: I -> output_sequence: S; T = all, I = int32 int64, S "
     "= seq(all); axis: int = 0, keepdims: int = 1"},
    {24,
     "input: T, split?: I -> output_sequence: S; T = all_ir4, I = int32 "
     "int64, S = seq(all_ir4); axis: int = 0, keepdims: int = 1"}};

}  // namespace split_to_sequence_op
}  // namespace

OpDef def_SplitToSequence() {
  using namespace split_to_sequence_op;
  return def_from_rows("", "SplitToSequence", make, infer, kRows);
}

}  // namespace bough::ops
