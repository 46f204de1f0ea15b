// Type rules of the control-flow operators that do not depend on running them: which
// types each schema row of If allows, and how the two branches' types combine. They live
// here rather than beside the kernels in exec/control because check/ may not depend on
// exec/ (scripts/check-layers); infer/ will use the union rule too. if_rules.cc applies them.
#pragma once

#include <string>

#include "ir/types.h"

namespace bough::check {

// Whether If's type constraint V in the schema row `since` (1, 11, 13, 16, 19, 21, 23, 24,
// 25) allows `t`; when not, `why` says what the row lacks ("int4 needs If-21 or newer").
// Declared types with an undefined element type are allowed: nothing is claimed.
bool if_allows(int since, const ir::Type& t, std::string* why);

// Whether two types agree in kind and element type where both are known (shapes aside).
bool kinds_agree(const ir::Type& a, const ir::Type& b);

// The union of two types of the same kind and element type (what an If output is when
// either branch may run): the union of their shapes (ir::union_shape); sequences and
// optionals recurse into their element. Undefined when either is.
ir::Type union_type(const ir::Type& a, const ir::Type& b);

// Whether a declared type can describe a value of type `actual`: same kind and element type
// (where both are known), and no dimension known in both that differs, no rank known in
// both that differs. [2] cannot describe what a branch yielding [3] returns; [N] and [?] can.
bool compatible(const ir::Type& declared, const ir::Type& actual);

}  // namespace bough::check
