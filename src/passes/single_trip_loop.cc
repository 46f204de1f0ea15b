// single-trip-loop: a Loop whose trip count is the constant 1 and whose condition is absent
// or the constant true runs its body exactly once, so it becomes its body, inlined where
// the Loop stood (passes/inline.h): the iteration number is 0, the condition input is the
// Loop's, each carried input is the Loop's initial value, the final carried values are the
// body's, and each scan output is the body's single slice with a new leading axis
// (Unsqueeze on axis 0). Scan, and loops with other counts, are left alone.
#include "passes/inline.h"
#include "passes/pass.h"

namespace bough::passes {

namespace {

bool constant_equals(const ir::Edge* e, int64_t want) {
  const Tensor* t = e ? constant_value(e) : nullptr;
  return t && t->numel() == 1 && t->type() == ElemType::Int64 && t->data<int64_t>()[0] == want;
}

bool constant_true(const ir::Edge* e) {
  const Tensor* t = e ? constant_value(e) : nullptr;
  return t && t->numel() == 1 && t->type() == ElemType::Bool && t->data<bool>()[0];
}

// The body of a Loop that runs exactly once and can be inlined; null otherwise.
ir::Graph* single_trip_body(const ir::Node& n) {
  if (n.op_type != "Loop" || !n.domain.empty() || n.inputs.size() < 2) return nullptr;
  if (!constant_equals(n.inputs[0], 1)) return nullptr;
  if (n.inputs[1] && !constant_true(n.inputs[1])) return nullptr;
  const ir::Attribute* body = n.attr("body");
  if (!body || !body->g) return nullptr;
  const ir::Graph& g = *body->g;
  const size_t carried = n.inputs.size() - 2;
  if (g.inputs.size() != carried + 2 || g.outputs.size() < carried + 1 ||
      g.outputs.size() - 1 != n.outputs.size())
    return nullptr;
  for (size_t i = 2; i < n.inputs.size(); ++i)
    if (!n.inputs[i]) return nullptr;
  return body->g.get();
}

}  // namespace

int single_trip_loop(ir::Model& model) {
  Inliner inliner(model);
  const bool axes_as_input = model.opset("") >= 13;
  int inlined = 0;
  for_each_graph(model, [&](ir::Graph& g) {
    const auto wanted = [](const ir::Node& n) { return single_trip_body(n) != nullptr; };
    inlined += inliner.expand(g, wanted, [&](std::unique_ptr<ir::Node> loop) {
      ir::Graph* body = single_trip_body(*loop);
      const ir::Node& n = *loop;
      const size_t carried = n.inputs.size() - 2;
      EdgeMap bound;
      bound[body->inputs[0]] = inliner.add_initializer(g, "iteration", Tensor::scalar_i64(0));
      bound[body->inputs[1]] =
          n.inputs[1] ? n.inputs[1] : inliner.add_initializer(g, "cond", Tensor::scalar_bool(true));
      for (size_t k = 0; k < carried; ++k) bound[body->inputs[k + 2]] = n.inputs[k + 2];
      // Body outputs: the condition (not needed), the carried values, the scan slices.
      std::vector<ir::Edge*> targets = {nullptr};
      Nodes stack_scans;
      for (size_t o = 0; o < n.outputs.size(); ++o) {
        ir::Edge* out = n.outputs[o];
        if (o < carried || !out) {
          targets.push_back(out);
          continue;
        }
        ir::Edge* slice = inliner.add_value(g, out->name + "_slice");
        targets.push_back(slice);
        std::vector<ir::Edge*> inputs = {slice};
        if (axes_as_input)
          inputs.push_back(inliner.add_initializer(
              g, "axis0", Tensor::from_vector(ElemType::Int64, Dims{1}, std::vector<int64_t>{0})));
        stack_scans.push_back(Inliner::make_node(g, "Unsqueeze", inputs, {out}));
        if (!axes_as_input) {
          ir::Attribute axes;
          axes.name = "axes";
          axes.kind = ir::Attribute::Kind::Ints;
          axes.ints = {0};
          stack_scans.back()->attributes.push_back(std::move(axes));
        }
      }
      return inliner.inline_node(g, std::move(loop), *body, std::move(bound), targets,
                                 std::move(stack_scans));
    });
  });
  return inlined;
}

}  // namespace bough::passes
