#include "exec/function_call.h"

namespace bough::exec {

namespace {

class FunctionCall : public ops::Kernel {
 public:
  explicit FunctionCall(std::unique_ptr<Plan> body) : body_(std::move(body)) {}

  void run(ops::KernelIO& io) override {
    for (size_t i = 0; i < body_->num_inputs(); ++i) body_->bind_input(i, io.value(i));
    body_->run(io.context());
    for (size_t i = 0; i < io.num_outputs() && i < body_->num_outputs(); ++i)
      io.set_output(i, body_->take_output(i));
    body_->reset();
  }

 private:
  std::unique_ptr<Plan> body_;
};

}  // namespace

std::unique_ptr<ops::Kernel> make_function_call(const ir::Node& node, const ir::Function& fn,
                                                const CompileEnv& env, const std::string& where) {
  if (node.inputs.size() > fn.body->inputs.size() || node.outputs.size() > fn.body->outputs.size())
    fail(ErrorKind::InvalidModel, where,
         "function " + fn.name + " takes " + std::to_string(fn.body->inputs.size()) +
             " inputs and " + std::to_string(fn.body->outputs.size()) + " outputs");
  // The caller's attributes first, then the function's defaults. Kernels read attributes
  // while they are built, so the list is needed only during compilation.
  AttrEnv attrs;
  for (const auto& a : node.attributes) attrs.push_back(&a);
  for (const auto& a : fn.attribute_defaults) attrs.push_back(&a);
  CompileEnv inner{env.model, &attrs, &fn.opset_imports};
  inner.prepared_weights = env.prepared_weights;
  inner.constant_bytes = env.constant_bytes;
  return std::make_unique<FunctionCall>(Plan::compile(*fn.body, inner));
}

}  // namespace bough::exec
