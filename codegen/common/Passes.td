//===- Passes.td - target-independent code generation passes -*- tablegen -*-===//
//
// Passes every target's pipeline runs: the graph-level fusion before tiling,
// the static workspace plan after bufferization, and small lowering helpers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_PASSES_TD
#define DLC_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def MemoryPlan : Pass<"dlc-memory-plan", "mlir::ModuleOp"> {
  let summary = "place all intermediate buffers in one static workspace";
  let description = [{
    Replaces every static `memref.alloc` in a function by a `memref.view` of
    a new trailing `memref<Nxi8>` workspace argument. Buffers whose live
    ranges do not overlap share bytes (first-fit by size). The workspace
    size is recorded as `dlc.workspace_size` on the function, next to
    `dlc.workspace_live_set` (the most bytes alive at one op, the lower
    bound of any plan); after this pass, running the function allocates
    nothing. Buffers sized at run time (the leading elements of a flat
    buffer at its bounds, for symbolic dimensions, when their sizes are
    computable from the arguments) take only the run's bytes: each starts
    right above the buffers planned below it that are live at the same
    time, at their run-time offsets and sizes (computed at the function's
    entry), so the data of a small run stays as compact as a static plan's
    and never leaves the planned workspace. Buffers allocated inside a
    parallel tile loop become
    thread-private stack buffers (`memref.alloca`) instead. Buffers in
    another memory space (a GPU block's shared memory) are left to the
    target. Allocations marked `dlc.host` (a CUDA model's host parts) are
    planned the same way in a second workspace, a `dlc.host_workspace`
    argument after the first (`dlc.host_workspace_size`); functions marked
    `dlc.host_part` are not planned. Run-time checks (`dlc.report`) are numbered from 1 in the
    order of the function; each becomes an `scf.if` that stores its number
    into a 32-bit word of the workspace after the buffers when it fails.
    The function records the word's byte offset as `dlc.check_offset` and
    the checks' messages, in order, as `dlc.checks`. The buffer of clock
    stamps of `dlc-cpu-profile-kernels` (`dlc.profile`) goes after that
    word, its offset recorded as `dlc.profile_offset`.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "byte alignment of every buffer">
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def CarryLoopValuesInPlace
    : Pass<"dlc-carry-loop-values-in-place", "mlir::func::FuncOp"> {
  let summary = "loops write their carried values over the previous ones";
  let description = [{
    Runs on tensors, just before bufferization (tiling would treat a copy's
    destination as any tensor of its shape). Each value an `scf.while`
    carries to its next iteration is materialized in the iteration's own
    carried tensor (`bufferization.materialize_in_destination` into the
    region argument; `eliminate-empty-tensors` then computes it there where
    it can), so that
    bufferization keeps one buffer per carried value for the whole loop,
    and every buffer allocated in the body lives within one iteration: the
    static workspace plan (`dlc-memory-plan`) gives such a buffer one slot,
    reused by each iteration. Function arguments are marked not writable
    (`bufferization.writable = false`): a loop never writes over the
    caller's inputs.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def ZeroSizeTensors : Pass<"dlc-zero-size-tensors", "mlir::func::FuncOp"> {
  let summary = "drop the computation of tensors without elements";
  let description = [{
    Runs on linalg on tensors. A value with a static shape of no elements
    (`tensor<3x0x5xf32>`: an empty slice, a split of size 0) carries no data,
    so whatever computes it is replaced by `tensor.empty`; a linalg op with
    a loop of no iterations (a reduction over an empty axis) by its inits,
    which its body would never update; function
    arguments and results of no elements become `tensor<0xT>` (their
    memrefs would otherwise have degenerate strides that the bare-pointer
    calling convention refuses). The model's declared shapes are kept in
    its description; only the code stops touching memory that is not
    there.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def BoundedArguments : Pass<"dlc-bounded-arguments", "mlir::ModuleOp"> {
  let summary = "read inputs with symbolic dimensions from bounded buffers";
  let description = [{
    Runs on `@main` after the lowering to linalg. An argument with dynamic
    dimensions (symbolic input dimensions compiled as such, whose ranges its
    `dlc.symbolic_dims` attribute declares) becomes a flat static tensor of
    the elements at its upper bounds; one more argument, a `tensor<Kxi64>`,
    holds the run's sizes of all the symbolic dimensions, argument by
    argument (marked `dlc.sizes`: host memory on every target). Each size is clamped to its range (`affine.max`, then
    `affine.min`), which gives the value-bounds analysis its bounds, and the
    argument's uses read the leading elements of the buffer viewed at the
    run's shape (`tensor.extract_slice`, then `tensor.expand_shape`). The
    calling convention then passes static buffers only. A dynamic argument
    without declared ranges is an error.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
}

def BoundedResults : Pass<"dlc-bounded-results", "mlir::ModuleOp"> {
  let summary = "return results of dynamic shape in bounded buffers";
  let description = [{
    Runs on `@main` after the lowering to linalg and
    `dlc-bounded-arguments`. A result of dynamic shape (computed by an op
    whose result size depends on data, such as `dlc.nonzero`, or from inputs
    with symbolic dimensions) becomes a flat static tensor of its upper
    bound's elements that holds the actual elements densely from its start
    (the elements after them are not written: a run writes only what it
    reports); one more result, a `tensor<Kxi64>`, holds the actual
    sizes of all the dynamic dimensions of the results, in order (marked
    `dlc.sizes`: host memory on every target). The bounds
    come from the value-bounds analysis and interval arithmetic
    (codegen/common/Bounds.h); the module's `dlc.output_max_shapes` records
    them per result, for the model's descriptors. The function's interface
    is then static, so the calling convention and the memory plan need no
    dynamic buffers. A dynamic result without known bounds is an error at
    the return.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect"];
}

def ResolveCarriedDims
    : Pass<"dlc-resolve-carried-dims", "mlir::func::FuncOp"> {
  let summary = "size tensors carried by loops from their initial values";
  let description = [{
    Replaces each `tensor.dim` of a tensor carried by a loop (an `scf.for`
    or `scf.while` result or region argument) or computed into a
    destination (chains of `tensor.insert_slice`, of destination-style ops)
    by the index value the tensor was created with, where that value
    dominates the `tensor.dim` (after the lowering to linalg, and again just
    before bufferization, over the tile loops): loops carry values of the
    shapes they came
    in with (the frontend checks it for its loops; tile loops and the loops
    of lowerings insert into theirs). Later analyses then size such tensors
    without going through the loops: bufferization's value-bounds
    comparisons of slices otherwise prove every carried size unchanged
    again at every loop (minutes for a detector's 90 per-class selections
    concatenated).
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def BoundDynamicTensors
    : Pass<"dlc-bound-dynamic-tensors", "mlir::func::FuncOp"> {
  let summary = "allocate dynamic tensors at their upper bounds";
  let description = [{
    Runs on tensors just before bufferization. Each `tensor.empty` with
    dynamic sizes at function level (a whole tensor of symbolic or
    data-dependent size) becomes the leading elements of a flat
    `tensor.empty` of as many elements as its upper bounds give
    (`tensor.extract_slice`), viewed at its shape (`tensor.expand_shape`):
    dense, so that later views of it collapse and expand without copies.
    One inside a loop (a partial tile) becomes the leading
    `tensor.extract_slice` of a `tensor.empty` of its bounds' shape, used in
    place. Bufferization then allocates only static buffers, which the memory plan places in the workspace and
    `run` does not allocate. The bounds come from the value-bounds analysis
    (`affine.min` tiles, clamped sizes, `tensor.dim` of bounded values) and,
    for products and quotients of bounded sizes that it does not handle,
    from interval arithmetic over `arith` ops. A size without a bound is an
    error at the op.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def BoundDynamicAllocs
    : Pass<"dlc-bound-dynamic-allocs", "mlir::func::FuncOp"> {
  let summary = "allocate dynamic buffers at their upper bounds";
  let description = [{
    Runs right after bufferization, which allocates copies of tensors it
    cannot update in place (a value read after its buffer was overwritten):
    of dynamic size when the tensors are. Each `memref.alloc` with dynamic
    sizes (identity layout) becomes a static allocation of as many elements
    as its upper bounds give, viewed densely at its sizes
    (`memref.reinterpret_cast`), so that the memory plan places every
    buffer in the workspace. Bounds as for `dlc-bound-dynamic-tensors`; a
    size without a bound is an error at the allocation.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def DynamicExpandShapes : Pass<"dlc-dynamic-expand-shapes"> {
  let summary = "lower memref.expand_shape with several dynamic sizes";
  let description = [{
    Runs on buffers before `expand-strided-metadata`, which handles at most
    one dynamic size per reassociation group. A `memref.expand_shape` with
    more (a dense buffer of dynamic dimensions viewed at its shape, as
    `dlc-bound-dynamic-tensors` and `dlc-bounded-arguments` make) becomes a
    `memref.reinterpret_cast` of the source's base buffer, with the sizes of
    its `output_shape` and the strides they give within each group. Runs
    on any op: the CUDA pipeline runs it on the module, kernels included.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def DistinctResults : Pass<"dlc-distinct-results", "mlir::func::FuncOp"> {
  let summary = "give each returned buffer its own allocation";
  let description = [{
    Runs after bufferization, before `buffer-results-to-out-params`. A
    buffer returned twice (two model outputs that compute the same value,
    merged by CSE) would become two output parameters of one allocation,
    which that pass does not support (it read the erased allocation). Each
    repeat is copied into a fresh buffer of its own, so every output is
    written where the caller wants it. A returned reshape
    (`collapse_shape`/`expand_shape` of identity layouts) of an allocation
    that no other result uses becomes an allocation of the returned shape,
    the old allocation its inverse reshape, so that
    `buffer-results-to-out-params{hoist-static-allocs}` writes it in place
    instead of copying it.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def CopyToLinalg : Pass<"dlc-copy-to-linalg", "mlir::func::FuncOp"> {
  let summary = "rewrite memref.copy as linalg.copy";
  let description = [{
    `memref.copy` of non-contiguous buffers lowers to a call of MLIR's C
    runner utilities, which generated libraries must not depend on; as
    `linalg.copy` it lowers to loops instead. With `keep-contiguous` (the
    CPU pipeline), copies between contiguous buffers (identity layouts, or
    static contiguous row-major views) stay: they lower to a memcpy; and
    copies between static views whose rows (innermost dimension, at least 8
    elements) are contiguous become loops over the rows, each row such a
    copy (the elementwise loops of `linalg.copy` stay scalar: LLVM cannot
    prove the buffers apart). The GPU pipeline needs every copy as loops,
    which become kernels.
  }];
  let options = [
    Option<"keepContiguous", "keep-contiguous", "bool", "false",
           "leave copies between contiguous buffers (or rows) as memref.copy">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def EraseCopiesInPlace : Pass<"dlc-erase-copies-in-place", "mlir::func::FuncOp"> {
  let summary = "erase buffer copies whose source is their destination";
  let description = [{
    Runs after bufferization. A tile computed in a branch of an `scf.if`
    (the full and the partial tile of a symbolic dimension,
    dlc-cpu-version-partial-tiles) is written in place, into a view of the
    result, in each branch; bufferization still copies the `scf.if`'s
    result into that view, as it cannot prove the branches' views to be
    the destination. A `memref.copy` whose source (through casts and each
    branch of such `scf.if`s) and destination are views of one buffer at
    the same offsets and strides copies memory onto itself (a copy's
    operands have one shape) and is erased.
  }];
}

def FlattenConstantGlobals : Pass<"dlc-flatten-constant-globals", "mlir::ModuleOp"> {
  let summary = "store constant tensors as flat LLVM arrays";
  let description = [{
    A weight tensor lowered as a nested LLVM array (`[64 x [3 x [3 x
    float]]]`) becomes one LLVM constant per innermost row at translation,
    millions for a CNN, which dominates compile time. This pass gives every
    `llvm.mlir.global` holding a dense or dense_resource tensor of rank > 1
    a flat array type and a 1-D value: the bytes and the layout are the same
    (nested arrays of scalars have no padding), and all accesses go through
    its address with explicit offsets.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GroupedConvTaps : Pass<"dlc-grouped-conv-taps", "mlir::func::FuncOp"> {
  let summary = "run grouped convolutions with few filters per group tap by tap";
  let description = [{
    Runs on linalg on tensors, before elementwise fusion. A grouped 2-D
    convolution (`linalg.conv_2d_ngchw_gfchw`, static, floating point) with
    fewer filters per group than `min-filter-lanes` and at most `max-taps`
    input channels per group times window taps becomes one elementwise
    multiply-add per input channel of the group and window tap, in the
    output's [N, G, F/G, OH, OW] form: each reads a strided slice of the
    padded NCHW input (channels j, j + C/G, ...) broadcast along the group's
    filters and the tap's filter values as a [G, F/G] matrix. Elementwise
    fusion merges them into one op that vectorizes along the output
    columns. With `generalize`, the grouped convolutions it leaves become
    `linalg.generic` (for a target without a kernel for the named op).
    The CPU keeps groups of at least 8 filters (a 256-bit vector, or a whole
    vector) as the named op, vectorized along the group's filters
    (RegNetY's groups of 8: docs/performance.md); the CUDA pipeline takes
    every grouped convolution within `max-taps` tap by tap.
  }];
  let options = [
    Option<"minFilterLanes", "min-filter-lanes", "int64_t", /*default=*/"0",
           "grouped convolutions with fewer filters per group than this run "
           "tap by tap (within max-taps)">,
    Option<"maxTaps", "max-taps", "int64_t", /*default=*/"144",
           "the most input channels per group times window taps for the "
           "tap-by-tap form (RegNet's groups of 8 channels by 3x3: 72)">,
    Option<"generalize", "generalize", "bool", /*default=*/"false",
           "turn the grouped convolutions left as named ops into linalg.generic">
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def FuseElementwise : Pass<"dlc-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "fuse elementwise linalg producers into their consumers";
  let description = [{
    Upstream elementwise fusion, restricted to producers whose operands are
    read through projected permutations (plain or broadcast reads): fusing a
    producer that reverses or strides its input into a consumer with
    computed indices (a convolution window) would need a non-invertible
    indexing map. The consumer must also be the producer's only user and
    read each produced element once (a permutation map): otherwise the
    producer's body would be recomputed per use or per reuse. A fusion whose
    result would have more than `max-body-ops` ops in its body is not made:
    each fusion copies the producer's body, so a chain of n elementwise ops
    fused whole costs n^2 / 2 copies (a chain of 20000 Relu nodes took 4
    minutes to compile, 5000 took 7.6 s in this pass).
    A grouped convolution (`linalg.conv_2d_ngchw_gfchw`) keeps its
    neighbours in its [N, G, F/G, OH, OW] form: a generic that initializes
    its accumulator through an expand, and the elementwise ops that read
    its result through a collapse, are expanded to that form (upstream's
    reshape propagation by expansion, restricted to these reshapes), so
    that tiling fuses the bias and the activation into its tiles.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"256",
           "the most ops (with the yield) a fused body may have">
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def ReportKernelCosts : Pass<"dlc-report-kernel-costs", "mlir::func::FuncOp"> {
  let summary = "remark each fused kernel's FLOPs and bytes";
  let description = [{
    Runs the static cost analysis of `dlc analyze` (KernelCosts.h) on linalg
    on tensors and reports each kernel as a remark at its root op: its
    class, FLOPs (2 per multiply-add) and multiply-adds, the bytes of
    activations read, of weights read and of results written, the
    iterations of its parallel loops, and the ONNX nodes it computes; a
    count that cannot be made is reported unknown with the reason. Changes
    nothing; for tests and for reading the analysis.
  }];
}

#endif
