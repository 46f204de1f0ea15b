#include "serve/model_control.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "bough/error.h"
#include "serve/protocol_error.h"

namespace bough::serve {

void check_control_parameter(const std::string& key) {
  if (key == "config")
    bad_request("the \"config\" parameter is not supported: edit the model's config.json");
  if (key.starts_with("file:"))
    bad_request("the \"" + key +
                "\" parameter is not supported: put the model file in the repository");
}

ModelControl::ModelControl(ApiState& state, ModelCatalog catalog, const SessionOptions& session,
                           int max_waiting, std::FILE* log)
    : state_(state),
      catalog_(std::move(catalog)),
      session_(session),
      max_waiting_(max_waiting),
      log_(log) {}

bool ModelControl::in_catalog(const std::string& name) const {
  const std::vector<std::string> names = catalog_.names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

void ModelControl::load(const ModelSource& source) {
  auto model = std::make_shared<ServedModel>(source, session_, max_waiting_);
  state_.models.put(std::move(model));
  std::fprintf(log_, "bough serve: loaded model '%s' version %s from %s\n", source.name.c_str(),
               source.version.c_str(), source.path.c_str());
  std::fflush(log_);
}

void ModelControl::load(const std::string& name) {
  std::lock_guard lock(mutex_);
  if (!in_catalog(name))
    throw ProtocolError(kNotFound, "no model '" + name + "' in the model repository");
  try {
    load(catalog_.source(name));
  } catch (const Error& e) {
    const std::string reason = std::string("failed to load: ") + e.what();
    state_.models.failed(name, reason);
    std::fprintf(log_, "bough serve: model '%s' %s\n", name.c_str(), reason.c_str());
    std::fflush(log_);
    bad_request("model '" + name + "' " + reason);
  }
}

void ModelControl::unload(const std::string& name) {
  std::lock_guard lock(mutex_);
  if (!state_.models.find(name) && !in_catalog(name))
    throw ProtocolError(kNotFound, "unknown model '" + name + "'");
  std::shared_ptr<ServedModel> model = state_.models.remove(name, "unloaded");
  if (!model) return;
  // No new request can reach the model now: the registry no longer holds it, so every other
  // owner is a request already running on it (or a map a reader is about to drop). The
  // count only falls from here.
  while (model.use_count() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::fprintf(log_, "bough serve: unloaded model '%s' version %s\n", name.c_str(),
               model->version().c_str());
  std::fflush(log_);
}

std::vector<IndexEntry> ModelControl::index(bool ready_only) const {
  const std::shared_ptr<const ModelMap> loaded = state_.models.all();
  std::set<std::string> names;
  for (const std::string& name : catalog_.names()) names.insert(name);
  for (const auto& entry : *loaded) names.insert(entry.first);
  std::vector<IndexEntry> index;
  for (const std::string& name : names) {
    if (const auto it = loaded->find(name); it != loaded->end())
      index.push_back({name, it->second->version(), "READY", ""});
    else if (!ready_only)
      index.push_back(
          {name, "", "UNAVAILABLE", state_.models.unavailable(name).value_or("not loaded")});
  }
  return index;
}

}  // namespace bough::serve
