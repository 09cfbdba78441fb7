/*
 * The Kraken provider: spot prices from Kraken's public Ticker API, in C on
 * the host's services (plugin ABI 1.2): http_get fetches, json_get reads the
 * answer, check_amount checks the price, and retry_answer hands Kraken's
 * "try later" errors, which come inside an HTTP 200, to the host's retries.
 *
 *   GET {baseURL}/0/public/Ticker?pair=XBTUSD
 *   {"error":[],"result":{"XXBTZUSD":{"a":["64000.20000","1","1.000"],"b":["64000.00000","2","2.000"],
 *                                     "c":["64000.10000","0.00100000"],...}}}
 *
 * BTC is XBT at Kraken. `result` is keyed by Kraken's own name for the pair
 * (XXBTZUSD for XBTUSD), so its one member is taken whatever its key. The
 * price is c[0], the last trade, exact from its text. The ticker carries no
 * time: the quote is stamped when it arrives (timestamp_ms 0).
 *
 * ABI 1.4: the quote's bid is b[0] and its ask a[0] (price, whole-lot volume,
 * lot volume), exact from their text, each only when the ticker has it. One
 * that is there but not a decimal above zero fails the fetch as a bad price
 * does, naming it: "200 with result.XXBTZUSD.b[0] -1, not a positive price".
 *
 * Errors come in `error` with HTTP 200, each reaching the user as one line,
 * "kraken: EQuery:Unknown asset pair (DOGEUSD)": an unknown pair is
 * not_found (never retried); EAPI:Rate limit exceeded, EService:Unavailable
 * and EService:Busy are retried as the host's policy says (maxAttempts,
 * backoff), then unavailable.
 *
 * Settings: {"baseURL": "https://api.kraken.com"} (the default); nothing else.
 *
 * ABI 1.3: the descriptor also describes Kraken's WebSocket ticker feed
 * (kraken_stream.c), which `serve` streams when the provider's `stream` is
 * true, falling back to this REST fetcher while the feed is silent.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kraken_stream.h"
#include "pricehost_plugin.h"

_Static_assert(PRICEHOST_ABI_MINOR >= 4, "the descriptor's stream field needs the ABI 1.3 header, the quote's bid and ask 1.4's");

#define PROVIDER "kraken"
/* The last field this plugin uses: ABI 1.2's check_amount. */
#define SERVICES_NEEDED (offsetof(ph_host_services, check_amount) + sizeof(void *))

static const ph_host_services *host;
static char base_url[512] = "https://api.kraken.com";
static const char *const kinds[] = {"?", "a string", "a number", "a boolean", "null", "an array", "an object"};

/* What one fetch needs once http_get answers; freed there. */
struct pending {
    char asset[16], currency[16], pair[32];
    ph_fetch_completion completion;
    void *completion_context;
};

static void fail(struct pending *job, const char *code, const char *text) {
    char message[600];
    snprintf(message, sizeof message, "%s (%s)", text, job->pair);
    ph_error error = {.struct_size = sizeof error, .code = code, .message = message};
    job->completion(job->completion_context, NULL, &error);
}

static int json(const ph_http_response *response, const char *path, char *out, size_t size) {
    return host->json_get(host->host_context, (const char *)response->body, response->body_length, path, out, size);
}

/* Reads `path` (shown to the user as `shown`) as the kind `want` into `out`; else fails the fetch. */
static int read_json(struct pending *job, const ph_http_response *response, const char *path, const char *shown,
                     int want, char *out, size_t size) {
    int kind = json(response, path, out, size);
    if (kind == want) return 0;
    char text[500];
    if (kind == PH_JSON_BAD_TEXT) snprintf(text, sizeof text, "200 with a body that is not JSON: %s", out);
    else if (kind < 0) snprintf(text, sizeof text, "200 with an unexpected answer: %s", out);
    else snprintf(text, sizeof text, "200 with %s %s, expected %s", shown, kinds[kind], kinds[want]);
    fail(job, "invalid_response", text);
    return -1;
}

/*
 * Reads the price result.KEY.FIELD[0] (a string) into `out`: 1 when it is a
 * decimal above zero; 0 when the ticker has no such field and it is not
 * `required`; else fails the fetch, naming the field, and returns -1.
 */
static int read_price(struct pending *job, const ph_http_response *response, const char *key, const char *field,
                      int required, char *out, size_t size) {
    char path[32], shown[100], problem[300], error[500];
    snprintf(path, sizeof path, "result[0].%s[0]", field);
    snprintf(shown, sizeof shown, "result.%s.%s[0]", key, field);
    if (!required) {
        int kind = json(response, path, out, size);
        if (kind == PH_JSON_NOT_FOUND || kind == PH_JSON_NULL) return 0;
    }
    if (read_json(job, response, path, shown, PH_JSON_STRING, out, size) != 0) return -1;
    if (host->check_amount(host->host_context, out, problem, sizeof problem) != 0) {
        snprintf(error, sizeof error, "200 with %s %s", shown, problem);
        fail(job, "invalid_response", error);
        return -1;
    }
    if (out[0] == '-' || strspn(out, "0.") == strlen(out)) {
        snprintf(error, sizeof error, "200 with %s %s, not a positive price", shown, out);
        fail(job, "invalid_response", error);
        return -1;
    }
    return 1;
}

static int is_transient(const char *error) {
    return strncmp(error, "EAPI:Rate limit exceeded", 24) == 0 || strncmp(error, "EService:Unavailable", 20) == 0
        || strncmp(error, "EService:Busy", 13) == 0;
}

/* Asked by the host before it decides to retry: Kraken says "later" with a 200. */
static int retry_answer(void *context, const ph_http_response *response) {
    (void)context;
    char error[300];
    return response->status == 200 && json(response, "error[0]", error, sizeof error) == PH_JSON_STRING && is_transient(error);
}

static void answer(struct pending *job, const ph_http_response *response) {
    char count[300], error[500], key[64], price[64], bid[64], ask[64];
    if (response->status != 200) {  /* the host has retried 429 and 5xx already */
        snprintf(error, sizeof error, "HTTP %d", (int)response->status);
        fail(job, response->status == 429 || response->status >= 500 ? "unavailable" : "failed", error);
        return;
    }
    if (response->body_length == 0) {
        fail(job, "invalid_response", "200 with an empty body");
        return;
    }
    /* From here read_json fails the fetch itself, naming what was wrong, when it returns non-zero. */
    if (read_json(job, response, "error", "error", PH_JSON_ARRAY, count, sizeof count) != 0) return;
    if (strcmp(count, "0") != 0) {
        if (read_json(job, response, "error[0]", "error[0]", PH_JSON_STRING, error, sizeof error) != 0) return;
        fail(job, strncmp(error, "EQuery:Unknown asset pair", 25) == 0 ? "not_found"
                  : is_transient(error) ? "unavailable" : "failed", error);
        return;
    }
    if (read_json(job, response, "result", "result", PH_JSON_OBJECT, count, sizeof count) != 0) return;
    if (strcmp(count, "1") != 0) {
        snprintf(error, sizeof error, "200 with %s pairs in result, expected 1", count);
        fail(job, "invalid_response", error);
        return;
    }
    if (read_json(job, response, "result{0}", "result's key", PH_JSON_STRING, key, sizeof key) != 0) return;
    if (read_price(job, response, key, "c", 1, price, sizeof price) != 1) return;
    /* 1.4: the best bid b[0] and ask a[0], when the ticker has them. */
    int has_bid = read_price(job, response, key, "b", 0, bid, sizeof bid);
    if (has_bid < 0) return;
    int has_ask = read_price(job, response, key, "a", 0, ask, sizeof ask);
    if (has_ask < 0) return;
    ph_quote quote = {.struct_size = sizeof quote, .asset = job->asset, .currency = job->currency,
                      .amount = price, .timestamp_ms = 0 /* the ticker has no time: now */,
                      .bid = has_bid ? bid : NULL, .ask = has_ask ? ask : NULL};
    job->completion(job->completion_context, &quote, NULL);
}

static void on_response(void *context, const ph_http_response *response, const ph_error *error) {
    struct pending *job = context;
    if (error != NULL) {
        job->completion(job->completion_context, NULL, error);  /* the host's words, URL and attempts included */
    } else {
        answer(job, response);
    }
    free(job);
}

static void fetch(void *fetcher_context, const ph_fetch_request *request, ph_fetch_completion completion,
                  void *completion_context) {
    (void)fetcher_context;
    struct pending *job = calloc(1, sizeof *job);
    if (job == NULL) {
        ph_error error = {.struct_size = sizeof error, .code = "failed", .message = "out of memory"};
        completion(completion_context, NULL, &error);
        return;
    }
    snprintf(job->asset, sizeof job->asset, "%s", request->asset);
    snprintf(job->currency, sizeof job->currency, "%s", request->currency);
    snprintf(job->pair, sizeof job->pair, "%s%s", strcmp(job->asset, "BTC") == 0 ? "XBT" : job->asset, job->currency);
    job->completion = completion;
    job->completion_context = completion_context;
    char url[600];
    snprintf(url, sizeof url, "%s/0/public/Ticker?pair=%s", base_url, job->pair);
    ph_http_header accept = {.name = "Accept", .value = "application/json"};
    ph_http_request http = {.struct_size = sizeof http, .url = url, .headers = &accept, .header_count = 1,
                            .retry_answer = retry_answer};
    host->http_get(host->host_context, &http, on_response, job);
}

static const ph_fetcher fetchers[] = {{.struct_size = sizeof(ph_fetcher), .asset = NULL, .fetch = fetch}};

/* 1.3: descriptor_size covers `stream`, set by the entry (a 1.2 host reads no further than fetcher_count). */
static ph_plugin_descriptor descriptor = {
    .magic = PRICEHOST_PLUGIN_MAGIC, .abi_major = PRICEHOST_ABI_MAJOR, .abi_minor = PRICEHOST_ABI_MINOR,
    .descriptor_size = sizeof(ph_plugin_descriptor), .fetcher_size = sizeof(ph_fetcher),
    .name = PROVIDER, .version = "1.2.0", .fetchers = fetchers, .fetcher_count = 1, .stream = NULL,
};

/* {"baseURL": "..."} or {}; any other key is refused by name. */
static int read_settings(const char *json, char *message, size_t size) {
    char value[sizeof base_url], key[128];
    size_t length = strlen(json);
    int kind = host->json_get(host->host_context, json, length, "", value, sizeof value);
    int members = kind == PH_JSON_OBJECT ? atoi(value) : 0;
    for (int i = 0; i < members; i++) {
        char path[32];
        snprintf(path, sizeof path, "{%d}", i);
        host->json_get(host->host_context, json, length, path, key, sizeof key);
        if (strcmp(key, "baseURL") == 0) continue;
        snprintf(message, size, "providers." PROVIDER ".%s: unknown key%s; the only setting is baseURL", key,
                 strcasecmp(key, "baseURL") == 0 ? " (did you mean baseURL?)" : "");
        return -1;
    }
    kind = host->json_get(host->host_context, json, length, "baseURL", value, sizeof value);
    if (kind == PH_JSON_NOT_FOUND) return 0;
    if (kind != PH_JSON_STRING || value[0] == '\0') {
        snprintf(message, size, "providers." PROVIDER ".baseURL: expected a URL, found %s",
                 kind == PH_JSON_STRING ? "an empty string" : kind > 0 ? kinds[kind] : "a value too long");
        return -1;
    }
    size_t end = strlen(value);
    while (end > 0 && value[end - 1] == '/') value[--end] = '\0';
    memcpy(base_url, value, end + 1);
    return 0;
}

__attribute__((visibility("default")))
const ph_plugin_descriptor *pricehost_plugin_entry_v1(const ph_host_services *services) {
    if (services == NULL || services->abi_major != PRICEHOST_ABI_MAJOR) return NULL;
    host = services;
    char message[300];
    if (services->struct_size < SERVICES_NEEDED) {
        snprintf(message, sizeof message, PROVIDER ": needs pricehost with plugin ABI 1.2 (JSON services); this one speaks %d.%d",
                 services->abi_major, services->abi_minor);
        services->log(services->host_context, PH_LOG_ERROR, message);
        return NULL;
    }
    if (read_settings(services->settings_json(services->host_context, PROVIDER), message, sizeof message) != 0) {
        services->log(services->host_context, PH_LOG_ERROR, message);
        return NULL;
    }
    descriptor.stream = kraken_stream(services);  /* NULL without json_get and check_amount: no feed */
    return &descriptor;
}
