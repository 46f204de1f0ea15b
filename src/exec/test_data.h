// Test folders in the ONNX backend-test layout: model.onnx beside test_data_set_*/ folders of
// input_*.pb and output_*.pb. `bough test-data` and the format round-trip tests run models
// against them.
#pragma once

#include <filesystem>
#include <string>

#include "bough/model.h"
#include "bough/session.h"

namespace bough {

// Runs `model` on every data set in `dir` and compares its outputs with the expected ones
// (rtol 1e-3, atol 1e-7, looser for the DFT tests). Returns "" when all match, otherwise
// what differs (also for a folder without data sets, or with input files that do not match
// the model's inputs). Sessions take `options`. Throws bough::Error as Session does.
// A model holding a random operator at any depth runs with fixed seeds and has its outputs
// checked by distribution rather than value (exec/test_data_random.h); then `note`, when
// given, says so ("checked by distribution: ...").
std::string check_test_data(const Model& model, const std::filesystem::path& dir,
                            const SessionOptions& options = {}, std::string* note = nullptr);

}  // namespace bough
