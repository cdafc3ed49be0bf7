// RUN: dlc-opt %s --dlc-gpu-emulator-launches | FileCheck %s

// A launch stub call becomes a parameter array (one stack slot per
// operand, in the entry block) and a call of dlcrt_emu_launch with the
// kernel's thunk, the grid and block sizes, the shared memory size and the
// DLC_EMU_SYNC flag; the thunk loads each parameter from its slot and calls
// the kernel with the shared memory and info pointers.
// CHECK-LABEL: llvm.func @main
// CHECK-SAME:    (%[[A:.+]]: !llvm.ptr, %[[N:.+]]: i64)
// CHECK:         %[[PARAMS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x ptr>
// CHECK:         %[[S0:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK:         %[[S1:.+]] = llvm.alloca %{{.+}} x i64
// CHECK:         llvm.store %[[A]], %[[S0]]
// CHECK:         llvm.store %[[N]], %[[S1]]
// CHECK:         %[[FN:.+]] = llvm.mlir.addressof @k__emu
// CHECK-DAG:     %[[SHARED:.+]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-DAG:     %[[FLAGS:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         llvm.call @dlcrt_emu_launch(%[[FN]], %[[PARAMS]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[SHARED]], %[[FLAGS]])
// CHECK-NOT:     __dlc_emu_launch_k
// CHECK-LABEL: llvm.func internal @k__emu
// CHECK-SAME:    (%[[P:.+]]: !llvm.ptr, %[[SH:.+]]: !llvm.ptr, %[[INFO:.+]]: !llvm.ptr)
// CHECK:         %[[A0:.+]] = llvm.getelementptr %[[P]][0, 0]
// CHECK:         %[[SLOT0:.+]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[V0:.+]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[A1:.+]] = llvm.getelementptr %[[P]][0, 1]
// CHECK:         %[[SLOT1:.+]] = llvm.load %[[A1]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[V1:.+]] = llvm.load %[[SLOT1]] : !llvm.ptr -> i64
// CHECK:         llvm.call @k(%[[V0]], %[[V1]], %[[SH]], %[[INFO]])
module {
  llvm.func @main(%a: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c4 = llvm.mlir.constant(4 : index) : i64
    llvm.call @__dlc_emu_launch_k(%c4, %c1, %c1, %c4, %c1, %c1, %a, %n) : (i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) -> ()
    llvm.return
  }
  llvm.func @k(%arg0: !llvm.ptr, %arg1: i64, %arg2: !llvm.ptr, %arg3: !llvm.ptr) {
    llvm.return
  }
  llvm.func @__dlc_emu_launch_k(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64) attributes {dlc.emu_kernel = @k, dlc.emu_shared = 512 : i64, dlc.emu_sync = true}
}
