#include "serve/grpc_server.h"

#include <grpc/grpc.h>
#include <grpc/support/cpu.h>
#include <grpc_predict_v2.grpc.pb.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "bough/error.h"
#include "serve/datatype.h"
#include "serve/grpc_infer.h"
#include "serve/model_control.h"
#include "serve/protocol_error.h"
#include "serve/run_cancel.h"
#include "serve/served_model.h"
#include "serve/workers.h"

namespace bough::serve {

namespace {

// The gRPC code for a REST status, as gRPC maps HTTP statuses: 400 INVALID_ARGUMENT, 404
// NOT_FOUND, 503 UNAVAILABLE, anything else INTERNAL.
grpc::StatusCode code_of(int status) {
  switch (status) {
    case kBadRequest:
      return grpc::StatusCode::INVALID_ARGUMENT;
    case kNotFound:
      return grpc::StatusCode::NOT_FOUND;
    case kUnavailable:
      return grpc::StatusCode::UNAVAILABLE;
    default:
      return grpc::StatusCode::INTERNAL;
  }
}

// Runs `handle`, answering whatever it throws with the matching status and message.
template <typename Handle>
grpc::Status answer(Handle&& handle) {
  try {
    handle();
    return grpc::Status::OK;
  } catch (...) {
    const ErrorReply reply = error_reply(std::current_exception());
    return grpc::Status(code_of(reply.status), reply.message);
  }
}

void add_metadata(
    google::protobuf::RepeatedPtrField<inference::ModelMetadataResponse::TensorMetadata>* tensors,
    const std::vector<ValueInfo>& infos) {
  for (const ValueInfo& info : infos) {
    auto* tensor = tensors->Add();
    tensor->set_name(info.name);
    tensor->set_datatype(datatype_name(info.elem));
    for (int64_t d : metadata_shape(info)) tensor->add_shape(d);
  }
}

// A load or unload request's parameters, as check_control_parameter says.
template <typename Request>
void check_parameters(const Request& request) {
  for (const auto& parameter : request.parameters()) check_control_parameter(parameter.first);
}

// The reactor of a ModelInfer call handed to a worker: when gRPC cancels the call (its client
// went away, or its deadline passed), the call's run stops, or does not start.
class InferReactor final : public grpc::ServerUnaryReactor {
 public:
  RunCancel cancel;

 private:
  void OnCancel() override { cancel.cancel(); }
  void OnDone() override { delete this; }
};

// One ModelInfer call from its model's lookup to its answer.
struct InferCall {
  explicit InferCall(std::shared_ptr<ServedModel> lease)
      : model(std::move(lease)), timer(model->metrics()) {}
  std::shared_ptr<ServedModel> model;
  RequestTimer timer;  // counts the call a success or, when dropped before that, a failure
  InferRequest request;
};

// Writes `outputs` into `response` and counts the call a success.
void answer_infer(InferCall& call, const NamedValues& outputs,
                  inference::ModelInferResponse& response) {
  write_grpc_response(*call.model, call.request, outputs, response);
  call.timer.succeeded();
}

// How many runs may go on at once on gRPC's event threads. gRPC 1.51 runs the callback API's
// handlers on clamp(cores / 2, 2, 16) threads of its own; all but one may run a model, so that
// one is always left to take new calls and answer the others.
int inline_runs() { return std::clamp(gpr_cpu_num_cores() / 2, 2u, 16u) - 1; }

// Whether the model's runs have taken 1 ms or less on average. Only those run on gRPC's event
// threads: a long run there would hold one, and could not be cancelled (gRPC tells a reactor
// of a cancelled call only once its handler has returned it). A model's first run goes to a
// worker.
bool runs_briefly(const ServedModel& model) {
  constexpr uint64_t kBriefRunUs = 1000;
  const ModelMetrics& metrics = model.metrics();
  const uint64_t runs = metrics.success.load(std::memory_order_relaxed);
  return runs > 0 && metrics.compute_us.load(std::memory_order_relaxed) <= kBriefRunUs * runs;
}

// The callback API: every handler runs on one of gRPC's event threads, where the call was
// read, with no handoff to another thread. The calls that answer from memory answer there. A
// call that may block or take long (a load, an unload, a run that would wait for a session, a
// run of a model whose runs are not brief, or a run when inline_runs() run already) goes to a
// Workers thread, so that a slow model never holds the event threads; at most `max_calls` of those
// calls and the runs are in progress at once, and another is answered RESOURCE_EXHAUSTED.
class Service final : public inference::GRPCInferenceService::CallbackService {
 public:
  Service(const ApiState& state, ModelControl& control, int max_calls)
      : state_(state),
        control_(control),
        max_calls_(std::max(max_calls, 1)),
        max_inline_(inline_runs()),
        workers_(max_calls_) {}

  grpc::ServerUnaryReactor* ServerLive(grpc::CallbackServerContext* context,
                                       const inference::ServerLiveRequest*,
                                       inference::ServerLiveResponse* response) override {
    return finish_now(context, [&] { response->set_live(true); });
  }

  grpc::ServerUnaryReactor* ServerReady(grpc::CallbackServerContext* context,
                                        const inference::ServerReadyRequest*,
                                        inference::ServerReadyResponse* response) override {
    return finish_now(context, [&] { response->set_ready(state_.ready.load()); });
  }

  grpc::ServerUnaryReactor* ModelReady(grpc::CallbackServerContext* context,
                                       const inference::ModelReadyRequest* request,
                                       inference::ModelReadyResponse* response) override {
    return finish_now(context, [&] {
      response->set_ready(model_ready(state_, request->name(), request->version()));
    });
  }

  grpc::ServerUnaryReactor* ServerMetadata(grpc::CallbackServerContext* context,
                                           const inference::ServerMetadataRequest*,
                                           inference::ServerMetadataResponse* response) override {
    return finish_now(context, [&] {
      response->set_name(kServerName);
      response->set_version(state_.server_version);
      for (const std::string& extension : server_extensions()) response->add_extensions(extension);
    });
  }

  grpc::ServerUnaryReactor* ModelMetadata(grpc::CallbackServerContext* context,
                                          const inference::ModelMetadataRequest* request,
                                          inference::ModelMetadataResponse* response) override {
    return finish_now(context, [&] {
      const std::shared_ptr<ServedModel> lease =
          find_model(state_, request->name(), request->version());
      const ServedModel& model = *lease;
      response->set_name(model.name());
      response->add_versions(model.version());
      response->set_platform(kPlatform);
      add_metadata(response->mutable_inputs(), model.inputs());
      add_metadata(response->mutable_outputs(), model.outputs());
    });
  }

  grpc::ServerUnaryReactor* ModelInfer(grpc::CallbackServerContext* context,
                                       const inference::ModelInferRequest* request,
                                       inference::ModelInferResponse* response) override {
    if (!enter()) {
      grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
      reactor->Finish(busy());
      return reactor;
    }
    // Reads the request here; runs it here too when that is brief and cannot block, and
    // otherwise leaves the call for a worker.
    std::shared_ptr<InferCall> waits;
    grpc::Status status = answer([&] {
      auto call = std::make_shared<InferCall>(
          find_model(state_, request->model_name(), request->model_version()));
      call->request = read_grpc_request(*request, *call->model);
      if (const std::optional<NamedValues> outputs = run_inline(*call))
        answer_infer(*call, *outputs, *response);
      else
        waits = std::move(call);
    });
    if (!waits) {
      // gRPC's own reactor: a call answered here needs no word of a cancel (its run, brief, is
      // over), and a reactor of ours costs a handoff to another thread for its OnDone.
      leave();
      grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
      reactor->Finish(status);
      return reactor;
    }
    auto* reactor = new InferReactor;  // deletes itself when the call is done
    workers_.post([this, call = std::move(waits), response, reactor]() mutable {
      const grpc::Status status = answer([&] {
        const NamedValues outputs =
            call->model->run(call->request.inputs, call->timer.times, &reactor->cancel);
        answer_infer(*call, outputs, *response);
      });
      call.reset();  // counted before it is answered
      leave();
      reactor->Finish(status);
    });
    return reactor;
  }

  grpc::ServerUnaryReactor* RepositoryIndex(grpc::CallbackServerContext* context,
                                            const inference::RepositoryIndexRequest* request,
                                            inference::RepositoryIndexResponse* response) override {
    return finish_now(context, [&] {
      for (const IndexEntry& entry : control_.index(request->ready())) {
        auto* model = response->add_models();
        model->set_name(entry.name);
        model->set_version(entry.version);
        model->set_state(entry.state);
        model->set_reason(entry.reason);
      }
    });
  }

  grpc::ServerUnaryReactor* RepositoryModelLoad(
      grpc::CallbackServerContext* context, const inference::RepositoryModelLoadRequest* request,
      inference::RepositoryModelLoadResponse*) override {
    return finish_on_worker(context, [this, request] {
      check_parameters(*request);
      control_.load(request->model_name());
    });
  }

  grpc::ServerUnaryReactor* RepositoryModelUnload(
      grpc::CallbackServerContext* context, const inference::RepositoryModelUnloadRequest* request,
      inference::RepositoryModelUnloadResponse*) override {
    return finish_on_worker(context, [this, request] {
      check_parameters(*request);
      control_.unload(request->model_name());
    });
  }

 private:
  // Answers the call with what `handle` gives, here and now.
  template <typename Handle>
  static grpc::ServerUnaryReactor* finish_now(grpc::CallbackServerContext* context,
                                              Handle&& handle) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(answer(std::forward<Handle>(handle)));
    return reactor;
  }

  // Answers the call with what `handle` gives, on a worker.
  template <typename Handle>
  grpc::ServerUnaryReactor* finish_on_worker(grpc::CallbackServerContext* context, Handle handle) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (!enter()) {
      reactor->Finish(busy());
      return reactor;
    }
    workers_.post([this, reactor, handle = std::move(handle)] {
      const grpc::Status status = answer(handle);
      leave();
      reactor->Finish(status);
    });
    return reactor;
  }

  // Runs `call` on this thread if its model runs briefly, inline_runs() allow one more here
  // and the model has a session free; none otherwise.
  std::optional<NamedValues> run_inline(InferCall& call) {
    if (!runs_briefly(*call.model)) return std::nullopt;
    if (inline_.fetch_add(1, std::memory_order_acquire) >= max_inline_) {
      inline_.fetch_sub(1, std::memory_order_release);
      return std::nullopt;
    }
    struct Leave {
      std::atomic<int>& count;
      ~Leave() { count.fetch_sub(1, std::memory_order_release); }
    } leave{inline_};
    return call.model->try_run(call.request.inputs, call.timer.times);
  }

  // Counts a call that may run a model or block; false when `max_calls_` are in progress.
  bool enter() {
    if (calls_.fetch_add(1, std::memory_order_relaxed) < max_calls_) return true;
    calls_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  void leave() { calls_.fetch_sub(1, std::memory_order_relaxed); }
  grpc::Status busy() const {
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "the server has " + std::to_string(max_calls_) +
                            " calls in progress (--grpc-threads); try again later");
  }

  const ApiState& state_;
  ModelControl& control_;
  const int max_calls_;
  const int max_inline_;
  std::atomic<int> calls_{0};   // calls entered and not yet answered
  std::atomic<int> inline_{0};  // runs on gRPC's threads now
  Workers workers_;             // last: its threads end before the rest goes
};

// host:port as gRPC spells an address; an IPv6 host goes in brackets.
std::string address(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos && !host.starts_with("[");
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

struct GrpcServer::Impl {
  Impl(const ApiState& state, ModelControl& control, int threads)
      : service(state, control, threads) {}
  Service service;
  std::unique_ptr<grpc::Server> server;
};

GrpcServer::GrpcServer(const ApiState& state, ModelControl& control, const std::string& host,
                       int port, size_t max_request_bytes, int threads)
    : impl_(std::make_unique<Impl>(state, control, threads)) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address(host, port), grpc::InsecureServerCredentials(), &port_);
  // gRPC sets SO_REUSEPORT by default, so a second server on the same port would share it
  // silently instead of failing.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<size_t>(max_request_bytes, INT_MAX)));
  builder.RegisterService(&impl_->service);
  impl_->server = builder.BuildAndStart();
  if (!impl_->server || port_ == 0)
    fail(ErrorKind::IO, host + ":" + std::to_string(port),
         "cannot listen there for gRPC (in use, or not an address of this machine)");
}

GrpcServer::~GrpcServer() {
  if (impl_->server) impl_->server->Shutdown();
}

}  // namespace bough::serve
