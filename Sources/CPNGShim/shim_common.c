#include "shim_common.h"

#include <stdlib.h>
#include <string.h>

const uint8_t shim_png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void shim_state_init(shim_state *state, char *message, size_t message_size) {
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

void shim_set_message(shim_state *state, const char *text) {
    copy_truncating(state->message, state->message_size, text != NULL ? text : "");
}

void shim_on_error(png_structp png, png_const_charp message) {
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

void shim_on_warning(png_structp png, png_const_charp message) {
    // Warnings are not failures; keep the latest only to explain a later error, and
    // never print (libpng's default would write to stderr).
    shim_state *state = png_get_error_ptr(png);
    copy_truncating(state->last_warning, sizeof state->last_warning, message != NULL ? message : "");
}

png_voidp shim_malloc(png_structp png, png_alloc_size_t size) {
    void *pointer = malloc(size);
    if (pointer == NULL) {
        shim_state *state = png_get_mem_ptr(png);
        if (state != NULL) state->out_of_memory = 1;
    }
    return pointer;
}

void shim_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

int32_t shim_creation_failure(shim_state *state) {
    if (state->out_of_memory || state->message == NULL || state->message[0] == '\0') {
        shim_set_message(state, "out of memory creating the libpng state");
        return PNGSHIM_OUT_OF_MEMORY;
    }
    return PNGSHIM_INTERNAL;
}

uint32_t shim_be32(const uint8_t *bytes) {
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) |
           (uint32_t)bytes[3];
}
