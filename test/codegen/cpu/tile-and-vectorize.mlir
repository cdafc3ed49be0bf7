// The tensor-level part of the CPU pipeline (codegen/cpu/Pipeline.cpp): dlc
// ops lowered to linalg, tiled, fused and vectorized, with the accumulators
// hoisted out of the reduction loops into vector registers.
// RUN: dlc-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(dlc-lower-to-linalg,canonicalize,cse,func.func(dlc-fuse-elementwise),canonicalize,cse,func.func(dlc-cpu-select-tiling{vector-width=16},dlc-cpu-tile-and-fuse,canonicalize,cse,dlc-cpu-vectorize,canonicalize,cse,loop-invariant-subset-hoisting,dlc-cpu-fold-loop-transposes,canonicalize))' \
// RUN:   | FileCheck %s

// 64x128 by 128x64 matmul: 8x32 register tiles, the row blocks innermost
// (a long reduction: consecutive tiles reuse a panel of B); the k loop
// carries the 8x32 accumulator as a vector, starting from zero, and
// contracts one k at a time; the tile is written once, after the loop.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-NOT:     linalg.
// CHECK:         scf.forall (%[[J:.+]], %[[I:.+]]) = (0, 0) to (64, 64) step (32, 8)
// CHECK-NOT:       vector.transfer_write
// CHECK:           %[[K:.+]] = scf.for %[[KK:.+]] = %{{.+}} to %{{.+}} step %[[C1]] iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK-DAG:         %[[A:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[KK]]]
// CHECK-DAG:         %[[B:.+]] = vector.transfer_read %{{.+}}[%[[KK]], %[[J]]]
// CHECK:             %[[R:.+]] = vector.contract {{.+}} %[[A]], %[[B]], %[[ACC]] : {{.+}} into vector<8x32xf32>
// CHECK:             scf.yield %[[R]] : vector<8x32xf32>
// CHECK:           vector.transfer_write %[[K]]
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %0 = dlc.matmul %a, %b : tensor<64x128xf32>, tensor<128x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Gemm with transB (the classifier layer): the transposed contraction is
// vectorized the same way, k one at a time into a 1x10 accumulator. The
// single 1x10 tile leaves no parallel loops: the bias add, marked
// dlc.vectorize by tiling, is vectorized outside any loop.
// CHECK-LABEL: func.func @gemm_bias
// CHECK-NOT:     linalg.
// CHECK:         scf.for %[[KK:[^ ]+]] = {{.+}} -> (vector<1x10xf32>)
// CHECK-DAG:       %[[A:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[KK]]], {{.+}} : tensor<1x64xf32>
// CHECK-DAG:       %[[B:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[KK]]], {{.+}} : tensor<10x64xf32>
// CHECK:           vector.contract {{.+}} %[[A]], %[[B]], %{{.+}} : {{.+}} into vector<1x10xf32>
// CHECK:         }
// CHECK-NOT:     scf.for
// CHECK:         arith.addf {{.+}} : vector<1x10xf32>
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @gemm_bias(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>, %b: tensor<10xf32>) -> tensor<1x10xf32> {
  %0 = dlc.gemm %x, %w, %b {transB = true} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// -----

// 3x3 conv, 16 filters, 32x32 output: tiles of one output row of 16
// columns x all 16 filters (one vector along the filters, so the n and f
// loops vanish: only the oh and ow loops remain, as one scf.forall). The
// bias initializes the tile; the (c, kh) loops carry the accumulator as a
// vector in (columns, filters) order, with no transposes inside (they are
// folded to the loop nest's init and result); one vector.contract per kw
// tap, each an outer product of 16 columns by 16 filters.
// CHECK-LABEL: func.func @conv3x3
// CHECK-SAME:    (%[[X:.+]]: tensor<1x3x34x34xf32>, %[[W:.+]]: tensor<16x3x3x3xf32>, %[[B:.+]]: tensor<16xf32>)
// CHECK-NOT:     linalg.
// CHECK:         scf.forall (%[[OH:[^ ]+]], %[[OW:[^ ]+]]) = (0, 0) to (32, 32) step (1, 16)
// CHECK-NOT:       scf.for
// CHECK:           %[[BV:.+]] = vector.transfer_read %[[B]]{{.+}} : tensor<16xf32>, vector<16xf32>
// CHECK:           vector.broadcast %[[BV]] : vector<16xf32> to vector<1x1x16x16xf32>
// CHECK:           scf.for %[[C:[^ ]+]] = {{.+}} -> (vector<1x16x16xf32>)
// CHECK:             scf.for %[[KH:[^ ]+]] = {{.+}} -> (vector<1x16x16xf32>)
// CHECK:               vector.transfer_read %[[X]][%{{.+}}, %[[C]], %{{.+}}, %[[OW]]]{{.+}} : tensor<1x3x34x34xf32>, vector<1x1x18xf32>
// CHECK:               vector.transfer_read %[[W]][%{{.+}}, %[[C]], %[[KH]], %{{.+}}]{{.+}} : tensor<16x3x3x3xf32>, vector<16x1x3xf32>
// CHECK-NOT:           vector.transpose {{.+}} : vector<1x16x16xf32>
// CHECK-COUNT-3:       vector.contract {{.+}} : vector<1x16x1xf32>, vector<1x16xf32> into vector<1x16x16xf32>
// CHECK-NOT:           vector.contract
// CHECK-NOT:           vector.transpose
// CHECK:               scf.yield
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @conv3x3(%x: tensor<1x3x34x34xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x32x32xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return %0 : tensor<1x16x32x32xf32>
}

// -----

// MaxPool 3x3 stride 2 (ResNet's): one elementwise op over the window's
// taps (strided slices of the padded input), tiled by one output row of 56
// columns; each tap's strided row is one contiguous read of 111 columns
// and a stride-2 shuffle, the maximum a compare and select per tap, and
// nothing stays scalar.
// CHECK-LABEL: func.func @max_pool_3x3_s2
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) in (64, 56)
// CHECK-COUNT-9:   vector.transfer_read {{.+}} vector<1x1x1x111xf32>
// CHECK-NOT:       vector.transfer_read
// CHECK:           arith.cmpf ogt, {{.+}} : vector<1x1x1x56xf32>
// CHECK:           arith.cmpf uno, {{.+}} : vector<1x1x1x56xf32>
// CHECK:           vector.transfer_write {{.+}} vector<1x1x1x56xf32>
// CHECK-NOT:       linalg.pooling
// CHECK-NOT:       linalg.generic
// CHECK:         return
func.func @max_pool_3x3_s2(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
       : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// Grouped 3x3 convolution, 2 groups of 8 channels and 8 filters (RegNet's
// group width), bias and ReLU: linalg.conv_2d_ngchw_gfchw tiled by one
// group's 8 filters (the vector lanes) by one output row of 7 columns,
// its tiles 1-D convolutions: the accumulators start from the bias (read
// once per tile), each step of the channel and kernel-row loops reads 9
// input columns and the 8 x 3 filter block and contracts the 3 window
// columns, and the ReLU runs on the tile before its one write. The bias
// and the ReLU stay in the [N, G, F/G, OH, OW] form (no separate pass).
// CHECK-LABEL: func.func @grouped3x3
// CHECK:         scf.forall (%[[G:[^ ]+]], %[[OH:[^ ]+]]) in (2, 7)
// CHECK:           vector.transfer_read %{{.+}}[%[[G]], %{{.+}}]{{.+}} : tensor<2x8xf32>, vector<1x8xf32>
// CHECK:           scf.for %[[C:[^ ]+]] = {{.+}} -> (vector<1x7x8xf32>)
// CHECK:             scf.for %[[KH:[^ ]+]] = {{.+}} -> (vector<1x7x8xf32>)
// CHECK:               vector.transfer_read %{{.+}}[%{{.+}}, %[[G]], %[[C]], %{{.+}}, %{{.+}}]{{.+}} : tensor<1x2x8x9x9xf32>, vector<1x1x9xf32>
// CHECK:               vector.transfer_read %{{.+}}[%[[G]], %{{.+}}, %[[C]], %[[KH]], %{{.+}}]{{.+}} : tensor<2x8x8x3x3xf32>, vector<8x1x3xf32>
// CHECK-COUNT-3:       vector.contract {{.+}} : vector<1x7x1xf32>, vector<1x8xf32> into vector<1x7x8xf32>
// CHECK:               scf.yield
// CHECK:           arith.cmpf ugt, {{.+}} : vector<1x1x8x1x7xf32>
// CHECK:           vector.transfer_write {{.+}} : vector<1x1x8x1x7xf32>, tensor<1x1x8x1x7xf32>
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @grouped3x3(%x: tensor<1x16x7x7xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x7x7xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64}
       : (tensor<1x16x7x7xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x7x7xf32>
  %1 = dlc.relu %0 : tensor<1x16x7x7xf32>
  return %1 : tensor<1x16x7x7xf32>
}
