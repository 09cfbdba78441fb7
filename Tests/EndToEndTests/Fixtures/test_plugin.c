/*
 * A configurable C plugin for the end-to-end tests. Built by the tests with
 * `cc -shared -fPIC -fvisibility=hidden -DVARIANT_…`, one variant per broken
 * or unusual plugin the loader must handle.
 *
 *   PROVIDER="name"          provider name (default "ctest")
 *   AMOUNT="1.5"             amount the general fetcher answers (default "100.25")
 *   VARIANT_NO_ENTRY         the entry is not exported
 *   VARIANT_WRONG_MAGIC      descriptor magic is wrong
 *   VARIANT_NEW_MAJOR        descriptor says ABI 2.0
 *   VARIANT_SMALL_DESCRIPTOR descriptor_size is 8
 *   VARIANT_SMALL_FETCHER    fetcher_size is 8
 *   VARIANT_RETURN_NULL      logs why, then returns NULL
 *   VARIANT_FUTURE_MINOR     built as if for ABI 1.7: every struct carries extra trailing fields
 *   VARIANT_REGISTER         registers an ETH fetcher through host->register_fetcher
 *   VARIANT_THREAD           completes on a new thread after 50 ms
 *   VARIANT_COUNT_NEGATIVE   fetcher_count is (size_t)-1
 *   VARIANT_HUGE_STRIDE      fetcher_size is 0xFFFFFFF0
 *   VARIANT_BAD_TIMESTAMP    quotes carry timestamp_ms INT64_MAX
 *   TIMESTAMP_MS=1763640000  quotes carry this timestamp_ms (here: seconds where milliseconds belong)
 *   ANSWER_ASSET="XBT"       quotes name this asset, whatever was asked
 *   VARIANT_ABORT_ENTRY      calls abort() in the entry
 *   VARIANT_NULL_FETCH       dereferences NULL in fetch
 *   VARIANT_NO_COMPLETION    never calls the completion
 *   VARIANT_TWICE            calls the completion twice
 *   VARIANT_GARBAGE          prints to stdout while loading
 *   VARIANT_FORK             leaves a child process running (sleep 120) from its entry
 *   VARIANT_HTTP             fetches the amount (the whole body) from settings' "url" + "/ASSET-CURRENCY"
 *                            through the host's http_get (ABI 1.1)
 *   BID="64000.10" ASK="…"   quotes carry this bid and ask (ABI 1.4; each optional)
 *   VARIANT_CUT_BID          quotes carry a bid, but a struct_size that ends halfway through its pointer
 *
 * Asset NOPE gets a clean not_found error; asset EVIL gets an error whose
 * message holds a line break and a terminal escape.
 */
#include <pthread.h>
#include <unistd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pricehost_plugin.h"

#ifndef PROVIDER
#define PROVIDER "ctest"
#endif
#ifndef AMOUNT
#define AMOUNT "100.25"
#endif

#define EXPORT __attribute__((visibility("default")))

static const ph_host_services *host_services;

static void answer(const ph_fetch_request *request, const char *amount,
                   ph_fetch_completion completion, void *completion_context) {
    if (strcmp(request->asset, "EVIL") == 0) {
        ph_error error = {.struct_size = sizeof error, .code = "not_found",
                          .message = "first line\npricehost: error: forged\x1b[31m"};
        completion(completion_context, NULL, &error);
        return;
    }
    if (strcmp(request->asset, "NOPE") == 0) {
        char message[128];
        snprintf(message, sizeof message, "no such asset %s here", request->asset);
        ph_error error = {.struct_size = sizeof error, .code = "not_found", .message = message};
        completion(completion_context, NULL, &error);
        return;
    }
#ifdef VARIANT_FUTURE_MINOR
    struct { ph_quote base; const char *future_note; } quote = {
        {.struct_size = sizeof quote, .asset = request->asset, .currency = request->currency,
         .amount = amount, .timestamp_ms = 1763640000000},
        "ignored by a 1.0 host"};
    completion(completion_context, &quote.base, NULL);
#else
#if defined(TIMESTAMP_MS)
    int64_t timestamp = TIMESTAMP_MS;
#elif defined(VARIANT_BAD_TIMESTAMP)
    int64_t timestamp = INT64_MAX;
#else
    int64_t timestamp = 1763640000000;
#endif
#ifdef ANSWER_ASSET
    const char *answered = ANSWER_ASSET;
#else
    const char *answered = request->asset;
#endif
    ph_quote quote = {.struct_size = sizeof quote, .asset = answered, .currency = request->currency,
                      .amount = amount, .timestamp_ms = timestamp};
#ifdef BID
    quote.bid = BID;
#endif
#ifdef ASK
    quote.ask = ASK;
#endif
#ifdef VARIANT_CUT_BID
    /* A size no compiler makes: the host must not read half a pointer. */
    quote.bid = "not a decimal";
    quote.struct_size = (uint32_t)(offsetof(ph_quote, bid) + sizeof(quote.bid) / 2);
#endif
    completion(completion_context, &quote, NULL);
#endif
}

#ifdef VARIANT_THREAD
struct job {
    char asset[16], currency[16];
    ph_fetch_completion completion;
    void *completion_context;
};

static void *run_job(void *argument) {
    struct job *job = argument;
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    ph_fetch_request request = {.struct_size = sizeof request, .asset = job->asset, .currency = job->currency};
    answer(&request, AMOUNT, job->completion, job->completion_context);
    free(job);
    return NULL;
}
#endif

#ifdef VARIANT_HTTP
static char base_url[256];

struct http_job {
    char asset[16], currency[16];
    ph_fetch_completion completion;
    void *completion_context;
};

static void http_done(void *context, const ph_http_response *response, const ph_error *error) {
    struct http_job *job = context;
    ph_fetch_request request = {.struct_size = sizeof request, .asset = job->asset, .currency = job->currency};
    if (error != NULL) {
        ph_error copy = {.struct_size = sizeof copy, .code = error->code, .message = error->message};
        job->completion(job->completion_context, NULL, &copy);
    } else if (response->status != 200 || response->body_length == 0 || response->body_length > 60) {
        char message[96];
        snprintf(message, sizeof message, "HTTP %d with %zu bytes", (int)response->status, response->body_length);
        ph_error failure = {.struct_size = sizeof failure, .code = "invalid_response", .message = message};
        job->completion(job->completion_context, NULL, &failure);
    } else {
        char amount[64];
        memcpy(amount, response->body, response->body_length);
        amount[response->body_length] = 0;
        answer(&request, amount, job->completion, job->completion_context);
    }
    free(job);
}
#endif

static void fetch_any(void *context, const ph_fetch_request *request,
                      ph_fetch_completion completion, void *completion_context) {
    (void)context;
#ifdef VARIANT_NULL_FETCH
    volatile int *nothing = NULL;
    *nothing = 1;
#endif
#ifdef VARIANT_NO_COMPLETION
    (void)request; (void)completion; (void)completion_context;
    return;
#endif
#ifdef VARIANT_BLOCK
    /* Against the header's rule: holds the thread it was called on far past any deadline. */
    (void)request; (void)completion; (void)completion_context;
    struct timespec forever = {600, 0};
    nanosleep(&forever, NULL);
    return;
#endif
#ifdef VARIANT_TWICE
    answer(request, AMOUNT, completion, completion_context);
#endif
#ifdef VARIANT_HTTP
    if (host_services->struct_size < offsetof(ph_host_services, http_get) + sizeof(void *)) {
        ph_error error = {.struct_size = sizeof error, .code = "unavailable", .message = "host has no http_get"};
        completion(completion_context, NULL, &error);
        return;
    }
    struct http_job *job = calloc(1, sizeof *job);
    snprintf(job->asset, sizeof job->asset, "%s", request->asset);
    snprintf(job->currency, sizeof job->currency, "%s", request->currency);
    job->completion = completion;
    job->completion_context = completion_context;
    char url[320];
    snprintf(url, sizeof url, "%s/%s-%s", base_url, request->asset, request->currency);
    ph_http_header headers[] = {{.name = "X-Test-Plugin", .value = "c"}};
    ph_http_request http = {.struct_size = sizeof http, .url = url, .headers = headers, .header_count = 1, .timeout_ms = 0};
    host_services->http_get(host_services->host_context, &http, http_done, job);
    return;
#endif
#ifdef VARIANT_THREAD
    struct job *job = calloc(1, sizeof *job);
    snprintf(job->asset, sizeof job->asset, "%s", request->asset);
    snprintf(job->currency, sizeof job->currency, "%s", request->currency);
    job->completion = completion;
    job->completion_context = completion_context;
    pthread_t thread;
    pthread_create(&thread, NULL, run_job, job);
    pthread_detach(thread);
#else
    answer(request, AMOUNT, completion, completion_context);
#endif
}

__attribute__((unused)) static void fetch_eth(void *context, const ph_fetch_request *request,
                      ph_fetch_completion completion, void *completion_context) {
    answer(request, (const char *)context, completion, completion_context);
}

#ifdef VARIANT_FUTURE_MINOR
typedef struct { ph_fetcher base; uint64_t future_flags; } future_fetcher;
typedef struct { ph_plugin_descriptor base; const char *future_homepage; } future_descriptor;

static const future_fetcher fetchers[] = {
    {{.struct_size = sizeof(future_fetcher), .asset = NULL, .context = NULL, .fetch = fetch_any}, 0xDEADBEEF},
    {{.struct_size = sizeof(future_fetcher), .asset = "ETH", .context = "2000.5", .fetch = fetch_eth}, 0xFEEDFACE},
};

static const future_descriptor descriptor = {
    {.magic = PRICEHOST_PLUGIN_MAGIC, .abi_major = 1, .abi_minor = 7,
     .descriptor_size = sizeof(future_descriptor), .fetcher_size = sizeof(future_fetcher),
     .name = PROVIDER, .version = "1.7.0", .fetchers = &fetchers[0].base, .fetcher_count = 2},
    "https://example.invalid"};
#define DESCRIPTOR (&descriptor.base)
#else
static const ph_fetcher fetchers[] = {
    {.struct_size = sizeof(ph_fetcher), .asset = NULL, .context = NULL, .fetch = fetch_any},
};

static ph_plugin_descriptor descriptor = {
    .magic = PRICEHOST_PLUGIN_MAGIC,
    .abi_major = PRICEHOST_ABI_MAJOR,
    .abi_minor = PRICEHOST_ABI_MINOR,
    .descriptor_size = sizeof(ph_plugin_descriptor),
    .fetcher_size = sizeof(ph_fetcher),
    .name = PROVIDER,
    .version = "0.9.1",
    .fetchers = fetchers,
    .fetcher_count = 1,
};
#define DESCRIPTOR (&descriptor)
#endif

#ifdef VARIANT_REGISTER
static const ph_fetcher eth_fetcher = {
    .struct_size = sizeof(ph_fetcher), .asset = "ETH", .context = "3000.75", .fetch = fetch_eth};
#endif

#ifndef VARIANT_NO_ENTRY
EXPORT
#endif
const ph_plugin_descriptor *pricehost_plugin_entry_v1(const ph_host_services *host) {
    host_services = host;
#ifdef VARIANT_ABORT_ENTRY
    abort();
#endif
#ifdef VARIANT_GARBAGE
    printf("hello from the plugin\n");
    fflush(stdout);
#endif
#ifdef VARIANT_FORK
    if (fork() == 0) {
        struct timespec pause = {120, 0};
        nanosleep(&pause, NULL);
        _exit(0);
    }
#endif
#ifdef VARIANT_HTTP
    /* A test plugin's settings parser: finds "url": "…" and nothing more. */
    const char *settings = host->settings_json(host->host_context, PROVIDER);
    const char *key = strstr(settings, "\"url\":\"");
    if (key == NULL || sscanf(key + 7, "%255[^\"]", base_url) != 1) {
        host->log(host->host_context, PH_LOG_ERROR, "settings need \"url\"");
        return NULL;
    }
#endif
#ifdef VARIANT_RETURN_NULL
    host->log(host->host_context, PH_LOG_ERROR, "cannot start: no API key in settings");
    return NULL;
#endif
#ifdef VARIANT_WRONG_MAGIC
    descriptor.magic = 0x12345678u;
#endif
#ifdef VARIANT_NEW_MAJOR
    descriptor.abi_major = 2;
    descriptor.abi_minor = 0;
#endif
#ifdef VARIANT_SMALL_DESCRIPTOR
    descriptor.descriptor_size = 8;
#endif
#ifdef VARIANT_SMALL_FETCHER
    descriptor.fetcher_size = 8;
#endif
#ifdef VARIANT_COUNT_NEGATIVE
    descriptor.fetcher_count = (size_t)-1;
#endif
#ifdef VARIANT_HUGE_STRIDE
    descriptor.fetcher_size = 0xFFFFFFF0u;
    descriptor.fetcher_count = 2;
#endif
#ifdef VARIANT_REGISTER
    if (host->register_fetcher(host->host_context, &eth_fetcher) != 0) return NULL;
#endif
    return DESCRIPTOR;
}
