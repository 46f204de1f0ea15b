#include "serve/grpc_server.h"

#include <grpc/grpc.h>
#include <grpc_predict_v2.grpc.pb.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <climits>

#include "bough/error.h"
#include "serve/datatype.h"
#include "serve/grpc_infer.h"
#include "serve/model_control.h"
#include "serve/protocol_error.h"

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

class Service final : public inference::GRPCInferenceService::Service {
 public:
  Service(const ApiState& state, ModelControl& control) : state_(state), control_(control) {}

  grpc::Status ServerLive(grpc::ServerContext*, const inference::ServerLiveRequest*,
                          inference::ServerLiveResponse* response) override {
    response->set_live(true);
    return grpc::Status::OK;
  }

  grpc::Status ServerReady(grpc::ServerContext*, const inference::ServerReadyRequest*,
                           inference::ServerReadyResponse* response) override {
    response->set_ready(state_.ready.load());
    return grpc::Status::OK;
  }

  grpc::Status ModelReady(grpc::ServerContext*, const inference::ModelReadyRequest* request,
                          inference::ModelReadyResponse* response) override {
    return answer(
        [&] { response->set_ready(model_ready(state_, request->name(), request->version())); });
  }

  grpc::Status ServerMetadata(grpc::ServerContext*, const inference::ServerMetadataRequest*,
                              inference::ServerMetadataResponse* response) override {
    response->set_name(kServerName);
    response->set_version(state_.server_version);
    for (const std::string& extension : server_extensions()) response->add_extensions(extension);
    return grpc::Status::OK;
  }

  grpc::Status ModelMetadata(grpc::ServerContext*, const inference::ModelMetadataRequest* request,
                             inference::ModelMetadataResponse* response) override {
    return answer([&] {
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

  grpc::Status ModelInfer(grpc::ServerContext*, const inference::ModelInferRequest* request,
                          inference::ModelInferResponse* response) override {
    return answer([&] {
      const std::shared_ptr<ServedModel> lease =
          find_model(state_, request->model_name(), request->model_version());
      ServedModel& model = *lease;
      RequestTimer timer(model.metrics());
      const InferRequest parsed = read_grpc_request(*request, model);
      const NamedValues outputs = model.run(parsed.inputs, timer.times);
      write_grpc_response(model, parsed, outputs, *response);
      timer.succeeded();
    });
  }

  grpc::Status RepositoryIndex(grpc::ServerContext*,
                               const inference::RepositoryIndexRequest* request,
                               inference::RepositoryIndexResponse* response) override {
    return answer([&] {
      for (const IndexEntry& entry : control_.index(request->ready())) {
        auto* model = response->add_models();
        model->set_name(entry.name);
        model->set_version(entry.version);
        model->set_state(entry.state);
        model->set_reason(entry.reason);
      }
    });
  }

  grpc::Status RepositoryModelLoad(grpc::ServerContext*,
                                   const inference::RepositoryModelLoadRequest* request,
                                   inference::RepositoryModelLoadResponse*) override {
    return answer([&] {
      check_parameters(*request);
      control_.load(request->model_name());
    });
  }

  grpc::Status RepositoryModelUnload(grpc::ServerContext*,
                                     const inference::RepositoryModelUnloadRequest* request,
                                     inference::RepositoryModelUnloadResponse*) override {
    return answer([&] {
      check_parameters(*request);
      control_.unload(request->model_name());
    });
  }

 private:
  const ApiState& state_;
  ModelControl& control_;
};

// host:port as gRPC spells an address; an IPv6 host goes in brackets.
std::string address(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos && !host.starts_with("[");
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

struct GrpcServer::Impl {
  Impl(const ApiState& state, ModelControl& control) : service(state, control) {}
  Service service;
  std::unique_ptr<grpc::Server> server;
};

GrpcServer::GrpcServer(const ApiState& state, ModelControl& control, const std::string& host,
                       int port, size_t max_request_bytes, int threads)
    : impl_(std::make_unique<Impl>(state, control)) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address(host, port), grpc::InsecureServerCredentials(), &port_);
  // gRPC sets SO_REUSEPORT by default, so a second server on the same port would share it
  // silently instead of failing.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<size_t>(max_request_bytes, INT_MAX)));
  // One completion queue and the threads that wait on it. A waiting thread that takes a call
  // runs it, and first starts another waiting thread if none is left; when gRPC's thread
  // quota allows no more, the call it took is answered RESOURCE_EXHAUSTED instead. A thread
  // whose call is done waits again, unless MAX_POLLERS threads wait already, and then ends.
  // With a small MAX_POLLERS, every burst of calls from several clients made threads and
  // ended them again (92 threads made for 800 calls from 8 clients with 2): waiting threads
  // cost nothing, so as many may wait as may run. The quota counts the waiting threads and
  // those still ending a call, hence the two more: with exactly `threads + 1`, a call
  // arriving just as another ends could be refused.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, threads);
  grpc::ResourceQuota quota("bough serve");
  quota.SetMaxThreads(threads + 2);
  builder.SetResourceQuota(quota);
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
