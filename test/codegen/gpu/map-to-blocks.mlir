// RUN: dlc-opt %s -split-input-file --dlc-gpu-map-to-blocks=block-size=16 --canonicalize | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-gpu-map-to-blocks=block-size=16 | FileCheck %s --check-prefix=RAW

// A 2-D parallel loop (6 x 5 iterations, the inner one strided) becomes a
// 1-D grid: 30 threads in blocks of 16, each delinearizing its global index,
// with a bounds guard for the last block.
// CHECK-LABEL: func.func @parallel2d
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C30:.+]] = arith.constant 30 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C2]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]]) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%[[BDIM:.+]] = %[[C16]], %{{.+}} = %[[C1]], %{{.+}} = %[[C1]])
// CHECK:           %[[M:.+]] = arith.muli %[[BX]], %[[BDIM]]
// CHECK:           %[[LIN:.+]] = arith.addi %[[M]], %[[TX]]
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %[[LIN]], %[[C30]]
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[IDX:.+]]:2 = affine.delinearize_index %[[LIN]] into (6, 5)
// CHECK:             %[[S:.+]] = arith.muli %[[IDX]]#1, %[[C2]]
// CHECK:             %[[J:.+]] = arith.addi %[[S]], %[[C1]]
// CHECK:             %[[V:.+]] = memref.load %{{.+}}[%[[IDX]]#0, %[[J]]]
// CHECK:             memref.store %[[V]], %{{.+}}[%[[IDX]]#0, %[[J]]]
// CHECK:           gpu.terminator
// CHECK-NOT:     scf.parallel
func.func @parallel2d(%a: memref<6x10xf32>, %b: memref<6x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%c6, %c10) step (%c1, %c2) {
    %v = memref.load %a[%i, %j] : memref<6x10xf32>
    memref.store %v, %b[%i, %j] : memref<6x10xf32>
    scf.reduce
  }
  return
}

// -----

// Scalar work on rank-0 buffers (a load, arithmetic on the loaded value, a
// store) runs as one single-thread launch. The view of the workspace it
// stores to is recomputed inside, so the kernel receives the whole
// workspace buffer.
// CHECK-LABEL: func.func @scalar_chain
// CHECK-SAME:    (%[[A:.+]]: memref<f32>, %[[WS:.+]]: memref<64xi8>)
// CHECK:         gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c1, %{{.+}} = %c1, %{{.+}} = %c1) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c1, %{{.+}} = %c1, %{{.+}} = %c1)
// CHECK-NEXT:      %[[V:.+]] = memref.view %[[WS]]
// CHECK-NEXT:      %[[X:.+]] = memref.load %[[A]][]
// CHECK-NEXT:      %[[Y:.+]] = arith.divf %[[X]], %{{.+}}
// CHECK-NEXT:      memref.store %[[Y]], %[[V]][]
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     gpu.launch
func.func @scalar_chain(%a: memref<f32>, %ws: memref<64xi8>) {
  %cst = arith.constant 12.0 : f32
  %c0 = arith.constant 0 : index
  %x = memref.load %a[] : memref<f32>
  %y = arith.divf %x, %cst : f32
  %view = memref.view %ws[%c0][] : memref<64xi8> to memref<f32>
  memref.store %y, %view[] : memref<f32>
  return
}

// -----

// A sequential host loop around parallel work (a recurrence) stays on the
// host and launches a kernel per iteration.
// CHECK-LABEL: func.func @host_loop
// CHECK:         scf.for
// CHECK-NEXT:      gpu.launch
// CHECK:             memref.load
// CHECK:             arith.addf
// CHECK:             memref.store
// CHECK:         return
func.func @host_loop(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %t = %c0 to %c4 step %c1 {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %a[%i] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%i] : memref<8xf32>
      scf.reduce
    }
  }
  return
}

// -----

// The run's sizes (arguments marked dlc.sizes: symbolic input dimensions,
// dynamic output dimensions) are host memory: they are read and written on
// the host, not in a serial kernel, and a parallel loop over a symbolic
// size becomes a grid sized at run time (ceil(n / 16) blocks of 1 to 16
// threads; no blocks when n is 0).
// CHECK-LABEL: func.func @host_sizes
// CHECK-SAME:    (%[[IN:.+]]: memref<1xi64> {dlc.sizes}, %{{.+}}: memref<64xf32>, %[[OUT:.+]]: memref<1xi64> {dlc.sizes})
// CHECK:         %[[S:.+]] = memref.load %[[IN]]
// CHECK:         %[[N:.+]] = arith.index_cast %[[S]]
// CHECK:         %[[MIN:.+]] = arith.minui %[[N]], %{{.+}}
// CHECK:         %[[BLOCK:.+]] = arith.maxui %[[MIN]], %{{.+}}
// CHECK:         %[[GRID:.+]] = arith.ceildivui %[[N]], %[[BLOCK]]
// CHECK:         gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GRID]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCK]],
// CHECK:           memref.store
// CHECK:           gpu.terminator
// CHECK:         memref.store %[[S]], %[[OUT]]
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @host_sizes(%sizes: memref<1xi64> {dlc.sizes}, %a: memref<64xf32>, %out: memref<1xi64> {dlc.sizes}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %s = memref.load %sizes[%c0] : memref<1xi64>
  %n = arith.index_cast %s : i64 to index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %cst, %a[%i] : memref<64xf32>
    scf.reduce
  }
  memref.store %s, %out[%c0] : memref<1xi64>
  return
}

// -----

// A value the host needs that a kernel computes (here a count loaded from
// device memory, the bound of a later grid: a data-dependent size) comes
// back through device memory: the serial launch stores it in a slot past
// the workspace's plan (which grows from 64 to 72 bytes), and the host
// copies the slots into a stack buffer with dlcrt_cuda_read (which waits
// for the kernels) and reads it from there.
// CHECK-LABEL: func.func @read_back
// CHECK-SAME:    (%[[N:.+]]: memref<index>, %[[A:.+]]: memref<8xf32>, %[[WS:.+]]: memref<72xi8> {dlc.workspace}, %[[CTX:.+]]: !llvm.ptr {dlc.cuda_context})
// CHECK-SAME:    dlc.workspace_size = 72
// CHECK:         %[[HOST:.+]] = memref.alloca() : memref<1xi64>
// CHECK:         %[[SLOTS:.+]] = memref.view %[[WS]][%{{.+}}][] : memref<72xi8> to memref<1xi64>
// CHECK:         gpu.launch
// CHECK:           %[[UB:.+]] = memref.load %[[N]][]
// CHECK:           %[[I64:.+]] = arith.index_cast %[[UB]] : index to i64
// CHECK:           memref.store %[[I64]], %{{.+}}[%{{.+}}] : memref<1xi64>
// CHECK:           gpu.terminator
// CHECK:         %[[DST:.+]] = memref.extract_aligned_pointer_as_index %[[HOST]]
// CHECK:         %[[SRC:.+]] = memref.extract_aligned_pointer_as_index %[[SLOTS]]
// CHECK:         call @dlcrt_cuda_read(%[[CTX]], %[[DST]], %[[SRC]], %{{.+}}) : (!llvm.ptr, index, index, index) -> ()
// CHECK:         %[[BACK:.+]] = memref.load %[[HOST]][%{{.+}}] : memref<1xi64>
// CHECK:         %[[COUNT:.+]] = arith.index_cast %[[BACK]] : i64 to index
// CHECK:         arith.minui %[[COUNT]]
// CHECK:         gpu.launch
// CHECK:       func.func private @dlcrt_cuda_read(!llvm.ptr, index, index, index)
func.func @read_back(%n: memref<index>, %a: memref<8xf32>, %ws: memref<64xi8> {dlc.workspace}, %ctx: !llvm.ptr {dlc.cuda_context}) attributes {dlc.workspace_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %ub = memref.load %n[] : memref<index>
  scf.parallel (%i) = (%c0) to (%ub) step (%c1) {
    memref.store %cst, %a[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// A strided buffer the kernel cannot recompute (an argument here; a view a
// host branch chose in a real graph) comes in as its base buffer, offset
// and strides, and is rebuilt inside (before canonicalization, which folds
// the pair while the kernel is not outlined yet).
// RAW-LABEL: func.func @strided_argument
// RAW:         %[[BASE:.+]], %{{.+}}, %{{.+}}, %{{.+}} = memref.extract_strided_metadata %{{.+}} : memref<4xf32, strided<[2]>>
// RAW:         gpu.launch
// RAW:           %[[VIEW:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [4], strides: [2]
// RAW:           memref.store %{{.+}}, %[[VIEW]]
func.func @strided_argument(%a: memref<4xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %cst, %a[%i] : memref<4xf32, strided<[2]>>
    scf.reduce
  }
  return
}
