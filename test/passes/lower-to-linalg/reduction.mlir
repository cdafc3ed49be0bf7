// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// A sum over axes 1 and 2 is one generic reduction into the kept dims
// (initialized with 0 by a fill); keepdims then reshapes the 2-vector to
// 2x1x1.
// CHECK-LABEL: func.func @sum_keepdims
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2xf32>
// CHECK:         %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         %[[K:.+]] = tensor.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
// CHECK:         return %[[K]]
func.func @sum_keepdims(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = dlc.reduce %x {kind = "sum", axes = array<i64: 1, 2>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// -----

// Mean over non-adjacent axes 0 and 2 sums, then divides by the count of
// reduced elements (2 * 4 = 8) elementwise.
// CHECK-LABEL: func.func @mean
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>]
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "reduction"]
// CHECK:           arith.addf
// CHECK:         %[[M:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]] : tensor<3xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[N:.+]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:      %[[D:.+]] = arith.divf %[[IN]], %[[N]] : f32
// CHECK-NEXT:      linalg.yield %[[D]] : f32
// CHECK:         return %[[M]]
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = dlc.reduce %x {kind = "mean", axes = array<i64: 0, 2>, keepdims = false} : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// L2 squares inside the reduction and takes the square root after it.
// CHECK-LABEL: func.func @l2
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[SQ:.+]] = arith.mulf %[[IN]], %[[IN]] : f32
// CHECK-NEXT:      %[[A:.+]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK-NEXT:      linalg.yield %[[A]] : f32
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]] : tensor<2xf32>)
// CHECK:           %[[RT:.+]] = math.sqrt %{{.+}} : f32
// CHECK-NEXT:      linalg.yield %[[RT]] : f32
// CHECK:         return %[[R]]
func.func @l2(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = dlc.reduce %x {kind = "l2", axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Max starts from the smallest value of the type: -inf for floats, the
// minimum signed integer for integers (compared signed).
// CHECK-LABEL: func.func @max
// CHECK:         %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NINF]] : f32)
// CHECK:           arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK:         %[[IMIN:.+]] = arith.constant -2147483648 : i32
// CHECK:         linalg.fill ins(%[[IMIN]] : i32)
// CHECK:           arith.maxsi %{{.+}}, %{{.+}} : i32
func.func @max(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0 = dlc.reduce %x {kind = "max", axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  %1 = dlc.reduce %i {kind = "max", axes = array<i64: 1>, keepdims = false} : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// ArgMax is a generic with two results, the running maximum (from -inf)
// and its index (from -1), both over the kept dims; the index is the
// linalg.index of the reduced loop. The first element always wins (index
// still -1); later ones only when strictly greater (the first maximum).
// keepdims reshapes the index result.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3xf32>)
// CHECK:         %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[VAL:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.+}} : tensor<2xf32>)
// CHECK:         %[[M1:.+]] = arith.constant -1 : i64
// CHECK:         %[[IDX:.+]] = linalg.fill ins(%[[M1]] : i64) outs(%{{.+}} : tensor<2xi64>)
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3xf32>) outs(%[[VAL]], %[[IDX]] : tensor<2xf32>, tensor<2xi64>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[BEST:.+]]: f32, %[[BI:.+]]: i64):
// CHECK-NEXT:      %[[I:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[I64:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[GT:.+]] = arith.cmpf ogt, %[[IN]], %[[BEST]] : f32
// CHECK-NEXT:      %[[Z:.+]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[FIRST:.+]] = arith.cmpi slt, %[[BI]], %[[Z]] : i64
// CHECK-NEXT:      %[[TAKE:.+]] = arith.ori %[[GT]], %[[FIRST]] : i1
// CHECK-NEXT:      %[[NV:.+]] = arith.select %[[TAKE]], %[[IN]], %[[BEST]] : f32
// CHECK-NEXT:      %[[NI:.+]] = arith.select %[[TAKE]], %[[I64]], %[[BI]] : i64
// CHECK-NEXT:      linalg.yield %[[NV]], %[[NI]] : f32, i64
// CHECK:         %[[K:.+]] = tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
// CHECK:         return %[[K]]
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = dlc.arg_reduce %x {is_max = true, axis = 1 : i64, keepdims = true, select_last_index = false} : tensor<2x3xf32> -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// ArgMin over axis 0 with select_last_index: integers from the maximum
// signed value, and ties win too (sle), so the last minimum is kept.
// CHECK-LABEL: func.func @argmin_last
// CHECK:         %[[IMAX:.+]] = arith.constant 2147483647 : i32
// CHECK:         linalg.fill ins(%[[IMAX]] : i32)
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>]
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK:           linalg.index 0 : index
// CHECK:           arith.cmpi sle, %{{.+}}, %{{.+}} : i32
// CHECK:         return %[[R]]#1 : tensor<5xi64>
func.func @argmin_last(%x: tensor<4x5xi32>) -> tensor<5xi64> {
  %0 = dlc.arg_reduce %x {is_max = false, axis = 0 : i64, keepdims = false, select_last_index = true} : tensor<4x5xi32> -> tensor<5xi64>
  return %0 : tensor<5xi64>
}
