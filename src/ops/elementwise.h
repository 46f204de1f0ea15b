// Building blocks shared by the elementwise operators: each operator file supplies a
// small functor and picks one of these kernels.
#pragma once

#include <cmath>
#include <type_traits>

#include "ir/storage.h"
#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/fast_math_maps.h"
#include "kernels/through_float.h"
#include "ops/registry.h"

namespace bough::ops {

// Opset < 7 broadcasting: with broadcast=1, B is matched against A starting at `axis`
// (or at the right when axis is absent). Returns B reshaped for numpy rules.
struct LegacyBroadcast {
  bool enabled = false;
  int64_t axis = -1;  // -1: align at the right
  static LegacyBroadcast from(const BuildContext& ctx) {
    LegacyBroadcast lb;
    if (ctx.since < 7 && ctx.attr_int("broadcast", 0) != 0) {
      lb.enabled = true;
      lb.axis = ctx.has_attr("axis") ? ctx.attr_int("axis", 0) : -1;
    }
    return lb;
  }
  Tensor apply(const Tensor& a, const Tensor& b) const {
    if (!enabled || axis < 0) return b;
    // B's dims must sit inside A's from `axis` on. Checked before the padding loop: an axis
    // of 2^63 - 1 made `size + axis` wrap negative and the loop grow B's shape forever.
    const auto rank_a = static_cast<int64_t>(a.rank()), rank_b = static_cast<int64_t>(b.rank());
    if (axis > rank_a - rank_b)
      fail(ErrorKind::BadInput, "",
           "broadcast axis " + std::to_string(axis) + " does not fit B's " +
               std::to_string(rank_b) + " dims in A's " + std::to_string(rank_a));
    Dims shape = b.shape();
    while (static_cast<int64_t>(shape.size()) + axis < rank_a) shape.push_back(1);
    return b.reshaped(shape);
  }
};

[[noreturn]] inline void type_mismatch(const Tensor& a, const Tensor& b) {
  fail(ErrorKind::BadInput, "",
       "inputs have different element types " + std::string(elem_name(a.type())) + " and " +
           std::string(elem_name(b.type())));
}

// Binary operator whose result has the inputs' type: Fn is called per element pair.
// float16/bfloat16 are computed in float. The result goes into `out` (see
// KernelIO::output_tensor).
template <typename Fn>
void arith(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool,
           const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  const ElemType t = a.type();
  // float16/bfloat16 get a float computation of their own (not the float case below through
  // kernels::through_float): the code for each type then has one caller and stays inlined,
  // which a small tensor in a loop notices.
  if (kernels::is_narrow_float(t)) [[unlikely]]
    return kernels::computed_in_float_into(
        out,
        [&](const Tensor& a, const Tensor& b, Tensor& y) {
          kernels::binary_map_into<float, float, float>(a, b, y, ElemType::Float, pool, Fn{});
        },
        a, b);
  kernels::visit_numeric(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::binary_map_into<T, T, T>(a, b, out, t, pool,
                                      [](T x, T y) { return static_cast<T>(Fn{}(x, y)); });
  });
}

template <typename Fn>
Tensor arith(const Tensor& a, const Tensor& b, util::ThreadPool& pool, const char* name) {
  Tensor out;
  arith<Fn>(a, b, out, pool, name);
  return out;
}

// Binary operator with a bool result (comparisons), into `out`.
template <typename Fn>
void compare(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool,
             const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  const ElemType t = a.type();
  if (kernels::is_narrow_float(t))
    return kernels::binary_map_into<float, float, bool>(kernels::to_float(a), kernels::to_float(b),
                                                        out, ElemType::Bool, pool, Fn{});
  if (t == ElemType::String)
    return kernels::binary_map_into<std::string, std::string, bool>(a, b, out, ElemType::Bool, pool,
                                                                    Fn{});
  kernels::visit_numeric_bool(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::binary_map_into<T, T, bool>(a, b, out, ElemType::Bool, pool, Fn{});
  });
}

// A kernel for a binary operator. Compute is either (a, b, out, pool), writing into the
// output (which reuses a buffer left from the previous run: the fast form for operators
// that run in loops), or (a, b, pool) -> Tensor.
template <auto Compute>
class BinaryKernel : public Kernel {
 public:
  explicit BinaryKernel(LegacyBroadcast legacy) : legacy_(legacy) {}
  void run(KernelIO& io) override {
    if (legacy_.enabled) [[unlikely]]
      return run_legacy(io);
    compute(io, io.input(0), io.input(1));
  }

 private:
  // Out of line, so that the common path keeps a small stack frame.
  [[gnu::noinline]] void run_legacy(KernelIO& io) {
    const Tensor& a = io.input(0);
    compute(io, a, legacy_.apply(a, io.input(1)));
  }
  static void compute(KernelIO& io, const Tensor& a, const Tensor& b) {
    if constexpr (std::is_invocable_v<decltype(Compute), const Tensor&, const Tensor&, Tensor&,
                                      util::ThreadPool&>)
      Compute(a, b, io.output_tensor(0), io.pool());
    else
      io.set_output(0, Compute(a, b, io.pool()));
  }
  LegacyBroadcast legacy_;
};

template <auto Compute>
std::unique_ptr<Kernel> make_binary(const BuildContext& ctx) {
  return std::make_unique<BinaryKernel<Compute>>(LegacyBroadcast::from(ctx));
}

// y = Fn(x) for a float x: through kernels::fast_map when Fn names its function of
// kernels/fast_math.h (Fn::kFast), else element by element.
template <typename Fn>
void float_map_into(const Tensor& x, Tensor& y, util::ThreadPool& pool) {
  const int64_t work = kernels::work_of<Fn>(2 * sizeof(float));
  if constexpr (requires { Fn::kFast; }) {
    ir::reinit(y, ElemType::Float, x.shape());
    const float* px = x.data<float>();
    float* py = y.data<float>();
    pool.parallel_for_work(x.numel(), work, [&](int64_t s, int64_t e) {
      kernels::fast_map(Fn::kFast, px + s, py + s, e - s);
    });
  } else {
    kernels::unary_map_into<float, float>(x, y, ElemType::Float, pool, Fn{}, work);
  }
}

// The Fn of a map through function F of kernels/fast_math.h, costing `Work` per element
// (kernels::kExpWork and the like): fast_map's vector loop for float, fast_apply for one
// value of another float type.
template <kernels::FastFn F, int64_t Work>
struct FastMapFn {
  static constexpr kernels::FastFn kFast = F;
  static constexpr int64_t kWork = Work;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_apply(F, v);
  }
};

// Unary operator Fn on the element types K names (float16/bfloat16 through float, as in
// arith), into `out`.
template <typename Fn, kernels::Types K>
void unary(const Tensor& x, Tensor& out, util::ThreadPool& pool, const char* name) {
  const ElemType t = x.type();
  if (kernels::is_narrow_float(t)) [[unlikely]]
    return kernels::computed_in_float_into(
        out, [&](const Tensor& x, Tensor& y) { float_map_into<Fn>(x, y, pool); }, x);
  kernels::visit<K>(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float>) {
      float_map_into<Fn>(x, out, pool);
    } else {
      kernels::unary_map_into<T, T>(
          x, out, t, pool, [](T v) { return static_cast<T>(Fn{}(v)); },
          kernels::work_of<Fn>(2 * sizeof(T)));
    }
  });
}

// Unary operator on float types.
template <typename Fn>
void float_unary(const Tensor& x, Tensor& out, util::ThreadPool& pool, const char* name) {
  unary<Fn, kernels::Types::Float>(x, out, pool, name);
}

// Unary operator on any numeric type.
template <typename Fn>
void numeric_unary(const Tensor& x, Tensor& out, util::ThreadPool& pool, const char* name) {
  unary<Fn, kernels::Types::Numeric>(x, out, pool, name);
}

// A kernel for a unary operator; Compute is (x, out, pool) or (x, pool) -> Tensor, as for
// BinaryKernel.
template <auto Compute>
class UnaryKernel : public Kernel {
 public:
  void run(KernelIO& io) override {
    if constexpr (std::is_invocable_v<decltype(Compute), const Tensor&, Tensor&, util::ThreadPool&>)
      Compute(io.input(0), io.output_tensor(0), io.pool());
    else
      io.set_output(0, Compute(io.input(0), io.pool()));
  }
};

template <auto Compute>
std::unique_ptr<Kernel> make_unary(const BuildContext&) {
  return std::make_unique<UnaryKernel<Compute>>();
}

}  // namespace bough::ops
