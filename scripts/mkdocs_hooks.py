"""mkdocs hooks of the documentation site (``hooks:`` in mkdocs.yml names this file).

- The API page writes ``::: canasta_sim.NAME`` (or ``::: canasta_sim.referee.NAME``), the names
  users import, not the modules that define them, so that moving code between modules leaves
  the site building. mkdocstrings reads such a path as a module path, and some public names are
  also module names (``canasta_sim.simulate`` is the function and the module defining it), so
  each line is rewritten to where the object the name holds at run time is defined, with the
  public name as its heading (a constant keeps its public path).
- A line ``<!-- cli-reference -->`` becomes the ``--help`` text of every command of the
  ``canasta-sim`` entry point, so the command-line page always matches the installed commands.
- The docstrings cross-reference in Sphinx roles (``:func:`simulate```), which mkdocstrings
  shows as text: the role's prefix is dropped, leaving the name as code.
"""

from __future__ import annotations

import importlib
import inspect
import re

import click

API_LINE = re.compile(r"^::: (canasta_sim(?:\.\w+)+)[ \t]*$", re.MULTILINE)
CLI_MARKER = "<!-- cli-reference -->"
ROLE = re.compile(r":(?:func|meth|class|mod|attr|data|exc|obj):(?=<code>)")


def defined_at(public: str) -> str:
    """The path where the object reached as ``public`` (``package.module.name``) is defined."""
    module_name, _, name = public.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module_name), name)
    except AttributeError:
        obj = importlib.import_module(public)  # a submodule not imported by its package
    if inspect.ismodule(obj):
        return obj.__name__
    if not (inspect.isclass(obj) or inspect.isroutine(obj)):
        # a constant (``canasta_sim.KINDS``) does not know its module; mkdocstrings follows
        # the package's import of it to its assignment
        return public
    return f"{obj.__module__}.{obj.__qualname__}"


def _api_block(match: re.Match) -> str:
    public = match.group(1)
    return f"::: {defined_at(public)}\n    options:\n      heading: {public}"


def cli_reference() -> str:
    """Markdown: one section per command with its ``--help`` text."""
    from canasta_sim.cli import main as group  # the group the canasta-sim script runs

    settings = {**group.context_settings, "terminal_width": 100}
    root = click.Context(group, info_name="canasta-sim", **settings)
    parts = [f"```text\n{group.get_help(root)}\n```"]
    for name in sorted(group.commands):
        command = group.commands[name]
        context = click.Context(command, info_name=name, parent=root, terminal_width=100)
        parts.append(f"## {name}\n\n```text\n{command.get_help(context)}\n```")
    return "\n\n".join(parts)


def on_page_markdown(markdown: str, **_: object) -> str:
    markdown = API_LINE.sub(_api_block, markdown)
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    return markdown


def on_page_content(html: str, **_: object) -> str:
    return ROLE.sub("", html)
