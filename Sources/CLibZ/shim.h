// zlib: the inflater libpng itself uses; CPNGShim checks every chunk's CRC with its
// crc32 before libpng reads the chunks.
#include <zlib.h>
