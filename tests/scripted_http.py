"""A stub `requests` adapter for the unit tests of the HTTP layer: it answers from a script,
so that retries, waits and error bodies are tested without a server."""

from __future__ import annotations

import requests
from requests.adapters import BaseAdapter

REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests", 503: "Service Unavailable"}


class Scripted(BaseAdapter):
    """Answers requests from a list of (status, body[, headers]) or exceptions, in order; keeps
    each request sent and the timeout it was sent with."""

    def __init__(self, answers: list):
        super().__init__()
        self.answers = list(answers)
        self.sent: list[requests.PreparedRequest] = []
        self.timeouts: list = []

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        self.sent.append(request)
        self.timeouts.append(timeout)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        status, content, headers = (*answer, {})[:3]
        response = requests.Response()
        response.status_code, response._content, response.url, response.request = status, content, request.url, request
        response.headers.update(headers)
        response.reason = REASONS.get(status, "")
        return response

    def close(self):
        pass
