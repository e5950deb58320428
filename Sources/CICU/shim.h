// Only CMosaicShims includes this (text_breaks.c): ICU's C names are versioned
// (ubrk_open_72), so Swift calls the unversioned wrappers there.
#include <unicode/ubrk.h>
#include <unicode/utypes.h>
