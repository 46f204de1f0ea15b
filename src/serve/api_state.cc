#include "serve/api_state.h"

#include "serve/protocol_error.h"

namespace bough::serve {

std::shared_ptr<ServedModel> ModelRegistry::find(const std::string& name) const {
  const std::shared_ptr<const ModelMap> models = models_.load();
  const auto it = models->find(name);
  return it == models->end() ? nullptr : it->second;
}

void ModelRegistry::put(std::shared_ptr<ServedModel> model) {
  std::lock_guard lock(mutex_);
  auto models = std::make_shared<ModelMap>(*models_.load());
  const std::string name = model->name();
  unavailable_.erase(name);
  (*models)[name] = std::move(model);
  models_.store(std::move(models));
}

std::shared_ptr<ServedModel> ModelRegistry::remove(const std::string& name,
                                                   const std::string& reason) {
  std::lock_guard lock(mutex_);
  auto models = std::make_shared<ModelMap>(*models_.load());
  std::shared_ptr<ServedModel> removed;
  if (const auto it = models->find(name); it != models->end()) {
    removed = std::move(it->second);
    models->erase(it);
  }
  unavailable_[name] = reason;
  models_.store(std::move(models));
  return removed;
}

std::optional<std::string> ModelRegistry::unavailable(const std::string& name) const {
  std::lock_guard lock(mutex_);
  const auto it = unavailable_.find(name);
  if (it == unavailable_.end()) return std::nullopt;
  return it->second;
}

void ModelRegistry::failed(const std::string& name, const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (!models_.load()->contains(name)) unavailable_[name] = reason;
}

namespace {

// The model called `name` at `version`, or null when it is not loaded; throws for a server
// still loading and for a version that is not the one loaded.
std::shared_ptr<ServedModel> lookup(const ApiState& state, const std::string& name,
                                    const std::string& version) {
  if (!state.loaded.load(std::memory_order_acquire))
    throw ProtocolError(kUnavailable, "the server is still loading its models");
  std::shared_ptr<ServedModel> model = state.models.find(name);
  if (model && !version.empty() && version != model->version())
    throw ProtocolError(kNotFound, "model '" + name + "' has no version '" + version +
                                       "' loaded (loaded: " + model->version() + ")");
  return model;
}

}  // namespace

std::shared_ptr<ServedModel> find_model(const ApiState& state, const std::string& name,
                                        const std::string& version) {
  std::shared_ptr<ServedModel> model = lookup(state, name, version);
  if (model) return model;
  if (const auto reason = state.models.unavailable(name))
    throw ProtocolError(kNotFound, "model '" + name + "' is not loaded: " + *reason);
  throw ProtocolError(kNotFound, "unknown model '" + name + "'");
}

bool model_ready(const ApiState& state, const std::string& name, const std::string& version) {
  if (lookup(state, name, version)) return true;
  if (state.models.unavailable(name)) return false;
  throw ProtocolError(kNotFound, "unknown model '" + name + "'");
}

std::vector<int64_t> metadata_shape(const ValueInfo& info) {
  if (!info.rank_known) return {-1};
  std::vector<int64_t> shape;
  for (const Dim& d : info.shape) shape.push_back(d.known() ? d.size : -1);
  return shape;
}

}  // namespace bough::serve
