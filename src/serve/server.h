// `bough serve`: the Open Inference Protocol (KServe v2) over HTTP and gRPC, in front of
// Sessions.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bough/session.h"
#include "serve/model_repository.h"

namespace bough::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int http_port = 8000;     // 0: any free port (the "listening on" line names it)
  int http_threads = 32;    // connections served at once
  int grpc_port = 8001;     // 0: any free port; -1: no gRPC
  int grpc_threads = 32;    // ModelInfer, load and unload calls in progress at once
  int metrics_port = 8002;  // GET /metrics; 0: any free port; -1: no metrics
  size_t max_request_bytes = size_t{64} << 20;  // larger bodies get 413 (gRPC: RESOURCE_EXHAUSTED)
  int max_waiting = 16;    // requests per model that may wait for a session; more get 503
  SessionOptions session;  // optimization, time and memory limits per run
  std::string version;     // bough's version, for GET /v2
};

// Serves the models of `catalog` until SIGTERM or SIGINT: finds them (a repository's newest
// versions), listens (so /v2/health/live and ServerLive answer while the models load), loads
// every model, then reports ready; the repository endpoints load and unload models after
// that. On a signal: ready turns false, the ports close, requests already accepted finish,
// and serve returns. Writes "listening on http://HOST:PORT", "listening on grpc://HOST:PORT",
// "metrics on http://HOST:PORT/metrics" and "ready" lines to `log`. Throws bough::Error: a bad
// repository layout, a port that cannot be bound (IO), the load error of a bad model.
void serve(const ModelCatalog& catalog, const ServerOptions& options, std::FILE* log);

}  // namespace bough::serve
