//===- DlcAttrs.td - dlc attributes ------------------------*- tablegen -*-===//
//
// Attributes that carry code generation decisions between passes: a
// strategy pass chooses them, the transformations only read them.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_ATTRS_TD
#define DLC_ATTRS_TD

include "ir/DlcDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Dlc_GpuKernelKind : I32EnumAttr<"GpuKernelKind",
    "how a GPU kernel distributes its root op", [
  I32EnumAttrCase<"Elementwise", 0, "elementwise">,
  I32EnumAttrCase<"Contraction", 1, "contraction">,
  I32EnumAttrCase<"Reduction", 2, "reduction">,
  I32EnumAttrCase<"Window", 3, "window">
]> {
  let cppNamespace = "::dlc";
  let genSpecializedAttr = 0;
}

def Dlc_GpuPrecision : I32EnumAttr<"GpuPrecision",
    "the arithmetic a GPU kernel's contractions use", [
  I32EnumAttrCase<"F32", 0, "f32">,
  I32EnumAttrCase<"TF32", 1, "tf32">,
  I32EnumAttrCase<"F16", 2, "f16">,
  I32EnumAttrCase<"BF16", 3, "bf16">
]> {
  let cppNamespace = "::dlc";
  let genSpecializedAttr = 0;
}

def Dlc_GpuPrecisionAttr : EnumAttr<Dlc_Dialect, Dlc_GpuPrecision,
                                    "gpu_precision">;

def Dlc_Device : I32EnumAttr<"Device", "where a kernel of a CUDA model runs", [
  I32EnumAttrCase<"Cpu", 0, "cpu">,
  I32EnumAttrCase<"Gpu", 1, "gpu">
]> {
  let cppNamespace = "::dlc";
  let genSpecializedAttr = 0;
}

def Dlc_DeviceAttr : EnumAttr<Dlc_Dialect, Dlc_Device, "device"> {
  let assemblyFormat = "$value";
}

class Dlc_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dlc_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Dlc_GpuConfigAttr : Dlc_Attr<"GpuConfig", "gpu_config"> {
  let summary = "how one linalg op becomes (the root of) a GPU kernel";
  let description = [{
    Set by `dlc-gpu-select-strategy` on the root op of each kernel, read by
    `dlc-gpu-tile-and-fuse` and the passes after it. Tile sizes are given
    per loop of the op (0: not tiled at that level):

    - `workgroup`: the tile of one thread block (the grid is the loop ranges
      divided by it); producers (fills, bias, elementwise ops, im2col) and
      epilogues run inside the block's tile;
    - `thread`: the tile of one thread within the block's tile over the
      parallel loops (the block has as many threads as there are thread
      tiles); over a contraction's reduction loops, how many of a K step's
      elements a thread takes at a time;
    - `reduction`: the K step of a contraction (its operands' tiles are
      staged in shared memory once per step) or, for the `reduction` kind,
      the lanes that stride over the innermost reduced loop (a warp, whose
      partial results combine by shuffles; `thread` is then each warp's
      tile);
    - `pipeline_depth`: how many K steps' operand tiles are in flight
      (1: load then compute; 2: double buffered);
    - `precision`: the arithmetic of contractions: strict `f32`, or
      operands rounded to `tf32`, `f16` or `bf16` (round to nearest; ties
      away from zero for tf32 as `cvt.rna.tf32.f32`, to even otherwise) and
      multiplied and accumulated in f32, as tensor cores do;
    - `mma` (optional, contractions only): the shape of the tensor-core
      instruction per loop (m16n8k8 for tf32: 16 on the innermost m loop,
      8 on n, 8 on k, 0 elsewhere). With it, `thread` is the tile of one
      warp (each warp issues `mma.sync` over its tile; the block has 32
      threads per warp) and `thread` over the reduction loop is the
      instruction's k. An m of 64 is Hopper's warpgroup instruction (wgmma
      m64nNk8 for tf32, m64nNk16 for fp16, N the block's whole n tile):
      four consecutive warps issue it together, each with a `thread` tile
      of 16 rows.

    ```mlir
    linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction,
        workgroup = [128, 128, 0], thread = [8, 8, 0], reduction = [0, 0, 16],
        pipeline_depth = 2, precision = f32>} ...
    ```
  }];
  let parameters = (ins
    EnumParameter<Dlc_GpuKernelKind>:$kind,
    ArrayRefParameter<"int64_t">:$workgroup,
    ArrayRefParameter<"int64_t">:$thread,
    ArrayRefParameter<"int64_t">:$reduction,
    "int64_t":$pipeline_depth,
    EnumParameter<Dlc_GpuPrecision>:$precision,
    OptionalArrayRefParameter<"int64_t">:$mma
  );
  let assemblyFormat = [{
    `<` `kind` `=` $kind `,` `workgroup` `=` `[` $workgroup `]` `,`
    `thread` `=` `[` $thread `]` `,` `reduction` `=` `[` $reduction `]` `,`
    `pipeline_depth` `=` $pipeline_depth `,` `precision` `=` $precision
    (`,` `mma` `=` `[` $mma^ `]`)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Threads per block: the number of thread tiles in a block's tile
    /// (32 per warp tile with `mma`).
    int64_t getNumThreads() const;
    /// Whether the contraction runs on tensor cores (`mma` is set).
    bool usesMma() const { return !getMma().empty(); }
    /// Whether the instructions are a warpgroup's (wgmma: m = 64).
    bool usesWarpgroups() const {
      return llvm::is_contained(getMma(), int64_t(64));
    }
  }];
}

def Dlc_SymbolicDimAttr : Dlc_Attr<"SymbolicDim", "symbolic_dim"> {
  let summary = "a symbolic input dimension and its declared range";
  let description = [{
    One dynamic dimension of a graph input: the ONNX dimension's name
    (`dim_param`) and the range `--dim NAME=MIN..MAX` declared for it. The
    import puts an array of them, one per dynamic dimension in order, on
    each such argument of `@main` (`dlc.symbolic_dims`); dimensions of the
    same name have the same size at run time, which the runtime checks.

    ```mlir
    func.func @main(%ids: tensor<?x?xi64> {dlc.symbolic_dims = [
        #dlc.symbolic_dim<"batch", 1, 64>, #dlc.symbolic_dim<"seq", 1, 512>]})
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the dimension's name">:$name,
    "int64_t":$min,
    "int64_t":$max
  );
  let assemblyFormat = "`<` $name `,` $min `,` $max `>`";
  let genVerifyDecl = 1;
}

def Dlc_PlacementAttr : Dlc_Attr<"Placement", "placement"> {
  let summary = "the device a kernel of a CUDA model runs on, and why";
  let description = [{
    Set by `dlc-gpu-select-placement` on every op of a kernel (its root and
    the ops fused with it) in a model compiled for the CUDA target; read by
    `dlc-gpu-select-strategy` and `dlc-gpu-tile-and-fuse` (which leave the
    CPU's ops alone) and by `dlc-gpu-outline-host-parts` (which moves them
    into host functions with the transfers they need). `reason` says why,
    for `dlc compile`'s report; `cpu_ns` and `gpu_ns` are the cost
    model's predictions for the kernel on each device in nanoseconds,
    transfers included (-1 where not predicted or not possible).

    ```mlir
    linalg.generic {dlc.placement = #dlc.placement<cpu,
        "the cost model: 1.00 us on the CPU, 27.00 us on the GPU with transfers",
        1000, 27000>} ...
    ```
  }];
  let parameters = (ins
    EnumParameter<Dlc_Device>:$device,
    StringRefParameter<"why the kernel runs there">:$reason,
    "int64_t":$cpu_ns,
    "int64_t":$gpu_ns
  );
  let assemblyFormat =
      "`<` $device `,` $reason `,` $cpu_ns `,` $gpu_ns `>`";
}

#endif // DLC_ATTRS_TD
