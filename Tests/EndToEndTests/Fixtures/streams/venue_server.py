#!/usr/bin/env python3
"""A loopback venue for the stream tests: Python's `websockets` (a real server
implementation) on 127.0.0.1 and a port the system picks, playing a script.

    venue_server.py SCRIPT.json [CERT KEY]

Prints "PORT <n>" on stderr once listening, then one line per event the tests
check: "CONNECTED <n> <path>", "RECEIVED <n> <text>", "CLOSED <n> <code>",
"STEP <n> <step>". Exits after 120 s whatever happens (SIGALRM).

The script is {"connections": [STEPS, STEPS, ...]}: connection n (from 1) runs
the n-th list of steps, the last list for any later connection. A step:
  ["wait_message"]             wait for the client's next message (its subscribe)
  ["send", TEXT]               one text message
  ["play", FILE, SECONDS]      every line of FILE (beside this script), one per SECONDS
  ["fragments", [A, B, ...]]   one text message in fragments
  ["sleep", SECONDS]
  ["wait_file", PATH]          wait (at most 30 s) until PATH exists: the test says when
  ["close", CODE, REASON]      the close handshake
  ["drop"]                     abort the TCP connection, no close frame
  ["raw", HEX]                 bytes straight onto the socket (broken frames)
  ["pings", N]                 N pings at once, not waiting for pongs
  ["big", BYTES]               a text message of BYTES bytes
  ["hold"]                     stay open until the client leaves
  ["flood", TEXT, COUNT, RATE] COUNT messages, RATE a second: TEXT with SEQ, PRICE and TIME
                               replaced by the message's number n (from 1), 50000 + n, and
                               the time it is sent (UTC, ms); logs "SENT <n> <unix ms>" each
After the last step the connection stays open until the client leaves.
"""
import asyncio
import datetime
import json
import os
import signal
import ssl
import sys
import time

signal.alarm(120)
HERE = os.path.dirname(os.path.abspath(__file__))


def log(line):
    print(line, file=sys.stderr, flush=True)


class Venue:
    def __init__(self, script):
        self.script = script
        self.count = 0

    async def handle(self, ws):
        self.count += 1
        number = self.count
        log("CONNECTED %d %s" % (number, ws.request.path))
        lists = self.script["connections"]
        steps = lists[min(number, len(lists)) - 1]
        inbox = asyncio.Queue()
        reader = asyncio.get_running_loop().create_task(self.read(ws, number, inbox))
        try:
            for step in steps:
                log("STEP %d %s" % (number, step[0]))
                await self.run(ws, step, inbox)
            await ws.wait_closed()
        except Exception as error:  # the client may leave mid-step; the tests read CLOSED
            log("ERROR %d %r" % (number, error))
        finally:
            await ws.wait_closed()
            await reader

    async def read(self, ws, number, inbox):
        # Logs the close as soon as it happens, whatever step the script is at.
        try:
            async for message in ws:
                log("RECEIVED %d %s" % (number, message))
                inbox.put_nowait(message)
        except Exception:
            pass
        await ws.wait_closed()
        log("CLOSED %d %s" % (number, ws.close_code))

    async def run(self, ws, step, inbox):
        kind = step[0]
        if kind == "wait_message":
            await asyncio.wait_for(inbox.get(), 30)
        elif kind == "send":
            await ws.send(step[1])
        elif kind == "play":
            with open(os.path.join(HERE, step[1])) as lines:
                for line in lines:
                    line = line.rstrip("\n")
                    if line:
                        await ws.send(line)
                        await asyncio.sleep(step[2])
        elif kind == "fragments":
            await ws.send(step[1])
        elif kind == "sleep":
            await asyncio.sleep(step[1])
        elif kind == "wait_file":
            for _ in range(3000):
                if os.path.exists(step[1]):
                    break
                await asyncio.sleep(0.01)
            else:
                raise TimeoutError("%s never appeared" % step[1])
        elif kind == "close":
            await ws.close(step[1], step[2])
        elif kind == "drop":
            ws.transport.abort()
        elif kind == "raw":
            ws.transport.write(bytes.fromhex(step[1]))
        elif kind == "pings":
            for _ in range(step[1]):
                self.pings = getattr(self, "pings", 0) + 1
                await ws.ping(str(self.pings))
        elif kind == "big":
            await ws.send("x" * step[1])
        elif kind == "hold":
            await ws.wait_closed()
        elif kind == "flood":
            await self.flood(ws, step[1], step[2], step[3])
        else:
            raise ValueError("unknown step %r" % (step,))

    async def flood(self, ws, text, count, rate):
        # Paced against the start, so that a late wake-up sends a burst rather than lowering the rate.
        started = time.monotonic()
        for number in range(1, count + 1):
            ahead = number / rate - (time.monotonic() - started)
            if ahead > 0:
                await asyncio.sleep(ahead)
            milliseconds = time.time_ns() // 1_000_000
            seconds, fraction = divmod(milliseconds, 1000)
            stamp = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
            message = text.replace("SEQ", str(number)).replace("PRICE", str(50000 + number))
            await ws.send(message.replace("TIME", "%s.%03dZ" % (stamp, fraction)))
            log("SENT %d %d" % (number, milliseconds))


async def main():
    from websockets.asyncio.server import serve
    with open(sys.argv[1]) as file:
        venue = Venue(json.load(file))
    context = None
    if len(sys.argv) > 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
    async with serve(venue.handle, "127.0.0.1", 0, ssl=context, ping_interval=None, max_size=1 << 20) as server:
        log("PORT %d" % server.sockets[0].getsockname()[1])
        await asyncio.Future()


asyncio.run(main())
