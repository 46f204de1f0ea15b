// Einsum: sums of products over labelled dimensions, numpy's einsum: "ij,jk->ik", a label
// repeated within a term takes a diagonal, "..." stands for broadcast leading dimensions,
// and without "->" the output holds the ellipsis dimensions and then the labels that appear
// once, in alphabetical order (upper case first). Two operands that form a batched matrix
// product go through the matrix kernel (ops/onnx/einsum_matmul.h); anything else through one
// loop over every label (output labels outside, summed labels inside), split across threads
// by output element.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/einsum_matmul.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace einsum_op {
constexpr int kLetters = 52;   // 'A'..'Z' are labels 0..25, 'a'..'z' 26..51
constexpr int kEllipsis = -1;  // a term token; ellipsis dimension j becomes label kLetters + j

using Term = std::vector<int>;

struct Equation {
  std::vector<Term> inputs;
  bool explicit_output = false;
  Term output;
};

// Parses one term; false on a bad character or a second ellipsis.
bool parse_term(const std::string& s, Term* term) {
  bool ellipsis = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.') {
      if (ellipsis || s.compare(i, 3, "...") != 0) return false;
      ellipsis = true;
      term->push_back(kEllipsis);
      i += 2;
    } else if (c >= 'A' && c <= 'Z') {
      term->push_back(c - 'A');
    } else if (c >= 'a' && c <= 'z') {
      term->push_back(26 + (c - 'a'));
    } else {
      return false;
    }
  }
  return true;
}

bool parse_equation(std::string eq, Equation* out) {
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  if (arrow != std::string::npos) {
    out->explicit_output = true;
    if (!parse_term(eq.substr(arrow + 2), &out->output)) return false;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    out->inputs.emplace_back();
    if (!parse_term(lhs.substr(start, comma - start), &out->inputs.back())) return false;
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// The labels of each dimension of a tensor of `rank` described by `term`, the ellipsis
// aligned at the right of `ell` ellipsis labels.
std::vector<int> expand(const Term& term, size_t rank, size_t ell) {
  std::vector<int> labels;
  const size_t letters =
      term.size() - static_cast<size_t>(std::count(term.begin(), term.end(), kEllipsis));
  for (int t : term) {
    if (t != kEllipsis) {
      labels.push_back(t);
      continue;
    }
    const size_t e = rank - letters;
    for (size_t j = 0; j < e; ++j) labels.push_back(kLetters + static_cast<int>(ell - e + j));
  }
  return labels;
}

bool has_ellipsis(const Term& term) {
  return std::find(term.begin(), term.end(), kEllipsis) != term.end();
}

// The labels of the output's dimensions: the explicit output's or, without one, the
// ellipsis and then the letters used once (uses[l]: the input dimensions labelled l) in
// alphabetical order.
std::vector<int> output_labels(const Equation& eq, size_t ell, const std::vector<int>& uses) {
  if (eq.explicit_output) {
    const bool out_ell = has_ellipsis(eq.output);
    const size_t out_letters = eq.output.size() - (out_ell ? 1 : 0);
    return expand(eq.output, out_letters + (out_ell ? ell : 0), ell);
  }
  std::vector<int> labels;
  for (size_t j = 0; j < ell; ++j) labels.push_back(kLetters + static_cast<int>(j));
  for (int l = 0; l < kLetters; ++l)
    if (uses[static_cast<size_t>(l)] == 1) labels.push_back(l);
  return labels;
}

// The loop over every label: output labels first (`n_out` of them), then summed ones.
struct Loop {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides;  // [input][loop dimension], 0 when broadcast
  size_t n_out = 0;
};

template <typename T>
void einsum_range(const std::vector<const T*>& in, T* out, const Loop& L, int64_t begin,
                  int64_t end) {
  const size_t rank = L.dims.size(), k = in.size();
  std::vector<int64_t> coord(rank, 0), off(k, 0);
  int64_t rest = begin;
  for (size_t d = L.n_out; d-- > 0;) {
    coord[d] = rest % L.dims[d];
    rest /= L.dims[d];
    for (size_t j = 0; j < k; ++j) off[j] += coord[d] * L.strides[j][d];
  }
  int64_t summed = 1;
  for (size_t d = L.n_out; d < rank; ++d) summed *= L.dims[d];
  auto advance = [&](size_t lo, size_t hi) {  // odometer step over dimensions [lo, hi)
    for (size_t d = hi; d-- > lo;) {
      for (size_t j = 0; j < k; ++j) off[j] += L.strides[j][d];
      if (++coord[d] < L.dims[d]) return;
      for (size_t j = 0; j < k; ++j) off[j] -= coord[d] * L.strides[j][d];
      coord[d] = 0;
    }
  };
  for (int64_t o = begin; o < end; ++o) {
    T acc = T(0);
    for (int64_t r = 0; r < summed; ++r) {
      T p = T(1);
      for (size_t j = 0; j < k; ++j) p = static_cast<T>(p * in[j][off[j]]);
      acc = static_cast<T>(acc + p);
      advance(L.n_out, rank);
    }
    out[o] = acc;
    advance(0, L.n_out);
  }
}

class Einsum : public Kernel {
 public:
  explicit Einsum(Equation eq) : eq_(std::move(eq)) {}

  void run(KernelIO& io) override {
    const size_t n = io.num_inputs();
    if (n != eq_.inputs.size())
      fail(ErrorKind::BadInput, "",
           "the equation has " + std::to_string(eq_.inputs.size()) + " terms for " +
               std::to_string(n) + " inputs");
    const ElemType t = io.input(0).type();
    std::vector<Tensor> xs;
    for (size_t i = 0; i < n; ++i) {
      if (io.input(i).type() != t) type_mismatch(io.input(0), io.input(i));
      xs.push_back(kernels::widen(io.input(i)));
    }
    // Ellipsis width and the labels of every input dimension.
    size_t ell = 0;
    for (size_t i = 0; i < n; ++i) {
      const Term& term = eq_.inputs[i];
      const bool has_ell = has_ellipsis(term);
      const size_t letters = term.size() - (has_ell ? 1 : 0);
      if (xs[i].rank() < letters || (!has_ell && xs[i].rank() != letters))
        fail(ErrorKind::BadInput, "",
             "input " + std::to_string(i) + " of shape " + shape_string(xs[i].shape()) +
                 " does not fit its term");
      if (has_ell) ell = std::max(ell, xs[i].rank() - letters);
    }
    std::vector<std::vector<int>> labels(n);
    std::vector<int64_t> size(kLetters + ell, -1);
    std::vector<int> uses(kLetters + ell, 0);
    for (size_t i = 0; i < n; ++i) {
      labels[i] = expand(eq_.inputs[i], xs[i].rank(), ell);
      for (size_t d = 0; d < labels[i].size(); ++d) {
        const auto l = static_cast<size_t>(labels[i][d]);
        const int64_t dim = xs[i].dim(d);
        ++uses[l];
        if (size[l] == -1 || (l >= kLetters && size[l] == 1)) {
          size[l] = dim;
        } else if (dim != size[l] && !(l >= kLetters && dim == 1)) {
          fail(ErrorKind::BadInput, "",
               "dimension sizes " + std::to_string(size[l]) + " and " + std::to_string(dim) +
                   " of one label differ");
        }
      }
    }
    const std::vector<int> out_labels = output_labels(eq_, ell, uses);
    std::vector<bool> in_output(kLetters + ell, false);
    for (int l : out_labels) {
      if (size[static_cast<size_t>(l)] == -1 || in_output[static_cast<size_t>(l)])
        fail(ErrorKind::BadInput, "", "an output label is repeated or missing from the inputs");
      in_output[static_cast<size_t>(l)] = true;
    }
    std::vector<int> order = out_labels;
    for (size_t l = 0; l < size.size(); ++l)
      if (size[l] != -1 && !in_output[l]) order.push_back(static_cast<int>(l));
    Loop L;
    L.n_out = out_labels.size();
    Dims shape;
    for (int l : order) L.dims.push_back(size[static_cast<size_t>(l)]);
    for (size_t d = 0; d < L.n_out; ++d) shape.push_back(L.dims[d]);
    for (size_t i = 0; i < n; ++i) {
      std::vector<int64_t> s(order.size(), 0);
      int64_t stride = 1;
      for (size_t d = labels[i].size(); d-- > 0;) {
        const auto at = static_cast<size_t>(std::find(order.begin(), order.end(), labels[i][d]) -
                                            order.begin());
        if (xs[i].dim(d) != 1) s[at] += stride;
        stride *= xs[i].dim(d);
      }
      L.strides.push_back(std::move(s));
    }
    if (n == 2) {
      const Tensor product =
          einsum_as_matmul(xs[0], labels[0], xs[1], labels[1], out_labels, io.pool());
      if (product.defined()) return io.set_output(0, kernels::narrow_to(product, t));
    }
    Tensor y = kernels::visit_numeric(xs[0].type(), "Einsum", [&](auto tag) {
      using T = typename decltype(tag)::type;
      Tensor out(xs[0].type(), shape);
      std::vector<const T*> in;
      for (const Tensor& x : xs) in.push_back(x.data<T>());
      T* po = out.data<T>();
      int64_t per_out = 1;
      for (size_t d = L.n_out; d < L.dims.size(); ++d) per_out *= L.dims[d];
      const int64_t grain = std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(1, per_out));
      io.pool().parallel_for(out.numel(), grain,
                             [&](int64_t b, int64_t e) { einsum_range(in, po, L, b, e); });
      return out;
    });
    io.set_output(0, kernels::narrow_to(y, t));
  }

 private:
  Equation eq_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Equation eq;
  if (!parse_equation(ctx.attr_string("equation", ""), &eq))
    ctx.invalid("malformed Einsum equation \"" + ctx.attr_string("equation", "") + "\"");
  return std::make_unique<Einsum>(std::move(eq));
}
// The output dims as run finds them: each label's dim (letters must agree, ellipsis dims
// broadcast), in the order of the explicit output or, without one, the ellipsis and then
// the letters used once in alphabetical order.
void infer(InferContext& ctx) {
  const std::string text = ctx.attr_string("equation", "");
  Equation eq;
  if (!parse_equation(text, &eq)) ctx.invalid("malformed Einsum equation \"" + text + "\"");
  const size_t n = ctx.num_inputs();
  if (n != eq.inputs.size())
    ctx.invalid("the equation has " + std::to_string(eq.inputs.size()) + " terms for " +
                std::to_string(n) + " inputs");
  size_t ell = 0;
  bool ell_known = true;
  for (size_t i = 0; i < n; ++i) {
    const Term& term = eq.inputs[i];
    const bool has_ell = has_ellipsis(term);
    const size_t letters = term.size() - (has_ell ? 1 : 0);
    const ir::Shape& s = ctx.input_shape(i);
    if (!s.rank_known) {
      if (has_ell) ell_known = false;
      continue;
    }
    if (s.dims.size() < letters || (!has_ell && s.dims.size() != letters))
      ctx.invalid("input " + std::to_string(i) + " of rank " + std::to_string(s.dims.size()) +
                  " does not fit its term");
    if (has_ell) ell = std::max(ell, s.dims.size() - letters);
  }
  if (!ell_known && (!eq.explicit_output || has_ellipsis(eq.output)))
    return ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::unknown_rank());
  std::vector<ir::Dim> size(kLetters + ell);
  std::vector<bool> seen(kLetters + ell, false);
  std::vector<int> uses(kLetters + ell, 0);
  for (size_t i = 0; i < n; ++i) {
    const ir::Shape& s = ctx.input_shape(i);
    if (!s.rank_known) {
      for (int l : eq.inputs[i])
        if (l != kEllipsis) ++uses[static_cast<size_t>(l)], seen[static_cast<size_t>(l)] = true;
      continue;
    }
    const std::vector<int> labels = expand(eq.inputs[i], s.dims.size(), ell);
    for (size_t d = 0; d < labels.size(); ++d) {
      const auto l = static_cast<size_t>(labels[d]);
      ++uses[l];
      if (!seen[l]) {
        size[l] = s.dims[d];
        seen[l] = true;
      } else if (l >= kLetters) {
        size[l] =
            broadcast_shapes(ctx, ir::Shape::of({size[l]}), ir::Shape::of({s.dims[d]})).dims[0];
      } else {
        size[l] = same_dim(ctx, size[l], s.dims[d], "the dims of one Einsum label");
      }
    }
  }
  std::vector<bool> in_output(kLetters + ell, false);
  std::vector<ir::Dim> dims;
  for (int l : output_labels(eq, ell, uses)) {
    const auto u = static_cast<size_t>(l);
    if (!seen[u] || in_output[u])
      ctx.invalid("an output label is repeated or missing from the inputs");
    in_output[u] = true;
    dims.push_back(size[u]);
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {{12, "Inputs*: T -> Output: T; T = numeric; equation: string"}};

}  // namespace einsum_op
}  // namespace

OpDef def_Einsum() {
  using namespace einsum_op;
  return def_from_rows("", "Einsum", make, infer, kRows);
}

}  // namespace bough::ops
