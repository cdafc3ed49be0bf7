//===- Passes.td - graph-level passes and lowering -------*- tablegen -*-===//
#ifndef DLC_PASSES_TD
#define DLC_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToLinalg : Pass<"dlc-lower-to-linalg", "mlir::ModuleOp"> {
  let summary = "lower dlc ops to linalg, tensor, arith and math";
  let description = [{
    Every dlc op becomes linalg named ops or `linalg.generic` on tensors;
    the ops with data-dependent result shapes (dlc.nonzero, ...) become
    sequential `scf` loops over tensors of their upper-bound shape, sliced
    to the actual size. Ops with `Dlc_LowersDynamicShapes` (elementwise ops,
    reductions, contractions, convolutions, max pooling, reshapes, ...)
    size dynamic dimensions from their operands at run time; other ops
    with dynamic shapes are rejected with an error at the op (ONNX node)
    location, as is MaxPool's ceil_mode with dynamic shapes. Static
    concatenations that extend one another (each one's inputs a prefix of
    the next one's, along the same axis: a DenseNet block's) are lowered
    together, into one tensor of the last one's shape with each input
    inserted once and the earlier ones its leading slices, instead of each
    copying all the inputs again.
  }];
  let options = [
    Option<"indexChecks", "index-checks", "bool", /*default=*/"false",
           "check run-time indices of Gather, GatherElements and "
           "dlc.check_indices: a dlc.report per op fails the run when an "
           "index is outside its axis (the reads are clamped either way)">
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::scf::SCFDialect", "mlir::affine::AffineDialect"
  ];
}

def CheckBatchIndependence
    : Pass<"dlc-check-batch-independence", "mlir::ModuleOp"> {
  let summary = "prove that a dynamic-batch model treats samples apart";
  let description = [{
    A model imported with a dynamic batch (module attribute
    `dlc.input_batch_axes`) is compiled for one sample and run once per
    sample. This pass proves, on linalg on tensors, that this equals running
    the whole batch: it follows each input's batch axis through `@main` and
    requires every op to keep samples apart.

    - linalg ops: the batch axes of all batched operands are indexed by one
      parallel loop, which indexes one axis of each result and nothing else;
      bodies neither read `linalg.index` of that loop nor capture batched
      tensors.
    - `tensor.expand_shape` / `collapse_shape`: the batch stays the outer
      part of its group; `tensor.pad`, `extract_slice`, `insert_slice` and
      `concat` leave the batch axis whole.
    - `dlc.batch_axis` (set by the import on each node output) fixes the
      batch axis to the one seen at batch 2, or says the output must not
      depend on the batch; the pass erases these hints.
    - Computations whose results only reach run-time checks (`dlc.report`,
      through `tensor.extract` of a flag) may combine samples: a call fails
      when any of its samples does.
    - Any other op on a batched tensor is an error.

    Errors name the op (its location is the ONNX node) and the reason. On
    success the module gets `dlc.output_batch_axes` (-1 where an output does
    not depend on the batch), checked against the axes the import observed
    (`dlc.declared_output_batch_axes`). A module without a dynamic batch is
    left alone.
  }];
}

#endif // DLC_PASSES_TD
