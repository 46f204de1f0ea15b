// The checks an inference request gets against its model, whatever carries it (REST's JSON,
// gRPC's messages): known names, each given once, datatypes and shapes the model takes, every
// input without a default given, outputs that are tensors. Each failure is a ProtocolError(400)
// with the same message on both transports.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bough/session.h"
#include "serve/infer_request.h"
#include "serve/served_model.h"

namespace bough::serve {

// An input as the request declares it, checked against the model.
struct DeclaredInput {
  std::string what;  // "input 'NAME'", for messages
  ElemType type;
  Dims shape;
};

// Checks input `name` with protocol datatype `datatype` and `shape`: the model has it, it is
// not already in `given`, the datatype is the protocol's, and datatype and shape fit what the
// model declares.
DeclaredInput check_input(const ServedModel& model, const std::string& name,
                          const std::string& datatype, std::span<const int64_t> shape,
                          const NamedValues& given);

// Checks that `given` holds every input of the model that has no default.
void check_inputs_complete(const ServedModel& model, const NamedValues& given);

// Checks a requested output: the model has it, and `requested` does not hold it yet.
void check_output(const ServedModel& model, const std::string& name,
                  const std::vector<RequestedOutput>& requested);

// The run's output `name` as a tensor; ProtocolError(400) naming it when it is a sequence or
// an empty optional (the protocol carries tensors only).
const Tensor& output_tensor(const NamedValues& outputs, const std::string& name);

}  // namespace bough::serve
