# SPDX-License-Identifier: Apache-2.0
"""Export a server release's run-config JSON Schema and provider config keys.

Run by hack/serverdata (go run ./hack/serverdata), not by hand:

    python3 export.py SRC PACKAGE SCHEMA_OUT FIELDS_OUT

SRC is the server's source tree (the directory holding PACKAGE, e.g. `ogx` or
`llama_stack`). The schema is the server's own pydantic models: StackConfig's schema
with, under providers.<api>, an if/then per provider type that gives `config` the
schema of that provider's config class (its $defs prefixed <api>__<inline|remote>__<name>__).

The server's source needs Python 3.12 syntax and packages this machine may lack.
Two mechanical changes let Python 3.11 with pydantic import the config models
without changing them: PEP 695 type parameters are rewritten to TypeVar/Generic
while the file is loaded, and a listed top-level package that is not installed (fastapi,
httpx, openai, ...: none is reachable from a config model; STUBBABLE) is replaced by a stub;
the stubbed names go to stderr. A stub that did reach a config model would change
the schema, which the comparison test with the reference copy catches.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
import types

TYPE_ALIAS = re.compile(r"^(\s*)type (\w+)\s*=", re.M)
GENERIC_DEF = re.compile(r"^(\s*)((?:async\s+)?def\s+\w+)\[([^\]]*)\]\(", re.M)
GENERIC_CLASS = re.compile(r"^(\s*)class\s+(\w+)\[([^\]]*)\](?:\(([^)]*)\))?:", re.M)


def type_params(params):
    """Names of PEP 695 parameters: `T, U: Bound` gives T and U."""
    return [p.split(":")[0].strip() for p in params.split(",") if p.strip()]


def typevars(indent, names):
    return "".join(f"{indent}{n} = __import__('typing').TypeVar({n!r})\n" for n in names)


def rewrite_pep695(source):
    """PEP 695 syntax as Python 3.11 reads it, with the same meaning for pydantic."""
    source = TYPE_ALIAS.sub(r"\1\2 =", source)

    def generic_def(m):
        indent, head, params = m.group(1), m.group(2), m.group(3)
        return typevars(indent, type_params(params)) + f"{indent}{head}("

    def generic_class(m):
        indent, name, params, bases = m.groups()
        names = type_params(params)
        generic = "__import__('typing').Generic[" + ", ".join(names) + "]"
        bases = f"{bases}, {generic}" if bases and bases.strip() else generic
        return typevars(indent, names) + f"{indent}class {name}({bases}):"

    source = GENERIC_DEF.sub(generic_def, source)
    return GENERIC_CLASS.sub(generic_class, source)


class Py311Loader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data, path, *, _optimize=-1):
        text = importlib.util.decode_source(data)
        return compile(rewrite_pep695(text), path, "exec", dont_inherit=True, optimize=_optimize)


class StubMeta(type):
    """A class that is every attribute, subscript and call of a missing package."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return stub_class(f"{cls.__name__}.{name}")

    def __getitem__(cls, item):
        return cls

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator
        return cls


def any_value_schema(cls, source, handler):
    from pydantic_core import core_schema

    return core_schema.any_schema()


def stub_class(name):
    # A model that holds a stubbed type (never a config model) still builds: the type is Any.
    return StubMeta(name, (), {"__get_pydantic_core_schema__": classmethod(any_value_schema)})


class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return stub_class(f"{self.__name__}.{name}")


# STUBBABLE are the server's dependencies that no config model uses: web framework, HTTP and
# API clients, logging, SQL toolkit, tokenizer, password hashing. Another missing package is an
# ImportError: add it here only after reading where the server uses it.
STUBBABLE = {"bcrypt", "fastapi", "httpx", "openai", "rich", "sqlalchemy", "starlette", "structlog", "tiktoken"}


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds, after every real finder, a stub for a STUBBABLE package that is not installed."""

    def __init__(self):
        self.stubbed = set()

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".")[0]
        if top not in STUBBABLE:
            return None
        self.stubbed.add(top)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = StubModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def prefix_defs(schema, prefix):
    """The config class's schema with its $defs renamed <prefix>__<Model>, itself <prefix>__Config."""
    defs = schema.pop("$defs", {})
    text = json.dumps(schema)
    for name in defs:
        text = text.replace(f'"#/$defs/{name}"', f'"#/$defs/{prefix}__{name}"')
    renamed = {f"{prefix}__{name}": json.loads(rewrite_refs(json.dumps(d), defs, prefix)) for name, d in defs.items()}
    renamed[f"{prefix}__Config"] = json.loads(text)
    return renamed


def rewrite_refs(text, defs, prefix):
    for name in defs:
        text = text.replace(f'"#/$defs/{name}"', f'"#/$defs/{prefix}__{name}"')
    return text


def import_name(dotted):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def provider_registry(package):
    distribution = importlib.import_module(f"{package}.core.distribution")
    return distribution.get_provider_registry()


def field_type(prop):
    """A property schema as the provider-fields listing writes it."""
    if "$ref" in prop:
        return prop["$ref"].split("/")[-1].split("__")[-1]
    if "anyOf" in prop:
        return " | ".join(field_type(p) for p in prop["anyOf"])
    if "allOf" in prop and len(prop["allOf"]) == 1:
        return field_type(prop["allOf"][0])
    if "enum" in prop:
        return "enum[" + ", ".join(json.dumps(v) for v in prop["enum"]) + "]"
    if "const" in prop:
        return "const " + json.dumps(prop["const"])
    kind = prop.get("type")
    if kind == "array":
        return f"list[{field_type(prop.get('items', {}))}]" if "items" in prop else "list"
    if kind == "object":
        extra = prop.get("additionalProperties")
        if isinstance(extra, dict):
            return f"dict[str,{field_type(extra)}]"
        return "object"
    if kind == "string" and "format" in prop:
        return f"string({prop['format']})"
    if isinstance(kind, str):
        return kind
    return "any"


def field_lines(schema):
    if not schema.get("properties"):
        yield "    "  # a config without keys
        return
    required = set(schema.get("required", []))
    for key, prop in schema.get("properties", {}).items():
        line = f"    {key}{'*' if key in required else ''}: {field_type(prop)}"
        if "default" in prop:
            line += " = " + json.dumps(prop["default"])
        yield line


def main(src, package, schema_out, fields_out):
    src = os.path.abspath(src)

    def source_tree_only(path):
        if os.path.abspath(path) != src and not os.path.abspath(path).startswith(src + os.sep):
            raise ImportError(path)
        return importlib.machinery.FileFinder(path, (Py311Loader, [".py"]))

    sys.path_hooks.insert(0, source_tree_only)
    sys.path.insert(0, src)
    sys.path_importer_cache.clear()
    stubs = StubFinder()
    sys.meta_path.append(stubs)

    datatypes = importlib.import_module(f"{package}.core.datatypes")
    stack_config = getattr(datatypes, "StackConfig", None) or getattr(datatypes, "RunConfig")
    schema = stack_config.model_json_schema()
    registry = provider_registry(package)
    api_names = sorted(api.value for api in registry)

    providers = schema["properties"]["providers"]
    providers["propertyNames"] = {"enum": api_names}
    providers["properties"] = {}
    fields = []
    for api in sorted(registry, key=lambda a: a.value):
        conditions = [{"$ref": "#/$defs/Provider"}]
        types_ = list(registry[api])
        conditions.append(
            {"if": {"not": {"required": ["module"]}}, "then": {"properties": {"provider_type": {"enum": types_}}}}
        )
        for provider_type, spec in sorted(registry[api].items()):
            if not spec.config_class:
                continue
            config_class = import_name(spec.config_class)
            prefix = f"{api.value}__{provider_type.replace('::', '__')}"
            config_schema = config_class.model_json_schema()
            schema["$defs"].update(prefix_defs(dict(config_schema), prefix))
            fields.append(f"- {api.value} / {provider_type} ({config_class.__name__}):")
            fields.extend(field_lines(config_schema))
        for provider_type, spec in registry[api].items():
            if not spec.config_class:
                continue
            prefix = f"{api.value}__{provider_type.replace('::', '__')}"
            conditions.append(
                {
                    "if": {
                        "properties": {"provider_id": {"type": "string"}, "provider_type": {"const": provider_type}},
                        "required": ["provider_type", "provider_id"],
                    },
                    "then": {"properties": {"config": {"$ref": f"#/$defs/{prefix}__Config"}}},
                }
            )
        providers["properties"][api.value] = {"items": {"allOf": conditions}, "type": "array"}

    apis = schema["properties"]["apis"]
    apis["items"] = {"enum": [api.value for api in type(next(iter(registry))).__members__.values()], "type": "string"}
    schema["anyOf"] = [
        {"properties": {"distro_name": {"type": "string"}}, "required": ["distro_name"]},
        {"properties": {"image_name": {"type": "string"}}, "required": ["image_name"]},
    ]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"

    with open(schema_out, "w") as f:
        json.dump(schema, f, indent=2, sort_keys=True)
        f.write("\n")
    with open(fields_out, "w") as f:
        f.write("\n".join(fields) + "\n")
    print("stubbed packages: " + ", ".join(sorted(stubs.stubbed)), file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
