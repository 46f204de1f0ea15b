#include "serve/server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "bough/error.h"
#include "serve/grpc_server.h"
#include "serve/http_api.h"

namespace bough::serve {

namespace {

// SIGTERM and SIGINT, blocked in every thread started after this and taken by sigwait.
sigset_t shutdown_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void serve(const std::vector<ModelSource>& sources, const ServerOptions& options, std::FILE* log) {
  // A client that goes away mid-response must not kill the process: writes to its socket fail
  // with EPIPE instead.
  signal(SIGPIPE, SIG_IGN);
  const sigset_t signals = shutdown_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  ApiState state;
  state.server_version = options.version;
  httplib::Server http;
  const int threads = options.http_threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.max_request_bytes);
  // httplib writes a response's headers and body separately: with Nagle's algorithm the body
  // waits for the client's delayed ACK of the headers, 40 ms per request on Linux.
  http.set_tcp_nodelay(true);
  add_api_routes(http, state);

  int port = options.http_port;
  if (port == 0)
    port = http.bind_to_any_port(options.host);
  else if (!http.bind_to_port(options.host, port))
    port = -1;
  if (port < 0)
    fail(ErrorKind::IO, options.host + ":" + std::to_string(options.http_port),
         "cannot listen there (in use, or not an address of this machine)");
  // Declared before the listener's guard, so the models outlive every request in flight.
  ModelMap models;
  std::thread listener([&http] { http.listen_after_bind(); });
  // stop() does nothing to a server that has not started listening yet, and the listener
  // would then never end: wait until it runs.
  while (!http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::fprintf(log, "bough serve: listening on http://%s:%d\n", options.host.c_str(), port);
  std::fflush(log);

  // Stops the listeners however serving ends, so the thread is joined before serve returns:
  // both ports close first, then the requests in flight on either finish.
  std::unique_ptr<GrpcServer> grpc;
  struct StopOnExit {
    httplib::Server& http;
    std::thread& listener;
    std::unique_ptr<GrpcServer>& grpc;
    ~StopOnExit() {
      http.stop();
      grpc.reset();
      listener.join();
    }
  } stop_on_exit{http, listener, grpc};

  if (options.grpc_port >= 0) {
    grpc = std::make_unique<GrpcServer>(state, options.host, options.grpc_port,
                                        options.max_request_bytes, options.grpc_threads);
    std::fprintf(log, "bough serve: listening on grpc://%s:%d\n", options.host.c_str(),
                 grpc->port());
    std::fflush(log);
  }

  for (const ModelSource& source : sources) {
    models[source.name] =
        std::make_unique<ServedModel>(source, options.session, options.max_waiting);
    std::fprintf(log, "bough serve: loaded model '%s' version %s from %s\n", source.name.c_str(),
                 source.version.c_str(), source.path.c_str());
  }
  state.models.store(&models, std::memory_order_release);
  state.ready.store(true);
  std::fprintf(log, "bough serve: ready\n");
  std::fflush(log);

  int signal_number = 0;
  sigwait(&signals, &signal_number);
  state.ready.store(false);
  std::fprintf(log, "bough serve: %s: finishing the requests in progress\n",
               signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  std::fflush(log);
  // StopOnExit closes the ports and waits for the requests already accepted, before `models`
  // goes.
}

}  // namespace bough::serve
