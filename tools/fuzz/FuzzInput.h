//===- FuzzInput.h - helpers shared by dlc's libFuzzer targets ---*- C++
//-*-===//
//
// The fuzz input as a file in a private directory (the importer and `dlc
// run`'s reader take paths; relative external-data locations resolve next to
// it as they would for a real model), and a reader of fuzz bytes as numbers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_FUZZ_FUZZINPUT_H
#define DLC_TOOLS_FUZZ_FUZZINPUT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace dlc::fuzz {

/// Writes `data` to one file in a private directory, named `name` on the
/// first call (a process keeps that file), and returns its path.
const std::string &writeInputFile(const char *name, const uint8_t *data,
                                  size_t size);

/// Consumes fuzz bytes as numbers; past the end it yields zeros.
class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint64_t take(unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i)
      v |= uint64_t(pos < size ? data[pos++] : 0) << (8 * i);
    return v;
  }
  /// A value in [0, n) (n >= 1).
  uint64_t below(uint64_t n) { return take(n <= 256 ? 1 : 4) % n; }
  bool flag() { return take(1) & 1; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

} // namespace dlc::fuzz

#endif
