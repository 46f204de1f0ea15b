#include "ops/attr_choice.h"

namespace bough::ops {

void invalid_choice(const NodeView& ctx, std::string_view name, std::string_view text,
                    std::span<const std::string_view> allowed) {
  std::string list;
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (i > 0) list += i + 1 == allowed.size() ? " or " : ", ";
    list += "'" + std::string(allowed[i]) + "'";
  }
  ctx.invalid(std::string(name) + " must be " + list + ", got '" + std::string(text) + "'");
}

}  // namespace bough::ops
