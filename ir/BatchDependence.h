//===- BatchDependence.h - why samples are not proven apart ------*- C++
//-*-===//
//
// The dynamic-batch checks (at import, frontend/, and in
// dlc-check-batch-independence, passes/) refuse a model whose samples they
// cannot prove independent. Each refusal is an error for the user, which
// advises fixing the batch, and a value for the compiler, which also runs
// the checks on a static batch made symbolic (to split it into sub-batches)
// and reports the finding without that advice.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_IR_BATCHDEPENDENCE_H
#define DLC_IR_BATCHDEPENDENCE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/Twine.h"

#include <functional>
#include <string>

namespace dlc {

/// A finding of the dynamic-batch checks: where (the ONNX node's location)
/// and what, without the advice of the user-facing message.
struct BatchDependence {
  mlir::Location loc;
  std::string finding;
};

/// Receives the findings (ImportOptions::onBatchDependence, and the sink of
/// createCheckBatchIndependence).
using BatchDependenceSink = std::function<void(const BatchDependence &)>;

/// How the user-facing message goes on after the finding.
enum class BatchAdvice {
  /// "; a dynamic-batch model runs one sample at a time and cannot compute
  /// it. Fix the batch with --dim D=SIZE"
  CannotCompute,
  /// "; a dynamic-batch model runs one sample at a time. Fix the batch with
  /// --dim D=SIZE"
  OneSample,
  /// ". Fix the batch with --dim D=SIZE"
  Fix,
  /// "; fix the batch with --dim D=SIZE"
  FixLater,
};

/// Completes the error `diag` (emitted at `loc` or its op): "dynamic batch
/// 'D': " first when `prefixed`, then `finding`, then the advice; hands the
/// finding to `sink` if set. Returns failure.
inline mlir::LogicalResult
reportBatchDependence(mlir::InFlightDiagnostic diag, mlir::Location loc,
                      llvm::StringRef dim, const llvm::Twine &finding,
                      BatchAdvice advice, bool prefixed,
                      const BatchDependenceSink &sink) {
  std::string what = finding.str();
  if (sink)
    sink(BatchDependence{loc, what});
  if (prefixed)
    diag << "dynamic batch '" << dim << "': ";
  diag << what;
  switch (advice) {
  case BatchAdvice::CannotCompute:
    diag << "; a dynamic-batch model runs one sample at a time and cannot "
            "compute it. Fix the batch with --dim ";
    break;
  case BatchAdvice::OneSample:
    diag << "; a dynamic-batch model runs one sample at a time. Fix the "
            "batch with --dim ";
    break;
  case BatchAdvice::Fix:
    diag << ". Fix the batch with --dim ";
    break;
  case BatchAdvice::FixLater:
    diag << "; fix the batch with --dim ";
    break;
  }
  diag << dim << "=SIZE";
  return mlir::failure();
}

} // namespace dlc

#endif
