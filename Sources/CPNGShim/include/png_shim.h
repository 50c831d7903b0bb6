// A small C surface over libpng for PopoverFiles.
//
// libpng reports errors by longjmp, which Swift frames cannot survive, so every libpng
// call and its setjmp live on the C side of this file's functions. Each function
// returns a status code and, on failure, copies libpng's message (or ours) into the
// caller's buffer. Nothing is left allocated on any path. Only decoding goes through
// libpng: PopoverFiles encodes with libdeflate.
//
// This header deliberately uses only standard C types, so Swift never sees libpng's.

#ifndef PNG_SHIM_H
#define PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

// Status codes. Plain macros (not a C enum) so that an unexpected value can never
// become an invalid Swift enum.
#define PNGSHIM_OK 0
#define PNGSHIM_EMPTY 1          // zero bytes of input
#define PNGSHIM_NOT_PNG 2        // the first 8 bytes are not the PNG signature
#define PNGSHIM_TRUNCATED 3      // the data ends before the image is complete
#define PNGSHIM_CORRUPT 4        // libpng rejected the data; see the message
#define PNGSHIM_ZERO_SIZE 5      // IHDR says the width or height is 0
#define PNGSHIM_TOO_LARGE 6      // IHDR exceeds the caller's limits
#define PNGSHIM_OUT_OF_MEMORY 7  // an allocation failed
#define PNGSHIM_INTERNAL 8       // a misuse of the shim or an unexpected libpng state

/// What IHDR says. Filled as soon as IHDR has been read, so it is meaningful for
/// PNGSHIM_OK, PNGSHIM_ZERO_SIZE and PNGSHIM_TOO_LARGE.
typedef struct pngshim_header {
    uint32_t width;
    uint32_t height;
    uint8_t bit_depth;    // 1, 2, 4, 8 or 16
    uint8_t colour_type;  // PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    uint8_t interlaced;   // 1 for Adam7, 0 for none
} pngshim_header;

/// The largest image a decode may produce; checked before any pixel memory exists.
typedef struct pngshim_limits {
    uint32_t max_side;    // on each of width and height
    uint64_t max_pixels;  // width * height
} pngshim_limits;

/// Reads the signature and every chunk before the image data, checks IHDR against
/// `limits` and fills `header`. Decodes no pixels.
int32_t pngshim_probe(const void *data, size_t size, pngshim_limits limits,
                      pngshim_header *header, char *message, size_t message_size);

/// Decodes the whole image as 8-bit straight RGBA into `pixels`, which must hold exactly
/// width * height * 4 bytes (learn the size from pngshim_probe first). Gamma and colour
/// profile chunks are ignored: samples are taken as stored.
int32_t pngshim_decode_rgba(const void *data, size_t size, pngshim_limits limits,
                            uint8_t *pixels, size_t pixels_size, pngshim_header *header,
                            char *message, size_t message_size);

/// What decides the pixels a file decodes to: the libpng this process has loaded (its
/// version as the library reports it, e.g. "1.6.39") and this shim's conversion to RGBA,
/// numbered by PNGSHIM_CONVERSION; zlib inflates exactly or fails. Raise the number with
/// any change to shim_read.c that can change a decoded pixel, so that caches of decoded
/// pixels made before it are not used.
#define PNGSHIM_CONVERSION 1
const char *pngshim_libpng_version(void);

#endif
