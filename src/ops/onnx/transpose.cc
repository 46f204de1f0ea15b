// Transpose: out.shape[i] = in.shape[perm[i]]; perm defaults to reversing the axes.
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
class Transpose : public Kernel {
 public:
  explicit Transpose(std::vector<int64_t> perm) : perm_(std::move(perm)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::vector<int64_t> perm = perm_;
    if (perm.empty())
      for (size_t i = x.rank(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    if (perm.size() != x.rank())
      fail(ErrorKind::BadInput, "",
           "perm has " + std::to_string(perm.size()) + " axes for an input of shape " +
               shape_string(x.shape()));
    for (int64_t p : perm)
      if (p < 0) fail(ErrorKind::BadInput, "", "perm is not a permutation");
    kernels::normalize_axes(perm, static_cast<int64_t>(x.rank()));  // range and repeats
    const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
    Dims shape;
    std::vector<int64_t> strides;
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) {
      const auto p = static_cast<size_t>(perm[i]);
      shape.push_back(x.dim(p));
      strides.push_back(in_strides[p]);
      identity = identity && p == i;
    }
    if (identity) return io.set_output(0, x);
    Tensor out(x.type(), shape);
    kernels::strided_copy(x, {0, strides}, out, {0, kernels::contiguous_strides(shape)}, shape,
                          &io.pool());
    io.set_output(0, std::move(out));
  }

 private:
  std::vector<int64_t> perm_;  // empty: reverse
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Transpose>(ctx.attr_ints("perm"));
}
}  // namespace

const OpDef& def_Transpose() {
  static const OpDef def{"",
                         "Transpose",
                         {1, 13, 21, 23, 24, 25},
                         1,
                         1,
                         1,
                         1,
                         make,
                         nullptr,
                         {{1, "data: T -> transposed: T; T = all; perm: ints?"},
                          {13, "data: T -> transposed: T; T = all_ir4; perm: ints?"}}};
  return def;
}

}  // namespace bough::ops
