import { randomInt } from 'node:crypto';
import { DEFAULT_EMAIL_SETTINGS, EmailSettings, type EmailSettingsChange } from '../../../contract/integrations.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN_LENGTH = 24;

/**
 * The local part of an integration's address: 24 characters of [a-z0-9] (about 124 bits), lower case because mail
 * systems may change the case of a local part. Random, so neither the key nor another tenant's address can be worked
 * out from it.
 */
export function newEmailToken(): string {
  let token = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) token += ALPHABET[randomInt(ALPHABET.length)];
  return token;
}

/** Could this be an address token at all (checked before any look-up)? */
export const looksLikeEmailToken = (s: string) => s.length === TOKEN_LENGTH && /^[a-z0-9]+$/.test(s);

export const emailAddressOf = (token: string | null, domain: string) => (token ? `${token}@${domain}` : null);

/** The stored rules (JSON text), each missing or unreadable field at its default. */
export function readEmailSettings(json: string | null): EmailSettings {
  if (!json) return DEFAULT_EMAIL_SETTINGS;
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    return DEFAULT_EMAIL_SETTINGS;
  }
  if (!stored || typeof stored !== 'object') return DEFAULT_EMAIL_SETTINGS;
  const out: Record<string, unknown> = { ...DEFAULT_EMAIL_SETTINGS };
  for (const [field, schema] of Object.entries(EmailSettings.shape)) {
    const v = schema.safeParse((stored as Record<string, unknown>)[field]);
    if (v.success) out[field] = v.data;
  }
  return out as EmailSettings;
}

/** The rules after a change (contract EmailSettingsInput, as validated): what it leaves out stays. */
export function mergeEmailSettings(current: EmailSettings, change: EmailSettingsChange | undefined): EmailSettings {
  if (!change) return current;
  const next: EmailSettings = { ...current };
  if (change.dedupPattern !== undefined) next.dedupPattern = change.dedupPattern;
  if (change.dedupField !== undefined) next.dedupField = change.dedupField;
  if (change.resolvePattern !== undefined) next.resolvePattern = change.resolvePattern;
  if (change.resolveField !== undefined) next.resolveField = change.resolveField;
  if (change.priorityWords !== undefined) next.priorityWords = change.priorityWords;
  if (change.defaultPriority !== undefined) next.defaultPriority = change.defaultPriority;
  return next;
}
