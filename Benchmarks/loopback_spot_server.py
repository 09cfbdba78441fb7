#!/usr/bin/env python3
"""A Coinbase-shaped spot-price server on 127.0.0.1 for the benchmarks.

Usage: loopback_spot_server.py DELAY_MS  -- prints the port, then serves
GET /v2/prices/{BASE}-{CURRENCY}/spot after DELAY_MS milliseconds, until killed.
Standard library only; binds 127.0.0.1 and nothing else.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = int(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0


class Spot(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        parts = self.path.split("/")
        if len(parts) != 5 or parts[4] != "spot" or "-" not in parts[3]:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        base, currency = parts[3].split("-", 1)
        if DELAY:
            time.sleep(DELAY)
        body = json.dumps({"data": {"base": base, "currency": currency, "amount": "15840.01"}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    # socketserver's default backlog of 5 drops the SYNs of a burst of
    # connections; the kernel then retries them a second later.
    request_queue_size = 128


server = Server(("127.0.0.1", 0), Spot)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
