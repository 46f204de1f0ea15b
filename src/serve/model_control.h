// Triton's model repository extension: the index of the models one can serve, and loading and
// unloading them while the server runs. Loads and unloads happen one at a time; requests to
// the other models go on meanwhile.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "bough/session.h"
#include "serve/api_state.h"
#include "serve/model_repository.h"

namespace bough::serve {

// A line of the repository index: state "READY" (with the version loaded) or "UNAVAILABLE"
// (with the reason: "unloaded", "not loaded", or the error of its last load).
struct IndexEntry {
  std::string name;
  std::string version;
  std::string state;
  std::string reason;
};

// Checks a parameter of a load or unload request (REST's "parameters" key, gRPC's map):
// Triton's "config" (a model configuration in place of the repository's) and "file:V/NAME" (a
// model file sent with the request) have no meaning here and are refused, ProtocolError(400),
// rather than ignored; any other (such as "unload_dependents") is accepted and ignored.
void check_control_parameter(const std::string& key);

class ModelControl {
 public:
  // Writes a line to `log` for every model loaded or unloaded.
  ModelControl(ApiState& state, ModelCatalog catalog, const SessionOptions& session,
               int max_waiting, std::FILE* log);

  // Loads `name` (again, if loaded: the new one takes the requests that come after, the old
  // one finishes those it has). ProtocolError(404) for a name the catalog does not hold,
  // ProtocolError(400) with the load's error for a model that does not load; a model already
  // loaded then stays as it was.
  void load(const std::string& name);
  // Loads `source` and serves it; throws the load's bough::Error.
  void load(const ModelSource& source);
  // Stops serving `name`: new requests get 404 at once; returns once the requests it was
  // running are done. Unloading a model that is not loaded does nothing; ProtocolError(404)
  // for a name neither loaded nor in the catalog.
  void unload(const std::string& name);
  // Every model of the catalog and every model loaded, by name; only the READY ones when
  // `ready_only`.
  std::vector<IndexEntry> index(bool ready_only) const;

 private:
  bool in_catalog(const std::string& name) const;

  ApiState& state_;
  ModelCatalog catalog_;
  SessionOptions session_;
  int max_waiting_;
  std::FILE* log_;
  std::mutex mutex_;  // one load or unload at a time
};

}  // namespace bough::serve
