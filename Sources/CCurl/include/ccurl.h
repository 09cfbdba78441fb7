// The slice of libcurl's C API that pricehost uses, declared here so that the
// host needs neither libcurl's headers nor a link to it: the library is
// dlopen()ed on the first HTTP request (Sources/PriceHost/Networking/Curl).
//
// The numbers are libcurl's ABI (curl/curl.h, curl/multi.h), stable since
// libcurl.so.4; each is the value curl.h computes (CURLOPTTYPE_LONG = 0,
// OBJECTPOINT = 10000, FUNCTIONPOINT = 20000, OFF_T = 30000; CURLINFO_STRING =
// 0x100000, LONG = 0x200000, DOUBLE = 0x300000, OFF_T = 0x600000). Every entry
// used here exists in libcurl 7.68 and later.
//
// libcurl's setopt/getinfo functions are variadic, which Swift cannot call
// through a function pointer; the inline functions below make each call with
// the argument type libcurl expects for that option.
#ifndef PRICEHOST_CCURL_H
#define PRICEHOST_CCURL_H

#include <stddef.h>
#include <stdint.h>

// CURLcode values pricehost tells apart.
enum {
    CCURLE_OK = 0,
    CCURLE_UNSUPPORTED_PROTOCOL = 1,
    CCURLE_URL_MALFORMAT = 3,
    CCURLE_COULDNT_RESOLVE_PROXY = 5,
    CCURLE_COULDNT_RESOLVE_HOST = 6,
    CCURLE_COULDNT_CONNECT = 7,
    CCURLE_WEIRD_SERVER_REPLY = 8,
    CCURLE_HTTP2 = 16,
    CCURLE_PARTIAL_FILE = 18,
    CCURLE_WRITE_ERROR = 23,
    CCURLE_OUT_OF_MEMORY = 27,
    CCURLE_OPERATION_TIMEDOUT = 28,
    CCURLE_SSL_CONNECT_ERROR = 35,
    CCURLE_ABORTED_BY_CALLBACK = 42,
    CCURLE_TOO_MANY_REDIRECTS = 47,
    CCURLE_GOT_NOTHING = 52,
    CCURLE_SEND_ERROR = 55,
    CCURLE_RECV_ERROR = 56,
    CCURLE_SSL_CERTPROBLEM = 58,
    CCURLE_SSL_CIPHER = 59,
    CCURLE_PEER_FAILED_VERIFICATION = 60,
    CCURLE_BAD_CONTENT_ENCODING = 61,
    CCURLE_FILESIZE_EXCEEDED = 63,
    CCURLE_SSL_CACERT_BADFILE = 77,
    CCURLE_SSL_SHUTDOWN_FAILED = 80,
    /// curl_easy_send/curl_easy_recv on a CONNECT_ONLY connection: the socket is not ready; poll it and call again.
    CCURLE_AGAIN = 81,
    CCURLE_SSL_CRL_BADFILE = 82,
    CCURLE_SSL_ISSUER_ERROR = 83,
    CCURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CCURLE_SSL_INVALIDCERTSTATUS = 91,
    CCURLE_HTTP2_STREAM = 92,
    CCURLE_PROXY = 97,
    CCURLE_SSL_CLIENTCERT = 98,
};

// curl_easy_setopt options.
enum {
    CCURLOPT_WRITEDATA = 10001,
    CCURLOPT_URL = 10002,
    CCURLOPT_ERRORBUFFER = 10010,
    CCURLOPT_WRITEFUNCTION = 20011,
    CCURLOPT_USERAGENT = 10018,
    CCURLOPT_LOW_SPEED_LIMIT = 19,
    CCURLOPT_LOW_SPEED_TIME = 20,
    CCURLOPT_HTTPHEADER = 10023,
    CCURLOPT_HEADERDATA = 10029,
    CCURLOPT_NOPROGRESS = 43,
    CCURLOPT_FOLLOWLOCATION = 52,
    CCURLOPT_HTTPPROXYTUNNEL = 61,
    CCURLOPT_CAINFO = 10065,
    CCURLOPT_HEADERFUNCTION = 20079,
    CCURLOPT_HTTPGET = 80,
    /// With COPYPOSTFIELDS: the body's size, set first (an off_t).
    CCURLOPT_POSTFIELDSIZE_LARGE = 30120,
    /// A POST's body, copied by libcurl (so it need not outlive the call).
    CCURLOPT_COPYPOSTFIELDS = 10165,
    CCURLOPT_HTTP_VERSION = 84,
    CCURLOPT_DNS_CACHE_TIMEOUT = 92,
    CCURLOPT_NOSIGNAL = 99,
    CCURLOPT_SHARE = 10100,
    CCURLOPT_ACCEPT_ENCODING = 10102,
    CCURLOPT_PRIVATE = 10103,
    CCURLOPT_MAXFILESIZE_LARGE = 30117,
    CCURLOPT_TIMEOUT_MS = 155,
    CCURLOPT_CONNECTTIMEOUT_MS = 156,
    CCURLOPT_CONNECT_ONLY = 141,
    CCURLOPT_PROTOCOLS = 181,
    CCURLOPT_REDIR_PROTOCOLS = 182,
    CCURLOPT_TCP_KEEPALIVE = 213,
    CCURLOPT_SSL_ENABLE_ALPN = 226,
};

// curl_easy_getinfo items.
enum {
    CCURLINFO_RESPONSE_CODE = 0x200002,
    CCURLINFO_CONNECT_TIME = 0x300005,
    CCURLINFO_REDIRECT_URL = 0x100000 + 31,
    CCURLINFO_OS_ERRNO = 0x200000 + 25,
    CCURLINFO_NUM_CONNECTS = 0x200000 + 26,
    /// The socket of a CONNECT_ONLY connection (CURLINFO_SOCKET = 0x500000), as `curl_socket_t`, an int on Linux.
    CCURLINFO_ACTIVESOCKET = 0x500000 + 44,
};

// curl_multi_setopt options.
enum {
    CCURLMOPT_MAXCONNECTS = 6,
    CCURLMOPT_MAX_HOST_CONNECTIONS = 7,
};

// curl_share_setopt options and the data a share handle shares.
enum {
    CCURLSHOPT_SHARE = 1,
    CCURL_LOCK_DATA_DNS = 3,
    CCURL_LOCK_DATA_SSL_SESSION = 4,
};

enum {
    CCURL_GLOBAL_ALL = 3,
    CCURLMSG_DONE = 1,
    CCURLPROTO_HTTP = 1,
    CCURLPROTO_HTTPS = 2,
    CCURL_HTTP_VERSION_1_1 = 2,
    CCURL_ERROR_SIZE = 256,
};

/// `CURLMsg` from curl/multi.h: what `curl_multi_info_read` returns.
typedef struct {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} ccurl_message;

/// `struct curl_slist` from curl/curl.h.
typedef struct ccurl_slist {
    char *data;
    struct ccurl_slist *next;
} ccurl_slist;

/// The type libcurl calls a write or header callback with.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

// `function` is the address dlsym() gave for curl_easy_setopt, curl_easy_getinfo,
// curl_multi_setopt or curl_share_setopt.

static inline int ccurl_easy_setopt_long(void *function, void *easy, int option, long value) {
    return ((int (*)(void *, int, ...))function)(easy, option, value);
}

static inline int ccurl_easy_setopt_off(void *function, void *easy, int option, int64_t value) {
    return ((int (*)(void *, int, ...))function)(easy, option, (long long)value);
}

static inline int ccurl_easy_setopt_pointer(void *function, void *easy, int option, const void *value) {
    return ((int (*)(void *, int, ...))function)(easy, option, value);
}

static inline int ccurl_easy_setopt_callback(void *function, void *easy, int option, ccurl_write_callback value) {
    return ((int (*)(void *, int, ...))function)(easy, option, value);
}

static inline int ccurl_easy_getinfo_long(void *function, void *easy, int info, long *value) {
    return ((int (*)(void *, int, ...))function)(easy, info, value);
}

static inline int ccurl_easy_getinfo_double(void *function, void *easy, int info, double *value) {
    return ((int (*)(void *, int, ...))function)(easy, info, value);
}

static inline int ccurl_easy_getinfo_string(void *function, void *easy, int info, const char **value) {
    return ((int (*)(void *, int, ...))function)(easy, info, value);
}

static inline int ccurl_easy_getinfo_socket(void *function, void *easy, int info, int *value) {
    return ((int (*)(void *, int, ...))function)(easy, info, value);
}

static inline int ccurl_multi_setopt_long(void *function, void *multi, int option, long value) {
    return ((int (*)(void *, int, ...))function)(multi, option, value);
}

static inline int ccurl_share_setopt_long(void *function, void *share, int option, long value) {
    return ((int (*)(void *, int, ...))function)(share, option, value);
}

#endif
