import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.ts';

/** Every migration, in order. Append new ones; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
};
