import type { PsaCompany } from '../../../contract/psa.ts';

/** Words that do not tell companies apart ("Acme Inc." is "Acme"). */
const NOISE = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'gmbh', 'ag', 'sa', 'sarl', 'bv', 'nv', 'plc', 'corp', 'corporation', 'co', 'company', 'the', 'pty', 'srl', 'spa', 'ab', 'as', 'oy']);

/** A name reduced to what identifies it: lower case, letters and digits, legal-form words left out. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !NOISE.has(w))
    .join(' ');
}

/**
 * The suggested company of each client: the PSA company whose name or identifier is the client's name or one of its
 * aliases once normalized (the name first, then the aliases in order). A name matching several companies suggests none.
 */
export function suggestCompanies(clients: Array<{ id: string; name: string; aliases: string[] }>, companies: PsaCompany[]) {
  const index = new Map<string, PsaCompany[]>();
  const add = (key: string, c: PsaCompany) => {
    if (!key) return;
    const list = index.get(key) ?? [];
    if (!list.includes(c)) list.push(c);
    index.set(key, list);
  };
  for (const c of companies) {
    add(normalizeName(c.name), c);
    if (c.identifier) add(normalizeName(c.identifier), c);
  }
  const out = new Map<string, { companyId: string; companyName: string; matchedOn: string }>();
  for (const client of clients) {
    for (const candidate of [client.name, ...client.aliases]) {
      const hits = index.get(normalizeName(candidate));
      if (hits?.length === 1) {
        out.set(client.id, { companyId: hits[0].id, companyName: hits[0].name, matchedOn: candidate });
        break;
      }
    }
  }
  return out;
}
