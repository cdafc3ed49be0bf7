//===- Passes.td - CPU code generation passes -------------*- tablegen -*-===//
#ifndef DLC_CODEGEN_CPU_PASSES_TD
#define DLC_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def SelectTiling : Pass<"dlc-cpu-select-tiling", "mlir::func::FuncOp"> {
  let summary = "choose tile sizes for each linalg op (attaches dlc.tile_sizes)";
  let description = [{
    The heuristic only: it attaches a `dlc.tile_sizes` array to each linalg
    op (except fills, which fuse into their consumers) and changes nothing
    else. Tile sizes divide the loop ranges where a good divisor exists;
    otherwise they leave a remainder that `dlc-cpu-tile-and-fuse` splits
    off, so that every tile has a static shape; contractions get an `mr x nr` register block with two
    vectors as `nr` (8 x 2 with 32 vector registers, 6 x 2 with 16) and,
    `dlc.parallel_order` (row blocks innermost) when they reduce over more
    than 32 elements (shorter ones keep their loop order), plus
    `dlc.panel_tile_sizes` (the tile without its rows and reductions) when
    their operand of columns is a computed image read in place, its
    channels outside its pixels (a pointwise convolution's input: each row
    of a tile's panel in another channel plane); 2-D
    convolutions up to 16 output columns by one to four vectors of filters
    (about 24 accumulators; pointwise ones, with 32 registers, as many
    vectors as fit beside their accumulators; filter tiles of whole vectors,
    or of whole half vectors when that divides the filters; a row that only
    a divisor of 3 to 7 divides takes it rather than a remainder), and with
    16 registers the block that fits them with the best rate over the
    whole row (each form's measured rate per accumulator count, the
    remainder tile at its own; a pointwise one's filters may leave a
    remainder of fewer vectors when no activation follows), with
    `dlc.reduction_order` when the window loops go outside an innermost
    channel loop and, for those, `dlc.remainder_tile_sizes` when the
    remainder's few columns leave room for several output rows (a divisor
    of the height); these convolutions are marked `dlc.unfused_inputs`;
    other ops tile their innermost
    parallel loop by the vector width, with at most 64 reduction elements
    per tile (a depthwise convolution, an elementwise op over unit-stride
    slices of one tensor at different rows, also several rows: a divisor
    of the rows with up to a quarter of the registers as accumulators).
    Loops of run-time size (symbolic dimensions) are sized as long
    loops that every tile divides; their partial last tiles are left to
    `dlc-cpu-version-partial-tiles`.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the target's vector registers">,
    Option<"vectorRegisters", "vector-registers", "int64_t", /*default=*/"32",
           "vector registers of the target (32 for AVX-512, 16 for AVX2): "
           "the register blocks of matmuls and convolutions fit in them">
  ];
}

def PackMatmulOperands : Pass<"dlc-cpu-pack-matmul-operands", "mlir::func::FuncOp"> {
  let summary = "pack a large computed matmul B operand into column panels";
  let description = [{
    Rewrites `linalg.matmul` whose B operand is computed (not a constant),
    larger than 512 KiB and whose columns split into panels of two vectors
    (`2 * vector-width`), with at least 64 rows of A: B is copied once into
    a `[N/nr, K, nr]` layout and the matmul becomes a contraction over the
    panels, so that the register-block tiles read each panel contiguously
    instead of down a column strided by a whole row of B (a power of two
    row length puts the whole panel into the same cache sets). The panel
    width is the register block's (`dlc::matmulRegisterBlock`, shared with
    dlc-cpu-select-tiling).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the target's vector registers">,
    Option<"vectorRegisters", "vector-registers", "int64_t", /*default=*/"32",
           "vector registers of the target (the register block)">
  ];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def PointwiseConvs : Pass<"dlc-cpu-pointwise-convs", "mlir::func::FuncOp"> {
  let summary = "1x1 unit-stride convolutions as contractions over pixels, "
                "or as 1-D convolutions over the image as one row";
  let description = [{
    Rewrites a `linalg.conv_2d_nchw_fchw` with a 1x1 window, unit strides and
    rows of whole vectors (output columns a multiple of `vector-width`), or
    images of whole vectors flattened into one row (`flatten-images`; the
    reshapes are then folded through the neighbouring elementwise ops that
    read no strided slices and are not a grouped convolution's accumulator
    or epilogue), as a `linalg.generic` contraction
    `y[n, f, h, w] += x[n, c, h, w] * w[f, c, 0, 0]`, which the tile-size
    heuristic blocks as filters by vectors of output columns: inputs read as
    vectors, weights broadcast, results stored in NCHW order without the
    register transpose that the convolution's filter-vector tiles need.
    Images whose pixels make no whole vectors (7 x 7, 14 x 14; with
    `flatten-images`) become instead a `linalg.conv_1d_ncw_fcw` over the
    image as one row, tiled as a convolution with columns taken from the
    whole image, its constant filters a reshaped constant; they keep the
    2-D form when the filters are not whole vectors or the result is part
    of a concatenation written in place.
    The batch may be a run-time size (a symbolic dimension); the image, the
    channels and the filters must be static. The CPU pipeline resolves the
    `tensor.dim`s of the reshapes' results right after (upstream's
    `resolve-ranked-shaped-type-result-dims`): left in place, a dynamic
    batch's sizes read the contraction's result a second time and keep its
    activation from fusing into its tiles (docs/performance.md has the
    effect on ResNet-50 with a symbolic batch).
    A strided 1x1 convolution (a downsampling shortcut) with static shapes
    first becomes a `linalg.copy` of the strided slice of its input (the
    pixels it reads), made right after the input is computed (so that it
    reads the input before another consumer's padded buffer takes it in),
    and a unit-stride 1x1 convolution of that copy, rewritten as above.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the target's vector registers">,
    Option<"flattenImages", "flatten-images", "bool", /*default=*/"true",
           "flatten images whose rows are not whole vectors into one row: "
           "a contraction when the pixels are whole vectors (28 x 28 with "
           "8 lanes), else a 1-D convolution (7 x 7, 14 x 14)">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def TileAndFuse : Pass<"dlc-cpu-tile-and-fuse", "mlir::func::FuncOp"> {
  let summary = "tile linalg ops by their dlc.tile_sizes and fuse producers";
  let description = [{
    Tiles parallel loops as one `scf.forall` with
    `scf::tileConsumerAndFuseProducersUsingSCF`, fusing fills and
    elementwise producers into the tile (only into the accumulator of ops
    with reductions), then tiles the reduction loops of the tiled op as
    `scf.for`. A parallel tile size that leaves a remainder splits the op
    (`linalg::splitOp`) into whole tiles and a remainder tiled as one piece
    (by `dlc.remainder_tile_sizes` where the op carries them);
    its initial value (a fill, a bias broadcast) and its epilogue (the
    elementwise op marked `dlc.epilogue_tile_sizes`) are split with it, so
    each part still fuses them. An op with `dlc.panel_tile_sizes` is
    first tiled by those (an `scf.forall` over its columns, fusing its
    accumulator and its epilogue; a remainder of rows is split off before
    and reads in place): each tile copies its panel of columns (the operand
    not read along the rows) into a dense buffer, one reduction step at a
    time, and its blocks of rows, their accumulators and their epilogue are
    then tiled in a sequential loop (`scf.for`, `dlc.sequential_tiles`)
    that reads the copy. Tiled ops lose `dlc.tile_sizes`.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def VersionPartialTiles : Pass<"dlc-cpu-version-partial-tiles",
                                "mlir::func::FuncOp"> {
  let summary = "a static-shape copy of the full tiles of loops of run-time size";
  let description = [{
    A tile loop over a dimension of run-time size (a symbolic dimension)
    sizes its tiles by `affine.min(T, n - i)`: T, except for the last
    partial tile. For each tile loop (`scf.forall` or `scf.for`) whose body
    sizes its tiles so, the tile's computation is versioned: when every
    such size equals its constant, a copy computes the tile with the
    constant (static shapes, which the vectorizer takes); otherwise the
    original computes the partial tile, its linalg ops tiled by 1 along
    their loops of run-time size (static single rows, vectorized too). Both
    compute the same values.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def Vectorize : Pass<"dlc-cpu-vectorize", "mlir::func::FuncOp"> {
  let summary = "vectorize tiled linalg ops and lower vector ops for the CPU";
  let description = [{
    Decomposes tiled 2-D convolutions into 1-D ones (one per output row of
    a tile over several rows, sharing the filter reads), vectorizes every linalg
    op inside a tile loop with the upstream linalg vectorizer, turns
    broadcasting reads into explicit broadcasts that fold into
    vector.contract, reads strided along their innermost dimension into a
    contiguous read and a shuffle (a tile's slice of a strided slice merged
    into one first; before folding, so that a copy of a strided slice stays
    a vector copy), and expands math functions into polynomial
    approximations. (Accumulators are hoisted out of the reduction loops
    afterwards by upstream loop-invariant-subset-hoisting.)
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::math::MathDialect",
                           "mlir::ub::UBDialect"];
}

def FoldLoopTransposes : Pass<"dlc-cpu-fold-loop-transposes", "mlir::func::FuncOp"> {
  let summary = "carry loop accumulators in the layout their body uses";
  let description = [{
    A vectorized convolution works in (columns, filters) order while its
    tile is (filters, columns): once the accumulator is hoisted into an
    scf.for iter_arg, every iteration transposes it in and back out. When an
    iter_arg's only use is `vector.transpose` by P and the loop yields
    `vector.transpose` by P^-1, the loop instead carries the transposed
    value: the transposes move to the loop's init and result, where they
    meet their inverses in enclosing loops and cancel.

    It also picks the lanes of loop-carried `vector.contract` accumulators:
    when the innermost dimension does not fill whole vectors (7 output
    columns of a late CNN stage on 16 lanes) and another parallel dimension
    does (the filters), the loop carries the accumulator with that dimension
    innermost, transposed once before and after the loop.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the target's vector registers">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect"];
}

def PackConstantReads : Pass<"dlc-cpu-pack-constant-reads", "mlir::func::FuncOp"> {
  let summary = "store constant tensors in the layout their vector reads use";
  let description = [{
    A vectorized convolution reads 16 filters at a time from an FCHW weight
    tensor: a strided gather of scalars on every step. When every use of a
    constant is a `vector.transfer_read` with the same permutation map
    (vector sizes may differ: a whole part's tiles and its remainder's,
    with the same unit dims) and that map does not already read the largest
    vector dim contiguously (a minor-identity read of `vector<32x1>` down a
    column does not), this pass stores the constant permuted at compile time
    (dims the reads do not vector over first, then the vector dims with the
    largest one innermost) and rewrites each read as a contiguous read plus
    a `vector.transpose` into the original vector order, which folds into
    the consumers' transposes. Dims not read as vectors are ordered by the
    loops that index them (outermost first). When the reads cover the
    innermost dim in aligned vectors and feed contractions, that dim is
    blocked as well (`[N/v, ..., v]`; a remainder part's narrower reads,
    in bounds and starting at a block, read the last block, padded with
    zeros to whole blocks): a
    tile's panel of weights is then contiguous, also for minor-identity
    reads (a matmul's constant B).
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

def OpenMPThreads : Pass<"dlc-cpu-openmp-threads", "mlir::func::FuncOp"> {
  let summary = "run-time thread count and per-thread scratch for OpenMP regions";
  let description = [{
    Runs after `convert-scf-to-openmp` on functions that own a workspace
    (`dlc.workspace` argument). Appends an `i32` argument marked
    `dlc.num_threads` and makes it the `num_threads` of every `omp.parallel`,
    so the caller picks the thread count per model instance (no global
    state). Stack buffers of a parallel tile (`memref.alloca` inside the
    `memref.alloca_scope` the conversion wraps each iteration in) move to
    the start of their `omp.parallel` region: each thread allocates its
    scratch once, not once per iteration, and the scope is inlined.
    Regions whose estimated work is below `min-parallel-work` and whose
    estimated memory traffic is below `min-parallel-memory` do not fork:
    forking and joining would cost more than they save. Such a region that
    is one worksharing loop nest (no reductions or private copies) becomes
    the same loops in sequence (`scf.for`), with its scratch at the start
    of the function, so it does not enter the OpenMP runtime at all (about
    a hundred such regions in a two-layer LSTM took 40 of its 167
    microseconds at batch 8 even as one-thread regions); any other shape
    keeps its region with `num_threads` 1. A region whose loops run over a
    size known only at run time (a symbolic dimension defined before the
    region), whose work is above the thresholds at the top of that size's
    range and below them at the bottom, is decided at run time: the same
    estimate is computed from the sizes before the region, and it forks
    only when that reaches a threshold and the thread count is above one,
    else runs as the same loops in order (a copy of the region's body; a
    region that cannot be made loops gets `num_threads` 1 instead). Work
    is counted in vector operations of the target's width (`vector-width`
    lanes: 16 with AVX-512, 8 with AVX2, where the same tensor work is
    twice the operations and twice the time): each op of a worksharing
    loop's body (a contraction's multiply-adds, a transcendental function's
    polynomial, a vector op's widest operand or result in pieces of
    `vector-width` lanes, a scalar floating-point op) times the
    trip counts of the loops around it. Traffic counts the elements loaded
    and stored, in units of 16 (64 bytes), so a scalar copy counts a
    sixteenth of a vector one. The work threshold (20000, a few
    microseconds of one core) was measured on an LSTM, whose per-step
    matmuls (18304 operations, 1792 loads and stores) hand their results
    between the cores every step: at two threads its batch-8 run took 0.41
    ms before this threshold and 0.20-0.23 ms with it (0.17 ms on one
    thread; session 6, before the sequential loops above).
    The traffic threshold (4096, 256 KB) keeps memory-bound regions such as
    a layer norm over a batch of sequences on both cores (BERT batch 8, two
    threads: -11% against the threshold on work alone).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the target's vector registers: the unit of the work estimate">,
    Option<"minParallelWork", "min-parallel-work", "int64_t", /*default=*/"20000",
           "estimated vector operations (of vector-width lanes) below which a region does not fork (with min-parallel-memory)">,
    Option<"minParallelMemory", "min-parallel-memory", "int64_t", /*default=*/"4096",
           "estimated elements loaded and stored, in units of 16 (64 bytes), from which a region runs on all threads">
  ];
  let dependentDialects = ["mlir::omp::OpenMPDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def PrefetchConstantBlocks : Pass<"dlc-cpu-prefetch-constant-blocks", "mlir::func::FuncOp"> {
  let summary = "prefetch the next block of a packed constant while tiles read this one";
  let description = [{
    Runs on buffers, before `scf.forall` becomes `scf.parallel`. A
    `vector.transfer_read` inside a serial loop of an `scf.forall` tile that
    reads a constant global (identity layout, static shape, at least
    `min-bytes`) whose first index is a block index, the forall induction
    variable `d` divided by its step (or `d` with unit steps), while its
    other indices do not depend on the forall, gets `memref.prefetch`es
    (locality 2: into L2) of the next block: the forall loops inside `d`
    make `R` tiles per block, and tile `r` prefetches, step for step with
    its reads at offset `o` within the block, the line at
    `(block + 1) * B + (r * B + o) / R` of the constant flattened (clamped
    to its last element), so that the R tiles together cover the next
    block once. A read whose share is under a line would prefetch the same
    line step after step: then each tile prefetches its whole share of the
    next block once, in a loop at its start (at most 16 lines; the
    constant's get_global outside the forall), instead of step by step.
    Blocks under `min-block-bytes`, and reads whose share of the next block
    would take more than 4 prefetches, are left alone.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"262144",
           "the smallest constant whose blocks are prefetched">,
    Option<"minBlockBytes", "min-block-bytes", "int64_t", /*default=*/"4096",
           "the smallest block that is prefetched">
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def DecomposePads : Pass<"dlc-cpu-decompose-pads", "mlir::func::FuncOp"> {
  let summary = "materialize tensor.pad as border fills and an insert of the source";
  let description = [{
    Each remaining `tensor.pad` (the zero border of a convolution's input)
    of static shape with a constant value becomes `linalg.fill`s of its
    border slabs (per padded dimension, the low and the high slab) and a
    `tensor.insert_slice` of its source into the interior; other pads a
    fill of the whole padded shape and the insert. Empty-tensor elimination
    then lets the source's producer write straight into the interior of the
    padded buffer: the copy of the whole activation into a padded buffer
    disappears, and the interior is not zeroed before it is written.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FillBordersOnce : Pass<"dlc-cpu-fill-borders-once", "mlir::func::FuncOp"> {
  let summary = "keep padded buffers in the model's state, their borders filled on the first call";
  let description = [{
    After bufferization, a padded buffer of `@main` (an allocation whose
    border slabs `dlc-cpu-decompose-pads` fills with a constant, marked
    `dlc.pad_border`) whose borders nothing else writes (every other write
    goes through a static subview clear of the borders: the interior its
    producer writes) becomes a view of a new trailing argument marked
    `dlc.state`, the model's state, which the runtime allocates zeroed at
    create and keeps for the instance's life. Its border fills move into an
    `scf.if` at the entry that runs while the state's first word is 0 and
    sets it to 1. Buffers with the most border per byte go first, within
    `max-state-bytes` (the first word included); `@main` gets
    `dlc.state_size`.
  }];
  let options = [
    Option<"maxStateBytes", "max-state-bytes", "int64_t",
           /*default=*/"2 << 20",
           "the most bytes of state (padded buffers out of the workspace)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def InsertParts : Pass<"dlc-cpu-insert-parts", "mlir::func::FuncOp"> {
  let summary = "insert a split op's parts directly where the joined value goes";
  let description = [{
    A value joined from parts (`tensor.insert_slice`s of each part of a
    split op into a `tensor.empty`, read only by the next) that is itself
    inserted into a larger tensor (a concatenation, the interior of a
    padded buffer) has each part inserted there instead, at the composed
    offsets. Empty-tensor elimination then has each part's producer write
    its slice of the larger buffer in place; the joined value would
    otherwise keep a buffer of its own and be copied.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def WidenPartialVectors : Pass<"dlc-cpu-widen-partial-vectors",
                                "mlir::func::FuncOp"> {
  let summary = "access vectors of a length not a power of two as masked "
                "whole ones";
  let description = [{
    A contiguous in-bounds 1-D read or write of n elements, n not a power of
    two (a row of 7, 14 or 28 columns), would be split by LLVM into pieces
    of 4, 2 and 1 elements joined by inserts (about five instructions for a
    row of 7, at every tap of a depthwise convolution). Such a read becomes
    a masked load of the next power of two with the first n lanes enabled
    (one `vmovups` with a mask register on AVX-512, one `vmaskmovps` on
    AVX2), and, where the target's masked stores are fast (AVX-512), such a
    write a masked store. Masked-off lanes are not accessed, so nothing past
    the n elements is read or written. Left plain: accesses of a tile's
    stack scratch (which LLVM promotes to registers), reads only split into
    lanes (a row broadcast pixel by pixel, which LLVM turns into scalar
    loads) or inside a loop carrying accumulators, and a view's write that
    the same block reads back or read that follows a write of it in the
    same block (which LLVM forwards).
  }];
  let options = [
    Option<"maskedLoads", "masked-loads", "bool", /*default=*/"true",
           "the target has fast masked vector loads (AVX and later)">,
    Option<"maskedStores", "masked-stores", "bool", /*default=*/"true",
           "the target has fast masked vector stores (AVX-512; AVX2's "
           "vmaskmovps stores are microcoded on AMD cores)">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

def ParallelCopies : Pass<"dlc-cpu-parallel-copies", "mlir::func::FuncOp"> {
  let summary = "copies as parallel loops over rows, border fills as one loop over channels";
  let description = [{
    A copy left after bufferization outside any tile loop (an activation
    into the interior of a padded buffer, when its producer could not write
    there: a pointwise convolution computed on collapsed pixels) would run
    on one thread while the others wait, reading the half of the data that
    the other threads wrote, and leave the copy in that thread's cache for
    the consumer's tiles on the other threads. Each such copy of a static
    shape with at least `min-elements` elements whose rows (of at least 16
    elements) are contiguous on both sides becomes an `scf.forall` over its
    rows (all dimensions but the innermost), each iteration copying one
    row; dlc-cpu-openmp-threads then
    decides whether the loop is worth the threads, as for any tile loop.
    The rows are split between threads in the order of the outer
    dimensions (the channels of an NCHW activation), as its producer's and
    its consumer's channel tiles are.

    The fills of a padded buffer's borders (`dlc-cpu-decompose-pads` makes
    one per padded side: the top and bottom rows, the left and right
    columns), adjacent and outside any tile loop, with at least
    `min-elements` elements together, become one `scf.forall` over the
    leading dimensions that every one of them covers whole (batch and
    channels), each iteration filling its slice of each in the original
    order: one pass over the buffer, channel by channel, instead of four
    (the columns touch a cache line of every row), and where
    dlc-cpu-openmp-threads lets it fork, each thread zeroes the borders of
    the channels whose interior its tiles write. Measured on MobileNetV3,
    MNASNet and EfficientNet-B0 (docs/performance.md).
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"4096",
           "the smallest copy made parallel">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect"];
}

def ProfileKernels : Pass<"dlc-cpu-profile-kernels", "mlir::func::FuncOp"> {
  let summary = "time every kernel of the entry function (dlc bench --profile)";
  let description = [{
    Runs on memrefs, after bufferization and before `dlc-memory-plan`. The
    kernels of a public function are its top-level ops that compute: each
    loop nest or other op with regions, linalg op or copy on its own, and
    each run of straight-line vector and memory ops between them as one.
    Before the first kernel and after each, the function stores
    `dlcrt_profile_clock()` (the runtime's monotonic clock, nanoseconds)
    into a buffer of one 64-bit word per stamp, allocated with the unit
    attribute `dlc.profile`; `dlc-memory-plan` places it after the other
    buffers and records its offset as `dlc.profile_offset`. Kernel i takes
    stamp i + 1 minus stamp i. The function records the ONNX nodes of each
    kernel (from the locations of the ops in it, space-separated) as
    `dlc.profile_kernels`.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::func::FuncDialect",
                           "mlir::arith::ArithDialect"];
}

def LowerVectors : Pass<"dlc-cpu-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "lower n-D vector ops to forms the LLVM conversion accepts";
  let description = [{
    The contractions of a convolution tile's window taps become FMAs in
    input-column order (codegen/cpu/SlidingWindowFMAs.cpp); other
    contractions become outer products (FMAs), multi-reductions become
    elementwise ops across the parallel lanes, transposes shuffles; masks,
    broadcasts, shape casts and transfers with permutation maps are lowered.
    With `scalar-element-loads`, a vector read of a memref whose every use
    takes out one element (the input columns an outer product broadcasts)
    becomes one scalar load per element at the read's place
    (codegen/cpu/ScalarElementLoads.cpp), which x86 broadcasts straight
    from memory:
    LLVM otherwise splits a read of 6 columns into 4 + 2 lanes and
    broadcasts the last two from a register through a permute whose index
    vector takes a register of its own (a 2 x 6 tile's 16th).
  }];
  let options = [
    Option<"scalarElementLoads", "scalar-element-loads", "bool",
           /*default=*/"false",
           "read elements that are only extracted as scalar loads (x86, "
           "whose broadcasts take a memory operand; NEON's FMAs take a "
           "lane of a register instead)">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif
