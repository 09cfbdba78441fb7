/*
 * A pricehost provider in C: the template to copy. It asks an HTTP service,
 * through the host's http_get, for GET {baseURL}/{ASSET}-{CURRENCY} and reads
 * the price from a JSON answer, {"price": "64000.50"}, with the host's
 * json_get and check_amount (plugin ABI 1.2). 200 is a quote, 404 a clean
 * not_found, anything else "unavailable".
 *
 * Build (one command; see PLUGINS.md):
 *   cc -shared -fPIC -fvisibility=hidden -I PRICEHOST/Sources/CProviderABI/include \
 *      -o libTemplateProvider.so template_provider.c
 *
 * Settings in plugins.json: {"providers": {"template": {"baseURL": "https://…"}}};
 * without one, baseURL is a service on this machine, http://127.0.0.1:8080.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricehost_plugin.h"

#define PROVIDER_NAME "template"

static const ph_host_services *host;
static char base_url[512] = "http://127.0.0.1:8080";

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
    char price[64], message[400];
    if (error != NULL) {
        fail(job, error->code, error->message);  /* the host's words: timeout, connection refused, ... */
    } else if (response->status == 404) {
        snprintf(message, sizeof message, "no price for %s-%s", job->asset, job->currency);
        fail(job, "not_found", message);
    } else if (response->status != 200) {
        snprintf(message, sizeof message, "HTTP %d for %s-%s", (int)response->status, job->asset, job->currency);
        fail(job, "unavailable", message);
    } else if (host->json_get(host->host_context, (const char *)response->body, response->body_length, "price",
                              price, sizeof price) != PH_JSON_STRING) {
        /* json_get left its reason in `price`: "line 1, column 3: …", "price: missing", … */
        snprintf(message, sizeof message, "200 without a price string (%s) for %s-%s", price, job->asset, job->currency);
        fail(job, "invalid_response", message);
    } else if (host->check_amount(host->host_context, price, message, sizeof message) != 0) {
        fail(job, "invalid_response", message);  /* "\"1e5\" is not a decimal amount (…)" */
    } else {
        ph_quote quote = {.struct_size = sizeof quote, .asset = job->asset, .currency = job->currency,
                          .amount = price, .timestamp_ms = 0 /* now */};
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
    ph_http_header accept = {.name = "Accept", .value = "application/json"};
    ph_http_request http = {.struct_size = sizeof http, .url = url, .headers = &accept, .header_count = 1};
    host->http_get(host->host_context, &http, on_response, job);  /* completes later, exactly once */
}

static const ph_fetcher fetchers[] = {{.struct_size = sizeof(ph_fetcher), .asset = NULL /* any asset */, .fetch = fetch}};

static const ph_plugin_descriptor descriptor = {
    .magic = PRICEHOST_PLUGIN_MAGIC, .abi_major = PRICEHOST_ABI_MAJOR, .abi_minor = PRICEHOST_ABI_MINOR,
    .descriptor_size = sizeof(ph_plugin_descriptor), .fetcher_size = sizeof(ph_fetcher),
    .name = PROVIDER_NAME, .version = "1.0.0", .fetchers = fetchers, .fetcher_count = 1,
};

/* Reads {"baseURL": "..."} (optional) and refuses any other key by name. */
static int read_settings(const char *json, char *message, size_t size) {
    char key[128], path[32], url[sizeof base_url];
    int kind = host->json_get(host->host_context, json, strlen(json), "", key, sizeof key);
    for (int i = 0; kind == PH_JSON_OBJECT && i < atoi(key); i++) {
        char name[128];
        snprintf(path, sizeof path, "{%d}", i);  /* the key of member i */
        host->json_get(host->host_context, json, strlen(json), path, name, sizeof name);
        if (strcmp(name, "baseURL") == 0) continue;
        snprintf(message, size, "providers.%s.%s: unknown key; the only setting is baseURL", PROVIDER_NAME, name);
        return -1;
    }
    kind = host->json_get(host->host_context, json, strlen(json), "baseURL", url, sizeof url);
    if (kind == PH_JSON_STRING) memcpy(base_url, url, sizeof url);
    if (kind == PH_JSON_STRING || kind == PH_JSON_NOT_FOUND) return 0;
    snprintf(message, size, "providers.%s.baseURL: expected the service's URL as a string of at most %zu bytes",
             PROVIDER_NAME, sizeof base_url - 1);
    return -1;
}

__attribute__((visibility("default")))
const ph_plugin_descriptor *pricehost_plugin_entry_v1(const ph_host_services *services) {
    if (services == NULL || services->abi_major != PRICEHOST_ABI_MAJOR) return NULL;
    host = services;
    char message[300];
    /* An older host passes a shorter table: check it has the last service this plugin calls. */
    if (services->struct_size < offsetof(ph_host_services, check_amount) + sizeof(void *)) {
        snprintf(message, sizeof message, PROVIDER_NAME ": needs pricehost with plugin ABI 1.2 (JSON services); this one speaks %d.%d",
                 services->abi_major, services->abi_minor);
        services->log(services->host_context, PH_LOG_ERROR, message);
        return NULL;
    }
    if (read_settings(services->settings_json(services->host_context, PROVIDER_NAME), message, sizeof message) != 0) {
        services->log(services->host_context, PH_LOG_ERROR, message);
        return NULL;
    }
    return &descriptor;
}
