// An inference request of the Open Inference Protocol's REST API, read and checked against
// the model: JSON tensors, or Triton's binary tensor data after the JSON header.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bough/session.h"
#include "serve/served_model.h"

namespace bough::serve {

// An output the client asked for, and whether it wants it as binary data.
struct RequestedOutput {
  std::string name;
  bool binary = false;
};

struct InferRequest {
  std::optional<std::string> id;         // echoed in the response
  NamedValues inputs;                    // ready for Session::run
  std::vector<RequestedOutput> outputs;  // every output, in graph order, when none is named
};

// Reads `body`. With `header_length` (the Inference-Header-Content-Length header), the JSON
// is that many leading bytes and the inputs with a "binary_data_size" parameter follow it, in
// order, filling the rest exactly. ProtocolError(400) names what does not fit: malformed JSON,
// an unknown or missing input, a datatype or shape the model does not take, data of the wrong
// count or kind, binary data too short or too long, an unknown output.
InferRequest parse_infer_request(std::string_view body, std::optional<size_t> header_length,
                                 const ServedModel& model);

}  // namespace bough::serve
