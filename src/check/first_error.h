// Turning the check's findings into the one error a caller throws: what a Session and the
// public model functions do with an invalid model.
#pragma once

#include <string>
#include <string_view>

#include "check/diagnostics.h"

namespace bough::check {

// Throws the first error of `found` as bough::Error at `model_path: place`: `prefix`, its
// message, and how many more errors there are (`lister` lists them). A model that breaks a
// rule is reported before one that is only beyond bough (an operator it lacks), so the
// error's kind says whether the model itself is wrong. Returns when there is no error.
void throw_first_error(const Diagnostics& found, const std::string& model_path,
                       std::string_view lister, std::string_view prefix = "");

}  // namespace bough::check
