import { createHash } from 'node:crypto';
import { AccountType, type StatementsAccount } from 'plaid';
import { renderStatementPdf } from '../../../src/providers/statement-pdf.ts';
import { isoDay } from '../../../src/providers/sandbox/household.ts';
import { errors } from './errors.ts';
import { plaidId } from './ids.ts';
import type { FakeItem, ItemAccount } from './item.ts';

/** A statement Plaid holds for one of an Item's accounts: one calendar month, posted the first day of the next. */
export interface FakeStatement {
  statementId: string;
  accountId: string;
  year: number;
  month: number;
  datePosted: string;
}

/** The most a statements window may span, as Plaid allows (two years). */
const MAX_WINDOW_DAYS = 731;

/** Only depository accounts have statements at Plaid. */
const hasStatements = (account: ItemAccount) => account.template.type === AccountType.Depository;

/**
 * The statements of every complete month whose posted day (the first of the next month) falls in
 * [start, end] and is not after `today`, for each depository account of the Item. Plaid refuses a
 * window over two years or one that ends before it starts.
 */
export function statementsPosted(item: FakeItem, window: { start_date: string; end_date: string }, today: number): FakeStatement[] {
  const start = Date.parse(`${window.start_date}T00:00:00Z`);
  const end = Math.min(Date.parse(`${window.end_date}T00:00:00Z`), today * 86_400_000);
  if (end < start || (end - start) / 86_400_000 > MAX_WINDOW_DAYS) throw errors.invalidField('start_date and end_date must be a range of at most two years');
  const found: FakeStatement[] = [];
  for (let cursor = new Date(start); cursor.getTime() <= end; cursor = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1))) {
    const posted = Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth(), 1);
    if (posted < start) continue;
    const covered = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() - 1, 1));
    const [year, month] = [covered.getUTCFullYear(), covered.getUTCMonth() + 1];
    for (const account of item.accounts.filter(hasStatements)) {
      found.push({ statementId: plaidId(item.itemId, 'statement', account.template.key, year, month), accountId: account.accountId, year, month, datePosted: isoDay(posted / 86_400_000) });
    }
  }
  return found;
}

/** /statements/list's accounts: each depository account with its statements, oldest first. */
export function listedStatements(item: FakeItem): StatementsAccount[] {
  return item.accounts.filter(hasStatements).map((account) => ({
    account_id: account.accountId,
    account_mask: account.template.mask,
    account_name: account.template.name,
    account_official_name: account.template.officialName,
    account_subtype: account.template.subtype,
    account_type: account.template.type,
    statements: [...item.statements.values()]
      .filter((statement) => statement.accountId === account.accountId)
      .sort((a, b) => a.year - b.year || a.month - b.month)
      .map((statement) => ({ statement_id: statement.statementId, month: statement.month, year: statement.year, date_posted: statement.datePosted })),
  }));
}

/** /statements/download's answer: the PDF and its SHA-256 (hex) in `Plaid-Content-Hash`, or another digest when the Item's are tampered. */
export class PdfAnswer {
  readonly bytes: Buffer;
  readonly contentHash: string;
  constructor(bytes: Buffer, contentHash: string) {
    this.bytes = bytes;
    this.contentHash = contentHash;
  }
}

/**
 * A statement's PDF from the Item's posted transactions, in the holder's signs (Plaid's amounts are
 * positive for money out): the balance at the month's end is today's less what posted after it.
 */
export async function statementDocument(item: FakeItem, statementId: string): Promise<PdfAnswer> {
  const statement = item.statements.get(statementId);
  if (!statement) throw errors.invalidField(`statement_id ${statementId} is not a statement of this Item`);
  const account = item.accounts.find((candidate) => candidate.accountId === statement.accountId)!;
  const startOn = `${statement.year}-${String(statement.month).padStart(2, '0')}-01`;
  const endOn = isoDay(Date.UTC(statement.year, statement.month, 1) / 86_400_000 - 1);
  const posted = [...item.view.values()].filter((transaction) => !transaction.pending && transaction.account_id === account.accountId);
  const cents = (amount: number) => Math.round(amount * 100);
  const outAfter = posted.filter((transaction) => transaction.date > endOn).reduce((sum, transaction) => sum + cents(transaction.amount), 0);
  const lines = posted.filter((transaction) => transaction.date >= startOn && transaction.date <= endOn).sort((a, b) => a.date.localeCompare(b.date));
  const closing = cents(item.describeAccount(account, null).balances.current!) + outAfter;
  const opening = lines.reduce((sum, transaction) => sum + cents(transaction.amount), closing);
  const bytes = await renderStatementPdf({
    institution: item.institution.name,
    accountName: account.template.name,
    mask: account.template.mask,
    currencyCode: 'USD',
    startOn,
    endOn,
    issuedOn: statement.datePosted,
    openingBalance: decimal(opening),
    closingBalance: decimal(closing),
    lines: lines.map((transaction) => ({ date: transaction.date, description: transaction.merchant_name ?? transaction.name, amount: decimal(-cents(transaction.amount)) })),
  });
  const digest = createHash('sha256').update(item.tamperedStatements ? Buffer.concat([bytes, Buffer.from('x')]) : bytes).digest('hex');
  return new PdfAnswer(bytes, digest);
}

function decimal(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
