// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-zero-size-tensors))' | FileCheck %s

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// An elementwise op over a tensor without elements computes nothing: the
// argument and the result become tensor<0xf32>, the generic is gone.
// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%{{.*}}: tensor<0xf32>) -> tensor<0xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0xf32>
// CHECK-NEXT: return %[[E]]
func.func @relu(%x: tensor<3x0x5xf32>) -> tensor<3x0x5xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x0x5xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x0x5xf32>) outs(%e : tensor<3x0x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<3x0x5xf32>
  return %r : tensor<3x0x5xf32>
}

// -----

// Tensors with elements are left alone, next to an empty slice.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<0xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: return %[[X]], %[[E]]
func.func @slice(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<0x2xf32>) {
  %s = tensor.extract_slice %x[1, 0] [0, 2] [1, 1] : tensor<4x2xf32> to tensor<0x2xf32>
  return %x, %s : tensor<4x2xf32>, tensor<0x2xf32>
}

// -----

// A reduction over an empty axis (ReduceMean of a 3x0x2 tensor) never runs
// its body: its result is its init (the sums stay 0), and the division
// after it remains. Tiling the empty loop used to crash.
// CHECK-LABEL: func.func @reduce_empty_axis
// CHECK-SAME: (%{{.*}}: tensor<0xf32>) -> tensor<3x2xf32>
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK-NOT: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: linalg.generic {{.*}} ins(%[[FILL]] : tensor<3x2xf32>)
// CHECK: arith.divf
func.func @reduce_empty_axis(%x: tensor<3x0x2xf32>) -> tensor<3x2xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<3x0x2xf32>) outs(%f : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<3x2xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c0 : f32
    linalg.yield %d : f32
  } -> tensor<3x2xf32>
  return %m : tensor<3x2xf32>
}
