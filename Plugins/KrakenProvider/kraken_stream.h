/* Kraken's WebSocket feed (plugin ABI 1.3), for kraken_provider.c's descriptor. Not part of any API. */
#ifndef KRAKEN_STREAM_H
#define KRAKEN_STREAM_H

#include "pricehost_plugin.h"

/*
 * The feed's description, reading messages with `services`' json_get and
 * check_amount; NULL when `services` is too small to have them (the plugin
 * then offers no stream). Call once, from the entry.
 */
__attribute__((visibility("hidden")))
const ph_stream *kraken_stream(const ph_host_services *services);

#endif /* KRAKEN_STREAM_H */
