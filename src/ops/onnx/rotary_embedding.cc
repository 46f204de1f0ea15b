// RotaryEmbedding: rotates pairs of each head's first `rotary_embedding_dim` channels (all of
// them by default) by position-dependent angles given as cos/sin caches. The input is
// (batch, heads, seq, head_size), or (batch, seq, heads * head_size) with num_heads set.
// With position_ids (batch, seq) the caches are (max_position, dim / 2) and are indexed by
// them; without, they are (batch, seq, dim / 2). Pairs are the two halves of the rotated
// part, or adjacent channels with interleaved=1. float16/bfloat16 go through float.
#include <string>
#include <vector>

#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace rotary_embedding_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

struct Layout {
  int64_t batch = 0, heads = 0, seq = 0, head_size = 0;
  bool packed = false;  // 3-D (batch, seq, heads * head_size)
  // Offset of channel 0 of head h at (b, s).
  int64_t at(int64_t b, int64_t h, int64_t s) const {
    return packed ? ((b * seq + s) * heads + h) * head_size
                  : ((b * heads + h) * seq + s) * head_size;
  }
};

Layout layout_of(const Tensor& x, int64_t num_heads) {
  Layout L;
  if (x.rank() == 4) {
    L = {x.dim(0), x.dim(1), x.dim(2), x.dim(3), false};
  } else if (x.rank() == 3) {
    if (num_heads <= 0) bad("RotaryEmbedding needs num_heads for a 3-D input");
    if (x.dim(2) % num_heads != 0)
      bad("RotaryEmbedding hidden size " + std::to_string(x.dim(2)) +
          " is not a multiple of num_heads " + std::to_string(num_heads));
    L = {x.dim(0), num_heads, x.dim(1), x.dim(2) / num_heads, true};
  } else {
    bad("RotaryEmbedding input must be 3-D or 4-D, got " + shape_string(x.shape()));
  }
  return L;
}

template <typename T>
void rotate(const T* x, T* y, const T* cos, const T* sin, const Layout& L,
            const std::vector<int64_t>& cache_row, int64_t dim, bool interleaved,
            util::ThreadPool& pool) {
  const int64_t half = dim / 2, rows = L.batch * L.seq * L.heads;
  const int64_t grain = util::grain_for(L.head_size * kernels::kElementWork);
  pool.parallel_for(rows, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t h = r % L.heads, s = (r / L.heads) % L.seq, b = r / (L.heads * L.seq);
      const int64_t off = L.at(b, h, s);
      const T* xr = x + off;
      T* yr = y + off;
      const T* c = cos + cache_row[static_cast<size_t>(b * L.seq + s)] * half;
      const T* sn = sin + cache_row[static_cast<size_t>(b * L.seq + s)] * half;
      for (int64_t i = 0; i < half; ++i) {
        const int64_t i1 = interleaved ? 2 * i : i, i2 = interleaved ? 2 * i + 1 : i + half;
        const T x1 = xr[i1], x2 = xr[i2];
        yr[i1] = c[i] * x1 - sn[i] * x2;
        yr[i2] = sn[i] * x1 + c[i] * x2;
      }
      for (int64_t i = dim; i < L.head_size; ++i) yr[i] = xr[i];
    }
  });
}

class RotaryEmbedding : public Kernel {
 public:
  RotaryEmbedding(bool interleaved, int64_t dim, int64_t num_heads)
      : interleaved_(interleaved), dim_(dim), num_heads_(num_heads) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor& cos_in = io.input(1);
    const Tensor& sin_in = io.input(2);
    if (cos_in.type() != in.type() || sin_in.type() != in.type())
      bad("RotaryEmbedding caches must have the input's element type");
    if (cos_in.shape() != sin_in.shape())
      bad("RotaryEmbedding cos_cache " + shape_string(cos_in.shape()) + " and sin_cache " +
          shape_string(sin_in.shape()) + " differ in shape");
    const Layout L = layout_of(in, num_heads_);
    const int64_t dim = dim_ == 0 ? L.head_size : dim_;
    if (dim <= 0 || dim > L.head_size || dim % 2 != 0)
      bad("RotaryEmbedding rotary_embedding_dim " + std::to_string(dim) +
          " must be even and at most the head size " + std::to_string(L.head_size));
    const int64_t half = dim / 2;
    // The cache row of each (batch, seq) position.
    std::vector<int64_t> row(static_cast<size_t>(L.batch * L.seq));
    if (io.has_input(3)) {
      const Tensor& pos = io.input(3);
      if (pos.shape() != Dims{L.batch, L.seq})
        bad("RotaryEmbedding position_ids must have shape " + shape_string(Dims{L.batch, L.seq}) +
            ", got " + shape_string(pos.shape()));
      if (cos_in.rank() != 2 || cos_in.dim(1) != half)
        bad("RotaryEmbedding caches must have shape (max_position, " + std::to_string(half) +
            ") with position_ids, got " + shape_string(cos_in.shape()));
      row = kernels::read_ints(pos, "position_ids");
      for (int64_t p : row)
        if (p < 0 || p >= cos_in.dim(0))
          bad("RotaryEmbedding position id " + std::to_string(p) + " is outside [0, " +
              std::to_string(cos_in.dim(0)) + ")");
    } else {
      if (cos_in.shape() != Dims{L.batch, L.seq, half})
        bad("RotaryEmbedding caches must have shape " + shape_string(Dims{L.batch, L.seq, half}) +
            " without position_ids, got " + shape_string(cos_in.shape()));
      for (size_t i = 0; i < row.size(); ++i) row[i] = static_cast<int64_t>(i);
    }
    auto rotated = [&](const Tensor& x, const Tensor& c, const Tensor& s) {
      return kernels::visit_float(x.type(), "RotaryEmbedding", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor out(x.type(), x.shape());
        rotate<T>(x.data<T>(), out.data<T>(), c.data<T>(), s.data<T>(), L, row, dim, interleaved_,
                  io.pool());
        return out;
      });
    };
    io.set_output(0, kernels::through_float(rotated, in, cos_in, sin_in));
  }

 private:
  bool interleaved_;
  int64_t dim_, num_heads_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t dim = ctx.attr_int("rotary_embedding_dim", 0);
  const int64_t heads = ctx.attr_int("num_heads", 0);
  if (dim < 0) ctx.invalid("rotary_embedding_dim must be >= 0");
  if (heads < 0) ctx.invalid("num_heads must be >= 0");
  return std::make_unique<RotaryEmbedding>(ctx.attr_int("interleaved", 0) != 0, dim, heads);
}

constexpr SignatureText kRows[] = {
    {23,
     "X: T, cos_cache: T, sin_cache: T, position_ids?: M -> Y: T; T = float float16 bfloat16, M "
     "= int64; interleaved: int = 0, num_heads: int?, rotary_embedding_dim: int = 0"}};

}  // namespace rotary_embedding_op
}  // namespace

OpDef def_RotaryEmbedding() {
  using namespace rotary_embedding_op;
  return def_from_rows("", "RotaryEmbedding", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
