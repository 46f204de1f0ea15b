// GatherElements: out[c] = data[c with c[axis] replaced by indices[c]]; the output has the
// shape of `indices`, which has data's rank and fits inside it off the axis.
#include "kernels/dispatch.h"
#include "kernels/gather_indices.h"
#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace gather_elements_op {
class GatherElements : public Kernel {
 public:
  explicit GatherElements(int64_t axis) : axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    const Tensor& indices = io.input(1);
    const size_t rank = data.rank();
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, static_cast<int64_t>(rank)));
    const std::vector<int64_t> idx = kernels::element_indices(indices, data, axis);
    if (is_sub_byte(data.type()))
      fail(ErrorKind::Unsupported, "", "GatherElements on sub-byte types");
    Tensor out(data.type(), indices.shape());
    if (out.numel() == 0) return io.set_output(0, std::move(out));
    const std::vector<int64_t> strides = kernels::contiguous_strides(data.shape());
    kernels::visit_storage(data.type(), "GatherElements", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(data);
      T* dst = kernels::elements<T>(out);
      std::vector<int64_t> coord(rank, 0);
      int64_t base = 0;  // offset of coord with the axis coordinate at 0
      for (size_t i = 0; i < idx.size(); ++i) {
        dst[i] = src[base + idx[i] * strides[axis]];
        for (size_t d = rank; d-- > 0;) {
          if (d != axis) base += strides[d];
          if (++coord[d] < indices.dim(d)) break;
          if (d != axis) base -= coord[d] * strides[d];
          coord[d] = 0;
        }
      }
    });
    io.set_output(0, std::move(out));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<GatherElements>(ctx.attr_int("axis", 0));
}
void infer(InferContext& ctx) {
  const ir::Shape& data = ctx.input_shape(0);
  const ir::Shape& indices = ctx.input_shape(1);
  if (data.rank_known) {
    const auto rank = static_cast<int64_t>(data.dims.size());
    if (rank == 0) ctx.invalid("GatherElements needs data of rank >= 1");
    normalize_axis(ctx, ctx.attr_int("axis", 0), rank, "axis");
    if (indices.rank_known && indices.dims.size() != data.dims.size())
      ctx.invalid("indices of rank " + std::to_string(indices.dims.size()) + " for data of rank " +
                  std::to_string(rank));
  }
  ctx.set_output_tensor(
      0, ctx.input_elem(0),
      indices.rank_known || !data.rank_known ? indices : unknown_dims(data.dims.size()));
}

constexpr SignatureText kRows[] = {
    {11, "data: T, indices: Tind -> output: T; T = all, Tind = int32 int64; axis: int = 0"},
    {13, "data: T, indices: Tind -> output: T; T = all_ir4, Tind = int32 int64; axis: int = 0"}};

}  // namespace gather_elements_op
}  // namespace

OpDef def_GatherElements() {
  using namespace gather_elements_op;
  return def_from_rows("", "GatherElements", make, infer, kRows);
}

}  // namespace bough::ops
