// GET /metrics: every loaded model's metrics (serve/metrics.h) in Prometheus' text exposition
// format (version 0.0.4), on the server of --metrics-port.
#pragma once

#include <string>

#include "serve/api_state.h"

namespace httplib {
class Server;
}

namespace bough::serve {

// The page: for each metric family its # HELP and # TYPE lines, then one sample (a histogram:
// its buckets, sum and count) per model, labelled model="NAME",version="V".
std::string metrics_text(const ModelMap& models);

void add_metrics_route(httplib::Server& server, const ApiState& state);

}  // namespace bough::serve
