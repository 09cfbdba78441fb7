/*
 * The peg provider, written in C to prove the plugin ABI is language-neutral.
 *
 * It answers for stablecoins pegged one-to-one to a fiat currency: USDC, USDT,
 * DAI, PYUSD and FDUSD are 1 USD; EURC is 1 EUR. Anything else is a clean
 * "not_found" error. It needs no settings; given some, it names them in a
 * warning, because they would be ignored: it reads them with the host's
 * json_get (plugin ABI 1.2), and in an older host, which has none, it says
 * only that there are some.
 *
 * -DPEG_PROVIDER_NAME="name" builds it under another provider name: the
 * benchmark loads many copies of this shipped plugin that way.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pricehost_plugin.h"

#ifndef PEG_PROVIDER_NAME
#define PEG_PROVIDER_NAME "peg"
#endif

struct peg {
    const char *asset;
    const char *currency;
};

static const struct peg pegs[] = {
    {"USDC", "USD"}, {"USDT", "USD"}, {"DAI", "USD"}, {"PYUSD", "USD"}, {"FDUSD", "USD"}, {"EURC", "EUR"},
};

static void peg_fetch(void *fetcher_context, const ph_fetch_request *request,
                      ph_fetch_completion completion, void *completion_context) {
    (void)fetcher_context;
    for (size_t i = 0; i < sizeof pegs / sizeof pegs[0]; i++) {
        if (strcmp(pegs[i].asset, request->asset) != 0) continue;
        if (strcmp(pegs[i].currency, request->currency) != 0) break;
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        ph_quote quote = {
            .struct_size = sizeof quote,
            .asset = request->asset,
            .currency = request->currency,
            .amount = "1.00",
            .timestamp_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000,
        };
        completion(completion_context, &quote, NULL);
        return;
    }
    char message[160];
    snprintf(message, sizeof message, "%s-%s is not a peg this provider knows", request->asset, request->currency);
    ph_error error = {.struct_size = sizeof error, .code = "not_found", .message = message};
    completion(completion_context, NULL, &error);
}

static const ph_fetcher fetchers[] = {
    {.struct_size = sizeof(ph_fetcher), .asset = NULL, .context = NULL, .fetch = peg_fetch},
};

static const ph_plugin_descriptor descriptor = {
    .magic = PRICEHOST_PLUGIN_MAGIC,
    .abi_major = PRICEHOST_ABI_MAJOR,
    .abi_minor = PRICEHOST_ABI_MINOR,
    .descriptor_size = sizeof(ph_plugin_descriptor),
    .fetcher_size = sizeof(ph_fetcher),
    .name = PEG_PROVIDER_NAME,
    .version = "1.0.0",
    .fetchers = fetchers,
    .fetcher_count = sizeof fetchers / sizeof fetchers[0],
};

__attribute__((visibility("default")))
const ph_plugin_descriptor *pricehost_plugin_entry_v1(const ph_host_services *host) {
    if (host == NULL || host->abi_major != PRICEHOST_ABI_MAJOR) return NULL;
    const char *settings = host->settings_json(host->host_context, PEG_PROVIDER_NAME);
    if (strcmp(settings, "{}") == 0) return &descriptor;
    char key[128] = "", count[32] = "";
    /* json_get arrived in 1.2: an older host's table ends before it. */
    if (host->struct_size >= offsetof(ph_host_services, json_get) + sizeof(void *)
        && host->json_get(host->host_context, settings, strlen(settings), "", count, sizeof count) == PH_JSON_OBJECT
        && host->json_get(host->host_context, settings, strlen(settings), "{0}", key, sizeof key) == PH_JSON_STRING) {
        char message[256];
        snprintf(message, sizeof message, PEG_PROVIDER_NAME ": takes no settings; ignoring providers." PEG_PROVIDER_NAME ".%s%s",
                 key, strcmp(count, "1") == 0 ? "" : " and the rest");
        host->log(host->host_context, PH_LOG_WARNING, message);
    } else {
        host->log(host->host_context, PH_LOG_WARNING, PEG_PROVIDER_NAME ": takes no settings; ignoring providers." PEG_PROVIDER_NAME);
    }
    return &descriptor;
}
