"""Browses for Wyoming servers as Home Assistant's zeroconf discovery does (the `zeroconf` package), then asks
the first one found to describe itself with the reference client, as Home Assistant's config flow does. Prints
what it found as one JSON document for tests/api/wyoming_mdns.rs. Run inside the network namespace the test
made (its own interfaces only)."""

import asyncio
import json
import socket
import time

from wyoming.client import AsyncTcpClient
from wyoming.info import Describe, Info
from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

SERVICE_TYPE = "_wyoming._tcp.local."


class Found(ServiceListener):
    def __init__(self):
        self.services = {}

    def add_service(self, zc, type_, name):
        info = zc.get_service_info(type_, name, timeout=3000)
        if info is not None:
            self.services[name] = {
                "port": info.port,
                "addresses": sorted(socket.inet_ntoa(a) for a in info.addresses),
                "server": info.server,
            }

    def update_service(self, zc, type_, name):
        self.add_service(zc, type_, name)

    def remove_service(self, zc, type_, name):
        pass


async def describe(host, port):
    async with AsyncTcpClient(host, port) as client:
        await client.write_event(Describe().event())
        info = Info.from_event(await asyncio.wait_for(client.read_event(), 10))
    return [program.name for program in info.asr + info.tts + info.handle]


def main():
    zc = Zeroconf()
    found = Found()
    ServiceBrowser(zc, SERVICE_TYPE, found)
    deadline = time.monotonic() + 15
    while not found.services and time.monotonic() < deadline:
        time.sleep(0.1)
    zc.close()
    report = {"services": found.services}
    for name, service in found.services.items():
        report["described"] = asyncio.run(describe(service["addresses"][0], service["port"]))
        report["name"] = name
        break
    print(json.dumps(report))


main()
