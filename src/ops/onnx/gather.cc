// Gather: entries of `data` along `axis` picked by `indices` (int32/int64, negative counts
// from the back); the output shape is data[:axis] + indices + data[axis+1:].
#include <algorithm>

#include "ir/storage.h"
#include "kernels/dispatch.h"
#include "kernels/gather_indices.h"
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace gather_op {

class Gather : public Kernel {
 public:
  explicit Gather(int64_t axis) : axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    const Tensor& indices = io.input(1);
    if (data.rank() == 1 && indices.rank() == 0 && (axis_ == 0 || axis_ == -1) &&
        pick_one(io, data, indices))
      return;
    gather(io, data, indices);
  }

 private:
  // Out of line, so that pick_one's path keeps a small stack frame.
  [[gnu::noinline]] void gather(KernelIO& io, const Tensor& data, const Tensor& indices) {
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, static_cast<int64_t>(data.rank())));
    const int64_t len = data.dim(axis);
    kernels::checked_indices(indices, len, &idx_);
    const std::vector<int64_t>& idx = idx_;
    if (is_sub_byte(data.type())) fail(ErrorKind::Unsupported, "", "Gather on sub-byte types");
    Dims shape;
    shape.resize(data.rank() - 1 + indices.rank());
    int64_t outer = 1, inner = 1;
    size_t r = 0;
    for (size_t d = 0; d < data.rank(); ++d) {
      if (d == axis) {
        for (int64_t i : indices.shape()) shape[r++] = i;
        continue;
      }
      shape[r++] = data.dim(d);
      (d < axis ? outer : inner) *= data.dim(d);
    }
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, data.type(), shape);
    const auto n = static_cast<int64_t>(idx.size());
    kernels::visit_storage(data.type(), "Gather", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(data);
      T* dst = kernels::elements<T>(out);
      auto blocks = [&](int64_t b, int64_t e) {
        int64_t o = b / n, j = b % n;  // block k is (o, j) = (k / n, k % n); one division a chunk
        for (int64_t k = b; k < e; ++k) {
          const T* from = src + (o * len + idx[static_cast<size_t>(j)]) * inner;
          if (inner == 1)
            dst[k] = *from;  // e.g. picking scalars: no copy call
          else
            std::copy_n(from, inner, dst + k * inner);
          if (++j == n) j = 0, ++o;
        }
      };
      io.pool().parallel_for(outer * n,
                             std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, inner)), blocks);
    });
  }

  // One element of a vector by a scalar index, as graphs read a dimension or a flag: no
  // index vector, no loop, no copy call. False for what the general path must handle
  // (sub-byte types, and index types it reports).
  static bool pick_one(KernelIO& io, const Tensor& data, const Tensor& indices) {
    if (elem_bits(data.type()) % 8 != 0) return false;
    if (indices.type() != ElemType::Int64 && indices.type() != ElemType::Int32) return false;
    const int64_t i = kernels::checked_index(indices, 0, data.dim(0));
    Tensor& out = io.output_tensor(0);
    ir::reinit(out, data.type(), indices.shape());
    kernels::visit_storage(data.type(), "Gather", [&](auto tag) {
      using T = typename decltype(tag)::type;
      *kernels::elements<T>(out) = kernels::elements<T>(data)[i];
    });
    return true;
  }

  int64_t axis_;
  std::vector<int64_t> idx_;  // checked indices, kept to avoid an allocation per call
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Gather>(ctx.attr_int("axis", 0));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& data = ctx.input_shape(0);
  const ir::Shape& indices = ctx.input_shape(1);
  if (data.rank_known && data.dims.empty()) ctx.invalid("Gather needs data of rank >= 1");
  if (!data.rank_known || !indices.rank_known) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto axis = static_cast<size_t>(
      normalize_axis(ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(data.dims.size()), "axis"));
  std::vector<ir::Dim> out(data.dims.begin(), data.dims.begin() + static_cast<ptrdiff_t>(axis));
  out.insert(out.end(), indices.dims.begin(), indices.dims.end());
  out.insert(out.end(), data.dims.begin() + static_cast<ptrdiff_t>(axis) + 1, data.dims.end());
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "data: T, indices: Tind -> output: T; T = all, Tind = int32 int64; axis: int = 0"},
    {11, "data: T, indices: Tind -> output: T; T = all, Tind = int32 int64; axis: int = 0"},
    {13, "data: T, indices: Tind -> output: T; T = all_ir4, Tind = int32 int64; axis: int = 0"}};

}  // namespace gather_op
}  // namespace

OpDef def_Gather() {
  using namespace gather_op;
  return def_from_rows("", "Gather", make, infer, kRows);
}

}  // namespace bough::ops
