// The C side of PopoverFiles' decoding: PNG bytes in memory -> 8-bit straight RGBA, for
// every colour type, bit depth and interlace method (see png_shim.h). libpng's messages
// go to the caller's buffer, allocation failures are told apart from bad data, and IHDR
// is checked against the limits before libpng allocates anything.

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png_shim.h"

/// Per-call state that libpng's callbacks reach through their error and memory pointers.
typedef struct shim_state {
    char *message;        // the caller's buffer, may be NULL
    size_t message_size;
    char last_warning[160];
    int out_of_memory;    // set by shim_malloc, so "Out of memory" is not reported as bad data
} shim_state;

static const uint8_t shim_png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

static void shim_state_init(shim_state *state, char *message, size_t message_size) {
    memset(state, 0, sizeof *state);
    state->message = message;
    state->message_size = message_size;
    if (message != NULL && message_size > 0) message[0] = '\0';
}

static void copy_truncating(char *destination, size_t capacity, const char *text) {
    if (destination == NULL || capacity == 0) return;
    size_t length = strlen(text);
    if (length >= capacity) length = capacity - 1;
    memcpy(destination, text, length);
    destination[length] = '\0';
}

static void shim_set_message(shim_state *state, const char *text) {
    copy_truncating(state->message, state->message_size, text != NULL ? text : "");
}

static void shim_on_error(png_structp png, png_const_charp message) {
    shim_state *state = png_get_error_ptr(png);
    shim_set_message(state, message);
    // libpng explains a rejected IHDR in warnings ("Invalid bit depth in IHDR") and then
    // fails with the bare "Invalid IHDR data"; keep the explanation with the failure.
    if (state->last_warning[0] != '\0' && message != NULL && strcmp(message, "Invalid IHDR data") == 0 &&
        state->message != NULL) {
        size_t used = strlen(state->message);
        if (used + 4 < state->message_size) {
            copy_truncating(state->message + used, state->message_size - used, " (");
            used = strlen(state->message);
            copy_truncating(state->message + used, state->message_size - used, state->last_warning);
            used = strlen(state->message);
            copy_truncating(state->message + used, state->message_size - used, ")");
        }
    }
    png_longjmp(png, 1);
}

static void shim_on_warning(png_structp png, png_const_charp message) {
    // Warnings are not failures; keep the latest only to explain a later error, and
    // never print (libpng's default would write to stderr).
    shim_state *state = png_get_error_ptr(png);
    copy_truncating(state->last_warning, sizeof state->last_warning, message != NULL ? message : "");
}

static png_voidp shim_malloc(png_structp png, png_alloc_size_t size) {
    void *pointer = malloc(size);
    if (pointer == NULL) {
        shim_state *state = png_get_mem_ptr(png);
        if (state != NULL) state->out_of_memory = 1;
    }
    return pointer;
}

static void shim_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

static int32_t shim_creation_failure(shim_state *state) {
    if (state->out_of_memory || state->message == NULL || state->message[0] == '\0') {
        shim_set_message(state, "out of memory creating the libpng state");
        return PNGSHIM_OUT_OF_MEMORY;
    }
    return PNGSHIM_INTERNAL;
}

static uint32_t shim_be32(const uint8_t *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) |
           (uint32_t)bytes[3];
}

/// Everything one read needs, reachable from libpng's callbacks. The shim_state comes
/// first so the same pointer serves as libpng's error, memory and I/O pointer.
typedef struct read_job {
    shim_state state;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int ran_out;      // libpng asked for bytes past the end: the file is truncated
    int reading_end;  // the image is complete; libpng is reading the chunks after it
    png_bytep *rows;  // row pointers into the caller's pixels, freed on every path
} read_job;

/// Chunks libpng may buffer whole (PLTE, tRNS; all others are skipped) stay under this.
static const png_alloc_size_t chunk_malloc_max = 4u << 20;

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    read_job *job = png_get_io_ptr(png);
    if (count > job->size - job->offset) {
        job->ran_out = 1;
        png_error(png, "unexpected end of data");
    }
    memcpy(out, job->data + job->offset, count);
    job->offset += count;
}

static int exceeds(uint32_t width, uint32_t height, pngshim_limits limits) {
    return width > limits.max_side || height > limits.max_side ||
           (uint64_t)width * (uint64_t)height > limits.max_pixels;
}

static void fill_header(pngshim_header *header, uint32_t width, uint32_t height, int bit_depth,
                        int colour_type, int interlaced) {
    if (header == NULL) return;
    header->width = width;
    header->height = height;
    header->bit_depth = (uint8_t)bit_depth;
    header->colour_type = (uint8_t)colour_type;
    header->interlaced = (uint8_t)(interlaced != 0);
}

/// Answers what libpng would only answer after a longjmp, or not at all: an empty input,
/// a wrong signature, and an IHDR (with a good CRC) whose size is zero or beyond the
/// limits. The last must be refused before anything is allocated, and the caller wants
/// the claimed size for its message, which a failed libpng IHDR does not keep.
static int32_t precheck(read_job *job, pngshim_limits limits, pngshim_header *header) {
    const uint8_t *d = job->data;
    size_t n = job->size;
    if (n == 0) {
        shim_set_message(&job->state, "the file is empty (0 bytes)");
        return PNGSHIM_EMPTY;
    }
    if (n < 8) {
        if (memcmp(d, shim_png_signature, n) == 0) {
            shim_set_message(&job->state, "the data ends inside the 8-byte PNG signature");
            return PNGSHIM_TRUNCATED;
        }
        shim_set_message(&job->state, "the first bytes are not the PNG signature");
        return PNGSHIM_NOT_PNG;
    }
    if (memcmp(d, shim_png_signature, 8) != 0) {
        shim_set_message(&job->state, "the first 8 bytes are not the PNG signature");
        return PNGSHIM_NOT_PNG;
    }
    // Signature (8), IHDR length (4), type (4), data (13), CRC (4).
    if (n >= 33 && shim_be32(d + 8) == 13 && memcmp(d + 12, "IHDR", 4) == 0 &&
        crc32(0, d + 12, 17) == shim_be32(d + 29)) {
        uint32_t width = shim_be32(d + 16);
        uint32_t height = shim_be32(d + 20);
        fill_header(header, width, height, d[24], d[25], d[28]);
        if (width == 0 || height == 0) {
            shim_set_message(&job->state, "IHDR: the width or height is zero");
            return PNGSHIM_ZERO_SIZE;
        }
        // Beyond 2^31 - 1 the header is invalid rather than large: libpng says so.
        if (width <= PNG_UINT_31_MAX && height <= PNG_UINT_31_MAX && exceeds(width, height, limits)) {
            shim_set_message(&job->state, "IHDR: the image is larger than the limits");
            return PNGSHIM_TOO_LARGE;
        }
    }
    return PNGSHIM_OK;
}

static int is_letter(uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/// Checks the CRC of every complete chunk before libpng sees any of them. libpng checks
/// a chunk's CRC only after feeding its data to zlib, so a damaged IDAT would otherwise
/// surface as a puzzling zlib error ("incorrect header check") or, worse, depend on
/// where the damage is. Anything else odd (a bad length, a cut chunk, a strange type)
/// is left for libpng to report in its own words.
///
/// It also refuses, naming both counts, a palette image's tRNS with more alpha values
/// than PLTE has entries: libpng only warns and drops it, decoding the image opaque.
static int32_t check_chunk_crcs(read_job *job) {
    const uint8_t *d = job->data;
    size_t offset = 8;
    int palette_image = job->size >= 33 && d[25] == PNG_COLOR_TYPE_PALETTE;
    uint32_t palette_entries = 0;
    while (job->size - offset >= 12) {
        uint32_t length = shim_be32(d + offset);
        const uint8_t *type = d + offset + 4;
        if (length > PNG_UINT_31_MAX || job->size - offset - 12 < length) break;
        if (!is_letter(type[0]) || !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3])) break;
        if (crc32(0, type, (uInt)length + 4) != shim_be32(type + 4 + length)) {
            char text[32];
            memcpy(text, type, 4);
            memcpy(text + 4, ": CRC error", sizeof ": CRC error");
            shim_set_message(&job->state, text);
            return PNGSHIM_CORRUPT;
        }
        if (palette_image && memcmp(type, "PLTE", 4) == 0 && palette_entries == 0) palette_entries = length / 3;
        if (palette_image && memcmp(type, "tRNS", 4) == 0 && palette_entries > 0 && length > palette_entries) {
            char text[120];
            snprintf(text, sizeof text, "tRNS holds %u alpha values, more than the %u entries of PLTE",
                     (unsigned)length, (unsigned)palette_entries);
            shim_set_message(&job->state, text);
            return PNGSHIM_CORRUPT;
        }
        if (memcmp(type, "IEND", 4) == 0) break;
        offset += (size_t)length + 12;
    }
    return PNGSHIM_OK;
}

/// Whether the data is the signature and whole chunks, none of them IEND: a file complete
/// but for its closing chunk, rather than one cut short.
static int ends_without_iend(const read_job *job) {
    const uint8_t *d = job->data;
    size_t offset = 8;
    while (job->size - offset >= 12) {
        uint32_t length = shim_be32(d + offset);
        if (length > PNG_UINT_31_MAX || job->size - offset - 12 < length) return 0;
        if (memcmp(d + offset + 4, "IEND", 4) == 0) return 0;
        offset += (size_t)length + 12;
    }
    return offset == job->size;
}

/// Asks libpng for 8-bit RGBA whatever the file holds. Samples are used as stored: no
/// gamma or colour-profile transform is requested, and those chunks are skipped.
///
/// Palette images are the exception: libpng gives their indices, one byte each, and
/// expand_palette_rows makes them RGBA. libpng's own expansion gives an index past the
/// palette black and opaque, and its check for such indices runs only on rows it has not
/// expanded, so it never sees them.
static void request_rgba8(png_structp png, png_inforp info) {
    int colour_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (colour_type == PNG_COLOR_TYPE_PALETTE) {
        if (bit_depth < 8) png_set_packing(png);
        (void)png_set_interlace_handling(png);
        png_read_update_info(png, info);
        return;
    }
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (colour_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    // A tRNS colour key becomes alpha 0 for exactly that colour; libpng compares 16-bit
    // keys before scaling to 8 bits.
    if (has_trns) png_set_tRNS_to_alpha(png);
    // Accurate scaling, round(v * 255 / 65535), rather than dropping the low byte.
    if (bit_depth == 16) png_set_scale_16(png);
    if ((colour_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((colour_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

/// Turns rows of palette indices (the first `width` bytes of each row) into RGBA in
/// place, back to front so no index is overwritten before it is read: each entry's
/// colour, with its tRNS alpha where tRNS has one and 255 beyond. Returns the first index
/// past the palette, or -1 if there is none.
static int expand_palette_rows(png_bytep *rows, uint32_t width, uint32_t height, png_const_colorp palette,
                               int entries, png_const_bytep alphas, int alpha_count) {
    uint8_t table[256][4];
    for (int i = 0; i < 256; i++) {
        table[i][0] = i < entries ? palette[i].red : 0;
        table[i][1] = i < entries ? palette[i].green : 0;
        table[i][2] = i < entries ? palette[i].blue : 0;
        table[i][3] = i < alpha_count ? alphas[i] : 255;
    }
    for (uint32_t y = 0; y < height; y++) {
        png_bytep row = rows[y];
        for (uint32_t x = width; x-- > 0;) {
            uint8_t index = row[x];
            if (index >= entries) return index;
            memcpy(row + (size_t)x * 4, table[index], 4);
        }
    }
    return -1;
}

/// The libpng work of a read; any failure longjmps out of here to read_png.
static int32_t run_libpng(png_structp png, png_infop info, read_job *job, pngshim_limits limits,
                          pngshim_header *header, uint8_t *pixels, size_t pixels_size) {
    png_set_read_fn(png, job, read_from_memory);
    png_set_sig_bytes(png, 8);  // precheck has checked it
    job->offset = 8;
    png_set_user_limits(png, limits.max_side, limits.max_side);
    png_set_chunk_malloc_max(png, chunk_malloc_max);
    // A bad CRC anywhere means a damaged file, ancillary chunk or not.
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
    // Discard every chunk except IHDR, PLTE, tRNS, IDAT and IEND (CRCs are still checked).
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);

    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    fill_header(header, width, height, png_get_bit_depth(png, info), png_get_color_type(png, info),
                png_get_interlace_type(png, info) != PNG_INTERLACE_NONE);
    // precheck normally catches these; this guards the allocation if it did not.
    if (width == 0 || height == 0) return PNGSHIM_ZERO_SIZE;
    if (exceeds(width, height, limits)) return PNGSHIM_TOO_LARGE;
    if (pixels == NULL) return PNGSHIM_OK;

    size_t row_bytes = (size_t)width * 4;
    if (pixels_size / row_bytes != height || pixels_size % row_bytes != 0) {
        shim_set_message(&job->state, "the pixel buffer does not match the image size");
        return PNGSHIM_INTERNAL;
    }
    int palette_image = png_get_color_type(png, info) == PNG_COLOR_TYPE_PALETTE;
    png_colorp palette = NULL;
    int entries = 0;
    png_bytep alphas = NULL;
    int alpha_count = 0;
    if (palette_image) {
        // libpng has refused a palette image without PLTE by now.
        png_get_PLTE(png, info, &palette, &entries);
        if (png_get_tRNS(png, info, &alphas, &alpha_count, NULL) == 0) alpha_count = 0;
    }
    request_rgba8(png, info);
    int channels = palette_image ? 1 : 4;
    if (png_get_rowbytes(png, info) != (size_t)width * channels || png_get_bit_depth(png, info) != 8 ||
        png_get_channels(png, info) != channels) {
        shim_set_message(&job->state, "libpng did not produce 8-bit RGBA rows");
        return PNGSHIM_INTERNAL;
    }
    job->rows = malloc((size_t)height * sizeof *job->rows);
    if (job->rows == NULL) {
        job->state.out_of_memory = 1;
        png_error(png, "out of memory for row pointers");
    }
    for (uint32_t y = 0; y < height; y++) job->rows[y] = pixels + (size_t)y * row_bytes;
    // Rows go straight into the caller's buffer; Adam7 passes are combined in place.
    png_read_image(png, job->rows);
    if (palette_image) {
        int past = expand_palette_rows(job->rows, width, height, palette, entries, alphas, alpha_count);
        if (past >= 0) {
            char text[120];
            snprintf(text, sizeof text, "palette index %d is past the end of the palette (%d entr%s)", past, entries,
                     entries == 1 ? "y" : "ies");
            png_error(png, text);
        }
    }
    // Reads to IEND, so a file cut after its image data is still reported as truncated
    // (or as having no IEND) and CRCs of the trailing chunks are checked.
    job->reading_end = 1;
    png_read_end(png, NULL);
    return PNGSHIM_OK;
}

static int32_t read_png(read_job *job, pngshim_limits limits, pngshim_header *header,
                        uint8_t *pixels, size_t pixels_size) {
    int32_t status = precheck(job, limits, header);
    // Only a full decode pays for the CRC pass; a probe reads just the first chunks.
    if (status == PNGSHIM_OK && pixels != NULL) status = check_chunk_crcs(job);
    if (status != PNGSHIM_OK) return status;

    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &job->state, shim_on_error,
                                               shim_on_warning, &job->state, shim_malloc, shim_free);
    if (png == NULL) return shim_creation_failure(&job->state);
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return shim_creation_failure(&job->state);
    }
    // Only job (reached through a pointer) changes between here and a longjmp, so no
    // local needs to be volatile.
    if (setjmp(png_jmpbuf(png))) {
        free(job->rows);
        job->rows = NULL;
        png_destroy_read_struct(&png, &info, NULL);
        if (job->state.out_of_memory) return PNGSHIM_OUT_OF_MEMORY;
        if (job->ran_out && job->reading_end && ends_without_iend(job)) {
            shim_set_message(&job->state, "no IEND chunk (the file ends after its last complete chunk)");
            return PNGSHIM_CORRUPT;
        }
        if (job->ran_out) return PNGSHIM_TRUNCATED;
        return PNGSHIM_CORRUPT;
    }
    status = run_libpng(png, info, job, limits, header, pixels, pixels_size);
    free(job->rows);
    job->rows = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return status;
}

static void start_job(read_job *job, const void *data, size_t size, char *message,
                      size_t message_size) {
    memset(job, 0, sizeof *job);
    shim_state_init(&job->state, message, message_size);
    job->data = data;
    job->size = data != NULL ? size : 0;
}

const char *pngshim_libpng_version(void) { return png_get_libpng_ver(NULL); }

int32_t pngshim_probe(const void *data, size_t size, pngshim_limits limits,
                      pngshim_header *header, char *message, size_t message_size) {
    read_job job;
    start_job(&job, data, size, message, message_size);
    return read_png(&job, limits, header, NULL, 0);
}

int32_t pngshim_decode_rgba(const void *data, size_t size, pngshim_limits limits,
                            uint8_t *pixels, size_t pixels_size, pngshim_header *header,
                            char *message, size_t message_size) {
    read_job job;
    start_job(&job, data, size, message, message_size);
    if (pixels == NULL) {
        shim_set_message(&job.state, "no pixel buffer");
        return PNGSHIM_INTERNAL;
    }
    return read_png(&job, limits, header, pixels, pixels_size);
}
