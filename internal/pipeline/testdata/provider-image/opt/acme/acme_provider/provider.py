from types import SimpleNamespace


def get_provider_spec():
    return SimpleNamespace(
        api="inference",
        provider_type="remote::acme",
        module="acme_provider",
        config_class="acme_provider.config.AcmeConfig",
    )
