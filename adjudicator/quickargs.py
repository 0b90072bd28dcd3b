"""Read a plain command line as Typer would, without building the command.

Before Typer runs a command it turns each of its parameters into a click
parameter with a pydantic type adapter. That costs even a hello-world Typer
app most of its start-up (pydantic alone is some 80 ms of ~200), and a player
pays it on every ``adjudicator show``.

:func:`read` reads a command line in the forms people type straight from the
command's signature (the same ``typer.Option``/``typer.Argument`` declarations
Typer reads), and gives the keyword arguments Typer would call the command
with. The forms are: positional arguments, ``-`` for standard input, flags,
``--option VALUE``, ``--option=VALUE``, ``-o VALUE``, list options given
several times, and numbers written plainly (``7``, ``2.5``). Anything else
gives ``None`` and Typer builds and runs the command as usual: ``--help``,
``--``, clustered or glued short options (``-pann``), an unknown option, a
value that starts with ``-``, a missing or extra argument, a number written
any other way, a parameter declared with anything beyond names, help text, a
metavar and a default (a callback, an environment variable, a prompt...), a
type other than ``str``, ``int``, ``float``, ``bool`` and lists of ``str``.
Declining is always safe: Typer then gives the usage errors and help texts.

``tests/test_quickargs.py`` holds :func:`read` to Typer's own reading on
thousands of random command lines for every command of the CLI.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Sequence
from typing import Any, NamedTuple

from typer.core import TyperCommand
from typer.models import ArgumentInfo, CommandInfo, OptionInfo, ParameterInfo
from typer.utils import get_params_from_function

# Numbers Typer and we read alike: digits only, no sign, no leading zero, no
# underscore or exponent, no other script's digits (int("٣") is 3).
_INT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z", re.ASCII)
_FLOAT = re.compile(r"(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,6})?\Z", re.ASCII)

# What a declaration may set for us to read it; anything else (a callback, an
# environment variable, a prompt, a count, a path check...) is Typer's to do.
_PLAIN = {"default", "param_decls", "help", "metavar", "hidden", "show_default",
          "rich_help_panel", "show_choices", "show_envvar", "min", "max"}
_OPTION_DEFAULTS = vars(OptionInfo())
_ARGUMENT_DEFAULTS = vars(ArgumentInfo())


class _Param(NamedTuple):
    name: str
    kind: type  # str, int, float or bool (a flag)
    many: bool  # a list: a repeatable option, or an argument taking the rest
    required: bool
    default: Any
    low: int | float | None  # a number's bounds (typer.Option(min=..., max=...))
    high: int | float | None


class _Command(NamedTuple):
    options: dict[str, tuple[_Param, bool]]  # "--as" -> (param, value of a flag)
    arguments: tuple[_Param, ...]
    params: tuple[_Param, ...]


def _kind(annotation: Any) -> tuple[type, bool] | None:
    """(scalar type, is a list) of a plain annotation, else None."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1 or len(typing.get_args(annotation)) != 2:
            return None
        return _kind(args[0])
    if origin is list:
        return (str, True) if typing.get_args(annotation) == (str,) else None
    if annotation in (str, int, float, bool):
        return annotation, False
    return None


def _plain(info: ParameterInfo) -> bool:
    defaults = _OPTION_DEFAULTS if isinstance(info, OptionInfo) else _ARGUMENT_DEFAULTS
    return all(key in _PLAIN or value == defaults.get(key, value)
               for key, value in vars(info).items())


def _command(info: CommandInfo) -> _Command | None:
    if info.callback is None or info.cls not in (None, TyperCommand) or info.context_settings:
        return None
    try:
        metas = get_params_from_function(info.callback)
    except Exception:  # noqa: BLE001 - whatever Typer makes of it, it is Typer's
        return None
    options: dict[str, tuple[_Param, bool]] = {}
    arguments: list[_Param] = []
    params: list[_Param] = []
    for meta in metas.values():
        declared = meta.default
        if not isinstance(declared, (OptionInfo, ArgumentInfo)) or not _plain(declared):
            return None
        kind = _kind(meta.annotation)
        if kind is None or declared.default_factory is not None:
            return None
        required = declared.default is ...
        default = None if required else declared.default
        param = _Param(meta.name, kind[0], kind[1], required, default, declared.min, declared.max)
        if kind[0] is bool and (kind[1] or required):
            return None
        if (param.low is not None or param.high is not None) and kind[0] not in (int, float):
            return None
        params.append(param)
        if isinstance(declared, ArgumentInfo):
            if declared.param_decls:
                return None
            arguments.append(param)
            continue
        decls = declared.param_decls or (
            f"--{meta.name.replace('_', '-')}" + (f"/--no-{meta.name.replace('_', '-')}"
                                                   if kind[0] is bool else ""),)
        for decl in decls:
            on, _, off = decl.partition("/")
            for names, value in ((on, True), (off, False)):
                for opt in names.split():
                    if not re.fullmatch(r"--[A-Za-z0-9][-A-Za-z0-9_]*|-[A-Za-z0-9]", opt) \
                            or opt in options or (not value and kind[0] is not bool):
                        return None
                    options[opt] = (param, value)
    if sum(a.many for a in arguments) > 1:
        return None
    return _Command(options, tuple(arguments), tuple(params))


def _value(param: _Param, text: str) -> Any:
    """The value Typer reads from ``text``, or None where we leave it to Typer."""
    if param.kind is str:
        return text
    if param.kind is int:
        value: int | float | None = int(text) if _INT.match(text) else None
    elif param.kind is float:
        value = float(text) if _FLOAT.match(text) else None
    else:
        return None
    if value is None or (param.low is not None and value < param.low) \
            or (param.high is not None and value > param.high):
        return None  # out of bounds: Typer says so
    return value


_MISSING = object()


def read(info: CommandInfo, args: Sequence[str]) -> dict[str, Any] | None:
    """The keyword arguments Typer would call ``info``'s command with, given
    the command line ``args`` that follows the command's name; None where the
    command line is not in a plain form (then let Typer read it)."""
    command = _command(info)
    if command is None:
        return None
    given: dict[str, Any] = {}
    positional: list[str] = []
    args = list(args)
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if token[:1] != "-" or token == "-":
            positional.append(token)
            continue
        name, eq, text = token.partition("=") if token.startswith("--") else (token, "", "")
        found = command.options.get(name)
        if found is None:  # --help, --, -pann, an unknown option: Typer's
            return None
        param, flag = found
        if param.kind is bool:
            if eq:
                return None
            given[param.name] = flag
            continue
        if not eq:
            if i == len(args) or (args[i][:1] == "-" and args[i] != "-"):
                return None
            text = args[i]
            i += 1
        value = _value(param, text)
        if value is None:
            return None
        if param.many:
            given.setdefault(param.name, []).append(value)
        else:
            given[param.name] = value
    # Positional arguments, left to right; a list argument takes what the
    # arguments after it leave over.
    slots = command.arguments
    rest = next((k for k, a in enumerate(slots) if a.many), None)
    if rest is None:
        if len(positional) > len(slots):
            return None
        for param, text in zip(slots, positional):
            value = _value(param, text)
            if value is None:
                return None
            given[param.name] = value
    else:
        after = len(slots) - rest - 1
        if len(positional) < rest + after:
            return None
        head, tail = positional[:rest], positional[len(positional) - after:] if after else []
        middle = positional[rest:len(positional) - after]
        for param, text in zip(slots[:rest] + slots[rest + 1:], head + tail):
            value = _value(param, text)
            if value is None:
                return None
            given[param.name] = value
        if middle:
            given[slots[rest].name] = [_value(slots[rest], t) for t in middle]
    kwargs: dict[str, Any] = {}
    for param in command.params:
        value = given.get(param.name, _MISSING)
        if value is _MISSING:
            if param.required:
                return None
            value = param.default
            if param.many and value is not None:
                value = list(value)
        kwargs[param.name] = value
    return kwargs
