// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// Same shapes: identity maps on every operand, arith.addf in the body.
// CHECK-LABEL: func.func @add_f32
// CHECK-SAME:    (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<2x3xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @add_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.add %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A lower-rank operand is aligned to the trailing dims of the result.
// CHECK-LABEL: func.func @mul_bcast_rank
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x2x3xf32>, tensor<3xf32>)
// CHECK:         arith.mulf
func.func @mul_bcast_rank(%a: tensor<4x2x3xf32>, %b: tensor<3xf32>) -> tensor<4x2x3xf32> {
  %0 = dlc.mul %a, %b : tensor<4x2x3xf32>, tensor<3xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Size-1 dims that broadcast read index 0 (both operands broadcast here).
// CHECK-LABEL: func.func @sub_bcast_ones
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:         arith.subf
func.func @sub_bcast_ones(%a: tensor<2x1xf32>, %b: tensor<1x4xf32>) -> tensor<2x4xf32> {
  %0 = dlc.sub %a, %b : tensor<2x1xf32>, tensor<1x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A size-1 dim that matches a size-1 result dim keeps its loop index.
// CHECK-LABEL: func.func @add_unit_result_dim
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @add_unit_result_dim(%a: tensor<1x4xf32>, %b: tensor<1x1xf32>) -> tensor<1x4xf32> {
  %0 = dlc.add %a, %b : tensor<1x4xf32>, tensor<1x1xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// A rank-0 operand has an empty map.
// CHECK-LABEL: func.func @div_scalar
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
// CHECK:         arith.divf
func.func @div_scalar(%a: tensor<8xf32>, %b: tensor<f32>) -> tensor<8xf32> {
  %0 = dlc.div %a, %b : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Integer element types use the integer arith ops (signed division).
// CHECK-LABEL: func.func @int_ops
// CHECK:         linalg.generic
// CHECK:           arith.addi %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic
// CHECK:           arith.subi %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic
// CHECK:           arith.muli %{{.+}}, %{{.+}} : i64
// CHECK:         linalg.generic
// CHECK:           arith.divsi %{{.+}}, %{{.+}} : i64
// CHECK-NOT:     arith.{{.*}}f
// CHECK:         return
func.func @int_ops(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi64>, %d: tensor<4xi64>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>) {
  %0 = dlc.add %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = dlc.sub %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %2 = dlc.mul %c, %d : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %3 = dlc.div %c, %d : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>
}

// -----

// Float element types other than f32 keep their type.
// CHECK-LABEL: func.func @float_ops_f16
// CHECK:         arith.subf %{{.+}}, %{{.+}} : f16
// CHECK:         arith.mulf %{{.+}}, %{{.+}} : f16
// CHECK:         arith.divf %{{.+}}, %{{.+}} : f16
func.func @float_ops_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %0 = dlc.sub %a, %b : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  %1 = dlc.mul %a, %b : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  %2 = dlc.div %a, %b : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}
