// Running an untrusted model once, as the fuzz targets and the hostile-model regression
// test do: build a session, make up inputs from its declared types, run. A bough::Error is
// the expected outcome for bad input and is swallowed; any other exception escapes (and is
// a bug: the public API throws nothing else).
#pragma once

#include <optional>
#include <string_view>

#include "bough/model.h"
#include "bough/session.h"

namespace bough::fuzz {

// One tensor per input: unknown and symbolic dims 2, the bytes of the values taken
// cyclically from `bytes` (zeros when it is empty; bool as the low bit). Nothing when an
// input is not a tensor of a known element type or would hold more than `max_elements`.
std::optional<NamedValues> generated_inputs(const Session& session, std::string_view bytes,
                                            int64_t max_elements = int64_t{1} << 16);

// Session (limited to 256 MiB of tensors and `time_limit_seconds`), generated inputs and one
// run; returns whether the run completed.
bool run_once(const Model& model, std::string_view bytes, double time_limit_seconds = 5);

}  // namespace bough::fuzz
