// libxxhash: XXH64, the digest of rendered and decoded pixels.
#include <xxhash.h>
