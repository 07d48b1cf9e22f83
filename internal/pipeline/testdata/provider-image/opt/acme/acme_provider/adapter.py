async def get_adapter_impl(config, deps):
    return object()
