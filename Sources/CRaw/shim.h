#include <libraw/libraw.h>
