// RUN: dlc-opt %s -split-input-file --dlc-cpu-lower-vectors --mlir-print-local-scope | FileCheck %s

// A stride-1 window of 3 taps over a tile of 2 columns (filters in 8 lanes),
// its input row read from memory: the FMAs come in input-column order, each
// column one scalar load and broadcast feeding every tap that reaches it, and
// each accumulator row gets its taps in the chain's order (tap 0, 1, 2).
// CHECK-LABEL: func.func @stride1_chain
// CHECK-SAME:    (%[[M:.+]]: memref<1x1x1x16xf32>, %[[I:.+]]: index, %[[F0:.+]]: vector<1x8xf32>, %[[F1:.+]]: vector<1x8xf32>, %[[F2:.+]]: vector<1x8xf32>, %[[ACC:.+]]: vector<1x2x8xf32>)
// CHECK-NOT:     vector.contract
// CHECK-DAG:     %[[R0:.+]] = vector.extract %[[ACC]][0, 0]
// CHECK-DAG:     %[[R1:.+]] = vector.extract %[[ACC]][0, 1]
// CHECK-DAG:     %[[G0:.+]] = vector.extract %[[F0]][0] : vector<8xf32> from vector<1x8xf32>
// CHECK-DAG:     %[[G1:.+]] = vector.extract %[[F1]][0] : vector<8xf32> from vector<1x8xf32>
// CHECK-DAG:     %[[G2:.+]] = vector.extract %[[F2]][0] : vector<8xf32> from vector<1x8xf32>
// CHECK:         %[[X0:.+]] = memref.load %[[M]][%{{.+}}, %{{.+}}, %{{.+}}, %[[I]]]
// CHECK:         %[[B0:.+]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// CHECK:         %[[A0:.+]] = vector.fma %[[B0]], %[[G0]], %[[R0]]
// CHECK:         memref.load
// CHECK:         %[[B1:.+]] = vector.broadcast
// CHECK:         %[[A1:.+]] = vector.fma %[[B1]], %[[G0]], %[[R1]]
// CHECK:         %[[A2:.+]] = vector.fma %[[B1]], %[[G1]], %[[A0]]
// CHECK:         memref.load
// CHECK:         %[[B2:.+]] = vector.broadcast
// CHECK:         %[[A3:.+]] = vector.fma %[[B2]], %[[G1]], %[[A1]]
// CHECK:         %[[A4:.+]] = vector.fma %[[B2]], %[[G2]], %[[A2]]
// CHECK:         memref.load
// CHECK:         %[[B3:.+]] = vector.broadcast
// CHECK:         %[[A5:.+]] = vector.fma %[[B3]], %[[G2]], %[[A3]]
// CHECK-NOT:     vector.fma
// CHECK:         vector.insert %[[A4]], %{{.+}} [0, 0]
// CHECK:         vector.insert %[[A5]], %{{.+}} [0, 1]
func.func @stride1_chain(%m: memref<1x1x1x16xf32>, %i: index, %f0: vector<1x8xf32>, %f1: vector<1x8xf32>, %f2: vector<1x8xf32>, %acc: vector<1x2x8xf32>) -> vector<1x2x8xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %read = vector.transfer_read %m[%c0, %c0, %c0, %i], %p {in_bounds = [true, true, true]} : memref<1x1x1x16xf32>, vector<1x1x4xf32>
  %row = vector.transpose %read, [0, 2, 1] : vector<1x1x4xf32> to vector<1x4x1xf32>
  %s0 = vector.extract_strided_slice %row {offsets = [0, 0, 0], sizes = [1, 2, 1], strides = [1, 1, 1]} : vector<1x4x1xf32> to vector<1x2x1xf32>
  %s1 = vector.extract_strided_slice %row {offsets = [0, 1, 0], sizes = [1, 2, 1], strides = [1, 1, 1]} : vector<1x4x1xf32> to vector<1x2x1xf32>
  %s2 = vector.extract_strided_slice %row {offsets = [0, 2, 0], sizes = [1, 2, 1], strides = [1, 1, 1]} : vector<1x4x1xf32> to vector<1x2x1xf32>
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s0, %f0, %acc : vector<1x2x1xf32>, vector<1x8xf32> into vector<1x2x8xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s1, %f1, %0 : vector<1x2x1xf32>, vector<1x8xf32> into vector<1x2x8xf32>
  %2 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s2, %f2, %1 : vector<1x2x1xf32>, vector<1x8xf32> into vector<1x2x8xf32>
  return %2 : vector<1x2x8xf32>
}

// -----

// A stride-2 window, unrolled by output column (one chain of single-column
// taps per column, inserted back into the accumulator): column 2 feeds
// tap 2 of output 0 and tap 0 of output 1. The row is a value here, so its
// columns are extracts.
// CHECK-LABEL: func.func @stride2_columns
// CHECK-SAME:    (%[[ROW:.+]]: vector<1x5x1xf32>, %[[F0:.+]]: vector<1x8xf32>, %[[F1:.+]]: vector<1x8xf32>, %[[F2:.+]]: vector<1x8xf32>, %[[ACC:.+]]: vector<1x2x8xf32>)
// CHECK-NOT:     vector.contract
// CHECK-NOT:     memref.load
// CHECK:         %[[X0:.+]] = vector.extract %[[ROW]][0, 0, 0]
// CHECK:         %[[A0:.+]] = vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK:         vector.extract %[[ROW]][0, 1, 0]
// CHECK:         %[[A1:.+]] = vector.fma %{{.+}}, %{{.+}}, %[[A0]] : vector<8xf32>
// CHECK:         vector.extract %[[ROW]][0, 2, 0]
// CHECK:         %[[A2:.+]] = vector.fma %{{.+}}, %{{.+}}, %[[A1]] : vector<8xf32>
// CHECK:         %[[C0:.+]] = vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK:         vector.extract %[[ROW]][0, 3, 0]
// CHECK:         %[[C1:.+]] = vector.fma %{{.+}}, %{{.+}}, %[[C0]] : vector<8xf32>
// CHECK:         vector.extract %[[ROW]][0, 4, 0]
// CHECK:         %[[C2:.+]] = vector.fma %{{.+}}, %{{.+}}, %[[C1]] : vector<8xf32>
// CHECK-NOT:     vector.fma
// CHECK:         vector.insert %[[A2]], %{{.+}} [0, 0]
// CHECK:         vector.insert %[[C2]], %{{.+}} [0, 1]
func.func @stride2_columns(%row: vector<1x5x1xf32>, %f0: vector<1x8xf32>, %f1: vector<1x8xf32>, %f2: vector<1x8xf32>, %acc: vector<1x2x8xf32>) -> vector<1x2x8xf32> {
  %e0 = vector.extract %row[0, 0] : vector<1xf32> from vector<1x5x1xf32>
  %x0 = vector.shape_cast %e0 : vector<1xf32> to vector<1x1x1xf32>
  %e1 = vector.extract %row[0, 1] : vector<1xf32> from vector<1x5x1xf32>
  %x1 = vector.shape_cast %e1 : vector<1xf32> to vector<1x1x1xf32>
  %e2 = vector.extract %row[0, 2] : vector<1xf32> from vector<1x5x1xf32>
  %x2 = vector.shape_cast %e2 : vector<1xf32> to vector<1x1x1xf32>
  %e3 = vector.extract %row[0, 3] : vector<1xf32> from vector<1x5x1xf32>
  %x3 = vector.shape_cast %e3 : vector<1xf32> to vector<1x1x1xf32>
  %e4 = vector.extract %row[0, 4] : vector<1xf32> from vector<1x5x1xf32>
  %x4 = vector.shape_cast %e4 : vector<1xf32> to vector<1x1x1xf32>
  %r0 = vector.extract %acc[0, 0] : vector<8xf32> from vector<1x2x8xf32>
  %a0 = vector.shape_cast %r0 : vector<8xf32> to vector<1x1x8xf32>
  %r1 = vector.extract %acc[0, 1] : vector<8xf32> from vector<1x2x8xf32>
  %a1 = vector.shape_cast %r1 : vector<8xf32> to vector<1x1x8xf32>
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x0, %f0, %a0 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x2, %f0, %a1 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %2 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x1, %f1, %0 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %3 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x3, %f1, %1 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %4 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x2, %f2, %2 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %5 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x4, %f2, %3 : vector<1x1x1xf32>, vector<1x8xf32> into vector<1x1x8xf32>
  %6 = vector.insert_strided_slice %4, %acc {offsets = [0, 0, 0], strides = [1, 1, 1]} : vector<1x1x8xf32> into vector<1x2x8xf32>
  %7 = vector.insert_strided_slice %5, %6 {offsets = [0, 1, 0], strides = [1, 1, 1]} : vector<1x1x8xf32> into vector<1x2x8xf32>
  return %7 : vector<1x2x8xf32>
}

// -----

// Taps whose offsets do not grow along the chain (2, then 0) would change
// an accumulator's order of sums in input order: left to the tap-by-tap
// lowering (tap at offset 2 first for both rows).
// CHECK-LABEL: func.func @offsets_not_growing
// CHECK-SAME:    (%[[ROW:.+]]: vector<1x4x1xf32>, %[[F0:.+]]: vector<1x8xf32>, %[[F1:.+]]: vector<1x8xf32>,
// CHECK:         %[[G0:.+]] = vector.extract %[[F0]][0]
// CHECK:         vector.extract %[[ROW]][0, 2, 0]
// CHECK:         vector.fma %{{.+}}, %[[G0]], %{{.+}}
// CHECK:         vector.extract %[[ROW]][0, 3, 0]
// CHECK:         vector.fma %{{.+}}, %[[G0]], %{{.+}}
// CHECK:         %[[G1:.+]] = vector.extract %[[F1]][0]
// CHECK:         vector.extract %[[ROW]][0, 0, 0]
// CHECK:         vector.fma %{{.+}}, %[[G1]], %{{.+}}
func.func @offsets_not_growing(%row: vector<1x4x1xf32>, %f0: vector<1x8xf32>, %f1: vector<1x8xf32>, %acc: vector<1x2x8xf32>) -> vector<1x2x8xf32> {
  %s2 = vector.extract_strided_slice %row {offsets = [0, 2, 0], sizes = [1, 2, 1], strides = [1, 1, 1]} : vector<1x4x1xf32> to vector<1x2x1xf32>
  %s0 = vector.extract_strided_slice %row {offsets = [0, 0, 0], sizes = [1, 2, 1], strides = [1, 1, 1]} : vector<1x4x1xf32> to vector<1x2x1xf32>
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s2, %f0, %acc : vector<1x2x1xf32>, vector<1x8xf32> into vector<1x2x8xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %s0, %f1, %0 : vector<1x2x1xf32>, vector<1x8xf32> into vector<1x2x8xf32>
  return %1 : vector<1x2x8xf32>
}
