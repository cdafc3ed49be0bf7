//===- Diagnostics.cpp - user-facing error messages -----------------------===//
#include "tools/driver/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// "file: node 'name'" for the importer's locations.
static std::string describe(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    std::string inner = describe(name.getChildLoc());
    std::string node = "node '" + name.getName().str() + "'";
    return inner.empty() ? node : inner + ": " + node;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (file.getLine() == 0)
      return file.getFilename().str();
    return file.getFilename().str() + ":" + std::to_string(file.getLine());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations()) {
      std::string s = describe(l);
      if (!s.empty())
        return s;
    }
  }
  if (auto callsite = dyn_cast<CallSiteLoc>(loc))
    return describe(callsite.getCallee());
  return "";
}

dlc::DiagnosticCollector::DiagnosticCollector(MLIRContext &context)
    : context(context) {
  handlerId = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
    if (d.getSeverity() != DiagnosticSeverity::Error)
      return success();
    std::string where = describe(d.getLocation());
    std::string msg = d.str();
    for (Diagnostic &note : d.getNotes())
      msg += " (" + note.str() + ")";
    messages.push_back(where.empty() ? msg : where + ": " + msg);
    return success();
  });
}

dlc::DiagnosticCollector::~DiagnosticCollector() {
  context.getDiagEngine().eraseHandler(handlerId);
}

std::string dlc::DiagnosticCollector::oneLine() const {
  return llvm::join(messages, "; ");
}
