// Two-operand Einsum as a batched matrix product: labels in both operands and the output
// are batch dimensions, labels in both operands only are summed (K), labels in one operand
// and the output are that operand's rows (M) or columns (N). The operands are transposed to
// [batch, M, K] and [batch, K, N], multiplied, and the product transposed to the output.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

// An undefined Tensor when the form does not fit: a label repeated within an operand, a
// label of one operand alone that is summed, a broadcast (size-1) dimension, an empty
// dimension, or a type without a matrix product.
inline Tensor einsum_as_matmul(const Tensor& a, const std::vector<int>& a_labels, const Tensor& b,
                               const std::vector<int>& b_labels, const std::vector<int>& out_labels,
                               util::ThreadPool& pool) {
  auto has = [](const std::vector<int>& v, int l) {
    return std::find(v.begin(), v.end(), l) != v.end();
  };
  auto pos = [](const std::vector<int>& v, int l) {
    return static_cast<int64_t>(std::find(v.begin(), v.end(), l) - v.begin());
  };
  const ElemType t = a.type();
  const bool has_matmul =
      t == ElemType::Float || t == ElemType::Double || (is_integer_type(t) && !is_sub_byte(t));
  if (b.type() != t || !has_matmul || a.numel() == 0 || b.numel() == 0) return {};
  std::vector<int> batch, rows, cols, summed;
  for (int l : a_labels) {
    if (std::count(a_labels.begin(), a_labels.end(), l) > 1) return {};
    const bool in_b = has(b_labels, l), in_out = has(out_labels, l);
    if (!in_b && !in_out) return {};
    (in_b ? (in_out ? batch : summed) : rows).push_back(l);
  }
  for (int l : b_labels) {
    if (std::count(b_labels.begin(), b_labels.end(), l) > 1) return {};
    if (has(a_labels, l)) {
      if (a.dim(static_cast<size_t>(pos(a_labels, l))) !=
          b.dim(static_cast<size_t>(pos(b_labels, l))))
        return {};  // a broadcast dimension
      continue;
    }
    if (!has(out_labels, l)) return {};
    cols.push_back(l);
  }
  auto size_of = [&](int l) {
    return has(a_labels, l) ? a.dim(static_cast<size_t>(pos(a_labels, l)))
                            : b.dim(static_cast<size_t>(pos(b_labels, l)));
  };
  auto product = [&](const std::vector<int>& ls) {
    int64_t p = 1;
    for (int l : ls) p *= size_of(l);
    return p;
  };
  auto arrange = [&](const Tensor& t, const std::vector<int>& labels,
                     std::initializer_list<const std::vector<int>*> groups, Dims shape) {
    std::vector<int64_t> perm;
    for (const std::vector<int>* g : groups)
      for (int l : *g) perm.push_back(pos(labels, l));
    return kernels::transpose(t, perm).reshaped(std::move(shape));
  };
  const int64_t nb = product(batch), m = product(rows), k = product(summed), n = product(cols);
  const Tensor at = arrange(a, a_labels, {&batch, &rows, &summed}, Dims{nb, m, k});
  const Tensor bt = arrange(b, b_labels, {&batch, &summed, &cols}, Dims{nb, k, n});
  std::vector<int64_t> a_off(static_cast<size_t>(nb)), b_off(static_cast<size_t>(nb));
  for (int64_t i = 0; i < nb; ++i) {
    a_off[static_cast<size_t>(i)] = i * m * k;
    b_off[static_cast<size_t>(i)] = i * k * n;
  }
  Tensor c(a.type(), Dims{nb, m, n});
  kernels::visit_numeric(a.type(), "Einsum", [&](auto tag) {
    using T = typename decltype(tag)::type;
    kernels::batched_matmul<T>(at.data<T>(), bt.data<T>(), c.data<T>(), a_off, b_off, m, k, n,
                               pool);
  });
  // c is [batch..., rows..., cols...]; transpose it to the output's order.
  std::vector<int> c_labels = batch;
  c_labels.insert(c_labels.end(), rows.begin(), rows.end());
  c_labels.insert(c_labels.end(), cols.begin(), cols.end());
  Dims c_shape;
  for (int l : c_labels) c_shape.push_back(size_of(l));
  std::vector<int64_t> perm;
  for (int l : out_labels) perm.push_back(pos(c_labels, l));
  return kernels::transpose(c.reshaped(c_shape), perm);
}

}  // namespace bough::ops
