// ai.onnx.ml ArrayFeatureExtractor: the entries of X's last axis picked by the int64
// indices Y; the output is X's shape with the last dimension replaced by Y's count
// ([1, count] for a 1-D X).
#include <algorithm>

#include "kernels/dispatch.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

class ArrayFeatureExtractor : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& y = io.input(1);
    if (x.rank() == 0) fail(ErrorKind::BadInput, "", "ArrayFeatureExtractor needs X of rank >= 1");
    if (y.type() != ElemType::Int64) fail(ErrorKind::BadInput, "", "indices must be int64");
    const int64_t len = x.dim(x.rank() - 1), count = y.numel();
    const int64_t* idx = y.data<int64_t>();
    for (int64_t i = 0; i < count; ++i)
      if (idx[i] < 0 || idx[i] >= len)
        fail(ErrorKind::BadInput, "",
             "index " + std::to_string(idx[i]) + " is out of range for " + std::to_string(len) +
                 " features");
    Dims shape = x.shape();
    if (x.rank() == 1) shape.insert(0, 1);
    shape[shape.size() - 1] = count;
    Tensor z(x.type(), shape);
    const int64_t rows = len == 0 ? 0 : x.numel() / len;
    kernels::visit_storage(x.type(), "ArrayFeatureExtractor", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(z);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < count; ++i) dst[r * count + i] = src[r * len + idx[i]];
    });
    io.set_output(0, std::move(z));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) {
  return std::make_unique<ArrayFeatureExtractor>();
}

// X's shape with the last dim replaced by the number of indices ([1, count] for a 1-D X).
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (!x.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), x);
  if (x.dims.empty()) ctx.invalid("ArrayFeatureExtractor needs X of rank >= 1");
  const ir::Shape& y = ctx.input_shape(1);
  ir::Dim count = ir::Dim::unknown();
  if (y.rank_known &&
      std::all_of(y.dims.begin(), y.dims.end(), [](const ir::Dim& d) { return d.is_known(); })) {
    int64_t n = 1;
    for (const ir::Dim& d : y.dims) n *= d.value;
    count = ir::Dim::known(n);
  }
  std::vector<ir::Dim> dims = x.dims;
  if (dims.size() == 1) dims.insert(dims.begin(), ir::Dim::known(1));
  dims.back() = count;
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}
}  // namespace

OpDef def_MlArrayFeatureExtractor() {
  static constexpr SignatureText kRows[] = {
      {1, "X: T, Y: tensor(int64) -> Z: T; T = float double int32 int64 string"}};
  return def_from_rows("ai.onnx.ml", "ArrayFeatureExtractor", make, infer, kRows);
}

}  // namespace bough::ops
