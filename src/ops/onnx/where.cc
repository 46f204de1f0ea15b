// Where: condition ? X : Y elementwise, the three inputs broadcast together (numpy rules).
// X and Y share any element type (strings included); condition is bool.
#include <algorithm>

#include "kernels/broadcast.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace where_op {

// out[i] = op(a[i], b[i], c[i]) with multidirectional broadcasting: binary_map's loop with
// a third input. Elements are read through kernels::elements, so T may be std::string.
template <typename TA, typename TB, typename TC, typename TO, typename Op>
Tensor ternary_map(const Tensor& a, const Tensor& b, const Tensor& c, ElemType out_type,
                   util::ThreadPool& pool, Op op) {
  const Dims* shapes[] = {&a.shape(), &b.shape(), &c.shape()};
  Tensor out(out_type, kernels::broadcast_shape(shapes));
  const int64_t total = out.numel();
  if (total == 0) return out;
  const TA* pa = kernels::elements<TA>(a);
  const TB* pb = kernels::elements<TB>(b);
  const TC* pc = kernels::elements<TC>(c);
  TO* po = kernels::elements<TO>(out);
  if (a.numel() == total && b.numel() == total && c.numel() == total) {  // one flat run
    pool.parallel_for_work(total, kernels::kElementWork, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = op(pa[i], pb[i], pc[i]);
    });
    return out;
  }
  const kernels::BroadcastLoop L = kernels::make_broadcast_loop(out.shape(), shapes);
  const int64_t sa = L.inner_stride(0), sb = L.inner_stride(1), sc = L.inner_stride(2);
  auto runs = [&](int64_t s, int64_t e) {
    kernels::for_each_run(L, s, e, [&](int64_t o, const int64_t* in, int64_t n) {
      TO* dst = po + o;
      const TA* x = pa + in[0];
      const TB* y = pb + in[1];
      const TC* z = pc + in[2];
      for (int64_t i = 0; i < n; ++i) dst[i] = op(x[i * sa], y[i * sb], z[i * sc]);
    });
  };
  pool.parallel_for(L.outer(), util::grain_for(L.inner() * kernels::kElementWork), runs);
  return out;
}

class Where : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& cond = io.input(0);
    const Tensor& x = io.input(1);
    const Tensor& y = io.input(2);
    if (cond.type() != ElemType::Bool)
      fail(ErrorKind::BadInput, "",
           "Where condition must be bool, got " + std::string(elem_name(cond.type())));
    if (x.type() != y.type())
      fail(ErrorKind::BadInput, "",
           "X and Y have different element types " + std::string(elem_name(x.type())) + " and " +
               std::string(elem_name(y.type())));
    if (is_sub_byte(x.type())) fail(ErrorKind::Unsupported, "", "Where on sub-byte types");
    Tensor out = kernels::visit_storage(x.type(), "Where", [&](auto tag) {
      using T = typename decltype(tag)::type;
      return ternary_map<bool, T, T, T>(cond, x, y, x.type(), io.pool(),
                                        [](bool c, const T& a, const T& b) { return c ? a : b; });
    });
    io.set_output(0, std::move(out));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Where>(); }

void infer(InferContext& ctx) {
  ir::Shape shape = broadcast_shapes(ctx, ctx.input_shape(0), ctx.input_shape(1));
  shape = broadcast_shapes(ctx, shape, ctx.input_shape(2));
  ctx.set_output_tensor(0, ctx.input_elem(1), std::move(shape));
}

constexpr SignatureText kRows[] = {
    {9, "condition: B, X: T, Y: T -> output: T; B = bool, T = all"},
    {16, "condition: B, X: T, Y: T -> output: T; B = bool, T = all_ir4"}};

}  // namespace where_op
}  // namespace

OpDef def_Where() {
  using namespace where_op;
  return def_from_rows("", "Where", make, infer, kRows);
}

}  // namespace bough::ops
