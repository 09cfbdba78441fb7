/*
 * Kraken's WebSocket feed (plugin ABI 1.3; bid and ask 1.4): what pricehost needs to stream
 * Kraken's spot ticker. The host connects, answers pings, reconnects and
 * orders quotes; this file only says where the feed is, what to send, and what
 * one message means, reading it with the host's json_get (numbers keep their
 * exact text) and checking prices with check_amount.
 *
 *   wss://ws.kraken.com/v2
 *   > {"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD"]}}
 *   < {"channel":"status","data":[{"api_version":"v2","connection_id":…,"system":"online","version":"2.0.0"}],"type":"update"}
 *   < {"method":"subscribe","result":{"channel":"ticker","snapshot":true,"symbol":"BTC/USD"},"success":true,…}
 *   < {"channel":"ticker","type":"snapshot","data":[{"symbol":"BTC/USD",…,"last":64000.1,…,"timestamp":"2023-09-25T09:04:31.742648Z"}]}
 *   < {"channel":"heartbeat"}
 *
 * Symbols are "BASE/QUOTE" with common codes: BTC, not REST's XBT. A quote is
 * `last` (the last trade, a JSON number) as written, stamped with `timestamp`
 * (RFC 3339) when the message has one, with `bid` and `ask` (the best bid and
 * ask, JSON numbers, as written; ABI 1.4) when it has them. A refused subscription
 * ({"method":"subscribe","success":false,"error":"…"}) is an error: the host
 * closes the connection and reconnects. Status messages, acknowledgements and
 * pongs mean nothing more than that the feed is alive.
 *
 * Limits (docs.kraken.com, Spot WebSocket introduction): Cloudflare allows
 * about 150 connection attempts per IP in a rolling 10 minutes and bans the
 * IP for 10 minutes past that, so the host is held to 100 per 10 minutes; the
 * server closes a connection after about a minute of inactivity, which any
 * request, such as {"method":"ping"}, prevents, so the host sends one every
 * 30 s. Kraken documents no limit on symbols per connection.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kraken_stream.h"

/* The last services the feed uses: ABI 1.2's json_get and check_amount. */
#define SERVICES_NEEDED (offsetof(ph_host_services, check_amount) + sizeof(void *))
/* Does the sender's `struct_size` cover `field` of `type`? */
#define COVERS(pointer, type, field) ((pointer)->struct_size >= offsetof(type, field) + sizeof((pointer)->field))
/* Can the sink's `function` be called? */
#define SINK_HAS(sink, function) (COVERS(sink, ph_stream_sink, function) && (sink)->function != NULL)

/*
 * The most elements of one message's `data` read: Kraken sends one, and each
 * read parses the whole message again, so a message is read no further than
 * its connection's pairs could need (twice over, and a few), nor past 256.
 */
#define MAX_ELEMENTS 256
#define SPARE_ELEMENTS 8
/* Warnings about the venue's messages: the first few, then one in every so many. */
#define LOGGED_FIRST 10
#define LOGGED_EVERY 1000

static const ph_host_services *host;
static atomic_uint warnings;
static const char *const kinds[] = {"?", "a string", "a number", "a boolean", "null", "an array", "an object"};

/* Logs a warning about what the venue sent, bounded so a feed gone wrong cannot flood the log. */
__attribute__((format(printf, 1, 2)))
static void warn(const char *format, ...) {
    unsigned count = atomic_fetch_add(&warnings, 1) + 1;
    if (count > LOGGED_FIRST && count % LOGGED_EVERY != 0) return;
    char message[700];
    int length = snprintf(message, sizeof message, "kraken stream: ");
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message + length, sizeof message - (size_t)length, format, arguments);
    va_end(arguments);
    if (count == LOGGED_FIRST) {
        size_t used = strlen(message);
        snprintf(message + used, sizeof message - used, " (from here on, one such warning in %d is logged)", LOGGED_EVERY);
    }
    host->log(host->host_context, PH_LOG_WARNING, message);
}

/* ---- subscribing ---------------------------------------------------------- */

/* A pair the host passed, or NULL when its struct is too small or a code is missing. */
static const ph_fetch_request *pair_at(const ph_fetch_request *const *pairs, size_t index) {
    const ph_fetch_request *pair = pairs[index];
    if (pair == NULL || !COVERS(pair, ph_fetch_request, currency) || pair->asset == NULL || pair->currency == NULL) return NULL;
    return pair;
}

/* Text built up piece by piece; `failed` once memory ran out. */
struct text {
    char *bytes;
    size_t length, capacity;
    int failed;
};

static void append(struct text *text, const char *bytes, size_t length) {
    if (text->failed) return;
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = (text->length + length + 1) * 2;
        char *grown = realloc(text->bytes, capacity);
        if (grown == NULL) {
            text->failed = 1;
            return;
        }
        text->bytes = grown;
        text->capacity = capacity;
    }
    memcpy(text->bytes + text->length, bytes, length);
    text->length += length;
    text->bytes[text->length] = '\0';
}

/* Appends `value` as the inside of a JSON string: codes are letters and digits, but nothing relies on it. */
static void append_escaped(struct text *text, const char *value) {
    for (const unsigned char *c = (const unsigned char *)value; *c != '\0'; c++) {
        char escaped[8];
        if (*c == '"' || *c == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*c;
            append(text, escaped, 2);
        } else if (*c < 0x20) {
            snprintf(escaped, sizeof escaped, "\\u%04x", *c);
            append(text, escaped, 6);
        } else {
            append(text, (const char *)c, 1);
        }
    }
}

/* Sends {"method":METHOD,"params":{"channel":"ticker","symbol":["BTC/USD",…]}}: one message for all the pairs. */
static void send_symbols(const char *method, const ph_fetch_request *const *pairs, size_t pair_count,
                         ph_stream_send_function send, void *send_context) {
    if (send == NULL || pairs == NULL) return;
    struct text text = {0};
    static const char middle[] = "\",\"params\":{\"channel\":\"ticker\",\"symbol\":[";
    append(&text, "{\"method\":\"", 11);
    append(&text, method, strlen(method));
    append(&text, middle, sizeof middle - 1);
    size_t symbols = 0;
    for (size_t i = 0; i < pair_count; i++) {
        const ph_fetch_request *pair = pair_at(pairs, i);
        if (pair == NULL) continue;
        if (symbols++ > 0) append(&text, ",", 1);
        append(&text, "\"", 1);
        append_escaped(&text, pair->asset);
        append(&text, "/", 1);
        append_escaped(&text, pair->currency);
        append(&text, "\"", 1);
    }
    append(&text, "]}}", 3);
    if (text.failed) {
        host->log(host->host_context, PH_LOG_ERROR, "kraken stream: out of memory for the ticker subscription");
    } else if (symbols > 0) {
        send(send_context, text.bytes);
    }
    free(text.bytes);
}

static void subscribe(void *context, const ph_fetch_request *const *pairs, size_t pair_count,
                      ph_stream_send_function send, void *send_context) {
    (void)context;
    send_symbols("subscribe", pairs, pair_count, send, send_context);
}

static void unsubscribe(void *context, const ph_fetch_request *const *pairs, size_t pair_count,
                        ph_stream_send_function send, void *send_context) {
    (void)context;
    send_symbols("unsubscribe", pairs, pair_count, send, send_context);
}

/* ---- reading -------------------------------------------------------------- */

static int get(const char *text, size_t length, const char *path, char *out, size_t size) {
    return host->json_get(host->host_context, text, length, path, out, size);
}

/* Reads `count` digits at `text` into `value`; 0 when they are all digits. */
static int number(const char *text, int count, int *value) {
    *value = 0;
    for (int i = 0; i < count; i++) {
        if (text[i] < '0' || text[i] > '9') return -1;
        *value = *value * 10 + (text[i] - '0');
    }
    return 0;
}

/* Days from 1970-01-01 to the proleptic Gregorian date year-month-day (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t year, int month, int day) {
    year -= month <= 2;
    int64_t era = (year >= 0 ? year : year - 399) / 400;
    int64_t year_of_era = year - era * 400;
    int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

/*
 * An RFC 3339 time ("2023-09-25T09:04:31.742648Z", "…+02:00") in milliseconds
 * since the Unix epoch, fractions past the millisecond dropped; 0 (unknown)
 * when it is not one or falls outside the years 0001 to 9999.
 */
static int64_t rfc3339_milliseconds(const char *text) {
    static const int month_days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year, month, day, hour, minute, second;
    if (strlen(text) < 20 || number(text, 4, &year) != 0 || text[4] != '-' || number(text + 5, 2, &month) != 0
        || text[7] != '-' || number(text + 8, 2, &day) != 0 || (text[10] != 'T' && text[10] != 't')
        || number(text + 11, 2, &hour) != 0 || text[13] != ':' || number(text + 14, 2, &minute) != 0 || text[16] != ':'
        || number(text + 17, 2, &second) != 0) {
        return 0;
    }
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > month_days[month - 1] || (month == 2 && day == 29 && !leap)
        || hour > 23 || minute > 59 || second > 60) {
        return 0;
    }
    const char *rest = text + 19;
    int64_t milliseconds = 0;
    if (*rest == '.') {
        rest++;
        if (*rest < '0' || *rest > '9') return 0;
        int places = 0;
        for (; *rest >= '0' && *rest <= '9'; rest++) {
            if (places < 3) {
                milliseconds = milliseconds * 10 + (*rest - '0');
                places++;
            }
        }
        for (; places < 3; places++) milliseconds *= 10;  /* ".5" is 500 ms */
    }
    int offset = 0;
    if (*rest == 'Z' || *rest == 'z') {
        rest++;
    } else if (*rest == '+' || *rest == '-') {
        int offset_hours, offset_minutes;
        if (number(rest + 1, 2, &offset_hours) != 0 || rest[3] != ':' || number(rest + 4, 2, &offset_minutes) != 0
            || offset_hours > 23 || offset_minutes > 59) {
            return 0;
        }
        offset = (offset_hours * 60 + offset_minutes) * 60 * (*rest == '-' ? -1 : 1);
        rest += 6;
    } else {
        return 0;
    }
    if (*rest != '\0') return 0;
    int64_t seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    int64_t result = seconds * 1000 + milliseconds;
    int64_t first = days_from_civil(1, 1, 1) * 86400000, end = days_from_civil(10000, 1, 1) * 86400000;
    return result >= first && result < end ? result : 0;
}

/* The pair `symbol` ("BTC/USD") names, when it is one of the connection's. */
static const ph_fetch_request *pair_named(const ph_stream_sink *sink, const char *symbol) {
    if (!COVERS(sink, ph_stream_sink, pair_count) || sink->pairs == NULL) return NULL;
    for (size_t i = 0; i < sink->pair_count; i++) {
        const ph_fetch_request *pair = pair_at(sink->pairs, i);
        if (pair == NULL) continue;
        size_t asset = strlen(pair->asset);
        if (strncmp(symbol, pair->asset, asset) == 0 && symbol[asset] == '/' && strcmp(symbol + asset + 1, pair->currency) == 0) {
            return pair;
        }
    }
    return NULL;
}

/*
 * Reads the price `field` of element `index` of `data` (a JSON number) into
 * `out` (PRICE_SIZE bytes): 1 when it is a decimal above zero, 0 when the
 * element has none (absent or null), -1 when it is there but no price (logged).
 */
#define PRICE_SIZE 128
static int read_price(const char *text, size_t length, size_t index, const char *symbol, const char *field, char *out) {
    char path[64], problem[300];
    snprintf(path, sizeof path, "data[%zu].%s", index, field);
    int kind = get(text, length, path, out, PRICE_SIZE);
    if (kind == PH_JSON_NOT_FOUND || kind == PH_JSON_NULL) return 0;
    if (kind == PH_JSON_TOO_SMALL) {
        warn("%s: %s is over %d bytes, longer than any amount", symbol, field, PRICE_SIZE - 1);
        return -1;
    }
    if (kind != PH_JSON_NUMBER) {
        if (kind > 0) warn("%s: %s is %s, expected a number", symbol, field, kinds[kind]);
        else warn("%s: %s", symbol, out);
        return -1;
    }
    if (host->check_amount(host->host_context, out, problem, sizeof problem) != 0) {
        warn("%s: %s %s", symbol, field, problem);
        return -1;
    }
    if (out[0] == '-' || strspn(out, "0.") == strlen(out)) {
        warn("%s: %s %s is not a positive price", symbol, field, out);
        return -1;
    }
    return 1;
}

/*
 * Reads element `index` of a ticker message's `data`: a quote when it is one
 * of the connection's pairs, with its `bid` and `ask` (ABI 1.4) when the
 * element has them. A bid or ask that is there but no price drops the quote,
 * as a bad `last` does: the host would refuse it.
 */
static void read_ticker_element(const char *text, size_t length, size_t index, const ph_stream_sink *sink) {
    char path[64], symbol[64], last[PRICE_SIZE], bid[PRICE_SIZE], ask[PRICE_SIZE], timestamp[64];
    snprintf(path, sizeof path, "data[%zu].symbol", index);
    if (get(text, length, path, symbol, sizeof symbol) != PH_JSON_STRING) return;  /* no symbol: not a quote */
    const ph_fetch_request *pair = pair_named(sink, symbol);
    if (pair == NULL) return;  /* a pair this connection did not ask for */
    /* Kraken has `last` only for pairs that traded in the past 24 hours. */
    if (read_price(text, length, index, symbol, "last", last) != 1) return;
    int has_bid = read_price(text, length, index, symbol, "bid", bid);
    if (has_bid < 0) return;
    int has_ask = read_price(text, length, index, symbol, "ask", ask);
    if (has_ask < 0) return;
    snprintf(path, sizeof path, "data[%zu].timestamp", index);
    int64_t milliseconds = get(text, length, path, timestamp, sizeof timestamp) == PH_JSON_STRING ? rfc3339_milliseconds(timestamp) : 0;
    ph_quote quote = {.struct_size = sizeof quote, .asset = pair->asset, .currency = pair->currency,
                      .amount = last, .timestamp_ms = milliseconds,
                      .bid = has_bid ? bid : NULL, .ask = has_ask ? ask : NULL};
    sink->quote(sink->sink_context, &quote);
}

/* {"channel":"ticker","type":"snapshot"|"update","data":[{…}]}: a quote per element for the connection's pairs. */
static void read_ticker(const char *text, size_t length, const ph_stream_sink *sink) {
    char count[300];
    int kind = get(text, length, "data", count, sizeof count);
    if (kind != PH_JSON_ARRAY) {
        if (kind > 0) warn("a ticker message whose data is %s, expected an array", kinds[kind]);
        else warn("a ticker message without data: %s", count);
        return;
    }
    if (!SINK_HAS(sink, quote)) return;
    unsigned long elements = strtoul(count, NULL, 10);
    size_t pairs = COVERS(sink, ph_stream_sink, pair_count) ? sink->pair_count : 0;
    size_t limit = pairs < (MAX_ELEMENTS - SPARE_ELEMENTS) / 2 ? pairs * 2 + SPARE_ELEMENTS : MAX_ELEMENTS;
    if (elements > limit) {
        warn("a ticker message with %lu elements for %zu pairs; reading the first %zu", elements, pairs, limit);
        elements = limit;
    }
    for (size_t index = 0; index < elements; index++) read_ticker_element(text, length, index, sink);
}

/* {"method":"subscribe","success":false,"error":"…"}: the venue refused; the host reconnects. */
static void read_answer(const char *text, size_t length, const ph_stream_sink *sink) {
    char method[32], success[8], reason[500], message[600];
    if (get(text, length, "method", method, sizeof method) != PH_JSON_STRING || strcmp(method, "subscribe") != 0) return;
    if (get(text, length, "success", success, sizeof success) != PH_JSON_BOOL || strcmp(success, "false") != 0) return;
    int kind = get(text, length, "error", reason, sizeof reason);
    if (kind == PH_JSON_TOO_SMALL) snprintf(reason, sizeof reason, "(its reason is over %zu bytes)", sizeof reason - 1);
    else if (kind != PH_JSON_STRING) snprintf(reason, sizeof reason, "(no reason given)");
    snprintf(message, sizeof message, "subscribe refused: %s", reason);
    if (SINK_HAS(sink, error)) sink->error(sink->sink_context, message);
}

static void read_message(void *context, const char *text, size_t length, const ph_stream_sink *sink) {
    (void)context;
    if (text == NULL || sink == NULL) return;
    char channel[300];
    int kind = get(text, length, "channel", channel, sizeof channel);
    if (kind == PH_JSON_BAD_TEXT) {
        warn("a message that is not JSON: %s", channel);
    } else if (kind == PH_JSON_STRING) {
        if (strcmp(channel, "ticker") == 0) read_ticker(text, length, sink);
        else if (strcmp(channel, "heartbeat") == 0 && SINK_HAS(sink, heartbeat)) sink->heartbeat(sink->sink_context);
        /* "status" (on connecting, and when the engine's status changes) and other channels: alive, nothing more. */
    } else {
        read_answer(text, length, sink);  /* acknowledgements, pongs and errors carry a method, not a channel */
    }
}

static const ph_stream stream = {
    .struct_size = sizeof(ph_stream),
    .url = "wss://ws.kraken.com/v2",
    .context = NULL,
    .max_pairs_per_connection = 0,
    .max_connects = 100,
    .connect_window_ms = 600000,
    .max_connection_ms = 0,
    .ping_message = "{\"method\":\"ping\"}",
    .ping_interval_ms = 30000,
    .connection_url = NULL,
    .subscribe = subscribe,
    .unsubscribe = unsubscribe,
    .read = read_message,
    /* Kraken sends a heartbeat every second on a quiet connection. */
    .heartbeat_interval_ms = 1000,
};

const ph_stream *kraken_stream(const ph_host_services *services) {
    if (services == NULL || services->struct_size < SERVICES_NEEDED || services->json_get == NULL || services->check_amount == NULL) {
        return NULL;
    }
    host = services;
    return &stream;
}
