/* The Kraken provider has no API of its own: it exports pricehost_plugin_entry_v1. */
#include "pricehost_plugin.h"
