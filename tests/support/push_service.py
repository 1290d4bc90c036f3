"""A Web Push service on 127.0.0.1 for tests, and devices that subscribe to it as browsers do.

``Device`` makes what ``PushManager.subscribe`` gives a page: a P-256 key pair, a 16-byte
auth secret and an endpoint on the service. ``PushService`` takes pushes as a real push
service would and checks each request against the RFCs, independently of the code under
test (its own JWT check with ``cryptography``, its own decryption with ``http_ece``):

- RFC 8292: ``Authorization: vapid t=<JWT>, k=<key>``; the JWT's header says ES256, its
  signature verifies with ``k`` (which must be the key the device subscribed with), ``aud``
  is the origin of the device's endpoint, ``exp`` is in the future and at most 24 hours
  away, ``sub`` is a ``mailto:`` or ``https:`` URI;
- RFC 8030: ``TTL`` a non-negative integer, ``Topic`` at most 32 URL-safe base64 characters,
  ``Urgency`` one of very-low, low, normal, high;
- RFC 8291/8188: ``Content-Encoding: aes128gcm``, and the body decrypts with the device's
  private key and auth secret.

Every push is recorded as a ``Received`` with what was wrong with it (``problems``, empty
when all is well) and the decrypted payload. A device's answer can be set (201 by default;
410 for a device that is gone, 429 or 500 for a busy service, or a redirect).
"""

from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
URGENCIES = ("very-low", "low", "normal", "high")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's push subscription: its keys stay here, the service knows the endpoint."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    answer: int = 201  # the status the service gives pushes to this device
    headers: dict[str, str] = field(default_factory=dict)  # extra answer headers

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


@dataclass
class Received:
    """One push as the service took it."""

    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any] | None
    problems: list[str]


class PushService:
    """The push service, serving on 127.0.0.1 in a thread while in its ``with`` block.

    ``vapid_key``: the applicationServerKey devices subscribed with (base64url); a push
    signed with another key is refused with 403 (as Chrome's service does) and recorded
    with that problem.
    """

    # The hosts its devices' endpoints name: a server sending to it allows them with
    # GUILDHALL_PUSH_HOSTS, as a self-hoster would a push service of their own.
    HOSTS = "127.0.0.1,localhost"

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self.vapid_key: str | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((host, 0), self._handler())
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def device(self, name: str | None = None, origin: str | None = None) -> Device:
        """A new device with an endpoint on this service (``origin`` to name the host
        differently, e.g. ``localhost``)."""
        path = f"/push/{name or b64url(os.urandom(12))}"
        device = Device(endpoint=(origin or self.origin) + path)
        self.devices[path] = device
        return device

    def pushes_to(self, device: Device) -> list[Received]:
        path = device.endpoint.split("/", 3)[3]
        with self._lock:
            return [r for r in self.received if r.path == "/" + path]

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    # ---------------------------------------------------------------- checking a push

    def check(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Received]:
        problems: list[str] = []
        device = self.devices.get(path)
        # The audience is the origin the device's endpoint names (127.0.0.1 or localhost).
        audience = device.endpoint.rsplit("/push/", 1)[0] if device else self.origin
        claims = self._check_vapid(headers.get("authorization", ""), audience, problems)
        ttl = headers.get("ttl", "")
        if not ttl.isdigit():
            problems.append(f"TTL {ttl!r} is not a non-negative integer")
        topic = headers.get("topic")
        if topic is not None and not TOPIC.fullmatch(topic):
            problems.append(f"Topic {topic!r} is not 1-32 URL-safe base64 characters")
        if headers.get("urgency", "normal") not in URGENCIES:
            problems.append(f"Urgency {headers.get('urgency')!r} is not one of {URGENCIES}")
        if headers.get("content-encoding") != "aes128gcm":
            problems.append(f"Content-Encoding {headers.get('content-encoding')!r}")
        payload = None
        if device is None:
            problems.append("no such subscription")
        else:
            payload = self._decrypt(device, body, problems)
        status = 201
        if device is not None:
            status = device.answer
        if device is None:
            status = 404
        elif any(p.startswith("VAPID key") for p in problems):
            status = 403
        return status, Received(path, headers, claims, payload, problems)

    def _check_vapid(
        self, authorization: str, audience: str, problems: list[str]
    ) -> dict[str, Any]:
        match = re.fullmatch(r"vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)", authorization)
        if match is None:
            problems.append(f"Authorization is not 'vapid t=…, k=…': {authorization[:40]!r}")
            return {}
        token, key = match.groups()
        if self.vapid_key is not None and key != self.vapid_key:
            problems.append("VAPID key is not the one the device subscribed with")
        try:
            head, body, signature = token.split(".")
            header = json.loads(unb64url(head))
            claims: dict[str, Any] = json.loads(unb64url(body))
            raw = unb64url(signature)
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            der = encode_dss_signature(
                int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
            )
            public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except (ValueError, InvalidSignature) as exc:
            problems.append(f"VAPID JWT does not verify: {type(exc).__name__}")
            return {}
        if header.get("alg") != "ES256":
            problems.append(f"JWT alg {header.get('alg')!r}")
        if claims.get("aud") != audience:
            problems.append(f"aud {claims.get('aud')!r} is not {audience!r}")
        exp = claims.get("exp")
        now = time.time()
        if not isinstance(exp, int) or not now < exp <= now + 24 * 3600:
            problems.append(f"exp {exp!r} is not within the next 24 hours")
        sub = str(claims.get("sub", ""))
        if not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://\S+", sub):
            problems.append(f"sub {sub!r} is not a mailto: or https: URI")
        return claims

    @staticmethod
    def _decrypt(device: Device, body: bytes, problems: list[str]) -> dict[str, Any] | None:
        try:
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
            found: dict[str, Any] = json.loads(plain)
        except Exception as exc:
            problems.append(f"the body does not decrypt: {type(exc).__name__}: {exc}")
            return None
        return found

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, received = service.check(self.path, headers, body)
                with service._lock:
                    service.received.append(received)
                device = service.devices.get(self.path)
                self.send_response(status)
                for name, value in (device.headers if device else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass  # quiet

        return Handler
