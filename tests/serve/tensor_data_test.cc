// The protocol's tensor data (src/serve/tensor_data.h) and datatype names: edge values worked
// out by hand from IEEE 754 and the protocol's table.
#include "serve/tensor_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "serve/datatype.h"
#include "serve/protocol_error.h"

namespace bough::serve {
namespace {

using nlohmann::json;

std::string json_text(const Tensor& t) {
  std::string out;
  append_json_data(out, t);
  return out;
}

int status_of(auto&& call) {
  try {
    call();
  } catch (const ProtocolError& e) {
    return e.status();
  }
  return 200;
}

TEST(ServeDatatype, ProtocolNamesBothWays) {
  EXPECT_EQ(datatype_name(ElemType::Float), "FP32");
  EXPECT_EQ(datatype_name(ElemType::String), "BYTES");
  EXPECT_EQ(datatype_name(ElemType::BFloat16), "BF16");
  EXPECT_EQ(parse_datatype("INT64"), ElemType::Int64);
  EXPECT_EQ(parse_datatype("FP16"), ElemType::Float16);
  EXPECT_FALSE(parse_datatype("fp32"));  // names are case-sensitive
  EXPECT_FALSE(parse_datatype(datatype_name(ElemType::Float8E4M3FN)));
}

TEST(ServeTensorData, FloatsOutOfRangeRoundAsIeeeDoes) {
  // FLT_MAX = (2 - 2^-23) * 2^127; its ulp is 2^104, so doubles below FLT_MAX + 2^103 round
  // down to it and from there up to infinity (the tie goes to the even 2^128).
  const double max = std::numeric_limits<float>::max();
  const Tensor t = tensor_from_json(json{max + 0x1p102, -(max + 0x1p103), 1e39, 1e-50},
                                    ElemType::Float, Dims{4}, "x");
  EXPECT_EQ(t.data<float>()[0], std::numeric_limits<float>::max());
  EXPECT_EQ(t.data<float>()[1], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(t.data<float>()[2], std::numeric_limits<float>::infinity());
  EXPECT_EQ(t.data<float>()[3], 0.0f);
}

TEST(ServeTensorData, JsonNumbersInTheFewestDigits) {
  const Tensor f = Tensor::from_vector<float>(ElemType::Float, {5},
                                              {0.1f, 1e-45f, -0.0f, std::nanf(""), -INFINITY});
  EXPECT_EQ(json_text(f), "[0.1,1e-45,-0,NaN,-Infinity]");
  const Tensor i =
      Tensor::from_vector<int64_t>(ElemType::Int64, {2}, {std::numeric_limits<int64_t>::min(), 7});
  EXPECT_EQ(json_text(i), "[-9223372036854775808,7]");
  const Tensor u8 = Tensor::from_vector<uint8_t>(ElemType::UInt8, {2}, {255, 0});
  EXPECT_EQ(json_text(u8), "[255,0]");
  const Tensor b = Tensor::from_vector<uint8_t>(ElemType::Bool, {2}, {1, 0});
  EXPECT_EQ(json_text(b), "[true,false]");
  // 0x3C00 is half 1.0, 0x3555 is half 0.333251953125 (float32 shortest: 0.33325195).
  const Tensor h = Tensor::from_vector<uint16_t>(ElemType::Float16, {2}, {0x3C00, 0x3555});
  EXPECT_EQ(json_text(h), "[1,0.33325195]");
}

// Each number datatype reads the ends of its range from JSON and writes them back as they
// came (the 8-bit integers as numbers, not characters), and refuses a value one past them.
TEST(ServeTensorData, EveryNumberDatatypeKeepsItsRange) {
  struct Case {
    ElemType type;
    const char* range;
    const char* past;
  };
  const Case cases[] = {
      {ElemType::Int8, "[-128,127]", "[128]"},
      {ElemType::Int16, "[-32768,32767]", "[-32769]"},
      {ElemType::Int32, "[-2147483648,2147483647]", "[2147483648]"},
      {ElemType::Int64, "[-9223372036854775808,9223372036854775807]", "[9223372036854775808]"},
      {ElemType::UInt8, "[0,255]", "[256]"},
      {ElemType::UInt16, "[0,65535]", "[65536]"},
      {ElemType::UInt32, "[0,4294967295]", "[4294967296]"},
      {ElemType::UInt64, "[0,18446744073709551615]", "[-1]"},
      {ElemType::Float, "[-3.4028235e+38,1e-45]", "[true]"},
      {ElemType::Double, "[-1.7976931348623157e+308,5e-324]", "[\"x\"]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(datatype_name(c.type));
    const Tensor t = tensor_from_json(json::parse(c.range), c.type, Dims{2}, "x");
    EXPECT_EQ(t.type(), c.type);
    EXPECT_EQ(json_text(t), c.range);
    EXPECT_EQ(status_of([&] { tensor_from_json(json::parse(c.past), c.type, Dims{1}, "x"); }), 400);
  }
}

TEST(ServeTensorData, NestedAndFlatDataReadTheSame) {
  const Tensor nested =
      tensor_from_json(json::parse("[[1,2],[3,4]]"), ElemType::Int32, Dims{2, 2}, "x");
  const Tensor flat = tensor_from_json(json::parse("[1,2,3,4]"), ElemType::Int32, Dims{2, 2}, "x");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(nested.data<int32_t>()[i], i + 1);
    EXPECT_EQ(flat.data<int32_t>()[i], i + 1);
  }
  EXPECT_EQ(status_of([] {
              tensor_from_json(json::parse("[1,2,3]"), ElemType::Int32, Dims{2, 2}, "x");
            }),
            400);
}

TEST(ServeTensorData, BytesBinaryData) {
  const std::string bytes = std::string("\x02\0\0\0ab\0\0\0\0", 10);
  const Tensor t = tensor_from_binary(bytes, ElemType::String, Dims{2}, "x");
  EXPECT_EQ(t.strings()[0], "ab");
  EXPECT_EQ(t.strings()[1], "");
  std::string back;
  EXPECT_EQ(append_binary_data(back, t), 10u);
  EXPECT_EQ(back, bytes);
  // A length that runs past the end, a length prefix cut short, bytes left over, and more
  // elements than 4-byte prefixes fit: each refused before anything is allocated for it.
  EXPECT_EQ(status_of([] {
              tensor_from_binary(std::string("\x05\0\0\0ab", 6), ElemType::String, Dims{1}, "x");
            }),
            400);
  EXPECT_EQ(status_of([] {
              tensor_from_binary(std::string("\0\0\0", 3), ElemType::String, Dims{1}, "x");
            }),
            400);
  EXPECT_EQ(status_of([] {
              tensor_from_binary(std::string("\0\0\0\0z", 5), ElemType::String, Dims{1}, "x");
            }),
            400);
  EXPECT_EQ(status_of([] {
              tensor_from_binary(std::string(8, '\0'), ElemType::String, Dims{1 << 30}, "x");
            }),
            400);
}

TEST(ServeTensorData, BoolBinaryDataIsZeroOrOne) {
  EXPECT_EQ(status_of([] {
              tensor_from_binary(std::string("\x01\x02", 2), ElemType::Bool, Dims{2}, "x");
            }),
            400);
  const Tensor t = tensor_from_binary(std::string("\x01\x00", 2), ElemType::Bool, Dims{2}, "x");
  EXPECT_EQ(t.data<uint8_t>()[0], 1);
}

TEST(ServeTensorData, ElementCountIsBounded) {
  const int64_t big[] = {int64_t{1} << 20, int64_t{1} << 20, 2};
  EXPECT_EQ(status_of([&] { element_count(big, "input 'x'"); }), 400);
  const int64_t empty[] = {0, int64_t{1} << 62};
  EXPECT_EQ(element_count(empty, "input 'x'"), 0);
  const int64_t negative[] = {2, -1};
  EXPECT_EQ(status_of([&] { element_count(negative, "input 'x'"); }), 400);
}

}  // namespace
}  // namespace bough::serve
