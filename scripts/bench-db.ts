// A fresh database for one benchmark run: a SQLite file in a temp folder, or a new PostgreSQL schema; drop() removes it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface BenchTarget {
  name: 'sqlite' | 'postgres';
  url: string;
}

export function freshDatabase(target: BenchTarget) {
  if (target.name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-bench-'));
    return { url: path.join(dir, 'bench.db'), schema: null as string | null, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${Date.now().toString(36)}_${randomUUID().slice(0, 8)}`;
  return {
    url: target.url,
    schema: schema as string | null,
    drop: async () => {
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`);
      await c.end();
    },
  };
}
