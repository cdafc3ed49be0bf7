//===- Diagnostics.cpp - the compiler's errors as values ------------------===//
#include "compiler/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {
/// The parts of an importer location: the file (with a line for textual
/// models) and the ONNX node's name.
struct Where {
  std::string file, node, op;
};
} // namespace

static Where locate(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    Where inner = locate(name.getChildLoc());
    inner.node = name.getName().str();
    // GraphImporter::nodeLoc: the op type as the metadata of the fused
    // location around the file's.
    if (auto fused = dyn_cast<FusedLoc>(name.getChildLoc()))
      if (auto op = dyn_cast_or_null<StringAttr>(fused.getMetadata()))
        inner.op = op.str();
    return inner;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    if (file.getLine() == 0)
      return {file.getFilename().str(), "", ""};
    return {file.getFilename().str() + ":" + std::to_string(file.getLine()), "",
            ""};
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations()) {
      Where w = locate(l);
      if (!w.file.empty() || !w.node.empty())
        return w;
    }
  }
  if (auto callsite = dyn_cast<CallSiteLoc>(loc))
    return locate(callsite.getCallee());
  return {};
}

std::string dlc::CompileError::str() const {
  std::string s;
  if (!file.empty())
    s = file + ": ";
  if (!node.empty())
    s += "node '" + node + "': ";
  s += message;
  for (const std::string &note : notes)
    s += " (" + note + ")";
  return s;
}

dlc::DiagnosticCollector::DiagnosticCollector(MLIRContext &context)
    : context(context) {
  handlerId = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
    if (d.getSeverity() != DiagnosticSeverity::Error)
      return success();
    Where where = locate(d.getLocation());
    CompileError error{where.file, where.node, where.op, d.str(), {}};
    for (Diagnostic &note : d.getNotes())
      error.notes.push_back(note.str());
    collected.push_back(std::move(error));
    return success();
  });
}

dlc::DiagnosticCollector::~DiagnosticCollector() {
  context.getDiagEngine().eraseHandler(handlerId);
}

std::string dlc::DiagnosticCollector::oneLine() const {
  std::vector<std::string> lines;
  for (const CompileError &e : collected)
    lines.push_back(e.str());
  return llvm::join(lines, "; ");
}
