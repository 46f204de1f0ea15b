// A string attribute that names one of a few choices (a mode, a direction, a reduction): the
// value its text stands for. Any other text makes the model invalid, with an error that lists
// the texts allowed.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ops/node_view.h"

namespace bough::ops {

template <typename E>
struct Choice {
  std::string_view text;
  E value;
};

// Throws InvalidModel: "<name> must be 'a', 'b' or 'c', got '<text>'".
[[noreturn]] void invalid_choice(const NodeView& ctx, std::string_view name, std::string_view text,
                                 std::span<const std::string_view> allowed);

// The value of `text`, given for attribute `name`, among `choices`.
template <typename E>
E choice_of(const NodeView& ctx, std::string_view name, std::string_view text,
            std::span<const Choice<E>> choices) {
  for (const Choice<E>& c : choices)
    if (c.text == text) return c.value;
  std::vector<std::string_view> allowed;
  for (const Choice<E>& c : choices) allowed.push_back(c.text);
  invalid_choice(ctx, name, text, allowed);
}

// The value of attribute `name` among `choices`; `fallback` is its text when it is absent.
template <typename E>
E attr_choice(const NodeView& ctx, std::string_view name, std::string_view fallback,
              std::span<const Choice<E>> choices) {
  return choice_of(ctx, name, ctx.attr_string(name, std::string(fallback)), choices);
}
template <typename E>
E attr_choice(const NodeView& ctx, std::string_view name, std::string_view fallback,
              std::initializer_list<Choice<E>> choices) {
  return attr_choice(ctx, name, fallback,
                     std::span<const Choice<E>>(choices.begin(), choices.size()));
}

}  // namespace bough::ops
