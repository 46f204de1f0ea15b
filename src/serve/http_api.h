// The REST endpoints of the Open Inference Protocol (KServe predict-api v2), on an httplib
// server: health, server and model metadata, readiness and inference.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>

#include "serve/served_model.h"

namespace httplib {
class Server;
}

namespace bough::serve {

using ModelMap = std::map<std::string, std::unique_ptr<ServedModel>>;

// What the endpoints read. `models` is published once, when every model is loaded; before
// then model endpoints answer 503.
struct ApiState {
  std::atomic<const ModelMap*> models{nullptr};
  std::atomic<bool> ready{false};
  std::string server_version;
};

// Adds the endpoints, and the handlers that turn every error into {"error": "..."}.
void add_api_routes(httplib::Server& server, ApiState& state);

}  // namespace bough::serve
