// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// Lowering of dlc.slice, dlc.gather, dlc.expand, dlc.tile and dlc.pad
// (passes/lowering/DataMovement.cpp).

// Positive steps: one strided tensor.extract_slice.
// CHECK-LABEL: func.func @slice_positive
// CHECK-SAME:    (%[[X:.+]]: tensor<4x6xf32>)
// CHECK-NEXT:    %[[S:.+]] = tensor.extract_slice %[[X]][1, 0] [3, 3] [1, 2] : tensor<4x6xf32> to tensor<3x3xf32>
// CHECK-NEXT:    return %[[S]]
func.func @slice_positive(%x: tensor<4x6xf32>) -> tensor<3x3xf32> {
  %0 = dlc.slice %x {starts = array<i64: 1, 0>, steps = array<i64: 1, 2>} : tensor<4x6xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Negative steps: extract the covered range forwards from its lowest index
// (row 3 - 3 = 0; column 5 - 3 = 2, stride 3), then reverse those
// dimensions with a generic reading index N-1 - d.
// CHECK-LABEL: func.func @slice_negative
// CHECK-SAME:    (%[[X:.+]]: tensor<4x6xf32>)
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[X]][0, 2] [4, 2] [1, 3] : tensor<4x6xf32> to tensor<4x2xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x2xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (-d0 + 3, -d1 + 1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]] : tensor<4x2xf32>) outs(%[[E]] : tensor<4x2xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         return %[[R]]
func.func @slice_negative(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %0 = dlc.slice %x {starts = array<i64: 3, 5>, steps = array<i64: -1, -3>} : tensor<4x6xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Only the dimensions with negative steps (and more than one element) are
// reversed.
// CHECK-LABEL: func.func @slice_mixed
// CHECK:         %[[S:.+]] = tensor.extract_slice %{{.+}}[1, 2, 0] [2, 1, 5] [2, 1, 1] : tensor<4x3x5xf32> to tensor<2x1x5xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, -d2 + 4)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
func.func @slice_mixed(%x: tensor<4x3x5xf32>) -> tensor<2x1x5xf32> {
  %0 = dlc.slice %x {starts = array<i64: 1, 2, 4>, steps = array<i64: 2, -1, -1>} : tensor<4x3x5xf32> -> tensor<2x1x5xf32>
  return %0 : tensor<2x1x5xf32>
}

// -----

// Gather: a generic over the result reads the index (its map picks the
// indices' dims out of the result's), wraps negative indices by the axis
// size (4), clamps the result into [0, 3] (out-of-range indices read no
// memory outside the data) and tensor.extracts the element with the other
// coordinates from linalg.index.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[X:.+]]: tensor<5x4x3xf32>, %[[I:.+]]: tensor<2xi64>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<5x2x3xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:      ins(%[[I]] : tensor<2xi64>) outs(%[[E]] : tensor<5x2x3xf32>)
// CHECK:         ^bb0(%[[IDX:.+]]: i64, %{{.+}}: f32):
// CHECK-NEXT:      %[[N:.+]] = arith.constant 4 : index
// CHECK-NEXT:      %[[C:.+]] = arith.index_cast %[[IDX]] : i64 to index
// CHECK-NEXT:      %[[Z:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:      %[[NEG:.+]] = arith.cmpi slt, %[[C]], %[[Z]] : index
// CHECK-NEXT:      %[[W:.+]] = arith.addi %[[C]], %[[N]] : index
// CHECK-NEXT:      %[[S:.+]] = arith.select %[[NEG]], %[[W]], %[[C]] : index
// CHECK-NEXT:      %[[LAST:.+]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK-NEXT:      %[[LO:.+]] = arith.minsi %[[S]], %[[LAST]] : index
// CHECK-NEXT:      %[[J:.+]] = arith.maxsi %[[LO]], %[[Z]] : index
// CHECK-NEXT:      %[[D0:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D2:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[V:.+]] = tensor.extract %[[X]][%[[D0]], %[[J]], %[[D2]]] : tensor<5x4x3xf32>
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         return %[[R]]
func.func @gather(%x: tensor<5x4x3xf32>, %i: tensor<2xi64>) -> tensor<5x2x3xf32> {
  %0 = dlc.gather %x, %i {axis = 1 : i64} : tensor<5x4x3xf32>, tensor<2xi64> -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// -----

// 2-D indices on axis 0 take the first two result dims; the data's
// trailing dim follows.
// CHECK-LABEL: func.func @gather_2d_indices
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:           %[[D2:.+]] = linalg.index 2 : index
// CHECK-NEXT:      tensor.extract %{{.+}}[%{{.+}}, %[[D2]]] : tensor<6x4xf32>
func.func @gather_2d_indices(%x: tensor<6x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  %0 = dlc.gather %x, %i {axis = 0 : i64} : tensor<6x4xf32>, tensor<2x3xi32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Expand is a broadcasting copy.
// CHECK-LABEL: func.func @expand
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:      outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Tile [2, 3] by [2, 3]: broadcast to [reps0, 2, reps1, 3] = 2x2x3x3 (the
// input indexed by d1, d3), then reshape to 4x9.
// CHECK-LABEL: func.func @tile
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x2x3x3xf32>
// CHECK:         %[[B:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x2x3x3xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2, 3]] : tensor<2x2x3x3xf32> into tensor<4x9xf32>
// CHECK:         return %[[R]]
func.func @tile(%x: tensor<2x3xf32>) -> tensor<4x9xf32> {
  %0 = dlc.tile %x : tensor<2x3xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

// Pad is tensor.pad with the begin pads low and the end pads high, yielding
// the value converted to the element type.
// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[X:.+]]: tensor<2x2xf32>, %[[I:.+]]: tensor<3xi64>)
// CHECK:         %[[V:.+]] = arith.constant -1.500000e+00 : f32
// CHECK:         %[[P:.+]] = tensor.pad %[[X]] low[0, 1] high[2, 3]
// CHECK:           tensor.yield %[[V]] : f32
// CHECK:         } : tensor<2x2xf32> to tensor<4x6xf32>
// CHECK:         %[[W:.+]] = arith.constant 7 : i64
// CHECK:         %[[Q:.+]] = tensor.pad %[[I]] low[1] high[0]
// CHECK:           tensor.yield %[[W]] : i64
// CHECK:         } : tensor<3xi64> to tensor<4xi64>
// CHECK:         return %[[P]], %[[Q]]
func.func @pad(%x: tensor<2x2xf32>, %i: tensor<3xi64>) -> (tensor<4x6xf32>, tensor<4xi64>) {
  %0 = dlc.pad %x {pads = array<i64: 0, 1, 2, 3>, value = -1.5 : f64} : tensor<2x2xf32> -> tensor<4x6xf32>
  %1 = dlc.pad %i {pads = array<i64: 1, 0>, value = 7.0 : f64} : tensor<3xi64> -> tensor<4xi64>
  return %0, %1 : tensor<4x6xf32>, tensor<4xi64>
}
