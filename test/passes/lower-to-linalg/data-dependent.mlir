// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s

// NonZero: a loop nest over the input appends the coordinates of each
// non-zero element (NaN counts) as a column of the [rank, elements] bound;
// the result is its leading slice, its size clamped to the bound (which it
// never exceeds) so that value bounds hold for sizes computed from it.
// CHECK-LABEL: func.func @nonzero
// CHECK:         %[[BOUND:.+]] = linalg.fill {{.+}} -> tensor<2x6xi64>
// CHECK:         %[[R:.+]]:2 = scf.for {{.+}} iter_args(%{{.+}} = %[[BOUND]], %{{.+}} = %c0)
// CHECK:           scf.for
// CHECK:             %[[X:.+]] = tensor.extract
// CHECK:             %[[NZ:.+]] = arith.cmpf une, %[[X]]
// CHECK:             scf.if %[[NZ]]
// CHECK-COUNT-2:       tensor.insert
// CHECK:         %[[NMIN:.+]] = affine.min affine_map<()[s0] -> (6, s0)>()[%[[R]]#1]
// CHECK:         %[[N:.+]] = affine.max affine_map<()[s0] -> (0, s0)>()[%[[NMIN]]]
// CHECK:         tensor.extract_slice %[[R]]#0[0, 0] [2, %[[N]]] [1, 1] : tensor<2x6xi64> to tensor<2x?xi64>
func.func @nonzero(%x: tensor<2x3xf32>) -> tensor<2x?xi64> {
  %0 = dlc.nonzero %x : tensor<2x3xf32> -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// NonZero of a dynamic input: the loops run to its sizes, read at run time,
// in a bound of [rank, its number of elements] sized at run time too; the
// count is the smaller of the loop's and that number.
// CHECK-LABEL: func.func @nonzero_dynamic
// CHECK-SAME:    (%[[X:.+]]: tensor<?x3xf32>)
// CHECK:         %[[D:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[NUMEL:.+]] = arith.muli %[[D]], %c3
// CHECK:         %[[E:.+]] = tensor.empty(%[[NUMEL]]) : tensor<2x?xi64>
// CHECK:         %[[BOUND:.+]] = linalg.fill {{.+}} outs(%[[E]] : tensor<2x?xi64>)
// CHECK:         %[[R:.+]]:2 = scf.for %{{.+}} = %c0 to %[[D]] {{.+}} iter_args(%{{.+}} = %[[BOUND]], %{{.+}} = %c0)
// CHECK:           scf.for %{{.+}} = %c0 to %c3
// CHECK:         %[[NMIN:.+]] = affine.min affine_map<()[s0, s1] -> (s1, s0)>()[%[[R]]#1, %[[NUMEL]]]
// CHECK:         %[[N:.+]] = affine.max affine_map<()[s0] -> (0, s0)>()[%[[NMIN]]]
// CHECK:         tensor.extract_slice %[[R]]#0[0, 0] [2, %[[N]]] [1, 1] : tensor<2x?xi64> to tensor<2x?xi64>
func.func @nonzero_dynamic(%x: tensor<?x3xf32>) -> tensor<2x?xi64> {
  %0 = dlc.nonzero %x : tensor<?x3xf32> -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// Compress: the indices of the kept slices (only the condition's 2 entries
// are read), then a gather of the slices into the input's shape, sliced.
// CHECK-LABEL: func.func @compress
// CHECK:         %[[KEPT:.+]]:2 = scf.for %{{.+}} = %c0 to %c2
// CHECK:         %[[G:.+]] = linalg.generic {{.+}} ins(%[[KEPT]]#0 : tensor<3xi64>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:           tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<2x3xf32>
// CHECK:         %[[KMIN:.+]] = affine.min affine_map<()[s0] -> (3, s0)>()[%[[KEPT]]#1]
// CHECK:         %[[K:.+]] = affine.max affine_map<()[s0] -> (0, s0)>()[%[[KMIN]]]
// CHECK:         tensor.extract_slice %[[G]][0, 0] [2, %[[K]]] [1, 1] : tensor<2x3xf32> to tensor<2x?xf32>
func.func @compress(%x: tensor<2x3xf32>, %c: tensor<2xi1>) -> tensor<2x?xf32> {
  %0 = dlc.compress %x, %c {axis = 1 : i64} : tensor<2x3xf32>, tensor<2xi1> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Compress over dynamic sizes: the condition is read up to the smaller of
// its length and the axis' size; the kept indices and the gathered slices
// are sized at run time.
// CHECK-LABEL: func.func @compress_dynamic
// CHECK-SAME:    (%[[X:.+]]: tensor<?x?xf32>, %[[C:.+]]: tensor<?xi1>)
// CHECK-DAG:     %[[A:.+]] = tensor.dim %[[X]], %c1
// CHECK-DAG:     %[[L:.+]] = tensor.dim %[[C]], %c0
// CHECK:         %[[N:.+]] = affine.min affine_map<()[s0, s1] -> ({{.+}})>()[%[[A]], %[[L]]]
// CHECK:         %[[KEPT:.+]]:2 = scf.for %{{.+}} = %c0 to %[[N]]
// CHECK:         %[[G:.+]] = linalg.generic {{.+}} ins(%[[KEPT]]#0 : tensor<?xi64>) outs(%{{.+}} : tensor<?x?xf32>)
// CHECK:         %[[KMIN:.+]] = affine.min affine_map<()[s0, s1] -> ({{.+}})>()[%[[KEPT]]#1, %[[A]]]
// CHECK:         %[[K:.+]] = affine.max affine_map<()[s0] -> (0, s0)>()[%[[KMIN]]]
// CHECK:         tensor.extract_slice %[[G]][0, 0] [%{{.+}}, %[[K]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
func.func @compress_dynamic(%x: tensor<?x?xf32>, %c: tensor<?xi1>) -> tensor<?x?xf32> {
  %0 = dlc.compress %x, %c {axis = 1 : i64} : tensor<?x?xf32>, tensor<?xi1> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Unique over a dynamic axis: inverse_indices is as long as the input.
// CHECK-LABEL: func.func @unique_dynamic
// CHECK-SAME:    -> (tensor<?x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
// CHECK-COUNT-3: tensor.extract_slice
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return
func.func @unique_dynamic(%x: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %0:4 = dlc.unique %x {axis = 0 : i64, sorted = true} : (tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<?x2xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}

// -----

// Unique: inverse_indices keeps the static bound; the others are sliced to
// the number of distinct slices.
// CHECK-LABEL: func.func @unique
// CHECK-SAME:    -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
// CHECK-COUNT-3: tensor.extract_slice
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return
func.func @unique(%x: tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>) {
  %0:4 = dlc.unique %x {axis = 0 : i64, sorted = true} : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>
}

// -----

// NonMaxSuppression: rows of (batch, class, box) in a bound of
// batches * classes * max_boxes_bound rows.
// CHECK-LABEL: func.func @nms
// The data's maximum is clamped to the bound.
// CHECK:         arith.minsi %{{.+}}, %c2
// CHECK:         linalg.fill {{.+}} -> tensor<4x3xi64>
// CHECK:         tensor.extract_slice %{{.+}}[0, 0] [%{{.+}}, 3] [1, 1] : tensor<4x3xi64> to tensor<?x3xi64>
func.func @nms(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  %0 = dlc.non_max_suppression %b, %s, %m, %t, %t {center_point_box = false, max_boxes_bound = 2 : i64}
      : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// NonMaxSuppression over a dynamic number of boxes: the loops run to it
// (the smaller of the boxes' and the scores' where both are dynamic), the
// bound is batches * classes * min(boxes, max_boxes_bound) rows, sized at
// run time.
// CHECK-LABEL: func.func @nms_dynamic
// CHECK-SAME:    (%[[B:.+]]: tensor<1x?x4xf32>, %[[S:.+]]: tensor<1x2x?xf32>
// CHECK-DAG:     %[[NB:.+]] = tensor.dim %[[B]], %c1
// CHECK-DAG:     %[[NS:.+]] = tensor.dim %[[S]], %c2
// CHECK:         %[[N:.+]] = affine.min affine_map<()[s0, s1] -> (s1, s0)>()[%[[NB]], %[[NS]]]
// CHECK:         %[[K:.+]] = affine.min affine_map<()[s0, s1] -> (5, s1, s0)>()[%[[NB]], %[[NS]]]
// CHECK:         %[[ROWS:.+]] = arith.muli %[[K]], %c2
// CHECK:         tensor.empty(%[[ROWS]]) : tensor<?x3xi64>
// CHECK:         tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK:         scf.for %{{.+}} = %c0 to %c2
// CHECK:           scf.for %{{.+}} = %c0 to %[[N]]
// CHECK:         tensor.extract_slice %{{.+}}[0, 0] [%{{.+}}, 3] [1, 1] : tensor<?x3xi64> to tensor<?x3xi64>
func.func @nms_dynamic(%b: tensor<1x?x4xf32>, %s: tensor<1x2x?xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  %0 = dlc.non_max_suppression %b, %s, %m, %t, %t {center_point_box = false, max_boxes_bound = 5 : i64}
      : (tensor<1x?x4xf32>, tensor<1x2x?xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
