#include "profile.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "exec/ort_profile.h"
#include "stats.h"
#include "util/json.h"
#include "util/printable.h"

namespace bough::cli {

namespace {
namespace profile_op {

int64_t total_run_ns(const std::vector<ProfiledRun>& runs) {
  int64_t total = 0;
  for (const ProfiledRun& r : runs) total += r.profile.run_ns;
  return total;
}

std::vector<exec::OpTotal> op_totals_of(const std::vector<ProfiledRun>& runs) {
  std::vector<const RunProfile*> profiles;
  for (const ProfiledRun& r : runs) profiles.push_back(&r.profile);
  return exec::op_totals(profiles);
}

std::string format_ns(int64_t ns) { return format_duration(static_cast<double>(ns) * 1e-9); }

// Microseconds with nanosecond resolution, as trace viewers read "ts" and "dur".
std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) * 1e-3);
  return buf;
}

}  // namespace profile_op
}  // namespace

std::vector<ProfileRow> profile_rows(const std::vector<ProfiledRun>& runs) {
  std::map<std::pair<std::string, std::string>, ProfileRow> by_node;
  for (const ProfiledRun& run : runs)
    for (const NodeTiming& t : run.profile.nodes) {
      ProfileRow& row = by_node[{t.place, t.op}];
      row.place = t.place;
      row.op = t.op;
      ++row.calls;
      row.self_ns += t.self_ns;
    }
  std::vector<ProfileRow> rows;
  for (auto& [key, row] : by_node) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ProfileRow& a, const ProfileRow& b) { return a.self_ns > b.self_ns; });
  return rows;
}

std::string profile_table(const std::vector<ProfiledRun>& runs, size_t max_rows) {
  using namespace profile_op;
  const std::vector<ProfileRow> rows = profile_rows(runs);
  const int64_t total = total_run_ns(runs);
  int64_t in_nodes = 0;
  for (const ProfileRow& r : rows) in_nodes += r.self_ns;
  auto share = [&](int64_t ns) { return total > 0 ? 100.0 * static_cast<double>(ns) / total : 0; };
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "profile of %zu runs taking %s: the nodes' own times add up to %.1f %% of it\n",
                runs.size(), format_ns(total).c_str(), share(in_nodes));
  out += line;
  std::snprintf(line, sizeof line, "%7s  %9s  %9s  %8s  %-20s %s\n", "share", "total", "mean",
                "calls", "op", "node");
  out += line;
  int64_t rest_ns = 0, rest_rows = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow& r = rows[i];
    if (i >= max_rows) {
      rest_ns += r.self_ns;
      ++rest_rows;
      continue;
    }
    std::snprintf(line, sizeof line, "%5.1f %%  %9s  %9s  %8lld  %-20s %s\n", share(r.self_ns),
                  format_ns(r.self_ns).c_str(), format_ns(r.self_ns / r.calls).c_str(),
                  static_cast<long long>(r.calls), util::printable_name(r.op).c_str(),
                  util::printable_name(r.place).c_str());
    out += line;
  }
  if (rest_rows) {
    std::snprintf(line, sizeof line, "%5.1f %%  %9s  (%lld more nodes)\n", share(rest_ns),
                  format_ns(rest_ns).c_str(), static_cast<long long>(rest_rows));
    out += line;
  }
  return out;
}

std::string profile_json_rows(const std::vector<ProfiledRun>& runs) {
  std::string out = "[";
  for (const ProfileRow& r : profile_rows(runs)) {
    if (out.size() > 1) out += ",\n  ";
    out += "{\"place\": " + util::json_string(r.place) + ", \"op\": " + util::json_string(r.op) +
           ", \"calls\": " + std::to_string(r.calls) +
           ", \"self_ns\": " + std::to_string(r.self_ns) + "}";
  }
  return out + "]";
}

std::string op_summary_table(const std::vector<ProfiledRun>& runs) {
  using namespace profile_op;
  const int64_t total = total_run_ns(runs);
  std::string out = "per operator:\n";
  char line[512];
  std::snprintf(line, sizeof line, "%7s  %9s  %8s  %s\n", "share", "total", "calls", "op");
  out += line;
  for (const exec::OpTotal& op : op_totals_of(runs)) {
    std::snprintf(
        line, sizeof line, "%5.1f %%  %9s  %8lld  %s\n",
        total > 0 ? 100.0 * static_cast<double>(op.self_ns) / static_cast<double>(total) : 0.0,
        format_ns(op.self_ns).c_str(), static_cast<long long>(op.calls),
        util::printable_name(op.op).c_str());
    out += line;
  }
  return out;
}

std::string op_summary_json(const std::vector<ProfiledRun>& runs) {
  using namespace profile_op;
  return exec::op_summary_json(op_totals_of(runs), total_run_ns(runs));
}

std::string chrome_trace(const std::vector<ProfiledRun>& runs) {
  using namespace profile_op;
  std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  const int64_t origin = runs.empty() ? 0 : runs.front().start_ns;
  bool first = true;
  auto event = [&](const std::string& name, const char* category, int64_t ts, int64_t dur,
                   const std::string& args) {
    out += first ? "" : ",\n";
    first = false;
    out += "{\"name\": " + util::json_string(name) + ", \"cat\": \"" + category +
           "\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": " + micros(ts) +
           ", \"dur\": " + micros(dur) + args + "}";
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    const int64_t run_start = runs[i].start_ns - origin;
    event("run " + std::to_string(i + 1), "run", run_start, runs[i].profile.run_ns, "");
    for (const NodeTiming& t : runs[i].profile.nodes)
      event(t.op, "node", run_start + t.start_ns, t.duration_ns,
            ", \"args\": {" + exec::ort_node_args(t) + ", \"node\": " + util::json_string(t.place) +
                ", \"self_us\": " + micros(t.self_ns) + "}");
  }
  out += std::string(first ? "" : ",\n") +
         "{\"name\": \"bough_op_summary\", \"cat\": \"summary\", \"ph\": \"M\", \"pid\": 1, "
         "\"tid\": 1, \"args\": " +
         op_summary_json(runs) + "}";
  return out + "\n]}\n";
}

}  // namespace bough::cli
