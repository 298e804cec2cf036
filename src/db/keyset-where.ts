/*
 * The filtered, keyset-paged reads of the stores (transactions, holdings, investment transactions,
 * recurring streams, statements) build their WHERE clauses the same way: conditions with numbered
 * parameters, then the page's bound on the list's (date, id) key.
 */

/** A filter as SQL conditions, with their parameters ($1, $2, … in order). */
export interface SqlWhere {
  conditions: string[];
  params: unknown[];
}

/** A condition builder: `add` numbers each value's placeholder and hands them to `sql` in order. */
export function whereBuilder(): { where: SqlWhere; add: (sql: (...placeholders: string[]) => string, ...values: unknown[]) => void } {
  const where: SqlWhere = { conditions: [], params: [] };
  const add = (sql: (...placeholders: string[]) => string, ...values: unknown[]) => {
    const placeholders = values.map((value) => `$${where.params.push(value)}`);
    where.conditions.push(sql(...placeholders));
  };
  return { where, add };
}

/** `where` and the records on one side of a keyset position: `key` names the list's date and id expressions. */
export function pastBound(where: SqlWhere, key: { date: string; id: string }, bound: { operator: string; date: string; id: string } | undefined): SqlWhere {
  if (!bound) return where;
  const next = where.params.length + 1;
  return { conditions: [...where.conditions, `(${key.date}, ${key.id}) ${bound.operator} ($${next}::date, $${next + 1}::uuid)`], params: [...where.params, bound.date, bound.id] };
}
