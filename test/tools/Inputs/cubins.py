"""Lists the CUDA cubins embedded in a library `dlc compile --target cuda`
wrote: each ELF image for the CUDA machine (EM_CUDA, 190) found after the
library's own header, its architecture from the header flags (bits 8-15:
80 for sm_80, as ptxas 12 and newer write them) and whether it defines
main_kernel."""
import struct
import sys

EM_CUDA = 190
data = open(sys.argv[1], "rb").read()
found = 0
at = data.find(b"\x7fELF", 1)
while at >= 0:
    if data[at + 4] == 2 and struct.unpack_from("<H", data, at + 0x12)[0] == EM_CUDA:
        flags = struct.unpack_from("<I", data, at + 0x30)[0]
        shoff = struct.unpack_from("<Q", data, at + 0x28)[0]
        shentsize, shnum = struct.unpack_from("<HH", data, at + 0x3A)
        image = data[at:at + shoff + shentsize * shnum]
        names = "main_kernel" if b"\0main_kernel\0" in image else "no main_kernel"
        print(f"cubin sm_{(flags >> 8) & 0xFF} with {names}")
        found += 1
    at = data.find(b"\x7fELF", at + 1)
if not found:
    print("no cubins")
