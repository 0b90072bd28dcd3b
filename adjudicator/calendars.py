"""The calendar part of a "your move" mail: when a move is due, in the
player's own calendar (issue #24, "The judge's clock").

Each game and seat is one calendar event, scheduled by the referee as the
organizer with the player as the only attendee, and sent by mail as iTIP
(RFC 5546) over iMIP (RFC 6047). The calendar text is written and read by
the ``icalendar`` library, never by hand: its escaping of TEXT values and
of parameters and its RFC 5545 folding, with the checks here (addresses,
control characters, other line breaks), keep a name from turning into a
property.

The protocol choices:

* **One event per game and seat.** :func:`uid` is the same for every mail
  about one seat of one game, whatever the deadline, so a calendar keeps a
  single entry and moves it. It shows the game's name and nothing else: the
  player's name is only a short SHA-256 digest in it (and so is a game's
  name that is not plain ASCII).
* **SEQUENCE.** A client applies a REQUEST only when its SEQUENCE is not
  lower than the one it holds (RFC 5546 section 2.1.4), so every move of the
  deadline must raise it. The caller keeps the count (with the game, where
  the deadline lives) and passes it; this module never guesses it.
* **CANCEL** once the player has moved: METHOD:CANCEL, the same UID,
  STATUS:CANCELLED and the sequence after the last REQUEST's, which takes
  the entry out of the calendar (RFC 5546 section 3.2.5).
* **A deadline is an instant.** DTSTART is the deadline and DURATION is zero.
  RFC 5545 section 3.8.2.2 wants a DTEND *later* than DTSTART, so
  DTEND = DTSTART would be invalid, and a missing end leaves the length to
  each client's reading of section 3.6.1; a zero DURATION says it outright.
  Calendar views list a zero-length event at its start and draw it at their
  smallest height, so the title and the due time both show; a block of a
  quarter of an hour would instead suggest the move can wait until its end.
  All times are UTC ("Z"): no VTIMEZONE is needed and every client shows the
  deadline in its own zone.
* **The alarm** is a DISPLAY VALARM at ``-alarm_before`` from the start.
  TRANSP:TRANSPARENT keeps the event out of free/busy: it books no time.
  RSVP=FALSE: the player answers with a move, not with Accept or Decline.
* **The deadline is injected, and so is DTSTAMP** (``stamp``): the module
  never reads the clock, so the same arguments always give the same bytes.
* **The MIME structure** (RFC 6047 section 2.4). The part is
  ``text/calendar; charset="utf-8"; method=...``, the method copied from the
  calendar's METHOD as 2.4 requires. Section 2.4 says a scheduling message
  SHOULD travel with a human-readable alternative (its alternative for
  other content is a plain ``multipart/mixed``). The structure that Gmail,
  Outlook and Thunderbird all take as an invitation is the first: the text
  body and the calendar as the two sides of a ``multipart/alternative``,
  itself the body of the ``multipart/mixed`` that holds the attachments.
  Google Calendar's own invitations are built so, and CalConnect's iMIP
  interoperability guide recommends it; Outlook is the strictest reader and
  has been reported to leave a calendar that is a mere sibling of the body
  as a plain attachment. So :func:`attach` turns the
  mail's text body, wherever it sits, into that alternative and leaves the
  attachments alone. A client that prefers the calendar side may show the
  event in place of the text, so the caller's DESCRIPTION should say what
  is due and how to answer.
* **No second copy as ``invite.ics``.** Google's own invitations add an
  ``application/ics`` attachment for clients that only look at attachments
  (the interop guide names Yahoo). The three clients above read the inline
  part, and a second copy would give a reader two calendars to reconcile
  (and :func:`read` two to return), so there is none.
* **Transfer encoding.** The part is 7bit when the calendar is ASCII with no
  line ending in white space, quoted-printable otherwise (a player's name in
  UTF-8, or a fold that ends a line with a space, which a mail relay could
  strip): never 8bit, so it needs no 8BITMIME. icalendar folds content lines
  at 75 octets, far inside mail's 998, and the mail carries them with CRLF.

``icalendar`` is imported inside the functions, so importing this module,
or starting the CLI, never loads it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage, Message, MIMEPart
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from icalendar import Calendar, Event

__all__ = ["PRODID", "attach", "cancel", "checked", "due", "read", "uid"]

PRODID = "-//adjudicator//referee//EN"

# The characters that str.splitlines() and other readers of Unicode text take as
# line breaks, besides CR and LF (which icalendar escapes itself).
_LINE_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
# RFC 5545's CONTROL but TAB, which TEXT allows, and LF, which it escapes: never in a value.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# A mail address as the roster holds it: something@domain, no white space,
# controls, brackets, quotes or the separators of a content line.
_ADDRESS = re.compile(r"[^\s\x00-\x1f\x7f<>()\[\]\\\",;:@]+@[^\s\x00-\x1f\x7f<>()\[\]\\\",;:@]+")
# A game's name that a UID shows as it is.
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_DOMAIN = re.compile(r"[^\s\x00-\x1f\x7f<>()\[\]\\\",;:@/]+")


def uid(game: str, player: str, domain: str) -> str:
    """The UID of the event of ``player``'s seat in ``game``:
    ``adj.<game>.<16 hex digits>@<domain>``.

    The same for every deadline of that seat, different for another seat or
    game. The player's name appears only as the first 64 bits of the SHA-256
    of its NFC form in UTF-8. The game's name is shown as it is when it is
    ASCII letters, digits, ``-``, ``_`` and ``.`` (as every game of a
    referee's roster is); any other name is shown as ``~`` and the same kind
    of digest, so a UID is always plain ASCII with nothing for a reader of
    the calendar to unescape (``~`` keeps such a game apart from every plain
    name).
    """
    if not game or not player:
        raise ValueError("a calendar UID needs a game and a player")
    if not _DOMAIN.fullmatch(domain):
        raise ValueError(f"not a mail domain: {domain!r}")
    shown = game if _PLAIN.fullmatch(game) else "~" + _digest(game)
    return f"adj.{shown}.{_digest(player)}@{domain}"


def _digest(name: str) -> str:
    """The first 64 bits of the SHA-256 of ``name``'s NFC form in UTF-8, in hex."""
    return hashlib.sha256(unicodedata.normalize("NFC", name).encode("utf-8")).hexdigest()[:16]


def due(game: str, player: str, *, deadline: datetime, sequence: int, domain: str,
        organizer: str, attendee: str, summary: str | None = None, description: str = "",
        alarm_before: timedelta = timedelta(hours=1), stamp: datetime) -> bytes:
    """A METHOD:REQUEST calendar with one event: ``player``'s move in ``game``
    is due at ``deadline``, with a reminder ``alarm_before`` it.

    ``sequence`` is the event's SEQUENCE: 0 at first, one more each time the
    deadline moves. ``organizer`` is the referee's address and ``attendee``
    the player's (bare addresses, or ``mailto:`` URIs). ``stamp`` is the
    DTSTAMP, the time the mail is written. Both times must be aware; they
    are written in UTC, to the second.
    """
    from icalendar import Alarm

    if alarm_before < timedelta(0):
        raise ValueError(f"an alarm is set before the deadline, not {-alarm_before} after it")
    title = _text(summary if summary is not None else f"Your move in {game}")
    cal, event = _calendar("REQUEST", game, player, deadline=deadline, sequence=sequence,
                           domain=domain, organizer=organizer, attendee=attendee, summary=title,
                           stamp=stamp)
    if description:
        event.add("description", _text(description))
    event.add("status", "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -alarm_before)  # RELATED=START is the default: before the deadline
    alarm.add("description", title)
    event.add_component(alarm)
    cal.add_component(event)
    return bytes(cal.to_ical())


def cancel(game: str, player: str, *, sequence: int, domain: str, organizer: str, attendee: str,
           stamp: datetime, deadline: datetime, summary: str | None = None) -> bytes:
    """A METHOD:CANCEL calendar that takes ``player``'s event in ``game`` out
    of their calendar: the same UID as :func:`due`'s, STATUS:CANCELLED.

    ``sequence`` is the last REQUEST's plus one (RFC 5546 section 3.2.5).
    ``deadline`` is the deadline being cancelled, for the clients that show
    the cancellation before they find the event.
    """
    title = _text(summary if summary is not None else f"Your move in {game}")
    cal, event = _calendar("CANCEL", game, player, deadline=deadline, sequence=sequence,
                           domain=domain, organizer=organizer, attendee=attendee, summary=title,
                           stamp=stamp)
    event.add("status", "CANCELLED")
    cal.add_component(event)
    return bytes(cal.to_ical())


def attach(message: EmailMessage, ics: bytes) -> None:
    """Put the calendar ``ics`` into ``message`` the way mail clients take it
    as an invitation (see the module's notes): the text body becomes
    ``multipart/alternative`` of itself and a ``text/calendar; method=...;
    charset="utf-8"`` part, wherever the body sits in the message.

    A message with no text body gets the calendar as a part of its
    ``multipart/mixed``. A message that already carries a calendar, or that
    is signed or encrypted (attach before signing), is refused.
    """
    if not isinstance(message, MIMEPart):
        raise TypeError("attach needs an email.message.EmailMessage")
    text, method, cte = checked(ics)
    for part in message.walk():
        if part.get_content_type() == "text/calendar":
            raise ValueError("the message already carries a calendar")
        if part.get_content_type() in ("multipart/signed", "multipart/encrypted"):
            raise ValueError("a signed or encrypted message cannot take a calendar: attach before signing")
    content: dict[str, Any] = {
        "subtype": "calendar", "charset": "utf-8", "cte": cte,
        "params": {"method": method},
    }
    body = _body(message)
    if body is None:
        if not message.is_multipart():
            message.make_mixed()
        message.add_attachment(text, disposition="inline", **content)
        return
    if body.get_content_type() != "multipart/alternative":
        body.make_alternative()
    body.add_alternative(text, **content)


def checked(ics: bytes) -> tuple[str, str, str]:
    """The calendar ``ics`` as :func:`attach` puts it in a mail: its text,
    its METHOD and the part's transfer encoding (``7bit`` or
    ``quoted-printable``). Raises :class:`ValueError` for what is no iMIP
    calendar (not UTF-8, a line break other than CRLF, no METHOD). A mail
    writer that builds the MIME structure itself (the referee's,
    :func:`adjudicator.postal.compose.mime`) checks a calendar here first."""
    from icalendar import Calendar

    try:
        text = ics.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("a calendar is UTF-8 text") from exc
    lines = text.split("\r\n")
    if len(lines) < 2 or lines[-1] or any("\r" in line or "\n" in line or any(c in line for c in _LINE_BREAKS)
                                          for line in lines):
        # Only CRLF may end a content line: a reader would split at any other break.
        raise ValueError("a calendar's content lines end in CRLF and hold no other line break")
    parsed = Calendar.from_ical(text)
    method = str(parsed.get("METHOD", "")).upper() if isinstance(parsed, Calendar) else ""
    if not re.fullmatch(r"[A-Z][A-Z-]*", method):
        raise ValueError("an iMIP calendar has a METHOD (RFC 6047 section 2.4)")
    return text, method, _transfer_encoding(text)


def read(message: Message) -> list[Calendar]:
    """The calendars of ``message``'s ``text/calendar`` parts, in order, parsed."""
    from icalendar import Calendar

    found: list[Calendar] = []
    for part in message.walk():
        if part.get_content_type() != "text/calendar":
            continue
        data = part.get_payload(decode=True)
        if not isinstance(data, bytes):
            continue
        parsed = Calendar.from_ical(data.decode(part.get_content_charset() or "utf-8"))
        found.extend(parsed if isinstance(parsed, list) else [parsed])
    return found


def _calendar(method: str, game: str, player: str, *, deadline: datetime, sequence: int,
              domain: str, organizer: str, attendee: str, summary: str,
              stamp: datetime) -> tuple[Calendar, Event]:
    """A VCALENDAR of ``method`` and its VEVENT, holding what a REQUEST and a
    CANCEL share; the event is not added yet."""
    from icalendar import Calendar, Event, vCalAddress

    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 0:
        raise ValueError(f"a SEQUENCE is a whole number from 0, not {sequence!r}")
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", method)
    event = Event()
    event.add("uid", uid(game, player, domain))
    event.add("dtstamp", _utc(stamp, "stamp"))
    event.add("sequence", sequence)
    event.add("dtstart", _utc(deadline, "deadline"))
    event.add("duration", timedelta(0))
    event.add("summary", summary)
    event.add("organizer", vCalAddress(_mailto(organizer)))
    seat = vCalAddress(_mailto(attendee))
    seat.params["CN"] = _display(player)
    seat.params["ROLE"] = "REQ-PARTICIPANT"
    seat.params["PARTSTAT"] = "NEEDS-ACTION"
    seat.params["RSVP"] = "FALSE"
    event.add("attendee", seat)
    return cal, event


def _utc(moment: datetime, what: str) -> datetime:
    """``moment`` in UTC to the second; a naive time is refused, since its zone is a guess."""
    if not isinstance(moment, datetime):
        raise TypeError(f"{what} must be a datetime, not {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} {moment.isoformat()} has no time zone: give an aware datetime")
    return moment.astimezone(UTC).replace(microsecond=0)


def _mailto(address: str) -> str:
    """``address`` as a ``mailto:`` URI, after checking it is one plain address."""
    bare = address[7:] if address[:7].lower() == "mailto:" else address
    if not _ADDRESS.fullmatch(bare):
        raise ValueError(f"not a plain mail address: {address!r}")
    return "mailto:" + bare


def _text(value: str) -> str:
    """``value`` as a TEXT value may hold it: every kind of line break as LF
    (which icalendar escapes as ``\\n``), no other control character."""
    return _CONTROLS.sub("", "\n".join(value.splitlines()))


def _display(name: str) -> str:
    """``name`` as a CN parameter shows it: one line, without the quote, the
    backslash and the caret, which a parameter value cannot hold as such
    (RFC 6868 writes them as ``^'`` and the like, which older readers show
    as they are, and some take a backslash before a quote as an escape)."""
    return re.sub(r'["\\^]', "", _text(name)).replace("\n", " ")


def _transfer_encoding(text: str) -> str:
    """7bit for ASCII lines that end in no white space, quoted-printable otherwise."""
    if text.isascii() and not re.search(r"[ \t]\r\n", text):
        return "7bit"
    return "quoted-printable"


def _body(message: MIMEPart) -> MIMEPart | None:
    """The part of ``message`` that holds its readable body, as a calendar's
    alternative: the first part that is not an attachment, going into
    ``multipart/mixed``; None when the message has no such text."""
    kind = message.get_content_type()
    if kind in ("multipart/alternative", "multipart/related") or kind.startswith("text/"):
        return message
    if kind != "multipart/mixed":
        return None
    for part in message.iter_parts():
        if isinstance(part, MIMEPart) and part.get_content_disposition() != "attachment":
            return _body(part)
    return None
