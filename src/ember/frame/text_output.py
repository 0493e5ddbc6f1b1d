"""Text renderings of a DataFrame / Series (``to_string``, ``to_html``, ``to_markdown``, ``to_latex``,
``info``), the Series writers (``to_csv``, ``to_json``) and ``from_arrow``. As ember's writers do, the text is made by
pandas' formatters on the host from the object's values, so every option renders exactly as pandas';
the data reaches the host once, as it does for any writer."""

from __future__ import annotations

from typing import Any


class TextOutput:
    """Mixed into DataFrame and Series (through FrameExtras / SeriesExtras)."""

    __slots__ = ()

    def to_string(self, *args: Any, **kwargs: Any) -> Any:
        return self.to_pandas().to_string(*args, **kwargs)

    def to_markdown(self, *args: Any, **kwargs: Any) -> Any:
        return self.to_pandas().to_markdown(*args, **kwargs)

    def to_latex(self, *args: Any, **kwargs: Any) -> Any:
        return self.to_pandas().to_latex(*args, **kwargs)

    def info(self, *args: Any, **kwargs: Any) -> None:
        """pandas' summary (dtypes, non-null counts, memory usage: the same figures, as the dtypes are
        pandas')."""
        return self.to_pandas().info(*args, **kwargs)


class FrameTextOutput(TextOutput):
    __slots__ = ()

    @classmethod
    def from_arrow(cls, data: Any) -> Any:
        """A DataFrame from an Arrow table or stream (pandas 3.1's ``DataFrame.from_arrow``)."""
        from ember.frame.convert import from_arrow

        return from_arrow(data)

    def to_html(self, *args: Any, **kwargs: Any) -> Any:
        return self.to_pandas().to_html(*args, **kwargs)


class SeriesTextOutput(TextOutput):
    __slots__ = ()

    @classmethod
    def from_arrow(cls, data: Any) -> Any:
        """A Series from an Arrow array (pandas 3.1's ``Series.from_arrow``)."""
        from ember.frame.convert import from_arrow

        return from_arrow(data)

    def to_csv(self, *args: Any, **kwargs: Any) -> Any:
        """CSV text of the Series (pandas' writer); returns the text when no path is given."""
        return self.to_pandas().to_csv(*args, **kwargs)

    def to_json(self, *args: Any, **kwargs: Any) -> Any:
        return self.to_pandas().to_json(*args, **kwargs)
