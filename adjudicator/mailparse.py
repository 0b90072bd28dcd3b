"""Logs as mail delivers them: a JSON file, the text form, or a whole message.

:func:`extract` takes what a player saved or piped in (a ``.json`` file,
the text form pasted from a forum, an ``.eml`` file, a message body) and
returns the one log or view file it holds. A message is read with the
standard library's :mod:`email` package (plain or multipart, the log
attached as ``application/json``, ``text/plain`` or
``application/octet-stream`` or inline in the body, any transfer encoding
and charset); the parts are then searched with :func:`textform.scan`.

Which copy is meant when a message holds several is decided by
:func:`textform.pick`: the message's own copies (attached, or not quoted)
before those of a mail it quotes; duplicates count once; of an older and a
newer copy of one game, the newer; anything else (two games, a fork) is
refused with one line.
"""

from __future__ import annotations

import dataclasses
import email.utils
import re
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from html.parser import HTMLParser

from . import textform
from .errors import BadLogError
from .log import Log, ViewFile, decode, decode_view, kind_of, text_of
from .textform import Found

__all__ = ["extract", "extract_all", "extract_found", "found_in_texts", "has_html_alternative",
           "html_text", "looks_like_mail", "message_texts", "unflow"]

_KNOWN_HEADERS = frozenset([
    "from", "to", "cc", "subject", "date", "message-id", "mime-version", "content-type",
    "content-transfer-encoding", "received", "return-path", "delivered-to", "reply-to",
    "in-reply-to", "references", "sender", "user-agent", "x-mailer",
])
_HEADER = re.compile(rb"[!-9;-~]+:")


def looks_like_mail(data: bytes) -> bool:
    """Whether ``data`` starts with mail headers (an ``.eml`` file, a saved
    message), as opposed to a bare body or a file."""
    head = data.lstrip(b"\r\n")[:8192]
    lines = re.split(rb"\r\n|\r|\n", head)
    if lines and lines[0].startswith(b"From "):  # an mbox separator line
        lines = lines[1:]
    names: set[str] = set()
    for line in lines:
        if not line.strip():
            break
        if line[:1] in (b" ", b"\t") and names:
            continue  # a folded header
        m = _HEADER.match(line)
        if not m:
            return False
        names.add(m[0][:-1].decode("ascii").lower())
    return bool(names & _KNOWN_HEADERS)


def extract(data: bytes | str, source: str = "mail") -> Log | ViewFile:
    """The one log or view file that ``data`` holds: JSON, the text form, or
    a mail message holding either. Anything else is one :class:`BadLogError`
    line: nothing found, a damaged copy, two different games, a fork."""
    return textform.pick(extract_all(data, source), source)


def extract_found(data: bytes | str, source: str = "mail") -> Found:
    """Like :func:`extract`, with where the copy was found and its form:
    ``found.form`` is ``"json"`` or ``"text"`` (to write a file back as it came)."""
    return textform.pick_found(extract_all(data, source), source)


def extract_all(data: bytes | str, source: str = "mail") -> list[Found]:
    """Every copy of a log or view file in ``data``, with where it was found."""
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    text = data if isinstance(data, str) else None
    if raw.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        # A JSON file is read strictly, with the messages of the JSON reader.
        text = text_of(data, source)
        kind = kind_of(text)
        if kind == "adjudicator-view":
            return [Found(decode_view(text, source), 1, 0, "json", "the file")]
        if kind not in (None, "adjudicator-log"):
            raise BadLogError(f"{source}: a file of format {kind!r}, not a log or a view file")
        return [Found(decode(text, source), 1, 0, "json", "the file")]
    if looks_like_mail(raw):
        try:
            message = BytesParser(policy=policy.default).parsebytes(raw)
            texts = message_texts(message)
        except (ValueError, TypeError, LookupError, IndexError, AttributeError, AssertionError,
                UnicodeError) as e:
            # The email package records most damage as defects; what it raises
            # instead is reported in one line, like any other bad input.
            raise BadLogError(f"{source}: not a readable mail message ({type(e).__name__}: "
                              f"{' '.join(str(e).split())})") from None
        return found_in_texts(texts, source)
    plain = text if text is not None else text_of(raw, source)
    if _HTML_TAG.search(plain):
        # A page or a post as HTML (a forum's rendering, saved): the text
        # form in it is read as is if it can be, else as the page shows it
        # (a code block's "&quot;" is a '"').
        try:
            found = textform.scan(plain, source, markdown=())
        except BadLogError:
            found = []
        if found:
            return found
        # A text form posted bare and rendered by Markdown: its soft breaks'
        # "\" became <br> tags. Put them back; the check decides.
        restored = _HARD_BREAK.sub(lambda m: "\\\n", plain)
        if restored != plain:
            try:
                return found_in_texts([("the HTML", 0, html_text(plain))], source, markdown=())
            except BadLogError:
                pass
        # Its code spans' backticks became <code> tags, its "*" and "_"
        # pairs <em> and <strong>: marked for the reader, which tells a "*"
        # from a "_" as it tells where a "\" was eaten (textform.scan).
        restored = _CODE_SPAN.sub("`", restored)
        restored = _EMPHASIS.sub(lambda m: _MARKS[m[1]], restored)
        return found_in_texts([("the HTML", 0, html_text(restored))], source,
                              markdown=("html",))
    return textform.scan(plain, source)


_HARD_BREAK = re.compile(r"<br\s*/?>\r?\n?", re.I)
#: Emphasis as CommonMark writes it (<em>: a "*" or "_" each side, <strong>: two),
#: and code spans (a "`" each side; a code block is <pre><code>).
_EMPHASIS = re.compile(r"</?(em|strong)>")
_MARKS = {"em": textform.EMPHASIS, "strong": textform.STRONG}
_CODE_SPAN = re.compile(r"(?<!<pre>)<code>|</code>(?!</pre>)")
_HTML_TAG = re.compile(r"<(?:pre|code|p|div|br|html|body|blockquote)\b[^<>]*>", re.I)


def found_in_texts(texts: list[tuple[str, int, str]], source: str, *,
                   markdown: tuple[str, ...] = ("soft", "page")) -> list[Found]:
    """Every copy of a log or view file in a message's readable parts
    (:func:`message_texts`), with where it was found (``markdown``: as in
    :func:`textform.scan`)."""
    found: list[Found] = []
    damaged: list[textform.Damaged] = []
    for where, depth, body in texts:
        problems: list[textform.Damaged] = []
        for f in textform.scan(body, f"{source}: {where}", damaged=problems,
                                markdown=markdown):
            found.append(dataclasses.replace(f, depth=f.depth + depth,
                                             where=f"{where}, {f.where}"))
        damaged += [dataclasses.replace(d, depth=d.depth + depth) for d in problems]
    # Damage counts only where it could be the copy meant (not in a quote
    # of the previous mail that the client clipped), across every part.
    textform.settle(found, damaged)
    return found


# --- The texts of a message -----------------------------------------------------------------


def message_texts(message: Message, html: bool = False) -> list[tuple[str, int, str]]:
    """Each readable part of ``message`` as ``(where, depth, text)``: the body
    (the plain text of a multipart/alternative, else its HTML turned into
    text; with ``html``, its HTML first), inline text parts and attachments,
    decoded from their transfer encoding and charset. ``depth`` is 1 for a
    forwarded message's parts."""
    out: list[tuple[str, int, str]] = []
    _walk(message, out, 0, [0], ("text/html", "text/plain") if html else
          ("text/plain", "text/html"))
    return out


def has_html_alternative(message: Message) -> bool:
    """Whether ``message`` has a body in both plain text and HTML (a
    multipart/alternative), so that :func:`message_texts` with ``html``
    reads other text."""
    return any(part.get_content_type() == "multipart/alternative"
               and any(c.get_content_type() == "text/html" for c in part.iter_parts())
               and any(c.get_content_type() == "text/plain" for c in part.iter_parts())
               for part in message.walk() if isinstance(part, EmailMessage))


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter in lower case ("" when absent; an RFC 2231
    value as its text)."""
    value = part.get_param(name)
    if isinstance(value, tuple):
        value = email.utils.collapse_rfc2231_value(value)
    return (value or "").lower()


def _walk(part: Message, out: list[tuple[str, int, str]], depth: int, counter: list[int],
          order: tuple[str, str] = ("text/plain", "text/html")) -> None:
    ctype = part.get_content_type()
    if ctype == "message/rfc822":
        payload = part.get_payload()
        for inner in payload if isinstance(payload, list) else []:
            if isinstance(inner, Message):
                _walk(inner, out, depth + 1, counter, order)
        return
    if part.is_multipart():
        found = list(part.iter_parts()) if isinstance(part, EmailMessage) else part.get_payload()
        children = [c for c in found if isinstance(c, Message)] if isinstance(found, list) else []
        if ctype == "multipart/alternative":
            children = _preferred(children, order)
        for child in children:
            _walk(child, out, depth, counter, order)
        return
    counter[0] += 1
    maintype = part.get_content_maintype()
    if maintype in ("image", "audio", "video", "font", "model"):
        return
    name = part.get_filename()
    if name:
        where = f"attachment {name!r}"
    elif ctype.startswith("text/") and part.get_content_disposition() != "attachment":
        where = "the body" if counter[0] == 1 else f"part {counter[0]} ({ctype})"
    else:
        where = f"part {counter[0]} ({ctype})"
    text = _text(part)
    if text is None:
        return
    if ctype == "text/html":
        text = html_text(text)
    elif ctype == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, _param(part, "delsp") == "yes")
    out.append((where, depth, text))


def _preferred(children: list[Message],
               order: tuple[str, str] = ("text/plain", "text/html")) -> list[Message]:
    """Of the alternatives of one body, the plain text one if there is one
    (the HTML one first, in ``order``)."""
    for wanted in order:
        for child in children:
            if child.get_content_type() == wanted:
                return [child]
    return children[-1:]


def _text(part: Message) -> str | None:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return None
    charset = part.get_content_charset()
    if charset:
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            pass
    try:
        return text_of(payload)
    except BadLogError:
        return None  # binary


def unflow(text: str, delsp: bool = False) -> str:
    """A ``format=flowed`` text (RFC 3676) with its soft line breaks joined."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in re.split(r"\r\n|\r|\n", text):
        m = re.match(r">*", line)
        depth = len(m[0]) if m else 0
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing
        prefix = ">" * depth + (" " if depth else "")
        if pending is not None and depth == pending_depth:
            body = pending + body
        elif pending is not None:
            out.append(">" * pending_depth + (" " if pending_depth else "") + pending)
        pending = None
        if body.endswith(" ") and body != "-- ":
            pending, pending_depth = (body[:-1] if delsp else body), depth
            continue
        out.append(prefix + body)
    if pending is not None:
        out.append(">" * pending_depth + (" " if pending_depth else "") + pending)
    return "\n".join(out)


class _HTMLText(HTMLParser):
    """The text of an HTML body; a blockquote's lines get ``> `` in front."""

    _BREAKS = frozenset([
        "br", "p", "div", "pre", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table",
        "blockquote", "hr",
    ])

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.depths: list[int] = [0]
        self.depth = 0
        self.skip = 0

    def _newline(self) -> None:
        self.lines.append("")
        self.depths.append(self.depth)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self.skip += 1
        if tag == "blockquote":
            self.depth += 1
        if tag in self._BREAKS:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        if tag == "blockquote":
            self.depth = max(0, self.depth - 1)
        if tag in self._BREAKS:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        parts = re.split(r"\r\n|\r|\n", data)
        self.lines[-1] += parts[0]
        for more in parts[1:]:
            self._newline()
            self.lines[-1] += more

    def text(self) -> str:
        return "\n".join(("> " * d) + line for line, d in zip(self.lines, self.depths))


def html_text(html: str) -> str:
    """The text of an HTML mail body, quoted parts marked with ``> ``."""
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    return parser.text()
