// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-constant-reads | FileCheck %s

// A [F=4, C=1, KW=3] filter read 4 filters at a time (a strided gather) is
// stored as [C, KW, F] instead: the read becomes contiguous along F, the
// largest vector dim, and a transpose restores the vector order. Element
// (f, c, kw) = 10 * f + kw.
// CHECK-LABEL: func.func @filter
// CHECK:         %[[P:.+]] = arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<1x3x4xf32>
// CHECK:         %[[R:.+]] = vector.transfer_read %[[P]][%{{.+}}, %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, true]} : tensor<1x3x4xf32>, vector<3x4xf32>
// CHECK:         vector.transpose %[[R]], [1, 0] : vector<3x4xf32> to vector<4x3xf32>
// The packed bytes (64-byte alignment, then (c=0, kw, f)): 0, 10, 20, 30,
// 1, 11, 21, 31, 2, 12, 22, 32.
// CHECK:       dlc_packed{{[_0-9]*}}: "0x400000000000000000002041{{0+}}A0410000F0410000803F000030410000A8410000F84100000040000040410000B04100000042"
func.func @filter(%c: index) -> vector<4x3xf32> {
  %cst = arith.constant dense<[[[0.0, 1.0, 2.0]], [[10.0, 11.0, 12.0]], [[20.0, 21.0, 22.0]], [[30.0, 31.0, 32.0]]]> : tensor<4x1x3xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %0 = vector.transfer_read %cst[%c0, %c, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d0, d2)>} : tensor<4x1x3xf32>, vector<4x3xf32>
  return %0 : vector<4x3xf32>
}

// -----

// Constants with a use that is not such a read, or read along their minor
// dims already, are left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     dlc_packed
// CHECK:         return
func.func @left_alone(%t: tensor<2x1x3xf32>) -> (vector<1x3xf32>, tensor<2x1x3xf32>) {
  %cst = arith.constant dense<[[[0.0, 1.0, 2.0]], [[10.0, 11.0, 12.0]]]> : tensor<2x1x3xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %0 = vector.transfer_read %cst[%c0, %c0, %c0], %pad {in_bounds = [true, true]} : tensor<2x1x3xf32>, vector<1x3xf32>
  %1 = arith.addf %t, %cst : tensor<2x1x3xf32>
  return %0, %1 : vector<1x3xf32>, tensor<2x1x3xf32>
}
