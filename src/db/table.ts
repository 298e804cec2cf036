/*
 * A table as a store reads and writes it in plain SQL. Each column is declared once, keyed by its row
 * field; the column's name is the field in snake case, as the ORM names entity properties (a relation
 * `account` is the field `accountId`, column `account_id`). The row type, select lists, record
 * definitions for jsonb_to_recordset and COPY column lists all come from that one declaration, and
 * test/stores.test.ts checks every column against the ORM's metadata (it exists, with the same type,
 * nullability and enum values), so a column changed in an entity fails a test, not a request.
 */

/** What a column holds, named by its PostgreSQL type (`numeric` is exact money, carried as text). */
export type ColumnKind = 'uuid' | 'text' | 'date' | 'numeric' | 'timestamptz' | 'jsonb' | 'boolean' | 'integer';

export interface Column<T> {
  kind: ColumnKind;
  nullable: boolean;
  /** The values an enum column allows (the entity's own list). */
  values?: readonly string[];
  /** Carries the row value's type; never set. */
  readonly type?: T;
}

interface ColumnBuilder<T> extends Column<T> {
  nullable: false;
  orNull(): Column<T | null>;
}

function column<T>(kind: ColumnKind, values?: readonly string[]): ColumnBuilder<T> {
  return { kind, nullable: false, values, orNull: () => ({ kind, nullable: true, values }) };
}

/**
 * Column declarations, typed by what a row holds: on the ORM's pool dates are `YYYY-MM-DD` text,
 * money is exact decimal text, and timestamps are written as Date and read back as ISO text.
 */
export const col = {
  uuid: () => column<string>('uuid'),
  text: () => column<string>('text'),
  oneOf: <const V extends string>(values: readonly V[]) => column<V>('text', values),
  date: () => column<string>('date'),
  money: () => column<string>('numeric'),
  timestamp: () => column<Date>('timestamptz'),
  json: <T>() => column<T>('jsonb'),
  boolean: () => column<boolean>('boolean'),
  integer: () => column<number>('integer'),
};

export type Columns = Record<string, Column<unknown>>;

export interface Table<C extends Columns> {
  name: string;
  columns: C;
  /** The column a field is stored in, quoted. */
  column(field: keyof C & string): string;
  /** `alias."column" as "field"` for each field: the rows come back keyed by field. */
  select(fields: ReadonlyArray<keyof C & string>, alias: string): string;
  /** `"field" type` for each field: the record definition of jsonb_to_recordset over rows keyed by field. */
  recordset(fields: ReadonlyArray<keyof C & string>): string;
  /** The quoted columns of `fields`, in that order (an INSERT's or a COPY's column list). */
  list(fields: ReadonlyArray<keyof C & string>): string;
}

/** A row of the table as written: every declared field, or the ones named. */
export type Row<T extends Table<Columns>, F extends keyof T['columns'] = keyof T['columns']> = {
  [K in F]: T['columns'][K] extends Column<infer V> ? V : never;
};

/** A row as read back: timestamps arrive as text (the ORM's pool leaves them unparsed). */
export type ReadRow<T extends Table<Columns>, F extends keyof T['columns'] = keyof T['columns']> = {
  [K in F]: T['columns'][K] extends Column<infer V> ? AsRead<V> : never;
};

type AsRead<V> = V extends Date ? string : V;

/** The column of a row field: snake case, as the ORM's underscore naming strategy names it. */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function table<const C extends Columns>(name: string, columns: C): Table<C> {
  const quoted = (field: string) => `"${columnOf(field)}"`;
  return {
    name,
    columns,
    column: quoted,
    select: (fields, alias) => fields.map((field) => `${alias}.${quoted(field)} as "${field}"`).join(', '),
    recordset: (fields) => fields.map((field) => `"${field}" ${columns[field]!.kind}`).join(', '),
    list: (fields) => fields.map(quoted).join(', '),
  };
}

/** An upsert's update condition: the stored row (named `table`) differs from the proposed one in these fields. */
export function changedFrom(table: string, fields: readonly string[]): string {
  const columns = (alias: string) => fields.map((field) => `${alias}."${columnOf(field)}"`).join(', ');
  return `(${columns(table)}) is distinct from (${columns('excluded')})`;
}

/** An upsert's assignments: each field's column takes the proposed row's value. */
export function takeExcluded(fields: readonly string[]): string {
  return fields.map((field) => `"${columnOf(field)}" = excluded."${columnOf(field)}"`).join(', ');
}

/** Every field of a table, in declaration order. */
export function fieldsOf<C extends Columns>(of: Table<C>): Array<keyof C & string> {
  return Object.keys(of.columns) as Array<keyof C & string>;
}
