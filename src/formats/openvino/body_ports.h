// What If, Loop and TensorIterator share when lowering a body: captures for the Parameters
// bound to the node's inputs, port-map lookups and checks, and OpenVINO's concatenated
// outputs rebuilt from ONNX's stacked ones.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "formats/openvino/lower.h"

namespace bough::openvino {

using BodyResults = std::vector<std::pair<const XmlLayer*, ir::Edge*>>;

// The capture of `outer` in `body` (one per outer value), listed among the owner's
// implicit inputs.
ir::Edge* capture(ir::Graph* body, ir::Edge* outer);
// The entry that binds the body layer `layer_id` to a port of the node (one without a
// purpose), or nullptr.
const PortMapEntry* entry_for(const std::vector<PortMapEntry>& entries, int64_t layer_id);
// True when an entry for `layer_id` has this purpose ("current_iteration", ...).
bool has_purpose(const std::vector<PortMapEntry>& entries, int64_t layer_id,
                 const std::string& purpose);

// A body of `l` with its port map, checked: every entry names a Parameter or a Result of the
// body, and every back edge a Result and a Parameter.
struct MappedBody {
  const XmlNet* net = nullptr;
  std::vector<PortMapEntry> ins, outs;
  std::map<int64_t, int64_t> back;     // Parameter id -> Result id
  std::map<int64_t, size_t> out_rank;  // an output entry's external_port_id -> output index
};
MappedBody mapped_body(GraphLowering& g, const XmlLayer& l, const std::string& body_tag,
                       const std::string& map_name);
// The output an output entry binds: its external_port_id's rank among the map's (so ids are
// ids, not indices, as in OpenVINO's reader).
size_t output_position(GraphLowering& g, const XmlLayer& l, const MappedBody& m,
                       int64_t external_port_id);
// The position of the port `port_id` among `ports` (l.inputs or l.outputs).
size_t port_index(GraphLowering& g, const XmlLayer& l, const std::vector<XmlPort>& ports,
                  const std::string& map_name, int64_t port_id);
std::unique_ptr<ir::Graph> new_body(GraphLowering& g, ir::Node* owner, const std::string& attr);
ir::Edge* result_edge(GraphLowering& g, const XmlLayer& l, const BodyResults& results, int64_t id);
const XmlLayer& result_layer(GraphLowering& g, const XmlLayer& l, const BodyResults& results,
                             int64_t id);
// Forward (start 0, end -1, stride part_size) or backward (start -1, end 0, stride
// -part_size) over the whole axis, in parts of part_size: the slicing ONNX can express.
bool whole_axis(const PortMapEntry& e);
// Concatenating Unsqueeze(v, [axis]) along `axis` is stacking v on a new `axis`, which ONNX
// scan outputs do directly: returns v for such an `e`, else nullptr.
ir::Edge* unsqueezed_from(const ir::Edge* e, int64_t axis);
// Removes from `body` those of `candidates` whose outputs nothing reads any more, and the
// initializers only they read.
void drop_unused(ir::Graph* body, const std::vector<ir::Node*>& candidates);
// `stacked` holds the per-iteration values of `result` stacked on a new axis 0 (an ONNX scan
// output); `out` becomes them concatenated along `axis`, as OpenVINO does.
void concat_scan(GraphLowering& g, const XmlLayer& l, ir::Edge* stacked, ir::Edge* out,
                 const XmlLayer& result, int64_t axis);

}  // namespace bough::openvino
