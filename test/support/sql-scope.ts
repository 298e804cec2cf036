/**
 * Which tables a SQL statement reads or writes, and whether it names each one's distribution key
 * (`profile_id`, or `id` for `profile` itself). Good enough for the SQL this service sends (MikroORM's,
 * kysely's and hand-written statements, as pg_stat_statements normalizes them), not a full parser.
 *
 * The rule (docs/scaling.md, "Sharding by profile"): a statement is cut into query blocks, one for
 * the statement and one for each parenthesized SELECT/INSERT/UPDATE/DELETE/VALUES in it (CTE bodies,
 * subqueries) and for each arm of a UNION/INTERSECT/EXCEPT. A table a block reads or writes is
 * keyed when that same block names its key column where it filters or places rows (WHERE, ON,
 * HAVING, a join's USING, an INSERT's column list): qualified by the table's alias or name, or
 * unqualified (which PostgreSQL accepts only when one table of the block has the column). Naming it
 * in the select list, SET, ORDER BY or RETURNING does not count. A join
 * is keyed through its condition: `join account a on a.profile_id = c.profile_id` names it.
 * Naming the key anywhere else (a subquery, another CTE) does not count: a distributed database
 * routes each block by its own filters.
 */
export interface TableReference {
  table: string;
  keyed: boolean;
}

/** Whether `sql` is a statement the rule applies to: DML, not DDL or session commands. */
export function isDataStatement(sql: string): boolean {
  const first = tokenize(sql).find((token) => token.kind === 'word');
  return first !== undefined && ['select', 'with', 'insert', 'update', 'delete', 'merge', 'values'].includes(first.text);
}

/** The tables of `keyColumns` (table name → its key column) that `sql` touches, one entry per reference. */
export function tableReferences(sql: string, keyColumns: ReadonlyMap<string, string>): TableReference[] {
  const tokens = tokenize(sql);
  const cteNames = new Set<string>();
  for (let index = 0; index < tokens.length - 2; index++) {
    // `<name> as (` or `<name> as materialized (` after WITH or a comma: a CTE, shadowing any table of that name.
    const [name, as, next] = [tokens[index]!, tokens[index + 1]!, tokens[index + 2]!];
    if ((name.kind === 'word' || name.kind === 'quoted') && as.text === 'as' && (next.text === '(' || next.text === 'materialized' || next.text === 'not')) {
      const before = tokens[index - 1];
      if (before && (before.text === 'with' || before.text === ',' || before.text === 'recursive')) cteNames.add(name.text);
    }
  }
  const references: TableReference[] = [];
  for (const block of queryBlocks(tokens)) {
    const found = blockTables(block).filter((ref) => keyColumns.has(ref.table) && !cteNames.has(ref.table) && ref.schema === undefined);
    for (const ref of found) {
      const key = keyColumns.get(ref.table)!;
      references.push({ table: ref.table, keyed: namesColumn(block, key, ref, found.length === 1) });
    }
  }
  return references;
}

interface Token {
  kind: 'word' | 'quoted' | 'symbol' | 'literal';
  /** Lower-cased for words, unquoted for quoted identifiers. */
  text: string;
}

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < sql.length) {
    const char = sql[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if (sql.startsWith('--', at)) {
      const end = sql.indexOf('\n', at);
      at = end === -1 ? sql.length : end;
    } else if (sql.startsWith('/*', at)) {
      const end = sql.indexOf('*/', at + 2);
      at = end === -1 ? sql.length : end + 2;
    } else if (char === "'") {
      let end = at + 1;
      for (;;) {
        end = sql.indexOf("'", end);
        if (end === -1 || sql[end + 1] !== "'") break;
        end += 2;
      }
      at = end === -1 ? sql.length : end + 1;
      tokens.push({ kind: 'literal', text: '' });
    } else if (char === '"') {
      let end = at + 1;
      let text = '';
      for (;;) {
        const close = sql.indexOf('"', end);
        if (close === -1) {
          text += sql.slice(end);
          end = sql.length;
          break;
        }
        text += sql.slice(end, close);
        if (sql[close + 1] !== '"') {
          end = close + 1;
          break;
        }
        text += '"';
        end = close + 2;
      }
      at = end;
      tokens.push({ kind: 'quoted', text });
    } else if (char === '$' && /[A-Za-z_$]/.test(sql[at + 1] ?? '')) {
      // A dollar-quoted string: $tag$ … $tag$ (or $$ … $$).
      const tag = /\$[A-Za-z_0-9]*\$/y;
      tag.lastIndex = at;
      const match = tag.exec(sql);
      if (match) {
        const end = sql.indexOf(match[0], at + match[0].length);
        at = end === -1 ? sql.length : end + match[0].length;
        tokens.push({ kind: 'literal', text: '' });
      } else {
        at++;
      }
    } else if (char === '$' || /[0-9]/.test(char)) {
      // A parameter ($1) or a number.
      const number = /\$?[0-9][0-9.eE]*/y;
      number.lastIndex = at;
      const match = number.exec(sql);
      at += match ? match[0].length : 1;
      tokens.push({ kind: 'literal', text: '' });
    } else {
      WORD.lastIndex = at;
      const word = WORD.exec(sql);
      if (word) {
        tokens.push({ kind: 'word', text: word[0].toLowerCase() });
        at += word[0].length;
      } else {
        tokens.push({ kind: 'symbol', text: char });
        at++;
      }
    }
  }
  return tokens;
}

const BLOCK_STARTS = new Set(['select', 'with', 'insert', 'update', 'delete', 'values', 'merge']);
const SET_OPERATIONS = new Set(['union', 'intersect', 'except']);

/**
 * The query blocks of a statement: the tokens of each at its own level, with the parenthesized
 * blocks inside it left out (and listed on their own).
 */
function queryBlocks(tokens: Token[]): Token[][] {
  const blocks: Token[][] = [];
  const stack: { block: Token[]; ownsGroup: boolean }[] = [{ block: [], ownsGroup: true }];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const current = stack.at(-1)!;
    if (token.text === '(' && token.kind === 'symbol') {
      const next = tokens[index + 1];
      if (next && BLOCK_STARTS.has(next.text) && next.kind === 'word') {
        stack.push({ block: [], ownsGroup: true });
      } else {
        current.block.push(token);
        stack.push({ block: current.block, ownsGroup: false });
      }
    } else if (token.text === ')' && token.kind === 'symbol') {
      if (stack.length === 1) continue;
      const closed = stack.pop()!;
      if (closed.ownsGroup) blocks.push(closed.block);
      else closed.block.push(token);
    } else if (token.kind === 'word' && SET_OPERATIONS.has(token.text) && current.ownsGroup) {
      blocks.push(current.block);
      current.block = [];
    } else {
      current.block.push(token);
    }
  }
  while (stack.length > 0) {
    const open = stack.pop()!;
    if (open.ownsGroup) blocks.push(open.block);
  }
  return blocks;
}

interface BlockTable {
  schema: string | undefined;
  table: string;
  alias: string | undefined;
  /** The table an INSERT writes: the only one its column list names columns of. */
  insertTarget: boolean;
}

/** Words that end a table reference where an alias could stand. */
const NOT_ALIASES = new Set([
  'where', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'lateral', 'on', 'using', 'group', 'order', 'limit',
  'offset', 'fetch', 'for', 'set', 'returning', 'having', 'window', 'values', 'default', 'select', 'tablesample', 'do',
  'when', 'then', 'union', 'intersect', 'except', 'only', 'as',
]);

/** The tables a block names after FROM, JOIN, UPDATE, INTO and (DELETE's or MERGE's) USING. */
function blockTables(block: Token[]): BlockTable[] {
  const tables: BlockTable[] = [];
  let depth = 0;
  for (let index = 0; index < block.length; index++) {
    const token = block[index]!;
    if (token.kind === 'symbol') depth += token.text === '(' ? 1 : token.text === ')' ? -1 : 0;
    // Inside a function's parentheses (`extract(epoch from …)`, `substring(x from 2)`) FROM names no table.
    if (token.kind !== 'word' || depth > 0) continue;
    const previous = block[index - 1];
    const introduces =
      token.text === 'from' ||
      token.text === 'join' ||
      token.text === 'into' ||
      (token.text === 'using' && block[index + 1]?.text !== '(') ||
      (token.text === 'update' && previous?.text !== 'for' && previous?.text !== 'do' && previous?.text !== 'key');
    if (!introduces) continue;
    // `from a, b`: a FROM list continues after each comma at this level.
    let at = index + 1;
    for (;;) {
      const parsed = tableAt(block, at, token.text === 'into');
      if (parsed.table) tables.push(parsed.table);
      at = parsed.next;
      if (token.text !== 'from' || block[at]?.text !== ',') break;
      at++;
    }
  }
  return tables;
}

function tableAt(block: Token[], start: number, insertTarget: boolean): { table?: BlockTable; next: number } {
  let at = start;
  while (block[at]?.kind === 'word' && (block[at]!.text === 'only' || block[at]!.text === 'lateral')) at++;
  const first = block[at];
  if (!first || (first.kind !== 'word' && first.kind !== 'quoted')) return { next: skipParentheses(block, at) };
  let schema: string | undefined;
  let table = first.text;
  at++;
  if (block[at]?.text === '.' && (block[at + 1]?.kind === 'word' || block[at + 1]?.kind === 'quoted')) {
    schema = table;
    table = block[at + 1]!.text;
    at += 2;
  }
  if (block[at]?.text === '(' && !insertTarget) return { next: skipParentheses(block, at) }; // a function call, such as unnest($1)
  if (schema === 'public') schema = undefined;
  let alias: string | undefined;
  if (block[at]?.text === 'as') at++;
  const candidate = block[at];
  if (candidate && (candidate.kind === 'quoted' || (candidate.kind === 'word' && !NOT_ALIASES.has(candidate.text)))) {
    alias = candidate.text;
    at++;
  }
  return { table: { schema, table, alias, insertTarget }, next: at };
}

/** Past a parenthesized group starting at `at` (its alias and column list are left to the caller), or past one token. */
function skipParentheses(block: Token[], at: number): number {
  if (block[at]?.text !== '(') return at + 1;
  let depth = 0;
  for (let index = at; index < block.length; index++) {
    if (block[index]!.text === '(') depth++;
    if (block[index]!.text === ')' && --depth === 0) return index + 1;
  }
  return block.length;
}

/** Keywords that start a clause, and whether a column named in that clause filters the rows. */
const CLAUSES = new Map([
  ['select', false], ['from', false], ['join', false], ['group', false], ['order', false], ['limit', false], ['offset', false],
  ['returning', false], ['set', false], ['values', false], ['do', false], ['window', false], ['for', false],
  ['where', true], ['on', true], ['having', true], ['into', true], ['using', true],
]);

/**
 * Whether the block names `column` of `ref` where it filters or places rows (WHERE, ON, HAVING, a
 * join's USING, an INSERT's column list: that of its target only), qualified by the table's alias
 * or name, or unqualified.
 */
function namesColumn(block: Token[], column: string, ref: BlockTable, onlyTable: boolean): boolean {
  const qualifiers = new Set([ref.alias ?? ref.table, ref.table]);
  let filtering = false;
  let depth = 0;
  for (let index = 0; index < block.length; index++) {
    const token = block[index]!;
    if (token.kind === 'symbol') depth += token.text === '(' ? 1 : token.text === ')' ? -1 : 0;
    // Only at the block's own level: `extract(epoch from …)` opens no clause.
    if (depth === 0 && token.kind === 'word' && CLAUSES.has(token.text) && block[index - 1]?.text !== '.') {
      filtering = CLAUSES.get(token.text)! && (token.text !== 'into' || ref.insertTarget);
    }
    if (!filtering || (token.kind !== 'word' && token.kind !== 'quoted') || token.text !== column) continue;
    if (block[index - 1]?.text === '.') {
      const qualifier = block[index - 2];
      if (qualifier && qualifiers.has(qualifier.text)) return true;
    } else if (column !== 'id' || onlyTable) {
      // An unqualified `id` is ambiguous to a reader when the block joins tables (PostgreSQL would
      // refuse it only if two had the column): it counts for `profile` only when it stands alone.
      return true;
    }
  }
  return false;
}
