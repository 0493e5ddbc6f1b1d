"""The installed pandas' version, decided once: where pandas 3.0 and 3.1 refuse the same input with
different exception types, ember raises the type the installed pandas raises (the helpers below).
Where pandas 3.0 answers wrongly (a product that wraps, NaT for an overflow), ember keeps 3.1's
answer."""

from __future__ import annotations

import pandas as pd

PANDAS_31: bool = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def timedelta_product_overflow(message: str = "Overflow in int64 multiplication") -> Exception:
    """Timedelta ticks times integers past int64: pandas 3.1's OutOfBoundsTimedelta; under pandas 3.0,
    NumPy's OverflowError (NumPy 2.5 checks timedelta64 * int64; earlier NumPy wraps)."""
    if PANDAS_31:
        return pd.errors.OutOfBoundsTimedelta(message)
    return OverflowError(message)


def timedelta_sum_overflow() -> Exception:
    """A timedelta sum past int64: pandas 3.1's OutOfBoundsTimedelta, pandas 3.0's ValueError."""
    message = "overflow in timedelta operation"
    return pd.errors.OutOfBoundsTimedelta(message) if PANDAS_31 else ValueError(message)


def float_epoch_overflow(message: str, beyond_int64: bool) -> Exception:
    """to_datetime(floats, unit=) with a value outside the range: pandas 3.1's OutOfBoundsDatetime;
    pandas 3.0 raises OverflowError where the number itself is not an int64 (inf, 1e20)."""
    if PANDAS_31 or not beyond_int64:
        return pd.errors.OutOfBoundsDatetime(message)
    return OverflowError("Python int too large to convert to C long")


def bool_timedelta_product(unit: str, what: str, bools_first: bool = True) -> Exception:
    """Timedeltas multiplied or divided by bools: pandas 3.1 refuses (TypeError). pandas 3.0 multiplies
    bools by timedeltas (True as 1), an answer 3.1 withdrew and ember does not compute:
    NotImplementedError there; timedeltas times bools raise TypeError in 3.0 too."""
    if PANDAS_31 or what != "multiply" or not bools_first:
        return TypeError(f"Cannot {what} 'timedelta64[{unit}]' by bool, explicitly cast to integers instead")
    from ember.column.base import Unsupported

    return Unsupported(f"multiplying 'timedelta64[{unit}]' by bool (pandas < 3.1 treats True as 1)")
