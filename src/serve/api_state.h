// What the REST and gRPC endpoints share: the served models, readiness, and the answers that
// do not depend on the transport (which model a request names, how metadata spells a shape).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "serve/served_model.h"

namespace bough::serve {

using ModelMap = std::map<std::string, std::unique_ptr<ServedModel>>;

// Server metadata, the same on both transports.
inline constexpr const char* kServerName = "bough";
inline constexpr const char* kPlatform = "bough";
inline const std::vector<std::string>& server_extensions() {
  static const std::vector<std::string> extensions{"binary_tensor_data"};
  return extensions;
}

// What the endpoints read. `models` is published once, when every model is loaded; before
// then model endpoints answer 503 (gRPC: UNAVAILABLE).
struct ApiState {
  std::atomic<const ModelMap*> models{nullptr};
  std::atomic<bool> ready{false};
  std::string server_version;
};

// The model called `name`, at `version` (empty: the one served). ProtocolError 503 while the
// models load, 404 for an unknown model or a version that is not the one loaded.
ServedModel& find_model(const ApiState& state, const std::string& name, const std::string& version);

// A tensor's shape in model metadata: -1 for a dimension the model leaves open, [-1] for an
// unknown rank.
std::vector<int64_t> metadata_shape(const ValueInfo& info);

}  // namespace bough::serve
