"""Logs as mail delivers them (adjudicator.mailparse): messages built with the
standard library's email package exactly as mail clients send them, read
back to the one log or view file they hold; several copies resolved as
notation/text-form.md says, and anything ambiguous refused in one line."""

from __future__ import annotations

import random
import textwrap
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from functools import cache
from pathlib import Path

import msgspec
import pytest

from adjudicator import log, mailparse, match, referee, textform
from adjudicator.errors import BadLogError
from adjudicator.log import Log, ViewFile

ROOT = Path(__file__).resolve().parent.parent


@cache
def game() -> Log:
    """A finished Atlas game with comments a mail client could trip on."""
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    comment = 'Zo\u00eb\u2019s \u201cplan\u201d \u2014 a long comment ' * 4 + "\nsecond line"
    entries = [(e.by, e.move, comment if i % 5 == 2 else None) for i, e in enumerate(lg.moves)]
    bare = msgspec.structs.replace(lg, moves=())
    return msgspec.structs.replace(lg, moves=match.sealed(bare, entries))


@cache
def game_in_latin_1() -> Log:
    """The game with comments that Latin-1 can hold."""
    lg = game()
    entries = [(e.by, e.move, e.comment and "Zo\u00eb's plan, \u00a7 3 \u00bd") for e in lg.moves]
    return msgspec.structs.replace(lg, moves=match.sealed(msgspec.structs.replace(lg, moves=()), entries))


@cache
def older() -> Log:
    """The same game ten moves in: what the previous mail held."""
    return msgspec.structs.replace(game(), moves=game().moves[:10], result=None)


def mail(body: str | None = None, *, cte: str | None = None, charset: str = "utf-8",
         html: str | None = None, attachments: tuple[tuple[bytes, str, str, str], ...] = (),
         subject: str = "atlas: my move") -> bytes:
    """A message as a mail client sends it: headers, a body, alternatives, attachments."""
    m = EmailMessage()
    m["From"] = "Ann <ann@example.org>"
    m["To"] = "Rita <rita@example.org>"
    m["Subject"] = subject
    if body is not None:
        m.set_content(body, charset=charset, cte=cte)
    if html is not None:
        if body is None:
            m.set_content(html, subtype="html")
        else:
            m.add_alternative(html, subtype="html")
    for data, maintype, subtype, name in attachments:
        m.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return m.as_bytes(policy=policy.SMTP)


def quoted(text: str, prefix: str = "> ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def same(value: Log | ViewFile, expected: Log | ViewFile) -> bool:
    return log.encode(value) == log.encode(expected)


GREETING = "Hi Rita,\n\nhere is my move. Gr\u00fc\u00dfe \u2014 \u201cAnn\u201d\n\n"
SIGNATURE = "\n-- \nAnn\n"


# --- What is not a message ------------------------------------------------------------------


def test_a_json_file_is_read_as_json() -> None:
    data = log.encode(game())
    assert same(mailparse.extract(data, "game.json"), game())
    assert same(mailparse.extract(data.decode(), "game.json"), game())
    with pytest.raises(BadLogError, match=r"^game.json: Object missing required field `version`$"):
        mailparse.extract(b'{"format": "adjudicator-log"}', "game.json")
    with pytest.raises(BadLogError, match="a file of format 'adjudicator-secret'"):
        mailparse.extract(b'{"format": "adjudicator-secret", "version": 2}', "s.json")


def test_a_pasted_text_form_or_body_is_read() -> None:
    text = textform.dumps(game())
    assert same(mailparse.extract(text.encode(), "paste"), game())
    body = GREETING + quoted(text) + SIGNATURE
    assert same(mailparse.extract(body.encode("cp1252"), "paste"), game())
    assert same(mailparse.extract(body, "paste"), game())


def test_what_looks_like_a_mail() -> None:
    assert mailparse.looks_like_mail(mail("hi"))
    assert mailparse.looks_like_mail(b"From ann@example.org Mon Nov 23 09:15:00 2026\nSubject: x\n\nhi")
    assert not mailparse.looks_like_mail(textform.dumps(game()).encode())
    assert not mailparse.looks_like_mail(b"Note: the game is below\n\n...")
    assert not mailparse.looks_like_mail(log.encode(game()))


# --- Where a message may carry the log ------------------------------------------------------


@pytest.mark.parametrize(
    ("charset", "cte"),
    [("utf-8", "quoted-printable"), ("utf-8", "base64"), ("utf-8", "8bit"),
     ("us-ascii", "7bit"), ("latin-1", "quoted-printable"), ("latin-1", "8bit"),
     ("cp1252", "quoted-printable"), ("cp1252", "8bit")],
)
def test_the_text_form_inline_in_any_encoding(charset: str, cte: str) -> None:
    greeting = GREETING if charset == "cp1252" else "Hi Rita,\n\nhere is my move. Gr\u00fc\u00dfe\n\n"
    if charset == "us-ascii":
        greeting = "Hi Rita,\n\n"
    data = mail(greeting + textform.dumps(game()) + SIGNATURE, charset=charset, cte=cte)
    sent = BytesParser(policy=policy.default).parsebytes(data)
    assert sent.get_content_charset() in (charset, "iso-8859-1")
    assert sent["Content-Transfer-Encoding"] == cte
    assert same(mailparse.extract(data, "mail.eml"), game())


@pytest.mark.parametrize(
    ("maintype", "subtype", "name"),
    [("application", "json", "game.json"), ("application", "octet-stream", "game.json"),
     ("text", "plain", "game.txt"), ("application", "octet-stream", "atlas")],
)
def test_the_json_log_attached(maintype: str, subtype: str, name: str) -> None:
    data = mail("See the attached file.", attachments=((log.encode(game()), maintype, subtype, name),))
    assert same(mailparse.extract(data, "mail.eml"), game())
    [found] = mailparse.extract_all(data, "mail.eml")
    assert found.where.startswith(f"attachment {name!r}") and found.depth == 0


def test_the_text_form_attached_in_latin_1() -> None:
    m = EmailMessage()
    m["From"], m["Subject"] = "ann@example.org", "move"
    m.set_content("attached")
    m.add_attachment("Gr\u00fc\u00dfe\n" + textform.dumps(game()), subtype="plain",
                     charset="latin-1", cte="quoted-printable", filename="game.txt")
    assert same(mailparse.extract(m.as_bytes(), "mail.eml"), game())


def test_a_json_log_with_non_ascii_attached_in_latin_1() -> None:
    m = EmailMessage()
    m["From"], m["Subject"] = "ann@example.org", "move"
    m.set_content("attached")
    latin = game_in_latin_1()
    m.add_attachment(log.encode(latin).decode(), subtype="plain", charset="latin-1", filename="g.json")
    assert b"charset=\"iso-8859-1\"" in m.as_bytes()
    found = mailparse.extract(m.as_bytes(), "mail.eml")
    assert same(found, latin) and "Zo\u00eb" in (found.moves[2].comment or "")


def test_multipart_alternative_reads_the_plain_text() -> None:
    text = textform.dumps(game())
    html = "<html><body><p>Hi</p><pre>" + text.replace("&", "&amp;").replace("<", "&lt;") + "</pre></body></html>"
    data = mail(GREETING + text, html=html)
    assert b"multipart/alternative" in data
    found = mailparse.extract_all(data, "mail.eml")
    assert len(found) == 1 and same(found[0].value, game())


def test_an_html_only_mail_with_a_quoted_older_copy() -> None:
    def html_of(text: str) -> str:
        return "<br>\n".join(line.replace(" ", "&nbsp;") for line in text.splitlines())

    body = ("<div>Hi Rita,</div><div>" + html_of(textform.dumps(game())) + "</div>"
            "<div>On Monday, Rita wrote:</div><blockquote type=\"cite\">"
            + html_of(textform.dumps(older())) + "</blockquote>")
    data = mail(html=body)
    found = mailparse.extract_all(data, "mail.eml")
    assert [f.depth for f in found] == [0, 1]
    assert same(mailparse.extract(data, "mail.eml"), game())


def test_format_flowed_with_delsp_is_unflowed() -> None:
    """A client that wraps its lines with soft breaks, splitting long words
    with DelSp=yes (RFC 3676)."""
    lines = []
    for line in textform.dumps(game()).splitlines():
        while len(line) > 40:
            cut = line.rfind(" ", 0, 40)
            cut = 40 if cut <= 0 else cut + 1
            # A soft break is a space added at the end of the line, which the
            # reader deletes again (DelSp): words may be split anywhere.
            lines.append(line[:cut] + " ")
            line = line[cut:]
        lines.append(line)
    m = EmailMessage()
    m["From"], m["Subject"] = "ann@example.org", "move"
    m.set_content("\n".join(lines) + "\n", params={"format": "flowed", "delsp": "yes"})
    assert m.get_param("format") == "flowed" and m.get_param("delsp") == "yes"
    assert same(mailparse.extract(m.as_bytes(), "mail.eml"), game())


def test_unflow() -> None:
    assert mailparse.unflow("one \ntwo\n> a \n> b\nthree") == "one two\n> a b\nthree"
    assert mailparse.unflow("wo \nrd", delsp=True) == "word"
    assert mailparse.unflow("-- \nAnn") == "-- \nAnn"


def test_a_forwarded_message_counts_as_quoted() -> None:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "rita@example.org", "the game"
    inner.set_content(textform.dumps(older()))
    outer = EmailMessage()
    outer["From"], outer["Subject"] = "ann@example.org", "Fwd: the game"
    outer.set_content(textform.dumps(game()))
    outer.add_attachment(inner)
    found = mailparse.extract_all(outer.as_bytes(), "fwd.eml")
    assert sorted(f.depth for f in found) == [0, 1]
    assert same(mailparse.extract(outer.as_bytes(), "fwd.eml"), game())
    only = EmailMessage()
    only["From"], only["Subject"] = "ann@example.org", "Fwd"
    only.set_content("see below")
    only.add_attachment(inner)
    assert same(mailparse.extract(only.as_bytes(), "fwd.eml"), older())


def test_a_message_re_wrapped_and_quoted_by_a_client() -> None:
    text = textform.dumps(game())
    wrapped = "\n".join(
        textwrap.fill(line, 60, break_long_words=False, break_on_hyphens=False) or line
        for line in quoted(quoted(text)).splitlines()
    )
    data = mail("Bob wrote:\n" + wrapped, cte="quoted-printable")
    assert same(mailparse.extract(data, "mail.eml"), game())


# --- Several copies -------------------------------------------------------------------------


def test_a_reply_quoting_the_previous_mail_gives_the_reply() -> None:
    body = GREETING + textform.dumps(game()) + "\nOn Monday, Rita wrote:\n" + quoted(textform.dumps(older()))
    data = mail(body)
    assert [f.depth for f in mailparse.extract_all(data, "m")] == [0, 1]
    assert same(mailparse.extract(data, "m"), game())


def test_the_own_copy_wins_over_a_newer_quoted_one() -> None:
    """What the sender sends is what counts, even if it is older than what
    they quote; the referee then sees it answers an old position."""
    data = mail(textform.dumps(older()) + "\n" + quoted(textform.dumps(game())))
    assert same(mailparse.extract(data, "m"), older())


def test_only_quoted_copies_are_read_when_there_is_no_other() -> None:
    data = mail("I agree with this:\n" + quoted(textform.dumps(older())) + SIGNATURE)
    assert same(mailparse.extract(data, "m"), older())


def test_the_same_log_attached_and_pasted_counts_once() -> None:
    data = mail(textform.dumps(game()), attachments=((log.encode(game()), "application", "json", "g.json"),))
    assert len(mailparse.extract_all(data, "m")) == 2
    assert same(mailparse.extract(data, "m"), game())


def test_an_older_and_a_newer_copy_side_by_side_give_the_newer() -> None:
    data = mail(textform.dumps(older()), attachments=((log.encode(game()), "application", "json", "g.json"),))
    assert same(mailparse.extract(data, "m"), game())


def test_two_copies_that_part_are_refused() -> None:
    rep = match.validate(older())
    other = next(m for m in (rep.game.format_move(rep.state, x) for x in rep.game.legal_moves(rep.state))
                 if m != game().moves[10].move)
    fork = match.extend(older(), [other])
    data = mail(textform.dumps(game()), attachments=((log.encode(fork), "application", "json", "fork.json"),))
    with pytest.raises(BadLogError) as info:
        mailparse.extract(data, "mail.eml")
    assert str(info.value).startswith("mail.eml: holds two copies of one game that part at move 11 (")
    assert "attachment 'fork.json'" in str(info.value)


def test_two_games_are_refused() -> None:
    other = match.simulate("q-turn", ["ann", "bob"], "other", max_moves=4)
    data = mail(textform.dumps(game()) + "\nand the other one:\n" + textform.dumps(other))
    with pytest.raises(BadLogError) as info:
        mailparse.extract(data, "mail.eml")
    message = str(info.value)
    assert message.startswith("mail.eml: holds 2 different games (the body, line 1: atlas (ann, bob) after")
    assert "q-turn (ann, bob) after move 4" in message and "\n" not in message


def test_a_message_without_a_log_is_one_clear_line() -> None:
    with pytest.raises(BadLogError) as info:
        mailparse.extract(mail("Hi Rita, I will send my move tomorrow."), "mail.eml")
    assert str(info.value) == (
        "mail.eml: holds no adjudicator log or view file (no JSON log and no "
        "'-----BEGIN ADJUDICATOR LOG-----' block)"
    )


def test_a_damaged_copy_in_a_message_names_the_part_and_the_line() -> None:
    text = textform.dumps(game()).replace(" 5. ann 1S+5T", " 5. ann 1S+4T")
    with pytest.raises(BadLogError, match=r"^mail.eml: the body: line \d+: the chain head does not follow"):
        mailparse.extract(mail(GREETING + text), "mail.eml")
    broken = log.encode(game()).replace(b'"version": 1', b'"version": "1"')
    with pytest.raises(BadLogError, match=r"^mail.eml: attachment 'g.json': Expected `int`, got `str`"):
        mailparse.extract(mail("x", attachments=((broken, "application", "json", "g.json"),)), "mail.eml")


def test_a_json_log_pasted_in_a_body_and_re_wrapped() -> None:
    """JSON in a body is found too; strings a client broke are joined again."""
    lines = []
    for line in log.encode(game()).decode().splitlines():
        lines += textwrap.wrap(line, 60, break_long_words=False, break_on_hyphens=False,
                               drop_whitespace=False) or [line]
    data = mail("Here:\n" + quoted("\n".join(lines)), cte="quoted-printable")
    assert same(mailparse.extract(data, "m"), game())


def test_a_marker_inside_a_json_comment_is_not_a_block() -> None:
    lg = msgspec.structs.replace(
        older(), moves=match.sealed(msgspec.structs.replace(older(), moves=()),
                                    [(e.by, e.move, "-----BEGIN ADJUDICATOR LOG-----") for e in older().moves]))
    data = mail("json:\n" + log.encode(lg).decode())
    assert same(mailparse.extract(data, "m"), lg)


# --- A refereed game by mail ----------------------------------------------------------------


def test_a_view_file_goes_out_and_comes_back_by_mail() -> None:
    lg, secret = match.new_refereed("atlas", ["ann", "bob"], seed="by-mail")
    vf = referee.issue_view(lg, secret, "ann")
    sent = mail("Your turn, Ann:\n\n" + textform.dumps(vf), subject="atlas: ann to move")
    received = mailparse.extract(sent, "inbox")
    assert isinstance(received, ViewFile) and same(received, vf)
    answered = referee.choose(received, received.legal[0], "here you go")
    body = "Here is my move.\n\n" + textform.dumps(answered) + "\n\nOn Monday, Rita wrote:\n" + quoted(
        "Your turn, Ann:\n\n" + textform.dumps(vf))
    reply = mail(body, cte="quoted-printable", subject="Re: atlas: ann to move")
    back = mailparse.extract(reply, "reply.eml")
    assert isinstance(back, ViewFile) and back.move is not None
    assert referee.accept(lg, secret, back).moves[-1].move == received.legal[0]


def test_a_view_file_wins_over_its_log_in_one_message() -> None:
    lg, secret = match.new_refereed("atlas", ["ann", "bob"], seed="both")
    vf = referee.issue_view(lg, secret, "ann")
    data = mail(textform.dumps(vf), attachments=((log.encode(lg), "application", "json", "atlas.json"),))
    assert same(mailparse.extract(data, "m"), vf)


def test_html_text() -> None:
    html = "<p>a&nbsp;b</p><blockquote><div>c<br>d</div><blockquote>e</blockquote></blockquote><script>x</script>"
    lines = [line for line in mailparse.html_text(html).splitlines() if line.strip(" >")]
    assert lines == ["a\u00a0b", "> c", "> d", "> > e"]


def test_a_damaged_message_is_one_error_line() -> None:
    """Whatever the bytes, extract raises BadLogError and nothing else."""
    rng = random.Random(23)
    good = mail(textform.dumps(older()), attachments=((log.encode(older()), "application", "json", "g.json"),))
    noise = [b"\r\n", b"--", b"=", b"=?utf-8?q?x?=", b"Content-Type: multipart/mixed; boundary=", b"\x00",
             b"\xff", b"base64", b"charset=nonsense", b";", b'"', b"\r\n\r\n", b"=C3", b"{"]
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            if rng.random() < 0.5:
                del data[i:i + rng.randint(1, 40)]
            else:
                data[i:i] = rng.choice(noise)
        try:
            value = mailparse.extract(bytes(data), "fuzz.eml")
        except BadLogError as e:
            assert "\n" not in str(e)
        else:
            assert same(value, older())


def test_a_clipped_quote_in_the_body_does_not_hide_the_attachment() -> None:
    clipped = "\n".join(textform.dumps(older()).splitlines()[:12])
    data = mail("Here is my move.\n\nOn Monday, Rita wrote:\n" + quoted(clipped),
                attachments=((log.encode(game()), "application", "json", "atlas.json"),))
    assert same(mailparse.extract(data, "m"), game())
    alone = mail("Here is my move.\n\n" + clipped)
    with pytest.raises(BadLogError, match=r"^m: the body: line 12: a text that opens here is never closed"):
        mailparse.extract(alone, "m")


def test_extract_found_says_the_form() -> None:
    assert mailparse.extract_found(log.encode(game()), "g.json").form == "json"
    found = mailparse.extract_found(mail(GREETING + textform.dumps(game())), "m")
    assert (found.form, found.where, found.depth) == ("text", "the body, line 5", 0)
