// bough serve (MODEL | --model-repository DIR) [--host H] [--http-port P] [--grpc-port P]
// [--metrics-port P] ...: the Open Inference Protocol (KServe v2) over HTTP and gRPC, until
// SIGTERM or SIGINT.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.h"
#include "inputs.h"
#include "options.h"
#include "serve/server.h"

namespace bough::cli {

namespace {
namespace serve_op {

struct Options {
  std::string model;
  std::string repository;
  std::string model_name;
  serve::ServerOptions server;
  serve::ModelConfig defaults;
  double max_request_mib = 64;
};

int serve_models(Options& opt) {
  if (opt.model.empty() == opt.repository.empty())
    throw UsageError("give either MODEL or --model-repository DIR");
  opt.server.max_request_bytes = static_cast<size_t>(opt.max_request_mib * (1 << 20));
  opt.server.version = BOUGH_VERSION;
  serve::ModelCatalog catalog{opt.repository, {}, opt.defaults};
  if (!opt.model.empty()) {
    catalog.single = serve::single_model(opt.model, opt.defaults);
    if (!opt.model_name.empty()) catalog.single.name = opt.model_name;
  } else if (!opt.model_name.empty()) {
    throw UsageError("--model-name names the one MODEL; a repository's models are its folders");
  }
  serve::serve(catalog, opt.server, stdout);
  return kExitOk;
}

}  // namespace serve_op
}  // namespace

Command add_serve(CLI::App& root) {
  using namespace serve_op;
  CLI::App* app = root.add_subcommand(
      "serve",
      "serve models with the Open Inference Protocol (KServe v2, Triton's REST and gRPC APIs) "
      "until SIGTERM or SIGINT; docs/serve.md describes the endpoints");
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->model, "one model, served under its file name without extension");
  // --model-store is Triton's name for it, --model_dir KServe's model servers'.
  app->add_option("--model-repository,--model-store,--model_dir", opt->repository,
                  "a folder in Triton's layout: NAME/VERSION/model.onnx (or model.xml), with an "
                  "optional NAME/config.json; the newest version of each model is served");
  app->add_option("--model-name", opt->model_name,
                  "the name MODEL is served under (default: its file name without extension)");
  app->add_option("--host", opt->server.host, "the address to listen on")->capture_default_str();
  app->add_option("--http-port", opt->server.http_port, "the HTTP port (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  app->add_option("--http-threads", opt->server.http_threads, "connections served at once")
      ->check(at_least(1))
      ->capture_default_str();
  app->add_option("--grpc-port", opt->server.grpc_port,
                  "the gRPC port (0: any free port; -1: no gRPC)")
      ->check(CLI::Range(-1, 65535))
      ->capture_default_str();
  app->add_option("--metrics-port", opt->server.metrics_port,
                  "the port of GET /metrics, Prometheus' text format (0: any free port; -1: no "
                  "metrics)")
      ->check(CLI::Range(-1, 65535))
      ->capture_default_str();
  app->add_option(
         "--grpc-threads", opt->server.grpc_threads,
         "gRPC calls that run a model (or load one) at once; one more gets RESOURCE_EXHAUSTED")
      ->check(at_least(1))
      ->capture_default_str();
  app->add_option("--instances", opt->defaults.instances,
                  "sessions per model, each running one request at a time (config.json's "
                  "\"instances\" overrides it)")
      ->check(at_least(1))
      ->capture_default_str();
  app->add_option("--threads", opt->defaults.threads,
                  "kernel threads per run (config.json's \"threads\" overrides it)")
      ->check(at_least(1))
      ->capture_default_str();
  app->add_option("--max-batch-size", opt->defaults.max_batch_size,
                  "dynamic batching: requests whose inputs differ only in dim 0 are stacked "
                  "along it, up to this many rows a run (0: no batching; config.json's "
                  "\"max_batch_size\" overrides it)")
      ->check(CLI::Range(0, serve::kMaxBatchSize))
      ->capture_default_str();
  app->add_option("--batch-delay-us", opt->defaults.batch_delay_us,
                  "microseconds a batch's first request waits for others to join it "
                  "(config.json's \"batch_delay_us\" overrides it)")
      ->check(CLI::Range(0, serve::kMaxBatchDelayUs))
      ->capture_default_str();
  app->add_option("--max-waiting", opt->server.max_waiting,
                  "requests per model that may wait for a free session; more get 503 (gRPC: "
                  "UNAVAILABLE)")
      ->check(at_least(0))
      ->capture_default_str();
  app->add_option("--max-request-mib", opt->max_request_mib,
                  "the largest request body or gRPC message, in MiB; larger ones get 413 "
                  "(gRPC: RESOURCE_EXHAUSTED)")
      ->check(positive_number())
      ->capture_default_str();
  app->add_option("--time-limit", opt->server.session.time_limit_seconds,
                  "seconds a run may take before it stops and its request gets 503 (gRPC: "
                  "UNAVAILABLE; 0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  add_optimization_option(app, &opt->server.session.optimization);
  add_newer_opset_flag(app, &opt->server.session.allow_newer_opset);
  return {app, [opt] { return serve_models(*opt); }};
}

}  // namespace bough::cli
