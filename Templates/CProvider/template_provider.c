/*
 * A pricehost provider in C: the template to copy. It asks an HTTP service,
 * through the host's http_get (ABI 1.1), for GET {baseURL}/{ASSET}-{CURRENCY}
 * and expects the body to be the price as a decimal string ("64000.50").
 * 200 is a quote, 404 a clean not_found error, anything else "unavailable".
 *
 * Build (one command; see PLUGINS.md):
 *   cc -shared -fPIC -fvisibility=hidden -I PRICEHOST/Sources/CProviderABI/include \
 *      -o libTemplateProvider.so template_provider.c
 *
 * Settings in plugins.json: {"providers": {"template": {"baseURL": "https://…"}}}
 * Rename PROVIDER_NAME (and the file) for your own provider.
 */
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "pricehost_plugin.h"

#define PROVIDER_NAME "template"

static const ph_host_services *host;
static char base_url[512];

/* What one fetch needs once http_get answers; freed there. */
struct pending {
    char asset[16], currency[16];
    ph_fetch_completion completion;
    void *completion_context;
};

static void fail(struct pending *job, const char *code, const char *message) {
    ph_error error = {.struct_size = sizeof error, .code = code, .message = message};
    job->completion(job->completion_context, NULL, &error);
}

static void on_response(void *context, const ph_http_response *response, const ph_error *error) {
    struct pending *job = context;
    char message[200];
    if (error != NULL) {
        fail(job, error->code, error->message);  /* the host's words: timeout, connection refused, ... */
    } else if (response->status == 404) {
        snprintf(message, sizeof message, "no price for %s-%s", job->asset, job->currency);
        fail(job, "not_found", message);
    } else if (response->status != 200 || response->body_length == 0 || response->body_length >= 64) {
        snprintf(message, sizeof message, "HTTP %d with a %zu-byte body for %s-%s",
                 (int)response->status, response->body_length, job->asset, job->currency);
        fail(job, "unavailable", message);
    } else {
        char amount[64];
        memcpy(amount, response->body, response->body_length);
        amount[response->body_length] = '\0';
        /* The host checks the amount is a decimal string and the pair matches. */
        ph_quote quote = {.struct_size = sizeof quote, .asset = job->asset, .currency = job->currency,
                          .amount = amount, .timestamp_ms = 0 /* now */};
        job->completion(job->completion_context, &quote, NULL);
    }
    free(job);
}

static void fetch(void *fetcher_context, const ph_fetch_request *request,
                  ph_fetch_completion completion, void *completion_context) {
    (void)fetcher_context;
    struct pending *job = calloc(1, sizeof *job);
    if (job == NULL) {
        ph_error error = {.struct_size = sizeof error, .code = "failed", .message = "out of memory"};
        completion(completion_context, NULL, &error);
        return;
    }
    /* The request's strings are only valid during this call: copy them. */
    snprintf(job->asset, sizeof job->asset, "%s", request->asset);
    snprintf(job->currency, sizeof job->currency, "%s", request->currency);
    job->completion = completion;
    job->completion_context = completion_context;
    char url[600];
    snprintf(url, sizeof url, "%s/%s-%s", base_url, job->asset, job->currency);
    ph_http_header accept = {.name = "Accept", .value = "text/plain"};
    ph_http_request http = {.struct_size = sizeof http, .url = url, .headers = &accept, .header_count = 1};
    host->http_get(host->host_context, &http, on_response, job);  /* completes later, exactly once */
}

static const ph_fetcher fetchers[] = {
    {.struct_size = sizeof(ph_fetcher), .asset = NULL /* any asset */, .context = NULL, .fetch = fetch},
};

static const ph_plugin_descriptor descriptor = {
    .magic = PRICEHOST_PLUGIN_MAGIC,
    .abi_major = PRICEHOST_ABI_MAJOR,
    .abi_minor = PRICEHOST_ABI_MINOR,
    .descriptor_size = sizeof(ph_plugin_descriptor),
    .fetcher_size = sizeof(ph_fetcher),
    .name = PROVIDER_NAME,
    .version = "1.0.0",
    .fetchers = fetchers,
    .fetcher_count = 1,
};

/* Reads {"baseURL": "..."} and refuses anything else. A real plugin would use
   a JSON parser; this scan is enough for one string key. */
static int read_settings(const char *json, char *message, size_t size) {
    const char *key = strstr(json, "\"baseURL\"");
    const char *colon = key ? strchr(key + 9, ':') : NULL;
    const char *open = colon ? strchr(colon, '"') : NULL;
    const char *close = open ? strchr(open + 1, '"') : NULL;
    if (key == NULL && strcasestr(json, "\"baseurl\"") != NULL) {
        /* The usual typo (baseUrl, baseurl): name the key that was meant. */
        snprintf(message, size, "providers.%s: unknown setting (did you mean baseURL?); the only setting is baseURL", PROVIDER_NAME);
        return -1;
    }
    if (close == NULL || (size_t)(close - open - 1) >= sizeof base_url) {
        snprintf(message, size, "providers.%s.baseURL: missing; set it to the service's URL", PROVIDER_NAME);
        return -1;
    }
    int keys = 0;
    for (const char *at = json; (at = strstr(at, "\":")) != NULL; at += 2) keys++;
    if (keys != 1) {
        snprintf(message, size, "providers.%s: unknown key; the only setting is baseURL", PROVIDER_NAME);
        return -1;
    }
    memcpy(base_url, open + 1, (size_t)(close - open - 1));
    base_url[close - open - 1] = '\0';
    return 0;
}

__attribute__((visibility("default")))
const ph_plugin_descriptor *pricehost_plugin_entry_v1(const ph_host_services *services) {
    if (services == NULL || services->abi_major != PRICEHOST_ABI_MAJOR) return NULL;
    host = services;
    if (services->struct_size < offsetof(ph_host_services, http_get) + sizeof(void *)) {
        services->log(services->host_context, PH_LOG_ERROR, "needs a pricehost with HTTP (plugin ABI 1.1)");
        return NULL;
    }
    char message[200];
    if (read_settings(services->settings_json(services->host_context, PROVIDER_NAME), message, sizeof message) != 0) {
        services->log(services->host_context, PH_LOG_ERROR, message);
        return NULL;
    }
    return &descriptor;
}
