/*
 * pricehost plugin ABI, version 1.
 *
 * A pricehost plugin is a shared library (.so) that exports one C function,
 * `pricehost_plugin_entry_v1` (see PRICEHOST_PLUGIN_ENTRY_SYMBOL). The host
 * dlopen()s the library with RTLD_NOW | RTLD_LOCAL, calls the entry exactly
 * once with a table of host services, and receives a descriptor naming the
 * provider and its fetchers. The host never dlclose()s a plugin: everything a
 * plugin hands over may live in static storage or be allocated once and never
 * freed.
 *
 * Versioning
 *   - The major version is part of the entry symbol's name. A change that is
 *     not "append a field at the end of a struct" is a new major version and a
 *     new entry symbol; the host refuses a descriptor whose major differs.
 *   - Appending fields at the end of a struct is a minor version. Every struct
 *     that crosses the boundary starts with its size in bytes as the sender
 *     compiled it. The receiver reads only the fields that fit in that size and
 *     treats the rest as zero, and steps through arrays by the sender's size.
 *     So a plugin built for 1.0 keeps loading in a 1.x host, and a plugin built
 *     for 1.x must check `host->struct_size` before it uses a field added
 *     after 1.0.
 *
 * Strings
 *   All strings are NUL-terminated UTF-8. The receiving side copies what it
 *   wants to keep. Each field says how long its pointer stays valid.
 *
 * Threading
 *   The entry function is called once, on one thread. `fetch` may be called
 *   from any thread, concurrently with itself. Host services may be called
 *   from any thread unless a field says otherwise.
 */
#ifndef PRICEHOST_PLUGIN_H
#define PRICEHOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** "PHP1" in ASCII: the first field of every descriptor. */
#define PRICEHOST_PLUGIN_MAGIC 0x50485031u
/** The ABI major version this header describes; it is in the entry symbol's name. */
#define PRICEHOST_ABI_MAJOR 1
/**
 * The ABI minor version this header describes.
 *   1.0  descriptor, fetchers, settings, logging, registration
 *   1.1  host HTTP service: ph_host_services.http_get
 *   1.2  JSON and amount services: ph_host_services.json_get and
 *        check_amount; ph_http_request.retry_answer
 *   1.3  streams: ph_plugin_descriptor.stream describes a WebSocket feed
 *   1.4  best bid and ask: ph_quote.bid and ph_quote.ask
 */
#define PRICEHOST_ABI_MINOR 4
/** The name of the function every plugin exports. */
#define PRICEHOST_PLUGIN_ENTRY_SYMBOL "pricehost_plugin_entry_v1"

/** Severity for `ph_host_services.log`. */
typedef enum ph_log_level {
    PH_LOG_DEBUG = 0,
    PH_LOG_INFO = 1,
    PH_LOG_WARNING = 2,
    PH_LOG_ERROR = 3
} ph_log_level;

/**
 * What the host asks a fetcher for. Built by the host; valid only for the
 * duration of the `fetch` call (copy what you need before returning).
 */
typedef struct ph_fetch_request {
    /** sizeof(ph_fetch_request) as the host compiled it. */
    uint32_t struct_size;
    /** Asset code, upper case, 2 to 10 letters or digits, e.g. "BTC". */
    const char *asset;
    /** Quote currency code, same rules, e.g. "USD". */
    const char *currency;
} ph_fetch_request;

/**
 * A successful answer. Built by the plugin; the host copies every field
 * before the completion returns, so it may live on the plugin's stack. The
 * same struct carries a stream's quotes (ph_stream_sink.quote).
 */
typedef struct ph_quote {
    /** sizeof(ph_quote) as the plugin compiled it. */
    uint32_t struct_size;
    /** Asset code of the quote; must equal the request's. */
    const char *asset;
    /** Currency of the quote; must equal the request's. */
    const char *currency;
    /**
     * The price as a decimal string: optional '-', digits, optional '.'
     * and digits ("15840.01"), at most 38 significant digits. Never a binary
     * float; the host parses it exactly and rejects anything else.
     */
    const char *amount;
    /**
     * When the price was observed, in milliseconds since the Unix epoch
     * (UTC), within the years 0001 to 9999; 0 = unknown, the host uses the
     * time of completion.
     */
    int64_t timestamp_ms;

    /* ---- 1.4: a 1.3 host reads only the fields above. A 1.4 host reads
     * each of these only when struct_size covers it, so a quote built with an
     * older header (struct_size = offsetof(ph_quote, bid)) still works, with
     * neither ---- */

    /**
     * The venue's best bid: decimal text by the rule of `amount` (what
     * check_amount accepts) and above zero, as the venue wrote it, e.g.
     * "64000.09"; NULL = unknown, the venue gave none (an empty book is NULL,
     * not "0"). Answers write it as they write amounts, without trailing
     * zeros. A bid the host does not accept makes the whole quote an invalid
     * response that names the field ("plugin returned a bid that is not a
     * decimal price above zero: \"1e5\""), as a bad amount does: the host
     * neither drops the bid silently nor keeps the price without it. In a
     * stream's quote (ph_stream_sink.quote) a quote with a bad bid is
     * dropped, as one with a bad amount is.
     */
    const char *bid;
    /** The venue's best ask; as `bid`. */
    const char *ask;
} ph_quote;

/**
 * A failed answer. Built by the plugin; copied by the host before the
 * completion returns.
 */
typedef struct ph_error {
    /** sizeof(ph_error) as the plugin compiled it. */
    uint32_t struct_size;
    /**
     * A short machine-readable code; NULL means "failed". The codes:
     *   "not_found"          the provider has no price for the pair (never retried)
     *   "invalid_request"    the request itself is wrong (bad code, unsupported currency)
     *   "invalid_response"   the source answered with something that is not a valid price
     *   "invalid_settings"   the provider's settings in plugins.json are wrong
     *   "unavailable"        the source could not be reached or is down; later may work
     *   "timeout"            the answer did not come in time
     *   "response_too_large" the answer was over the provider's maxResponseBytes
     *   "no_completion"      the plugin never called its completion (the host's own)
     *   "failed"             anything else
     */
    const char *code;
    /** One human-readable line naming what failed; must not be NULL. */
    const char *message;
} ph_error;

/**
 * Completion of one fetch. Call it exactly once per `fetch` call, with
 * exactly one of `quote` and `error` non-NULL, from any thread, before or
 * after `fetch` returns. `completion_context` is the value the host passed
 * to `fetch`; it is opaque. A second call is ignored and logged by the host;
 * a fetch whose completion never comes fails with a timeout on the host side.
 */
typedef void (*ph_fetch_completion)(void *completion_context, const ph_quote *quote, const ph_error *error);

/**
 * Starts fetching one quote. `fetcher_context` is the fetcher's own
 * `context` field. `request` is valid only until `fetch` returns. Must not
 * block for long: do slow work on another thread, or through the host's
 * asynchronous services, and complete later.
 */
typedef void (*ph_fetch_function)(void *fetcher_context, const ph_fetch_request *request,
                                  ph_fetch_completion completion, void *completion_context);

/**
 * One fetcher a plugin offers. Owned by the plugin and must stay valid for
 * the life of the process (static storage, or allocated and never freed).
 */
typedef struct ph_fetcher {
    /** sizeof(ph_fetcher) as the plugin compiled it. */
    uint32_t struct_size;
    /**
     * The one asset this fetcher is dedicated to (e.g. "ETH": 2 to 10 letters
     * or digits, upper-cased by the host), registered as
     * "<provider>/<asset>"; or NULL for the provider's general fetcher that
     * serves any asset, registered as "<provider>". A provider has at most
     * one general fetcher and at most one fetcher per asset.
     */
    const char *asset;
    /** Passed back unchanged to `fetch`; may be NULL. */
    void *context;
    /** Must not be NULL. */
    ph_fetch_function fetch;
} ph_fetcher;

/**
 * One HTTP header. (1.1) Unlike the other structs it has no size field and
 * will never grow: a later version that needs more adds a new type.
 */
typedef struct ph_http_header {
    /** Header name; in responses, lower case. */
    const char *name;
    /** Header value. */
    const char *value;
} ph_http_header;

struct ph_http_response;

/**
 * An HTTP GET a plugin asks the host to perform. (1.1) Built by the plugin;
 * the host copies everything before `http_get` returns, so it may live on
 * the plugin's stack.
 */
typedef struct ph_http_request {
    /** sizeof(ph_http_request) as the plugin compiled it. */
    uint32_t struct_size;
    /** An absolute http:// or https:// URL. */
    const char *url;
    /** `header_count` headers to send; may be NULL when the count is 0. */
    const ph_http_header *headers;
    /** Number of entries in `headers`. */
    size_t header_count;
    /**
     * Time allowed for each attempt, in milliseconds; 0 takes the provider's
     * `timeoutSeconds` from plugins.json (10 s by default). The host caps it
     * at that setting.
     */
    uint32_t timeout_ms;

    /* ---- 1.2: a 1.1 host reads only the fields above and ignores this one ---- */

    /**
     * Optional; may be NULL. Called by the host with each answer it gets
     * (any status), before it decides whether to try again, with the
     * `context` passed to `http_get`. Return non-zero when the answer is a
     * failure that may succeed later although its status does not say so,
     * such as an API's "busy" error inside a 200: the host then treats it as
     * it treats a 503, retrying within the provider's `maxAttempts` with its
     * backoff and any Retry-After. When the attempts run out, the last answer
     * goes to the completion as usual. `response` is valid only during the
     * call. Any thread; may be called several times per request, never after
     * the completion. Must not block. A 1.1 host never calls it (no retry).
     */
    int (*retry_answer)(void *context, const struct ph_http_response *response);
} ph_http_request;

/**
 * The host's answer to `http_get`. (1.1) Built by the host; valid only
 * during the completion call (copy what you need). Any status is an answer,
 * 4xx and 5xx included: the host has already retried what can succeed on
 * retry, within the provider's `maxAttempts`.
 */
typedef struct ph_http_response {
    /** sizeof(ph_http_response) as the host compiled it. */
    uint32_t struct_size;
    /** The HTTP status code, e.g. 200. */
    int32_t status;
    /** Response headers, names in lower case. */
    const ph_http_header *headers;
    /** Number of entries in `headers`. */
    size_t header_count;
    /** The body; not NUL-terminated; NULL when `body_length` is 0. */
    const uint8_t *body;
    /** Length of `body` in bytes; never more than the provider's `maxResponseBytes`. */
    size_t body_length;
} ph_http_response;

/**
 * Completion of one `http_get`. (1.1) Called by the host exactly once,
 * from any thread, with exactly one of `response` and `error` non-NULL.
 * `error->code` is one of "timeout", "unavailable" (connection failed),
 * "response_too_large" or "invalid_request" (a URL the host will not fetch).
 */
typedef void (*ph_http_completion)(void *context, const ph_http_response *response, const ph_error *error);

/** The type of `ph_host_services.http_get`. (1.1) */
typedef void (*ph_http_get_function)(void *host_context, const ph_http_request *request,
                                     ph_http_completion completion, void *context);

/**
 * What `ph_host_services.json_get` found (1.2): a kind (positive) or why it
 * found nothing (negative). Whatever it returns, `buffer` holds a
 * NUL-terminated text (when `buffer_size` > 0): the value for a kind, a
 * one-line message for a failure.
 */
typedef enum ph_json_result {
    /** A string: `buffer` holds it unescaped, UTF-8. */
    PH_JSON_STRING = 1,
    /** A number: `buffer` holds its exact text as written ("64000.10", "1e3"), never reformatted. */
    PH_JSON_NUMBER = 2,
    /** true or false: `buffer` holds "true" or "false". */
    PH_JSON_BOOL = 3,
    /** null: `buffer` holds "null". */
    PH_JSON_NULL = 4,
    /** An array: `buffer` holds its number of elements in decimal ("3"). */
    PH_JSON_ARRAY = 5,
    /** An object: `buffer` holds its number of members in decimal ("1"). */
    PH_JSON_OBJECT = 6,
    /**
     * Nothing at `path`: a key is absent, an index is past the end, or a step
     * goes into a value that is not an object or array. `buffer`: which step,
     * e.g. "result.XXBTZUSD.c: missing".
     */
    PH_JSON_NOT_FOUND = -1,
    /** The value does not fit in `buffer_size - 1` bytes; `buffer`: a message with its length. */
    PH_JSON_TOO_SMALL = -2,
    /** `path` is malformed; `buffer`: why. */
    PH_JSON_BAD_PATH = -3,
    /** `json` is not JSON (or is over 16 MiB); `buffer`: "line 1, column 9: …". */
    PH_JSON_BAD_TEXT = -4,
    /** The string contains U+0000, which a C string cannot carry. */
    PH_JSON_NUL_IN_STRING = -5
} ph_json_result;

/**
 * The type of `ph_host_services.json_get`. (1.2) Returns a `ph_json_result`.
 */
typedef int (*ph_json_get_function)(void *host_context, const char *json, size_t json_length, const char *path,
                                    char *buffer, size_t buffer_size);

/**
 * The type of `ph_host_services.check_amount`. (1.2) Returns 0 when the host
 * accepts `amount` as a quote's amount, non-zero otherwise.
 */
typedef int (*ph_check_amount_function)(void *host_context, const char *amount, char *message, size_t message_size);

/**
 * Services the host gives a plugin. Owned by the host; the pointer passed
 * to the entry function and every function in it stay valid for the life of
 * the process. Fields appended in later minor versions are only present when
 * `struct_size` covers them.
 */
typedef struct ph_host_services {
    /** sizeof(ph_host_services) as the host compiled it. */
    uint32_t struct_size;
    /** The host's ABI major version (PRICEHOST_ABI_MAJOR). */
    uint16_t abi_major;
    /** The host's ABI minor version. */
    uint16_t abi_minor;
    /** Opaque; pass it back as the first argument of every service. */
    void *host_context;
    /**
     * The settings of `provider` (pass your own provider's name) from
     * plugins.json ("providers" key), as the text of a JSON object, with
     * ${VAR} already replaced and the host's own keys (timeoutSeconds,
     * maxAttempts, maxResponseBytes, retryBaseDelayMilliseconds,
     * maxRetryAfterSeconds, maxConcurrentRequests, maxAgeSeconds, staleQuotes,
     * cacheSeconds, requestsPerSecond, burst, followRedirects,
     * caFile, stream, streamURL, staleAfterSeconds, fallbackIntervalSeconds,
     * maxMessageBytes, streamLifetimeSeconds) removed; "{}" when there
     * are none. Owned by the host; valid for the life of the process. Never NULL.
     */
    const char *(*settings_json)(void *host_context, const char *provider);
    /**
     * The directory of the config file, without a trailing slash. Relative
     * paths in settings are relative to it. Owned by the host; valid for the
     * life of the process. Never NULL.
     */
    const char *config_directory;
    /**
     * Writes one line to the host's log (stderr), prefixed with the plugin's
     * file name; control characters are escaped. `message` is copied; any
     * thread. During the entry call lines are held back: if the entry returns
     * NULL, the last warning or error becomes the one line the host reports
     * for the plugin, so say there why you decline to load.
     */
    void (*log)(void *host_context, ph_log_level level, const char *message);
    /**
     * Registers a fetcher beyond those in the descriptor, for plugins that
     * decide their fetchers from their settings. Only valid while the entry
     * call runs. `fetcher` must stay valid for the life of the
     * process. Returns 0 when taken; non-zero (and logs why) when `fetcher`
     * is NULL or the entry call is over. The host checks registered fetchers
     * as it checks the descriptor's once the entry returns: a malformed one,
     * or two for the same asset, fail the whole plugin.
     */
    int (*register_fetcher)(void *host_context, const ph_fetcher *fetcher);

    /* ---- 1.1: check struct_size >= offsetof(ph_host_services, http_get) + sizeof(void *) before use ---- */

    /**
     * Performs an HTTP GET with the host's networking: its timeouts, retries
     * (timeouts, connection failures, 429 honouring Retry-After, 5xx; never
     * another 4xx), response size cap and user agent, as configured for this
     * plugin's provider in plugins.json. Returns at once; `completion` is
     * called later, exactly once, with `context`. Any thread; may be called
     * concurrently.
     */
    ph_http_get_function http_get;

    /* ---- 1.2: check struct_size >= offsetof(ph_host_services, check_amount) + sizeof(void *) before use ---- */

    /**
     * Reads one value from a JSON text, so a C plugin needs no JSON parser.
     * `json` is `json_length` bytes of UTF-8 (an HTTP body as it came: no NUL
     * needed; NULL when the length is 0). `path` (NUL-terminated) names the
     * value, e.g. "result.XXBTZUSD.c[0]":
     *   name or .name   the member `name` of an object (any characters but . [ ] { } ")
     *   ["name"]        the same, for a name with those characters (\" and \\ escape)
     *   [N]             element N of an array (from 0); on an object, its N-th
     *                   member in document order ("result[0]": the only pair)
     *   {N}             last step only: the key (a string) of an object's N-th member
     *   ""              the whole document
     * Ownership: the caller owns `buffer` (`buffer_size` bytes, e.g. on its
     * stack); the host writes at most `buffer_size` bytes there, always
     * NUL-terminated, and keeps nothing. With `buffer_size` 0 (`buffer` may
     * then be NULL) only the result is returned, never PH_JSON_TOO_SMALL.
     * Returns a `ph_json_result`: the kind found (> 0) with its text in
     * `buffer`, or a failure (< 0) with a one-line message there. Parses
     * `json` on every call: meant for a handful of reads of an answer. Any
     * thread; touches no state.
     */
    ph_json_get_function json_get;
    /**
     * Checks `amount` (NUL-terminated) by the very rule the host applies to
     * `ph_quote.amount` (and, from 1.4, to `bid` and `ask`): optional '-', digits, optional '.' and digits, at
     * most 38 significant digits; no exponent, spaces, '+' or grouping.
     * Returns 0 when the host will accept it. Otherwise non-zero, and when
     * `message_size` > 0 a one-line reason in `message` (caller-owned,
     * always NUL-terminated, truncated to fit), e.g.
     * "\"1e5\" is not a decimal amount (-?digits(.digits)?, at most 38 significant digits)".
     * Any thread.
     */
    ph_check_amount_function check_amount;
} ph_host_services;


/* ---- 1.3: streams ---------------------------------------------------------
 *
 * A plugin may describe its venue's WebSocket feed: where it is, what to send
 * to subscribe to a set of pairs, and how to read one text message. The host
 * does everything else: it connects (ws:// or wss://, through libcurl, with the
 * provider's caFile), answers the server's pings, reconnects with backoff,
 * notices silence and falls back to the plugin's REST fetcher, keeps each
 * pair's quotes in order, and fans them out. A plugin never sees a socket.
 *
 * Threading: the host calls `subscribe`, `unsubscribe`, `connection_url` and
 * `read` from its connections' threads, concurrently for different
 * connections, never concurrently for one connection. They must not block.
 */

/**
 * Queues one text message for the connection (1.3). `text` is copied before
 * the call returns. Only valid during the call it was passed to.
 */
typedef void (*ph_stream_send_function)(void *send_context, const char *text);

/**
 * What the host gives `read` to report what one message meant (1.3). Built by
 * the host; valid only during the `read` call. Call any of the functions any
 * number of times, or none (a message that means nothing to the host, such as
 * a subscription's acknowledgement: it still counts as a sign of life).
 */
typedef struct ph_stream_sink {
    /** sizeof(ph_stream_sink) as the host compiled it. */
    uint32_t struct_size;
    /** Opaque; pass it back as the first argument of every function below. */
    void *sink_context;
    /** The pairs this connection subscribed to: `pair_count` pointers. */
    const ph_fetch_request *const *pairs;
    /** Number of entries in `pairs`. */
    size_t pair_count;
    /**
     * A price for one pair, checked as a fetch's quote is (the amount's
     * rule, a decimal above zero, and from 1.4 the same for a non-NULL `bid`
     * and `ask`; the pair must be one of `pairs`). `timestamp_ms` is the venue's
     * time of the price; 0 = unknown, the host uses the time it received
     * the message. A quote older than the last one the host emitted for its
     * pair is dropped, never emitted out of order.
     */
    void (*quote)(void *sink_context, const ph_quote *quote);
    /** The venue's heartbeat: nothing to emit, but the feed is alive. */
    void (*heartbeat)(void *sink_context);
    /**
     * The message's sequence number in `scope` (any text; "" for the
     * connection as a whole, a pair's symbol for a per-pair sequence). Call
     * it before the message's quotes. More than one past the last number in
     * that scope on this connection is a gap: counted and logged, and the
     * quotes still flow. Not past the last one is a repeat or out of order:
     * the host drops the message's quotes.
     */
    void (*sequence)(void *sink_context, const char *scope, int64_t sequence);
    /**
     * The venue reports an error, such as a refused subscription: the host
     * logs `message` as a warning naming the provider, closes the connection
     * and reconnects after backoff.
     */
    void (*error)(void *sink_context, const char *message);
    /**
     * The venue asks the client to reconnect (such as Bitstamp's
     * "bts:request_reconnect"): the host opens a new connection, then closes
     * this one.
     */
    void (*reconnect)(void *sink_context, const char *reason);
    /** Sends a text reply on this connection, such as an application-level pong. */
    void (*send)(void *sink_context, const char *text);
} ph_stream_sink;

/**
 * A venue's feed (1.3). Owned by the plugin; it and everything it points to
 * must stay valid for the life of the process.
 */
typedef struct ph_stream {
    /** sizeof(ph_stream) as the plugin compiled it. */
    uint32_t struct_size;
    /**
     * The feed's ws:// or wss:// URL, e.g. "wss://ws.kraken.com/v2". The
     * provider's `streamURL` setting in plugins.json replaces it.
     */
    const char *url;
    /** Passed back unchanged as the first argument of every function below; may be NULL. */
    void *context;
    /** The most pairs one connection may carry; 0 = no limit. More pairs open more connections. */
    uint32_t max_pairs_per_connection;
    /**
     * The venue's limit on connection attempts: at most `max_connects`
     * attempts in any `connect_window_ms` milliseconds, from this process
     * (e.g. Kraken's 150 in 10 minutes: give a margin, 100 and 600000).
     * 0 = no limit beyond the host's backoff (0.5 s, doubling to 30 s,
     * jittered). The host waits rather than exceed it.
     */
    uint32_t max_connects;
    /** See `max_connects`. */
    uint32_t connect_window_ms;
    /**
     * The longest the venue keeps a connection open, in milliseconds (such
     * as Binance's 24 hours); 0 = no limit. Before it ends, the host opens a
     * new connection, waits for its first quote or heartbeat, then closes
     * the old one, so no update is lost.
     */
    uint64_t max_connection_ms;
    /** A text message to send every `ping_interval_ms` (an application-level ping); NULL = none. */
    const char *ping_message;
    /** See `ping_message`; ignored when it is NULL. */
    uint32_t ping_interval_ms;
    /**
     * Optional; NULL = every connection uses the URL. Writes into `buffer`
     * (`buffer_size` bytes, NUL-terminated) the URL of a connection for
     * `pairs`, from `base_url` (the URL above, or the `streamURL` setting),
     * for venues that name the pairs in the URL. Returns 0, or non-zero when
     * it cannot (the host logs it and does not connect).
     */
    int (*connection_url)(void *context, const char *base_url, const ph_fetch_request *const *pairs, size_t pair_count,
                          char *buffer, size_t buffer_size);
    /**
     * Sends, through `send`, the messages that subscribe a new connection to
     * `pairs` (any number, none for a venue whose URL subscribes). Must not
     * be NULL.
     */
    void (*subscribe)(void *context, const ph_fetch_request *const *pairs, size_t pair_count,
                      ph_stream_send_function send, void *send_context);
    /** Optional; the messages that end the subscription to `pairs` on a connection the host keeps open. */
    void (*unsubscribe)(void *context, const ph_fetch_request *const *pairs, size_t pair_count,
                        ph_stream_send_function send, void *send_context);
    /**
     * Reads one text message (`length` bytes of valid UTF-8, also
     * NUL-terminated) and reports what it meant through `sink`. Must not be NULL.
     */
    void (*read)(void *context, const char *text, size_t length, const ph_stream_sink *sink);
    /**
     * How often the venue sends something on a quiet connection (its heartbeat),
     * in milliseconds; 0 = unknown. Unless the provider's `staleAfterSeconds`
     * is set, the host waits at least twice this long before it calls the feed
     * stale, so a venue whose heartbeat is as slow as the default staleness
     * (Gemini's 5 s) does not flap.
     */
    uint32_t heartbeat_interval_ms;
} ph_stream;

/**
 * What the entry function returns. Owned by the plugin; it and everything it
 * points to must stay valid for the life of the process.
 */
typedef struct ph_plugin_descriptor {
    /** PRICEHOST_PLUGIN_MAGIC. */
    uint32_t magic;
    /** PRICEHOST_ABI_MAJOR as the plugin was built with. */
    uint16_t abi_major;
    /** PRICEHOST_ABI_MINOR as the plugin was built with. */
    uint16_t abi_minor;
    /** sizeof(ph_plugin_descriptor) as the plugin compiled it; the host refuses more than 4096. */
    uint32_t descriptor_size;
    /** sizeof(ph_fetcher) as the plugin compiled it: the stride of `fetchers`; the host refuses more than 4096. */
    uint32_t fetcher_size;
    /** The provider's name: lower case letters, digits and '-', 1 to 32 characters, e.g. "coinbase". Never NULL. */
    const char *name;
    /** The plugin's version such as "1.2.0": 1 to 64 printable characters. Never NULL. */
    const char *version;
    /** `fetcher_count` fetchers, `fetcher_size` bytes apart; may be NULL when the count is 0. */
    const ph_fetcher *fetchers;
    /** Number of entries in `fetchers`: 0 to 10000 (with those registered, at least one in all). */
    size_t fetcher_count;

    /* ---- 1.3: a 1.2 host reads only the fields above ---- */

    /**
     * The venue's feed, or NULL when the provider has none. The host streams
     * only a provider that also has a general fetcher: its REST fallback.
     */
    const ph_stream *stream;
} ph_plugin_descriptor;

/**
 * The entry point every plugin exports under PRICEHOST_PLUGIN_ENTRY_SYMBOL.
 * Called once, after dlopen. Returns the descriptor, or NULL when the plugin
 * cannot work (say why through `host->log` first).
 */
typedef const ph_plugin_descriptor *(*ph_plugin_entry_v1)(const ph_host_services *host);

#ifdef __cplusplus
}
#endif

#endif /* PRICEHOST_PLUGIN_H */
