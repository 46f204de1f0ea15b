// Calls of model-local functions (ModelProto.functions): the body is compiled per call
// site, with the caller's attributes bound to the body's ref_attr_name references.
#pragma once

#include <memory>
#include <string>

#include "exec/plan.h"
#include "ops/kernel.h"

namespace bough::exec {

std::unique_ptr<ops::Kernel> make_function_call(const ir::Node& node, const ir::Function& fn,
                                                const CompileEnv& env, const std::string& where);

}  // namespace bough::exec
