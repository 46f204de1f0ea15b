// GatherND: slices of data named by the index tuples in the last dimension of indices (k
// entries). The first batch_dims dimensions (opset 12+) of data and indices are matched
// pairwise; the output shape is indices.shape[:-1] + data.shape[batch_dims + k:].
#include <algorithm>

#include "kernels/dispatch.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nd_index.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace gather_nd_op {
class GatherND : public Kernel {
 public:
  explicit GatherND(int64_t batch_dims) : batch_dims_(batch_dims) {}

  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    const Tensor& indices = io.input(1);
    const auto b = static_cast<size_t>(batch_dims_);
    if (batch_dims_ < 0 || b >= data.rank() || b >= indices.rank())
      fail(ErrorKind::BadInput, "", "batch_dims must be less than the rank of data and indices");
    int64_t batches = 1;
    for (size_t d = 0; d < b; ++d) {
      if (data.dim(d) != indices.dim(d))
        fail(ErrorKind::BadInput, "",
             "batch dimensions of data " + shape_string(data.shape()) + " and indices " +
                 shape_string(indices.shape()) + " differ");
      batches *= data.dim(d);
    }
    const Dims block{std::span<const int64_t>(data.shape()).subspan(b)};
    const std::vector<int64_t> offsets = nd_offsets(indices, block);
    const auto k = static_cast<size_t>(indices.dim(indices.rank() - 1));
    Dims shape;
    for (size_t d = 0; d + 1 < indices.rank(); ++d) shape.push_back(indices.dim(d));
    int64_t run = 1;
    for (size_t d = b + k; d < data.rank(); ++d) {
      shape.push_back(data.dim(d));
      run *= data.dim(d);
    }
    if (is_sub_byte(data.type())) fail(ErrorKind::Unsupported, "", "GatherND on sub-byte types");
    Tensor out(data.type(), shape);
    const int64_t block_size = block.numel();
    const int64_t per_batch = batches == 0 ? 0 : static_cast<int64_t>(offsets.size()) / batches;
    kernels::visit_storage(data.type(), "GatherND", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(data);
      T* dst = kernels::elements<T>(out);
      for (size_t t = 0; t < offsets.size(); ++t) {
        const int64_t batch = static_cast<int64_t>(t) / per_batch;
        std::copy_n(src + batch * block_size + offsets[t], run,
                    dst + static_cast<int64_t>(t) * run);
      }
    });
    io.set_output(0, std::move(out));
  }

 private:
  int64_t batch_dims_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<GatherND>(ctx.since >= 12 ? ctx.attr_int("batch_dims", 0) : 0);
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& data = ctx.input_shape(0);
  const ir::Shape& indices = ctx.input_shape(1);
  const int64_t batch = ctx.since >= 12 ? ctx.attr_int("batch_dims", 0) : 0;
  if (!data.rank_known || !indices.rank_known || indices.dims.empty() ||
      !indices.dims.back().is_known()) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto r = static_cast<int64_t>(data.dims.size());
  const auto q = static_cast<int64_t>(indices.dims.size());
  const int64_t last = indices.dims.back().value;
  if (batch < 0 || batch >= std::min(r, q))
    ctx.invalid("batch_dims " + std::to_string(batch) + " is out of range");
  if (last < 1 || last > r - batch)
    ctx.invalid("index tuples of length " + std::to_string(last) + " for data of rank " +
                std::to_string(r) + " and batch_dims " + std::to_string(batch));
  std::vector<ir::Dim> out(indices.dims.begin(), indices.dims.end() - 1);
  out.insert(out.end(), data.dims.begin() + batch + last, data.dims.end());
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {11, "data: T, indices: tensor(int64) -> output: T; T = all"},
    {12, "data: T, indices: tensor(int64) -> output: T; T = all; batch_dims: int = 0"},
    {13, "data: T, indices: tensor(int64) -> output: T; T = all_ir4; batch_dims: int = 0"}};

}  // namespace gather_nd_op
}  // namespace

OpDef def_GatherND() {
  using namespace gather_nd_op;
  return def_from_rows("", "GatherND", make, infer, kRows);
}

}  // namespace bough::ops
