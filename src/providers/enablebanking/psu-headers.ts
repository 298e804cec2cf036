import type { EndUserPresence } from '../provider.ts';

/** EB's PSU headers (as its reference names them), and what of the end-user's request each carries. */
const PSU_HEADERS: [string, (presence: EndUserPresence) => string | null | undefined][] = [
  ['Psu-Ip-Address', (presence) => presence.ipAddress],
  ['Psu-User-Agent', (presence) => presence.userAgent],
  ['Psu-Referer', (presence) => presence.referer],
  ['Psu-Accept', (presence) => presence.accept],
  ['Psu-Accept-Charset', (presence) => presence.acceptCharset],
  ['Psu-Accept-Encoding', (presence) => presence.acceptEncoding],
  ['Psu-Accept-Language', (presence) => presence.acceptLanguage],
  ['Psu-Geo-Location', (presence) => (presence.geoLocation && GEO_LOCATION.test(presence.geoLocation) ? presence.geoLocation : null)],
];
/** The reference's pattern: latitude and longitude, comma-separated, without spaces. */
const GEO_LOCATION = /^-?\d{1,2}\.\d{1,6},-?\d{1,3}\.\d{1,6}$/;
/** What a bank that lists no `required_psu_headers` is asked for: the two every bank takes. */
export const DEFAULT_REQUIRED_PSU_HEADERS: readonly string[] = ['Psu-Ip-Address', 'Psu-User-Agent'];
const MAX_LENGTH = 512;

/**
 * The PSU headers of a read the end-user asked for: every one the presence has, when it has each the
 * bank requires (its `required_psu_headers`); else none, since a bank refuses some without all
 * (PSU_HEADER_NOT_PROVIDED), and the read is an unattended one. Values go out as printable ASCII.
 */
export function psuHeaders(presence: EndUserPresence | undefined, required: readonly string[]): Record<string, string> {
  if (!presence) return {};
  const headers: Record<string, string> = {};
  for (const [name, valueOf] of PSU_HEADERS) {
    const value = valueOf(presence)?.replace(/[^\x20-\x7e]/g, '').trim().slice(0, MAX_LENGTH);
    if (value) headers[name] = value;
  }
  const sent = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  return required.every((name) => sent.has(name.toLowerCase())) ? headers : {};
}
