// RUN: dlc-opt %s -split-input-file --dlc-cpu-version-partial-tiles --canonicalize | FileCheck %s

// A matmul of run-time M tiled by 8 rows: its tile computation is versioned
// on the tile size. Full tiles (8 rows) take a copy with the constant size,
// which canonicalization turns into static shapes (the vectorizer's); the
// last partial tile keeps the original computation, its linalg ops tiled by
// 1 along the dynamic rows (static single rows, vectorized too).
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         scf.forall
// CHECK:           %[[SIZE:.+]] = affine.min
// CHECK:           %[[FULL:.+]] = arith.cmpi eq, %[[SIZE]], %c8 : index
// CHECK:           %[[TILE:.+]] = scf.if %[[FULL]] -> (tensor<?x32xf32>) {
// CHECK:             linalg.fill {{.*}} -> tensor<8x32xf32>
// CHECK:             scf.for
// CHECK:               linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x1xf32>, tensor<1x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:             tensor.cast %{{.+}} : tensor<8x32xf32> to tensor<?x32xf32>
// CHECK:           } else {
// CHECK:             scf.for %{{.+}} = %c0 to %[[SIZE]] step %c1
// CHECK:               linalg.fill {{.*}} -> tensor<1x32xf32>
// CHECK:             scf.for
// CHECK:               scf.for %{{.+}} = %c0 to %[[SIZE]] step %c1
// CHECK:                 linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<1x1xf32>, tensor<1x32xf32>) outs(%{{.+}} : tensor<1x32xf32>)
// CHECK:           }
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[TILE]]
func.func @dynamic_rows(%arg0: tensor<?x64xf32>, %arg1: tensor<64x64xf32>, %arg2: index) -> tensor<?x64xf32> {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%arg2) : tensor<?x64xf32>
  %dim = tensor.dim %arg0, %c0 : tensor<?x64xf32>
  %1 = scf.forall (%arg3, %arg4) = (0, 0) to (64, %dim) step (32, 8) shared_outs(%arg5 = %0) -> (tensor<?x64xf32>) {
    %2 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%arg4)[%dim]
    %extracted_slice = tensor.extract_slice %arg0[%arg4, 0] [%2, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
    %extracted_slice_0 = tensor.extract_slice %arg1[0, %arg3] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
    %extracted_slice_1 = tensor.extract_slice %arg5[%arg4, %arg3] [%2, 32] [1, 1] : tensor<?x64xf32> to tensor<?x32xf32>
    %3 = linalg.fill  ins(%cst : f32) outs(%extracted_slice_1 : tensor<?x32xf32>) -> tensor<?x32xf32>
    %4 = scf.for %arg6 = %c0 to %c64 step %c1 iter_args(%arg7 = %3) -> (tensor<?x32xf32>) {
      %extracted_slice_2 = tensor.extract_slice %extracted_slice[0, %arg6] [%2, 1] [1, 1] : tensor<?x64xf32> to tensor<?x1xf32>
      %extracted_slice_3 = tensor.extract_slice %extracted_slice_0[%arg6, 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<1x32xf32>
      %extracted_slice_4 = tensor.extract_slice %arg7[0, 0] [%2, 32] [1, 1] : tensor<?x32xf32> to tensor<?x32xf32>
      %5 = linalg.matmul  ins(%extracted_slice_2, %extracted_slice_3 : tensor<?x1xf32>, tensor<1x32xf32>) outs(%extracted_slice_4 : tensor<?x32xf32>) -> tensor<?x32xf32>
      %inserted_slice = tensor.insert_slice %5 into %arg7[0, 0] [%2, 32] [1, 1] : tensor<?x32xf32> into tensor<?x32xf32>
      scf.yield %inserted_slice : tensor<?x32xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %4 into %arg5[%arg4, %arg3] [%2, 32] [1, 1] : tensor<?x32xf32> into tensor<?x64xf32>
    }
  }
  return %1 : tensor<?x64xf32>
}

// -----

// Static loops have no run-time sizes: nothing is versioned.
// CHECK-LABEL: func.func @static_rows
// CHECK-NOT:     scf.if
func.func @static_rows(%a: tensor<20x64xf32>, %init: tensor<20x64xf32>) -> tensor<20x64xf32> {
  %0 = scf.forall (%i) = (0) to (20) step (8) shared_outs(%o = %init) -> (tensor<20x64xf32>) {
    %s = affine.min affine_map<(d0) -> (-d0 + 20, 8)>(%i)
    %x = tensor.extract_slice %a[%i, 0] [%s, 64] [1, 1] : tensor<20x64xf32> to tensor<?x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%i, 0] [%s, 64] [1, 1] : tensor<?x64xf32> into tensor<20x64xf32>
    }
  }
  return %0 : tensor<20x64xf32>
}
