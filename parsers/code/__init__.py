"""Source code → Document, with tree-sitter: the program's own definitions are the units.

Which nodes are units comes from one query file per language (queries/<language>.scm):
``@unit.class``, ``@unit.function``, ``@unit.method`` with ``@name`` (and Go's
``@receiver``), and ``@import``. Everything a query does not claim — imports, constants,
module docstrings, a broken region — becomes ``code`` elements between the definitions,
so every line of the file lies in some element.

Each definition keeps its qualified symbol, its signature (or class header), its line
range, the parts of its body (where an over-budget definition may be split), and its
context: the imports it actually references and the headers of the definitions around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.metadata import version
from pathlib import PurePosixPath

from tree_sitter import Node, Parser, Query, QueryCursor
from tree_sitter_language_pack import get_language, get_parser

from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.code.family import Heads, attached, unit_heads
from parsegate.parsers.code.offsets import Offsets as _Offsets
from parsegate.parsers.code.offsets import first_on_line as _first_on_line
from parsegate.parsers.formats import CODE_LANGUAGES, spec
from parsegate.parsers.model import CodeData, Document, Element, ParseError, ParseWarning, content_version, trim_span
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "code"
SPEC = spec(NAME)  # parsers/formats.py: suffixes and their languages, output version
OUTPUT_VERSION = SPEC.output_version
VERSION = f"{OUTPUT_VERSION}+tree-sitter/{version('tree-sitter')}+language-pack/{version('tree-sitter-language-pack')}"
LANGUAGES = CODE_LANGUAGES
SUFFIXES = SPEC.suffixes
# Info strings of Markdown fences, and shebang interpreters, that name a language.
ALIASES = {
    "py": "python", "python3": "python", "js": "javascript", "node": "javascript", "ts": "typescript",
    "golang": "go", "rs": "rust", "c++": "cpp", "cs": "csharp", "c#": "csharp", "rb": "ruby", "kt": "kotlin",
    **{lang: lang for lang in set(LANGUAGES.values())},
}  # fmt: skip
# Nodes that wrap a definition and belong to it (decorators, export, template<>, typedef).
_WRAPPERS = frozenset({"decorated_definition", "export_statement", "template_declaration", "type_definition"})
_ATTACHED = frozenset({"decorator", "attribute_item", "annotation", "marker_annotation"})
_PATH_NEXT = re.compile(r"\s*(\.|::|:|/|\\)")
_GENERICS = re.compile(r"(<.*>|\[.*\])$")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IMPORT_WORDS = frozenset(
    "import from as use using require require_relative load include static package type typeof export default".split()
)
# Lines that are comments, per language (a shared pattern took "* b)" in a Python expression
# and "--count;" in C for comments, so definitions started mid-statement). A line starting
# with "*" is a comment only inside a block comment: see _comments_above.
_HASH = re.compile(r"\s*#")
_SLASHES = re.compile(r"\s*(//|/\*|\*(?=\s|/|$))")
_COMMENT_LINES = {
    "python": _HASH,
    "ruby": _HASH,
    "php": re.compile(r"\s*(#(?!\[)|//|/\*|\*(?=\s|/|$))"),  # "#[Attribute]" is code
}
_BLOCK_OPEN = re.compile(r"\s*/\*")
_BLOCK_INSIDE = re.compile(r"\s*\*(?=\s|/|$)")


def _comment_line(language: str) -> re.Pattern[str]:
    return _COMMENT_LINES.get(language, _SLASHES)


_SIGNATURE_CHARS = 400
_CONSTANT_CHARS = 160  # a constant as context: its statement, or its first line cut with "…"
# Definitions nested deeper stay text of the one at this depth: every level adds its header to
# the context of all below it, and splitting an over-budget definition recurses per level.
MAX_DEPTH = 32
_MAX_SYNTAX_WARNINGS = 20


def language_for(doc_id: str, text: str) -> str | None:
    """By suffix, then by the shebang line."""
    suffix = PurePosixPath(doc_id).suffix.lower()
    if suffix in LANGUAGES:
        return LANGUAGES[suffix]
    if text.startswith("#!"):
        first = text.split("\n", 1)[0]
        for word in reversed(re.split(r"[\s/]+", first)):
            name = re.sub(r"[\d.]+$", "", word)
            if name in ALIASES:
                return ALIASES[name]
    return None


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """The language is ``suffix``'s (the one the registry reads the file as), else ``doc_id``'s,
    else the shebang line's. No option applies here."""
    text, encoding_note = decode_noted(data)
    language = language_for(f"{doc_id}{suffix}" if suffix else doc_id, text)
    if language is None:
        raise ParseError("unknown_language", "neither the suffix nor a shebang line names a supported language")
    elements, warnings = parse_source(text, language)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="code",
        text=text,
        elements=elements,
        metadata={"title": doc_id, "language": language},
        parser=f"{NAME} {VERSION}",
        warnings=warnings,
    )
    for el in doc.elements:
        el.lines = doc.lines_of(el.start, el.end)
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


# -- tree-sitter plumbing -------------------------------------------------------------


@cache
def _parser(language: str) -> Parser:
    return get_parser(language)  # type: ignore[arg-type]


# Grammars that share another's query file (TSX is TypeScript with JSX nodes added).
_SHARED_QUERIES = {"tsx": "typescript"}


@cache
def _query(language: str) -> Query:
    name = _SHARED_QUERIES.get(language, language)
    source = resources.files("parsegate.parsers.code").joinpath("queries", f"{name}.scm").read_text()
    return Query(get_language(language), source)  # type: ignore[arg-type]


@dataclass
class _Def:
    node: Node  # the definition itself (for its body)
    kind: str  # class | function | method
    name: str
    start: int  # characters, with wrappers and leading comments
    end: int
    parent: _Def | None = None
    element: Element | None = None
    children: list[_Def] = field(default_factory=list)
    depth: int = 1  # 1 for an outermost definition


def parse_source(text: str, language: str, base: int = 0) -> tuple[list[Element], list[ParseWarning]]:
    """Elements of ``text`` (offsets shifted by ``base``), and syntax warnings."""
    data = text.encode("utf-8")
    tree = _parser(language).parse(data)
    offsets = _Offsets(text, data)
    defs, imports = _captures(tree.root_node, language, offsets, text)
    _nest(defs, text)
    kept = [d for d in defs if d.depth <= MAX_DEPTH]
    elements = _elements(text, language, kept, imports, offsets, base)
    warnings = _syntax_warnings(tree.root_node, language)
    if len(kept) < len(defs):
        warnings.append(
            ParseWarning(
                "nesting_limit",
                f"{len(defs) - len(kept)} definitions nested deeper than {MAX_DEPTH} levels are kept as "
                f"text of the definition at level {MAX_DEPTH}",
            )
        )
    return elements, warnings


def top_level_spans(text: str, language: str) -> list[tuple[int, int]]:
    """Spans of the outermost definitions in ``text`` (for code embedded in other formats)."""
    data = text.encode("utf-8")
    defs = _unit_defs(_parser(language).parse(data).root_node, language, _Offsets(text, data), text)
    _nest(defs, text)
    return [(d.start, d.end) for d in defs if d.depth == 1]


def syntax_fit(data: bytes, language: str) -> tuple[float, int, int]:
    """How well ``data`` reads as ``language`` (for telling code from prose by its content,
    parsers/detect): the share of its bytes inside syntax errors, the count of missing tokens,
    and the definitions and imports the language's query finds."""
    root = _parser(language).parse(data).root_node
    bad = missing = 0
    stack = [root] if root.has_error else []
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            bad += node.end_byte - node.start_byte
        elif node.is_missing:
            missing += 1
        elif node.has_error:
            stack.extend(node.children)
    found = sum(
        1
        for _, caps in QueryCursor(_query(language)).matches(root)
        if "import" in caps or any(k.startswith("unit.") for k in caps)
    )
    return bad / max(len(data), 1), missing, found


def _unit_defs(root: Node, language: str, offsets: _Offsets, text: str) -> list[_Def]:
    """The definitions _captures finds, spans only (no names, imports or constants): all a
    Markdown fence needs, once per fence in a known language, most of them never split."""
    defs: list[_Def] = []
    seen: set[tuple[int, int]] = set()
    matches = [caps for _, caps in QueryCursor(_query(language)).matches(root)]
    heads = _heads(root, matches)
    for caps in matches:
        unit = _unit(caps, seen, heads)
        if unit is not None:
            kind, node, outer, before = unit
            start = _start(outer, before, offsets, text, language)
            defs.append(_Def(node, kind, "", start, offsets(outer.end_byte)))
    return defs


def _heads(root: Node, matches: list[dict[str, list[Node]]]) -> Heads:
    units = {caps[k][0].id for caps in matches for k in caps if k.startswith("unit.")}
    return unit_heads(root, units, _WRAPPERS, _ATTACHED)


def _unit(
    caps: dict[str, list[Node]], seen: set[tuple[int, int]], heads: Heads
) -> tuple[str, Node, Node, tuple[Node, ...]] | None:
    """A match's definition, its kind, outer node (with its wrappers) and the attached nodes
    before it (``heads``), the first time that outer node is seen (``seen`` keeps it); None for
    a match that is not a definition."""
    key = next((k for k in caps if k.startswith("unit.")), None)
    if key is None:
        return None
    node = caps[key][0]
    outer, before = heads[node.id]
    if (outer.start_byte, outer.end_byte) in seen:
        return None
    seen.add((outer.start_byte, outer.end_byte))
    return key[5:], node, outer, before


def _captures(root: Node, language: str, offsets: _Offsets, text: str) -> tuple[list[_Def], list[tuple[str, set[str]]]]:
    defs: list[_Def] = []
    imports: list[tuple[str, set[str]]] = []
    constants: list[tuple[Node, set[str]]] = []
    seen: set[tuple[int, int]] = set()
    matches = [caps for _, caps in QueryCursor(_query(language)).matches(root)]
    heads = _heads(root, matches)
    for caps in matches:
        if "import" in caps:
            node = caps["import"][0]
            # Some grammars let an import run on over blank lines and a comment: keep the statement.
            source = text[offsets(node.start_byte) : offsets(node.end_byte)].strip().split("\n\n")[0]
            imports.append((source, _bound_names(source, language)))
            continue
        if "constant" in caps:
            constants.append((caps["constant"][0], {_text(n) for n in caps.get("name", [])}))
            continue
        unit = _unit(caps, seen, heads)
        if unit is None:
            continue
        kind, node, outer, before = unit
        # Generic arguments are not part of a name ("impl<K> Cache<K>" is Cache).
        name = _GENERICS.sub("", _text(caps["name"][0])) if "name" in caps else "?"
        if "receiver" in caps:
            name = f"{_GENERICS.sub('', _text(caps['receiver'][0])).lstrip('*')}.{name}"
        defs.append(_Def(node, kind, name, _start(outer, before, offsets, text, language), offsets(outer.end_byte)))
    return defs, imports + _constant_lines(constants, seen, offsets, text)


def _constant_lines(
    constants: list[tuple[Node, set[str]]], units: set[tuple[int, int]], offsets: _Offsets, text: str
) -> list[tuple[str, set[str]]]:
    """Module-level constants, as context lines with the names they bind (one statement may
    bind several); a declaration that is a unit of its own (``const f = () => …``) is not one."""
    by_node: dict[tuple[int, int], tuple[str, set[str]]] = {}
    for node, names in constants:
        key = (node.start_byte, node.end_byte)
        if key in units or any(a <= key[0] and key[1] <= b for a, b in units):
            continue
        source = text[offsets(node.start_byte) : offsets(node.end_byte)].strip()
        line = source if len(source) <= _CONSTANT_CHARS else source.split("\n", 1)[0][:_CONSTANT_CHARS] + " …"
        found = by_node.setdefault(key, (line, set()))
        found[1].update(names)
    return list(by_node.values())


def _bound_names(source: str, language: str) -> set[str]:
    """The names an import makes available: not the path it comes from ("use std::fmt;"
    binds fmt, not std), except Python's "import a.b", which binds a."""
    if language == "python" and source.startswith("import "):
        items = source[len("import ") :].split(",")
        return {item.split(" as ")[-1].strip().split(".")[0] for item in items}
    return {m.group(0) for m in _IDENT.finditer(source) if not _PATH_NEXT.match(source, m.end())} - _IMPORT_WORDS


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _leading(node: Node, before: Iterable[Node], offsets: _Offsets) -> Node:
    """The first of the comments and attributes right above a definition (no blank line
    between; a comment that ends a line of code belongs to that code, not to what follows).
    ``before``: the comments and attributes among its named siblings right before it, nearest
    first (family.unit_heads)."""
    first = node
    for prev in before:
        if first.start_point[0] - prev.end_point[0] > 1:
            break
        if not _first_on_line(offsets.data, offsets.byte_line_start(prev.start_byte), prev.start_byte):
            break
        first = prev
    return first


def _start(node: Node, before: Iterable[Node], offsets: _Offsets, text: str, language: str) -> int:
    """Where a unit begins: with the comments and attributes that belong to it."""
    return _comments_above(text, offsets(_leading(node, before, offsets).start_byte), language, offsets)


def _comments_above(text: str, start: int, language: str, offsets: _Offsets) -> int:
    """Move ``start`` up over comment lines right above it (no blank line between), for
    grammars that file a definition's doc comment under the node before it. Lines that start
    with "*" are taken only as part of a block comment whose "/*" is reached."""
    comment = _comment_line(language)
    line_start = offsets.line_start(start)
    if not _first_on_line(text, line_start, start):
        return start  # something else precedes the definition on its own line
    committed = start
    indent = start - line_start
    while line_start > 0:
        prev_start = text.rfind("\n", 0, line_start - 1) + 1
        line = text[prev_start : line_start - 1]
        if not line.strip() or not comment.match(line):
            break
        if language in ("python", "ruby") and len(line) - len(line.lstrip()) > indent:
            break  # indented deeper: the end of the block above (or of its last line's comment)
        line_start = prev_start
        start = prev_start + len(line) - len(line.lstrip())
        if not _BLOCK_INSIDE.match(line) or _BLOCK_OPEN.match(line):
            committed = start  # a whole comment line, or the line that opens the block
    return committed


def _nest(defs: list[_Def], text: str) -> None:
    """Parent of each definition: the innermost definition that contains it."""
    defs.sort(key=lambda d: (d.start, -d.end))
    stack: list[_Def] = []
    for d in defs:
        while stack and stack[-1].end <= d.start:
            stack.pop()
        while stack and d.end > stack[-1].end:
            # Its leading comments reach into the definition before it (the grammar filed
            # them there): they stay there, and this one starts after it.
            d.start = trim_span(text, stack[-1].end, d.end)[0]
            stack.pop()
        d.depth = len(stack) + 1
        if stack and d.depth <= MAX_DEPTH:
            d.parent = stack[-1]
            stack[-1].children.append(d)
            if d.kind == "function" and d.parent.kind == "class":
                d.kind = "method"
        stack.append(d)


# A function bound to a name ("const f = function () {…}", "var g = (a) => {…}"): its body is the
# function's, one declarator and one value down.
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})


def _body(node: Node) -> Node | None:
    if node.type in _DECLARATIONS:
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            if value is not None and value.type in _FUNCTION_VALUES:
                body = value.child_by_field_name("body")
                # an arrow function's expression body ("(a) => a + 1") has no statements
                return body if body is not None and body.type == "statement_block" else None
        return None
    body = node.child_by_field_name("body")
    if body is None:
        named = [c for c in node.named_children if c.type.endswith(("body", "block", "statement", "list"))]
        body = named[-1] if named else None
    # Go's block → statement_list, Ruby's body_statement: one level further holds the statements.
    while body is not None and body.named_child_count == 1 and body.named_children[0].type in (
        "statement_list", "body_statement", "declaration_list", "class_body", "block",
    ):  # fmt: skip
        body = body.named_children[0]
    return body


def _qualified(d: _Def) -> str:
    names = []
    node: _Def | None = d
    while node is not None:
        names.append(node.name)
        node = node.parent
    return ".".join(reversed(names))


def _signature(text: str, d: _Def, offsets: _Offsets, language: str) -> str:
    """The definition up to its body (decorators included, comment lines left out), or its
    first line."""
    body = _body(d.node)
    if body is not None and offsets(body.start_byte) > d.start:
        head = text[d.start : offsets(body.start_byte)]
    else:
        head = text[d.start : d.end].split("\n", 1)[0]
    lines = head.rstrip().split("\n")
    comment = _comment_line(language)
    while len(lines) > 1 and (not lines[0].strip() or comment.match(lines[0])):
        lines.pop(0)
    while len(lines) > 1 and (not lines[-1].strip() or comment.match(lines[-1])):
        lines.pop()
    return "\n".join(lines).strip().rstrip("{").rstrip()[:_SIGNATURE_CHARS]


def _parts(text: str, d: _Def, offsets: _Offsets, base: int, language: str) -> list[list[int]]:
    """Spans of the statements (and nested definitions) of a definition's body: disjoint and in
    order, each with the comments right above it."""
    body = _body(d.node)
    if body is None:
        return []
    spans: list[list[int]] = []
    trail: list[Node] = []  # the attached children right before this one
    for child in body.named_children:
        start = _start(child, reversed(trail), offsets, text, language)
        if attached(child, _ATTACHED):
            trail.append(child)
        else:
            trail.clear()
        start, end = trim_span(text, start, offsets(child.end_byte))
        if end <= start:
            continue
        while spans and spans[-1][0] >= start + base:
            spans.pop()  # comments that belong to this child are part of its span
        if spans and spans[-1][1] > start + base:
            # The grammar filed this child's leading comments under the one before (inside its
            # block): they stay there, as they do in that child's own span, and this part
            # starts after it (parts never overlap).
            start = trim_span(text, spans[-1][1] - base, end)[0]
            if end <= start:
                continue
        spans.append([start + base, end + base])
    return spans


def _elements(
    text: str, language: str, defs: list[_Def], imports: list[tuple[str, set[str]]], offsets: _Offsets, base: int
) -> list[Element]:
    elements: list[Element] = []
    for d in defs:  # sorted: parents before children
        words = set(_IDENT.findall(text[d.start : d.end]))
        used = [(source, names) for source, names in imports if names & words]
        enclosing = []
        node = d.parent
        while node is not None:
            assert node.element is not None
            assert isinstance(node.element.data, CodeData) and node.element.data.signature is not None
            enclosing.append(node.element.data.signature)
            node = node.parent
        data = CodeData(
            language=language,
            symbol=_qualified(d),
            signature=_signature(text, d, offsets, language),
            context=[source for source, _ in used] + list(reversed(enclosing)),
            context_names=[sorted(names) for _, names in used] + [[] for _ in enclosing],
            parts=_parts(text, d, offsets, base, language),
            part=d.parent is not None,  # a unit of its own only when its parent is split
        )
        d.element = Element(
            id="",
            kind=d.kind,
            start=d.start + base,
            end=d.end + base,
            parent=d.parent.element.id if d.parent and d.parent.element else None,
            data=data,
        )
        d.element.id = f"d{len(elements)}"
        elements.append(d.element)
    elements.extend(_module_code(text, language, [d for d in defs if d.parent is None], base))
    elements.sort(key=lambda e: (e.start, -e.end))
    ids = {e.id: f"e{n}" for n, e in enumerate(elements)}
    for e in elements:
        e.id = ids.get(e.id, e.id)
        e.parent = ids.get(e.parent) if e.parent else None
    return elements


def _module_code(text: str, language: str, top: list[_Def], base: int) -> list[Element]:
    """Code between the outermost definitions: one element per stretch."""
    out: list[Element] = []
    cursor = 0
    for start, end in [(d.start, d.end) for d in top] + [(len(text), len(text))]:
        s, e = trim_span(text, cursor, start)
        if e > s:
            out.append(Element(f"m{len(out)}", "code", s + base, e + base, data=CodeData(language=language)))
        cursor = max(cursor, end)
    return out


# C and C++ code marks definitions with macros the grammar cannot expand ("local int f(void)",
# "EXPORT void g()" with "#define local static"): a word or two the grammar leaves over before a
# function's declarator is such a macro, not an error in the file.
_MACRO_LANGUAGES = frozenset({"c", "cpp"})
_SPECIFIER_TOKENS = frozenset(
    {"identifier", "type_identifier", "primitive_type", "type_qualifier", "storage_class_specifier"}
)


def _macro_specifier(node: Node) -> bool:
    parent = node.parent
    if parent is None or parent.type not in ("function_definition", "declaration"):
        return False
    declarator = parent.child_by_field_name("declarator")
    if declarator is None or node.end_byte > declarator.start_byte:
        return False
    leaves = list(node.children)
    return 0 < len(leaves) <= 2 and all(leaf.child_count == 0 and leaf.type in _SPECIFIER_TOKENS for leaf in leaves)


def _syntax_warnings(root: Node, language: str) -> list[ParseWarning]:
    if not root.has_error:
        return []
    found: list[ParseWarning] = []
    stack = [root]
    total = 0
    macros = language in _MACRO_LANGUAGES
    specifiers = 0
    while stack:
        node = stack.pop()
        if macros and node.type == "ERROR" and _macro_specifier(node):
            specifiers += 1
            continue
        if node.type == "ERROR" or node.is_missing:
            total += 1
            if len(found) < _MAX_SYNTAX_WARNINGS:
                what = f"missing {node.type}" if node.is_missing else "cannot parse this region"
                line = node.start_point[0] + 1
                found.append(ParseWarning("syntax_error", f"{what} (line {line})", f"line {line}"))
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    if total > len(found):
        found.append(ParseWarning("syntax_error", f"{total - len(found)} more syntax errors not listed"))
    if not found and not specifiers:
        found.append(ParseWarning("syntax_error", "the grammar reports an error it does not locate"))
    return found
