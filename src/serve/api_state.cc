#include "serve/api_state.h"

#include "serve/protocol_error.h"

namespace bough::serve {

ServedModel& find_model(const ApiState& state, const std::string& name,
                        const std::string& version) {
  const ModelMap* models = state.models.load(std::memory_order_acquire);
  if (!models) throw ProtocolError(kUnavailable, "the server is still loading its models");
  const auto it = models->find(name);
  if (it == models->end()) throw ProtocolError(kNotFound, "unknown model '" + name + "'");
  if (!version.empty() && version != it->second->version())
    throw ProtocolError(kNotFound, "model '" + name + "' has no version '" + version +
                                       "' loaded (loaded: " + it->second->version() + ")");
  return *it->second;
}

std::vector<int64_t> metadata_shape(const ValueInfo& info) {
  if (!info.rank_known) return {-1};
  std::vector<int64_t> shape;
  for (const Dim& d : info.shape) shape.push_back(d.known() ? d.size : -1);
  return shape;
}

}  // namespace bough::serve
