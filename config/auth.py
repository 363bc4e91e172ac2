"""Token login for scripts, throttled against password guessing."""

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import ScopedRateThrottle

from core.parsers import StrictFormParser, StrictJSONParser, StrictMultiPartParser


class ThrottledObtainAuthToken(ObtainAuthToken):
    # The project's parsers, not the plain ones ObtainAuthToken names: NUL characters,
    # non-finite numbers and deep nesting are a 400 here too.
    parser_classes = [StrictFormParser, StrictMultiPartParser, StrictJSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
