"""The statements of every move, compiled once and run on the database driver's own cursor.

SQLAlchemy's execution of a statement (its execution context, events, result wrapping) cost
about 0.1 ms a statement, six times what SQLite takes to run it, and a move runs three (the
conditional update, the move, the announcement): most of a move's write. The statements a
move runs are plain: their columns are integers, texts and floats, which SQLAlchemy hands to
the driver unchanged. `run` compiles such a statement once for the database's dialect (the
driver's own placeholders, SQLAlchemy's own SQL) and runs it on the driver's cursor inside the
caller's SQLAlchemy transaction. The driver's errors become SQLAlchemy's (`DBAPIError` and its
subclasses, `IntegrityError` among them), as if SQLAlchemy had run the statement.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True, slots=True)
class DriverStatement:
    """A statement as its driver runs it.

    Attributes:
        sql: The SQL, with the driver's placeholders.
        defaults: The values SQLAlchemy binds itself (literals such as the ``1`` of ``+ 1``).
        order: The parameters' names in placeholder order for a positional driver (SQLite's
            ``?``), ``None`` for a driver that takes them by name (psycopg's ``%(name)s``).
    """

    sql: str
    defaults: Mapping[str, Any]
    order: tuple[str, ...] | None

    def bind(self, values: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        """The driver's parameters for ``values``."""
        merged = {**self.defaults, **values}
        if self.order is None:
            return merged
        return tuple(merged[name] for name in self.order)


@functools.cache
def compiled(statement: ClauseElement, dialect: Dialect, keys: tuple[str, ...]) -> DriverStatement:
    """``statement`` compiled for ``dialect``, setting the columns ``keys`` (an insert's)."""
    form = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=list(keys) or None))
    defaults = {name: bind.value for name, bind in form.binds.items() if not bind.required}
    order = tuple(form.positiontup) if form.positional and form.positiontup else None
    return DriverStatement(form.string, defaults, order)


def run(db: Connection, statement: ClauseElement, values: Mapping[str, Any]) -> int:
    """Run ``statement`` with ``values`` in ``db``'s transaction; the rows it changed."""
    return run_many(db, statement, [values])


def run_many(db: Connection, statement: ClauseElement, rows: Sequence[Mapping[str, Any]]) -> int:
    """Run ``statement`` once for each of ``rows`` (all with the same keys); rows changed."""
    form = compiled(statement, db.dialect, tuple(sorted(rows[0])))
    parameters = [form.bind(row) for row in rows]
    dbapi = db.dialect.loaded_dbapi
    cursor = db.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        if len(parameters) == 1:
            cursor.execute(form.sql, parameters[0])
        else:
            cursor.executemany(form.sql, parameters)
        return int(cursor.rowcount)
    except dbapi.Error as error:
        raise DBAPIError.instance(form.sql, parameters, error, dbapi.Error) from None
    finally:
        cursor.close()
