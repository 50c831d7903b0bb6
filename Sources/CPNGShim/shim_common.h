// Private plumbing of the reader: where libpng's messages go,
// how allocation failures are told apart from bad data, and the IHDR pre-check.

#ifndef SHIM_COMMON_H
#define SHIM_COMMON_H

#include <png.h>
#include "png_shim.h"

/// Per-call state that libpng's callbacks reach through their error and memory pointers.
typedef struct shim_state {
    char *message;        // the caller's buffer, may be NULL
    size_t message_size;
    char last_warning[160];
    int out_of_memory;    // set by shim_malloc, so "Out of memory" is not reported as bad data
} shim_state;

void shim_state_init(shim_state *state, char *message, size_t message_size);

/// Copies `text` into the caller's message buffer, truncating, always NUL-terminated.
void shim_set_message(shim_state *state, const char *text);

// Callbacks handed to png_create_*_struct_2. shim_on_error never returns: it longjmps
// to the setjmp of the shim function that is running libpng.
void shim_on_error(png_structp png, png_const_charp message);
void shim_on_warning(png_structp png, png_const_charp message);
png_voidp shim_malloc(png_structp png, png_alloc_size_t size);
void shim_free(png_structp png, png_voidp pointer);

/// The status for a png_create_*_struct_2 that returned NULL.
int32_t shim_creation_failure(shim_state *state);

/// The PNG file signature, 8 bytes.
extern const uint8_t shim_png_signature[8];

/// Reads a big-endian 32-bit value.
uint32_t shim_be32(const uint8_t *bytes);


#endif
