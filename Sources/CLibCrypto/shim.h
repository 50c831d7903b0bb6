// libcrypto (OpenSSL): SHA-256 and HMAC-SHA256 for PopoverImage's digests.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
