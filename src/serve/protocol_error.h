// A request the server answers with an HTTP error status and {"error": message}.
#pragma once

#include <stdexcept>
#include <string>

namespace bough::serve {

// HTTP statuses the protocol's errors use.
inline constexpr int kBadRequest = 400;
inline constexpr int kNotFound = 404;
inline constexpr int kUnsupportedMediaType = 415;
inline constexpr int kInternalError = 500;
inline constexpr int kUnavailable = 503;

class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Throws ProtocolError(400, message).
[[noreturn]] inline void bad_request(const std::string& message) {
  throw ProtocolError(kBadRequest, message);
}

}  // namespace bough::serve
