# Sourced by scripts/fuzz.sh and scripts/sanitize-compiler.sh: configures
# (once) the checked build both use, in $out (default build/fuzz): the
# compiler, runtime and fuzzers with ASan + UBSan, libFuzzer's coverage
# instrumentation and assertions on. Needs $root.
build=${DLC_BUILD_DIR:-$root/build}
out=${DLC_FUZZ_DIR:-$build/fuzz}
. "$root/scripts/ccache-launcher.sh"
if [ ! -f "$out/build.ninja" ]; then
  # -O1: the sanitizers' usual level, a third faster to build than -O3.
  cmake -G Ninja -S "$root" -B "$out" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE=-O1 -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DDLC_SANITIZER=fuzzer-no-link,address,undefined -DDLC_ENABLE_ASSERTIONS=ON \
    -DDLC_BUILD_FUZZERS=ON "${launcher[@]}" >/dev/null
fi
# allow_user_poisoning=0: LLVM's allocators poison memory from inline code
# compiled here but not from Debian's uninstrumented MLIR libraries; mixing
# the two reports false use-after-poison errors.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
