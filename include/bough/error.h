/// @file
/// bough::Error — the one error type of the library.
#pragma once

#include <stdexcept>
#include <string>

#include "bough/export.h"

namespace bough {

/// What kind of failure an Error reports.
enum class ErrorKind {
  InvalidModel,  ///< the model breaks the ONNX/OpenVINO rules
  Unsupported,   ///< valid, but bough does not implement it (yet)
  BadInput,      ///< a tensor given to run() does not fit, or a runtime value is illegal
  IO,            ///< a file could not be read or written
  Stopped,       ///< a run cancelled (Session::cancel) or past its time limit
};

/// `where` is the place the error concerns: a model path, then a graph path such as
/// `main/If "gate"/then_branch/Add "add_1"`. what() is "where: message".
class BOUGH_API Error : public std::runtime_error {
 public:
  /// An error of `kind` at `where` (may be empty) saying `message`.
  Error(ErrorKind kind, std::string where, const std::string& message)
      : std::runtime_error(where.empty() ? message : where + ": " + message),
        kind_(kind),
        where_(std::move(where)),
        message_(message) {}

  /// Which kind of failure.
  ErrorKind kind() const { return kind_; }
  /// The model path and place in it (empty when the error concerns no place).
  const std::string& where() const { return where_; }
  /// The message without the place.
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  std::string where_;
  std::string message_;
};

/// Throws Error(kind, where, message).
[[noreturn]] inline void fail(ErrorKind kind, std::string where, const std::string& message) {
  throw Error(kind, std::move(where), message);
}

}  // namespace bough
