//===- DlcGpuOps.td - GPU kernel ops of the CUDA pipeline -*- tablegen -*-===//
//
// Included by DlcOps.td. Ops that the CUDA pipeline puts inside kernels
// where no upstream op fits; each lowers to NVVM for the GPU and to a
// runtime call for the cuda-emulator.
//
//===----------------------------------------------------------------------===//

include "ir/DlcAttrs.td"

def Dlc_WarpgroupMmaOp : Op<Dlc_Dialect, "warpgroup_mma",
                            [MemoryEffects<[MemRead]>,
                             AllTypesMatch<["acc", "result"]>]> {
  let summary = "a warpgroup's tensor-core product of shared-memory tiles "
                "(Hopper wgmma, synchronous)";
  let description = [{
    The 128 threads of a warpgroup (four consecutive warps of the block,
    the first one's index a multiple of four) multiply a 64 x K tile A by
    an N x K tile B (both K-major, in shared memory, each given by a wgmma
    matrix descriptor without swizzling) and add the 64 x N product to
    their f32 accumulator: K is 8 for `tf32` (f32 elements, of which the
    tensor cores read the tf32 bits) and 16 for `f16` and `bf16`. Each thread holds
    `n / 2` accumulator elements in the layout of the PTX ISA's wgmma D
    fragment: warp w of the group, lane 4g + t, element 4j + i holds row
    16w + g + 8 (i / 2), column 8j + 2t + i % 2. Every thread of the group
    must execute it with the same descriptors; it returns once the product
    is in the result (`wgmma.fence`, `wgmma.mma_async`, `commit_group`,
    `wait_group 0`).

    A descriptor holds the tile's shared-memory address, the byte distance
    between the two 16-byte core-matrix columns along K (leading) and
    between consecutive 8-row core matrices (stride), each in 16-byte units
    (PTX ISA, "Matrix Descriptor Format").

    ```mlir
    %d = dlc.warpgroup_mma %da, %db, %c {n = 64, precision = tf32}
        : vector<32xf32>
    ```
  }];
  let arguments = (ins I64:$desc_a, I64:$desc_b,
                   VectorOfRankAndType<[1], [F32]>:$acc,
                   ConfinedAttr<I64Attr, [IntMinValue<8>, IntMaxValue<256>]>:$n,
                   Dlc_GpuPrecisionAttr:$precision);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $desc_a `,` $desc_b `,` $acc attr-dict `:` type($acc)
  }];
  let builders = [OpBuilder<(ins "mlir::Value":$descA, "mlir::Value":$descB,
                                 "mlir::Value":$acc, "int64_t":$n,
                                 "GpuPrecision":$precision), [{
    build($_builder, $_state, acc.getType(), descA, descB, acc,
          $_builder.getI64IntegerAttr(n),
          GpuPrecisionAttr::get($_builder.getContext(), precision));
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The instruction's K: 8 for tf32, 16 for f16 and bf16.
    int64_t getK() {
      return getPrecision() == GpuPrecision::TF32 ? 8 : 16;
    }
  }];
}

def Dlc_TransferOp : Op<Dlc_Dialect, "transfer",
                        [AllTypesMatch<["source", "target"]>]> {
  let summary = "a copy between device memory and host memory (CUDA models)";
  let description = [{
    Copies the whole buffer `source` into `target` across the host link,
    towards `direction`: `cpu` reads device memory into a host buffer (after the kernels
    launched before it, which it waits for), `to_device` writes a host
    buffer into device memory (`gpu`: queued after them). Made by
    `dlc-gpu-outline-host-parts` around a CUDA model's host parts; lowered
    to the runtime's `dlcrt_cuda_read` and `dlcrt_cuda_write` by
    `dlc-gpu-lower-transfers`.

    ```mlir
    dlc.transfer %device to cpu, %host : memref<4x8xf32>
    ```
  }];
  let arguments = (ins Dlc_DeviceAttr:$direction,
                   Arg<AnyStaticShapeMemRef, "", [MemRead]>:$source,
                   Arg<AnyStaticShapeMemRef, "", [MemWrite]>:$target);
  let assemblyFormat = [{
    $source `to` $direction `,` $target attr-dict `:` type($source)
  }];
  let extraClassDeclaration = [{
    bool isToHost() { return getDirection() == Device::Cpu; }
  }];
}
