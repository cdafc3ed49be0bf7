//===- DlcOps.td - dlc operations ---------------------------*- tablegen -*-===//
#ifndef DLC_OPS_TD
#define DLC_OPS_TD

include "ir/DlcDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Dlc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dlc_Dialect, mnemonic, !listconcat(traits, [Pure])>;

def Dlc_Tensor : RankedTensorOf<[AnyFloat, AnySignlessInteger, I1]>;

// Ops whose lowering sizes dynamic (`?`) dimensions at run time from their
// operands; dlc-lower-to-linalg rejects dynamic shapes on other ops.
def Dlc_LowersDynamicShapes : NativeOpTrait<"LowersDynamicShapes"> {
  let cppNamespace = "::dlc::OpTrait";
}
def Dlc_FloatTensor : RankedTensorOf<[AnyFloat]>;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Dlc_ConstantOp : Dlc_Op<"constant", [ConstantLike,
    InferTypeOpAdaptor]> {
  let summary = "a constant tensor (ONNX initializer or Constant node)";
  let description = [{
    Large values are held as `dense_resource` blobs so that weights are
    neither printed nor copied through the IR.

    ```mlir
    %w = dlc.constant dense_resource<conv1.weight> : tensor<8x1x3x3xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Dlc_BatchAxisOp : Dlc_Op<"batch_axis", [SameOperandsAndResultType]> {
  let summary = "where a dynamic batch lies in a value (an identity)";
  let description = [{
    Set by the import of a model with a dynamic batch on each node output:
    the axis that grows when the batch grows (-1: none), as seen by importing
    the model at batch 1 and at batch 2. The lowering keeps it;
    dlc-check-batch-independence checks the program against it and erases
    it.

    ```mlir
    %h = dlc.batch_axis %x axis 0 : tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, I64Attr:$axis);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input `axis` $axis attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Dlc_BinaryOp<string mnemonic, string onnxName>
    : Dlc_Op<mnemonic, [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "elementwise " # onnxName # " with numpy broadcasting";
  let description = [{
    ONNX `}] # onnxName # [{` (opset 7+ multidirectional broadcasting).

    ```mlir
    %c = dlc.}] # mnemonic # [{ %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$lhs, Dlc_Tensor:$rhs);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def Dlc_AddOp : Dlc_BinaryOp<"add", "Add"> { let hasFolder = 1; }
def Dlc_SubOp : Dlc_BinaryOp<"sub", "Sub"> { let hasFolder = 1; }
def Dlc_MulOp : Dlc_BinaryOp<"mul", "Mul"> { let hasFolder = 1; }
def Dlc_DivOp : Dlc_BinaryOp<"div", "Div"> { let hasFolder = 1; }

class Dlc_UnaryOp<string mnemonic, string onnxName>
    : Dlc_Op<mnemonic, [SameOperandsAndResultType, Dlc_LowersDynamicShapes]> {
  let summary = "elementwise " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{`.

    ```mlir
    %y = dlc.}] # mnemonic # [{ %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Dlc_ReluOp : Dlc_UnaryOp<"relu", "Relu">;
def Dlc_SigmoidOp : Dlc_UnaryOp<"sigmoid", "Sigmoid">;
def Dlc_TanhOp : Dlc_UnaryOp<"tanh", "Tanh">;

include "ir/DlcElementwiseOps.td"

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Dlc_MatMulOp : Dlc_Op<"matmul",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "numpy matmul (ONNX MatMul)";
  let description = [{
    1-D operands are promoted as in numpy; batch dimensions broadcast.

    ```mlir
    %c = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$lhs, Dlc_FloatTensor:$rhs);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def Dlc_GemmOp : Dlc_Op<"gemm", [
    InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "alpha * op(A) * op(B) + beta * C (ONNX Gemm)";
  let description = [{
    `C` is optional and broadcasts to the result (unidirectionally).

    ```mlir
    %y = dlc.gemm %a, %b, %c {transB = true} : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$a, Dlc_FloatTensor:$b,
      Optional<Dlc_FloatTensor>:$c,
      DefaultValuedAttr<F32Attr, "1.0">:$alpha,
      DefaultValuedAttr<F32Attr, "1.0">:$beta,
      DefaultValuedAttr<BoolAttr, "false">:$transA,
      DefaultValuedAttr<BoolAttr, "false">:$transB);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat =
      "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

def Dlc_ConvOp : Dlc_Op<"conv", [
    InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "N-D convolution, NC[D]HW layout (ONNX Conv)";
  let description = [{
    Pads are explicit (`auto_pad` is resolved by the importer) and hold the
    begin values of every spatial dimension followed by the end values.

    ```mlir
    %y = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,
           dilations = array<i64: 1, 1>, group = 1 : i64}
         : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$weight,
      Optional<Dlc_FloatTensor>:$bias, DenseI64ArrayAttr:$strides,
      DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Pooling and normalization
//===----------------------------------------------------------------------===//

class Dlc_PoolOp<string mnemonic, string onnxName, list<Trait> traits = []>
    : Dlc_Op<mnemonic, !listconcat([InferTypeOpAdaptor], traits)> {
  let summary = "N-D " # onnxName # ", NC[D]HW layout";
  let description = [{
    ONNX `}] # onnxName # [{` with explicit pads (begin values, then end
    values). `ceil_mode` rounds the output size up; windows that start in
    the end padding are dropped as ONNX specifies.
  }];
  let arguments = (ins Dlc_FloatTensor:$input, DenseI64ArrayAttr:$kernel_shape,
      DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
      DenseI64ArrayAttr:$dilations,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
      DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_MaxPoolOp
    : Dlc_PoolOp<"max_pool", "MaxPool", [Dlc_LowersDynamicShapes]>;
def Dlc_AvgPoolOp
    : Dlc_PoolOp<"avg_pool", "AveragePool", [Dlc_LowersDynamicShapes]>;

def Dlc_MaxPoolIndicesOp : Dlc_Op<"max_pool_indices", [InferTypeOpAdaptor]> {
  let summary = "where each MaxPool maximum lies (MaxPool's Indices output)";
  let description = [{
    For each output of the `dlc.max_pool` with the same attributes, the
    flat index in `input` (over all its dimensions, batch and channel
    included; the spatial ones in reverse order with `column_major`, ONNX's
    storage_order 1) of the window's first largest element.

    ```mlir
    %i = dlc.max_pool_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xi64>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, DenseI64ArrayAttr:$kernel_shape,
      DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
      DenseI64ArrayAttr:$dilations,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
      DefaultValuedAttr<BoolAttr, "false">:$column_major);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_GlobalAvgPoolOp : Dlc_Op<"global_avg_pool",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "mean over all spatial dimensions (ONNX GlobalAveragePool)";
  let description = [{
    ```mlir
    %y = dlc.global_avg_pool %x : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_BatchNormOp : Dlc_Op<"batch_norm", [
    AllTypesMatch<["input", "result"]>,
    AllTypesMatch<["scale", "bias", "mean", "variance"]>,
    Dlc_LowersDynamicShapes]> {
  let summary = "inference-mode batch normalization (ONNX BatchNormalization)";
  let description = [{
    `y = scale * (x - mean) / sqrt(var + epsilon) + bias`, per channel (dim 1).

    ```mlir
    %y = dlc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$scale,
      Dlc_FloatTensor:$bias, Dlc_FloatTensor:$mean, Dlc_FloatTensor:$variance,
      F32Attr:$epsilon);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:`
    type($input) `,` type($scale)
  }];
  let hasVerifier = 1;
}

def Dlc_SoftmaxOp : Dlc_Op<"softmax",
    [SameOperandsAndResultType, Dlc_LowersDynamicShapes]> {
  let summary = "softmax over one axis or over all trailing axes";
  let description = [{
    With `trailing` unset this is ONNX Softmax-13 (normalize along `axis`);
    with it set, it is Softmax-1/11 (normalize over dims `axis..rank-1`, the
    2-D coercion). `axis` is non-negative. With `log` set it computes
    LogSoftmax.

    ```mlir
    %y = dlc.softmax %x {axis = 1 : i64} : tensor<1x10xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, I64Attr:$axis,
      UnitAttr:$trailing, UnitAttr:$log);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Dlc_ReshapeOp : Dlc_Op<"reshape", [Dlc_LowersDynamicShapes]> {
  let summary = "reshape (ONNX Reshape, Flatten, Squeeze, Unsqueeze)";
  let description = [{
    The importer resolves ONNX's `0` and `-1` entries; the result type holds
    the new shape, and `sizes` the run-time size of each of its dynamic
    dimensions, in order (none when it is static). The element order is
    row-major on both sides.

    ```mlir
    %y = dlc.reshape %x : tensor<1x8x2x2xf32> -> tensor<1x32xf32>
    %z = dlc.reshape %x sizes(%n) : tensor<?x8x4xf32> -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, Variadic<Index>:$sizes);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = [{
    $input (`sizes` `(` $sizes^ `)`)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Dlc_TransposeOp : Dlc_Op<"transpose",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "permute dimensions (ONNX Transpose)";
  let description = [{
    ```mlir
    %y = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Dlc_ConcatOp : Dlc_Op<"concat",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "concatenate along an axis (ONNX Concat)";
  let description = [{
    ```mlir
    %y = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
    ```
  }];
  let arguments = (ins Variadic<Dlc_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

def Dlc_ReportOp : Op<Dlc_Dialect, "report", [MemoryEffects<[MemWrite]>]> {
  let summary = "fail the run with a message when a run-time check fails";
  let description = [{
    Made by `dlc-lower-to-linalg{index-checks}` where an op reads data at
    run-time indices (Gather, GatherElements, dlc.check_indices): `failed`
    is true when some index lies outside its axis; and by the importer
    where a Reshape's sizes are known at run time only: `failed` is true
    when they do not multiply to the input's element count. The run then completes (the lowering
    clamped the indices, so nothing is read out of bounds) and fails with
    `message`, which names the ONNX node. `dlc-memory-plan` numbers the
    reports of a function from 1 (`dlc.checks`, their messages) and lowers
    each to a store of its number into a word of the workspace
    (`dlc.check_offset`) when the word is still 0 (the first failed check
    of a call is the one reported), which the runtime clears before each
    call and reads after it.

    ```mlir
    dlc.report %bad, "node 'g' (Gather): an index is outside [-4, 4)"
    ```
  }];
  let arguments = (ins I1:$failed, StrAttr:$message);
  let assemblyFormat = "$failed `,` $message attr-dict";
  // A check that cannot fail (`failed` a constant false) is erased.
  let hasCanonicalizeMethod = 1;
}

def Dlc_CheckIndicesOp : Op<Dlc_Dialect, "check_indices",
    [MemoryEffects<[MemWrite]>, AllTypesMatch<["indices", "result"]>,
     Dlc_LowersDynamicShapes]> {
  let summary = "the indices, checked at run time against the sizes they index";
  let description = [{
    The result is `indices`. Each index `i` must lie in `[-n, n)`, `n` the
    element of `bounds` for its position along the indices' last
    dimension (`bounds` has that many elements), or the one element of
    `bounds` for every index. Imported before the ops whose indices address
    several dimensions at once (GatherND, ScatterND: one bound per
    component of an index tuple) or none of the data when out of range
    (ScatterElements); `op_type` is the ONNX op, for the message.
    `dlc-lower-to-linalg{index-checks}` makes it a reduction over the
    indices and a `dlc.report` naming the node; without index checks it is
    the indices. Constant indices within constant bounds are an error of
    the compile there when out of range (and left out by the importer when
    in range).

    ```mlir
    %j = dlc.check_indices %i, %sizes {op_type = "GatherND"} : tensor<5x2xi64>, tensor<2xi64>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$indices, Dlc_Tensor:$bounds,
                   StrAttr:$op_type);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$indices `,` $bounds attr-dict `:` type($indices) `,` type($bounds)";
  let hasVerifier = 1;
}

include "ir/DlcTensorOps.td"
include "ir/DlcDataDependentOps.td"
include "ir/DlcGpuOps.td"

#endif // DLC_OPS_TD
