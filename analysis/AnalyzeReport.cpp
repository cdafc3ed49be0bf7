//===- AnalyzeReport.cpp - `dlc analyze --html`: one self-contained page --===//
#include "analysis/AnalyzeReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

using namespace llvm;

namespace {

std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string num(double v) {
  if (v == 0)
    return "0";
  const char *suffix[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  char buffer[32];
  snprintf(buffer, sizeof(buffer), "%.3g", v);
  return std::string(buffer) + suffix[i];
}

/// Colors per kernel class (kernelKindName).
const char *kindColor(StringRef kind) {
  if (kind == "convolution")
    return "#1f77b4";
  if (kind == "contraction")
    return "#ff7f0e";
  if (kind == "reduction")
    return "#2ca02c";
  if (kind == "elementwise")
    return "#d62728";
  if (kind == "data movement")
    return "#9467bd";
  return "#7f7f7f";
}

/// A plot area with log (base 10) or linear axes.
struct Plot {
  double x0, x1, y0, y1; // data ranges (positive for log axes)
  bool xlog, ylog;
  double width = 560, height = 340, left = 70, right = 20, top = 30,
         bottom = 50;
  std::string title, xlabel, ylabel;
  std::string body;

  double px(double x) const {
    double t = xlog ? (std::log10(x) - std::log10(x0)) /
                          (std::log10(x1) - std::log10(x0))
                    : (x - x0) / (x1 - x0);
    return left + t * (width - left - right);
  }
  double py(double y) const {
    double t = ylog ? (std::log10(y) - std::log10(y0)) /
                          (std::log10(y1) - std::log10(y0))
                    : (y - y0) / (y1 - y0);
    return height - bottom - t * (height - top - bottom);
  }
  void line(const std::vector<std::pair<double, double>> &points,
            StringRef color, StringRef cls, bool dashed = false) {
    if (points.empty())
      return;
    std::string d;
    for (auto [x, y] : points)
      d += formatv("{0:f1},{1:f1} ", px(x), py(y)).str();
    body += formatv("<polyline class=\"{0}\" points=\"{1}\" fill=\"none\" "
                    "stroke=\"{2}\" stroke-width=\"2\"{3}/>\n",
                    cls, d, color, dashed ? " stroke-dasharray=\"6,4\"" : "")
                .str();
  }
  void point(double x, double y, StringRef color, StringRef tip) {
    body += formatv("<circle class=\"point\" cx=\"{0:f1}\" cy=\"{1:f1}\" "
                    "r=\"4\" fill=\"{2}\" fill-opacity=\"0.8\"><title>{3}"
                    "</title></circle>\n",
                    px(x), py(y), color, escape(tip))
                .str();
  }
  void label(double x, double y, StringRef text, StringRef color) {
    body += formatv("<text x=\"{0:f1}\" y=\"{1:f1}\" fill=\"{2}\" "
                    "font-size=\"12\">{3}</text>\n",
                    px(x) + 4, py(y) - 4, color, escape(text))
                .str();
  }
  void vline(double x, StringRef color, StringRef text) {
    body += formatv("<line class=\"marker\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                    "x2=\"{0:f1}\" y2=\"{2:f1}\" stroke=\"{3}\" "
                    "stroke-dasharray=\"4,3\"/><text x=\"{4:f1}\" y=\"{5:f1}\" "
                    "fill=\"{3}\" font-size=\"12\">{6}</text>\n",
                    px(x), top, height - bottom, color, px(x) + 4, top + 14,
                    escape(text))
                .str();
  }

  /// Ticks at powers of ten (log) or five even steps (linear).
  std::vector<double> ticks(double lo, double hi, bool log) const {
    std::vector<double> t;
    if (log) {
      for (double p = std::pow(10, std::floor(std::log10(lo)));
           p <= hi * 1.0001; p *= 10)
        if (p >= lo * 0.9999)
          t.push_back(p);
      if (t.size() < 2) {
        t = {lo, hi};
      }
    } else {
      for (int i = 0; i <= 4; ++i)
        t.push_back(lo + (hi - lo) * i / 4);
    }
    return t;
  }

  std::string svg() const {
    std::string s = formatv("<svg class=\"plot\" xmlns=\"http://www.w3.org/"
                            "2000/svg\" width=\"{0}\" height=\"{1}\" "
                            "viewBox=\"0 0 {0} {1}\">\n",
                            width, height)
                        .str();
    s += formatv("<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" "
                 "fill=\"#ffffff\"/>\n",
                 width, height)
             .str();
    s += formatv("<text x=\"{0}\" y=\"18\" font-size=\"14\" "
                 "font-weight=\"bold\">{1}</text>\n",
                 left, escape(title))
             .str();
    double xa = left, xb = width - right, ya = top, yb = height - bottom;
    s += formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                 "fill=\"#fafafa\" stroke=\"#444\"/>\n",
                 xa, ya, xb - xa, yb - ya)
             .str();
    for (double t : ticks(x0, x1, xlog)) {
      double x = px(t);
      s += formatv("<line x1=\"{0:f1}\" y1=\"{1}\" x2=\"{0:f1}\" y2=\"{2}\" "
                   "stroke=\"#ddd\"/><text x=\"{0:f1}\" y=\"{3}\" "
                   "font-size=\"11\" text-anchor=\"middle\">{4}</text>\n",
                   x, ya, yb, yb + 16, num(t))
               .str();
    }
    for (double t : ticks(y0, y1, ylog)) {
      double y = py(t);
      s += formatv("<line x1=\"{0}\" y1=\"{1:f1}\" x2=\"{2}\" y2=\"{1:f1}\" "
                   "stroke=\"#ddd\"/><text x=\"{3}\" y=\"{4:f1}\" "
                   "font-size=\"11\" text-anchor=\"end\">{5}</text>\n",
                   xa, y, xb, xa - 6, y + 4, num(t))
               .str();
    }
    s += formatv("<text x=\"{0:f1}\" y=\"{1}\" font-size=\"12\" "
                 "text-anchor=\"middle\">{2}</text>\n",
                 (xa + xb) / 2, height - 10, escape(xlabel))
             .str();
    s += formatv("<text x=\"14\" y=\"{0:f1}\" font-size=\"12\" "
                 "text-anchor=\"middle\" transform=\"rotate(-90 14 {0:f1})\">"
                 "{1}</text>\n",
                 (ya + yb) / 2, escape(ylabel))
             .str();
    s += body;
    s += "</svg>\n";
    return s;
  }
};

std::optional<double> numberAt(const json::Object *o, StringRef key) {
  if (!o)
    return std::nullopt;
  return o->getNumber(key);
}

/// [lo, hi] widened to whole powers of ten around the positive values.
std::pair<double, double> logRange(const std::vector<double> &values) {
  double lo = INFINITY, hi = 0;
  for (double v : values)
    if (v > 0 && std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!(hi > 0))
    return {1, 10};
  lo = std::pow(10, std::floor(std::log10(lo)));
  hi = std::pow(10, std::ceil(std::log10(hi)));
  if (hi <= lo)
    hi = lo * 10;
  return {lo, hi};
}

/// The roofline of one device: its roof and a point per kernel at its
/// predicted rate.
std::string roofline(const json::Object &device, const json::Array &kernels,
                     StringRef key, StringRef name) {
  double peak = numberAt(device.getObject("flops"), "value").value_or(0);
  double bandwidth =
      numberAt(device.getObject("bandwidth"), "value").value_or(0);
  struct P {
    double intensity, rate;
    std::string tip, kind;
  };
  std::vector<P> points;
  for (const json::Value &v : kernels) {
    const json::Object *k = v.getAsObject();
    std::optional<double> flops = k->getNumber("flops");
    std::optional<double> intensity = k->getNumber("intensity");
    std::optional<double> ms = numberAt(k->getObject(key), "ms");
    if (!flops || !intensity || !ms || *flops <= 0 || *ms <= 0)
      continue;
    std::string nodes;
    if (const json::Array *n = k->getArray("nodes"))
      for (const json::Value &node : *n)
        if (auto s = node.getAsString())
          nodes += (nodes.empty() ? "" : " ") + s->str();
    StringRef kind = k->getString("kind").value_or("other");
    points.push_back({*intensity, *flops / (*ms / 1e3),
                      formatv("kernel {0} ({1}): {2} FLOP/s at {3} FLOP/B; "
                              "{4}",
                              int64_t(k->getNumber("index").value_or(0)), kind,
                              num(*flops / (*ms / 1e3)), num(*intensity), nodes)
                          .str(),
                      kind.str()});
  }
  std::vector<double> xs = {0.01, 1000}, ys = {peak};
  for (const P &p : points) {
    xs.push_back(p.intensity);
    ys.push_back(p.rate);
  }
  auto [x0, x1] = logRange(xs);
  auto [y0, y1] = logRange(ys);
  Plot plot{x0, x1, y0, y1, true, true};
  plot.title = "Roofline: " + name.str();
  plot.xlabel = "arithmetic intensity (FLOP per byte)";
  plot.ylabel = "FLOP/s (predicted)";
  std::vector<std::pair<double, double>> roof;
  for (int i = 0; i <= 60; ++i) {
    double x = x0 * std::pow(x1 / x0, i / 60.0);
    double y = std::min(peak, x * bandwidth);
    if (y >= y0)
      roof.push_back({x, y});
  }
  plot.line(roof, "#000", "roof");
  for (const P &p : points)
    plot.point(p.intensity, p.rate, kindColor(p.kind), p.tip);
  return plot.svg();
}

} // namespace

std::string dlc::renderAnalyzeHtml(const json::Object &report) {
  std::string html;
  raw_string_ostream os(html);
  StringRef model = report.getString("model").value_or("model");
  const json::Object *summary = report.getObject("summary");
  const json::Object *devices = report.getObject("devices");
  const json::Array *kernels = report.getArray("kernels");
  const json::Array *curve = report.getArray("curve");
  const json::Array *batches = report.getArray("batches");
  static const json::Array empty;
  if (!kernels)
    kernels = &empty;
  if (!curve)
    curve = &empty;
  if (!batches)
    batches = &empty;
  const json::Object *cpu = devices ? devices->getObject("cpu") : nullptr;
  const json::Object *cuda = devices ? devices->getObject("cuda") : nullptr;

  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>dlc "
        "analyze: "
     << escape(model) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:24px;color:#222}"
        "h1{font-size:20px}h2{font-size:16px;margin-top:28px}"
        ".plots{display:flex;flex-wrap:wrap;gap:16px}"
        "table{border-collapse:collapse;font-size:12px}"
        "th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}"
        "th{background:#eee;cursor:pointer}td.nodes{text-align:left}"
        ".legend span{display:inline-block;margin-right:12px}"
        ".swatch{display:inline-block;width:10px;height:10px;margin-right:4px}"
     << "\n</style></head><body>\n";
  os << "<h1>dlc analyze: " << escape(model) << "</h1>\n";
  if (summary) {
    os << "<p id=\"verdict\"><b>"
       << escape(summary->getString("verdict").value_or("")) << "</b></p>\n";
    os << "<p>" << num(summary->getNumber("flops").value_or(0))
       << " FLOPs at batch " << int64_t(summary->getNumber("batch").value_or(1))
       << " (2 x " << num(summary->getNumber("macs").value_or(0))
       << " multiply-adds, plus other floating-point operations) in "
       << int64_t(summary->getNumber("kernel_count").value_or(0)) << " kernels";
    if (int64_t unknown = summary->getInteger("unknown_kernels").value_or(0))
      os << "; " << unknown << " kernel(s) with unknown FLOPs not counted";
    os << ". Weights " << num(summary->getNumber("weight_bytes").value_or(0))
       << "B.</p>\n";
  }
  for (auto [d, name] : {std::pair{cpu, "cpu"}, std::pair{cuda, "cuda"}}) {
    if (!d)
      continue;
    os << "<p>" << name << ": " << escape(d->getString("name").value_or(""));
    for (auto [figure, unit] :
         {std::pair{"flops", "FLOP/s"}, std::pair{"bandwidth", "B/s"},
          std::pair{"memory", "B"}, std::pair{"link", "B/s"}})
      if (const json::Object *f = d->getObject(figure))
        os << "; " << figure << " " << num(f->getNumber("value").value_or(0))
           << unit << " (" << escape(f->getString("source").value_or(""))
           << ")";
    if (const json::Object *f = d->getObject("launch"))
      os << "; " << num(f->getNumber("value").value_or(0) * 1e6)
         << " us per kernel (" << escape(f->getString("source").value_or(""))
         << ")";
    os << "</p>\n";
  }

  os << "<div class=\"legend\">";
  for (StringRef kind : {"convolution", "contraction", "reduction",
                         "elementwise", "data movement", "other"})
    os << "<span><span class=\"swatch\" style=\"background:" << kindColor(kind)
       << "\"></span>" << kind << "</span>";
  os << "</div>\n";

  os << "<h2>Rooflines</h2>\n<div class=\"plots\">\n";
  if (cpu)
    os << roofline(*cpu, *kernels, "cpu",
                   "CPU, " + cpu->getString("name").value_or("").str());
  if (cuda)
    os << roofline(*cuda, *kernels, "cuda",
                   "GPU, " + cuda->getString("name").value_or("").str());
  os << "</div>\n";

  // Latency and memory against batch.
  std::vector<std::pair<double, double>> cpuLine, gpuLine, gpuXferLine, memLine;
  for (const json::Value &v : *curve) {
    const json::Object *c = v.getAsObject();
    double b = c->getNumber("batch").value_or(1);
    if (auto ms = c->getNumber("cpu_ms"))
      cpuLine.push_back({b, *ms});
    if (auto ms = c->getNumber("cuda_ms"))
      gpuLine.push_back({b, *ms});
    if (auto ms = c->getNumber("cuda_with_transfers_ms"))
      gpuXferLine.push_back({b, *ms});
    if (auto bytes = c->getNumber("device_memory_bytes"))
      memLine.push_back({b, *bytes});
  }
  std::vector<std::pair<double, double>> measured;
  for (const json::Value &v : *batches) {
    const json::Object *b = v.getAsObject();
    if (auto ms = b->getNumber("cpu_measured_ms"))
      measured.push_back({b->getNumber("batch").value_or(1), *ms});
  }
  os << "<h2>Latency and memory against batch</h2>\n<div class=\"plots\">\n";
  if (!curve->empty()) {
    std::vector<double> xs, ys;
    for (auto *line : {&cpuLine, &gpuLine, &gpuXferLine, &measured})
      for (auto [x, y] : *line) {
        xs.push_back(x);
        ys.push_back(y);
      }
    auto [x0, x1] = logRange(xs);
    auto [y0, y1] = logRange(ys);
    Plot plot{std::max(1.0, x0), x1, y0, y1, true, true};
    plot.title = "Predicted latency per run";
    plot.xlabel = "batch";
    plot.ylabel = "milliseconds";
    plot.line(cpuLine, "#1f77b4", "latency-cpu");
    plot.line(gpuLine, "#2ca02c", "latency-gpu", /*dashed=*/true);
    plot.line(gpuXferLine, "#d62728", "latency-gpu-transfers");
    for (auto [x, y] : measured)
      plot.point(
          x, y, "#000",
          formatv("measured on the CPU: {0:f3} ms at batch {1}", y, x).str());
    if (!cpuLine.empty())
      plot.label(cpuLine.back().first, cpuLine.back().second, "CPU", "#1f77b4");
    if (!gpuXferLine.empty())
      plot.label(gpuXferLine.back().first, gpuXferLine.back().second,
                 "GPU + transfers", "#d62728");
    if (summary)
      if (auto crossover = summary->getNumber("crossover_batch"))
        if (*crossover >= plot.x0 && *crossover <= plot.x1)
          plot.vline(
              *crossover, "#d62728",
              formatv("GPU wins from batch {0}", int64_t(*crossover)).str());
    os << plot.svg();
  }
  if (!memLine.empty() && cuda) {
    double capacity = numberAt(cuda->getObject("memory"), "value").value_or(0);
    std::vector<double> xs, ys = {capacity};
    for (auto [x, y] : memLine) {
      xs.push_back(x);
      ys.push_back(y);
    }
    auto [x0, x1] = logRange(xs);
    auto [y0, y1] = logRange(ys);
    Plot plot{std::max(1.0, x0), x1, y0, y1, true, true};
    plot.title = "GPU memory per run";
    plot.xlabel = "batch";
    plot.ylabel = "bytes";
    plot.line(memLine, "#9467bd", "memory");
    plot.line({{plot.x0, capacity}, {plot.x1, capacity}}, "#000", "capacity",
              /*dashed=*/true);
    plot.label(plot.x0, capacity, "device memory " + num(capacity) + "B",
               "#000");
    if (summary)
      if (auto fit = summary->getNumber("max_batch_fit"))
        if (*fit >= plot.x0 && *fit <= plot.x1)
          plot.vline(
              *fit, "#9467bd",
              formatv("largest batch that fits: {0}", int64_t(*fit)).str());
    os << plot.svg();
  }
  os << "</div>\n";

  // Time by kernel class, per device, at the first batch.
  os << "<h2>Time breakdown (predicted, first batch)</h2>\n";
  for (StringRef key : {"cpu", "cuda"}) {
    if ((key == "cpu" && !cpu) || (key == "cuda" && !cuda))
      continue;
    std::map<std::string, double> byKind;
    double total = 0;
    for (const json::Value &v : *kernels) {
      const json::Object *k = v.getAsObject();
      if (auto ms = numberAt(k->getObject(key), "ms")) {
        byKind[k->getString("kind").value_or("other").str()] += *ms;
        total += *ms;
      }
    }
    double width = 700, x = 0;
    os << formatv("<svg class=\"breakdown\" xmlns=\"http://www.w3.org/2000/"
                  "svg\" width=\"{0}\" height=\"46\">\n<text x=\"0\" y=\"12\" "
                  "font-size=\"12\">{1}: {2:f3} ms in kernels</text>\n",
                  width + 10, key, total)
              .str();
    for (auto [kind, ms] : byKind) {
      double w = total > 0 ? width * ms / total : 0;
      os << formatv("<rect x=\"{0:f1}\" y=\"18\" width=\"{1:f1}\" "
                    "height=\"22\" fill=\"{2}\"><title>{3}: {4:f3} ms "
                    "({5:f1}%)</title></rect>\n",
                    x, w, kindColor(kind), kind, ms,
                    total > 0 ? 100 * ms / total : 0)
                .str();
      x += w;
    }
    os << "</svg>\n";
  }

  // The kernel table, sortable by any column.
  os << "<h2>Kernels</h2>\n<table id=\"kernels\"><thead><tr>";
  std::vector<std::string> columns = {"#", "kind", "FLOPs", "bytes", "FLOP/B"};
  if (cpu) {
    columns.push_back("cpu ms");
    columns.push_back("cpu bound");
  }
  if (cuda) {
    columns.push_back("cuda ms");
    columns.push_back("cuda bound");
  }
  columns.push_back("nodes");
  for (auto [i, c] : llvm::enumerate(columns))
    os << "<th onclick=\"sortTable(" << i << ")\">" << escape(c) << "</th>";
  os << "</tr></thead><tbody>\n";
  for (const json::Value &v : *kernels) {
    const json::Object *k = v.getAsObject();
    auto cell = [&](std::optional<double> value, bool integer = false) {
      if (!value) {
        os << "<td data-v=\"-1\">unknown</td>";
        return;
      }
      os << "<td data-v=\"" << formatv("{0}", *value) << "\">"
         << (integer ? std::to_string(int64_t(*value)) : num(*value))
         << "</td>";
    };
    os << "<tr>";
    cell(k->getNumber("index"), true);
    os << "<td>" << escape(k->getString("kind").value_or("")) << "</td>";
    cell(k->getNumber("flops"));
    cell(k->getNumber("bytes"));
    cell(k->getNumber("intensity"));
    for (StringRef key : {"cpu", "cuda"}) {
      const json::Object *d = k->getObject(key);
      if (!d)
        continue;
      std::optional<double> ms = d->getNumber("ms");
      os << "<td data-v=\"" << formatv("{0}", ms.value_or(-1)) << "\">"
         << (ms ? formatv("{0:f4}", *ms).str() : std::string("?"))
         << "</td><td>" << escape(d->getString("bound").value_or(""))
         << "</td>";
    }
    std::string nodes;
    if (const json::Array *n = k->getArray("nodes"))
      for (const json::Value &node : *n)
        if (auto s = node.getAsString())
          nodes += (nodes.empty() ? "" : " ") + s->str();
    os << "<td class=\"nodes\">" << escape(nodes) << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
  os << R"(<script>
function sortTable(col) {
  const table = document.getElementById('kernels');
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const asc = table.dataset.col == col && table.dataset.dir != 'asc';
  table.dataset.col = col; table.dataset.dir = asc ? 'asc' : 'desc';
  rows.sort((a, b) => {
    const x = a.cells[col], y = b.cells[col];
    const u = x.dataset.v !== undefined ? parseFloat(x.dataset.v) : x.textContent;
    const v = y.dataset.v !== undefined ? parseFloat(y.dataset.v) : y.textContent;
    return (u < v ? -1 : u > v ? 1 : 0) * (asc ? 1 : -1);
  });
  rows.forEach(r => body.appendChild(r));
}
</script>
)";
  os << "<p>Predictions: a roofline per fused kernel with each device's "
        "figures (docs/analyze.md); made by dlc analyze.</p>\n";
  os << "</body></html>\n";
  return html;
}
