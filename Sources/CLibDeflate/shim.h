// libdeflate: whole-buffer DEFLATE, zlib and CRC-32, much faster than zlib at the same
// ratio. PopoverFiles encodes PNG files through it.
#include <libdeflate.h>
