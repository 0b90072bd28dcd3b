"""The calendar part of a "your move" mail (adjudicator.calendars): one event
per game and seat, its SEQUENCE raised with the deadline, a CANCEL once the
player has moved, and the part carried through real mail serialisation.

The real icalendar library and the standard library's email package, no
mocks; every time is injected."""

from __future__ import annotations

import email
import re
import subprocess
import sys
import unicodedata
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage, Message
from pathlib import Path

import pytest

from adjudicator import calendars

ROOT = Path(__file__).resolve().parent.parent

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
DEADLINE = datetime(2025, 3, 4, 18, 0, tzinfo=UTC)
DOMAIN = "club.example"
REFEREE = "referee@club.example"
ANN = "ann@example.org"

# Every property a REQUEST's event carries, and a CANCEL's.
REQUEST_PROPERTIES = {"UID", "DTSTAMP", "SEQUENCE", "DTSTART", "DURATION", "SUMMARY", "DESCRIPTION",
                      "ORGANIZER", "ATTENDEE", "STATUS", "TRANSP"}
CANCEL_PROPERTIES = {"UID", "DTSTAMP", "SEQUENCE", "DTSTART", "DURATION", "SUMMARY", "ORGANIZER",
                     "ATTENDEE", "STATUS"}


def request(game: str = "cup-1", player: str = "ann", *, deadline: datetime = DEADLINE,
            sequence: int = 0, **more: object) -> bytes:
    args: dict[str, object] = {"domain": DOMAIN, "organizer": REFEREE, "attendee": ANN, "stamp": NOW,
                               "description": "Reply to this mail with your move."}
    args.update(more)
    return calendars.due(game, player, deadline=deadline, sequence=sequence, **args)  # type: ignore[arg-type]


def withdrawal(game: str = "cup-1", player: str = "ann", *, sequence: int = 1) -> bytes:
    return calendars.cancel(game, player, sequence=sequence, domain=DOMAIN, organizer=REFEREE,
                            attendee=ANN, stamp=NOW + timedelta(hours=2), deadline=DEADLINE)


def parse(ics: bytes):
    from icalendar import Calendar

    cal = Calendar.from_ical(ics)
    assert isinstance(cal, Calendar)
    return cal


def event_of(ics: bytes):
    events = parse(ics).walk("VEVENT")
    assert len(events) == 1
    return events[0]


def content_lines(ics: bytes) -> list[str]:
    """The unfolded content lines of ``ics`` (RFC 5545 section 3.1)."""
    text = ics.decode("utf-8")
    assert text.endswith("\r\n")
    return re.sub(r"\r\n[ \t]", "", text).split("\r\n")[:-1]


def event_property_names(ics: bytes) -> list[str]:
    """The names of the event's own properties, as a reader of the raw text sees them."""
    lines = content_lines(ics)
    inside = lines[lines.index("BEGIN:VEVENT") + 1:lines.index("END:VEVENT")]
    names, depth = [], 0
    for line in inside:
        if line.startswith("BEGIN:"):
            depth += 1
        elif line.startswith("END:"):
            depth -= 1
        elif depth == 0:
            names.append(re.split(r"[;:]", line, maxsplit=1)[0])
    return names


def body_mail(text: str = "Your move in cup-1.\n", *, attachments: bool = True,
              html: bool = False) -> EmailMessage:
    """A "your move" mail built the way the referee's composer builds one."""
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = f"Club referee <{REFEREE}>"
    msg["To"] = ANN
    msg["Subject"] = "[cup-1] Your move"
    msg.set_content(text, charset="us-ascii", cte="7bit")
    if html:
        msg.add_alternative("<p>Your move in cup-1.</p>\n", subtype="html", charset="us-ascii", cte="7bit")
    if attachments:
        msg.add_attachment("the log\n", subtype="plain", charset="us-ascii", cte="7bit",
                           filename="cup-1.txt")
        msg.add_attachment(b"\x89PNG\r\n\x1a\n-picture-", maintype="image", subtype="png",
                           filename="cup-1.png")
    return msg


def sent(msg: EmailMessage) -> tuple[bytes, EmailMessage]:
    """``msg`` as it goes over SMTP, and as the player's mail reader parses it."""
    data = msg.as_bytes(policy=policy.SMTP)
    back = email.message_from_bytes(data, policy=policy.default)
    assert isinstance(back, EmailMessage)
    return data, back


def calendar_parts(msg: Message) -> list[Message]:
    return [p for p in msg.walk() if p.get_content_type() == "text/calendar"]


# --- the UID ---------------------------------------------------------------------------------


def test_uid_is_stable_for_a_seat_and_differs_for_another_seat_or_game() -> None:
    first = calendars.uid("cup-1", "ann", DOMAIN)
    assert first == calendars.uid("cup-1", "ann", DOMAIN)
    assert re.fullmatch(r"adj\.cup-1\.[0-9a-f]{16}@club\.example", first)
    others = {calendars.uid("cup-1", "bob", DOMAIN), calendars.uid("cup-2", "ann", DOMAIN),
              calendars.uid("cup-1", "ann", "other.example")}
    assert first not in others and len(others) == 3
    # The events of successive deadlines carry that one UID.
    moved = [request(deadline=DEADLINE + timedelta(days=d), sequence=d) for d in range(3)]
    assert {str(event_of(ics)["UID"]) for ics in moved} == {first}


def test_uid_shows_the_game_and_nothing_of_the_player() -> None:
    name = "Zo\u00eb \u674e"
    made = calendars.uid("cup-1", name, DOMAIN)
    assert made.isascii()
    assert "Zo" not in made and "zo" not in made
    # The same name typed composed or decomposed is the same seat.
    assert made == calendars.uid("cup-1", unicodedata.normalize("NFD", name), DOMAIN)
    # A game's name that is not plain ASCII is a digest too, marked apart from every plain name.
    unusual = calendars.uid("Stra\u00dfe 1", "ann", DOMAIN)
    assert re.fullmatch(r"adj\.~[0-9a-f]{16}\.[0-9a-f]{16}@club\.example", unusual)
    assert unusual == calendars.uid(unicodedata.normalize("NFD", "Stra\u00dfe 1"), "ann", DOMAIN)
    games = ["cup-1", "Cup-1", "cup_1", "cup.1", "cup 1", "cup%201", "cup\u20131", "~cup-1"]
    assert len({calendars.uid(g, "ann", DOMAIN) for g in games}) == len(games)
    for domain in ("", "club example", "a@b", "x\r\nATTENDEE:mailto:evil@x"):
        with pytest.raises(ValueError):
            calendars.uid("cup-1", "ann", domain)


# --- the REQUEST ------------------------------------------------------------------------------


def test_request_carries_the_deadline_as_a_scheduled_event() -> None:
    ics = request()
    cal = parse(ics)
    assert str(cal["PRODID"]) == calendars.PRODID == "-//adjudicator//referee//EN"
    assert str(cal["VERSION"]) == "2.0"
    assert str(cal["METHOD"]) == "REQUEST"
    event = event_of(ics)
    assert set(event_property_names(ics)) == REQUEST_PROPERTIES
    assert event.decoded("DTSTART") == DEADLINE
    assert event.decoded("DURATION") == timedelta(0)
    assert "DTEND" not in event
    assert event.decoded("DTSTAMP") == NOW
    assert event["SEQUENCE"] == 0
    assert str(event["SUMMARY"]) == "Your move in cup-1"
    assert str(event["DESCRIPTION"]) == "Reply to this mail with your move."
    assert str(event["ORGANIZER"]) == f"mailto:{REFEREE}"
    attendee = event["ATTENDEE"]
    assert str(attendee) == f"mailto:{ANN}"
    assert attendee.params["PARTSTAT"] == "NEEDS-ACTION"
    assert attendee.params["RSVP"] == "FALSE"
    assert attendee.params["CN"] == "ann"
    assert str(event["STATUS"]) == "CONFIRMED"
    assert str(event["TRANSP"]) == "TRANSPARENT"
    # Times in UTC, written with Z: no VTIMEZONE needed.
    assert "DTSTART:20250304T180000Z" in content_lines(ics)
    assert not parse(ics).walk("VTIMEZONE")


def test_sequence_rises_as_the_deadline_moves() -> None:
    deadlines = [DEADLINE, DEADLINE + timedelta(days=1), DEADLINE + timedelta(days=1, hours=6)]
    events = [event_of(request(deadline=d, sequence=n, stamp=NOW + timedelta(days=n)))
              for n, d in enumerate(deadlines)]
    assert [e["SEQUENCE"] for e in events] == [0, 1, 2]
    assert [e.decoded("DTSTART") for e in events] == deadlines
    assert [e.decoded("DTSTAMP") for e in events] == [NOW + timedelta(days=n) for n in range(3)]
    assert len({str(e["UID"]) for e in events}) == 1


def test_the_alarm_rings_before_the_deadline() -> None:
    for before in (timedelta(hours=1), timedelta(minutes=20), timedelta(days=1)):
        ics = request(**({} if before == timedelta(hours=1) else {"alarm_before": before}))
        event = event_of(ics)
        alarms = event.walk("VALARM")
        assert len(alarms) == 1
        alarm = alarms[0]
        assert str(alarm["ACTION"]) == "DISPLAY"
        assert str(alarm["DESCRIPTION"]) == "Your move in cup-1"
        assert alarm["TRIGGER"].params.get("RELATED", "START") == "START"
        trigger = alarm.decoded("TRIGGER")
        assert trigger == -before
        assert event.decoded("DTSTART") + trigger < DEADLINE


def test_summary_and_description_are_the_callers() -> None:
    event = event_of(request(summary="cup-1: bob waits for you", description="Move by Friday.\nmove 3D"))
    assert str(event["SUMMARY"]) == "cup-1: bob waits for you"
    assert str(event["DESCRIPTION"]) == "Move by Friday.\nmove 3D"
    assert str(event.walk("VALARM")[0]["DESCRIPTION"]) == "cup-1: bob waits for you"
    assert "DESCRIPTION" not in event_of(request(description=""))


def test_the_same_arguments_give_the_same_bytes() -> None:
    # Nothing reads the clock: DTSTAMP is the injected stamp.
    assert request() == request()
    assert withdrawal() == withdrawal()


def test_an_aware_time_in_another_zone_is_written_in_utc() -> None:
    paris = timezone(timedelta(hours=1))
    ics = request(deadline=datetime(2025, 3, 4, 19, 0, 0, 999_999, tzinfo=paris))
    assert event_of(ics).decoded("DTSTART") == DEADLINE
    assert "DTSTART:20250304T180000Z" in content_lines(ics)


def test_a_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="no time zone"):
        request(deadline=datetime(2025, 3, 4, 18, 0))
    with pytest.raises(ValueError, match="no time zone"):
        request(stamp=datetime(2025, 3, 1, 9, 30))
    with pytest.raises(ValueError, match="no time zone"):
        calendars.cancel("cup-1", "ann", sequence=1, domain=DOMAIN, organizer=REFEREE, attendee=ANN,
                         stamp=NOW, deadline=datetime(2025, 3, 4, 18, 0))


def test_what_cannot_be_scheduled_is_refused() -> None:
    for sequence in (-1, True, 1.5):
        with pytest.raises(ValueError, match="SEQUENCE"):
            request(sequence=sequence)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="before the deadline"):
        request(alarm_before=timedelta(minutes=-5))
    for address in ("", "ann", "ann@example.org bob@example.org", "Ann <ann@example.org>",
                    "ann@example.org\r\nATTENDEE:mailto:evil@x", "ann@example.org;RSVP=TRUE",
                    "ann@example.org:x", "ann\u2028@example.org"):
        with pytest.raises(ValueError, match="address"):
            request(attendee=address)
        with pytest.raises(ValueError, match="address"):
            request(organizer=address)
    # A mailto: URI is taken as its address.
    assert str(event_of(request(attendee="MAILTO:ann@example.org"))["ATTENDEE"]) == f"mailto:{ANN}"
    with pytest.raises(ValueError):
        request(game="")
    with pytest.raises(ValueError):
        request(player="")


# --- the CANCEL -------------------------------------------------------------------------------


def test_cancel_takes_the_same_event_out() -> None:
    last = event_of(request(sequence=2))
    ics = withdrawal(sequence=3)
    cal = parse(ics)
    assert str(cal["METHOD"]) == "CANCEL"
    event = event_of(ics)
    assert set(event_property_names(ics)) == CANCEL_PROPERTIES
    assert str(event["UID"]) == str(last["UID"]) == calendars.uid("cup-1", "ann", DOMAIN)
    assert str(event["STATUS"]) == "CANCELLED"
    assert event["SEQUENCE"] == 3 > last["SEQUENCE"]
    assert event.decoded("DTSTART") == DEADLINE
    assert event.decoded("DTSTAMP") == NOW + timedelta(hours=2)
    assert str(event["ATTENDEE"]) == f"mailto:{ANN}"
    assert str(event["ORGANIZER"]) == f"mailto:{REFEREE}"
    assert not event.walk("VALARM")


# --- the mail ---------------------------------------------------------------------------------


def test_a_plain_text_mail_becomes_text_and_calendar_alternatives() -> None:
    msg = body_mail(attachments=False)
    ics = request()
    calendars.attach(msg, ics)
    data, back = sent(msg)
    assert back.get_content_type() == "multipart/alternative"
    kinds = [p.get_content_type() for p in back.iter_parts()]
    assert kinds == ["text/plain", "text/calendar"]
    assert back.get_body(("plain",)).get_content().replace("\r\n", "\n") == "Your move in cup-1.\n"
    part = calendar_parts(back)[0]
    assert part.get_param("method") == "REQUEST"
    assert part.get_content_charset() == "utf-8"
    assert part.get_content_disposition() is None
    assert [c.to_ical() for c in calendars.read(back)] == [ics]
    assert back["Subject"] == "[cup-1] Your move" and back["MIME-Version"] == "1.0"


def test_in_a_mail_with_attachments_the_body_and_calendar_are_alternatives() -> None:
    msg = body_mail()
    ics = request()
    calendars.attach(msg, ics)
    _, back = sent(msg)
    assert back.get_content_type() == "multipart/mixed"
    parts = list(back.iter_parts())
    assert [p.get_content_type() for p in parts] == ["multipart/alternative", "text/plain", "image/png"]
    assert [p.get_content_type() for p in parts[0].iter_parts()] == ["text/plain", "text/calendar"]
    assert [p.get_filename() for p in parts[1:]] == ["cup-1.txt", "cup-1.png"]
    assert parts[2].get_content() == b"\x89PNG\r\n\x1a\n-picture-"
    assert back.get_body(("plain",)).get_content().replace("\r\n", "\n") == "Your move in cup-1.\n"
    assert [c.to_ical() for c in calendars.read(back)] == [ics]


def test_a_text_and_html_mail_gets_the_calendar_as_its_last_alternative() -> None:
    msg = body_mail(html=True)
    calendars.attach(msg, request())
    _, back = sent(msg)
    alternative = next(back.iter_parts())
    assert [p.get_content_type() for p in alternative.iter_parts()] == \
        ["text/plain", "text/html", "text/calendar"]


def test_a_mail_without_a_text_body_gets_the_calendar_as_a_part() -> None:
    msg = EmailMessage(policy=policy.SMTP)
    msg["Subject"] = "picture"
    msg.add_attachment(b"png", maintype="image", subtype="png", filename="board.png")
    calendars.attach(msg, request())
    _, back = sent(msg)
    assert [p.get_content_type() for p in back.iter_parts()] == ["image/png", "text/calendar"]
    assert len(calendars.read(back)) == 1


def test_a_cancel_travels_as_method_cancel() -> None:
    msg = body_mail()
    ics = withdrawal()
    calendars.attach(msg, ics)
    _, back = sent(msg)
    part = calendar_parts(back)[0]
    assert part.get_param("method") == "CANCEL"
    [cal] = calendars.read(back)
    assert cal.to_ical() == ics
    assert str(cal.walk("VEVENT")[0]["STATUS"]) == "CANCELLED"


def test_unicode_names_survive_the_mail() -> None:
    game, player = "Stra\u00dfe \u676f 1", "Zo\u00eb \u674e"
    msg = body_mail()
    ics = request(game, player, description="\u00c0 toi, Zo\u00eb \u2014 ton coup.")
    calendars.attach(msg, ics)
    data, back = sent(msg)
    assert data.isascii()  # no 8BITMIME needed
    part = calendar_parts(back)[0]
    assert part["Content-Transfer-Encoding"] == "quoted-printable"
    [cal] = calendars.read(back)
    assert cal.to_ical() == ics
    event = cal.walk("VEVENT")[0]
    assert str(event["SUMMARY"]) == f"Your move in {game}"
    assert str(event["DESCRIPTION"]) == "\u00c0 toi, Zo\u00eb \u2014 ton coup."
    assert event["ATTENDEE"].params["CN"] == player
    assert str(event["UID"]) == calendars.uid(game, player, DOMAIN)


def test_an_ascii_calendar_travels_as_7bit() -> None:
    msg = body_mail()
    calendars.attach(msg, request())
    _, back = sent(msg)
    assert calendar_parts(back)[0]["Content-Transfer-Encoding"] == "7bit"


def test_a_fold_that_ends_in_a_space_is_protected() -> None:
    # A relay may strip white space at the end of a line; a fold of RFC 5545 can
    # leave one there, so such a calendar travels quoted-printable.
    for pad in range(80):
        ics = request(description="x" * pad + " " * 90 + "end")
        if re.search(rb"[ \t]\r\n", ics):
            break
    else:
        pytest.fail("no description folded after a space")
    msg = body_mail()
    calendars.attach(msg, ics)
    data, back = sent(msg)
    assert calendar_parts(back)[0]["Content-Transfer-Encoding"] == "quoted-printable"
    assert not re.search(rb"[ \t]\r\n", data)
    assert [c.to_ical() for c in calendars.read(back)] == [ics]


@pytest.mark.parametrize("player", ["ann", "Zo\u00eb \u674e", "x" * 300])
def test_lines_end_in_crlf_and_stay_short(player: str) -> None:
    ics = request("cup-1", player, description="A long description, " * 40 + "\u00e9" * 60)
    # The calendar as written: CRLF only, content lines folded within 75 octets.
    assert not re.search(rb"(?<!\r)\n", ics) and not re.search(rb"\r(?!\n)", ics)
    assert max(len(line) for line in ics.split(b"\r\n")) <= 75
    msg = body_mail()
    calendars.attach(msg, ics)
    data, back = sent(msg)
    # The whole mail on the wire: CRLF only, no line over RFC 5322's 998 octets.
    assert not re.search(rb"(?<!\r)\n", data) and not re.search(rb"\r(?!\n)", data)
    assert max(len(line) for line in data.split(b"\r\n")) <= 998
    # The part as the reader decodes it: the same CRLF lines.
    payload = calendar_parts(back)[0].get_payload(decode=True)
    assert isinstance(payload, bytes)
    assert payload == ics


def test_a_mail_already_carrying_a_calendar_or_signed_is_refused() -> None:
    msg = body_mail()
    calendars.attach(msg, request())
    with pytest.raises(ValueError, match="already"):
        calendars.attach(msg, withdrawal())
    signed = EmailMessage(policy=policy.SMTP)
    signed.set_content("body\n")
    signed.make_mixed()
    signed.replace_header("Content-Type", 'multipart/signed; protocol="application/pgp-signature"')
    with pytest.raises(ValueError, match="signed"):
        calendars.attach(signed, request())


def test_attach_wants_an_imip_calendar() -> None:
    no_method = request().replace(b"METHOD:REQUEST\r\n", b"")
    with pytest.raises(ValueError, match="METHOD"):
        calendars.attach(body_mail(), no_method)
    with pytest.raises(ValueError, match="CRLF"):
        calendars.attach(body_mail(), request().replace(b"\r\n", b"\n"))
    with pytest.raises(ValueError, match="UTF-8"):
        calendars.attach(body_mail(), request().replace(b"cup-1", b"cup-\xff"))
    with pytest.raises(ValueError, match="CRLF"):
        calendars.attach(body_mail(), request().replace(b"SUMMARY:Your", "SUMMARY:\u2028Your".encode()))
    with pytest.raises(TypeError):
        calendars.attach(Message(), request())  # type: ignore[arg-type]


def test_a_mail_read_from_bytes_takes_a_calendar_too() -> None:
    # As a composer that has the mail as bytes would: parse, attach, send.
    _, parsed = sent(body_mail())
    ics = request()
    calendars.attach(parsed, ics)
    _, back = sent(parsed)
    assert [p.get_content_type() for p in back.iter_parts()] == ["multipart/alternative", "text/plain", "image/png"]
    assert [c.to_ical() for c in calendars.read(back)] == [ics]


def tree(msg: Message) -> list[tuple[int, str, str | None, object]]:
    """Every part of ``msg``, depth first: its depth, type, file name and
    decoded content (the text as the reader gets it, CRLF or not)."""
    out: list[tuple[int, str, str | None, object]] = []

    def walk(part: Message, depth: int) -> None:
        content = None
        if not part.is_multipart():
            data = part.get_payload(decode=True)
            content = data.replace(b"\r\n", b"\n") if isinstance(data, bytes) else data
        out.append((depth, part.get_content_type(), part.get_filename(), content))
        if part.is_multipart():
            for inner in part.get_payload():  # type: ignore[union-attr]
                walk(inner, depth + 1)

    walk(msg, 0)
    return out


@pytest.mark.parametrize("attachments", [True, False])
def test_the_referees_own_writer_puts_the_calendar_where_attach_does(attachments: bool) -> None:
    """The referee writes its mails itself (postal.compose.mime: the email
    package took most of a timed game's time); a reader finds the same
    parts, headers and calendar as in the mail attach makes."""
    from adjudicator.postal.compose import mime

    ics = request()
    msg = body_mail(attachments=attachments)
    calendars.attach(msg, ics)
    _, expected = sent(msg)
    headers = [(k, str(v)) for k, v in msg.items() if k not in ("MIME-Version", "Content-Type",
                                                                "Content-Transfer-Encoding")]
    files = [("cup-1.txt", "text/plain", b"the log\n"),
             ("cup-1.png", "image/png", b"\x89PNG\r\n\x1a\n-picture-")] if attachments else []
    text, method, cte = calendars.checked(ics)
    assert (method, cte) == ("REQUEST", "7bit")
    data = mime(headers, "Your move in cup-1.\n", files, "seed", calendar=(text, method))
    back = email.message_from_bytes(data, policy=policy.default)
    assert tree(back) == tree(expected)
    assert [c.to_ical() for c in calendars.read(back)] == [ics]
    assert calendar_parts(back)[0]["Content-Type"] == calendar_parts(expected)[0]["Content-Type"]
    assert back["Subject"] == "[cup-1] Your move" and back["MIME-Version"] == "1.0"
    assert data == mime(headers, "Your move in cup-1.\n", files, "seed", calendar=(text, method))
    assert not re.search(rb"(?<!\r)\n", data) and max(map(len, data.split(b"\r\n"))) <= 78


def test_read_finds_nothing_in_a_mail_without_a_calendar() -> None:
    _, back = sent(body_mail())
    assert calendars.read(back) == []


# --- names that try to write properties -------------------------------------------------------


INJECTIONS = [
    "ann\r\nATTENDEE:mailto:evil@x",
    "ann\nATTENDEE:mailto:evil@x",
    "ann\rATTENDEE:mailto:evil@x",
    "ann\u2028ATTENDEE:mailto:evil@x",
    "ann\x85ATTENDEE:mailto:evil@x",
    "ann\x0bATTENDEE:mailto:evil@x",
    'ann";RSVP=TRUE:mailto:evil@x',
    "ann;RSVP=TRUE:mailto:evil@x,mailto:evil@y",
    "ann\r\n END:VEVENT\r\nBEGIN:VEVENT\r\nUID:x\r\nATTENDEE:mailto:evil@x",
    "ann\\nATTENDEE:mailto:evil@x^n\\",
]


@pytest.mark.parametrize("name", INJECTIONS)
def test_a_name_cannot_write_a_property(name: str) -> None:
    for ics in (request(name, name, summary=name, description=name), withdrawal(name, name)):
        event = event_of(ics)
        names = event_property_names(ics)
        assert names.count("ATTENDEE") == 1 and names.count("ORGANIZER") == 1
        assert names.count("UID") == 1 and names.count("SUMMARY") == 1
        assert set(names) <= REQUEST_PROPERTIES
        assert str(event["ATTENDEE"]) == f"mailto:{ANN}"
        assert event["ATTENDEE"].params["RSVP"] == "FALSE"
        assert not re.search(r'["\\^\n]', event["ATTENDEE"].params["CN"])
        assert str(event["UID"]) == calendars.uid(name, name, DOMAIN)
        # Neither name is in the UID as such.
        assert re.fullmatch(r"adj\.~[0-9a-f]{16}\.[0-9a-f]{16}@club\.example", str(event["UID"]))
        assert b"\r\nATTENDEE:mailto:evil" not in ics
        # The same after a trip through the mail.
        msg = body_mail()
        calendars.attach(msg, ics)
        _, back = sent(msg)
        [cal] = calendars.read(back)
        assert cal.to_ical() == ics
        attendees = cal.walk("VEVENT")[0]["ATTENDEE"]
        assert not isinstance(attendees, list) and str(attendees) == f"mailto:{ANN}"


def test_line_breaks_in_a_name_become_text_line_breaks() -> None:
    event = event_of(request(summary="one\r\ntwo\u2028three\x0bfour\x00five"))
    assert str(event["SUMMARY"]) == "one\ntwo\nthree\nfourfive"


# --- start-up ---------------------------------------------------------------------------------


def test_importing_the_module_does_not_load_icalendar() -> None:
    probe = ("import sys, adjudicator.calendars, adjudicator.cli\n"
             "print('icalendar' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
