//===- Passes.td - CUDA code generation passes ------------*- tablegen -*-===//
#ifndef DLC_CODEGEN_GPU_PASSES_TD
#define DLC_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def HostAbi : Pass<"dlc-gpu-host-abi", "mlir::ModuleOp"> {
  let summary = "give the bufferized entry the CUDA host ABI";
  let description = [{
    Runs after the memory plan. Every constant `memref.global` the entry
    reads is placed in one byte array, `@dlc_constants` (each tensor at a
    256-byte aligned offset), which the runtime uploads to the device once
    at create; reads of a global become views of a new `dlc.constants`
    argument that points at the device copy; in host parts
    (`dlc.host_part` functions) they become views of `@dlc_constants`
    itself, the library's host copy. A `!llvm.ptr` argument marked
    `dlc.cuda_context` is appended last (not to host parts): the runtime's
    launch context, which kernel launches are issued through.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::arith::ArithDialect"];
}

def GpuConvToGemm : Pass<"dlc-gpu-conv-to-gemm", "mlir::func::FuncOp"> {
  let summary = "2-D convolutions as implicit GEMMs (im2col fused per K step)";
  let description = [{
    A `linalg.conv_2d_nchw_fchw` with constant f32 weights becomes the
    contraction `y'[n, f, p] += W'[k, f] * col[n, k, p]` over flattened
    pixels `p` and `k = (c, kh, kw)`: the weights are re-laid at compile
    time into `[C*KH*KW, F]` (a K step's tile is contiguous along the
    filters), `col` is the input itself for a 1x1 unit-stride convolution
    and otherwise an im2col `linalg.generic` that reads the unpadded input at
    computed indices (a constant `tensor.pad` is folded into its bounds
    checks). `dlc-gpu-tile-and-fuse` computes the im2col's tile of each K
    step straight into shared memory, so it is never materialized. The
    pixels' reshapes are moved through the elementwise ops around the
    convolution (bias, activations, residual adds) so that they fuse into
    its kernel.

    In a batch (N > 1) whose images' output pixels P are not a multiple of
    `image-pixel-tile`, the batch's pixels are the GEMM's columns instead:
    `g[f, n * P + p] += W'[k, f] * col[k, n * P + p]` from zero (an im2col
    for 1x1 convolutions too), and one elementwise op writes
    `y[n, f, p] = g[f, n * P + p] + init[n, f, p]`; the bias broadcast and
    the elementwise epilogues (single uses) are fused into it. The tiles are then those of a plain MatMul rather
    than divisors of P.
  }];
  let options = [
    Option<"imagePixelTile", "image-pixel-tile", "int64_t", /*default=*/"64",
           "a batched convolution whose pixels per image this does not divide "
           "takes the batch's pixels as the GEMM's columns (0: never)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def GpuSelectPlacement : Pass<"dlc-gpu-select-placement", "mlir::ModuleOp"> {
  let summary = "choose the device of each kernel of a CUDA model (attaches #dlc.placement)";
  let description = [{
    The CUDA target's placement heuristics, apart from the transformations.
    Runs on linalg on tensors after the shared front; the kernels are those
    of `analyzeKernelCosts` (a root with the producers and epilogues fused
    with it). A kernel can run on the CPU (a host part of the model) when
    it sits at the top level of the entry and is made of linalg ops with
    static shapes; every op of a kernel placed there gets
    `#dlc.placement<cpu, reason, cpu_seconds, gpu_seconds>`, the others
    none (the GPU).

    `mode=gpu` (the default) places on the CPU only the kernels that
    compute a node named in `cpu-nodes`; `mode=auto` also asks the cost
    model (CostModel.h: each kernel's roofline time on the CPU and on the
    GPU) and minimizes the run's predicted time, transfers included: a
    tensor crossing between the devices costs its bytes over `link-gbps`
    plus `link-latency-us` (the graph's inputs and results are in host
    memory; constants are on both). The minimum is a minimum cut of the
    kernels' graph (source: the CPU, sink: the GPU), so that an infinitely
    fast link gives each kernel its faster device, and a link without
    bandwidth puts everything on the CPU. `mode=off` (`--placement
    cpu-fallback-off`) places nothing on the CPU and refuses `cpu-nodes`.
    A node of `cpu-nodes` that no kernel computes, or whose kernel cannot
    run on the CPU, is an error naming it.

    Figures: the CPU's from `cpu-gflops` and `cpu-gbps` (0: an estimate
    for this host, one thread), the GPU's from the datasheet of `gpu`
    unless `gpu-gflops`, `gpu-gbps`, `gpu-saturation` (work items to fill
    it) or `launch-us` are given.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"gpu\"",
           "auto, gpu or off">,
    ListOption<"cpuNodes", "cpu-nodes", "std::string",
               "ONNX nodes whose kernels run on the CPU">,
    Option<"gpuName", "gpu", "std::string", /*default=*/"\"h100\"",
           "the GPU whose datasheet gives the figures not given">,
    Option<"cpuGflops", "cpu-gflops", "double", /*default=*/"0", "">,
    Option<"cpuGbps", "cpu-gbps", "double", /*default=*/"0", "">,
    Option<"gpuGflops", "gpu-gflops", "double", /*default=*/"0", "">,
    Option<"gpuGbps", "gpu-gbps", "double", /*default=*/"0", "">,
    Option<"gpuSaturation", "gpu-saturation", "double", /*default=*/"0", "">,
    Option<"launchUs", "launch-us", "double", /*default=*/"-1", "">,
    Option<"linkGbps", "link-gbps", "double", /*default=*/"-1",
           "host link bandwidth (inf: free transfers; 0: none)">,
    Option<"linkLatencyUs", "link-latency-us", "double", /*default=*/"-1", "">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "a remark per kernel: its predicted times alone and its device">
  ];
  let dependentDialects = ["dlc::DlcDialect"];
}

def GpuOutlineHostParts : Pass<"dlc-gpu-outline-host-parts", "mlir::ModuleOp"> {
  let summary = "a CUDA model's kernels placed on the CPU as host functions";
  let description = [{
    Runs on the bufferized entry, before the memory plan. Each run of ops
    placed on the CPU (`#dlc.placement<cpu, ...>`, at the entry's top
    level, with only views, constants and allocations between them) becomes
    a call of a
    new private function `@<entry>_host_part<k>` (`dlc.host_part`) whose
    linalg ops are sequential loops, on host buffers:

    - a buffer that only host parts touch becomes a host buffer itself
      (its `memref.alloc` marked `dlc.host`, planned by `dlc-memory-plan`
      in the host workspace);
    - a buffer that device code or the caller touches gets a host copy
      (another `dlc.host` allocation): a `dlc.transfer ... to cpu` before
      the part when the part reads it and the host copy is not current
      (device code touched the buffer since the last transfer, or there was
      none), a `dlc.transfer ... to gpu` after the part when it writes it;
      a part that overwrites a whole buffer does not read it first;
    - constants are read from the library's own copy (`dlc-gpu-host-abi`),
      with no transfer.

    The entry records its host parts (`dlc.host_parts`: the function, the
    ONNX nodes, the placements) and the bytes its transfers move per run
    (`dlc.bus_bytes_to_host`, `dlc.bus_bytes_to_device`), for `dlc
    compile`'s report.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect",
                           "dlc::DlcDialect"];
}

def GpuLowerTransfers : Pass<"dlc-gpu-lower-transfers", "mlir::func::FuncOp"> {
  let summary = "dlc.transfer to the runtime's dlcrt_cuda_read and dlcrt_cuda_write";
  let description = [{
    Runs after `dlc-gpu-host-abi`, on host code: `dlc.transfer %d to cpu, %h`
    becomes `dlcrt_cuda_read(ctx, h, d, bytes)` (waits for the kernels
    before it), `dlc.transfer %h to gpu, %d` becomes
    `dlcrt_cuda_write(ctx, d, h, bytes)` (queued on the model's stream),
    with the buffers' aligned pointers and the entry's launch context
    (`dlc.cuda_context`).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def GpuSelectStrategy : Pass<"dlc-gpu-select-strategy", "mlir::func::FuncOp"> {
  let summary = "choose each GPU kernel's tiling (attaches #dlc.gpu_config)";
  let description = [{
    The CUDA target's heuristics, apart from the transformations: every
    linalg op except fills gets a `#dlc.gpu_config` (ops fused into another
    kernel lose theirs in `dlc-gpu-tile-and-fuse`). Elementwise ops
    (`elementwise`): one thread per `vector-width` elements of the innermost
    loop when the output is contiguous along it (16-byte accesses), about
    `max-threads` threads per block, the block's tile grown from the
    innermost loop outwards so that neighbouring threads touch neighbouring
    elements. Contractions in f32 with m, n and k of at least 8, 8 and 4
    (`contraction`): blocks of BM x BN outputs (divisors of the loops up to
    128 x 128: the largest that still give `min-blocks` / 2 blocks), TM x TN
    per thread (up to 8 x 8, in registers, 32 to 256 threads), K steps of
    16 staged in shared memory (two in flight where there are two or more,
    each thread taking 2 rows of a step at a time; else 4).
    Where an operand is gathered (an im2col, staged through registers), at
    most 128 threads if that still gives tiles of 128 x 64 or at most
    `min-blocks` blocks; otherwise the wider tile with one K step in flight.
    Reductions of at least 32 elements per output over the innermost loop,
    with one combiner that has a neutral element (`reduction`: sums, maxima,
    the rows of a softmax or layer norm, a global average pool): one warp
    per output, its lanes striding over the row and combining by warp
    shuffles, up to 8 warps per block.
    Other ops with reductions (`window`: pooling, depthwise
    convolutions, short reductions): the same over the parallel loops, each
    thread reducing its outputs' windows sequentially.
    Contraction configs take `precision` (the `--gpu-precision` of dlc);
    other kinds stay f32. With `tensor-cores`, a tf32 contraction whose
    innermost m, n and k are multiples of 16, 8 and 8 runs on tensor cores
    (`mma = [16, 8, 8]`): blocks of BM x BN as above (multiples of the warp
    tile, 1 to 8 warps), each warp a WM x WN tile (32 x 32 down to 16 x 8)
    of `mma.sync.m16n8k8` instructions, K steps of 16 (8 where K is not a
    multiple of 16). An fp16 contraction whose m, n and k are multiples of
    16, 8 and 16 does the same with `mma.sync.m16n8k16` (`mma = [16, 8,
    16]`, K steps of 32 or 16), its operands staged in fp16. bf16 stays on CUDA cores (upstream's
    nvgpu conversion takes no bf16 fragments). With `warpgroups` (sm_90a),
    such a contraction whose m is also a multiple of 64 (bf16 too, with k a
    multiple of 16) runs on Hopper's warpgroup instructions (`mma = [64,
    BN, 8]` or `[64, BN, 16]`): blocks
    of one or two warpgroups (64 or 128 rows) by BN columns (a divisor of
    n, multiple of 8, up to 128), each warp 16 rows of its group's
    `wgmma.m64nBN` instructions, K steps of 32 (16 where K does not
    allow).
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"256",
           "threads per block of elementwise and window kernels">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"4",
           "elements per thread along a contiguous innermost loop">,
    Option<"minBlocks", "min-blocks", "int64_t", /*default=*/"264",
           "blocks a contraction's tiles should give at least (two per SM of "
           "a 132-SM H200)">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f32\"",
           "the precision of contraction kernels: f32, tf32, f16 or bf16 "
           "(operands rounded, f32 accumulation)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "run tf32 contractions that fit on tensor cores (mma.sync)">,
    Option<"warpgroups", "warpgroups", "bool", /*default=*/"false",
           "Hopper (sm_90a): run tensor-core contractions whose m is a "
           "multiple of 64 as warpgroup instructions (wgmma)">
  ];
  let dependentDialects = ["::dlc::DlcDialect"];
}

def GpuTileAndFuse : Pass<"dlc-gpu-tile-and-fuse", "mlir::func::FuncOp"> {
  let summary = "GPU kernels as block and thread foralls on tensors";
  let description = [{
    For each op with a `#dlc.gpu_config`, consumers first: tiles it by the
    config's `workgroup` sizes into an `scf.forall` mapped to blocks
    (`#gpu.block<linear_dim_*>`), fusing fills and elementwise producers
    used only inside the tile (into ops with reductions, only their
    accumulators); then tiles the root's tile by the `thread` sizes into an
    `scf.forall` mapped to threads (`#gpu.thread<linear_dim_*>`), fusing the
    block's producers into each thread's tile. Ops the root's threads did
    not take in get thread foralls of their own, at most `max-threads`
    tiles. Each block forall becomes one kernel. A contraction whose config
    has `mma` has its K step's tiles mapped to warps
    (`#gpu.warp<linear_dim_*>`), and the ops around it (fills, epilogues)
    are spread over the block's threads. With warpgroup instructions
    (`mma` m = 64), both operands are staged K innermost, the copies and
    gathers into them write at most 16 bytes of K per thread, and tf32
    operands are staged rounded to tf32.
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"256",
           "threads for the ops of a block that the root's threads do not take in">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect", "mlir::gpu::GPUDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::linalg::LinalgDialect"];
}

def GpuVectorize : Pass<"dlc-gpu-vectorize", "mlir::func::FuncOp"> {
  let summary = "vectorize the linalg ops of the threads' tiles";
  let description = [{
    Every linalg op inside a thread forall with a static shape is vectorized
    by the upstream linalg vectorizer (a thread's 4 contiguous elements
    become one 16-byte transfer); ops it does not take (gathers, windows)
    stay and become loops, as do ops whose tile has more than `max-volume`
    iterations or reduces more than `max-volume` elements (a thread's long
    reduction) or, for a contraction's K step, more than
    `max-contraction-volume` iterations. Ops on booleans stay scalar too:
    vectors of i1 are bit-packed in memory, boolean tensors hold a byte per
    element. Transfer permutation maps are lowered. A tensor-core kernel's
    K step (a warp forall under a K loop whose config has `mma`) is
    vectorized whole, its unit batch dims dropped first, and its
    contraction, operand reads and accumulator read and write are unrolled
    to the instruction's shape; each piece carries the config for
    `dlc-gpu-vector-to-mma`.
  }];
  let options = [
    Option<"maxVolume", "max-volume", "int64_t", /*default=*/"64",
           "largest iteration space of a thread's tile that is vectorized">,
    Option<"maxContractionVolume", "max-contraction-volume", "int64_t",
           /*default=*/"2048",
           "largest K step of a thread (TM x TN x BK) that is vectorized">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect"];
}

def GpuRoundOperands : Pass<"dlc-gpu-round-operands", "mlir::func::FuncOp"> {
  let summary = "round contraction operands to the kernel's precision";
  let description = [{
    In a contraction kernel whose `#dlc.gpu_config` (on its K loop) has a
    precision below f32, the operands of each K step's compute (a thread's
    `vector.contract`, or the body of a K-step linalg op left unvectorized)
    are rounded to that precision and kept in f32, so that the multiply-adds
    (in f32, accumulating in f32) see the values a tensor core would:
    `tf32` rounds to 10 mantissa bits to nearest with ties away from zero
    (`cvt.rna.tf32.f32`: add 2^12 to the bits, clear the low 13), `bf16` to
    7 bits with ties to even, `f16` through `arith.truncf` (range and
    subnormals of f16: overflow gives infinities). NaNs stay NaNs. Ops
    outside contraction K loops (bias, epilogues, reductions) stay in f32.
    Tensor-core kernels (`mma` in the config) are left alone: their
    fragments are rounded by `dlc-gpu-vector-to-mma`, their fp16 operands
    when staged.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def GpuMapForall : Pass<"dlc-gpu-map-forall", "mlir::func::FuncOp"> {
  let summary = "bufferized block and thread foralls to gpu.launch";
  let description = [{
    Every block forall (static bounds, bufferized) becomes a `gpu.launch`
    of one block per iteration (a 1-D grid, the block id delinearized over
    the loops, `linear_dim_0` fastest) and as many threads as its largest
    thread forall has iterations, in whole warps. The thread foralls inside
    are mapped to thread ids by upstream `mapNestedForallToThreadsImpl`
    (guarded where a forall has fewer iterations than the block threads,
    with a barrier after each), and views and scalars are sunk into the
    launch so that kernels take whole buffers.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::affine::AffineDialect",
                           "mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def GpuLowerWarpReductions : Pass<"dlc-gpu-lower-warp-reductions", "mlir::func::FuncOp"> {
  let summary = "a warp's reduction over its lanes, combined by shuffles";
  let description = [{
    Runs on the mapped kernels. Each linalg.generic keeping a `reduction`
    `#dlc.gpu_config` (a warp's tile of a reduction kernel: one output,
    run by all 32 lanes) becomes: lane l folds elements l, l + 32, ... of
    the reduced loops into a partial result that starts at the combiner's
    neutral element (coalesced reads across the lanes), five `gpu.shuffle
    xor` steps combine the partial results, and lane 0 combines the total
    with the output's initial value and stores it (every lane, when the
    output is a private buffer: a row kernel's reduced value). One keeping
    the config without a reduction loop (a row kernel's op over the row)
    has lane l compute its elements l, l + 32, ... 64-bit shuffles become
    pairs of 32-bit ones.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
}

def GpuHoistAccumulators : Pass<"dlc-gpu-hoist-accumulators", "mlir::func::FuncOp"> {
  let summary = "keep each thread's accumulator tile in registers across K steps";
  let description = [{
    Runs on the mapped kernels, before vector lowering. After the transfers
    of views are folded into their buffers, CSE and loop-invariant code
    motion, the read and write of a thread's accumulator tile move out of
    the K loop (the tile becomes a loop-carried vector) when nothing else in
    the loop may touch that memory (other pieces of the same tile at
    provably disjoint indices may: a warp's tile in instruction-sized
    pieces), and `transferOpflowOpt` forwards the accumulator's initial
    value and the epilogue's read of it and removes the stores that are
    overwritten: the contraction's output is written once, after the
    epilogue. A tensor-core K loop (`mma` in its config) writes its warps'
    accumulators in the fragments' layout, which other threads read next
    (the epilogue): a barrier follows the hoisted writes.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::memref::MemRefDialect"];
}

def GpuVectorToMma : Pass<"dlc-gpu-vector-to-mma", "mlir::func::FuncOp"> {
  let summary = "tensor-core contractions to nvgpu mma.sync on register fragments";
  let description = [{
    Runs on the mapped kernels after `dlc-gpu-hoist-accumulators`. In each
    kernel with a contraction that carries a config with `mma` of warp
    instructions (warpgroup ones are `dlc-gpu-vector-to-wgmma`'s; set by
    `dlc-gpu-vectorize` on the warps' instruction-sized
    `vector.contract`s), its contractions, the reads of
    their operands and the loop-carried accumulators become `nvgpu` ops
    through upstream's `convertVectorToNVVMCompatibleMMASync` (operand
    fragments by `ldmatrix` or by per-lane loads where the tile's layout
    does not allow it, `nvgpu.mma.sync`, the accumulators' reads and writes
    by per-lane accesses of their fragment elements); f32 instructions
    then run as tf32 (`populateMmaSyncF32ToTF32Patterns`), their A and B
    fragments rounded to the config's precision first. A kernel that does
    not convert whole is an error (it would otherwise fall to the CUDA-core
    lowering with its warp-sized vectors in one thread).
  }];
  let dependentDialects = ["mlir::nvgpu::NVGPUDialect", "mlir::gpu::GPUDialect",
                           "mlir::arith::ArithDialect"];
}

def GpuVectorToWgmma : Pass<"dlc-gpu-vector-to-wgmma", "mlir::func::FuncOp"> {
  let summary = "warpgroup contractions to dlc.warpgroup_mma on shared tiles";
  let description = [{
    Runs beside `dlc-gpu-vector-to-mma`, on the kernels whose contractions
    carry a warpgroup config (`mma` with m = 64, Hopper's wgmma). The
    shared tiles that the contractions read become wgmma's canonical
    K-major layout without swizzling (`memref<BK/c x rows x c x T>`, c = 16
    bytes of T: contiguous 8 x 16-byte core matrices) and the copies into
    them are rewritten to it (a copy must not cross a core matrix's
    16-byte row). Each warp's 16 x N x K piece becomes a
    `dlc.warpgroup_mma` on the descriptors of its group's 64 rows of A and
    the N rows of B at its K offset; the accumulators become each thread's
    N / 2 elements of the wgmma D fragment, read and written per lane (two
    adjacent elements at a time) and carried as such through the loops; a
    K step's loop over its instructions (at most 8) is unrolled so that
    they chain. Anything else that reads the tiles or the accumulators is
    an error.
  }];
  let dependentDialects = ["::dlc::DlcDialect", "mlir::gpu::GPUDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect"];
}

def GpuLowerWarpgroupMma : Pass<"dlc-gpu-lower-warpgroup-mma",
                                "mlir::gpu::GPUModuleOp"> {
  let summary = "dlc.warpgroup_mma to NVVM wgmma (sm_90a)";
  let description = [{
    In the kernels, before the conversion to NVVM: each chain of
    `dlc.warpgroup_mma`s (each one's result the next one's accumulator,
    only side-effect-free ops between them: a K step's instructions)
    becomes `wgmma.fence`, one `nvvm.wgmma.mma_async` per instruction
    (m64nNk8 tf32 or m64nNk16 f16, A row- and B column-major, f32
    accumulators in an LLVM struct of N / 2 floats passed from one to the
    next), one `wgmma.commit_group` and `wgmma.wait_group 0`. In a function with
    such instructions, every `gpu.barrier` is preceded by
    `fence.proxy.async.shared::cta`: wgmma reads shared memory through the
    async proxy, the threads' stores into the tiles go through the generic
    one.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect"];
}

def GpuFoldRowBroadcasts : Pass<"dlc-gpu-fold-row-broadcasts", "mlir::func::FuncOp"> {
  let summary = "a row's reduced values without the unit dims of keepdims";
  let description = [{
    Before the strategy: a generic input that is a `tensor.expand_shape`
    adding only unit dims, read with 0 at those dims (a row's mean
    broadcast over the row), reads the expand_shape's source instead; an
    elementwise op whose trailing loops have range 1 (the rsqrt of a
    variance kept as [rows, 1]) drops them (upstream's unit-extent folding,
    limited to those loops), and the reshapes left between them fold. The
    chain from a row reduction to the ops that use it is then elementwise
    ops over rows, which the row kernels follow.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def GpuPipelineKLoops : Pass<"dlc-gpu-pipeline-k-loops", "mlir::func::FuncOp"> {
  let summary = "double-buffer a contraction's K loop: the next tiles load while this step computes";
  let description = [{
    Runs on the mapped kernels after vector lowering, before the shared
    buffers are planned. A K loop (an `scf.for` carrying a
    `#dlc.gpu_config` with `pipeline_depth` 2, static bounds and at least
    two steps) whose body stages tiles into shared buffers, synchronizes,
    computes from them and synchronizes again is rewritten over pairs of
    steps with two copies of each buffer: each step issues the staging of
    the next step into the other copy (its loads and asynchronous copies),
    computes, finishes the staging (its plain stores into shared memory of
    the values it loaded, held in registers through the compute), waits for
    its copies and synchronizes once (the previous step's barrier makes the
    other copy free). Staging copies that are 16-byte (or 8- or 4-byte)
    aligned vector loads from global memory stored whole into shared memory
    become `nvgpu.device_async_copy` (`cp.async`, committed as one group per
    step and awaited with `cp.async.wait_group 0`); other staging (im2col
    gathers, guarded copies) runs as written, before the compute. With an
    even number of steps the last pair stages its own last step again
    rather than branch; an odd last step computes after the loop. Loops
    that do not have this form are left as they are.
  }];
  let dependentDialects = ["mlir::nvgpu::NVGPUDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def GpuPlanSharedMemory : Pass<"dlc-gpu-plan-shared-memory", "mlir::func::FuncOp"> {
  let summary = "a kernel's shared buffers as views of its dynamic shared memory";
  let description = [{
    Every `memref.alloc` in the workgroup address space inside a
    `gpu.launch` (the staged operand tiles of a contraction) becomes a
    `memref.view` of the kernel's `gpu.dynamic_shared_memory` at a 16-byte
    aligned offset, and the launch's dynamic shared memory size their sum,
    which the runtime passes at launch (and allows beyond 48 KB at load).
    Kernels needing more than `max-shared-bytes` are refused. A static
    `memref.alloc` in the private address space (a row kernel's reduced
    values, one copy per thread) becomes a `memref.alloca` at the kernel's
    entry.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t", /*default=*/"232448",
           "shared memory one block may use (227 KB on sm_80 and sm_90)">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def GpuLowerVectors : Pass<"dlc-gpu-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "kernel vector ops to 1-D loads, stores and FMAs";
  let description = [{
    Runs on the mapped kernels. Reads and writes of views index their
    buffers directly; vector ops unroll to at most `lanes` elements along
    the innermost dim and one along the others (16-byte accesses for f32,
    PTX's widest); contractions become outer products (FMAs), transfers
    become `vector.load`/`vector.store` where in bounds and contiguous
    (the rest are unrolled to scalars by `convert-vector-to-scf`),
    reductions, transposes, broadcasts and shape casts elementwise ops.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"4",
           "elements of the innermost dim per unrolled vector op">
  ];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::memref::MemRefDialect",
                           "mlir::affine::AffineDialect"];
}

def ParallelAny : Pass<"dlc-gpu-parallel-any", "mlir::func::FuncOp"> {
  let summary = "\"is any element true\" reductions as parallel loops";
  let description = [{
    A `linalg.generic` on buffers whose loops are all reductions and which
    `arith.ori`s an i1 per iteration into one i1 scalar (the flag of a
    run-time index check) would lower to sequential loops, one GPU thread
    for the whole tensor. It becomes an `scf.parallel` over the same
    iterations instead (one thread each, a grid after
    `dlc-gpu-map-to-blocks`): each iteration computes its i1 and stores
    `true` into the output where it is true, so the output keeps its
    initial value unless some element is true. Threads that store store
    the same value. Only this form of reduction: other combiners keep
    their sequential loops.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def InterchangeReductions : Pass<"dlc-gpu-interchange-reductions", "mlir::func::FuncOp"> {
  let summary = "order the loops of linalg.generic ops parallel first";
  let description = [{
    Permutes the iteration space of every `linalg.generic` so that all
    parallel loops come before the reduction loops. Loop lowering then
    gives one `scf.parallel` per op (one kernel) with the reductions as
    sequential loops inside each thread.
  }];
}

def PromoteAccumulators : Pass<"dlc-gpu-promote-accumulators", "mlir::func::FuncOp"> {
  let summary = "carry reduction accumulators in registers, not memory";
  let description = [{
    Loop lowering leaves a reduction as `scf.for` loops that load the output
    element, update it and store it back on every iteration. Where a loop
    loads and stores one element at loop-invariant indices and touches that
    buffer no other way, the element is loaded once before the loop,
    carried as an `iter_args` value and stored once after it; applied
    repeatedly, a convolution's three reduction loops keep their
    accumulator in a register. (Kernel pointers may alias, so LLVM cannot do
    this itself.)
  }];
}

def MapToBlocks : Pass<"dlc-gpu-map-to-blocks", "mlir::func::FuncOp"> {
  let summary = "turn parallel loops into 1-D gpu.launch grids";
  let description = [{
    Every outermost `scf.parallel` becomes a `gpu.launch` whose threads
    each run one iteration: the iteration space is linearized, split into
    blocks of `block-size` threads, and each thread delinearizes its global
    index (the innermost loop varies fastest, so neighbouring threads touch
    neighbouring elements). Host-level ops that read or write memory
    outside any parallel loop (e.g. a reduction to a scalar) run as a
    single-thread launch: device memory is never touched from the host.
    Host loops that contain parallel loops stay on the host and launch
    kernels from their body. Views, reshapes and scalar arithmetic a launch
    uses are sunk into it, so that kernels receive whole buffers (passed as
    bare pointers) and scalars only. The entry's arguments marked
    `dlc.sizes` (the run's sizes of symbolic input dimensions and of
    dynamic output dimensions) are host memory: their loads and stores stay
    on the host, and a loop bound computed from them gives a grid sized at
    run time (at least one thread per block; an empty grid when there are
    no iterations). A value the host needs that a single-thread launch
    computes from device memory (a data-dependent size, a loop's condition,
    a branch's predicate) comes back through device memory: the launch
    stores it in an 8-byte slot past the workspace's plan (the workspace
    argument and `dlc.workspace_size` grow by them), and the host copies
    the slots into a stack buffer with a call of the runtime's
    `dlcrt_cuda_read(ctx, dst, src, bytes)`, which waits for the kernels
    before it. Views sized by such values stay on the host, after the
    launch. Only scalars (integers, indices, floats of up to 64 bits) come
    back; anything else the host would need is an error at the op that
    computes it. A strided view that cannot be recomputed in a kernel (one
    a host branch chose) is passed as its base buffer, offset, sizes and
    strides and rebuilt inside. Transfers (`dlc.transfer`) and calls of
    host parts (`dlc.host_part` functions, which are not mapped) stay on
    the host, between the launches around them.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per block">
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::affine::AffineDialect",
                           "mlir::scf::SCFDialect"];
}

def MergeKernelModules : Pass<"dlc-gpu-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "move all outlined kernels into one gpu.module";
  let description = [{
    `gpu-kernel-outlining` gives each kernel its own module. This pass
    moves every kernel into the module `@dlc_kernels` under a unique name
    (its old module's name) and updates the launches, so that the runtime
    loads one PTX image per architecture.
  }];
}

def GpuOccupancy : Pass<"dlc-gpu-occupancy", "mlir::ModuleOp"> {
  let summary = "ask ptxas for the occupancy the kernels are budgeted for";
  let description = [{
    Every kernel (`gpu.func` with `gpu.kernel`) gets `nvvm.minctasm`
    (`.minnctapersm` in PTX): ptxas then keeps its registers within
    65536 / (`blocks-per-sm` x threads), rematerializing values rather than
    using more (the ptxas gates in the tests check that no spills result).
  }];
  let options = [
    Option<"blocksPerSm", "blocks-per-sm", "int64_t", /*default=*/"2",
           "blocks of each kernel that must fit on one SM at once">
  ];
}

def EmulateKernels : Pass<"dlc-gpu-emulate-kernels", "mlir::ModuleOp"> {
  let summary = "run outlined kernels on the host CPU (the cuda-emulator target)";
  let description = [{
    A testing aid for machines without a GPU. Every kernel of the
    `gpu.module`s becomes a host function taking its parameters, then the
    block's shared memory (`memref<Nxi8>`, N the launches' constant dynamic
    shared memory size) and the thread's info array (`memref<16xi64>`: block
    and thread ids, block and grid sizes, see `DLC_EMU_*` in
    `dlc_model_abi.h`). Ids read the info array, `gpu.dynamic_shared_memory`
    is the shared buffer (memory spaces are dropped), `gpu.barrier` and
    32-bit `gpu.shuffle` call the runtime (`dlcrt_emu_barrier`,
    `dlcrt_emu_shuffle`), whose scheduler runs the threads of a block as
    fibers, phase by phase between barriers; `nvgpu.device_async_copy`
    calls `dlcrt_emu_async_copy` with its byte addresses, whose bytes land
    at the thread's `cp.async.wait_group 0` (`dlcrt_emu_async_wait`; commit
    groups are dropped, other wait counts refused). Every `gpu.launch_func` becomes
    a call of a stub `__dlc_emu_launch_<kernel>(grid, block, operands)`
    marked with the kernel, its shared memory size and whether it
    synchronizes; `dlc-gpu-emulator-launches` lowers it once the host code is
    in the LLVM dialect. Only the NVVM lowering and the driver are left out.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::func::FuncDialect",
                           "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def EmulatorLaunches : Pass<"dlc-gpu-emulator-launches", "mlir::ModuleOp"> {
  let summary = "lower cuda-emulator launch stubs to dlcrt_emu_launch calls";
  let description = [{
    Runs on the LLVM dialect after `dlc-gpu-emulate-kernels`. Each kernel
    gets a thunk `<kernel>__emu(void **params, void *shared, int64_t *info)`
    that loads its parameters from the slots of a cuLaunchKernel-style
    parameter array; each call of a launch stub becomes that array (stack
    slots of the entry block) and a call
    `dlcrt_emu_launch(thunk, params, grid xyz, block xyz, shared bytes,
    flags)`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def LaunchToRuntime : Pass<"dlc-gpu-launch-to-runtime", "mlir::ModuleOp"> {
  let summary = "lower gpu.launch_func to calls of the dlc CUDA runtime";
  let description = [{
    Runs after `gpu-to-llvm` and `gpu-module-to-binary`. Each
    `gpu.launch_func` (whose operands are already LLVM values) becomes a
    call `dlcrt_cuda_launch(ctx, kernel, gx, gy, gz, bx, by, bz, params)`,
    with the kernel parameters stored in stack slots of the entry block and
    `ctx` the entry's `dlc.cuda_context` argument. The PTX of each target in
    the `gpu.binary` is recorded in the module attribute `dlc.cuda_ptx`
    (chip -> text) and the kernel names, in launch index order, in
    `dlc.cuda_kernels`; the binary is then erased. Each launch's parameters
    must match (in number and size) those its PTX entry declares, and PTX
    that still declares external functions (libdevice not linked) is
    refused: either would only fail on a GPU.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif
