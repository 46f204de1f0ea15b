// The REST endpoints of the Open Inference Protocol (KServe predict-api v2), on an httplib
// server: health, server and model metadata, readiness and inference.
#pragma once

#include "serve/api_state.h"

namespace httplib {
class Server;
}

namespace bough::serve {

// Adds the endpoints, and the handlers that turn every error into {"error": "..."}.
void add_api_routes(httplib::Server& server, ApiState& state);

}  // namespace bough::serve
