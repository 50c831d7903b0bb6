// Encoding: 8-bit straight RGBA -> PNG bytes in a growing memory buffer. The output
// depends only on the pixels (and the zlib build): no time or text chunks are written.

#include "shim_common.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct write_job {
    shim_state state;  // first, so one pointer serves as error, memory and I/O pointer
    pngshim_output *output;
    png_bytep *rows;
    int level;  // zlib compression level, 0-9
} write_job;

static void write_to_memory(png_structp png, png_bytep data, size_t count) {
    write_job *job = png_get_io_ptr(png);
    pngshim_output *out = job->output;
    if (count > SIZE_MAX - out->size) {
        job->state.out_of_memory = 1;
        png_error(png, "encoded PNG larger than the address space");
    }
    size_t needed = out->size + count;
    if (needed > out->capacity) {
        // Doubling keeps the number of copies logarithmic in the output size.
        size_t capacity = out->capacity != 0 ? out->capacity : 64u << 10;
        while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        uint8_t *grown = realloc(out->bytes, capacity);
        if (grown == NULL) {
            job->state.out_of_memory = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->size, data, count);
    out->size = needed;
}

static void flush_nothing(png_structp png) { (void)png; }

static void run_libpng(png_structp png, png_infop info, write_job *job, const uint8_t *pixels,
                       uint32_t width, uint32_t height) {
    int level = job->level;
    png_set_write_fn(png, job, write_to_memory, flush_nothing);
    // libpng's default user limit (1,000,000 on a side) is stricter than PNG itself.
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // At level 9: the smallest files libpng can make without extra tools (zlib's largest
    // memory level, every filter tried per row with libpng's own heuristic). Lower
    // levels trade size for speed, for images nobody keeps.
    png_set_compression_level(png, level);
    png_set_compression_mem_level(png, 9);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, level >= 6 ? PNG_ALL_FILTERS : PNG_FILTER_SUB);
    png_write_info(png, info);

    size_t row_bytes = (size_t)width * 4;
    job->rows = malloc((size_t)height * sizeof *job->rows);
    if (job->rows == NULL) {
        job->state.out_of_memory = 1;
        png_error(png, "out of memory for row pointers");
    }
    // libpng copies each row before filtering it, so the input is never written to;
    // the cast only satisfies png_write_image's non-const parameter.
    for (uint32_t y = 0; y < height; y++) {
        job->rows[y] = (png_bytep)(uintptr_t)(pixels + (size_t)y * row_bytes);
    }
    png_write_image(png, job->rows);
    png_write_end(png, NULL);
}

/// Runs libpng under a setjmp. The job lives in the caller's frame, not this one, so
/// what libpng changes in it before a longjmp is reliably there afterwards.
static int32_t encode_png(write_job *job, const uint8_t *pixels, uint32_t width, uint32_t height) {
    png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &job->state, shim_on_error,
                                                shim_on_warning, &job->state, shim_malloc, shim_free);
    if (png == NULL) return shim_creation_failure(&job->state);
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return shim_creation_failure(&job->state);
    }
    if (setjmp(png_jmpbuf(png))) {
        free(job->rows);
        job->rows = NULL;
        png_destroy_write_struct(&png, &info);
        pngshim_output_free(job->output);
        return job->state.out_of_memory ? PNGSHIM_OUT_OF_MEMORY : PNGSHIM_INTERNAL;
    }
    run_libpng(png, info, job, pixels, width, height);
    free(job->rows);
    job->rows = NULL;
    png_destroy_write_struct(&png, &info);
    return PNGSHIM_OK;
}

int32_t pngshim_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int32_t level,
                            pngshim_output *output, char *message, size_t message_size) {
    write_job job;
    memset(&job, 0, sizeof job);
    shim_state_init(&job.state, message, message_size);
    if (output == NULL || (pixels == NULL && width != 0 && height != 0)) {
        shim_set_message(&job.state, "no pixels or no output");
        return PNGSHIM_INTERNAL;
    }
    memset(output, 0, sizeof *output);
    job.output = output;
    job.level = level < 0 ? 0 : (level > 9 ? 9 : level);
    if (width == 0 || height == 0) {
        shim_set_message(&job.state, "a PNG cannot be 0 pixels wide or high");
        return PNGSHIM_ZERO_SIZE;
    }
    return encode_png(&job, pixels, width, height);
}

void pngshim_output_free(pngshim_output *output) {
    if (output == NULL) return;
    free(output->bytes);
    memset(output, 0, sizeof *output);
}
