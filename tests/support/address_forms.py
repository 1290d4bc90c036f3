"""Addresses a stranger may type into a webhook URL or a push endpoint, each with whether the
server may send there (``server.notify.addresses.is_public``): every IPv6 form that carries an
IPv4 address, in several spellings, around each IPv4 range that must stay unreachable, and the
IPv6 ranges that are not global. The notify tests judge each form by the check itself, and the
security suite sends each through the routes (as a literal and as a name resolving to it)."""

from __future__ import annotations

from typing import NamedTuple


class Form(NamedTuple):
    address: str
    public: bool
    kind: str


def _forms(kind: str, public: bool, *addresses: str) -> list[Form]:
    return [Form(address, public, kind) for address in addresses]


# Teredo: 2001:0:<server>:<flags>:<port>:<client, every bit inverted>
TEREDO_SERVER = "4136:e378"  # 65.54.227.120, a public Teredo server
FORMS: list[Form] = [
    *_forms("ipv4 public", True, "93.184.215.14", "8.8.8.8", "1.1.1.1", "11.0.0.1"),
    *_forms("ipv4 next to a private range", True, "172.15.255.254", "172.32.0.1",
            "100.63.255.254", "100.128.0.1", "169.253.255.254", "192.167.255.254"),
    *_forms("ipv4 this network", False, "0.0.0.0", "0.1.2.3"),
    *_forms("ipv4 private", False, "10.0.0.1", "10.255.255.254", "172.16.0.1",
            "172.31.255.254", "192.168.0.1", "192.168.255.254"),
    *_forms("ipv4 shared (CGN)", False, "100.64.0.1", "100.127.255.254"),
    *_forms("ipv4 loopback", False, "127.0.0.1", "127.0.1.1", "127.255.255.254"),
    *_forms("ipv4 link-local", False, "169.254.169.254", "169.254.0.1"),
    *_forms("ipv4 special", False, "192.0.0.8", "192.0.2.1", "192.88.99.1", "198.18.0.1",
            "198.19.255.254", "198.51.100.7", "203.0.113.9"),
    *_forms("ipv4 multicast/reserved", False, "224.0.0.1", "239.255.255.250", "240.0.0.1",
            "255.255.255.255"),
    *_forms("ipv6 public", True, "2606:4700:4700::1111", "2001:4860:4860::8888",
            "2a00:1450:4001:830::200e", "2620:fe::fe"),
    *_forms("ipv6 loopback/unspecified", False, "::1", "::", "0:0:0:0:0:0:0:1"),
    *_forms("ipv6 link-local", False, "fe80::1", "fe80::a9fe:a9fe", "febf::1", "fe80::1%eth0"),
    *_forms("ipv6 site-local", False, "fec0::1", "feff::1"),
    *_forms("ipv6 unique-local", False, "fc00::1", "fd00::1", "fd12:3456:789a::1"),
    *_forms("ipv6 multicast", False, "ff02::1", "ff05::2", "ff0e::1"),
    *_forms("ipv6 documentation", False, "2001:db8::1", "2001:db8:ffff::1", "3fff::1",
            "3fff:fff::1"),
    *_forms("ipv6 discard/dummy", False, "100::1", "100::ffff", "100:0:0:1::1"),
    *_forms("ipv6 other special", False, "2001:2::1", "2001:10::1", "5f00::1", "4000::1",
            "1::1"),
    *_forms("ipv6 public with a zone", False, "2606:4700:4700::1111%eth0"),
    *_forms("ipv4-mapped", False, "::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:7F00:0001",
            "0:0:0:0:0:ffff:7f00:1", "0000:0000:0000:0000:0000:ffff:127.0.0.1",
            "::ffff:10.0.0.1", "::ffff:a00:1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe",
            "::ffff:c0a8:1", "::ffff:0.0.0.0", "::ffff:100.64.0.1"),
    *_forms("ipv4-mapped public", True, "::ffff:8.8.8.8", "::ffff:808:808"),
    *_forms("ipv4-translated", False, "::ffff:0:7f00:1", "::ffff:0:127.0.0.1",
            "::ffff:0:a9fe:a9fe", "::ffff:0:a00:1"),
    *_forms("ipv4-translated public", True, "::ffff:0:808:808"),
    *_forms("ipv4-compatible", False, "::127.0.0.1", "::7f00:1", "::10.1.2.3",
            "::169.254.169.254", "::a9fe:a9fe", "::192.168.1.1", "::0.0.0.2", "::c0a8:101"),
    *_forms("ipv4-compatible public", True, "::8.8.8.8"),
    *_forms("nat64 well-known", False, "64:ff9b::127.0.0.1", "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe", "64:ff9b::169.254.169.254", "64:ff9b::10.0.0.1",
            "64:ff9b::c0a8:101", "64:ff9b::0:0", "64:ff9b:0:0:0:0:6440:1"),
    *_forms("nat64 well-known public", True, "64:ff9b::808:808", "64:ff9b::8.8.8.8"),
    *_forms("nat64 local-use", False, "64:ff9b:1::a9fe:a9fe", "64:ff9b:1::808:808",
            "64:ff9b:1:a9fe:a9fe::", "64:ff9b:1:ffff::1"),
    *_forms("6to4", False, "2002:7f00:1::", "2002:7f00:0001::1", "2002:a9fe:a9fe::1",
            "2002:a00:1::1", "2002:c0a8:101::1", "2002::1", "2002:6440:1::1"),
    *_forms("6to4 public", True, "2002:808:808::1", "2002:5db8:d70e::1"),
    *_forms("teredo", False,
            f"2001:0:{TEREDO_SERVER}:8000:63bf:80ff:fffe",  # client 127.0.0.1
            f"2001:0:{TEREDO_SERVER}:8000:63bf:f5ff:fffe",  # client 10.0.0.1
            f"2001:0:{TEREDO_SERVER}:0:0:5601:5601",  # client 169.254.169.254
            f"2001:0:{TEREDO_SERVER}:0:0:3f57:fefe",  # client 192.168.1.1
            "2001:0:a00:1:0:0:f7f7:f7f7",  # server 10.0.0.1, client 8.8.8.8
            "2001::1"),  # server 0.0.0.0
    *_forms("teredo public", True, f"2001:0:{TEREDO_SERVER}:0:0:f7f7:f7f7"),  # client 8.8.8.8
    *_forms("no address", False, "localhost", "127.1", "0x7f000001", "2130706433",
            "::ffff:127.1", "1.2.3.4.5", "[::1]", ""),
]  # fmt: skip
