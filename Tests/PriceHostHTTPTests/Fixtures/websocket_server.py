#!/usr/bin/env python3
"""WebSocket servers for WebSocketConnectionTests, on 127.0.0.1 and a port the system picks.

Prints "PORT <n>" on stderr once listening, then one line per thing a test checks
("CLOSED <code> <reason>", "PONG <payload>", "CLIENT-CLOSE <code>"). Exits after
60 s whatever happens (SIGALRM), so a test that forgets it leaves nothing behind.

Modes:
  echo [CERT KEY]   Python's `websockets` (a real implementation): echoes every message,
                    and obeys commands sent as text: "fragments", "ping <payload>",
                    "close <code> <reason>", "big <bytes>", "flood <count> <bytes>" (that many
                    numbered messages as fast as the client takes them; logs "FLOOD-AT-3S <sent>"
                    3 s in, then "FLOOD-DONE"). With CERT and KEY, over TLS.
  silent            accepts TCP connections and never answers the upgrade.
  raw-masked        a raw socket: completes the upgrade, then sends a masked frame.
  raw-bad-utf8      a raw socket: completes the upgrade, then sends text that is not UTF-8.
The raw modes log the close code the client answers with.
"""
import asyncio
import base64
import hashlib
import signal
import socket
import ssl
import struct
import sys

signal.alarm(60)


def log(line):
    print(line, file=sys.stderr, flush=True)


async def echo_handler(ws):
    try:
        async for message in ws:
            if isinstance(message, str) and message.startswith("fragments"):
                # An iterable sends one message in fragments: here, three.
                await ws.send(["alpha-", "beta-", "gamma"])
            elif isinstance(message, str) and message.startswith("ping "):
                payload = message[5:].encode()
                waiter = await ws.ping(payload)
                await asyncio.wait_for(waiter, 5)
                log("PONG " + payload.decode())
                await ws.send("pong received: " + payload.decode())
            elif isinstance(message, str) and message.startswith("close "):
                _, code, reason = message.split(" ", 2)
                await ws.close(int(code), reason)
            elif isinstance(message, str) and message.startswith("flood "):
                _, count, size = message.split()
                sent = 0

                async def pump():
                    nonlocal sent
                    for number in range(int(count)):
                        await ws.send("%d:%s" % (number, "x" * int(size)))
                        sent += 1

                task = asyncio.ensure_future(pump())
                await asyncio.wait([task], timeout=3)
                log("FLOOD-AT-3S %d" % sent)
                await task
                log("FLOOD-DONE")
            elif isinstance(message, str) and message.startswith("big "):
                await ws.send("x" * int(message[4:]))
            else:
                await ws.send(message)
    except Exception as error:  # the tests read the close below; the error is for the log
        log("ERROR " + repr(error))
    finally:
        await ws.wait_closed()
        log("CLOSED %s %s" % (ws.close_code, ws.close_reason))


async def serve_echo(cert, key):
    from websockets.asyncio.server import serve
    context = None
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    async with serve(echo_handler, "127.0.0.1", 0, ssl=context, ping_interval=None, max_size=4 << 20) as server:
        port = server.sockets[0].getsockname()[1]
        log("PORT %d" % port)
        await asyncio.Future()


def listen():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    log("PORT %d" % listener.getsockname()[1])
    return listener


def silent():
    listener = listen()
    held = []
    while True:
        connection, _ = listener.accept()
        held.append(connection)


def raw(frame):
    listener = listen()
    connection, _ = listener.accept()
    connection.settimeout(10)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.recv(4096)
        if not chunk:
            return
        head += chunk
    key = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key:")][0]
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    connection.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + frame)
    data = b""
    while len(data) < 8:
        chunk = connection.recv(4096)
        if not chunk:
            break
        data += chunk
    if len(data) >= 8 and data[0] & 0x0F == 0x8:
        mask = data[2:6]
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(data[6:6 + (data[1] & 0x7F)]))
        log("CLIENT-CLOSE %d" % struct.unpack("!H", payload[:2])[0])
    else:
        log("CLIENT-SENT " + data.hex())


def main():
    mode = sys.argv[1]
    if mode == "echo":
        asyncio.run(serve_echo(*(sys.argv[2:4] if len(sys.argv) >= 4 else (None, None))))
    elif mode == "silent":
        silent()
    elif mode == "raw-masked":
        # FIN + text, MASK bit set, 2 bytes, key 1 2 3 4: "hi" masked.
        key = bytes([1, 2, 3, 4])
        raw(bytes([0x81, 0x82]) + key + bytes(b ^ key[i] for i, b in enumerate(b"hi")))
    elif mode == "raw-bad-utf8":
        raw(bytes([0x81, 0x02, 0xC3, 0x28]))
    else:
        sys.exit("unknown mode " + mode)


main()
