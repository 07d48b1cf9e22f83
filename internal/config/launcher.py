"""llsd start-up launcher.

The llama-stack server reads Postgres as separate host/port/db/user/password fields and
has no redis password field, while users keep one connection string (or password) in a
Secret. This script runs in the server container before the server: it splits the secrets
into the variables the generated config.yaml reads, then replaces itself with the server
command given as its arguments. It never prints a secret value.

  LLSD_STORAGE_SQL_CONNECTION_STRING  postgresql://user:pass@host:5432/db?sslmode=require
                                      or host=... port=... dbname=... user=... password=...
      -> LLSD_STORAGE_SQL_{HOST,PORT,DB,USER,PASSWORD} for the server's SQLAlchemy URL,
         LLSD_STORAGE_PG_{HOST,PORT,DB,USER,PASSWORD} unescaped for its psycopg2 key-value
         backend, PGSSLMODE, PGSSLROOTCERT
  LLSD_STORAGE_KV_ENDPOINT + LLSD_STORAGE_KV_PASSWORD
      -> LLSD_STORAGE_KV_HOST=":<password>@<host>" (the server connects to redis://{host}:{port})
"""

import os
import re
import sys
import urllib.parse

SQL = "LLSD_STORAGE_SQL_"
PG = "LLSD_STORAGE_PG_"
KV = "LLSD_STORAGE_KV_"


def fail(message):
    print("llsd-launcher: " + message, file=sys.stderr)
    sys.exit(78)  # EX_CONFIG


def parse_url(dsn):
    # urlsplit ends the host part at the first / ? or #, so one of them unencoded in the
    # user or password cuts it there, and its error message quotes the cut piece (a slice of
    # the password): check first, and never print an exception of the parser.
    authority = dsn.split("://", 1)[1]
    userinfo = authority.rsplit("@", 1)[0] if "@" in authority else ""
    if any(c in userinfo for c in "/?#"):
        fail("the user or password in the connection string contains / ? or #, which end a URL's host part: "
             "percent-encode them (%2F, %3F, %23)")
    try:
        u = urllib.parse.urlsplit(dsn)
        port = u.port
    except ValueError:
        fail("the connection string is not a valid postgresql:// URL: check its host and port")
    # An unencoded & or = in a query value (password=a&b) would split it, and the server would
    # start with a cut password: a part without = can only be such a piece.
    if any(part and "=" not in part for part in u.query.split("&")):
        fail("a query parameter of the connection string has no '=': percent-encode & and = inside "
             "values (%26, %3D)")
    fields = {k: v[-1] for k, v in urllib.parse.parse_qs(u.query, keep_blank_values=True).items()}
    if u.hostname:
        fields["host"] = u.hostname
    if port:
        fields["port"] = str(port)
    if u.username is not None:
        fields["user"] = urllib.parse.unquote(u.username)
    if u.password is not None:
        fields["password"] = urllib.parse.unquote(u.password)
    if u.path.strip("/"):
        fields["dbname"] = urllib.parse.unquote(u.path.lstrip("/"))
    return fields


# libpq's connection parameters (PostgreSQL 17, "Parameter Key Words").
LIBPQ_PARAMETERS = frozenset("""
    host hostaddr port dbname user password passfile require_auth channel_binding connect_timeout
    client_encoding options application_name fallback_application_name keepalives keepalives_idle
    keepalives_interval keepalives_count tcp_user_timeout replication gssencmode sslmode requiressl
    sslnegotiation sslcompression sslcert sslkey sslkeylogfile sslpassword sslcertmode sslrootcert sslcrl
    sslcrldir sslsni requirepeer ssl_min_protocol_version ssl_max_protocol_version krbsrvname gsslib
    gssdelegation service target_session_attrs load_balance_hosts
""".split())

KEYWORD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*")


def parse_keywords(dsn):
    """libpq's key=value form: values may be single-quoted; backslash escapes ' and \\."""
    fields, pos = {}, 0
    while dsn[pos:].strip():
        m = KEYWORD.match(dsn, pos)
        if not m:
            fail("the connection string is neither a postgresql:// URL nor key=value pairs "
                 "(near character %d)" % pos)
        key, pos, value = m.group(1), m.end(), []
        quoted = pos < len(dsn) and dsn[pos] == "'"
        if quoted:
            pos += 1
        while pos < len(dsn):
            c = dsn[pos]
            if c == "\\" and pos + 1 < len(dsn):
                value.append(dsn[pos + 1])
                pos += 2
                continue
            if (quoted and c == "'") or (not quoted and c.isspace()):
                break
            value.append(c)
            pos += 1
        if quoted:
            if pos >= len(dsn):
                fail("unterminated quote in the value of %s" % key)
            pos += 1
        fields[key] = "".join(value)
    return fields


def not_text(value):
    """Python decodes the environment as UTF-8 and keeps other bytes as surrogates, which no
    URL quoting or server can use."""
    return any("\udc80" <= c <= "\udcff" for c in value)


def parse_dsn(dsn):
    dsn = dsn.strip()
    if not_text(dsn):
        fail("the connection string contains bytes that are not UTF-8 text: check the Secret's value")
    if any(ord(c) < 32 or ord(c) == 127 for c in dsn):
        # urlsplit would silently drop tabs and newlines, changing the password
        fail("the connection string contains a control character (a tab or a newline?): remove it, or "
             "percent-encode it in a URL (%09, %0A)")
    if dsn.startswith(("postgresql://", "postgres://")):
        return parse_url(dsn)
    return parse_keywords(dsn)


def converted_by_server(value):
    """The server turns an env-substituted value that looks like a number or a boolean
    into one, and then rejects it for a string field."""
    if value.strip().lower() in ("true", "false"):
        return True
    try:
        float(value)
        return True
    except ValueError:
        return False


def split_postgres(env):
    dsn = env.pop(SQL + "CONNECTION_STRING", "")
    if not dsn:
        fail(SQL + "CONNECTION_STRING is empty: check the Secret key named by spec.storage.sql.connectionString")
    fields = parse_dsn(dsn)
    host = fields.pop("host", "")
    if not host or "," in host or host.startswith("/"):
        fail("the connection string needs exactly one TCP host (the server cannot use several hosts or a socket)")
    port = fields.pop("port", "5432")
    if not port.isdigit():
        fail("the port in the connection string is not a number")
    user = fields.pop("user", "")
    password = fields.pop("password", "")
    if not user or not password:
        fail("the connection string needs a user and a password (the server would send the literal password None)")
    for name, value in (("user", user), ("password", password)):
        if converted_by_server(value):
            fail("the %s in the connection string looks like a number or a boolean; llama-stack converts it "
                 "and then rejects it: use one with a letter in it" % name)
    db = fields.pop("dbname", "") or user
    sslmode = fields.pop("sslmode", "")
    if sslmode:
        env["PGSSLMODE"] = sslmode
    sslrootcert = fields.pop("sslrootcert", "")
    if sslrootcert:
        env["PGSSLROOTCERT"] = sslrootcert
    # Only libpq's own parameter names are printed: any other "name" may be a piece of a value
    # (a password with an unquoted space in the key=value form).
    known = sorted(k for k in fields if k in LIBPQ_PARAMETERS)
    for key in known:
        print("llsd-launcher: ignoring connection parameter %s: the server cannot pass it on" % key, file=sys.stderr)
    if len(fields) > len(known):
        fail("the connection string has %d parameters that are not libpq's: check its quoting (quote values with "
             "spaces in the key=value form, percent-encode & and = in a URL)" % (len(fields) - len(known)))
    # The server builds postgresql+asyncpg://{user}:{password}@{host}:{port}/{db} without
    # escaping and SQLAlchemy unescapes user and password: escape them once here.
    env[SQL + "HOST"] = "[%s]" % host if ":" in host else host
    env[SQL + "PORT"] = port
    env[SQL + "DB"] = db
    env[SQL + "USER"] = urllib.parse.quote(user, safe="")
    env[SQL + "PASSWORD"] = urllib.parse.quote(password, safe="")
    # kv_postgres passes the fields to psycopg2.connect as they are.
    env[PG + "HOST"], env[PG + "PORT"], env[PG + "DB"] = host, port, db
    env[PG + "USER"], env[PG + "PASSWORD"] = user, password


def add_redis_password(env):
    endpoint = env.pop(KV + "ENDPOINT", "")
    password = env.pop(KV + "PASSWORD", "")
    if not endpoint or not password:
        fail(KV + "PASSWORD is empty: check the Secret key named by spec.storage.kv.password")
    if not_text(password):
        fail(KV + "PASSWORD contains bytes that are not UTF-8 text: check the Secret's value")
    env[KV + "HOST"] = ":%s@%s" % (urllib.parse.quote(password, safe=""), endpoint)


def main(argv):
    if len(argv) < 2 or argv[1] != "--" or len(argv) < 3:
        fail("usage: launcher.py -- COMMAND [ARG...]")
    env = dict(os.environ)
    if SQL + "CONNECTION_STRING" in env:
        split_postgres(env)
    if KV + "PASSWORD" in env:
        add_redis_password(env)
    command = argv[2:]
    try:
        os.execvpe(command[0], command, env)
    except OSError as e:
        fail("cannot start %s: %s" % (command[0], e.strerror))


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Exception as e:  # a traceback could quote a secret
        fail("unexpected %s: the server was not started" % type(e).__name__)
