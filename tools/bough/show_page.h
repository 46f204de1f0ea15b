// The page of `bough show -o view.html`: one self-contained HTML file (its style and script
// inline, nothing fetched) that draws the JSON of show_view.h as SVG, with pan and zoom,
// search by node or value name, subgraph boxes that open in place, and a panel with the
// clicked node's operator, attributes, constants and types.
#pragma once

#include <string>

namespace bough::cli {

// `title` (the model's path) is HTML-escaped; `json` must already be safe inside a
// <script> element (model_view_json writes `<` as \u003c).
std::string html_page(const std::string& title, const std::string& json);

}  // namespace bough::cli
