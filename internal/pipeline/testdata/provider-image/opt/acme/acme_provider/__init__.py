from .adapter import get_adapter_impl  # noqa: F401
# A stand-in for an external provider's package, as `pip install --target /opt/acme` leaves it
# in the provider's image. It does what the real ones do, without the server installed.
