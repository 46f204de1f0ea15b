// The Open Inference Protocol over gRPC: KServe's inference.GRPCInferenceService on a gRPC
// server beside the HTTP one, answering from the same ApiState with the same checks, sessions
// and errors (ProtocolError statuses become gRPC status codes), and Triton's repository
// extension through the same ModelControl as REST. Only grpc_server.cc and
// grpc_infer.cc see gRPC's and the generated headers.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "serve/api_state.h"
#include "serve/model_control.h"

namespace bough::serve {

class GrpcServer {
 public:
  // Listens on host:port (port 0: any free one) with gRPC's callback API: the calls that
  // answer from memory are answered on gRPC's own event threads; at most `threads` ModelInfer,
  // load and unload calls are in progress at once (one more gets RESOURCE_EXHAUSTED), each run
  // on an event thread when that cannot block it, otherwise on one of up to `threads` worker
  // threads. Messages of at most `max_request_bytes` (larger ones get RESOURCE_EXHAUSTED).
  // Throws Error(IO) when it cannot listen there.
  GrpcServer(const ApiState& state, ModelControl& control, const std::string& host, int port,
             size_t max_request_bytes, int threads);
  // Closes the port, refuses new RPCs, and waits for the RPCs in flight.
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  int port() const { return port_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace bough::serve
