//===- DlcTensorOps.td - reductions and data movement ------*- tablegen -*-===//
//
// Included by DlcOps.td.
//
//===----------------------------------------------------------------------===//

def Dlc_ReduceOp : Dlc_Op<"reduce",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "reduce over axes (ONNX Reduce*)";
  let description = [{
    `kind` is one of `sum`, `mean`, `max`, `min`, `prod`, `l1`, `l2`,
    `log_sum`, `log_sum_exp`, `sum_square`. `axes` are non-negative, sorted
    and unique; the importer resolves ONNX's empty-axes rules.

    ```mlir
    %y = dlc.reduce %x {kind = "sum", axes = array<i64: 1>, keepdims = true} : tensor<2x3xf32> -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, StrAttr:$kind,
                   DenseI64ArrayAttr:$axes, BoolAttr:$keepdims);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_ArgReduceOp : Dlc_Op<"arg_reduce",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "index of the largest or smallest element (ONNX ArgMax/ArgMin)";
  let description = [{
    ```mlir
    %i = dlc.arg_reduce %x {is_max = true, axis = 1 : i64, keepdims = true, select_last_index = false} : tensor<2x3xf32> -> tensor<2x1xi64>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, BoolAttr:$is_max, I64Attr:$axis,
                   BoolAttr:$keepdims, BoolAttr:$select_last_index);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_SliceOp : Dlc_Op<"slice"> {
  let summary = "strided slice with static bounds (ONNX Slice)";
  let description = [{
    Element `i` of result dim `d` reads input index `starts[d] + i * steps[d]`;
    steps may be negative. The importer clamps ONNX's starts/ends.

    ```mlir
    %y = dlc.slice %x {starts = array<i64: 3, 0>, steps = array<i64: -1, 2>} : tensor<4x4xf32> -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$steps);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Dlc_GatherOp : Dlc_Op<"gather", [InferTypeOpAdaptor,
    Dlc_LowersDynamicShapes]> {
  let summary = "gather slices along an axis (ONNX Gather)";
  let description = [{
    Negative indices count from the end.

    ```mlir
    %y = dlc.gather %x, %i {axis = 0 : i64} : tensor<5x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, Dlc_Tensor:$indices, I64Attr:$axis);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($result)";
  let hasFolder = 1;
}

def Dlc_ExpandOp : Dlc_Op<"expand", [Dlc_LowersDynamicShapes]> {
  let summary = "broadcast to a larger shape (ONNX Expand)";
  let description = [{
    ```mlir
    %y = dlc.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dlc_TileOp : Dlc_Op<"tile"> {
  let summary = "repeat a tensor along each dimension (ONNX Tile)";
  let description = [{
    Each result dim is a multiple of the input dim.

    ```mlir
    %y = dlc.tile %x : tensor<2x3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dlc_PadOp : Dlc_Op<"pad", [Dlc_LowersDynamicShapes]> {
  let summary = "pad with a constant (ONNX Pad, mode constant)";
  let description = [{
    `pads` holds the begin amount of every dimension, then the end amounts;
    all non-negative. A dynamic input dimension gives a dynamic result
    dimension.

    ```mlir
    %y = dlc.pad %x {pads = array<i64: 0, 1, 0, 1>, value = 0.0 : f64} : tensor<2x2xf32> -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, DenseI64ArrayAttr:$pads, F64Attr:$value);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dlc_GatherElementsOp : Dlc_Op<"gather_elements",
    [Dlc_LowersDynamicShapes]> {
  let summary = "gather elements along an axis (ONNX GatherElements)";
  let description = [{
    `out[i...] = input[i_0, ..., indices[i...], ..., i_n]` with the index
    replacing dimension `axis`; negative indices count from the end. The
    result has the indices' shape.

    ```mlir
    %y = dlc.gather_elements %x, %i {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, Dlc_Tensor:$indices, I64Attr:$axis);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $indices attr-dict `:` type($input) `,` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

def Dlc_CumSumOp : Dlc_Op<"cumsum",
    [SameOperandsAndResultType, Dlc_LowersDynamicShapes]> {
  let summary = "cumulative sum along an axis (ONNX CumSum)";
  let description = [{
    `exclusive` leaves out the element itself; `reverse` sums from the end.

    ```mlir
    %y = dlc.cumsum %x {axis = 0 : i64, exclusive = false, reverse = false} : tensor<5xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, I64Attr:$axis, BoolAttr:$exclusive,
                   BoolAttr:$reverse);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Dlc_EinsumOp : Dlc_Op<"einsum", [Dlc_LowersDynamicShapes]> {
  let summary = "Einstein summation (ONNX Einsum)";
  let description = [{
    `equation` is explicit, without ellipses: one letter per dimension,
    `in0,in1,...->out` (the importer expands `...` and the implicit form).

    ```mlir
    %y = dlc.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Variadic<Dlc_Tensor>:$inputs, StrAttr:$equation);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, results)";
}

def Dlc_DetOp : Dlc_Op<"det"> {
  let summary = "determinants of square matrices (ONNX Det)";
  let description = [{
    The determinant of each [M, M] matrix in the last two dimensions of
    `input`; the result has the leading dimensions.

    ```mlir
    %d = dlc.det %x : tensor<3x2x2xf32> -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dlc_RoiAlignOp : Dlc_Op<"roi_align"> {
  let summary = "bilinear pooling of regions of interest (ONNX RoiAlign)";
  let description = [{
    For each region `r` (`rois[r]` = [x1, y1, x2, y2] in input coordinates
    times `spatial_scale`, less half a pixel with `half_pixel`) of image
    `batch_indices[r]`, each of the output_height x output_width bins is
    the mean (`mode` "avg") or maximum ("max") of sampling_ratio x
    sampling_ratio bilinear samples, as ONNX Runtime computes them.

    ```mlir
    %y = dlc.roi_align %x, %rois, %idx {mode = "avg", sampling_ratio = 2 : i64, spatial_scale = 1.0 : f64, half_pixel = true}
        : (tensor<1x1x10x10xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x1x5x5xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, Dlc_FloatTensor:$rois,
                   Dlc_Tensor:$batch_indices, StrAttr:$mode,
                   I64Attr:$sampling_ratio, F64Attr:$spatial_scale,
                   BoolAttr:$half_pixel);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Dlc_TopKOp : Dlc_Op<"top_k", [Dlc_LowersDynamicShapes]> {
  let summary = "the k largest or smallest elements of each row (ONNX TopK)";
  let description = [{
    Along the last dimension (the importer transposes ONNX's axis there):
    the `k` largest (`largest`) or smallest elements of each row, sorted,
    equal values in the order of their indices, and their indices. `k` is a
    run-time value of at most the row's length (the importer clamps it);
    the results' last dimension is `k` (static when it is known).

    ```mlir
    %v, %i = dlc.top_k %x, %k {largest = true}
        : tensor<?x100xf32> -> tensor<?x?xf32>, tensor<?x?xi64>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, Index:$k, BoolAttr:$largest);
  let results = (outs Dlc_FloatTensor:$values, Dlc_Tensor:$indices);
  let assemblyFormat = [{
    $input `,` $k attr-dict `:` type($input) `->` type($values) `,`
    type($indices)
  }];
  let hasVerifier = 1;
}
