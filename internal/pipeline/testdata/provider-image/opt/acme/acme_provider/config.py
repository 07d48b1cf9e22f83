class AcmeConfig:
    def __init__(self, base_url, api_key=None):
        if not base_url.startswith("http"):
            raise ValueError("base_url must be a URL")
        self.base_url = base_url
        self.api_key = api_key
