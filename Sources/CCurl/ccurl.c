// The declarations are in include/ccurl.h; this file gives the target a source.
