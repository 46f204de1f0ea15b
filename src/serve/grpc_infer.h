// ModelInfer in the Open Inference Protocol's gRPC form: the request's tensors, as typed
// `contents` or as `raw_input_contents`, read and checked against the model (the same checks
// and messages as REST, serve/infer_checks.h), and the run's outputs written into the response.
// Only this file and grpc_server.cc see the generated protobuf classes.
#pragma once

#include "bough/session.h"
#include "serve/infer_request.h"
#include "serve/served_model.h"

namespace inference {
class ModelInferRequest;
class ModelInferResponse;
}  // namespace inference

namespace bough::serve {

// Reads `message` for `model`. Each requested output's `binary` says whether the response
// carries the outputs as raw_output_contents: the request's "binary_data_output" parameter
// (a bool) when it has one, otherwise whether its inputs came as raw_input_contents.
// ProtocolError(400) for what does not fit, as parse_infer_request.
InferRequest read_grpc_request(const inference::ModelInferRequest& message,
                               const ServedModel& model);

// Fills `response` with the outputs `request` asks for. They go as raw_output_contents when
// the request asked for that, or when one of them has no typed field (FP16, BF16): the
// protocol allows raw or typed data in one response, not both.
void write_grpc_response(const ServedModel& model, const InferRequest& request,
                         const NamedValues& outputs, inference::ModelInferResponse& response);

}  // namespace bough::serve
