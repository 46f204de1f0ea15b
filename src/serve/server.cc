#include "serve/server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <chrono>
#include <thread>

#include "bough/error.h"
#include "serve/grpc_server.h"
#include "serve/http_api.h"
#include "serve/http_repository.h"
#include "serve/metrics_http.h"
#include "serve/model_control.h"

namespace bough::serve {

namespace {

// Requests an HTTP connection may carry before the server closes it.
constexpr size_t kKeepAliveRequests = 100;

// SIGTERM and SIGINT, blocked in every thread started after this and taken by sigwait.
sigset_t shutdown_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

// Binds `server` to host:port (0: any free port) and returns the port; Error(IO) when it
// cannot.
int bind_port(httplib::Server& server, const std::string& host, int port) {
  // httplib also sets SO_REUSEPORT by default, with which a second server on a port in use
  // would share it silently instead of failing; SO_REUSEADDR alone lets a restarted server
  // take its port back from connections still in TIME_WAIT.
  server.set_socket_options([](int sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  const int bound =
      port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
  if (bound < 0)
    fail(ErrorKind::IO, host + ":" + std::to_string(port),
         "cannot listen there (in use, or not an address of this machine)");
  return bound;
}

// Runs `server`'s listener on `thread`, once it is bound, and waits until it runs: stop()
// does nothing to a server that has not started listening yet, and the listener would then
// never end.
void start(httplib::Server& server, std::thread& thread) {
  thread = std::thread([&server] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

void serve(const ModelCatalog& catalog, const ServerOptions& options, std::FILE* log) {
  const std::vector<ModelSource> sources =
      catalog.repository.empty() ? std::vector{catalog.single}
                                 : scan_repository(catalog.repository, catalog.defaults);
  // A client that goes away mid-response must not kill the process: writes to its socket fail
  // with EPIPE instead.
  signal(SIGPIPE, SIG_IGN);
  const sigset_t signals = shutdown_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // Declared before the listeners, so that the models and the state outlive every request.
  ApiState state;
  state.server_version = options.version;
  ModelControl control(state, catalog, options.session, options.max_waiting, log);
  httplib::Server http;
  const int threads = options.http_threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.max_request_bytes);
  // httplib writes a response's headers and body separately: with Nagle's algorithm the body
  // waits for the client's delayed ACK of the headers, 40 ms per request on Linux.
  http.set_tcp_nodelay(true);
  // httplib closes a keep-alive connection after 5 requests by default: a client sending a
  // stream of small requests would then pay a new TCP connection every fifth one.
  http.set_keep_alive_max_count(kKeepAliveRequests);
  add_api_routes(http, state);
  add_repository_routes(http, control);
  const int port = bind_port(http, options.host, options.http_port);

  httplib::Server metrics;
  metrics.new_task_queue = [] { return new httplib::ThreadPool(2); };
  metrics.set_tcp_nodelay(true);
  add_metrics_route(metrics, state);
  const int metrics_port =
      options.metrics_port >= 0 ? bind_port(metrics, options.host, options.metrics_port) : -1;

  // Stops the listeners however serving ends, so their threads are joined before serve
  // returns: every port closes first, then the requests in flight on each finish.
  std::thread listener, metrics_listener;
  std::unique_ptr<GrpcServer> grpc;
  struct StopOnExit {
    httplib::Server& http;
    std::thread& listener;
    httplib::Server& metrics;
    std::thread& metrics_listener;
    std::unique_ptr<GrpcServer>& grpc;
    ~StopOnExit() {
      if (listener.joinable()) http.stop();
      if (metrics_listener.joinable()) metrics.stop();
      grpc.reset();
      if (listener.joinable()) listener.join();
      if (metrics_listener.joinable()) metrics_listener.join();
    }
  } stop_on_exit{http, listener, metrics, metrics_listener, grpc};

  start(http, listener);
  std::fprintf(log, "bough serve: listening on http://%s:%d\n", options.host.c_str(), port);
  if (metrics_port >= 0) {
    start(metrics, metrics_listener);
    std::fprintf(log, "bough serve: metrics on http://%s:%d/metrics\n", options.host.c_str(),
                 metrics_port);
  }
  std::fflush(log);

  if (options.grpc_port >= 0) {
    grpc = std::make_unique<GrpcServer>(state, control, options.host, options.grpc_port,
                                        options.max_request_bytes, options.grpc_threads);
    std::fprintf(log, "bough serve: listening on grpc://%s:%d\n", options.host.c_str(),
                 grpc->port());
    std::fflush(log);
  }

  for (const ModelSource& source : sources) control.load(source);
  state.loaded.store(true, std::memory_order_release);
  state.ready.store(true);
  std::fprintf(log, "bough serve: ready\n");
  std::fflush(log);

  int signal_number = 0;
  sigwait(&signals, &signal_number);
  state.ready.store(false);
  std::fprintf(log, "bough serve: %s: finishing the requests in progress\n",
               signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  std::fflush(log);
  // StopOnExit closes the ports and waits for the requests already accepted.
}

}  // namespace bough::serve
