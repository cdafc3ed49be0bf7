//===- FuzzInput.cpp - helpers shared by dlc's libFuzzer targets ----------===//
#include "tools/fuzz/FuzzInput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstdlib>

const std::string &dlc::fuzz::writeInputFile(const char *name,
                                             const uint8_t *data, size_t size) {
  static std::string path = [name] {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("dlc-fuzz", dir))
      abort();
    llvm::sys::path::append(dir, name);
    return std::string(dir);
  }();
  FILE *f = fopen(path.c_str(), "wb");
  if (!f)
    abort();
  if (size && fwrite(data, 1, size, f) != size)
    abort();
  fclose(f);
  return path;
}
