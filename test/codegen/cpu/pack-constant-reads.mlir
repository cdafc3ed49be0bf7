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

// -----

// Reads of 2 filters at a time from a [F=4, C=2] matrix at filter offsets
// that are multiples of 2 (the loop's step), feeding a contraction: the
// constant is stored blocked as [F/2, C, 2], so that the loop over C walks
// one contiguous panel. Element (f, c) = 10 * f + c.
// CHECK-LABEL: func.func @blocked
// CHECK:         %[[P:.+]] = arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<2x2x2xf32>
// CHECK:         scf.for %[[F:.+]] = %c0 to %c4 step %c2
// CHECK:           scf.for %[[C:.+]] = %c0 to %c2 step %c1
// CHECK:             %[[B:.+]] = arith.divui %[[F]], %c2
// CHECK:             %[[R:.+]] = vector.transfer_read %[[P]][%[[B]], %[[C]], %c0{{.*}}], %{{.*}} : tensor<2x2x2xf32>, vector<2xf32>
// CHECK:             vector.shape_cast %[[R]] : vector<2xf32> to vector<1x2xf32>
// CHECK:             vector.transpose
// The packed bytes (block 0: c=0 -> 0, 10; c=1 -> 1, 11; block 1: c=0 ->
// 20, 30; c=1 -> 21, 31).
// CHECK:       dlc_packed{{[_0-9]*}}: "0x4000000000000000000020410000803F000030410000A0410000F0410000A8410000F841"
func.func @blocked(%acc: vector<2xf32>, %x: vector<1xf32>) -> vector<2xf32> {
  %cst = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0]]> : tensor<4x2xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %f = %c0 to %c4 step %c2 iter_args(%a = %acc) -> vector<2xf32> {
    %s = scf.for %c = %c0 to %c2 step %c1 iter_args(%b = %a) -> vector<2xf32> {
      %w = vector.transfer_read %cst[%f, %c], %pad {in_bounds = [true, true]} : tensor<4x2xf32>, vector<2x1xf32>
      %p = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w, %x, %b : vector<2x1xf32>, vector<1xf32> into vector<2xf32>
      scf.yield %p : vector<2xf32>
    }
    scf.yield %s : vector<2xf32>
  }
  return %r : vector<2xf32>
}

// -----

// Reads of 4 filters at a time from a [F=6, C=2] matrix and a remainder
// part's read of the last 2 (at a multiple of 4, in bounds), feeding
// contractions: blocked as [2, C, 4], the last block padded with zeros
// (SqueezeNet's 1000 filters in tiles of 16 and a remainder of 8). Element
// (f, c) = 10 * f + c.
// CHECK-LABEL: func.func @blocked_remainder
// CHECK:         %[[P:.+]] = arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<2x2x4xf32>
// CHECK:         scf.for %[[C:.+]] = %c0 to %c2 step %c1
// CHECK:           vector.transfer_read %[[P]][%{{.+}}, %[[C]], %c0{{.*}}], %{{.*}} : tensor<2x2x4xf32>, vector<4xf32>
// CHECK:           %[[B:.+]] = arith.divui %c4, %c4
// CHECK:           vector.transfer_read %[[P]][%[[B]], %[[C]], %c0{{.*}}], %{{.*}} : tensor<2x2x4xf32>, vector<2xf32>
// The packed bytes (block 0: c=0 -> 0, 10, 20, 30; c=1 -> 1, 11, 21, 31;
// block 1: c=0 -> 40, 50, 0, 0; c=1 -> 41, 51, 0, 0).
// CHECK:       dlc_packed{{[_0-9]*}}: "0x4000000000000000000020410000A0410000F0410000803F000030410000A8410000F841000020420000484200000000000000000000244200004C420000000000000000"
func.func @blocked_remainder(%acc: vector<4xf32>, %acc2: vector<2xf32>, %x: vector<1xf32>) -> (vector<4xf32>, vector<2xf32>) {
  %cst = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0], [40.0, 41.0], [50.0, 51.0]]> : tensor<6x2xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %c = %c0 to %c2 step %c1 iter_args(%a = %acc, %b = %acc2) -> (vector<4xf32>, vector<2xf32>) {
    %w = vector.transfer_read %cst[%c0, %c], %pad {in_bounds = [true, true]} : tensor<6x2xf32>, vector<4x1xf32>
    %p = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w, %x, %a : vector<4x1xf32>, vector<1xf32> into vector<4xf32>
    %w2 = vector.transfer_read %cst[%c4, %c], %pad {in_bounds = [true, true]} : tensor<6x2xf32>, vector<2x1xf32>
    %q = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w2, %x, %b : vector<2x1xf32>, vector<1xf32> into vector<2xf32>
    scf.yield %p, %q : vector<4xf32>, vector<2xf32>
  }
  return %r#0, %r#1 : vector<4xf32>, vector<2xf32>
}

// -----

// A remainder read that may run past the filters (not in bounds) would
// read the padding instead of its padding value: not blocked, only
// transposed.
// CHECK-LABEL: func.func @remainder_out_of_bounds
// CHECK:         arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<2x6xf32>
func.func @remainder_out_of_bounds(%acc: vector<4xf32>, %x: vector<1xf32>, %c: index) -> (vector<4xf32>, vector<4xf32>) {
  %cst = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0], [40.0, 41.0], [50.0, 51.0]]> : tensor<6x2xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %w = vector.transfer_read %cst[%c0, %c], %pad {in_bounds = [true, true]} : tensor<6x2xf32>, vector<4x1xf32>
  %p = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w, %x, %acc : vector<4x1xf32>, vector<1xf32> into vector<4xf32>
  %w2 = vector.transfer_read %cst[%c4, %c], %pad {in_bounds = [false, true]} : tensor<6x2xf32>, vector<4x1xf32>
  %q = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w2, %x, %acc : vector<4x1xf32>, vector<1xf32> into vector<4xf32>
  return %p, %q : vector<4xf32>, vector<4xf32>
}

// -----

// The same reads at an offset not known to be a multiple of 2 are not
// blocked; the matrix is still stored transposed, [C, F], so that each read
// of 2 filters of one channel is contiguous.
// CHECK-LABEL: func.func @unaligned
// CHECK:         %[[P:.+]] = arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<2x4xf32>
// CHECK:         vector.transfer_read %[[P]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x4xf32>, vector<2xf32>
// CHECK:         return
func.func @unaligned(%f: index, %c: index, %x: vector<1xf32>, %b: vector<2xf32>) -> vector<2xf32> {
  %cst = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0]]> : tensor<4x2xf32>
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_read %cst[%f, %c], %pad {in_bounds = [true, true]} : tensor<4x2xf32>, vector<2x1xf32>
  %p = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %w, %x, %b : vector<2x1xf32>, vector<1xf32> into vector<2xf32>
  return %p : vector<2xf32>
}

// -----

// A [N=5, K=2] matrix read down its columns with a minor-identity map
// (vector<3x1>: 3 rows of one column, as a matmul's transposed constant B
// is read by its whole part's tiles) and by its remainder (vector<2x1>, the
// last 2 rows) is stored as [K, N]: both reads become contiguous along N
// (their sizes differ; the layout is the same).
// CHECK-LABEL: func.func @columns_and_remainder
// CHECK:         %[[P:.+]] = arith.constant dense_resource<dlc_packed{{[_0-9]*}}> : tensor<2x5xf32>
// CHECK:         %[[R:.+]] = vector.transfer_read %[[P]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x5xf32>, vector<3xf32>
// CHECK:         vector.shape_cast %[[R]] : vector<3xf32> to vector<1x3xf32>
// CHECK:         vector.transpose %{{.+}}, [1, 0] : vector<1x3xf32> to vector<3x1xf32>
// CHECK:         vector.transfer_read %[[P]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x5xf32>, vector<2xf32>
func.func @columns_and_remainder(%k: index) -> (vector<3x1xf32>, vector<2x1xf32>) {
  %cst = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0], [40.0, 41.0]]> : tensor<5x2xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %0 = vector.transfer_read %cst[%c0, %k], %pad {in_bounds = [true, true]} : tensor<5x2xf32>, vector<3x1xf32>
  %1 = vector.transfer_read %cst[%c3, %k], %pad {in_bounds = [true, true]} : tensor<5x2xf32>, vector<2x1xf32>
  return %0, %1 : vector<3x1xf32>, vector<2x1xf32>
}
