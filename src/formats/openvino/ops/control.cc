// Control flow: If, Loop and TensorIterator, whose bodies are lowered with their port maps
// (port_maps.cc, tensor_iterator.cc) and written back (body_writer.cc).
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"

namespace bough::openvino {

OpFamily control_family() {
  return {{{"If", "8", lower_if},
           {"Loop", "5", lower_loop},
           {"TensorIterator", "1", lower_tensor_iterator}},
          {{"If", "If-8", write_if},
           {"Loop", "Loop-5", write_loop},
           {"Scan", "TensorIterator-1", write_scan}}};
}

}  // namespace bough::openvino
