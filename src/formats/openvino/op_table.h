// The OpenVINO operators bough maps, as one table: each operator family (a file under
// formats/openvino/ops/) lists, side by side, the OpenVINO layers it reads (IR -> core) and
// the ONNX-domain operators it writes (core -> IR). Adding an operator is adding its rows to
// its family; a new family is one line in ops/families.inc. docs/adding-an-op.md says how.
#pragma once

#include <string>
#include <vector>

#include "formats/openvino/lower.h"
#include "formats/openvino/net_writer.h"

namespace bough::openvino {

// The domain of the operators OpenVINO has and ONNX has not, as OpenVINO's ONNX frontend
// reads them; bough runs those it maps (ops/openvino/).
inline constexpr const char* kOpenVinoDomain = "org.openvinotoolkit";

using MapFn = void (*)(GraphLowering&, const LayerIO&);
using WriteFn = void (*)(NetWriter&, const ir::Node&);

// An OpenVINO operator bough reads. `type` is spelled as OpenVINO's opset documentation
// spells it (the reader matches it in any letter case, as OpenVINO's does); `versions` are
// the operator's versions bough reads, "1 8 14".
struct ReadRule {
  std::string type;
  std::string versions;
  MapFn map;
};

// An ONNX-domain operator bough writes as OpenVINO layers; `writes` names them with their
// versions, "MaxPool-1 MaxPool-8" (listed by `bough ops --openvino`). An operator of
// another domain is spelled "domain:op_type" ("org.openvinotoolkit:PriorBox").
struct WriteRule {
  std::string onnx_type;
  std::string writes;
  WriteFn write;
};

struct OpFamily {
  std::vector<ReadRule> reads;
  std::vector<WriteRule> writes;
};

// Each family's rows, defined in its file.
#define BOUGH_OV_FAMILY(name) OpFamily name##_family();
#include "formats/openvino/ops/families.inc"
#undef BOUGH_OV_FAMILY

// The rule reading `type` (in any letter case), or nullptr.
const ReadRule* find_read_rule(const std::string& type);
// The layer's type as its rule spells it (the layer's own when no rule reads it).
const std::string& canonical_type(const XmlLayer& l);
// The version of the operator whose meaning `l` has: of the versions its rule lists, the
// newest not after the opset of its `version` attribute ("opset8" reads MaxPool-8, "opset13"
// too), as OpenVINO's reader picks it; the newest listed when `version` names no opset.
int op_version(const XmlLayer& l);
// The rule writing the ONNX-domain `op_type`, or nullptr.
const WriteRule* find_write_rule(const std::string& op_type);

// One OpenVINO operator and the versions bough reads and writes (empty when it does not).
struct OvOpSupport {
  std::string type;
  std::vector<int> reads;
  std::vector<int> writes;
};
// Every OpenVINO operator of the table, by name.
std::vector<OvOpSupport> openvino_op_support();

}  // namespace bough::openvino
