// RUN: dlc-opt %s -split-input-file --dlc-cpu-parallel-copies=min-elements=256 | FileCheck %s

// An activation copied into the interior of a padded buffer outside any
// tile loop: a forall over its rows (batch, channels, rows), each row one
// contiguous copy.
// CHECK-LABEL: func.func @into_padded_interior
// CHECK-SAME:    %[[SRC:.+]]: memref<1x4x8x16xf32>, %[[PAD:.+]]: memref<1x4x10x18xf32>
// CHECK:         %[[IN:.+]] = memref.subview %[[PAD]][0, 0, 1, 1] [1, 4, 8, 16] [1, 1, 1, 1]
// CHECK:         scf.forall (%[[N:.+]], %[[C:.+]], %[[H:.+]]) in (1, 4, 8) {
// CHECK:           %[[S:.+]] = memref.subview %[[SRC]][%[[N]], %[[C]], %[[H]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : memref<1x4x8x16xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:           %[[D:.+]] = memref.subview %[[IN]][%[[N]], %[[C]], %[[H]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:           memref.copy %[[S]], %[[D]]
// CHECK:         }
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @into_padded_interior(%src: memref<1x4x8x16xf32>, %pad: memref<1x4x10x18xf32>) {
  %interior = memref.subview %pad[0, 0, 1, 1] [1, 4, 8, 16] [1, 1, 1, 1] : memref<1x4x10x18xf32> to memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>>
  memref.copy %src, %interior : memref<1x4x8x16xf32> to memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>>
  return
}

// -----

// Left alone: a copy below min-elements, a copy inside a tile loop (already
// split between threads), rows that are not contiguous (a transposing
// view), a shape known only at run time, rows too short to copy one by one.
// CHECK-LABEL: func.func @left_alone
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<4x16xf32> to memref<4x16xf32>
// CHECK:         scf.forall
// CHECK:           memref.copy %{{.+}}, %{{.+}} : memref<64xf32, strided<[1], offset: ?>>
// CHECK:         }
// CHECK-NOT:     scf.forall
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<8x64xf32, strided<[1, 8]>> to memref<8x64xf32>
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<?x64xf32> to memref<?x64xf32>
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<128x4xf32> to memref<128x4xf32>
func.func @left_alone(%small: memref<4x16xf32>, %small_out: memref<4x16xf32>,
                      %big: memref<8x64xf32>, %big_out: memref<8x64xf32>,
                      %t: memref<64x8xf32>, %dyn: memref<?x64xf32>, %dyn_out: memref<?x64xf32>,
                      %short: memref<128x4xf32>, %short_out: memref<128x4xf32>) {
  memref.copy %small, %small_out : memref<4x16xf32> to memref<4x16xf32>
  scf.forall (%i) in (8) {
    %s = memref.subview %big[%i, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d = memref.subview %big_out[%i, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    memref.copy %s, %d : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
  }
  %tt = memref.transpose %t (i, j) -> (j, i) : memref<64x8xf32> to memref<8x64xf32, strided<[1, 8]>>
  memref.copy %tt, %big_out : memref<8x64xf32, strided<[1, 8]>> to memref<8x64xf32>
  memref.copy %dyn, %dyn_out : memref<?x64xf32> to memref<?x64xf32>
  memref.copy %short, %short_out : memref<128x4xf32> to memref<128x4xf32>
  return
}
