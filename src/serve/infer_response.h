// The body of an inference response: JSON, with the outputs asked for as binary data
// appended after it (Triton's binary tensor data extension).
#pragma once

#include <optional>
#include <string>

#include "bough/session.h"
#include "serve/infer_request.h"

namespace bough::serve {

struct InferResponse {
  std::string body;
  // The JSON's length, for the Inference-Header-Content-Length header; none when the body is
  // all JSON.
  std::optional<size_t> header_length;
};

// The response to `request` from the run's `outputs` (all of the model's, in graph order).
// An output that is not a tensor (a sequence, an empty optional) has no form in the protocol:
// ProtocolError(400) naming it, so the client can leave it out.
InferResponse make_infer_response(const std::string& model_name, const std::string& version,
                                  const InferRequest& request, const NamedValues& outputs);

}  // namespace bough::serve
