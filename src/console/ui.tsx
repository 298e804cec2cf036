import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { describeError } from './api.ts';

/** A date-time as the operator's locale writes it, with the exact value on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return <time dateTime={at} title={at}>{new Date(at).toLocaleString()}</time>;
}

export function Status({ value }: { value: string }) {
  const tone = /^(SYNCED|SUCCEEDED|ENABLED|ACTIVE)$/.test(value) ? 'good' : /ERROR|FAILED|REVOKED|DISABLED|DISCONNECTED/.test(value) ? 'bad' : 'neutral';
  return <span className={`badge ${tone}`}>{value}</span>;
}

/** A request's failure, announced to screen readers. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {describeError(error)}
    </p>
  );
}

/** What a query shows while it loads or after it failed; its children once it has data. */
export function Loaded<T>({ query, children }: { query: { data?: T; error: unknown; isPending: boolean }; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorNotice error={query.error} />;
  if (query.isPending || query.data === undefined) return <p className="muted" aria-busy="true">Loading…</p>;
  return <>{children(query.data)}</>;
}

/** A table that scrolls sideways on a narrow screen instead of breaking the page. */
export function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>{head.map((title) => <th key={title} scope="col">{title}</th>)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A secret shown once: the operator copies it now, the console never has it again. */
export function ShownOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="shown-once" role="status">
      <p>{label} (shown this once; copy it now):</p>
      <code data-testid="secret">{secret}</code>
    </div>
  );
}

export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** A button that asks before it acts (for what cannot be undone). */
export function ConfirmButton({ label, question, onConfirm, disabled }: { label: string; question: string; onConfirm: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" onClick={() => setAsking(true)} disabled={disabled}>{label}</button>;
  return (
    <span className="confirm" role="group" aria-label={question}>
      {question}{' '}
      <button type="button" className="danger" autoFocus onClick={() => { setAsking(false); onConfirm(); }}>Yes, {label.toLowerCase()}</button>{' '}
      <button type="button" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}

/** A form's submit handler that never reloads the page; `field(name)` is a text field's value ('' when absent). */
export function onSubmit(handler: (field: (name: string) => string) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    handler((name) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    });
  };
}
