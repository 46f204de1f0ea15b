#include "ops/float_type_attr.h"

#include <limits>
#include <string>

#include "kernels/through_float.h"

namespace bough::ops {

ElemType float_type_attr(const NodeView& node, std::string_view name) {
  const int64_t code = node.attr_int(name, static_cast<int64_t>(ElemType::Float));
  // Range first: a code past int's range must not wrap into a valid one.
  if (code > 0 && code <= std::numeric_limits<int>::max() &&
      is_valid_elem_code(static_cast<int>(code)) &&
      kernels::is_computed_float(static_cast<ElemType>(code)))
    return static_cast<ElemType>(code);
  node.invalid(std::string(name) + " must name a float type, not " + std::to_string(code));
}

}  // namespace bough::ops
