#include "bough/session.h"

#include "bough/error.h"
#include "exec/plan.h"
#include "exec/thread_pool.h"
#include "formats/onnx/reader.h"
#include "ir/graph.h"

namespace bough {

Model Model::load(const std::string& path) {
  return Model(std::shared_ptr<ir::Model>(onnx::read_model_file(path)));
}

std::vector<std::string> Model::input_names() const {
  std::vector<std::string> names;
  for (const ir::Value* v : ir_->graph->inputs)
    if (!v->data) names.push_back(v->name);
  return names;
}

std::vector<std::string> Model::output_names() const {
  std::vector<std::string> names;
  for (const ir::Value* v : ir_->graph->outputs) names.push_back(v->name);
  return names;
}

struct Session::Impl {
  Model model;
  exec::ThreadPool pool;
  std::unique_ptr<exec::Plan> plan;
  std::vector<std::string> inputs, outputs;

  Impl(const Model& m, SessionOptions options) : model(m), pool(std::max(1, options.threads)) {
    plan = exec::Plan::compile(*model.ir().graph, exec::CompileEnv{&model.ir(), nullptr, nullptr});
    for (const ir::Value* v : model.ir().graph->inputs) inputs.push_back(v->name);
    outputs = model.output_names();
  }

  void bind(const ir::Value& decl, Value value, int32_t slot) {
    const std::string where = model.ir().path + ": input '" + decl.name + "'";
    const ir::Type& t = decl.type;
    if (t.kind == ir::Type::Kind::Tensor && value.is_tensor()) {
      const Tensor& x = value.tensor();
      if (t.elem != ElemType::Undefined && x.type() != t.elem)
        fail(ErrorKind::BadInput, where,
             "has element type " + std::string(elem_name(x.type())) + ", the model expects " +
                 std::string(elem_name(t.elem)));
      if (t.shape.rank_known) {
        bool ok = t.shape.dims.size() == x.rank();
        for (size_t i = 0; ok && i < x.rank(); ++i)
          ok = !t.shape.dims[i].is_known() || t.shape.dims[i].value == x.dim(i);
        if (!ok)
          fail(ErrorKind::BadInput, where,
               "has shape " + shape_string(x.shape()) + ", the model expects " + ir::to_string(t.shape));
      }
    }
    plan->slot(slot) = std::move(value);
  }
};

Session::Session(const Model& model, SessionOptions options)
    : impl_(std::make_unique<Impl>(model, options)) {}
Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

const std::vector<std::string>& Session::input_names() const { return impl_->inputs; }
const std::vector<std::string>& Session::output_names() const { return impl_->outputs; }

NamedValues Session::run(const NamedValues& inputs) {
  Impl& s = *impl_;
  const ir::Graph& g = *s.model.ir().graph;
  for (const auto& [name, value] : inputs) {
    (void)value;
    bool known = std::any_of(g.inputs.begin(), g.inputs.end(), [&](const ir::Value* v) { return v->name == name; });
    if (!known) fail(ErrorKind::BadInput, s.model.ir().path, "the model has no input named '" + name + "'");
  }
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ir::Value* decl = g.inputs[i];
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const auto& p) { return p.first == decl->name; });
    if (it != inputs.end()) {
      s.bind(*decl, it->second, s.plan->input_slots()[i]);
    } else if (decl->data) {
      s.plan->slot(s.plan->input_slots()[i]) = *decl->data;
    } else {
      s.plan->reset();
      fail(ErrorKind::BadInput, s.model.ir().path, "missing input '" + decl->name + "'");
    }
  }
  exec::RunContext ctx{&s.pool};
  NamedValues out;
  try {
    s.plan->run(ctx);
    for (size_t i = 0; i < s.outputs.size(); ++i) out.emplace_back(s.outputs[i], s.plan->take_output(i));
  } catch (...) {
    s.plan->reset();
    throw;
  }
  s.plan->reset();
  return out;
}

}  // namespace bough
