"""Loads a config's external providers as the llama-stack server does at start-up.

The steps are the server's (core/distribution.py get_external_providers_from_module, then
resolver.py instantiate_provider): import <module>.provider, call get_provider_spec, keep the
spec whose provider_type the config names, build its config class from the provider's config,
and find the factory the server calls (get_adapter_impl for remote::, get_provider_impl for
inline::). Input on stdin: {"providers": {api: [provider, ...]}} as JSON. Prints one line per
provider; exits non-zero on the first failure, with the server's message.
"""
import importlib
import json
import sys


def load(api, provider):
    package = provider["module"].split("==")[0]
    try:
        module = importlib.import_module(package + ".provider")
    except ModuleNotFoundError as exc:
        raise SystemExit(
            "get_provider_spec not found. If specifying an external provider via `module` in the Provider spec, "
            "the Provider must have the `provider.get_provider_spec` module available (%s)" % exc)
    spec = module.get_provider_spec()
    specs = spec if isinstance(spec, list) else [spec]
    matching = [s for s in specs if s.provider_type == provider["provider_type"]]
    if not matching:
        raise SystemExit("Provider `%s` is not available for API `Api.%s`" % (provider["provider_type"], api))
    spec = matching[0]
    config_module, _, config_class = spec.config_class.rpartition(".")
    getattr(importlib.import_module(config_module), config_class)(**provider.get("config", {}))
    factory = "get_adapter_impl" if provider["provider_type"].startswith("remote::") else "get_provider_impl"
    if not hasattr(importlib.import_module(spec.module), factory):
        raise SystemExit("%s has no %s" % (spec.module, factory))
    print("loaded %s %s from %s" % (api, provider["provider_id"], module.__file__))


config = json.load(sys.stdin)
for api, providers in sorted(config["providers"].items()):
    for provider in providers:
        if provider.get("module"):
            load(api, provider)
