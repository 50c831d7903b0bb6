// libspng: the PNG decoder PopoverFiles reads every PNG with. A plain C API that
// returns error codes, so Swift calls it directly.
#include <spng.h>
