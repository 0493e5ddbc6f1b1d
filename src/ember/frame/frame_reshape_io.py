"""DataFrame methods that hand the frame to another module: the writers (ember.io) and the reshaping
functions (frame/reshape.py). A mixin of DataFrame; each method only forwards its arguments."""

from __future__ import annotations

from typing import Any


class FrameReshapeIO:
    def to_csv(self, path_or_buf: Any = None, **kwargs: Any) -> Any:
        """Write CSV (see ``ember.io.write_csv``); returns the text when no path is given."""
        from ember.io import write_csv

        return write_csv(self, path_or_buf, **kwargs)

    def to_parquet(self, path: Any, **kwargs: Any) -> None:
        """Write Parquet with pandas' metadata (see ``ember.io.write_parquet``)."""
        from ember.io import write_parquet

        return write_parquet(self, path, **kwargs)

    def to_json(self, path_or_buf: Any = None, **kwargs: Any) -> Any:
        from ember.io import write_json

        return write_json(self, path_or_buf, **kwargs)

    def to_orc(self, path: Any, **kwargs: Any) -> None:
        from ember.io import write_orc

        return write_orc(self, path, **kwargs)

    def pivot(self, *, columns: Any, index: Any = None, values: Any = None) -> Any:
        from ember.frame.reshape import pivot

        return pivot(self, columns=columns, index=index, values=values)

    def pivot_table(
        self,
        values: Any = None,
        index: Any = None,
        columns: Any = None,
        aggfunc: Any = "mean",
        fill_value: Any = None,
        margins: bool = False,
        dropna: bool = True,
        margins_name: str = "All",
        observed: bool = True,
        sort: bool = True,
    ) -> Any:
        from ember.frame.pivot_table import pivot_table

        return pivot_table(
            self,
            values=values,
            index=index,
            columns=columns,
            aggfunc=aggfunc,
            fill_value=fill_value,
            margins=margins,
            margins_name=margins_name,
            dropna=dropna,
            observed=observed,
            sort=sort,
        )

    def melt(
        self,
        id_vars: Any = None,
        value_vars: Any = None,
        var_name: Any = None,
        value_name: Any = "value",
        col_level: Any = None,
        ignore_index: bool = True,
    ) -> Any:
        from ember.frame.reshape import melt

        return melt(
            self,
            id_vars=id_vars,
            value_vars=value_vars,
            var_name=var_name,
            value_name=value_name,
            col_level=col_level,
            ignore_index=ignore_index,
        )

    def stack(self, level: Any = -1, **kwargs: Any) -> Any:
        from ember.frame.reshape import stack

        return stack(self, level=level, **kwargs)

    def unstack(self, level: Any = -1, fill_value: Any = None, sort: bool = True) -> Any:
        from ember.frame.reshape import unstack

        return unstack(self, level=level, fill_value=fill_value, sort=sort)
