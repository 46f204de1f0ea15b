#include "formats/openvino/pre_process.h"

#include <cstring>
#include <vector>

#include "bough/error.h"
#include "formats/openvino/lower.h"

namespace bough::openvino {

const XmlLayer* pre_process_target(const XmlNet& net, const PreProcess& pp,
                                   const std::string& where) {
  const XmlLayer* first = nullptr;
  const XmlLayer* first_4d = nullptr;
  for (const XmlLayer& l : net.layers) {
    if (l.type != "Parameter") continue;
    if (!pp.input.empty()) {
      if (l.name == pp.input) return &l;
      continue;
    }
    if (!first) first = &l;
    const ir::Shape& s = parameter_type(l, where).shape;
    if (!first_4d && s.rank_known && s.dims.size() == 4) first_4d = &l;
  }
  if (!pp.input.empty())
    fail(ErrorKind::InvalidModel, where, "refers to '" + pp.input + "', which is not an input");
  if (!first) fail(ErrorKind::InvalidModel, where, "the net has no input to pre-process");
  return first_4d ? first_4d : first;
}

namespace {

// Where the channels and the spatial dims of an input of `dims` are, as OpenVINO's reader
// lays out the mean for each rank: NC, CHW (rank 3), NCHW, NCDHW.
struct MeanLayout {
  int64_t channels;
  std::vector<int64_t> per_channel;  // the value's shape: [C, 1, ...]
  std::vector<int64_t> image;        // one channel's image: the dims after the channel's
};

MeanLayout layout(const std::vector<int64_t>& dims) {
  const size_t c = dims.size() == 3 ? 0 : 1;
  MeanLayout m{dims[c], {dims[c]}, {}};
  for (size_t k = c + 1; k < dims.size(); ++k) {
    m.per_channel.push_back(1);
    m.image.push_back(dims[k]);
  }
  return m;
}

}  // namespace

ir::Edge* subtract_mean(GraphLowering& g, const PreProcess& pp, ir::Edge* input,
                        const std::string& where) {
  const ir::Type& t = input->type;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : t.shape.dims) {
    if (!d.is_known()) break;
    dims.push_back(d.value);
  }
  if (!t.shape.rank_known || dims.size() != t.shape.dims.size())
    fail(ErrorKind::InvalidModel, where, "the input '" + input->name + "' has no static shape");
  if (dims.size() < 2 || dims.size() > 5)
    fail(ErrorKind::InvalidModel, where,
         "an input of rank " + std::to_string(dims.size()) + " (ranks 2 to 5 are pre-processed)");
  if (is_sub_byte(t.elem) || !(is_float_type(t.elem) || is_integer_type(t.elem)))
    fail(ErrorKind::Unsupported, where,
         "an input of element type " + std::string(elem_name(t.elem)));
  const MeanLayout m = layout(dims);
  const auto channels = static_cast<uint64_t>(m.channels);
  // One mean a channel: checked before anything is sized by the input's shape.
  if (channels != pp.means.size())
    fail(ErrorKind::InvalidModel, where,
         std::to_string(pp.means.size()) + " means for " + std::to_string(channels) + " channels");
  size_t values = 0, images = 0;
  std::vector<const PreProcess::Mean*> by_channel(channels, nullptr);
  for (const PreProcess::Mean& mean : pp.means) {
    values += mean.value.has_value();
    images += mean.offset && mean.size;
    if (mean.channel >= channels)
      fail(ErrorKind::InvalidModel, where,
           "channel " + std::to_string(mean.channel) + " of an input of " +
               std::to_string(channels) + " channels");
    if (by_channel[mean.channel])
      fail(ErrorKind::InvalidModel, where,
           "channel " + std::to_string(mean.channel) + " is given twice");
    by_channel[mean.channel] = &mean;
  }
  if (values && images) fail(ErrorKind::InvalidModel, where, "mean values of both kinds");
  if (values + images != channels)
    fail(ErrorKind::InvalidModel, where, "a <mean> needs a value, or an offset and a size");
  ir::Edge* mean = nullptr;
  if (values) {
    std::vector<float> v(channels);
    for (uint64_t c = 0; c < channels; ++c) v[c] = static_cast<float>(*by_channel[c]->value);
    mean = g.constant(
        Tensor::from_vector(ElemType::Float, Dims(std::span<const int64_t>(m.per_channel)), v),
        input->name + "/mean");
    // OpenVINO makes the constant of the input's type from these floats.
    if (t.elem != ElemType::Float)
      mean = g.node("Cast", {mean}, input->name + "/mean_cast",
                    int_attr("to", static_cast<int64_t>(t.elem)));
  } else {
    // Each channel's image must lie in the .bin: checked before the images are allocated.
    const std::string* weights = g.model().weights;
    if (!weights) fail(ErrorKind::IO, where, "the weights file (.bin beside the .xml) is missing");
    uint64_t elements = 1;
    const uint64_t too_many = weights->size() + 1;  // more elements than the file's bytes
    for (int64_t d : m.image) {
      const auto n = static_cast<uint64_t>(d);
      elements = n != 0 && elements > too_many / n ? too_many : elements * n;
    }
    const uint64_t bytes = elem_storage_bytes(t.elem, elements);
    for (uint64_t c = 0; c < channels; ++c) {
      const PreProcess::Mean& mc = *by_channel[c];
      if (*mc.size != bytes)
        fail(ErrorKind::InvalidModel, where,
             "the mean image of channel " + std::to_string(c) + " has " + std::to_string(*mc.size) +
                 " bytes, the input's " + std::to_string(bytes));
      if (*mc.offset > weights->size() || bytes > weights->size() - *mc.offset)
        fail(ErrorKind::InvalidModel, where,
             "the mean image of channel " + std::to_string(c) + " is past the end of the " +
                 std::to_string(weights->size()) + "-byte weights file");
    }
    std::vector<int64_t> shape = m.image;
    shape.insert(shape.begin(), m.channels);
    Tensor image(t.elem, Dims(std::span<const int64_t>(shape)));
    for (uint64_t c = 0; c < channels; ++c)
      std::memcpy(static_cast<char*>(image.raw()) + c * bytes,
                  weights->data() + *by_channel[c]->offset, bytes);
    mean = g.constant(std::move(image), input->name + "/mean");
  }
  ir::Edge* out = g.node("Sub", {input, mean}, input->name + "/mean_subtracted");
  out->type = t;
  return out;
}

}  // namespace bough::openvino
