// libcrypto (OpenSSL): SHA-256 for PopoverImage's digests.
#include <openssl/evp.h>
