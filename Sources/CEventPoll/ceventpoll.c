// The declarations are in include/ceventpoll.h; this file gives the target a source.
#include "ceventpoll.h"
