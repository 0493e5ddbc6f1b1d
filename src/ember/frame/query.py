"""A small evaluator for DataFrame.query / eval: column names, literals, @variables, comparisons,
arithmetic, and/or/not (also & | ~), ``in`` / ``not in`` lists. Evaluated with Series operators, so it
runs on the device."""

from __future__ import annotations

import ast
import io
import operator
import re
import sys
import tokenize
from typing import Any

from ember.frame._fallback import unsupported

_BIN = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_CMP = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def evaluate(frame: Any, expr: str, local_dict: dict | None = None, depth: int = 0) -> Any:
    scope = _scope(local_dict, depth + 1)
    return _eval(_parse(expr, scope), frame, scope)


def evaluate_assignments(
    frame: Any, expr: str, inplace: bool, local_dict: dict | None = None, depth: int = 0
) -> Any:
    """DataFrame.eval: an expression's value, or for ``target = expression`` lines (one per line,
    each seeing the columns the lines before made) a copy of the frame with those columns (``None``
    and the frame changed with ``inplace``), as pandas."""
    scope = _scope(local_dict, depth + 1)
    lines = [line for line in expr.strip().splitlines() if line.strip()]
    if not lines:
        raise ValueError("expr cannot be an empty string")
    assignments = [_assignment(line, scope) for line in lines]
    if len(lines) > 1 and any(a is None for a in assignments):
        raise ValueError("Multi-line expressions are only valid if all expressions contain an assignment")
    if assignments[0] is None:
        if inplace:
            raise ValueError("Cannot operate inplace if there is no assignment")
        return _eval(_parse(expr, scope), frame, scope)
    out = frame if inplace else frame.copy()
    for target, value in assignments:
        out[target] = _eval(value, out, scope)
    return None if inplace else out


def _scope(local_dict: dict | None, depth: int) -> dict:
    caller = sys._getframe(depth + 1)
    return {**caller.f_globals, **caller.f_locals, **(local_dict or {})}


_BACKQUOTED = re.compile(r"`([^`]*)`")
_QUOTED_NAMES = "<backquoted>"  # scope key of the placeholder -> column name map (no identifier)


def _clean(expr: str, scope: dict) -> str:
    """Each backquoted name (pandas' quoting of any column name) as a placeholder identifier."""
    names = scope.setdefault(_QUOTED_NAMES, {})

    def placeholder(match: re.Match) -> str:
        key = f"__bq_{len(names)}"
        names[key] = match.group(1)
        return key

    return _BACKQUOTED.sub(placeholder, expr).replace("@", "__at_")


def _parse(expr: str, scope: dict) -> ast.AST:
    try:
        return ast.parse(_pandas_precedence(_clean(expr, scope)), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"query: cannot parse {expr!r}: {exc.msg}") from exc


def _assignment(line: str, scope: dict) -> tuple[Any, ast.AST] | None:
    """(column, value expression) of ``column = expression``, None for a plain expression."""
    clean = _clean(line, scope)
    try:
        statement = ast.parse(clean.strip(), mode="exec").body
    except SyntaxError:
        return None  # a plain expression (parsed with pandas' precedence later)
    if len(statement) != 1 or not isinstance(statement[0], ast.Assign):
        return None
    targets = statement[0].targets
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        raise unsupported("DataFrame.eval", f"the assignment {line.strip()!r}")
    target = targets[0].id
    if target in scope[_QUOTED_NAMES]:  # pandas names the column after its placeholder
        raise unsupported("DataFrame.eval", "a backquoted assignment target")
    value = clean.split("=", 1)[1]  # the first '=' of a statement whose target is one name
    return target, _parse_clean(value)


def _parse_clean(expr: str) -> ast.AST:
    try:
        return ast.parse(_pandas_precedence(expr.strip()), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"query: cannot parse {expr!r}: {exc.msg}") from exc


def _pandas_precedence(expr: str) -> str:
    """pandas gives ``&``, ``|`` and ``~`` the precedence of and/or/not (below comparisons)."""
    words = {"&": " and ", "|": " or ", "~": " not "}
    tokens = tokenize.generate_tokens(io.StringIO(expr).readline)
    return tokenize.untokenize(
        (tokenize.NAME, words[t.string].strip())
        if t.type == tokenize.OP and t.string in words
        else (t.type, t.string)
        for t in tokens
    )


def _eval(node: ast.AST, frame: Any, scope: dict) -> Any:
    if isinstance(node, ast.Name):
        if node.id.startswith("__at_"):
            name = node.id[5:]
            if name not in scope:
                raise NameError(f"query: local variable '@{name}' is not defined")
            return scope[name]
        column = scope.get(_QUOTED_NAMES, {}).get(node.id, node.id)
        if column in frame._columns:
            return frame[column]
        if node.id in ("True", "False"):
            return node.id == "True"
        raise NameError(f"query: name '{node.id}' is not a column")
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_eval(e, frame, scope) for e in node.elts]
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_eval(node.left, frame, scope), _eval(node.right, frame, scope))
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, frame, scope)
        if isinstance(node.op, (ast.Not, ast.Invert)):
            return ~value
        if isinstance(node.op, ast.USub):
            return -value
        return value
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, frame, scope) for v in node.values]
        out = values[0]
        for v in values[1:]:
            out = (out & v) if isinstance(node.op, ast.And) else (out | v)
        return out
    if isinstance(node, ast.Compare):
        left, result = _eval(node.left, frame, scope), None
        for op, comp in zip(node.ops, node.comparators):
            right = _eval(comp, frame, scope)
            if isinstance(op, (ast.In, ast.NotIn)):
                part = left.isin(right if isinstance(right, list) else [right])
                part = ~part if isinstance(op, ast.NotIn) else part
            elif type(op) in _CMP:
                part = _CMP[type(op)](left, right)
            else:
                raise unsupported("DataFrame.query", f"the operator {type(op).__name__}")
            result = part if result is None else result & part
            left = right
        return result
    if isinstance(node, ast.Attribute):
        return getattr(_eval(node.value, frame, scope), node.attr)
    raise unsupported("DataFrame.query", f"the expression element {type(node).__name__}")
