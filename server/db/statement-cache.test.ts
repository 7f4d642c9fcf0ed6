import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database.ts';

describe('SQLite statement cache', () => {
  it('prepares a SQL text once, keeps the most recently used, and drops the least recently used past its size', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const cached = withStatementCache(sqlite, 2);
    const a = cached.prepare('select 1 as v');
    expect(cached.prepare('select 1 as v')).toBe(a);
    const b = cached.prepare('select 2 as v');
    cached.prepare('select 1 as v'); // a is now the most recently used
    cached.prepare('select 3 as v'); // evicts b
    expect(cached.prepare('select 1 as v')).toBe(a);
    expect(cached.prepare('select 2 as v')).not.toBe(b);
    cached.close();
  });

  it('answers correctly after the schema changes under a cached statement', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const cached = withStatementCache(sqlite);
    sqlite.exec('create table t (a integer)');
    sqlite.exec('insert into t values (1)');
    expect(cached.prepare('select * from t').all()).toEqual([{ a: 1 }]);
    sqlite.exec('alter table t add column b text');
    sqlite.exec("update t set b = 'x'");
    expect(cached.prepare('select * from t').all()).toEqual([{ a: 1, b: 'x' }]);
    sqlite.exec('drop table t');
    expect(() => cached.prepare('select * from t').all()).toThrow(/no such table/);
    sqlite.exec('create table t (c integer)');
    sqlite.exec('insert into t values (5)');
    expect(cached.prepare('select * from t').all()).toEqual([{ c: 5 }]);
    cached.close();
  });
});
