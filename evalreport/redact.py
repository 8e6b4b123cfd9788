"""What the report publishes of the spec: its text with credentials redacted.

The spec is copied verbatim into the HTML (provenance) and attached to the PDF,
comments and layout included, so a secret written in it (``spark.conf``'s
``fs.s3a.secret.key``, a token in ``spark.remote``) would be published with the
report. :func:`redact_spec_text` works on the YAML text itself: it replaces only
the characters of each secret, so everything else (comments, order, quoting,
blank lines) reads as written.

What counts as a credential:

* the value of a key whose name looks like one (:func:`looks_like_credential`),
  and every value nested under such a key;
* the password of a URL (``sc://user:pass@host``) and the value of a URL or
  connection-string parameter whose name looks like one (``?token=...``,
  ``;password=...``, ``&sig=...``), in any value;
* the same in comments: a commented-out ``key: value`` line whose key looks
  like a credential, and URL passwords and parameters.
"""

from __future__ import annotations

import re

import yaml

__all__ = ["REDACTED", "looks_like_credential", "redact_spec_text", "redact_url_credentials",
           "published_spec_text", "redaction_note"]

REDACTED = "<redacted>"

#: word parts of a key name that mark its value as a credential
_WORDS = frozenset({
    "secret", "secrets", "password", "passwords", "passwd", "pwd", "passphrase",
    "token", "key", "credential", "credentials", "auth", "authorization",
})
#: the same written as one word (``apikey``, ``AWS_SECRETACCESSKEY`` is split on ``_``)
_COMPOUNDS = re.compile(
    r"(api|access|secret|private|account|master|client|session|signing|encryption|sas)"
    r"(key|token|secret)|(access|auth|bearer|refresh|session|id)token|clientsecret")
#: URL parameters only: signatures of pre-signed URLs (Azure SAS ``sig``, S3 ``X-Amz-Signature``)
_URL_WORDS = _WORDS | {"sig", "signature"}


def _word_parts(name: str) -> list[str]:
    """``fs.s3a.secret.key`` -> fs, s3a, secret, key; ``apiKey`` -> api, key;
    ``AWS_SECRET_ACCESS_KEY`` -> aws, secret, access, key."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)  # camelCase
    return [p for p in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if p]


def looks_like_credential(name: str, *, words=_WORDS) -> bool:
    """Whether a key named ``name`` probably holds a credential.

    A word part of the name (split on anything not a letter or digit, and at
    camelCase humps) must *be* one of secret(s), password(s), passwd, pwd,
    passphrase, token, key, credential(s), auth, authorization, or a known
    compound such as apikey or accesstoken. Whole words only: ``monkey``,
    ``keys``, ``keyword``, ``author``, ``max_tokens`` are ordinary names.
    """
    return any(p in words or _COMPOUNDS.fullmatch(p) for p in _word_parts(str(name)))


# scheme://user:password@host -> the password. The scheme and the parameter names
# are bounded in length: unbounded, a long run of letters without '://' or '='
# (a 1 MB title) made the search quadratic.
_URL_PASSWORD = re.compile(
    r"(?P<head>(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s:/@?#'\"]*:)"
    r"(?P<secret>[^\s/@?#'\"]+)(?=@)")
# ?name=value, &name=value, ;name=value -> the value when the name looks like a credential
_PARAMETER = re.compile(r"(?P<head>[?&;](?P<name>[A-Za-z0-9_.\-]{1,128})=)(?P<secret>[^&;#\s'\"]+)")


def redact_url_credentials(text: str) -> tuple[str, bool]:
    """``text`` with URL passwords and credential-like parameter values redacted;
    also whether anything was."""
    found = False

    def password(m):
        nonlocal found
        found = True
        return m.group("head") + REDACTED

    def parameter(m):
        nonlocal found
        if not looks_like_credential(m.group("name"), words=_URL_WORDS):
            return m.group(0)
        found = True
        return m.group("head") + REDACTED

    text = _URL_PASSWORD.sub(password, text)
    text = _PARAMETER.sub(parameter, text)
    return text, found


def _path_text(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


# a commented-out YAML line: "# key: value" (also "# - key: value")
_COMMENTED_PAIR = re.compile(
    r"^(?P<head>#\s*(?:-\s+)?(?P<key>[^\s:#'\"{}\[\],]+)\s*:\s+)"
    r"(?P<secret>\"[^\"]*\"|'[^']*'|[^\s#,}]+)")


def redact_spec_text(text: str) -> tuple[str, list[str]]:
    """The spec's YAML text with the values of credentials replaced by ``<redacted>``.

    Returns the text and where something was redacted, in order of appearance:
    the key path of each credential key (``spark.conf.fs.s3a.secret.key``),
    ``<key path> (URL credentials)`` for a URL's password or parameter, and
    ``comment on line N`` for comments. Only the characters of each secret are
    replaced (a quoted value by the plain ``<redacted>``; a multi-line or block
    value by ``<redacted>`` on one line), so the text stays valid YAML that
    loads to the same structure, and every other character is unchanged.
    Text that is not valid YAML is returned with only URL credentials and
    commented-out pairs redacted.
    """
    if not text:
        return text, []
    edits: dict[int, tuple[int, str]] = {}  # start -> (end, replacement)
    where: list[tuple[int, str]] = []  # (position, description)
    try:
        tokens = list(yaml.scan(text, Loader=yaml.SafeLoader))
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        tokens, root = [], None
        text, found = redact_url_credentials(text)  # no structure to follow: URLs anywhere
        if found:
            where.append((-1, "URL credentials"))
    scalars = {t.end_mark.index: t for t in tokens if isinstance(t, yaml.ScalarToken)}

    def span(node) -> tuple[int, int] | None:
        token = scalars.get(node.end_mark.index)
        if token is None or token.end_mark.index == token.start_mark.index:
            return None  # an empty value: nothing to redact
        return token.start_mark.index, token.end_mark.index

    def redact_all(node, seen) -> bool:
        """Every scalar under ``node``; whether there was one."""
        if id(node) in seen:
            return False
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            s = span(node)
            if s is None:
                return False
            # a block or multi-line value keeps its final line break
            tail = re.search(r"\s*$", text[s[0]:s[1]]).group(0)
            edits[s[0]] = (s[1], REDACTED + tail)
            return True
        # the values only: the keys of a mapping under a credential are names
        children = node.value if isinstance(node, yaml.SequenceNode) else \
            [v for _, v in node.value] if isinstance(node, yaml.MappingNode) else []
        found = False
        for child in children:
            found = redact_all(child, seen) or found
        return found

    def walk(node, path, seen):
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else str(key.value)
                if looks_like_credential(name):
                    if redact_all(value, set()):
                        where.append((key.start_mark.index, _path_text(path + (name,))))
                else:
                    walk(value, path + (name,), seen)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, path + (i,), seen)
        elif isinstance(node, yaml.ScalarNode):
            s = span(node)
            if s is None or s[0] in edits:
                return
            new, found = redact_url_credentials(text[s[0]:s[1]])
            if found:
                edits[s[0]] = (s[1], new)
                where.append((s[0], f"{_path_text(path) or '(top level)'} (URL credentials)"))

    if root is not None:
        walk(root, (), set())
    # comments: a '#' at a line start or after a blank, outside every scalar
    inside = sorted((t.start_mark.index, t.end_mark.index) for t in scalars.values())
    for m in re.finditer(r"(?:(?<=\s)|^)#[^\n]*", text, flags=re.M):
        start = m.start()
        if any(a <= start < b for a, b in inside):
            continue
        comment = m.group(0)
        new = comment
        pair = _COMMENTED_PAIR.match(new)
        if pair and looks_like_credential(pair.group("key")):
            new = pair.group("head") + REDACTED + new[pair.end():]
        new, _ = redact_url_credentials(new)
        if new != comment:
            edits[start] = (m.end(), new)
            where.append((start, f"comment on line {text.count(chr(10), 0, start) + 1}"))
    out, last = [], 0
    for start in sorted(edits):
        end, replacement = edits[start]
        if start < last:
            continue  # inside a value already redacted as a whole
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    return "".join(out), [w for _, w in sorted(where)]


def published_spec_text(spec) -> str:
    """The spec's text as the report publishes it (HTML provenance, PDF attachment):
    credentials redacted ('' for a spec built in Python)."""
    from .spec import spec_text

    return redact_spec_text(spec_text(spec))[0]


def redaction_note(redacted: list[str]) -> str:
    """The report's sentence about what was redacted ('' when nothing was)."""
    if not redacted:
        return ""
    if len(redacted) == 1:
        return f"1 value that looks like a credential is redacted: {redacted[0]}."
    return f"{len(redacted)} values that look like credentials are redacted: {', '.join(redacted)}."
