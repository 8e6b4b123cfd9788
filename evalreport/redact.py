"""What the report publishes of the spec: its texts with credentials redacted.

The spec is copied verbatim into the HTML (provenance) and attached to the PDF,
comments and layout included, so a secret written in it (``spark.conf``'s
``fs.s3a.secret.key``, a token in ``spark.remote``) would be published with the
report. :func:`redact_spec_text` works on the YAML text itself: it replaces only
the characters of each secret, so everything else (comments, order, quoting,
blank lines) reads as written. The title, the description, the data files and
the warnings are published too (results.json, the HTML, the PDF's metadata):
:func:`published` gives every one of them, redacted, once per result, and
every sink takes them from there.

What counts as a credential:

* the value of a key whose name looks like one (:func:`looks_like_credential`),
  and every value nested under such a key;
* inside any value (:func:`redact_text`): the password of a URL
  (``sc://user:pass@host``); the value of a URL or connection-string parameter
  (``?token=...``, ``;password=...``, ``&sig=...``), a shell assignment
  (``export AWS_SECRET_ACCESS_KEY=...``), a JVM property (``-Dx.password=...``)
  or an option (``--password=...``, ``--token ...``) whose name looks like one;
  an HTTP credential (``Authorization: Bearer ...``);
* the same in comments, and a commented-out ``key: value`` (or ``key:value``)
  whose key looks like a credential.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

import yaml

from .yaml_read import scan_and_compose

__all__ = ["REDACTED", "Published", "published", "publish", "published_spec", "published_spec_text",
           "looks_like_credential", "redact_spec_text", "redact_text",
           "redaction_note"]

REDACTED = "<redacted>"
#: how the warning that the published spec is redacted begins (verify knows it: the
#: attached spec, redacted, reruns without it)
REDACTED_SPEC_WARNING = "the report publishes the spec with credentials redacted"

#: word parts of a key name that mark its value as a credential
_WORDS = frozenset({
    "secret", "secrets", "password", "passwords", "passwd", "pwd", "passphrase",
    "token", "key", "credential", "credentials", "auth", "authorization",
    # an Azure shared access signature: spark.hadoop.fs.azure.sas.<container>.<account>...
    "sas",
})
#: the names whose ``name: value`` is a credential in running text too (a description's
#: "password: hunter2"); not key or auth alone, which prose uses ("Key: the model...")
_PAIR_WORDS = frozenset({"secret", "secrets", "password", "passwords", "passwd", "pwd", "passphrase", "token"})
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


#: spec keys whose names look like a credential's but whose values name files: the
#: signing key's and certificate's paths (report.sign; the password comes from the
#: environment variable password_env names, never from the spec)
_PATHS_NOT_SECRETS = frozenset({("report", "sign", "key"), ("report", "sign", "certificate")})


def looks_like_credential(name: str, *, words=_WORDS) -> bool:
    """Whether a key named ``name`` probably holds a credential.

    A word part of the name (split on anything not a letter or digit, and at
    camelCase humps) must *be* one of secret(s), password(s), passwd, pwd,
    passphrase, token, key, credential(s), auth, authorization, or a known
    compound such as apikey or accesstoken. Whole words only: ``monkey``,
    ``keys``, ``keyword``, ``author``, ``max_tokens`` are ordinary names. A name
    ending in ``env`` (``password_env``) names the environment variable that holds
    the credential, not the credential.

    >>> looks_like_credential("fs.s3a.secret.key"), looks_like_credential("password_env")
    (True, False)
    """
    parts = _word_parts(str(name))
    if parts and parts[-1] == "env":
        return False  # names the environment variable that holds one (report.sign.password_env)
    return any(p in words or _COMPOUNDS.fullmatch(p) for p in parts)


# scheme://user:password@host -> the password. The scheme and every name below
# are bounded in length, and each may start only where no name character
# precedes it: unbounded, a long run of letters without '://' or '=' (a 1 MB
# title) made the search quadratic. With the lookbehind, the runs a pattern
# scans are disjoint, so each search stays linear in the text's length.
_URL_PASSWORD = re.compile(
    r"(?P<head>(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s:/@?#'\"]*:)"
    r"(?P<secret>[^\s/@?#'\"]+)(?=@)")
_NAME = r"[A-Za-z_][A-Za-z0-9_.\-]{0,127}"
# The names before a value, matched without the value (a name that is no
# credential must not swallow the pairs after it: "Server=h;Password=pw").
# name= : a URL or connection-string parameter (?name=, &name=, ;name=), a shell
# or .env assignment (export NAME=), a JVM system property (-Dname=), an option
# (--name=).
_ASSIGNMENT = re.compile(rf"(?:(?P<param>[?&;])|(?<![A-Za-z0-9_.\-])(?:-D|--?)?)(?P<name>{_NAME})=")
# --name value (the value is no next option)
_OPTION = re.compile(rf"(?<![A-Za-z0-9_.\-])--(?P<name>{_NAME})[ \t]{{1,16}}(?!-)")
# The value of a parameter: up to the next parameter.
_PARAMETER_VALUE = re.compile(r"[^&;#\s'\"]+")
# Any other value: quoted ("...", '...', or \"...\" inside a YAML double-quoted
# scalar) on one line, else up to a blank or a quote, a backslash escaping the
# next character. (Not to the end of the line past a quote never closed: that
# quote may be the one that closes the YAML scalar the value is in.)
_VALUE = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|\\\"[^\"\\\n]*\\\"|(?:\\.|[^\s'\"\\])+")
# an HTTP credential: "Authorization: Bearer xyz", "Authorization=Basic xyz", "Bearer xyz"
# (the scheme is never the secret: "Authorization: Bearer <redacted>" stays)
_SCHEMES = r"(?i:bearer|basic|digest|negotiate|token)[ \t]"
_SCHEME = re.compile(_SCHEMES)
_SCHEME_TOKEN = re.compile(
    rf"(?P<head>(?<![A-Za-z0-9_])(?:(?i:authorization)[ \t]{{0,16}}[:=][ \t]{{0,16}}"
    rf"(?:{_SCHEMES}[ \t]{{0,15}}|(?!{_SCHEMES}))|(?:Bearer|BEARER)[ \t]{{1,16}}))"
    r"(?P<secret>[A-Za-z0-9\-._~+/]+=*)")


# The shapes of well-known tokens, redacted wherever they stand (a description, an
# error message): GitHub's (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), AWS access key
# ids, Slack's, Google API keys, and JSON Web Tokens (MotherDuck's tokens are JWTs).
_TOKEN_SHAPES = re.compile(
    r"(?<![A-Za-z0-9_])(?:"
    r"gh[pousr]_[A-Za-z0-9]{30,255}"
    r"|github_pat_[A-Za-z0-9_]{20,255}"
    r"|(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"
    r"|xox[abposr]-[A-Za-z0-9-]{10,255}"
    r"|AIza[0-9A-Za-z_\-]{35}"
    r"|eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{0,4096}"
    r")(?![A-Za-z0-9_])")
# user:password@host without a scheme (a folder named so in a data path): the password.
# It starts only after a blank, a slash, a quote or a bracket, so the runs scanned stay disjoint.
_USERINFO = re.compile(
    r"(?P<head>(?:(?<=[\s/'\"(\[=,])|^)[A-Za-z][A-Za-z0-9._~%+\-]{0,63}:)(?P<secret>[^\s/@:'\"<>]{1,256})"
    r"(?=@[A-Za-z0-9\[])")
# name: value in running text, for the names of _PAIR_WORDS (password: x, motherduck_token: x)
# (the name must end in one of them, so that ordinary "word:" pairs are not matched at all)
_PAIR = re.compile(r"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z0-9_.\-]{0,100}"
                   r"(?i:pass(?:word|wd|phrase)?s?|pwd|secrets?|token|key))"
                   r":(?!//)[ \t]{0,16}")


def _pair_name(name: str) -> bool:
    parts = _word_parts(name)
    return (any(p in _PAIR_WORDS or _COMPOUNDS.fullmatch(p) for p in parts)
            or any(_COMPOUNDS.fullmatch(a + b) for a, b in zip(parts, parts[1:])))  # api_key, access_token


def _redact_values(text: str, names: re.Pattern, kinds: set[str], which=None) -> str:
    """The value after each match of ``names`` whose name looks like a credential,
    redacted. Names inside a value already redacted are skipped, so each
    character is scanned a bounded number of times."""
    out, last = [], 0
    for m in names.finditer(text):
        if m.start() < last:
            continue
        param = m.groupdict().get("param")
        # a URL parameter may also be a signature (sig=, X-Amz-Signature=)
        if which is not None:
            if not which(m.group("name")):
                continue
        elif not looks_like_credential(m.group("name"), words=_URL_WORDS if param else _WORDS):
            continue
        if m.group("name").lower() == "authorization" and _SCHEME.match(text, m.end()):
            continue  # "Authorization=Bearer xyz": the token after the scheme is (_SCHEME_TOKEN)
        value = (_PARAMETER_VALUE if param else _VALUE).match(text, m.end())
        if value is None or value.end() == m.end() or value.group(0) == REDACTED:
            continue  # nothing there, or redacted already: redacting twice changes nothing
        out += [text[last:m.end()], REDACTED]
        last = value.end()
        kinds.add("url" if param else "text")
    out.append(text[last:])
    return "".join(out)


def _redact_text(text: str) -> tuple[str, set[str]]:
    """``text`` with every credential it holds redacted (see :func:`redact_text`);
    also what was: "url" for a URL's password or parameter, "text" for the rest."""
    kinds: set[str] = set()

    def replace(m, kind: str) -> str:
        if m.group("secret") == REDACTED:
            return m.group(0)
        kinds.add(kind)
        return m.group("head") + REDACTED

    text = _URL_PASSWORD.sub(lambda m: replace(m, "url"), text)
    text = _USERINFO.sub(lambda m: replace(m, "url"), text)

    def token(m) -> str:
        kinds.add("text")
        return REDACTED

    text = _TOKEN_SHAPES.sub(token, text)
    # before the assignments: in "Authorization=Bearer xyz" the secret is xyz
    text = _SCHEME_TOKEN.sub(lambda m: replace(m, "text"), text)
    text = _redact_values(text, _OPTION, kinds)
    text = _redact_values(text, _ASSIGNMENT, kinds)
    text = _redact_values(text, _PAIR, kinds, which=_pair_name)
    return text, kinds


def redact_text(text: str) -> tuple[str, bool]:
    """``text`` (a value, a comment, a title) with what looks like a credential
    redacted; also whether anything was. Redacted: a URL's password
    (``sc://user:pw@host``); the value of a URL or connection-string parameter
    (``?token=``, ``;password=``, ``&sig=``), a shell assignment
    (``export AWS_SECRET_ACCESS_KEY=...``), a JVM property
    (``-Djavax.net.ssl.trustStorePassword=...``) or an option (``--password=...``,
    ``--token ...``) whose name looks like a credential; an HTTP credential
    (``Authorization: Bearer ...``, ``Bearer ...``)."""
    text, kinds = _redact_text(text)
    return text, bool(kinds)


def _kinds_text(kinds: set[str]) -> str:
    return "URL credentials" if kinds == {"url"} else "credentials in the value"


def _path_text(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


# a commented-out YAML line: "# key: value" (also "# - key: value", and
# "# key:value", which YAML would read as one word but a reader as a pair)
_COMMENTED_PAIR = re.compile(
    r"^(?P<head>#\s*(?:-\s+)?(?P<key>[^\s:=#'\"{}\[\],]+)\s*[:=]\s*)"
    r"(?P<secret>\"[^\"]*\"|'[^']*'|[^\s#,}]+)")


def redact_spec_text(text: str) -> tuple[str, list[str]]:
    """The spec's YAML text with the values of credentials replaced by ``<redacted>``.

    Returns the text and where something was redacted, in order of appearance:
    the key path of each credential key (``spark.conf.fs.s3a.secret.key``),
    ``<key path> (URL credentials)`` for a URL's password or parameter,
    ``<key path> (credentials in the value)`` for other credentials inside a
    value (see :func:`redact_text`), and ``comment on line N`` for comments. Only the characters of each secret are
    replaced (a quoted value by the plain ``<redacted>``; a multi-line or block
    value by ``<redacted>`` on one line), so the text stays valid YAML that
    loads to the same structure, and every other character is unchanged.
    Text that is not valid YAML is returned with only the credentials inside
    its text (:func:`redact_text`) and commented-out pairs redacted.
    """
    if not text:
        return text, []
    where: list[tuple[int, str]] = []  # (position, description)
    try:
        tokens, root = scan_and_compose(text)
    except yaml.YAMLError:
        tokens, root = [], None
        text, kinds = _redact_text(text)  # no structure to follow: the whole text
        if kinds:
            where.append((-1, _kinds_text(kinds)))
    redaction = _SpecRedaction(text, tokens, where)
    if root is not None:
        redaction.walk(root, (), set())
    redaction.comments()
    return redaction.applied()


class _SpecRedaction:
    """The edits that redact a spec's text (:func:`redact_spec_text`), found by
    walking its composed nodes and its comments, and where each was made."""

    def __init__(self, text: str, tokens: list, where: list[tuple[int, str]]):
        self.text, self.where = text, where
        self.edits: dict[int, tuple[int, str]] = {}  # start -> (end, replacement)
        self.scalars = {t.end_mark.index: t for t in tokens if isinstance(t, yaml.ScalarToken)}

    def span(self, node) -> tuple[int, int] | None:
        token = self.scalars.get(node.end_mark.index)
        if token is None or token.end_mark.index == token.start_mark.index:
            return None  # an empty value: nothing to redact
        return token.start_mark.index, token.end_mark.index

    def redact_all(self, node, seen) -> bool:
        """Every scalar under ``node``; whether there was one."""
        if id(node) in seen:
            return False
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            s = self.span(node)
            if s is None:
                return False
            # a block or multi-line value keeps its final line break
            tail = re.search(r"\s*$", self.text[s[0]:s[1]]).group(0)
            self.edits[s[0]] = (s[1], REDACTED + tail)
            return True
        # the values only: the keys of a mapping under a credential are names
        children = node.value if isinstance(node, yaml.SequenceNode) else \
            [v for _, v in node.value] if isinstance(node, yaml.MappingNode) else []
        found = False
        for child in children:
            found = self.redact_all(child, seen) or found
        return found

    def walk(self, node, path, seen) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else str(key.value)
                if looks_like_credential(name) and path + (name,) not in _PATHS_NOT_SECRETS:
                    if self.redact_all(value, set()):
                        self.where.append((key.start_mark.index, _path_text(path + (name,))))
                else:
                    self.walk(value, path + (name,), seen)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.walk(item, path + (i,), seen)
        elif isinstance(node, yaml.ScalarNode):
            s = self.span(node)
            if s is None or s[0] in self.edits:
                return
            new, kinds = _redact_text(self.text[s[0]:s[1]])
            if kinds:
                self.edits[s[0]] = (s[1], new)
                self.where.append((s[0], f"{_path_text(path) or '(top level)'} ({_kinds_text(kinds)})"))

    def comments(self) -> None:
        """Comments: a '#' at a line start or after a blank, outside every scalar."""
        text = self.text
        inside = sorted((t.start_mark.index, t.end_mark.index) for t in self.scalars.values())
        starts = [a for a, _ in inside]
        line, counted = 1, 0  # comments come in order: count the lines once
        for m in re.finditer(r"(?:(?<=\s)|^)#[^\n]*", text, flags=re.M):
            start = m.start()
            i = bisect.bisect_right(starts, start) - 1  # the scalar starting last before it (none overlap)
            if i >= 0 and start < inside[i][1]:
                continue
            line += text.count("\n", counted, start)
            counted = start
            comment = m.group(0)
            # the text first: in "# Authorization: Bearer xyz" the pair's value is "Bearer"
            new, _ = _redact_text(comment)
            pair = _COMMENTED_PAIR.match(new)
            if pair and looks_like_credential(pair.group("key")) and pair.group("secret") != REDACTED:
                new = pair.group("head") + REDACTED + new[pair.end():]
            if new != comment:
                self.edits[start] = (m.end(), new)
                self.where.append((start, f"comment on line {line}"))

    def applied(self) -> tuple[str, list[str]]:
        """The text with the edits made, and where, in order of appearance."""
        out, last = [], 0
        for start in sorted(self.edits):
            end, replacement = self.edits[start]
            if start < last:
                continue  # inside a value already redacted as a whole
            out.append(self.text[last:start])
            out.append(replacement)
            last = end
        out.append(self.text[last:])
        return "".join(out), [w for _, w in sorted(self.where)]


@dataclass(frozen=True)
class Published:
    """A run's free texts as its report publishes them, credentials redacted.

    Every sink takes them from here (results.json, the HTML, the PDF's text,
    metadata and attachments), so that none publishes one raw: redacting at
    each place that prints a text is how a title once went out with its token.
    """

    title: str
    description: str | None
    spec_text: str  # '' for a spec built in Python
    redacted: tuple[str, ...]  # where: key paths, "comment on line N" (see redact_spec_text)
    inputs: tuple[dict, ...]  # the data files read: path (redacted), sha256, rows
    sources: dict  # learner key -> its data file
    warnings: tuple[str, ...]  # the evaluation's (a warning may name a data file)

    @property
    def note(self) -> str:
        """The report's sentence about what was redacted ('' when nothing was)."""
        return redaction_note(list(self.redacted))


def published_spec(spec) -> tuple[str, str | None, str, tuple[str, ...]]:
    """The published title, description, spec text and where something was redacted."""
    from .spec import spec_text

    text, redacted = redact_spec_text(spec_text(spec))
    title, description = spec.title, spec.description
    texts = []
    for name, value in (("title", title), ("description", description)):
        new, kinds = _redact_text(value) if value else (value, set())
        texts.append(new)
        # the spec's text names them already, unless the spec was built in Python
        if kinds and not any(w.split(" ")[0] == name for w in redacted):
            redacted.append(f"{name} ({_kinds_text(kinds)})")
    return texts[0], texts[1], text, tuple(redacted)


def published(result) -> Published:
    """The free texts of ``result`` (a pipeline.Result) as its report publishes them:
    the ones the pipeline made once (``Result.published``), which every sink reads;
    made here for a result that has none (:func:`publish`)."""
    texts = result.published
    return publish(result) if texts is None else texts


def publish(result) -> Published:
    """The free texts of ``result`` as its report publishes them, made (:func:`published`)."""
    title, description, text, redacted = published_spec(result.spec)
    return Published(
        title=title, description=description, spec_text=text, redacted=redacted,
        inputs=tuple({**i, "path": redact_text(i["path"])[0]} for i in result.inputs),
        sources={key: redact_text(lr.source)[0] for key, lr in result.learners.items()},
        # the redaction said last: the spec attached to the PDF is then not the file's bytes
        # (the readers of warnings zip them with result.warnings, which this one is not in)
        warnings=tuple(redact_text(str(w))[0] for w in result.warnings) + (
            (f"{REDACTED_SPEC_WARNING} (the spec shown in the report and attached to the PDF differs "
             f"from the file run, and so may the title and description shown): "
             f"{redaction_note(list(redacted))}",) if redacted else ()),
    )


def published_spec_text(spec) -> str:
    """The spec's text as the report publishes it (HTML provenance, PDF attachment):
    credentials redacted ('' for a spec built in Python)."""
    return published_spec(spec)[2]


def redaction_note(redacted: list[str]) -> str:
    """The report's sentence about what was redacted ('' when nothing was)."""
    if not redacted:
        return ""
    if len(redacted) == 1:
        return f"1 value that looks like a credential is redacted: {redacted[0]}."
    return f"{len(redacted)} values that look like credentials are redacted: {', '.join(redacted)}."
