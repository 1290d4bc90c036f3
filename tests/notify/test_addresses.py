"""The one address check that webhooks and Web Push endpoints share."""

from __future__ import annotations

import pytest

from server.notify import push, push_resolver, subscriptions
from server.notify.addresses import Guard, is_public
from server.tables import ServiceError


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700:4700::1111", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("169.254.169.254", False),  # cloud metadata
        ("100.64.0.1", False),  # shared address space
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("::1", False),
        ("fe80::1%eth0", False),
        ("::ffff:192.168.0.1", False),  # an IPv4 address written as IPv6 is judged as IPv4
        ("not an address", False),
        ("", False),
    ],
)
def test_only_global_unicast_addresses_are_public(address: str, public: bool) -> None:
    assert is_public(address) is public


def test_webhooks_and_push_endpoints_use_the_same_check() -> None:
    assert push.is_public is push_resolver.is_public is subscriptions.is_public is is_public


async def test_a_resolver_answering_no_address_text_is_refused_not_an_error() -> None:
    async def odd(_host: str, _port: int) -> list[str]:
        return ["not-an-ip"]

    with pytest.raises(ServiceError) as refused:
        await Guard(allow_private=False, resolve=odd).check("https://example.test/hook")
    assert refused.value.code == "private_webhook"
