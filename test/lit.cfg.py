# -*- Python -*-
# lit configuration for dlc's tests (FileCheck tests of the tools, unit and
# end-to-end tests).
import os
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "dlc"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".mlir", ".test", ".onnxtxt"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "node", "ort"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dlc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.dlc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "DLC_ORT_DIR", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "LSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%dlc_src", config.dlc_src_root))
config.substitutions.append(("%dlc_build", config.dlc_obj_root))
config.substitutions.append(("%onnx_data", config.onnx_data_dir))
# The checked builds' generated libraries hold a runtime built with the
# sanitizers: programs that link them link the sanitizers' runtimes too.
# %cc (and $DLC_TEST_CC, for the scripts that build runners) is the
# system's cc otherwise.
cxx, cc = config.host_cxx, "cc"
sanitizers = [s for s in config.dlc_sanitizer.split(",")
              if s and not s.startswith("fuzzer")]
if sanitizers:
    cxx += " -fsanitize=" + ",".join(sanitizers)
    cc = config.host_cc + " -fsanitize=" + ",".join(sanitizers)
config.substitutions.append(("%cxx", cxx))
config.substitutions.append(("%cc", cc))
config.environment["DLC_TEST_CC"] = cc

# Hosts that run AVX2 code (dlc --mcpu x86-64-v3): AVX2, FMA, BMI2, F16C.
try:
    with open("/proc/cpuinfo") as f:
        cpu_flags = set(next((l for l in f if l.startswith("flags")), "").split())
    if {"avx2", "fma", "bmi2", "f16c", "movbe"} <= cpu_flags:
        config.available_features.add("x86-64-v3")
except OSError:
    pass

# Optional references: tests that need them say `REQUIRES: ...`.
if shutil.which("node"):
    config.available_features.add("node")
# Tools built with sanitizers (scripts/sanitize.sh's compiler tier) check
# memory themselves; valgrind cannot run them.
if config.dlc_sanitizer:
    config.available_features.add("sanitizer")
elif shutil.which("valgrind"):
    config.available_features.add("valgrind")
ort_dir = os.environ.get("DLC_ORT_DIR",
                         os.path.expanduser("~/.cache/dlc/ort"))
if os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
    config.available_features.add("ort")
if os.path.isdir(os.path.join(config.onnx_data_dir, "node")):
    config.available_features.add("onnx-node-data")

# Debian's chromium renders the HTML reports (dlc analyze --html) headless.
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

# cpack's Debian package: dpkg-shlibdeps (dpkg-dev) computes its
# dependencies, dpkg-deb inspects it.
if shutil.which("dpkg-deb") and shutil.which("dpkg-shlibdeps"):
    config.available_features.add("dpkg-deb")

# AArch64 libraries (dlc compile --mtriple aarch64-linux-gnu): Debian's cross
# compiler links them with the runtime built for that triple and the arm64
# OpenMP runtime (scripts/cross/ensure-arm64-omp.sh), qemu-user runs them.
arm64_dir = os.environ.get("DLC_ARM64_DIR", os.path.expanduser("~/.cache/dlc/arm64"))
aarch64_cxx = shutil.which("aarch64-linux-gnu-g++")
aarch64_cc = shutil.which("aarch64-linux-gnu-gcc")
qemu_aarch64 = shutil.which("qemu-aarch64") or shutil.which("qemu-aarch64-static")
if (aarch64_cxx and aarch64_cc and qemu_aarch64 and
        os.path.exists(os.path.join(arm64_dir, "libomp.so.5")) and
        os.path.exists(os.path.join(config.dlc_obj_root, "lib",
                                    "libdlc_runtime-aarch64-linux-gnu.a"))):
    config.available_features.add("aarch64-qemu")
    config.substitutions.append(("%aarch64_cxx", aarch64_cxx))
    config.substitutions.append(("%aarch64_cc", aarch64_cc))
    config.substitutions.append(("%arm64_omp", os.path.join(arm64_dir, "libomp.so.5")))
    config.substitutions.append(
        ("%qemu_aarch64", f"{qemu_aarch64} -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH={arm64_dir}"))

# ptxas (CUDA toolkit) assembles the PTX of --target cuda; no GPU is needed.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    # The toolkit's stub libcuda: a driver library that reports no device.
    stub = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))),
                        "lib64", "stubs", "libcuda.so")
    if os.path.exists(stub):
        config.available_features.add("cuda-stub")
        config.substitutions.append(("%cuda_stub", stub))

# The CUDA driver stand-in (test/runtime/FakeCuda.c).
config.substitutions.append(
    ("%fake_cuda", os.path.join(config.dlc_obj_root, "lib", "libdlc-fake-cuda.so")))

# The model tests (e2e/models) export with PyTorch and torchvision: one import check per
# lit run (a few seconds), with config.python_executable, which runs the export script.
try:
    if subprocess.run([config.python_executable, "-c", "import torch, torchvision"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      timeout=120).returncode == 0:
        config.available_features.add("torch")
except (OSError, subprocess.TimeoutExpired):
    pass
