"""Logs and view files on forums (issue #26): a post may start with ``[``;
``convert --to forum`` writes a code block that survives the forum's
rendering, read back from the rendered page and from its text; a text form
pasted over several chat messages reads back with the chat's lines in it.

The forums are imitated with real renderers: markdown-it-py (CommonMark,
as Discourse, Reddit and GitHub render) and bbcode (phpBB's markup).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import bbcode
import pytest
from markdown_it import MarkdownIt
from test_cli import assert_usage, run
from test_textform import refereed, views

from adjudicator import games, log, mailparse, match, referee, textform
from adjudicator.errors import BadLogError
from adjudicator.log import Log, ViewFile

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "atlas" / "3-players.json"  # a version 1 log


def _values() -> list[Log | ViewFile]:
    """A v1 example log, and view files of a refereed game: signatures broken
    with ``\\`` soft breaks, comments full of escapes, quotes and braces."""
    vs = views()
    return [log.decode(EXAMPLE.read_bytes()), vs[1], vs[-1]]


def page_text(page: str) -> str:
    """What a reader copies from the rendered page: the text, no markup."""
    page = re.sub(r"<br\s*/?>", "\n", page)
    return html.unescape(re.sub(r"<[^>]*>", "", page))


def inner_text(page: str) -> str:
    """What a browser gives as the text of the rendered page (``innerText``,
    what a reader copies): a line break for each <br> and between blocks
    (paragraphs, list items), every other run of white space one space.
    (tests/test_browser.py holds it against Chromium's.)"""
    page = re.sub(r"\s+", " ", page)
    page = re.sub(r"<br\s*/?>\s*", "\n", page)
    page = re.sub(r"\s*</?(?:p|li|ol|ul|pre|h[1-6]|blockquote)\b[^>]*>\s*", "\n", page)
    return html.unescape(re.sub(r"<[^>]*>", "", page))


def same(a: Log | ViewFile, b: Log | ViewFile) -> bool:
    return log.encode(a) == log.encode(b)


# --- a post that starts with "[" -----------------------------------------------------------


@pytest.mark.parametrize("first", ['[q="ann"]Your move![/q]', "[b]Round 2[/b]",
                                   "[Round 2](https://example.org/cup) of the cup:"])
def test_a_post_starting_with_a_bracket_is_read_as_text(tmp_path: Path, first: str) -> None:
    post = tmp_path / "post.txt"
    post.write_text(first + "\n\n" + textform.dumps(log.decode(EXAMPLE.read_bytes())))
    result = run("validate", post)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok ")


def test_a_json_array_is_still_refused_as_json(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[1, 2]\n")
    result = run("validate", path)
    assert result.exit_code == 1 and "Expected `object`, got `array`" in result.stderr


# --- convert --to forum --------------------------------------------------------------------


@pytest.mark.parametrize("value", _values(), ids=["v1-log", "view", "view-at-end"])
def test_a_markdown_code_block_survives_rendering(value: Log | ViewFile) -> None:
    post = textform.forum(value, "markdown")
    assert post.startswith("```text\n") and textform.dumps(value) in post
    page = MarkdownIt("commonmark").render("Round 2, over to you:\n\n" + post + "\nCheers\n")
    assert "&quot;" in page  # the forum escapes what the text form holds
    assert same(mailparse.extract(page), value)  # the page as saved
    assert same(mailparse.extract(page_text(page)), value)  # the post as copied


@pytest.mark.parametrize("value", _values(), ids=["v1-log", "view", "view-at-end"])
def test_a_bbcode_code_block_survives_rendering(value: Log | ViewFile) -> None:
    post = textform.forum(value, "bbcode")
    assert post.startswith("[code]\n") and post.endswith("[/code]\n")
    page = bbcode.render_html("[b]Round 2[/b]\n" + post + "[i]Cheers[/i]")
    assert same(mailparse.extract(page), value)
    assert same(mailparse.extract(page_text(page)), value)


def test_a_comment_cannot_close_the_code_block() -> None:
    lg = match.simulate("atlas", ["ann", "bob"], "fence", max_moves=3)
    comment = "a ```fence``` and [/CODE] and [/code] inside"
    rep = match.validate(lg)
    lg = match.extend(lg, [rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])],
                      comment=comment)
    md = textform.forum(lg, "markdown")
    assert md.startswith("````text\n") and md.endswith("\n````\n")
    assert same(mailparse.extract(page_text(MarkdownIt("commonmark").render(md))), lg)
    bb = textform.forum(lg, "bbcode")
    body = bb[len("[code]\n"):-len("[/code]\n")]
    assert "[/code]" not in body.lower() and body.count("\\u005b/") == 2
    page = bbcode.render_html(bb)
    assert page.count("<code>") == 1 and page.rstrip().endswith("</code>")
    back = mailparse.extract(page_text(page))
    assert same(back, lg) and isinstance(back, Log) and back.moves[-1].comment == comment


def test_convert_to_forum_on_the_command_line(tmp_path: Path) -> None:
    for style, start in (("markdown", "```text"), ("bbcode", "[code]")):
        out = tmp_path / f"{style}.txt"
        result = run("convert", EXAMPLE, "--to", "forum", "--style", style, "-o", out)
        assert result.exit_code == 0, result.output
        assert out.read_text().startswith(start + "\n")
        assert run("validate", out).exit_code == 0
    assert run("convert", EXAMPLE, "--to", "forum").stdout.startswith("```text\n")
    assert_usage(run("convert", EXAMPLE, "--to", "text", "--style", "bbcode"), "--style")
    assert_usage(run("convert", EXAMPLE, "--to", "forum", "--style", "html"), "markdown or bbcode")


# --- a chat paste over several messages ------------------------------------------------------


def _discord(text: str, fenced: bool, header: str) -> str:
    """``text`` posted as three Discord messages, copied back with their headers."""
    lines = text.splitlines()
    # One cut right after a "\" soft break (the signature's), the other in the moves.
    soft = next(i for i, line in enumerate(lines) if line.endswith("\\")) + 1
    cuts = sorted({0, soft, (soft + len(lines)) // 2, len(lines)})
    out = ["Here it is, in three parts:", ""]
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
        out.append(header.format(i=i))
        out += ["```text"] if fenced else []
        out += lines[a:b]
        out += ["```", ""] if fenced else [""]
    return "\n".join(out)


@pytest.mark.parametrize("fenced", [True, False], ids=["fenced", "bare"])
@pytest.mark.parametrize("header", ["ann \u2014 Today at 10:0{i}", "Ann Smith \u2014 11/26/2026 10:0{i} PM",
                                    "ann Yesterday at 9:1{i} AM"])
def test_a_text_form_split_over_chat_messages_reads_back(fenced: bool, header: str) -> None:
    value = _values()[1]
    paste = _discord(textform.dumps(value), fenced, header)
    assert same(mailparse.extract(paste), value)


def test_a_damaged_chat_paste_is_still_refused() -> None:
    value = _values()[1]
    paste = _discord(textform.dumps(value), True, "ann \u2014 Today at 10:0{i}")
    # A lost line is no chat line: the check still finds it.
    lines = paste.splitlines()
    lost = next(i for i, line in enumerate(lines) if line.startswith("[Legal"))
    with pytest.raises(Exception, match="line"):
        mailparse.extract("\n".join(lines[:lost] + lines[lost + 1:]))



# --- a text form posted bare, outside a code block ----------------------------------------------

BARE = ["atlas/3-players", "fifteen-days/2-players", "q-turn/2-players-sample",
        "time-palatrix/3-players", "turn-of-time/2-players"]


@pytest.mark.parametrize("name", BARE)
def test_a_bare_text_form_reads_back_after_markdown_made_its_moves_a_list(name: str) -> None:
    """Posted outside a code block, the moves (``1. ann 3W``) become a
    numbered list and lose their numbers when rendered: a move without its
    number is read as the next one, the digest chain checking the order."""
    lg = log.decode((ROOT / "examples" / f"{name}.json").read_bytes())
    text = textform.dumps(lg)
    page = MarkdownIt("commonmark").render("Round 2:\n\n" + text)
    # (no "\\" a Markdown renderer eats: a soft break, an escaped punctuation mark)
    assert "<ol>" in page and not re.search(r"\\[\s!-/:-@\[-`{-~]", text)
    assert same(mailparse.extract(page), lg)
    assert same(mailparse.extract(page_text(page)), lg)


def test_a_move_without_its_number_is_still_checked() -> None:
    lg = log.decode(EXAMPLE.read_bytes())
    lines = textform.dumps(lg).splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(" 2. "))
    swapped = lines[:i] + [lines[i + 1].split(". ", 1)[1], lines[i].split(". ", 1)[1]] + lines[i + 2:]
    with pytest.raises(Exception, match="line"):
        mailparse.extract("\n".join(swapped))


# --- what Markdown ate, put back ------------------------------------------------------------


def markdown_post(text: str) -> str:
    return MarkdownIt("commonmark").render("Round 2, over to you:\n\n" + text + "\nCheers\n")


def _bare_values(game_id: str) -> list[Log | ViewFile]:
    """A refereed game (tests/test_textform.py): its log after a move whose
    comment holds quotes, braces and a backslash at the end of a line, and
    at its end (five such comments); view files of each player (signatures
    and proofs with soft breaks), after two moves, and one at the end."""
    logs, secret, _ = refereed(game_id, max(games.GAMES[game_id].players))
    vs = [referee.issue_view(logs[2], secret, p) for p in logs[2].players[:2]]
    return [logs[1], logs[-1], *vs, referee.issue_view(logs[-1], secret, logs[-1].players[1])]


@pytest.mark.parametrize("game_id", sorted(games.GAMES))
def test_a_bare_text_form_reads_back_though_markdown_ate_its_escapes(game_id: str) -> None:
    """Outside a code block Markdown eats the "\\" before punctuation
    (``\\}`` in a comment is ``}``, ``\\\\`` is ``\\``) and of each soft
    break. Where the likeliest reading fails, the reader tries the readings
    that put a "\\" back at a few places, the check sum telling which is
    the text written: every refereed log and view file reads back, from the
    page and from the text a browser shows of it."""
    for value in _bare_values(game_id):
        text = textform.dumps(value)
        page = markdown_post(text)
        shown = inner_text(page)
        assert "\\}" in text and "\\}" not in shown  # an escape eaten: "}" ends a comment
        assert "\\\n" in text and "\\\n" not in shown  # soft breaks eaten
        assert same(mailparse.extract(page), value)
        assert same(textform.loads(shown), value)


@pytest.mark.parametrize("comment", ['a "quoted" word {in braces} \\o/', "C:\\new\\table",
                                     "a } then \\} and \\\\ and \\n"])
def test_a_bare_post_with_backslashes_and_braces_reads_back(comment: str) -> None:
    lg = match.simulate("atlas", ["ann", "bob"], "bare", max_moves=3)
    rep = match.validate(lg)
    lg = match.extend(lg, [rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])],
                      comment=comment)
    page = markdown_post(textform.dumps(lg))
    assert same(mailparse.extract(page), lg)
    assert same(mailparse.extract(inner_text(page)), lg)


def test_emphasis_is_put_back_from_the_page_and_else_refused_saying_why(tmp_path: Path) -> None:
    """``*really*`` renders as <em>really</em>, `` `code` `` as
    <code>code</code>: the page tells where the marks were (a "*" or a
    "_", for each: the check sum tells which); the text a browser shows
    does not, and is refused with one line that says what happened and
    what to do."""
    lg = match.simulate("q-turn", ["ann", "bob"], "emphasis", max_moves=3)
    rep = match.validate(lg)
    move = rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])
    for comment in ("that was *really* good, **very**", "a __bold__ and _quiet_ move",
                    "*mixed* and _marks_, `legal --explain` next time"):
        value = match.extend(lg, [move], comment=comment)
        page = markdown_post(textform.dumps(value))
        assert "<em>" in page and ("<strong>" in page or "<code>" in page)
        assert same(mailparse.extract(page), value)
        post = tmp_path / "post.txt"
        post.write_text(inner_text(page))
        with pytest.raises(textform.ForumDamageError) as caught:
            mailparse.extract(post.read_text())
        message = str(caught.value)
        assert "damaged by a forum's Markdown" in message and "--to forum" in message
        result = run("validate", post)
        assert result.exit_code == 1 and result.stdout == ""
        assert len(result.stderr.splitlines()) == 1 and "--to forum" in result.stderr


def test_damage_that_is_not_markdown_is_not_blamed_on_it() -> None:
    """A line lost in a mail (numbers kept: no Markdown list) keeps its own message."""
    lg = log.decode((ROOT / "examples/atlas/2-players.json").read_bytes())
    changed = textform.dumps(lg).replace(" 5. ann 1S+5T", " 5. ann 1S+4T")
    assert changed != textform.dumps(lg)
    with pytest.raises(BadLogError) as caught:
        mailparse.extract(changed)
    assert not isinstance(caught.value, textform.ForumDamageError)


def test_a_hostile_post_costs_a_bounded_search() -> None:
    """A post built to hold thousands of places where a "\\" may have
    been eaten, whose check sum matches no reading, is refused after a
    bounded search: a small multiple of the time one reading of it takes."""
    import time

    lg = match.simulate("atlas", ["ann", "bob"], "hostile", max_moves=3)
    rep = match.validate(lg)
    move = rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])
    lg = match.extend(lg, [move], comment='}\\" ' * 2000)
    text = textform.dumps(lg)
    shown = inner_text(markdown_post(text))
    bad = re.sub(r"\[Check [0-9a-f]+\]", "[Check 0123456789abcdef]", shown)
    start = time.process_time()
    assert same(mailparse.extract(shown), lg)
    once = time.process_time() - start
    start = time.process_time()
    with pytest.raises(textform.ForumDamageError):
        mailparse.extract(bad)
    assert time.process_time() - start < 40 * once + 0.5


def test_a_bare_view_file_of_a_first_move_reads_back() -> None:
    """A view file at the start (no move yet: no list Markdown could make)
    with the player's move and comment: the soft breaks all eaten tell
    the text a browser shows of a post; a page tells by being one."""
    value = next(v for v in views() if not v.log.moves and v.move and "\\}" in textform.dumps(v))
    page = markdown_post(textform.dumps(value))
    assert "<ol>" not in page
    assert same(mailparse.extract(page), value)
    assert same(mailparse.extract(inner_text(page)), value)
