/** What a statement shows: whose account, the period, and the money, in the account holder's signs (owed negative). */
export interface StatementContent {
  institution: string;
  accountName: string;
  mask: string | null;
  currencyCode: string;
  startOn: string;
  endOn: string;
  issuedOn: string;
  /** Exact decimal strings. */
  openingBalance: string;
  closingBalance: string;
  /** Every posted transaction of the period, in date order. */
  lines: Array<{ date: string; description: string; amount: string }>;
}

const MARGIN = 50;
const DESCRIPTION_WIDTH = 340;
const AMOUNT_WIDTH = 90;

/**
 * A statement as a PDF, the way a bank prints one: the institution, the account and its mask, the
 * period, the opening balance, one line per transaction and the closing balance. The same content
 * gives the same bytes (the document's dates are the issue day's), so a statement's digest is
 * stable. Used by the sandbox and by the test fakes of upstreams that serve statements. PDFKit (with
 * fontkit, brotli and their tables) is loaded at the first statement: a process that renders none
 * keeps ~2 MB of their sources and what they build out of memory.
 */
export async function renderStatementPdf(content: StatementContent): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const issued = new Date(`${content.issuedOn}T00:00:00.000Z`);
  const document = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: { Title: `${content.institution} statement ${content.startOn} to ${content.endOn}`, Author: content.institution, CreationDate: issued, ModDate: issued },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  const money = (amount: string) => `${amount} ${content.currencyCode}`;
  document.font('Helvetica-Bold').fontSize(18).text(content.institution);
  document.font('Helvetica').fontSize(11).moveDown(0.5);
  document.text(`Account: ${content.accountName}${content.mask ? ` ending in ${content.mask}` : ''}`);
  document.text(`Statement period: ${content.startOn} to ${content.endOn}`);
  document.text(`Issued: ${content.issuedOn}`);
  document.moveDown();
  document.font('Helvetica-Bold').text(`Opening balance: ${money(content.openingBalance)}`);
  document.moveDown(0.5);
  document.font('Helvetica').fontSize(9);
  for (const line of content.lines) {
    const y = document.y;
    document.text(line.date, MARGIN, y, { width: 70 });
    document.text(line.description, MARGIN + 75, y, { width: DESCRIPTION_WIDTH });
    const below = document.y;
    document.text(line.amount, MARGIN + 75 + DESCRIPTION_WIDTH + 5, y, { width: AMOUNT_WIDTH, align: 'right' });
    document.x = MARGIN;
    document.y = Math.max(below, document.y) + 2;
  }
  if (content.lines.length === 0) document.text('No transactions in this period.');
  document.moveDown();
  document.font('Helvetica-Bold').fontSize(11).text(`Closing balance: ${money(content.closingBalance)}`, MARGIN);
  document.end();
  return done;
}
