#!/usr/bin/env python3
"""delay-hop.py IF1 IF2 DELAY_MS: a link with latency, for kernels without netem.

Forwards every Ethernet frame between two address-less interfaces (AF_PACKET raw sockets), each one DELAY_MS
after it arrived, in both directions: the round trip through the hop grows by 2 x DELAY_MS. Loss and rate
caps are made elsewhere (nftables, tc tbf); this hop only delays. The interfaces on the path need their
offloads off (ethtool), or captured frames carry partial checksums and oversized segments.
Run inside the namespace that owns both interfaces. Prints "ready" once both sockets are bound.
"""
import heapq
import select
import socket
import sys
import time

if1, if2, delay = sys.argv[1], sys.argv[2], float(sys.argv[3]) / 1000.0
ETH_P_ALL = 3
socks = {}
for name in (if1, if2):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((name, 0))
    s.setblocking(False)
    socks[name] = s
other = {if1: socks[if2], if2: socks[if1]}
queue = []
seq = 0
print("ready", flush=True)
while True:
    timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else 1.0
    ready, _, _ = select.select(list(socks.values()), [], [], timeout)
    for name, s in socks.items():
        if s not in ready:
            continue
        while True:
            try:
                frame, addr = s.recvfrom(65535)
            except BlockingIOError:
                break
            if addr[2] == socket.PACKET_OUTGOING:  # our own sends, seen again
                continue
            seq += 1
            heapq.heappush(queue, (time.monotonic() + delay, seq, other[name], frame))
    now = time.monotonic()
    while queue and queue[0][0] <= now:
        _, _, out, frame = heapq.heappop(queue)
        try:
            out.send(frame)
        except OSError:
            pass  # a frame the link cannot carry is lost, as on a real link
