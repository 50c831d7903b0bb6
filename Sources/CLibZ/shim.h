// zlib: the inflater libpng itself uses, so PopoverFiles' fast decoding path accepts
// exactly the streams libpng does.
#include <zlib.h>
