#include "exec/control/body_types.h"

#include "check/control_flow_rules.h"

namespace bough::ops {

ir::Type carried_type(const ir::Type& initial) {
  ir::Type t = initial;
  if (t.kind == ir::Type::Kind::Tensor) t.shape = ir::Shape::unknown_rank();
  return t;
}

ir::Type stacked_type(const ir::Type& item, int64_t axis, ir::Dim length) {
  if (item.kind != ir::Type::Kind::Tensor) return ir::Type::tensor(ElemType::Undefined);
  ir::Type t = item;
  if (t.shape.rank_known && axis >= 0 && static_cast<size_t>(axis) <= t.shape.dims.size())
    t.shape.dims.insert(t.shape.dims.begin() + axis, std::move(length));
  else
    t.shape = ir::Shape::unknown_rank();
  return t;
}

ir::Type slice_type(const ir::Type& whole, int64_t axis) {
  ir::Type t = whole;
  if (t.kind == ir::Type::Kind::Tensor && t.shape.rank_known && axis >= 0 &&
      static_cast<size_t>(axis) < t.shape.dims.size())
    t.shape.dims.erase(t.shape.dims.begin() + axis);
  else if (t.kind == ir::Type::Kind::Tensor)
    t.shape = ir::Shape::unknown_rank();
  return t;
}

ir::Type final_carried_type(InferContext& ctx, size_t output, const ir::Type& initial,
                            const ir::Type& returned) {
  // An empty optional may start a value the body then always gives (Loop-16 and later).
  if (initial.kind == ir::Type::Kind::Optional && returned.kind != ir::Type::Kind::Optional &&
      initial.inner && check::kinds_agree(*initial.inner, returned))
    return returned;
  if (!check::kinds_agree(initial, returned)) {
    ctx.error("carried value " + std::to_string(output) + " starts as " + ir::to_string(initial) +
              " but the body returns " + ir::to_string(returned));
    return {};
  }
  return check::union_type(initial, returned);
}

}  // namespace bough::ops
