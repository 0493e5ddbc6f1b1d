"""A small evaluator for DataFrame.query / eval: column names, literals, @variables, comparisons,
arithmetic, and/or/not (also & | ~), ``in`` / ``not in`` lists. Evaluated with Series operators, so it
runs on the device."""

from __future__ import annotations

import ast
import io
import operator
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
    caller = sys._getframe(depth + 1)
    scope = {**caller.f_globals, **caller.f_locals, **(local_dict or {})}
    try:
        tree = ast.parse(_pandas_precedence(expr.replace("@", "__at_")), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"query: cannot parse {expr!r}: {exc.msg}") from exc
    return _eval(tree.body, frame, scope)


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
        if node.id in frame._columns:
            return frame[node.id]
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
