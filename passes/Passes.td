//===- Passes.td - graph-level passes and lowering -------*- tablegen -*-===//
#ifndef DLC_PASSES_TD
#define DLC_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToLinalg : Pass<"dlc-lower-to-linalg", "mlir::ModuleOp"> {
  let summary = "lower dlc ops to linalg, tensor, arith and math";
  let description = [{
    Every dlc op becomes linalg named ops or `linalg.generic` on tensors.
    Ops with dynamic shapes are rejected with an error at the op (ONNX node)
    location.
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect", "mlir::math::MathDialect"
  ];
}

#endif // DLC_PASSES_TD
