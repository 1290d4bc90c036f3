"""The one address check that webhooks and Web Push endpoints share, judged against a table of
address forms (tests/support/address_forms.py) on every path that uses it: the check itself,
a webhook's host resolved when set and when sent, a push endpoint's host resolved when
subscribed, and the push connection's own resolver and literal check when sent."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from server.notify import push, push_resolver, subscriptions
from server.notify.addresses import Guard, is_public
from server.notify.push import PushSender
from server.notify.push_resolver import GuardedResolver, RefusedAddress
from server.notify.vapid import VapidKeys
from server.settings import Settings
from server.tables import ServiceError
from tests.support.address_forms import FORMS, Form

BY_FORM = pytest.mark.parametrize("form", FORMS, ids=[f"{f.kind}:{f.address}" for f in FORMS])
ADDRESSES = [f for f in FORMS if f.kind != "no address"]
BY_ADDRESS = pytest.mark.parametrize(
    "form", ADDRESSES, ids=[f"{f.kind}:{f.address}" for f in ADDRESSES]
)


def answering(*addresses: str) -> Any:
    """A resolver that answers every name with ``addresses``."""

    async def resolve(_host: str, _port: int) -> list[str]:
        return list(addresses)

    return resolve


def test_the_table_holds_every_kind_of_form() -> None:
    kinds = {f.kind for f in FORMS}
    assert len(FORMS) >= 120 and len(kinds) >= 30
    assert {"nat64 local-use", "6to4", "teredo", "ipv4-translated", "ipv4-compatible"} <= kinds


@BY_FORM
def test_each_form_is_judged_by_the_ipv4_address_it_carries(form: Form) -> None:
    assert is_public(form.address) is form.public


@BY_ADDRESS
async def test_a_webhook_host_resolving_to_the_form_is_refused_unless_public(form: Form) -> None:
    guard = Guard(allow_private=False, resolve=answering("93.184.215.14", form.address))
    if form.public:
        assert await guard.check("https://chat.example/hook") == "https://chat.example/hook"
    else:
        with pytest.raises(ServiceError) as refused:
            await guard.check("https://chat.example/hook")
        assert refused.value.code == "private_webhook"


@BY_ADDRESS
async def test_a_push_host_resolving_to_the_form_is_refused_unless_public(form: Form) -> None:
    check = subscriptions.check_host("push.example", False, answering(form.address))
    if form.public:
        await check
    else:
        with pytest.raises(ServiceError) as refused:
            await check
        assert refused.value.code == "private_endpoint"


class Inner:
    """aiohttp's resolver answering every name with one address."""

    def __init__(self, address: str) -> None:
        self.address = address

    async def resolve(self, host: str, port: int = 0, family: Any = socket.AF_INET) -> list[Any]:
        return [{"hostname": host, "host": self.address, "port": port, "family": family,
                 "proto": 0, "flags": 0}]  # fmt: skip

    async def close(self) -> None:
        return None


@BY_ADDRESS
async def test_the_push_connection_refuses_a_name_resolving_to_the_form(form: Form) -> None:
    resolver = GuardedResolver()
    resolver._inner = Inner(form.address)  # type: ignore[assignment]
    if form.public:
        assert (await resolver.resolve("push.example", 443))[0]["host"] == form.address
    else:
        with pytest.raises(RefusedAddress):
            await resolver.resolve("push.example", 443)


@BY_ADDRESS
def test_a_push_to_the_form_as_a_literal_is_refused_unless_public(form: Form) -> None:
    sender = PushSender(VapidKeys.generate(), Settings(secret_key="k", push_hosts="*"))
    host = f"[{form.address.replace('%', '%25')}]" if ":" in form.address else form.address
    why = sender.refusal(f"https://{host}/push/1")
    assert (why is None) is form.public, why


def test_webhooks_and_push_endpoints_use_the_same_check() -> None:
    # Each module holds the very function (read from the module, not re-exported by it).
    held = [vars(module)["is_public"] for module in (push, push_resolver, subscriptions)]
    assert all(found is is_public for found in held)


async def test_a_resolver_answering_no_address_text_is_refused_not_an_error() -> None:
    with pytest.raises(ServiceError) as refused:
        await Guard(allow_private=False, resolve=answering("not-an-ip")).check(
            "https://example.test/hook"
        )
    assert refused.value.code == "private_webhook"
