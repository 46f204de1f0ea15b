// What the REST and gRPC endpoints share: the served models, readiness, and the answers that
// do not depend on the transport (which model a request names, how metadata spells a shape).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "serve/served_model.h"

namespace bough::serve {

using ModelMap = std::map<std::string, std::shared_ptr<ServedModel>>;

// Server metadata, the same on both transports.
inline constexpr const char* kServerName = "bough";
inline constexpr const char* kPlatform = "bough";
inline const std::vector<std::string>& server_extensions() {
  static const std::vector<std::string> extensions{"binary_tensor_data", "model_repository"};
  return extensions;
}

// The models loaded now. A request looks its model up without a lock (the map is replaced
// whole, copy on write, when a model is loaded or unloaded) and keeps it alive through its
// shared_ptr, so an unloaded model goes only when its last request is done.
class ModelRegistry {
 public:
  // The model called `name`, or null.
  std::shared_ptr<ServedModel> find(const std::string& name) const;
  std::shared_ptr<const ModelMap> all() const { return models_.load(); }
  // Serves `model` under its name, in place of the one loaded before if any.
  void put(std::shared_ptr<ServedModel> model);
  // Stops serving `name` (the model, or null if it was not loaded), remembering why.
  std::shared_ptr<ServedModel> remove(const std::string& name, const std::string& reason);
  // Why `name` is not loaded: it was unloaded, or failed to load; none for a name never seen.
  std::optional<std::string> unavailable(const std::string& name) const;
  // Remembers why `name` failed to load, when it is not loaded.
  void failed(const std::string& name, const std::string& reason);

 private:
  std::atomic<std::shared_ptr<const ModelMap>> models_{std::make_shared<const ModelMap>()};
  mutable std::mutex mutex_;  // serializes writers; guards unavailable_
  std::map<std::string, std::string> unavailable_;
};

// What the endpoints read. Until `loaded`, the models given at start are loading and model
// endpoints answer 503 (gRPC: UNAVAILABLE).
struct ApiState {
  ModelRegistry models;
  std::atomic<bool> loaded{false};
  std::atomic<bool> ready{false};
  std::string server_version;
};

// The model called `name`, at `version` (empty: the one served). ProtocolError 503 while the
// models load, 404 for an unknown model, a model not loaded, or a version that is not the one
// loaded.
std::shared_ptr<ServedModel> find_model(const ApiState& state, const std::string& name,
                                        const std::string& version);

// Whether `name` (at `version`) is ready: true when loaded, false for a model that was
// unloaded or failed to load; throws as find_model for anything else.
bool model_ready(const ApiState& state, const std::string& name, const std::string& version);

// A tensor's shape in model metadata: -1 for a dimension the model leaves open, [-1] for an
// unknown rank.
std::vector<int64_t> metadata_shape(const ValueInfo& info);

}  // namespace bough::serve
