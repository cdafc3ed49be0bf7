//===- DlcDataDependentOps.td - ops with data-dependent shapes -*- tablegen -*-===//
//
// Included by DlcOps.td. The sizes of these ops' results depend on the
// values of their operands: each such dimension is dynamic (`?`) in the
// result type and bounded by `upperBounds` (a shape of static sizes that the
// lowering allocates and the generated library reports).
//
//===----------------------------------------------------------------------===//

def Dlc_NonZeroOp : Dlc_Op<"nonzero", [Dlc_LowersDynamicShapes]> {
  let summary = "indices of the non-zero elements (ONNX NonZero)";
  let description = [{
    Column `k` of the result holds the coordinates of the `k`-th non-zero
    element of `input` in row-major order. At most every element. The
    input's dimensions may be dynamic (symbolic, or the data-dependent size
    of an earlier op): the lowering then sizes its loops and result at run
    time.

    ```mlir
    %i = dlc.nonzero %x : tensor<2x3xf32> -> tensor<2x?xi64>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The largest result shape: [rank, number of elements] (a static
    /// input only; dlc::upperBoundShape bounds dynamic ones).
    llvm::SmallVector<int64_t> getUpperBounds(unsigned result);
  }];
}

def Dlc_CompressOp : Dlc_Op<"compress", [Dlc_LowersDynamicShapes]> {
  let summary = "slices where a condition holds (ONNX Compress)";
  let description = [{
    Keeps the slices `i` of `input` along `axis` for which `condition[i]`
    is true, in order; slices past the end of `condition` are dropped. The
    importer flattens the input when ONNX's axis is absent. The input's and
    the condition's dimensions may be dynamic.

    ```mlir
    %y = dlc.compress %x, %c {axis = 0 : i64} : tensor<3x2xf32>, tensor<3xi1> -> tensor<?x2xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, Dlc_Tensor:$condition, I64Attr:$axis);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $condition attr-dict `:` type($input) `,` type($condition) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The input's shape (every slice kept at most once; a static input
    /// only, dlc::upperBoundShape bounds dynamic ones).
    llvm::SmallVector<int64_t> getUpperBounds(unsigned result);
  }];
}

def Dlc_UniqueOp : Dlc_Op<"unique", [Dlc_LowersDynamicShapes]> {
  let summary = "unique slices along an axis (ONNX Unique)";
  let description = [{
    The distinct slices of `input` along `axis`, in ascending lexicographic
    order when `sorted`, else in order of first occurrence; with the index
    of each one's first occurrence, the index in `output` of every input
    slice, and each one's count. Integers compare as unsigned with
    `unsigned_order` (ONNX's unsigned types; booleans always). The importer
    flattens the input when ONNX's axis is absent. The input's dimensions
    may be dynamic (`inverse_indices` is then as long as the input's axis).

    ```mlir
    %y, %first, %inverse, %counts = dlc.unique %x {axis = 0 : i64, sorted = true}
        : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, I64Attr:$axis, BoolAttr:$sorted,
                   DefaultValuedAttr<BoolAttr, "false">:$unsigned_order);
  let results = (outs Dlc_Tensor:$output, Dlc_Tensor:$indices,
                  Dlc_Tensor:$inverse_indices, Dlc_Tensor:$counts);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Every slice distinct: the input's shape, and its length along axis
    /// (a static input only; dlc::upperBoundShape bounds dynamic ones).
    llvm::SmallVector<int64_t> getUpperBounds(unsigned result);
  }];
}

def Dlc_NonMaxSuppressionOp : Dlc_Op<"non_max_suppression",
                                     [Dlc_LowersDynamicShapes]> {
  let summary = "greedy non-maximum suppression (ONNX NonMaxSuppression)";
  let description = [{
    For every batch and class, boxes are taken in descending order of score
    (the lower index first among equal scores), skipping those whose score
    is not above `score_threshold` and those whose intersection over union
    with a box already taken of the same class exceeds `iou_threshold`, until
    `max_output_boxes_per_class` are taken. Each row of the result is
    (batch, class, box index), by batch, then class, then order taken.
    `boxes` is [batches, boxes, 4] (corners, or centers and sizes with
    `center_point_box`), `scores` [batches, classes, boxes]; the three
    thresholds are one-element tensors. `max_boxes_bound` is an upper bound
    of the per-class maximum known at compile time (the number of boxes when
    the maximum is data). The numbers of batches, classes and boxes may be
    dynamic (symbolic, or the data-dependent size of an earlier op): the
    lowering then sizes its loops and result at run time.

    ```mlir
    %sel = dlc.non_max_suppression %boxes, %scores, %max, %iou, %score
        {center_point_box = false, max_boxes_bound = 3 : i64}
        : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$boxes, Dlc_FloatTensor:$scores,
                   Dlc_Tensor:$max_output_boxes_per_class,
                   Dlc_FloatTensor:$iou_threshold,
                   Dlc_FloatTensor:$score_threshold, BoolAttr:$center_point_box,
                   I64Attr:$max_boxes_bound);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// [batches * classes * min(max_boxes_bound, boxes), 3] (static scores
    /// only; dlc::upperBoundShape bounds dynamic ones).
    llvm::SmallVector<int64_t> getUpperBounds(unsigned result);
  }];
}
