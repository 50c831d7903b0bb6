// Which decoder is loaded in this process, described from what is actually there: the
// runtime versions of libpng and zlib, and the files holding their code and ours.
#define _GNU_SOURCE
#include "shim_common.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/// Appends "path [size S, modified T, device D, inode I]" for the file holding the code at
/// `address`. The main program is known to the loader by the name it was started as, which
/// may not lead back to the file; then /proc/self/exe does.
static void describe_image(const void *address, char *out, size_t size) {
    Dl_info info;
    char resolved[PATH_MAX];
    const char *path = NULL;
    if (dladdr(address, &info) != 0 && info.dli_fname != NULL && info.dli_fname[0] != '\0' &&
        realpath(info.dli_fname, resolved) != NULL) {
        path = resolved;
    } else if (realpath("/proc/self/exe", resolved) != NULL) {
        path = resolved;
    }
    size_t used = strlen(out);
    struct stat st;
    if (path == NULL || stat(path, &st) != 0) {
        snprintf(out + used, size - used, "(a file that cannot be found)");
        return;
    }
    snprintf(out + used, size - used, "%s [size %lld, modified %lld.%09ld, device %llu, inode %llu]", path,
             (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
             (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
}

size_t pngshim_decoder_identity(char *out, size_t size) {
    if (out == NULL || size == 0) return 0;
    out[0] = '\0';
    snprintf(out, size, "libpng %s in ", png_get_libpng_ver(NULL));
    describe_image((const void *)&png_read_image, out, size);
    size_t used = strlen(out);
    snprintf(out + used, size - used, "; zlib %s in ", zlibVersion());
    describe_image((const void *)&inflate, out, size);
    // This shim and PopoverFiles' own decoding code are linked into the same file.
    used = strlen(out);
    snprintf(out + used, size - used, "; decoder code in ");
    describe_image((const void *)&pngshim_decode_rgba, out, size);
    return strlen(out);
}
