#include "formats/npy/npy_object.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "util/printable.h"

namespace bough::npy {

namespace {

// The strings of the elements may outnumber the pickle's bytes (one string memo-referenced
// many times costs two bytes a reference): their total is held to this many times the size
// of the pickle, or to kMinStringBytes, whichever is larger.
constexpr size_t kExpansion = 256;
constexpr size_t kMinStringBytes = size_t{64} << 20;

// A value on the machine's stack, 48 bytes. Lists hold strings only and an ndarray keeps
// only its checked state, so no value can reach itself: memo references share, never loop.
struct Value {
  enum class Kind { Mark, None, Bool, Int, Str, Bytes, Tuple, List, Global, Ndarray, Dtype };
  Kind kind = Kind::None;
  int depth = 0;                              // Tuple: how deeply tuples nest in it
  int64_t number = 0;                         // Bool, Int; Ndarray, Dtype: 1 once built
  std::shared_ptr<const std::string> text;    // Str, Bytes; Global: "module name"
  std::shared_ptr<std::vector<Value>> items;  // Tuple, List; Ndarray: its state once built
};

// numpy's pickle nests tuples three deep; a deeper nest is refused before its destruction
// could recurse through a stack's worth of levels.
constexpr int kMaxDepth = 8;

bool is_string(const Value& v) {
  return v.kind == Value::Kind::Str || v.kind == Value::Kind::Bytes;
}

class Machine {
 public:
  Machine(std::string_view bytes, const std::string& path) : in_(bytes), path_(path) {}

  // The built ndarray the pickle's STOP leaves.
  Value run() {
    while (true) {
      const uint8_t op = byte();
      if (op == '.') break;
      step(op);
    }
    if (at_ != in_.size()) bad("bytes after the pickle's end");
    if (stack_.size() != 1 || stack_[0].kind != Value::Kind::Ndarray || !stack_[0].number)
      bad("the pickle does not end with one numpy array");
    return std::move(stack_[0]);
  }

 private:
  [[noreturn]] void bad(const std::string& why) {
    fail(ErrorKind::BadInput, path_,
         "npy object array: " + why +
             " (bough reads only the pickle numpy writes for an array "
             "of str or bytes; np.save(path, array.astype(str)) writes a plain string array)");
  }

  uint64_t unsigned_le(size_t n) {
    if (in_.size() - at_ < n) bad("the pickle is cut short");
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(in_[at_ + i])} << (8 * i);
    at_ += n;
    return v;
  }
  uint8_t byte() { return static_cast<uint8_t>(unsigned_le(1)); }
  std::string_view take(uint64_t n) {
    if (in_.size() - at_ < n) bad("a string is longer than the rest of the pickle");
    const std::string_view s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::string_view line() {
    const size_t end = in_.find('\n', at_);
    if (end == std::string_view::npos) bad("the pickle is cut short");
    const size_t length = end - at_;
    return take(length + 1).substr(0, length);
  }

  void push(Value v) { stack_.push_back(std::move(v)); }
  void push_text(Value::Kind kind, std::string_view s) {
    Value v;
    v.kind = kind;
    v.text = std::make_shared<const std::string>(s);
    push(std::move(v));
  }
  void push_int(Value::Kind kind, int64_t n) {
    Value v;
    v.kind = kind;
    v.number = n;
    push(std::move(v));
  }
  Value pop() {
    if (stack_.empty() || stack_.back().kind == Value::Kind::Mark) bad("the stack runs empty");
    Value v = std::move(stack_.back());
    stack_.pop_back();
    return v;
  }
  // The values above the topmost mark, which is removed.
  std::vector<Value> pop_to_mark() {
    size_t mark = stack_.size();
    while (mark > 0 && stack_[mark - 1].kind != Value::Kind::Mark) --mark;
    if (mark == 0) bad("no mark on the stack");
    std::vector<Value> out(std::make_move_iterator(stack_.begin() + static_cast<long>(mark)),
                           std::make_move_iterator(stack_.end()));
    stack_.resize(mark - 1);
    return out;
  }
  void push_tuple(std::vector<Value> items) {
    Value v;
    v.kind = Value::Kind::Tuple;
    for (const Value& item : items) v.depth = std::max(v.depth, item.depth + 1);
    if (v.depth > kMaxDepth) bad("tuples nested more than " + std::to_string(kMaxDepth) + " deep");
    v.items = std::make_shared<std::vector<Value>>(std::move(items));
    push(std::move(v));
  }
  void tuple_of(size_t n) {
    if (stack_.size() < n) bad("the stack runs empty");
    std::vector<Value> items(n);
    for (size_t i = n; i-- > 0;) items[i] = pop();
    push_tuple(std::move(items));
  }
  // Python's pickler numbers its memo entries 0, 1, 2...: an index past the next is refused,
  // so the memo grows by one entry at most per opcode.
  void put(uint64_t index) {
    if (stack_.empty() || stack_.back().kind == Value::Kind::Mark) bad("memo of nothing");
    if (index > memo_.size()) bad("memo entry " + std::to_string(index) + " skips entries");
    if (index == memo_.size()) memo_.emplace_back();
    memo_[index] = stack_.back();
  }
  void get(uint64_t index) {
    if (index >= memo_.size()) bad("memo entry " + std::to_string(index) + " is not set");
    push(memo_[index]);
  }
  void append(Value& list, Value item) {
    if (list.kind != Value::Kind::List) bad("an append to something that is not a list");
    if (!is_string(item)) bad("an element that is neither str nor bytes");
    list.items->push_back(std::move(item));
  }
  void global(std::string module, std::string name) {
    Value v;
    v.kind = Value::Kind::Global;
    v.text = std::make_shared<const std::string>(module + " " + name);
    push(std::move(v));
  }

  void step(uint8_t op) {
    using K = Value::Kind;
    switch (op) {
      case 0x80: {  // PROTO
        const uint8_t version = byte();
        if (version < 2 || version > 5) bad("pickle protocol " + std::to_string(version));
        return;
      }
      case 0x95:  // FRAME: a length hint, the opcodes follow inline
        if (unsigned_le(8) > in_.size() - at_) bad("a frame is longer than the rest of the pickle");
        return;
      case '(':
        push(Value{K::Mark});
        return;
      case 'N':
        push(Value{K::None});
        return;
      case 0x88:
        push_int(K::Bool, 1);
        return;
      case 0x89:
        push_int(K::Bool, 0);
        return;
      case 'K':
        push_int(K::Int, byte());
        return;
      case 'M':
        push_int(K::Int, static_cast<int64_t>(unsigned_le(2)));
        return;
      case 'J':
        push_int(K::Int, static_cast<int32_t>(unsigned_le(4)));
        return;
      case 'X':
        push_text(K::Str, take(unsigned_le(4)));
        return;
      case 0x8c:
        push_text(K::Str, take(byte()));
        return;
      case 0x8d:
        push_text(K::Str, take(unsigned_le(8)));
        return;
      case 'C':
        push_text(K::Bytes, take(byte()));
        return;
      case 'B':
        push_text(K::Bytes, take(unsigned_le(4)));
        return;
      case 0x8e:
        push_text(K::Bytes, take(unsigned_le(8)));
        return;
      case ')':
        push_tuple({});
        return;
      case 0x85:
        tuple_of(1);
        return;
      case 0x86:
        tuple_of(2);
        return;
      case 0x87:
        tuple_of(3);
        return;
      case 't':
        push_tuple(pop_to_mark());
        return;
      case ']': {
        Value v;
        v.kind = K::List;
        v.items = std::make_shared<std::vector<Value>>();
        push(std::move(v));
        return;
      }
      case 'a': {
        Value item = pop();
        if (stack_.empty()) bad("the stack runs empty");
        append(stack_.back(), std::move(item));
        return;
      }
      case 'e': {
        std::vector<Value> items = pop_to_mark();
        if (stack_.empty()) bad("the stack runs empty");
        for (Value& item : items) append(stack_.back(), std::move(item));
        return;
      }
      case 'q':
        put(byte());
        return;
      case 'r':
        put(unsigned_le(4));
        return;
      case 0x94:
        put(memo_.size());
        return;
      case 'h':
        get(byte());
        return;
      case 'j':
        get(unsigned_le(4));
        return;
      case 'c': {
        std::string module(line());
        global(std::move(module), std::string(line()));
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        const Value name = pop(), module = pop();
        if (name.kind != K::Str || module.kind != K::Str) bad("a global named by non-strings");
        global(*module.text, *name.text);
        return;
      }
      case 'R': {
        Value args = pop();
        const Value callable = pop();
        reduce(callable, args);
        return;
      }
      case 'b': {
        const Value state = pop();
        if (stack_.empty()) bad("the stack runs empty");
        build(stack_.back(), state);
        return;
      }
      default: {
        static const char kHex[] = "0123456789abcdef";
        bad(std::string("the pickle opcode 0x") + kHex[op >> 4] + kHex[op & 15] + " at byte " +
            std::to_string(at_ - 1));
      }
    }
  }

  static bool is_tuple(const Value& v, size_t n) {
    return v.kind == Value::Kind::Tuple && v.items->size() == n;
  }
  static bool is_global(const Value& v, std::string_view name) {
    return v.kind == Value::Kind::Global && *v.text == name;
  }
  static bool is_text(const Value& v, Value::Kind kind, std::string_view text) {
    return v.kind == kind && *v.text == text;
  }

  // The two calls numpy's pickle of an object array makes: _reconstruct(ndarray, (0,), b'b')
  // for an empty array, dtype('O8', False, True) for its dtype.
  void reduce(const Value& callable, const Value& args) {
    using K = Value::Kind;
    if (callable.kind != K::Global) bad("a call of something that is not a name");
    const std::string& name = *callable.text;
    if (name == "numpy.core.multiarray _reconstruct" ||
        name == "numpy._core.multiarray _reconstruct") {
      const bool ok = is_tuple(args, 3) && is_global((*args.items)[0], "numpy ndarray") &&
                      is_tuple((*args.items)[1], 1) &&
                      (*(*args.items)[1].items)[0].kind == K::Int &&
                      is_text((*args.items)[2], K::Bytes, "b");
      if (!ok) bad("numpy's _reconstruct called with other arguments than an ndarray's");
      push(Value{K::Ndarray});
    } else if (name == "numpy dtype") {
      const bool ok =
          is_tuple(args, 3) &&
          ((is_text((*args.items)[0], K::Str, "O8") || is_text((*args.items)[0], K::Str, "O4")));
      if (!ok) bad("a numpy dtype other than object");
      push(Value{K::Dtype});
    } else {
      bad("the pickle calls " + util::printable(name) + ", which is not numpy's");
    }
  }

  // An ndarray's state is (1, shape, dtype, fortran, [elements in C order]); a dtype's a
  // tuple whose second item is the byte order '|'.
  void build(Value& target, const Value& state) {
    using K = Value::Kind;
    if (target.kind != K::Dtype && target.kind != K::Ndarray)
      bad("the state of something that is neither a numpy array nor its dtype");
    if (target.number) bad("an object built twice");
    if (target.kind == K::Dtype) {
      if (state.kind != K::Tuple || state.items->size() < 2 ||
          !is_text((*state.items)[1], K::Str, "|"))
        bad("the object dtype's state is not numpy's");
      target.number = 1;
      return;
    }
    if (!is_tuple(state, 5)) bad("the array's state is not numpy's 5-tuple");
    const std::vector<Value>& s = *state.items;
    if (s[0].kind != K::Int || s[0].number != 1) bad("the array's state has another version");
    if (s[1].kind != K::Tuple) bad("the array's shape is not a tuple");
    if (s[2].kind != K::Dtype || !s[2].number) bad("the array's dtype is not object");
    if (s[3].kind != K::Bool) bad("the array's order flag is not a bool");
    if (s[4].kind != K::List) bad("the array's elements are not a list");
    for (const Value& d : *s[1].items)
      if (d.kind != K::Int || d.number < 0) bad("a dimension of the array's shape is not a count");
    target.items = state.items;
    target.number = 1;
  }

  std::string_view in_;
  const std::string& path_;
  size_t at_ = 0;
  std::vector<Value> stack_;
  std::vector<Value> memo_;
};

std::string shape_text(const Dims& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

}  // namespace

Tensor decode_object_array(std::string_view pickle, const Dims& shape, const std::string& path) {
  const Value array = Machine(pickle, path).run();
  const std::vector<Value>& state = *array.items;  // checked by Machine::build
  Dims pickled;
  for (const Value& d : *state[1].items) pickled.push_back(d.number);
  if (pickled != shape)
    fail(ErrorKind::BadInput, path,
         "npy object array: the pickle's shape " + shape_text(pickled) + " is not the header's " +
             shape_text(shape));
  const std::vector<Value>& elements = *state[4].items;
  // The count the shape needs, without overflow; a list of any other length is refused.
  size_t count = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &count)) count = SIZE_MAX;
  if (count != elements.size())
    fail(ErrorKind::BadInput, path,
         "npy object array: the shape " + shape_text(shape) + " needs " +
             (count == SIZE_MAX ? std::string("more") : std::to_string(count)) +
             " elements, the pickle holds " + std::to_string(elements.size()));
  const size_t limit = std::max(kExpansion * pickle.size(), kMinStringBytes);
  size_t total = 0;
  for (const Value& e : elements)
    if ((total += e.text->size()) > limit)
      fail(ErrorKind::BadInput, path,
           "npy object array: its strings, with the repeated ones counted each time, pass " +
               std::to_string(limit) + " bytes (the larger of 64 MiB and " +
               std::to_string(kExpansion) + " times the size of the pickle)");
  Tensor t(ElemType::String, shape);
  for (size_t i = 0; i < elements.size(); ++i) t.strings()[i] = *elements[i].text;
  return t;
}

}  // namespace bough::npy
