// RUN: dlc-opt %s -split-input-file --dlc-gpu-emulate-kernels -verify-diagnostics --canonicalize | FileCheck %s

// A kernel becomes a host function of its parameters, the block's shared
// memory (the launch's dynamic size, here 256 bytes) and the thread's info
// array; ids are read from the info array (block id x at 0, thread id y at
// 4, block dim x at 6, the linear thread id at 12), the dynamic shared
// memory is the shared buffer without its memory space, barriers and
// shuffles call the runtime. The launch calls a stub that records the
// kernel, its shared memory size and that it synchronizes.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.+]]: memref<64xf32>)
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         call @__dlc_emu_launch_k(%[[C2]], %[[C1]], %[[C1]], %[[C32]], %[[C1]], %[[C1]], %[[A]])
// CHECK-NOT:     gpu.
// CHECK-LABEL: func.func private @k
// CHECK-SAME:    (%[[P:.+]]: memref<64xf32>, %[[SH:.+]]: memref<256xi8>, %[[INFO:.+]]: memref<16xi64>)
// CHECK-DAG:     %[[I0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[I4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[I6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[I12:.+]] = arith.constant 12 : index
// CHECK-DAG:     memref.load %[[INFO]][%[[I0]]]
// CHECK-DAG:     memref.load %[[INFO]][%[[I4]]]
// CHECK-DAG:     memref.load %[[INFO]][%[[I6]]]
// CHECK-DAG:     memref.load %[[INFO]][%[[I12]]]
// CHECK:         %[[V:.+]] = memref.view %[[SH]][%{{.+}}][] : memref<256xi8> to memref<32xf32>
// CHECK:         memref.store %{{.+}}, %[[V]]
// CHECK:         call @dlcrt_emu_barrier(%[[INFO]])
// CHECK:         %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// CHECK:         %[[R:.+]] = call @dlcrt_emu_shuffle(%[[INFO]], %[[BITS]], %{{.+}}, %{{.+}}, %{{.+}}) : (memref<16xi64>, i32, i32, i32, i32) -> i64
// CHECK:         arith.trunci %[[R]] : i64 to i32
// CHECK:         return
// CHECK:       func.func private @__dlc_emu_launch_k(index, index, index, index, index, index, memref<64xf32>) attributes {dlc.emu_kernel = @k, dlc.emu_shared = 256 : i64, dlc.emu_sync = true}
module attributes {gpu.container_module} {
  func.func @main(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : i32
    gpu.launch_func @dlc_kernels::@k blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %c256 args(%a : memref<64xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<64xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id y
      %d = gpu.block_dim x
      %lane = gpu.lane_id
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
      %m = arith.muli %b, %d : index
      %i = arith.addi %m, %t : index
      %v = memref.load %arg0[%i] : memref<64xf32>
      memref.store %v, %view[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %s, %valid = gpu.shuffle xor %v, %o, %w : f32
      memref.store %s, %arg0[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A kernel without barriers or shuffles runs its threads one after the
// other (no fibers), without shared memory.
// CHECK-LABEL: func.func private @k
// CHECK-SAME:    (%{{.+}}: memref<8xf32>, %{{.+}}: memref<1xi8>, %{{.+}}: memref<16xi64>)
// CHECK:       func.func private @__dlc_emu_launch_k({{.*}}) attributes {dlc.emu_kernel = @k, dlc.emu_shared = 0 : i64, dlc.emu_sync = false}
module attributes {gpu.container_module} {
  func.func @main(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @dlc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %cst = arith.constant 1.0 : f32
      memref.store %cst, %arg0[%t] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Only what dlc's kernels use can be emulated.
module attributes {gpu.container_module} {
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      %c = arith.constant 0 : i32
      // expected-error @+1 {{cannot emulate 'gpu.subgroup_reduce' on the CPU}}
      %r = gpu.subgroup_reduce add %c : (i32) -> i32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf64>) kernel {
      %v = arith.constant 1.0 : f64
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      // expected-error @+1 {{cannot emulate a shuffle of 'f64'}}
      %s, %valid = gpu.shuffle xor %v, %o, %w : f64
      gpu.return
    }
  }
}

// -----

// cp.async: the copy calls the runtime with the byte addresses of its
// destination (shared memory) and source and its size; the wait calls the
// runtime (the bytes land then); commit groups are dropped. The kernel's
// threads run as fibers.
// CHECK-LABEL: func.func private @k
// CHECK-SAME:    (%[[P:.+]]: memref<64xf32>, %[[SH:.+]]: memref<64xi8>, %[[INFO:.+]]: memref<16xi64>)
// CHECK:         %[[DST:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK:         %[[SRC:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK:         call @dlcrt_emu_async_copy(%[[INFO]], %[[DST]], %[[SRC]], %{{.+}}) : (memref<16xi64>, i64, i64, i64) -> ()
// CHECK-NOT:     nvvm.cp.async.commit.group
// CHECK:         call @dlcrt_emu_async_wait(%[[INFO]])
// CHECK:       func.func private @__dlc_emu_launch_k({{.*}}) attributes {dlc.emu_kernel = @k, dlc.emu_shared = 64 : i64, dlc.emu_sync = true}
module attributes {gpu.container_module} {
  func.func @main(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : i32
    gpu.launch_func @dlc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) dynamic_shared_memory_size %c64 args(%a : memref<64xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %i = arith.muli %t, %c4 : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %tok = nvgpu.device_async_copy %arg0[%i], %view[%i], 4 {bypassL1} : memref<64xf32> to memref<16xf32, #gpu.address_space<workgroup>>
      nvvm.cp.async.commit.group
      nvvm.cp.async.wait.group 0
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      // expected-error @+1 {{cannot emulate cp.async.wait_group 1 (only 0: wait for every copy)}}
      nvvm.cp.async.wait.group 1
      gpu.return
    }
  }
}

// -----

// mma.sync: the lane's fragments (a0..a3, b0..b1, c0..c3) go to a buffer in
// its frame (room for the largest instruction's), allocated once at the
// kernel's entry, and the runtime (a warp-level rendezvous) writes its part
// of D after them; the kernel's threads
// run as fibers.
// CHECK-LABEL: func.func private @k
// CHECK:         %[[FRAG:.+]] = memref.alloca() : memref<20xf32>
// CHECK:         memref.store %{{.+}}, %[[FRAG]][%c9{{.*}}] : memref<20xf32>
// CHECK:         call @dlcrt_emu_mma_sync(%{{.+}}, %{{.+}}, %c0_i32) : (memref<16xi64>, i64, i32) -> ()
// CHECK:         memref.load %[[FRAG]][%c10{{.*}}] : memref<20xf32>
// CHECK:         memref.load %[[FRAG]][%c13{{.*}}] : memref<20xf32>
// CHECK:         vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK:       func.func private @__dlc_emu_launch_k({{.*}}) attributes {dlc.emu_kernel = @k, dlc.emu_shared = 0 : i64, dlc.emu_sync = true}
module attributes {gpu.container_module} {
  func.func @main(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @dlc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      %a = arith.constant dense<1.0> : vector<4x1xf32>
      %b = arith.constant dense<2.0> : vector<2x1xf32>
      %c = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %c0 = arith.constant 0 : index
      %v = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
      vector.store %v, %arg0[%c0] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// ldmatrix: the lane's row address and a buffer in its frame for its
// elements go to the runtime (a warp-level rendezvous); mma.sync m16n8k16
// widens the lane's f16 fragments into the frame (20 floats: a0..a7,
// b0..b3, c0..c3, then D).
// CHECK-LABEL: func.func private @k
// CHECK-DAG:     %[[MMA:.+]] = memref.alloca() : memref<20xf32>
// CHECK-DAG:     %[[ROWS:.+]] = memref.alloca() : memref<8xf16>
// CHECK:         call @dlcrt_emu_ldmatrix(%{{.+}}, %{{.+}}, %{{.+}}, %c4_i32, %c0_i32) : (memref<16xi64>, i64, i64, i32, i32) -> ()
// CHECK:         memref.load %[[ROWS]][%c7{{.*}}] : memref<8xf16>
// CHECK:         arith.extf %{{.+}} : f16 to f32
// CHECK:         call @dlcrt_emu_mma_sync(%{{.+}}, %{{.+}}, %c1_i32) : (memref<16xi64>, i64, i32) -> ()
// CHECK:         memref.load %[[MMA]][%c19{{.*}}] : memref<20xf32>
module attributes {gpu.container_module} {
  func.func @main(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : i32
    gpu.launch_func @dlc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %c512 args(%a : memref<4xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %s = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %lane = gpu.lane_id
      %row = arith.remui %lane, %c16 : index
      %a = nvgpu.ldmatrix %s[%row, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b = arith.constant dense<2.0> : vector<2x2xf16>
      %c = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %v = vector.shape_cast %d : vector<2x2xf32> to vector<4xf32>
      vector.store %v, %arg0[%c0] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// Other mma.sync shapes and types are not emulated.
module attributes {gpu.container_module} {
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<4xf32>) kernel {
      %a = arith.constant dense<1.0> : vector<4x2xf16>
      %b = arith.constant dense<2.0> : vector<2x2xf16>
      %c = arith.constant dense<0.0> : vector<2x2xf16>
      // expected-error @+1 {{cannot emulate this mma.sync (m16n8k8 tf32 or m16n8k16 f16/bf16, with f32 accumulators)}}
      %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
      gpu.return
    }
  }
}
