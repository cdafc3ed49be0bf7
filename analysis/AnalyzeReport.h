//===- AnalyzeReport.h - `dlc analyze --html`: one self-contained page
//-*-C++-*-//
#ifndef DLC_ANALYSIS_ANALYZEREPORT_H
#define DLC_ANALYSIS_ANALYZEREPORT_H

#include "llvm/Support/JSON.h"

#include <string>

namespace dlc {

/// The HTML report of an analysis (the JSON report's object, with its
/// `curve`): rooflines per device with a point per kernel, latency and
/// memory against batch, the time breakdown by kernel class, a sortable
/// kernel table. Inline SVG, CSS and script only: no network.
std::string renderAnalyzeHtml(const llvm::json::Object &report);

} // namespace dlc

#endif
