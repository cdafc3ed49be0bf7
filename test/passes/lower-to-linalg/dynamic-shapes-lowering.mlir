// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s

// Elementwise ops and 2-D matmuls size their dynamic dimensions at run time
// from their operands: M from A, broadcasts from the operand that has the
// dimension.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x16xf32>, %[[W:[^:]+]]: tensor<16x32xf32>, %[[B:[^:]+]]: tensor<32xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0 : tensor<?x16xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x32xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<?x16xf32>, tensor<16x32xf32>) outs(%[[F]] : tensor<?x32xf32>)
// CHECK:         %[[E2:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         %[[ADD:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MM]], %[[B]] : tensor<?x32xf32>, tensor<32xf32>) outs(%[[E2]] : tensor<?x32xf32>)
// CHECK:         %[[E3:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         linalg.generic {{.+}} ins(%[[ADD]] : tensor<?x32xf32>) outs(%[[E3]] : tensor<?x32xf32>)
func.func @mlp(%x: tensor<?x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = dlc.matmul %x, %w : tensor<?x16xf32>, tensor<16x32xf32> -> tensor<?x32xf32>
  %1 = dlc.add %0, %b : tensor<?x32xf32>, tensor<32xf32> -> tensor<?x32xf32>
  %2 = dlc.relu %1 : tensor<?x32xf32>
  return %2 : tensor<?x32xf32>
}

// -----

// A dynamic dimension broadcast against 1 takes the size of the operand
// that has it; N of a matmul comes from B.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<1x?xf32>, %[[B:[^:]+]]: tensor<?x1xf32>, %[[W:[^:]+]]: tensor<4x?xf32>,
// CHECK-DAG:     %[[R:.+]] = tensor.dim %[[B]], %c0 : tensor<?x1xf32>
// CHECK-DAG:     %[[C:.+]] = tensor.dim %[[A]], %c1 : tensor<1x?xf32>
// CHECK:         tensor.empty(%[[R]], %[[C]]) : tensor<?x?xf32>
// CHECK:         %[[N:.+]] = tensor.dim %[[W]], %c1 : tensor<4x?xf32>
// CHECK:         tensor.empty(%[[N]]) : tensor<3x?xf32>
func.func @broadcast(%a: tensor<1x?xf32>, %b: tensor<?x1xf32>, %w: tensor<4x?xf32>, %v: tensor<3x4xf32>) -> (tensor<?x?xf32>, tensor<3x?xf32>) {
  %0 = dlc.mul %a, %b : tensor<1x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %1 = dlc.matmul %v, %w : tensor<3x4xf32>, tensor<4x?xf32> -> tensor<3x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<3x?xf32>
}

// -----

// A reshape with dynamic dimensions goes through the flat tensor and views
// it at the sizes it carries (which canonicalization folds into one
// collapse where it can).
// CHECK-LABEL: func.func @reshape
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x8x4xf32>, %[[Y:[^:]+]]: tensor<?x?xf32>, %[[N:[^:]+]]: index, %[[M:[^:]+]]: index)
// CHECK:         tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2]] : tensor<?x8x4xf32> into tensor<?x32xf32>
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1]] : tensor<?x?xf32> into tensor<?xf32>
// CHECK:         tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [%[[N]], 2, %[[M]]] : tensor<?xf32> into tensor<?x2x?xf32>
func.func @reshape(%x: tensor<?x8x4xf32>, %y: tensor<?x?xf32>, %n: index, %m: index) -> (tensor<?x32xf32>, tensor<?x2x?xf32>) {
  %0 = dlc.reshape %x sizes(%n) : tensor<?x8x4xf32> -> tensor<?x32xf32>
  %1 = dlc.reshape %y sizes(%n, %m) : tensor<?x?xf32> -> tensor<?x2x?xf32>
  return %0, %1 : tensor<?x32xf32>, tensor<?x2x?xf32>
}

// -----

// Reductions size the kept dimensions from the input and count the reduced
// elements at run time for a mean.
// CHECK-LABEL: func.func @mean
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x?xf32>)
// CHECK:         %[[R:.+]] = tensor.dim %[[X]], %c0
// CHECK:         tensor.empty(%[[R]]) : tensor<?xf32>
// CHECK:         %[[C:.+]] = tensor.dim %[[X]], %c1
// CHECK:         %[[CNT:.+]] = arith.index_castui %[[C]] : index to i64
// CHECK:         arith.uitofp %[[CNT]] : i64 to f32
func.func @mean(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %0 = dlc.reduce %x {kind = "mean", axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// Transposes permute the input's sizes; concatenations add theirs along
// the axis and place each input at the running offset (opaque to the
// value-bounds analysis: cast through i64).
// CHECK-LABEL: func.func @transpose_concat
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x3xf32>, %[[Y:[^:]+]]: tensor<?x3xf32>)
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK:         tensor.empty(%[[N]]) : tensor<3x?xf32>
// CHECK:         %[[N1:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[M:.+]] = tensor.dim %[[Y]], %c0
// CHECK:         %[[SUM:.+]] = arith.addi %[[N1]], %[[M]]
// CHECK:         %[[E:.+]] = tensor.empty(%[[SUM]]) : tensor<?x3xf32>
// CHECK:         %[[N2:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[A:.+]] = tensor.insert_slice %[[X]] into %[[E]][0, 0] [%[[N2]], 3] [1, 1]
// CHECK:         %[[I64:.+]] = arith.index_cast %[[N2]] : index to i64
// CHECK:         %[[OFF:.+]] = arith.index_castui %[[I64]] : i64 to index
// CHECK:         %[[M2:.+]] = tensor.dim %[[Y]], %c0
// CHECK:         tensor.insert_slice %[[Y]] into %[[A]][%[[OFF]], 0] [%[[M2]], 3] [1, 1]
func.func @transpose_concat(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> (tensor<3x?xf32>, tensor<?x3xf32>) {
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<?x3xf32> -> tensor<3x?xf32>
  %1 = dlc.concat %x, %y {axis = 0 : i64} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<3x?xf32>, tensor<?x3xf32>
}

// -----

// A convolution's output size follows ONNX's formula at run time:
// (H + 2 - 3) floordiv 2 + 1 for a 3x3 kernel, stride 2, padding 1
// (canonicalized to (H - 3) floordiv 2 + 2), and at least 0: an input
// smaller than the window gives an empty output.
// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x3x?x?xf32>,
// CHECK:         tensor.pad
// CHECK:         tensor.dim %[[X]], %c0
// CHECK:         %[[H:.+]] = tensor.dim %[[X]], %c2
// CHECK:         %[[OH:.+]] = affine.max affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 2, 0)>()[%[[H]]]
// CHECK:         %[[W:.+]] = tensor.dim %[[X]], %c3
// CHECK:         %[[OW:.+]] = affine.max affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 2, 0)>()[%[[W]]]
// CHECK:         tensor.empty(%{{.+}}, %[[OH]], %[[OW]]) : tensor<?x8x?x?xf32>
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<?x3x?x?xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}

// -----

// Gather takes its dynamic result dimensions from the indices (an
// embedding lookup by ids of run-time shape).
// CHECK-LABEL: func.func @gather_dynamic
// CHECK-SAME:    (%[[T:[^:]+]]: tensor<16x8xf32>, %[[I:[^:]+]]: tensor<?x?xi64>)
// CHECK-DAG:     %[[D0:.+]] = tensor.dim %[[I]], %c0
// CHECK-DAG:     %[[D1:.+]] = tensor.dim %[[I]], %c1
// CHECK:         tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?x8xf32>
// CHECK:         tensor.extract %[[T]]
func.func @gather_dynamic(%t: tensor<16x8xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x8xf32> {
  %0 = dlc.gather %t, %i {axis = 0 : i64} : tensor<16x8xf32>, tensor<?x?xi64> -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// -----

// GatherElements has the indices' shape; negative indices wrap by the
// axis' run-time size.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x?xf32>, %[[I:[^:]+]]: tensor<?x1xi64>)
// CHECK:         %[[N:.+]] = tensor.dim %[[I]], %c0
// CHECK:         tensor.empty(%[[N]]) : tensor<?x1xf32>
// CHECK:         %[[AX:.+]] = tensor.dim %[[X]], %c1
// CHECK:         arith.addi %{{.+}}, %[[AX]] : index
func.func @gather_elements_dynamic(%x: tensor<?x?xf32>, %i: tensor<?x1xi64>) -> tensor<?x1xf32> {
  %0 = dlc.gather_elements %x, %i {axis = 1 : i64} : tensor<?x?xf32>, tensor<?x1xi64> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// GatherElements' data and indices are not broadcast together: a dynamic
// data dimension facing a fixed index count is not refused.
// CHECK-LABEL: func.func @gather_elements_fixed_indices
// CHECK:         tensor.empty() : tensor<2x5xf32>
func.func @gather_elements_fixed_indices(%x: tensor<2x?xf32>, %i: tensor<2x5xi64>) -> tensor<2x5xf32> {
  %0 = dlc.gather_elements %x, %i {axis = 1 : i64} : tensor<2x?xf32>, tensor<2x5xi64> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// AveragePool over dynamic spatial sizes divides by each window's count of
// input elements, computed per output position at run time (3x3 windows,
// stride 2, pads 1, count_include_pad off: min(3, H - start) - max(0,
// -start), start = 2*o - 1).
// CHECK-LABEL: func.func @avg_pool_dynamic
// CHECK:         %[[SUM:.+]] = linalg.pooling_nchw_sum
// CHECK:         %[[H:.+]] = tensor.dim %arg0, %c2
// CHECK:         linalg.generic {{.+}} ins(%[[SUM]] : tensor<1x1x?x?xf32>)
// CHECK:           %[[O:.+]] = linalg.index 2 : index
// CHECK:           %[[S:.+]] = arith.muli %[[O]], %c2 : index
// CHECK:           %[[START:.+]] = arith.subi %[[S]], %c1 : index
// CHECK:           %[[NEG:.+]] = arith.subi %c1, %[[S]] : index
// CHECK:           %[[FIRST:.+]] = arith.maxsi %[[NEG]], %c0 : index
// CHECK:           %[[LEFT:.+]] = arith.subi %[[H]], %[[START]] : index
// CHECK:           %[[LAST:.+]] = arith.minsi %[[LEFT]], %c3 : index
// CHECK:           arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK:           arith.divf
func.func @avg_pool_dynamic(%a: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  %0 = dlc.avg_pool %a {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}
