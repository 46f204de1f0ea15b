#include "exec/test_data_random.h"

#include <cmath>
#include <cstdio>

#include "ir/clone.h"
#include "ops/evaluate.h"
#include "util/compare.h"

namespace bough {

namespace {

bool is_random_op(const ir::Node& n) { return ops::is_random_op(n.domain, n.op_type); }

// Calls fn(node) for every node of `g` and of its subgraphs, depth first.
template <typename G, typename F>
void for_each_node(G& g, F&& fn) {
  for (auto& n : g.nodes) {
    fn(*n);
    for (auto& a : n->attributes) {
      if (a.g) for_each_node(*a.g, fn);
      for (auto& sub : a.graphs) for_each_node(*sub, fn);
    }
  }
}

template <typename M, typename F>
void for_each_model_node(M& model, F&& fn) {
  if (model.graph) for_each_node(*model.graph, fn);
  for (auto& f : model.functions)
    if (f->body) for_each_node(*f->body, fn);
}

// The 4-standard-error bound of the mean test.
constexpr double kStandardErrors = 4;

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

bool holds_random_op(const ir::Model& model) {
  bool found = false;
  for_each_model_node(model, [&](const ir::Node& n) { found = found || is_random_op(n); });
  return found;
}

std::shared_ptr<ir::Model> with_fixed_seeds(const ir::Model& model, uint64_t base) {
  std::shared_ptr<ir::Model> copy = ir::clone_model(model);
  uint64_t count = 0;
  for_each_model_node(*copy, [&](ir::Node& n) {
    if (!is_random_op(n) || n.attr("seed")) return;
    ir::Attribute seed;
    seed.name = "seed";
    seed.kind = ir::Attribute::Kind::Float;
    seed.f = static_cast<float>(base + count++);
    n.attributes.push_back(std::move(seed));
  });
  return copy;
}

const char* const kDistributionRule =
    "type, shape, support, mean within 4 standard errors; false-failure rate < 1e-4; seeds "
    "fixed";

std::string compare_by_distribution(const Value& expected, const Value& actual) {
  if (!expected.is_tensor() || !actual.is_tensor())
    return compare_values(expected, actual, Tolerance{});
  const Tensor& e = expected.tensor();
  const Tensor& a = actual.tensor();
  if (e.type() != a.type())
    return "type " + std::string(elem_name(a.type())) + ", expected " +
           std::string(elem_name(e.type()));
  if (e.shape() != a.shape())
    return "shape " + shape_string(a.shape()) + ", expected " + shape_string(e.shape());
  if (e.type() == ElemType::String || e.type() == ElemType::Complex64 ||
      e.type() == ElemType::Complex128)
    return compare_values(expected, actual, Tolerance{});
  const int64_t n = e.numel();
  bool zero_one = true, finite = true;
  for (int64_t i = 0; i < n; ++i) {
    const double v = e.get_double(i);
    zero_one = zero_one && (v == 0 || v == 1);
    finite = finite && std::isfinite(v);
  }
  double sum_e = 0, sum_a = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = a.get_double(i);
    if (zero_one && v != 0 && v != 1)
      return "element " + std::to_string(i) + " is " + number(v) + ", outside the support {0, 1}";
    if (finite && !std::isfinite(v)) return "element " + std::to_string(i) + " is not finite";
    sum_e += e.get_double(i);
    sum_a += v;
  }
  if (n < 2 || !finite) return "";
  const double mean_e = sum_e / static_cast<double>(n), mean_a = sum_a / static_cast<double>(n);
  double variance = 0.25;  // the largest a 0/1 draw can have
  if (!zero_one) {
    double ss = 0;
    for (int64_t i = 0; i < n; ++i)
      ss += std::pow(e.get_double(i) - mean_e, 2) + std::pow(a.get_double(i) - mean_a, 2);
    variance = ss / (2.0 * static_cast<double>(n - 1));
  }
  // The difference of two independent means of n draws has variance 2 * variance / n.
  const double bound = kStandardErrors * std::sqrt(2.0 * variance / static_cast<double>(n));
  if (std::fabs(mean_a - mean_e) > bound)
    return "mean " + number(mean_a) + ", expected " + number(mean_e) + " within " + number(bound);
  return "";
}

}  // namespace bough
