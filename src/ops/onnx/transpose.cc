// Transpose: out.shape[i] = in.shape[perm[i]]; perm defaults to reversing the axes.
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace transpose_op {
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
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const bool has_perm = ctx.has_attr("perm");
  if (!s.rank_known) {
    ctx.set_output_tensor(
        0, elem, has_perm ? unknown_dims(ctx.attr_ints("perm").size()) : ir::Shape::unknown_rank());
    return;
  }
  const size_t rank = s.dims.size();
  std::vector<int64_t> perm;
  if (has_perm) {
    perm = ctx.attr_ints("perm");
  } else {
    for (size_t k = rank; k > 0; --k) perm.push_back(static_cast<int64_t>(k - 1));
  }
  if (perm.size() != rank)
    ctx.invalid("perm has " + std::to_string(perm.size()) + " entries for an input of rank " +
                std::to_string(rank));
  std::vector<bool> seen(rank, false);
  std::vector<ir::Dim> out;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(p)])
      ctx.invalid("perm is not a permutation of 0.." + std::to_string(rank - 1));
    seen[static_cast<size_t>(p)] = true;
    out.push_back(s.dims[static_cast<size_t>(p)]);
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {{1, "data: T -> transposed: T; T = all; perm: ints?"},
                                   {13, "data: T -> transposed: T; T = all_ir4; perm: ints?"},
                                   {21, "data: T -> transposed: T; T = all_ir10; perm: ints?"},
                                   {23, "data: T -> transposed: T; T = all_ir11; perm: ints?"},
                                   {24, "data: T -> transposed: T; T = all_ir12; perm: ints?"},
                                   {25, "data: T -> transposed: T; T = all_ir13; perm: ints?"}};

}  // namespace transpose_op
}  // namespace

OpDef def_Transpose() {
  using namespace transpose_op;
  return def_from_rows("", "Transpose", make, infer, kRows);
}

}  // namespace bough::ops
