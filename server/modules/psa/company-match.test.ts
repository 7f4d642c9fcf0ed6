import { describe, expect, it } from 'vitest';
import { normalizeName, suggestCompanies } from './company-match.ts';

const companies = [
  { id: 'AcmeCorp', name: 'Acme Corporation', identifier: 'AcmeCorp' },
  { id: 'Globex', name: 'Globex Inc.', identifier: 'Globex' },
  { id: 'Init1', name: 'Initech', identifier: 'Init1' },
  { id: 'Init2', name: 'Initech GmbH', identifier: 'Init2' },
  { id: 'Muller', name: 'Müller & Söhne AG', identifier: null },
];

describe('company suggestions', () => {
  it.each([
    ['Acme Corporation', 'acme'],
    ['  The Globex, Inc. ', 'globex'],
    ['Müller & Söhne AG', 'muller sohne'],
  ])('normalizes %j to %j', (name, expected) => expect(normalizeName(name)).toBe(expected));

  it.each([
    { client: { id: 'c', name: 'ACME', aliases: [] }, expected: { companyId: 'AcmeCorp', matchedOn: 'ACME' } },
    { client: { id: 'c', name: 'Acme HQ', aliases: ['Nope', 'Acme Corp.'] }, expected: { companyId: 'AcmeCorp', matchedOn: 'Acme Corp.' } },
    { client: { id: 'c', name: 'globex', aliases: [] }, expected: { companyId: 'Globex', matchedOn: 'globex' } },
    { client: { id: 'c', name: 'Mueller', aliases: ['Muller und Sohne'] }, expected: null },
    { client: { id: 'c', name: 'Muller Sohne', aliases: [] }, expected: { companyId: 'Muller', matchedOn: 'Muller Sohne' } },
    // Two companies answer to "Initech": no suggestion rather than a guess.
    { client: { id: 'c', name: 'Initech', aliases: [] }, expected: null },
    { client: { id: 'c', name: 'Initech', aliases: ['Init2'] }, expected: { companyId: 'Init2', matchedOn: 'Init2' } },
  ])('suggests for $client.name / $client.aliases', ({ client, expected }) => {
    const got = suggestCompanies([client], companies).get('c') ?? null;
    if (expected === null) expect(got).toBeNull();
    else expect(got).toMatchObject(expected);
  });
});
